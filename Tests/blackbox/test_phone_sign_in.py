"""The phone-sign-in example (PhoneVerifyClient) against the real binary: the code is read from
/dev/messages and typed into its standard input; its output and exit status are checked."""
import base64
import json
import os
import subprocess
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from conftest import BINARY, Server

SIGN_IN = os.environ.get("PHONE_SIGN_IN_BINARY", os.path.join(os.path.dirname(BINARY), "phone-sign-in"))
PHONE = "+14155552671"

pytestmark = pytest.mark.skipif(not os.path.exists(SIGN_IN), reason="phone-sign-in is not built (swift build)")


class SignIn:
    """phone-sign-in as a child process; its standard error is collected line by line."""

    def __init__(self, *args):
        self.proc = subprocess.Popen([SIGN_IN, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.err_lines = []
        self.prompts = threading.Semaphore(0)

        def pump():
            for line in self.proc.stderr:
                self.err_lines.append(line.rstrip("\n"))
                if "Enter " in line:  # "Enter it:" / "Enter it again:" / "Enter the code again:"
                    self.prompts.release()

        self.pump = threading.Thread(target=pump, daemon=True)
        self.pump.start()

    def wait_prompt(self, timeout=15):
        assert self.prompts.acquire(timeout=timeout), "no prompt: " + "\n".join(self.err_lines)

    def type(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def finish(self, timeout=20):
        if not self.proc.stdin.closed:
            self.proc.stdin.close()
        out = self.proc.stdout.read()
        self.proc.wait(timeout)
        self.pump.join(5)
        return self.proc.returncode, out, "\n".join(self.err_lines)


def newest_code(server, phone, after=()):
    """The code of the newest message to `phone` whose verification is not in `after`."""
    deadline = time.time() + 10
    while time.time() < deadline:
        status, _, body = server.request("GET", "/dev/messages?wait=2&phone_number=" + urllib.request.quote(phone, safe=""))
        assert status == 200
        for message in body["messages"]:
            if message["verification_id"] not in after:
                return message["verification_id"], message["code"]
    raise AssertionError("no message for " + phone)


def jwt_payload(token):
    part = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def test_signs_in_with_the_code_from_standard_input_and_prints_the_claims(server):
    run = SignIn("--server", server.base, "--phone", "(415) 555-2671", "--region", "US", "--locale", "en")
    run.wait_prompt()
    verification_id, code = newest_code(server, PHONE)
    run.type(code)
    status, out, err = run.finish()
    assert status == 0, err
    claims = json.loads(out)
    assert claims["phone_number"] == PHONE and claims["sub"] == "tel:" + PHONE
    assert claims["phone_number_verified"] is True and claims["amr"] == ["sms"] and claims["acr"] == "aal1"
    assert claims["vid"] == verification_id
    assert "6-digit code was sent to +14155552671" in err
    # The verification is used up on the server.
    assert server.request("GET", "/v1/verifications/" + verification_id)[2]["status"] == "approved"


def test_a_wrong_code_can_be_corrected_while_attempts_remain(server):
    run = SignIn("--server", server.base, "--phone", PHONE)
    run.wait_prompt()
    _, code = newest_code(server, PHONE)
    run.type("000000" if code != "000000" else "111111")
    run.wait_prompt()
    run.type(code)
    status, out, err = run.finish()
    assert status == 0, err
    assert "4 attempts left" in err
    assert json.loads(out)["phone_number"] == PHONE


def test_wrong_codes_until_none_is_left_exit_4(server):
    run = SignIn("--server", server.base, "--phone", PHONE)
    run.wait_prompt()
    _, code = newest_code(server, PHONE)
    wrong = "000000" if code != "000000" else "111111"
    for _ in range(4):
        run.type(wrong)
        run.wait_prompt()
    run.type(wrong)
    status, out, err = run.finish()
    assert (status, out) == (4, ""), err
    assert "[incorrect_code]" in err


def test_end_of_input_without_a_code_exits_9(server):
    run = SignIn("--server", server.base, "--phone", PHONE)
    run.wait_prompt()
    status, out, err = run.finish()
    assert (status, out) == (9, "")
    assert "no code was entered" in err


def test_an_invalid_number_exits_3_with_the_reason(server):
    status, out, err = SignIn("--server", server.base, "--phone", "+1415").finish()
    assert (status, out) == (3, "")
    assert "too short" in err and "[invalid_phone_number]" in err


class CannedServer:
    """A stand-in PhoneVerify for answers the real one only gives after minutes (an expired code:
    PHONE_VERIFY_CODE_TTL is at least 30 s) or under failure (503): starts succeed, every check
    gets `check_status` with `check_body`."""

    START = {"id": "ver_0a1b", "status": "pending", "phone_number": PHONE, "channel": "sms",
             "expires_at": "2026-11-30T12:05:00Z", "resend_available_at": "2026-11-30T12:00:30Z",
             "attempts_remaining": 5, "sends_remaining": 4, "code_length": 6, "created_at": "2026-11-30T12:00:00Z"}

    def __init__(self, check_status, check_body, headers=None):
        self.checks = 0
        canned = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.path == "/v1/verifications":
                    status, body, extra = 201, canned.START, {}
                else:
                    canned.checks += 1
                    status, body, extra = check_status, check_body, headers or {}
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in extra.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = "http://127.0.0.1:%d" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def error(code, details=None):
    return {"error": {"code": code, "message": code.replace("_", " "), "details": details or {}}}


def test_an_expired_code_exits_5():
    canned = CannedServer(410, error("expired"))
    try:
        run = SignIn("--server", canned.base, "--phone", PHONE)
        run.wait_prompt()
        run.type("123456")
        status, out, err = run.finish()
        assert (status, out) == (5, ""), err
        assert "The code has expired" in err and "[expired]" in err
    finally:
        canned.close()


def test_an_unavailable_server_is_retried_then_exits_8():
    canned = CannedServer(503, error("unavailable"), {"Retry-After": "0"})
    try:
        run = SignIn("--server", canned.base, "--phone", PHONE)
        run.wait_prompt()
        run.type("123456")
        status, out, err = run.finish()
        assert (status, out) == (8, ""), err
        assert "[unavailable]" in err
        assert canned.checks == 3  # a 503 did nothing, so the client tried three times in all
    finally:
        canned.close()


def test_a_rate_limit_exits_6(server):
    # The number's hourly send quota (5) is used up by earlier starts.
    for _ in range(5):
        assert server.request("POST", "/v1/verifications", {"phone_number": PHONE})[0] == 201
    status, out, err = SignIn("--server", server.base, "--phone", PHONE).finish()
    assert (status, out) == (6, ""), err
    assert "[rate_limited]" in err and "Try again in" in err


def test_a_challenge_the_example_cannot_solve_exits_7(data_dir):
    env = {"PHONE_VERIFY_CHALLENGE_PROVIDERS": "grant", "PHONE_VERIFY_CHALLENGE": "always",
           "PHONE_VERIFY_GRANT_ISSUER": "https://backend.example.test", "PHONE_VERIFY_GRANT_AUDIENCE": "pv",
           "PHONE_VERIFY_GRANT_HS256_SECRET": "x" * 40}
    server = Server(data_dir, env).start()
    try:
        status, out, err = SignIn("--server", server.base, "--phone", PHONE).finish()
        assert (status, out) == (7, ""), err
        assert "[challenge_required]" in err and "providers: grant" in err
    finally:
        server.stop()


def test_no_server_exits_8(data_dir):
    server = Server(data_dir).start()
    base = server.base
    server.stop()
    status, out, err = SignIn("--server", base, "--phone", PHONE, "--timeout", "5").finish(timeout=60)
    assert (status, out) == (8, ""), err
    assert "[network]" in err


def test_usage_errors_exit_2_and_help_exits_0():
    for args in ([], ["--server", "http://127.0.0.1:9"], ["--phone", PHONE], ["--server", "ftp://x", "--phone", PHONE],
                 ["--bogus"], ["--server"]):
        status, out, err = SignIn(*args).finish()
        assert (status, out) == (2, ""), args
        assert err.startswith("phone-sign-in: ")
    status, out, _ = SignIn("--help").finish()
    assert status == 0 and "usage: phone-sign-in" in out and "exit status" in out
