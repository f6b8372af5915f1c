"""The phone-verify CLI as support staff and operators use it."""
import json
import os
import subprocess

from conftest import BINARY, Server


def run(args, data_dir, env=None):
    e = dict(os.environ, PHONE_VERIFY_DATA_DIR=data_dir)
    e.update(env or {})
    return subprocess.run([BINARY] + args, env=e, capture_output=True, text=True, timeout=30)


def test_phone_parse_explains_numbers(data_dir):
    ok = json.loads(run(["phone", "parse", "07400 123456", "--region", "GB"], data_dir).stdout)
    assert ok == {"valid": True, "e164": "+447400123456", "region": "GB", "type": "mobile",
                  "international": "+44 7400 123456", "reason": None}
    bad = json.loads(run(["phone", "parse", "+1 415 555"], data_dir).stdout)
    assert bad["valid"] is False and bad["reason"] == "too_short" and bad["e164"] is None


def test_config_check_redacts_secrets_and_reports_problems(data_dir):
    secret = "a-very-secret-code-secret-0123456789"
    good = run(["config", "check"], data_dir, {"PHONE_VERIFY_CODE_SECRET": secret})
    assert good.returncode == 0
    report = json.loads(good.stdout)
    assert report["valid"] is True
    assert report["settings"]["PHONE_VERIFY_CODE_SECRET"] == "(set, redacted)"
    assert secret not in good.stdout
    bad = run(["config", "check"], data_dir, {"PHONE_VERIFY_CODE_LENGTH": "3", "PHONE_VERIFY_CODE_LENGHT": "8"})
    assert bad.returncode == 78
    report = json.loads(bad.stdout)
    assert report["valid"] is False
    assert any(p.startswith("PHONE_VERIFY_CODE_LENGTH") for p in report["problems"])
    assert "PHONE_VERIFY_CODE_LENGHT" in report["unknown_variables"]


def test_keys_rotate_keeps_the_old_key_published_until_retired(data_dir):
    server = Server(data_dir).start()
    _, _, before = server.request("GET", "/.well-known/jwks.json")
    server.stop()
    old = before["keys"][0]["kid"]
    assert run(["keys", "rotate"], data_dir).returncode == 0
    listed = [json.loads(line) for line in run(["keys", "list"], data_dir).stdout.splitlines()]
    status = {k["kid"]: k["status"] for k in listed}
    assert status[old] == "verifying" and list(status.values()).count("active") == 1
    server = Server(data_dir).start()
    try:
        _, _, after = server.request("GET", "/.well-known/jwks.json")
        kids = [k["kid"] for k in after["keys"]]
        assert old in kids and len(kids) == 2
    finally:
        server.stop()
    assert run(["keys", "retire", old], data_dir).returncode == 0
    active = [json.loads(line)["kid"] for line in run(["keys", "list"], data_dir).stdout.splitlines() if json.loads(line)["status"] == "active"]
    assert run(["keys", "retire", active[0]], data_dir).returncode != 0  # the active key cannot be retired
    server = Server(data_dir).start()
    try:
        _, _, retired = server.request("GET", "/.well-known/jwks.json")
        assert [k["kid"] for k in retired["keys"]] == active
    finally:
        server.stop()


def test_migrate_reports_the_schema_version(data_dir):
    out = run(["migrate"], data_dir)
    assert out.returncode == 0
    assert json.loads(out.stdout)["schema_version"] >= 5
