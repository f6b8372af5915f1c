"""Who may reach what on the real binary: development endpoints, scoped API keys, /metrics."""
import base64
import json
import os
import subprocess
import urllib.parse
import urllib.request

from conftest import BINARY, Server

# Keys strong enough for production mode (docs/OPERATIONS.md, "API keys").
ADMIN = "admin-key-Xv9LrT0mWb5ZkP1yNc4HdJ8sFgA7Kq2"
INTROSPECT = "introspection-key-T0mWb5ZkP1yNc4HdJ8sF"
METRICS = "metrics-key-5ZkP1yNc4HdJ8sFgA7Kq2Xv9L"
FACTORS = "factors-lockouts-key-c4HdJ8sFgA7Kq2Xv9"
READ = "read-only-key-8sFgA7Kq2Xv9LrT0mWb5ZkP1"
KEYS = {
    "PHONE_VERIFY_ADMIN_API_KEYS": ADMIN,
    "PHONE_VERIFY_INTROSPECTION_API_KEYS": INTROSPECT,
    "PHONE_VERIFY_SCOPED_API_KEYS": f"metrics={METRICS}, factors+lockouts={FACTORS},read={READ}",
}
PHONE = "+14155552674"


def bearer(key):
    return {"Authorization": "Bearer " + key}


def introspect(server, token, key):
    return server.request("POST", "/v1/credentials/introspect", raw=urllib.parse.urlencode({"token": token}).encode(),
                          headers=dict(bearer(key), **{"Content-Type": "application/x-www-form-urlencoded"}))


def production_env(data_dir):
    key_file = os.path.join(data_dir, "signing-key.pem")
    subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", key_file], check=True, capture_output=True)
    return {
        "PHONE_VERIFY_MODE": "production",
        "PHONE_VERIFY_ISSUER": "https://verify.example.test",
        "PHONE_VERIFY_CODE_SECRET": base64.b64encode(os.urandom(32)).decode(),
        "PHONE_VERIFY_SIGNING_KEY_FILE": key_file,
        "PHONE_VERIFY_GATEWAYS": "webhook",
        "PHONE_VERIFY_WEBHOOK_URL": "http://127.0.0.1:9/sms",
        "PHONE_VERIFY_WEBHOOK_SECRET": "whsec_" + base64.b64encode(b"0123456789abcdef0123456789abcdef").decode(),
    }


def test_production_names_the_missing_proof_at_start_and_in_config_check(data_dir):
    """docs/ABUSE.md, "Without a provider": no challenge provider is a warning, not a refusal."""
    env = production_env(data_dir)
    checked = subprocess.run([BINARY, "config", "check"], env=dict(os.environ, **env),
                             capture_output=True, text=True, timeout=30)
    report = json.loads(checked.stdout)
    assert report["valid"] is True, report["problems"]
    assert any("no challenge provider is configured" in w for w in report["warnings"]), report["warnings"]
    server = Server(data_dir, env).start()
    try:
        assert any("no challenge provider is configured" in line for line in server.stderr_lines + server.stdout_lines)
    finally:
        server.stop()

def test_dev_endpoints_answer_loopback_clients_only(data_dir):
    # The proxy on 127.0.0.1 is trusted, so X-Forwarded-For names the real client.
    server = Server(data_dir, {"PHONE_VERIFY_TRUSTED_PROXIES": "127.0.0.1/32"}).start()
    try:
        assert server.request("GET", "/dev/messages")[0] == 200
        assert server.request("GET", "/dev/messages", headers={"X-Forwarded-For": "127.0.0.1"})[0] == 200
        for path in ["/dev/messages", "/dev/inbox", "/dev/inbox/events", "/dev/anything"]:
            status, _, body = server.request("GET", path, headers={"X-Forwarded-For": "203.0.113.7"})
            assert status == 404 and body["error"]["code"] == "not_found", path
        assert not [line for line in server.stderr_lines if "PHONE_VERIFY_DEV_EXPOSE" in line]
    finally:
        server.stop()


def test_dev_expose_serves_every_client_and_warns_at_start(data_dir):
    env = {"PHONE_VERIFY_TRUSTED_PROXIES": "127.0.0.1/32", "PHONE_VERIFY_DEV_EXPOSE": "true"}
    server = Server(data_dir, env).start()
    try:
        status, _, body = server.request("GET", "/dev/messages", headers={"X-Forwarded-For": "203.0.113.7"})
        assert status == 200 and body == {"messages": []}
        assert [line for line in server.stderr_lines if '"level":"warning"' in line and "PHONE_VERIFY_DEV_EXPOSE" in line]
    finally:
        server.stop()


def test_scoped_keys_reach_their_routes_only(data_dir):
    server = Server(data_dir, KEYS).start()
    try:
        token = server.credential(PHONE)
        # The auth server's key introspects, and can do nothing else.
        status, _, answer = introspect(server, token, INTROSPECT)
        assert status == 200 and answer["active"] is True
        for method, path, body in [("GET", "/v1/admin/fraud", None), ("PUT", "/v1/admin/fraud/country:NG", {"action": "allow"}),
                                   ("DELETE", "/v1/admin/users/u1/factors/fac_1", None)]:
            status, _, refused = server.request(method, path, body, headers=bearer(INTROSPECT))
            assert status == 403 and refused["error"]["code"] == "forbidden", path
        # read: the listings, never a change.
        assert server.request("GET", "/v1/admin/fraud", headers=bearer(READ))[0] == 200
        assert server.request("GET", "/v1/admin/users/u1/factors", headers=bearer(READ))[0] == 200
        assert server.request("PUT", "/v1/admin/fraud/country:NG", {"action": "block"}, headers=bearer(READ))[0] == 403
        assert introspect(server, token, READ)[0] == 403
        # factors (+lockouts): users' factors, not the fraud guard.
        assert server.request("GET", "/v1/admin/users/u1/factors", headers=bearer(FACTORS))[0] == 200
        assert server.request("DELETE", "/v1/admin/users/u1/factors/fac_1", headers=bearer(FACTORS))[0] == 404
        assert server.request("DELETE", "/v1/admin/fraud/country:NG", headers=bearer(FACTORS))[0] == 403
        # The admin key keeps every scope.
        assert server.request("PUT", "/v1/admin/fraud/country:NG", {"action": "allow"}, headers=bearer(ADMIN))[0] == 200
        assert introspect(server, token, ADMIN)[0] == 200
        # No key, or a key nobody configured: 401 as before.
        for headers in [{}, bearer("unknown-key-0123456789abcdef")]:
            status, _, refused = server.request("GET", "/v1/admin/fraud", headers=headers)
            assert status == 401 and refused["error"]["code"] == "unauthenticated"
    finally:
        server.stop()
    for key in [ADMIN, INTROSPECT, METRICS, FACTORS, READ]:
        assert not [line for line in server.stdout_lines + server.stderr_lines if key in line]


def test_scoped_key_syntax_errors_name_the_entry_not_the_key(data_dir):
    env = {"PHONE_VERIFY_SCOPED_API_KEYS": "metrics+root=secret-key-0123456789abcdef,nokey"}
    checked = subprocess.run([BINARY, "config", "check"],
                             env=dict(os.environ, PHONE_VERIFY_DATA_DIR=data_dir, **env), capture_output=True, text=True)
    assert checked.returncode == 78
    # The unknown word is not quoted either: a key written before its scopes would be.
    assert "PHONE_VERIFY_SCOPED_API_KEYS" in checked.stdout and "entry 1 has an unknown scope" in checked.stdout
    assert "secret-key-0123456789abcdef" not in checked.stdout + checked.stderr


def test_metrics_need_a_metrics_key_in_production(data_dir):
    server = Server(data_dir, dict(production_env(data_dir), **KEYS)).start()
    try:
        for headers in [{}, bearer("unknown-key-0123456789abcdef")]:
            status, _, refused = server.request("GET", "/metrics", headers=headers)
            assert status == 401 and refused["error"]["code"] == "unauthenticated"
        assert server.request("GET", "/metrics", headers=bearer(INTROSPECT))[0] == 403
        for key in [METRICS, ADMIN]:
            req = urllib.request.Request(server.base + "/metrics", headers=bearer(key))
            with urllib.request.urlopen(req, timeout=5) as resp:
                assert resp.status == 200 and b"phoneverify_build_info" in resp.read()
        # Probes stay anonymous; the answer says ready or not and nothing more.
        status, _, body = server.request("GET", "/readyz?gateways=false")
        assert status == 200 and body == {"status": "ready"}
    finally:
        server.stop()


def test_metrics_stay_open_in_development(data_dir):
    server = Server(data_dir).start()
    try:
        with urllib.request.urlopen(server.base + "/metrics", timeout=5) as resp:
            assert resp.status == 200
    finally:
        server.stop()


def test_production_refuses_weak_api_keys_and_config_check_says_so(data_dir):
    env = dict(production_env(data_dir), PHONE_VERIFY_ADMIN_API_KEYS="admin-key-0123456789abcdef")
    checked = subprocess.run([BINARY, "config", "check"], env=dict(os.environ, **env), capture_output=True, text=True, timeout=30)
    assert checked.returncode != 0
    assert "PHONE_VERIFY_ADMIN_API_KEYS has keys too weak for production mode (entry 1: shorter than 32 characters)" in checked.stdout + checked.stderr
    assert "admin-key-0123456789abcdef" not in checked.stdout + checked.stderr
    started = subprocess.run([BINARY], env=dict(os.environ, **env), capture_output=True, text=True, timeout=30)
    assert started.returncode != 0 and "too weak for production mode" in started.stderr
