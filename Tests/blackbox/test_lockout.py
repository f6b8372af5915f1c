"""The failed-check lockout cannot be turned against a number's owner (docs/ABUSE.md, "Failed
checks"): a stranger's wrong codes slow the stranger down, while the owner signs in and steps up
from elsewhere; operators list and lift lockouts over HTTP and with `phone-verify lockout`."""
import os
import subprocess

from conftest import BINARY, Server
from test_mfa import AUDIENCE, ISSUER, FakeAuthServer, bearer

PHONE = "+447400123456"
ADMIN = "admin-key-0123456789abcdef"
OWNER = {"X-Forwarded-For": "198.51.100.7"}
STRANGER = {"X-Forwarded-For": "203.0.113.9"}


def wrong(code):
    return "000000" if code != "000000" else "111111"


def test_a_stranger_cannot_lock_the_owner_out_of_sign_in_or_step_up(data_dir):
    auth = FakeAuthServer()
    env = {"PHONE_VERIFY_AUTH_CORE_JWKS_URL": auth.url, "PHONE_VERIFY_AUTH_CORE_ISSUER": ISSUER,
           "PHONE_VERIFY_AUTH_CORE_AUDIENCE": AUDIENCE, "PHONE_VERIFY_TRUSTED_PROXIES": "127.0.0.1/32",
           "PHONE_VERIFY_ADMIN_API_KEYS": ADMIN,
           # Nine free wrong codes per requester: the stranger's attack of the security review (two
           # starts, five wrong codes each) runs without waiting, and its tenth wrong code waits.
           "PHONE_VERIFY_LIMITS": "phone_failed_check=9/1d"}
    server = Server(data_dir, env).start()
    try:
        alice = auth.token("user-alice", sid="sess-a", amr=("pwd",))
        status, _, enrolment = server.request("POST", "/v1/mfa/enrollments", {"phone_number": PHONE}, headers={**bearer(alice), **OWNER})
        assert status == 201, enrolment
        code = server.wait_for_code(enrolment["id"], PHONE)
        status, _, confirmed = server.request(
            "POST", "/v1/mfa/enrollments/%s/confirm" % enrolment["id"], {"code": code}, headers={**bearer(alice), **OWNER})
        assert status == 201, confirmed
        factor = confirmed["factor"]["id"]

        # The stranger: two starts for the owner's number, five wrong codes each.
        for _ in range(2):
            status, _, started = server.request("POST", "/v1/verifications", {"phone_number": PHONE}, headers=STRANGER)
            assert status == 201, started
            code = server.wait_for_code(started["id"], PHONE)
            for _ in range(5):
                status, _, body = server.request(
                    "POST", "/v1/verifications/%s/check" % started["id"], {"code": wrong(code)}, headers=STRANGER)
                assert status == 422 and body["error"]["code"] == "incorrect_code", body
        # The stranger now waits a short, escalating backoff, not a day.
        status, headers, body = server.request("POST", "/v1/verifications", {"phone_number": PHONE}, headers=STRANGER)
        assert status == 429 and body["error"]["details"]["scope"] == "phone_lockout", body
        assert 1 <= int(headers["Retry-After"]) <= 300

        # The owner signs in from its own network...
        status, _, started = server.request("POST", "/v1/verifications", {"phone_number": PHONE}, headers=OWNER)
        assert status == 201, started
        code = server.wait_for_code(started["id"], PHONE)
        status, _, checked = server.request("POST", "/v1/verifications/%s/check" % started["id"], {"code": code}, headers=OWNER)
        assert status == 200 and checked["status"] == "approved", checked
        # ...and steps up with its enrolled factor.
        status, _, challenge = server.request("POST", "/v1/mfa/challenges", {"factor_id": factor}, headers={**bearer(alice), **OWNER})
        assert status == 201, challenge
        code = server.wait_for_code(challenge["id"], PHONE)
        status, _, verified = server.request(
            "POST", "/v1/mfa/challenges/%s/verify" % challenge["id"], {"code": code}, headers={**bearer(alice), **OWNER})
        assert status == 200 and verified["status"] == "approved", verified

        # Operators see who waits on the number, and lift it.
        status, _, listed = server.request("GET", "/v1/admin/lockouts?phone_number=%2B447400123456", headers={"Authorization": "Bearer " + ADMIN})
        assert status == 200
        assert [(l["requester"], l["failures"]) for l in listed["lockouts"]] == [("203.0.113.9", 10)], listed
        assert listed["lockouts"][0]["locked_until"] is not None
        assert server.request("GET", "/v1/admin/lockouts")[0] == 401
        status, _, cleared = server.request("DELETE", "/v1/admin/lockouts/%2B447400123456", headers={"Authorization": "Bearer " + ADMIN})
        assert status == 200 and cleared == {"phone_number": PHONE, "cleared": 1}, cleared
        status, _, body = server.request("POST", "/v1/verifications", {"phone_number": PHONE}, headers=STRANGER)
        assert status == 201, body
    finally:
        server.stop()
        auth.close()


def test_a_stranger_using_up_the_numbers_quota_does_not_block_step_up(data_dir):
    auth = FakeAuthServer()
    env = {"PHONE_VERIFY_AUTH_CORE_JWKS_URL": auth.url, "PHONE_VERIFY_AUTH_CORE_ISSUER": ISSUER,
           "PHONE_VERIFY_AUTH_CORE_AUDIENCE": AUDIENCE, "PHONE_VERIFY_TRUSTED_PROXIES": "127.0.0.1/32",
           "PHONE_VERIFY_LIMITS": "phone_send=2/1h"}
    server = Server(data_dir, env).start()
    try:
        alice = auth.token("user-alice", sid="sess-a", amr=("pwd",))
        _, _, enrolment = server.request("POST", "/v1/mfa/enrollments", {"phone_number": PHONE}, headers={**bearer(alice), **OWNER})
        code = server.wait_for_code(enrolment["id"], PHONE)
        status, _, confirmed = server.request(
            "POST", "/v1/mfa/enrollments/%s/confirm" % enrolment["id"], {"code": code}, headers={**bearer(alice), **OWNER})
        assert status == 201, confirmed
        assert server.request("POST", "/v1/verifications", {"phone_number": PHONE}, headers=STRANGER)[0] == 201
        status, _, body = server.request("POST", "/v1/verifications", {"phone_number": PHONE}, headers=STRANGER)
        assert status == 429 and body["error"]["details"]["scope"] == "phone", body
        status, _, challenge = server.request(
            "POST", "/v1/mfa/challenges", {"factor_id": confirmed["factor"]["id"]}, headers={**bearer(alice), **OWNER})
        assert status == 201, challenge
    finally:
        server.stop()
        auth.close()


def test_lockout_command_lists_and_clears(data_dir):
    env = {"PHONE_VERIFY_TRUSTED_PROXIES": "127.0.0.1/32", "PHONE_VERIFY_LIMITS": "phone_failed_check=1/1d"}
    server = Server(data_dir, env).start()
    try:
        status, _, started = server.request("POST", "/v1/verifications", {"phone_number": PHONE}, headers=STRANGER)
        code = server.wait_for_code(started["id"], PHONE)
        for _ in range(2):
            server.request("POST", "/v1/verifications/%s/check" % started["id"], {"code": wrong(code)}, headers=STRANGER)
        cli_env = dict(os.environ, PHONE_VERIFY_DATA_DIR=data_dir, **env)
        listed = subprocess.run([BINARY, "lockout", "list"], env=cli_env, capture_output=True, text=True, timeout=30)
        assert listed.returncode == 0, listed.stderr
        assert "+447400123456\trequester=203.0.113.9\tfailures=2\tlocked_until=20" in listed.stdout
        # Any written form of the number is the number.
        cleared = subprocess.run([BINARY, "lockout", "clear", "+44 7400 123456"], env=cli_env, capture_output=True, text=True, timeout=30)
        assert cleared.returncode == 0 and "1 lockout(s) cleared" in cleared.stdout, cleared.stderr
        assert subprocess.run([BINARY, "lockout", "list"], env=cli_env, capture_output=True, text=True, timeout=30).stdout == ""
        assert subprocess.run([BINARY, "lockout", "clear"], env=cli_env, capture_output=True, text=True, timeout=30).returncode == 64
        status, _, body = server.request("POST", "/v1/verifications/%s/check" % started["id"], {"code": code}, headers=STRANGER)
        assert status == 200, body
    finally:
        server.stop()


def test_limits_clear_lifts_a_quota_strangers_spent(data_dir):
    env = {"PHONE_VERIFY_TRUSTED_PROXIES": "127.0.0.1/32", "PHONE_VERIFY_LIMITS": "phone_send=2/1h"}
    server = Server(data_dir, env).start()
    try:
        for ip in ("203.0.113.9", "203.0.113.10"):
            assert server.request("POST", "/v1/verifications", {"phone_number": PHONE}, headers={"X-Forwarded-For": ip})[0] == 201
        status, _, body = server.request("POST", "/v1/verifications", {"phone_number": PHONE}, headers=OWNER)
        assert status == 429 and body["error"]["details"]["scope"] == "phone", body
        cli_env = dict(os.environ, PHONE_VERIFY_DATA_DIR=data_dir, **env)
        cleared = subprocess.run([BINARY, "limits", "clear", "+44 7400 123456"], env=cli_env, capture_output=True, text=True, timeout=30)
        assert cleared.returncode == 0 and cleared.stdout.startswith("+447400123456: ") and "send-quota log(s) cleared" in cleared.stdout, cleared
        assert PHONE not in cleared.stderr
        assert subprocess.run([BINARY, "limits", "clear"], env=cli_env, capture_output=True, text=True, timeout=30).returncode == 64
        assert subprocess.run([BINARY, "limits", "clear", "hello"], env=cli_env, capture_output=True, text=True, timeout=30).returncode == 64
        status, _, body = server.request("POST", "/v1/verifications", {"phone_number": PHONE}, headers=OWNER)
        assert status == 201, body
    finally:
        server.stop()
