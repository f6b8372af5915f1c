#!/usr/bin/env python3
"""Offline checks of everything under Deploy/ (no Docker, no cluster needed).

    python3 Deploy/check.py            # from the repository root (needs PyYAML)

Always: every YAML file parses (multi-document), the Grafana dashboard is valid JSON with sane
panels and only known metrics, every PHONE_VERIFY_* name used in Deploy/ is a real setting (the
settings table, Sources/Application/App/Settings+*.swift), the Kubernetes manifests have their
required fields and consistent cross-references (selectors, ports, ConfigMap/Secret/volume names, kustomization resources),
the compose file's replicas, load balancer, trusted proxy and Prometheus targets agree, and every
alert has severity, summary, description and a runbook link into docs/OPERATIONS.md.

When the tools are installed (PATH, or PROMTOOL / NGINX / KUBERNETES_VALIDATE naming them):
  promtool check config, check rules and test rules (alerts.test.yml);
  nginx -t on nginx.conf with the replica names replaced by local addresses;
  kubernetes-validate --strict on the manifests.
Debian's promtool is built without Kubernetes discovery, so prometheus.kubernetes.yml is checked
by promtool with its kubernetes_sd_configs replaced by static_configs.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import yaml
except ImportError:  # pragma: no cover
    sys.exit("Deploy/check.py needs PyYAML: pip install pyyaml")

DEPLOY = Path(__file__).resolve().parent
ROOT = DEPLOY.parent
results: list[tuple[str, bool, str]] = []


def check(name: str):
    def wrap(fn):
        try:
            detail = fn() or ""
            results.append((name, True, detail))
        except Exception as error:  # noqa: BLE001 - report every failure, keep going
            results.append((name, False, f"{type(error).__name__}: {error}"))
        return fn
    return wrap


def load_all(path: Path) -> list:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc is not None]


def tool(env: str, name: str) -> str | None:
    return os.environ.get(env) or shutil.which(name)


def run(args: list[str], **kw) -> str:
    proc = subprocess.run(args, capture_output=True, text=True, **kw)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} exited {proc.returncode}: {proc.stdout}{proc.stderr}")
    return proc.stdout + proc.stderr


YAML_FILES = sorted(p for p in DEPLOY.rglob("*") if p.suffix in (".yml", ".yaml") and "secrets" not in p.parts)
METRICS = {
    "phoneverify_http_requests_total", "phoneverify_http_request_duration_seconds",
    "phoneverify_refusals_total", "phoneverify_verifications_total", "phoneverify_checks_total",
    "phoneverify_sms_sends_total", "phoneverify_gateway_request_duration_seconds",
    "phoneverify_gateway_circuit_state", "phoneverify_outbox_depth", "phoneverify_outbox_oldest_age_seconds",
    "phoneverify_build_info",
}
RUNBOOK_ANCHORS = {"gateway-down", "pumping-attack", "key-rotation", "outbox-backlog"}


def metric_names(expr: str) -> set[str]:
    names = set(re.findall(r"\b(phoneverify_[a-z_]+)", expr))
    return {re.sub(r"_(bucket|sum|count)$", "", n) if n.endswith(("_bucket", "_sum", "_count")) else n for n in names}


def known_settings() -> set[str] | None:
    """The settings table: one `Setting<Type>("PHONE_VERIFY_…", .section, …)` per setting, in the
    section files Sources/Application/App/Settings+*.swift."""
    sources = sorted((ROOT / "Sources/Application/App").glob("Settings+*.swift"))
    if not sources:
        return None
    return {name for source in sources
            for name in re.findall(r'Setting<.*?>\(\s*"(PHONE_VERIFY_[A-Z0-9_]+)"', source.read_text(), re.S)}


@check("YAML parses (multi-document)")
def _yaml():
    for path in YAML_FILES:
        docs = load_all(path)
        assert docs, f"{path} is empty"
    return f"{len(YAML_FILES)} files"


@check("PHONE_VERIFY_* names are real settings")
def _settings():
    known = known_settings()
    if known is None:
        return "skipped: Sources/Application/App/Settings+*.swift not found"
    used: dict[str, set[str]] = {}
    sources = [DEPLOY / "kubernetes/configmap.yaml", DEPLOY / "kubernetes/secret.yaml",
               DEPLOY / "compose/compose.yaml", DEPLOY / "compose/compose.postgres.yaml",
               DEPLOY / "compose/make-secrets", DEPLOY / "systemd/phone-verify.env.example"]
    for path in sources:
        if path.exists():
            for name in re.findall(r"\b(PHONE_VERIFY_[A-Z0-9_]+)\s*[:=]", path.read_text()):
                used.setdefault(name, set()).add(path.name)
    unknown = {n: sorted(f) for n, f in used.items() if n not in known}
    assert not unknown, f"unknown settings: {unknown}"
    return f"{len(used)} names"


# ------------------------------------------------------------------------------------- Prometheus
@check("alerts: labels, annotations, runbook links")
def _alerts():
    rules = yaml.safe_load((DEPLOY / "prometheus/alerts.yml").read_text())
    alerts = [r for g in rules["groups"] for r in g["rules"] if "alert" in r]
    names = [a["alert"] for a in alerts]
    assert len(names) == len(set(names)), "duplicate alert names"
    anchors_used = set()
    for a in alerts:
        assert a["labels"].get("severity") in ("warning", "critical"), a["alert"]
        ann = a["annotations"]
        for key in ("summary", "description", "runbook_url"):
            assert ann.get(key), f"{a['alert']} has no {key}"
        assert "docs/OPERATIONS.md" in ann["runbook_url"], f"{a['alert']}: runbook_url must point into docs/OPERATIONS.md"
        if "#" in ann["runbook_url"]:
            anchor = ann["runbook_url"].split("#", 1)[1]
            assert anchor in RUNBOOK_ANCHORS, f"{a['alert']}: unknown anchor #{anchor}"
            anchors_used.add(anchor)
        for m in metric_names(a["expr"]):
            assert m in METRICS, f"{a['alert']}: unknown metric {m}"
    assert anchors_used == RUNBOOK_ANCHORS, f"anchors never used: {RUNBOOK_ANCHORS - anchors_used}"
    ops = ROOT / "docs/OPERATIONS.md"
    note = ""
    if ops.exists():
        slugs = {re.sub(r"[^a-z0-9 -]", "", h.strip().lower()).replace(" ", "-")
                 for h in re.findall(r"^#+\s+(.*)$", ops.read_text(), re.M)}
        missing = RUNBOOK_ANCHORS - slugs
        assert not missing, f"docs/OPERATIONS.md has no heading for #{', #'.join(sorted(missing))}"
    else:
        note = " (docs/OPERATIONS.md not present: anchors not checked against it)"
    return f"{len(alerts)} alerts{note}"


@check("promtool: config, rules, unit tests")
def _promtool():
    promtool = tool("PROMTOOL", "promtool")
    if not promtool:
        return "skipped: promtool not installed"
    out = run([promtool, "check", "config", "prometheus.yml"], cwd=DEPLOY / "prometheus")
    out += run([promtool, "test", "rules", "alerts.test.yml"], cwd=DEPLOY / "prometheus")
    # Kubernetes discovery may be compiled out (Debian): check the rest of that file.
    k8s = yaml.safe_load((DEPLOY / "prometheus/prometheus.kubernetes.yml").read_text())
    for job in k8s["scrape_configs"]:
        if job.pop("kubernetes_sd_configs", None) is not None:
            job["static_configs"] = [{"targets": ["10.0.0.1:8080"]}]
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(DEPLOY / "prometheus/alerts.yml", tmp)
        Path(tmp, "prometheus.kubernetes.yml").write_text(yaml.safe_dump(k8s))
        out += run([promtool, "check", "config", "prometheus.kubernetes.yml"], cwd=tmp)
    return "ok"


# ---------------------------------------------------------------------------------------- Grafana
@check("Grafana dashboard")
def _dashboard():
    d = json.loads((DEPLOY / "grafana/phone-verify-dashboard.json").read_text())
    assert 36 <= d["schemaVersion"] <= 41 and d["uid"] and d["title"]
    variables = {v["name"]: v for v in d["templating"]["list"]}
    assert variables["datasource"]["type"] == "datasource" and variables["datasource"]["query"] == "prometheus"
    ids, cells, exprs = set(), {}, 0
    for p in d["panels"]:
        assert p["id"] not in ids, f"duplicate panel id {p['id']}"
        ids.add(p["id"])
        g = p["gridPos"]
        assert g["x"] + g["w"] <= 24, p["title"]
        for y in range(g["y"], g["y"] + g["h"]):
            for x in range(g["x"], g["x"] + g["w"]):
                assert (x, y) not in cells, f"{p['title']} overlaps {cells[(x, y)]}"
                cells[(x, y)] = p["title"]
        if p["type"] != "row":
            assert p["datasource"]["uid"] == "${datasource}", p["title"]
        for t in p.get("targets", []):
            exprs += 1
            assert t["datasource"]["uid"] == "${datasource}", p["title"]
            for m in metric_names(t["expr"]):
                assert m in METRICS, f"{p['title']}: unknown metric {m}"
            for v in re.findall(r"\$(\w+)", t["expr"]):
                assert v in variables or v.startswith("__"), f"{p['title']}: unknown variable ${v}"
    for title in ("sends", "conversion", "refusals", "circuit", "outbox", "latency p50", "latency p99", "5xx"):
        assert any(title in p["title"].lower() for p in d["panels"]), f"no panel about {title}"
    promtool = tool("PROMTOOL", "promtool")
    if promtool:  # every query is valid PromQL
        rules = []
        for i, p in enumerate(d["panels"]):
            for t in p.get("targets", []):
                e = t["expr"].replace("$__rate_interval", "1m").replace("$min_volume", "10")
                e = re.sub(r"\$(\w+)", ".*", e)
                rules.append({"record": f"dashboard:query_{len(rules)}", "expr": e})
        with tempfile.NamedTemporaryFile("w", suffix=".yml") as f:
            yaml.safe_dump({"groups": [{"name": "dashboard", "rules": rules}]}, f)
            f.flush()
            run([promtool, "check", "rules", f.name])
    return f"{len(d['panels'])} panels, {exprs} queries" + ("" if promtool else " (PromQL not parsed: no promtool)")


# ---------------------------------------------------------------------------------------- Compose
@check("compose.postgres.yaml: services, secrets, load balancer, Prometheus targets")
def _compose():
    c = yaml.safe_load((DEPLOY / "compose/compose.postgres.yaml").read_text())
    services = c["services"]
    replicas = sorted(s for s in services if re.fullmatch(r"phone-verify-\d+", s))
    assert len(replicas) == 3, replicas
    assert services["postgres"]["image"].startswith("postgres:15") and "healthcheck" in services["postgres"]
    nginx_ip = services["nginx"]["networks"]["backend"]["ipv4_address"]
    for name in replicas:
        s = services[name]
        env = s["environment"]
        assert env["PHONE_VERIFY_MODE"] == "production"
        assert env["PHONE_VERIFY_LISTEN"] == "0.0.0.0:8080"
        assert env["PHONE_VERIFY_TRUSTED_PROXIES"] == f"{nginx_ip}/32", "trusted proxy is not the load balancer"
        assert "console" not in env["PHONE_VERIFY_GATEWAYS"]
        for secret in s["secrets"]:
            assert secret["source"] in c["secrets"], secret
        targets = {f"/run/secrets/{x['target']}" for x in s["secrets"]}
        assert env["PHONE_VERIFY_SIGNING_KEY_FILE"] in targets and env["PHONE_VERIFY_CONFIG_FILE"] in targets
        assert s["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name, s in services.items():
        for net in (s.get("networks") or {}):
            assert net in c["networks"], (name, net)
        for vol in s.get("volumes", []):
            src = vol.split(":", 1)[0]
            if src.startswith("."):
                assert (DEPLOY / "compose" / src).exists(), f"{name}: {src} does not exist"
            else:
                assert src in c["volumes"], (name, src)
    assert services["nginx"]["ports"] == ["127.0.0.1:8080:8080"]
    conf = (DEPLOY / "compose/nginx.conf").read_text()
    upstream = re.findall(r"^\s*server\s+([\w.-]+):8080\b", conf, re.M)
    assert sorted(upstream) == replicas, f"nginx upstream {upstream} != {replicas}"
    for directive in ("client_max_body_size 16k", "X-Forwarded-For $proxy_add_x_forwarded_for",
                      "proxy_read_timeout", "proxy_connect_timeout", "max_fails="):
        assert directive in conf, f"nginx.conf lacks {directive}"
    prom = yaml.safe_load((DEPLOY / "prometheus/prometheus.yml").read_text())
    job = next(j for j in prom["scrape_configs"] if j["job_name"] == "phone-verify")
    targets = sorted(t.split(":")[0] for sc in job["static_configs"] for t in sc["targets"])
    assert targets == replicas, f"Prometheus targets {targets} != {replicas}"
    mount = next(v for v in services["prometheus"]["volumes"] if "/etc/prometheus" in v)
    assert (DEPLOY / "compose" / mount.split(":")[0]).resolve() == DEPLOY / "prometheus"
    # Production replicas refuse anonymous scrapes: Prometheus must send the metrics key.
    key_file = job["authorization"]["credentials_file"]
    assert key_file in {f"/run/secrets/{x['target']}" for x in services["prometheus"].get("secrets", [])}, key_file
    assert "PHONE_VERIFY_SCOPED_API_KEYS=metrics=" in (DEPLOY / "compose/make-secrets").read_text()
    return f"{len(services)} services"


@check("image defaults to production; the dev compose exposes /dev on loopback ports only")
def _image():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^\s*PHONE_VERIFY_MODE=production\b", dockerfile, re.M), "Dockerfile must set ENV PHONE_VERIFY_MODE=production"
    service = yaml.safe_load((DEPLOY / "compose/compose.yaml").read_text())["services"]["phone-verify"]
    if str(service["environment"].get("PHONE_VERIFY_DEV_EXPOSE", "false")).lower() == "true":
        assert all(p.startswith("127.0.0.1:") for p in service["ports"]), "dev endpoints exposed on a public port"
    return "ok"


@check("README's development stack: the compose line, its mode, port and introspection key")
def _readme_stack():
    readme = (ROOT / "README.md").read_text()
    lines = re.findall(r"^docker compose -f (\S+) up --build", readme, re.M)
    assert lines, "README.md has no `docker compose -f … up --build` line"
    for path in lines:
        assert (ROOT / path).exists(), f"README.md names {path}, which does not exist"
    service = yaml.safe_load((ROOT / lines[0]).read_text())["services"]["phone-verify"]
    env = service["environment"]
    assert env.get("PHONE_VERIFY_MODE") == "development", "the README's stack must be the development one"
    assert all(str(p).startswith("127.0.0.1:8080:") for p in service["ports"]), "the walkthrough uses 127.0.0.1:8080"
    # The key the README exports is the one compose passes on, and no key is written in the file.
    exported = re.search(r"^export (\w+)=\$\(openssl rand", readme, re.M)
    assert exported, "README.md must export the introspection key before `docker compose up`"
    key = str(env.get("PHONE_VERIFY_INTROSPECTION_API_KEYS", ""))
    assert key in (f"${{{exported.group(1)}:-}}", f"${{{exported.group(1)}}}"), f"compose reads {key!r}, README exports {exported.group(1)}"
    assert f"Bearer ${exported.group(1)}" in readme, "the README's introspection step must present that key"
    return f"{lines[0]}, key from ${exported.group(1)}"


@check("nginx -t")
def _nginx():
    nginx = tool("NGINX", "nginx")
    if not nginx:
        return "skipped: nginx not installed"
    conf = (DEPLOY / "compose/nginx.conf").read_text()
    with tempfile.TemporaryDirectory() as tmp:
        # The replica names resolve only inside the compose network.
        conf = re.sub(r"phone-verify-(\d+):8080", lambda m: f"127.0.0.1:{18080 + int(m.group(1))}", conf)
        conf = conf.replace("pid /tmp/nginx.pid;", f"pid {tmp}/nginx.pid;")
        conf = re.sub(r"/tmp/nginx-", f"{tmp}/nginx-", conf)
        Path(tmp, "nginx.conf").write_text(conf)
        Path(tmp, "logs").mkdir()
        run([nginx, "-t", "-q", "-p", tmp + "/", "-c", f"{tmp}/nginx.conf", "-e", f"{tmp}/logs/error.log"])
    return "ok"


# ------------------------------------------------------------------------------------- Kubernetes
@check("Kubernetes manifests: required fields and cross-references")
def _kubernetes():
    k = DEPLOY / "kubernetes"
    kust = yaml.safe_load((k / "kustomization.yaml").read_text())
    assert kust["kind"] == "Kustomization" and "namespace" not in kust, "manifests must stay namespace-agnostic"
    objects = {}
    for res in kust["resources"]:
        for doc in load_all(k / res):
            for field in ("apiVersion", "kind", "metadata"):
                assert field in doc, f"{res}: no {field}"
            assert "namespace" not in doc["metadata"], f"{res}: hard-coded namespace"
            objects[(doc["kind"], doc["metadata"]["name"])] = doc
    kinds = {kind for kind, _ in objects}
    assert {"Deployment", "Service", "ConfigMap", "Secret", "PodDisruptionBudget", "HorizontalPodAutoscaler"} <= kinds, kinds
    dep = objects[("Deployment", "phone-verify")]
    spec, pod = dep["spec"], dep["spec"]["template"]["spec"]
    labels = dep["spec"]["template"]["metadata"]["labels"]
    assert spec["replicas"] == 3
    assert spec["strategy"]["rollingUpdate"]["maxUnavailable"] == 0
    assert spec["selector"]["matchLabels"].items() <= labels.items()
    assert pod["terminationGracePeriodSeconds"] == 45 and pod["enableServiceLinks"] is False
    (c,) = pod["containers"]
    ports = {p["name"]: p["containerPort"] for p in c["ports"]}
    assert c["readinessProbe"]["httpGet"]["path"] == "/readyz?gateways=false", \
        "readinessProbe must GET /readyz?gateways=false (a vendor outage must not take every pod out)"
    assert c["livenessProbe"]["httpGet"]["path"] == "/healthz", "livenessProbe must GET /healthz"
    assert "startupProbe" in c and "sleep" in " ".join(c["lifecycle"]["preStop"]["exec"]["command"])
    for probe in ("readinessProbe", "livenessProbe", "startupProbe"):
        assert c[probe]["httpGet"]["port"] in ports
    sc = c["securityContext"]
    assert sc["readOnlyRootFilesystem"] and not sc["allowPrivilegeEscalation"] and pod["securityContext"]["runAsNonRoot"]
    for key in ("requests", "limits"):
        assert {"cpu", "memory"} <= c["resources"][key].keys()
    volumes = {v["name"]: v for v in pod["volumes"]}
    mounts = {m["mountPath"]: m["name"] for m in c["volumeMounts"]}
    for name in mounts.values():
        assert name in volumes, f"volumeMount {name} has no volume"
    assert "emptyDir" in volumes[mounts["/tmp"]]
    for ref in c["envFrom"]:
        kind, name = ("ConfigMap", ref["configMapRef"]["name"]) if "configMapRef" in ref else ("Secret", ref["secretRef"]["name"])
        assert (kind, name) in objects, f"envFrom {kind}/{name} missing"
    config = objects[("ConfigMap", "phone-verify-config")]["data"]
    key_file = config["PHONE_VERIFY_SIGNING_KEY_FILE"]
    key_dir, key_name = key_file.rsplit("/", 1)
    secret_volume = volumes[mounts[key_dir]]["secret"]
    secret = objects[("Secret", secret_volume["secretName"])]
    assert key_name in [i["path"] for i in secret_volume["items"]]
    assert all(i["key"] in secret["stringData"] for i in secret_volume["items"])
    assert not any(m.get("subPath") for m in c["volumeMounts"]), "subPath mounts never see Secret updates"
    for (kind, name), doc in objects.items():
        if kind == "Secret":
            for key, value in doc.get("stringData", {}).items():
                assert "REPLACE-ME" in value, f"Secret {name}/{key} looks like a real value"
    svc = objects[("Service", "phone-verify")]
    assert svc["spec"]["selector"].items() <= labels.items()
    for p in svc["spec"]["ports"]:
        assert p["targetPort"] in ports or p["targetPort"] in ports.values(), f"Service targetPort {p['targetPort']} is no container port"
    pdb = objects[("PodDisruptionBudget", "phone-verify")]
    assert pdb["spec"]["minAvailable"] == 2 and pdb["spec"]["selector"]["matchLabels"].items() <= labels.items()
    hpa = objects[("HorizontalPodAutoscaler", "phone-verify")]
    assert hpa["spec"]["scaleTargetRef"]["name"] == "phone-verify" and hpa["spec"]["minReplicas"] >= pdb["spec"]["minAvailable"] + 1
    # Every replica the autoscaler may run, plus the rollout's surge, holds a full pool: together
    # they must fit the database's max_connections (minus superuser slots and room for
    # migrations and psql), or scale-up fails with "too many clients" exactly under load.
    max_connections = int(hpa["metadata"].get("annotations", {}).get("phone-verify/postgres-max-connections", "0"))
    assert max_connections > 0, "the HPA must declare phone-verify/postgres-max-connections"
    pool = int(config.get("PHONE_VERIFY_POSTGRES_POOL_SIZE", "16"))
    surge = spec["strategy"]["rollingUpdate"].get("maxSurge", "25%")  # Kubernetes' default
    if isinstance(surge, str) and surge.endswith("%"):
        surge = -(-hpa["spec"]["maxReplicas"] * int(surge[:-1]) // 100)  # rounded up, as Kubernetes does
    # A replaced pod keeps its pool while it drains (terminationGracePeriodSeconds) as the next
    # surge pod starts: one more pod's pool.
    replicas = hpa["spec"]["maxReplicas"] + int(surge) + 1
    headroom = 3 + 5  # superuser_reserved_connections, migrations and an operator's psql
    assert replicas * pool + headroom <= max_connections, (
        f"{replicas} pods (maxReplicas + maxSurge + one draining) x pool {pool} + {headroom} = {replicas * pool + headroom} "
        f"exceeds max_connections {max_connections}: lower the pool or maxReplicas, raise max_connections, or add a pooler")
    (metric,) = hpa["spec"]["metrics"]
    assert metric["resource"]["name"] == "cpu" and metric["resource"]["target"]["averageUtilization"] == 70
    annotations = dep["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/scrape"] == "true" and int(annotations["prometheus.io/port"]) in ports.values()
    return f"{len(objects)} objects"


@check("kubernetes-validate --strict")
def _kubernetes_validate():
    kv = tool("KUBERNETES_VALIDATE", "kubernetes-validate")
    if not kv:
        return "skipped: kubernetes-validate not installed (pip install kubernetes-validate)"
    files = [str(DEPLOY / "kubernetes" / r) for r in yaml.safe_load((DEPLOY / "kubernetes/kustomization.yaml").read_text())["resources"]]
    for version in ("1.27.0", "1.30.0"):
        run([kv, "--strict", "--quiet", "-k", version, *files])
    return "ok (1.27, 1.30)"


def main() -> int:
    width = max(len(n) for n, _, _ in results)
    for name, ok, detail in results:
        print(f"{'ok  ' if ok else 'FAIL'} {name.ljust(width)}  {detail}")
    failed = sum(1 for _, ok, _ in results if not ok)
    print(f"deploy: {len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
