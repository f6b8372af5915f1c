"""Schemathesis against the real binary with docs/openapi.json: no 5xx, and every response (status,
body, headers) is one the spec describes.

The server runs in development mode with generous rate limits (so generated requests reach the
handlers instead of stopping at 429), the fraud guard off, an admin key, a shared HS256 secret for
MFA session tokens, and the Twilio and Vonage gateways configured behind the console sink (so their
callback routes exist; nothing is ever sent to them). Bounded: a fixed seed, a few examples per
operation, a time budget for the whole module.
"""
import collections
import os
import tempfile
import time
import urllib.error
import urllib.request

import jwt
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from conftest import Server

SPEC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "openapi.json")
ADMIN_KEY = "admin-key-schemathesis-01"  # 24 characters
SESSION_SECRET = "session-secret-for-schemathesis-0123456789"
AUTH_ISSUER = "https://auth.example.test"
AUTH_AUDIENCE = "phone-verify"
# The whole module stops generating after this many seconds (the CI budget is 2 minutes).
BUDGET_SECONDS = 75
MAX_EXAMPLES = 25

ENV = {
    "PHONE_VERIFY_MODE": "development",
    "PHONE_VERIFY_LIMITS": "phone_send=1000/1h;ip_send=100000/1h;ip_check=100000/1h;prefix_send=100000/1h;"
    "global_send=100000/1m;phone_failed_check=100000/1d",
    "PHONE_VERIFY_FRAUD": "off",
    "PHONE_VERIFY_ADMIN_API_KEYS": ADMIN_KEY,
    "PHONE_VERIFY_AUTH_CORE_HS256_SECRET": SESSION_SECRET,
    "PHONE_VERIFY_AUTH_CORE_ISSUER": AUTH_ISSUER,
    "PHONE_VERIFY_AUTH_CORE_AUDIENCE": AUTH_AUDIENCE,
    "PHONE_VERIFY_GATEWAYS": "console,twilio,vonage",
    "PHONE_VERIFY_TWILIO_BASE_URL": "http://127.0.0.1:9",
    "PHONE_VERIFY_TWILIO_ACCOUNT_SID": "AC00000000000000000000000000000000",
    "PHONE_VERIFY_TWILIO_AUTH_TOKEN": "twilio-auth-token",
    "PHONE_VERIFY_TWILIO_FROM": "+15005550006",
    "PHONE_VERIFY_VONAGE_BASE_URL": "http://127.0.0.1:9",
    "PHONE_VERIFY_VONAGE_API_KEY": "key",
    "PHONE_VERIFY_VONAGE_API_SECRET": "secret",
    "PHONE_VERIFY_VONAGE_FROM": "PhoneVerify",
    "PHONE_VERIFY_VONAGE_CALLBACK_TOKEN": "vonage-callback-token",
    "PHONE_VERIFY_LOG_LEVEL": "error",
}

schema = schemathesis.openapi.from_path(SPEC)
# A stream that never ends is no place for a request that waits for the whole body.
schema = schema.exclude(path="/dev/inbox/events")

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]

# Routes the spec describes ahead of their implementation (issue 7): skipped while the server
# answers them with "no route" (Tests/APITests/OpenAPITests.swift excuses exactly these too).
PENDING = {("GET", "/openapi.json"), ("GET", "/metrics"), ("GET", "/dev/inbox"), ("GET", "/dev/inbox/events")}

started = time.monotonic()
statuses = collections.defaultdict(collections.Counter)


def session_token():
    now = int(time.time())
    return jwt.encode(
        {"iss": AUTH_ISSUER, "aud": AUTH_AUDIENCE, "sub": "user-schemathesis", "sid": "sess-1", "amr": ["pwd"],
         "auth_time": now, "iat": now, "exp": now + 3600},
        SESSION_SECRET, algorithm="HS256")


@pytest.fixture(scope="module")
def live():
    with tempfile.TemporaryDirectory(prefix="phone-verify-schemathesis-") as data_dir:
        server = Server(data_dir, ENV).start()
        server.session = session_token()
        try:
            yield server
        finally:
            print("\nschemathesis: responses by operation and status")
            for operation in sorted(statuses):
                print(f"  {operation}: {dict(sorted(statuses[operation].items()))}")
            server.stop()
            # Nothing the generated requests did may have crashed or wedged the process.
            assert server.proc.returncode == 0, "\n".join(server.stderr_lines[-30:])


def unrouted(live, method, path, cache={}):
    if (method, path) not in cache:
        try:
            with urllib.request.urlopen(urllib.request.Request(live.base + path, method=method), timeout=5) as response:
                response.read(1)
            cache[(method, path)] = False
        except urllib.error.HTTPError as error:
            cache[(method, path)] = error.code == 404 and b"no route for" in error.read()
    return cache[(method, path)]


def credentials(case, live):
    """The right bearer token for the operation (generated ones are refused, which proves little)."""
    if case.path.startswith("/v1/admin/"):
        return {"Authorization": "Bearer " + ADMIN_KEY}
    if case.path.startswith("/v1/mfa/"):
        return {"Authorization": "Bearer " + live.session}
    return None


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_the_server_answers_as_the_spec_says(case, live):
    if time.monotonic() - started > BUDGET_SECONDS:
        pytest.skip("time budget spent")
    if (case.method, case.path) in PENDING and unrouted(live, case.method, case.path):
        pytest.skip(f"{case.method} {case.path} is not implemented yet")
    response = case.call(base_url=live.base, headers=credentials(case, live), timeout=10)
    statuses[f"{case.method} {case.path}"][response.status_code] += 1
    case.validate_response(response, checks=CHECKS)
