"""Who may reach what on the real binary: scoped API keys."""
import os
import subprocess
import urllib.parse
import urllib.request

from conftest import BINARY, Server

ADMIN = "admin-key-0123456789abcdef"
INTROSPECT = "introspection-key-0123456789"
METRICS = "metrics-key-0123456789abcdef"
FACTORS = "factors-lockouts-key-0123456"
READ = "read-only-key-0123456789abcd"
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
    assert "PHONE_VERIFY_SCOPED_API_KEYS" in checked.stdout and "root" in checked.stdout
    assert "secret-key-0123456789abcdef" not in checked.stdout + checked.stderr
