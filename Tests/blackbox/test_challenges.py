"""Challenges against the real binary and a fake Cloudflare Turnstile on 127.0.0.1 (docs/CHALLENGES.md)."""
import re

import pytest

from conftest import Server
from fakes import FakeTurnstile

PHONE = "+14155550142"


@pytest.fixture
def turnstile():
    fake = FakeTurnstile()
    yield fake
    fake.close()


def start(server, phone, challenge=None, ip="198.51.100.7"):
    body = {"phone_number": phone}
    if challenge is not None:
        body["challenge"] = challenge
    return server.request("POST", "/v1/verifications", body, headers={"X-Forwarded-For": ip})


def metric(server, name, labels):
    _, _, _ = server.request("GET", "/healthz")
    import urllib.request
    with urllib.request.urlopen(server.base + "/metrics", timeout=5) as resp:
        text = resp.read().decode()
    for line in text.splitlines():
        if line.startswith(name + "{") and all('%s="%s"' % kv in line for kv in labels.items()):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def test_always_asks_checks_with_the_vendor_and_accepts_a_token_once(data_dir, turnstile):
    env = dict(turnstile.env(), PHONE_VERIFY_CHALLENGE="always", PHONE_VERIFY_TRUSTED_PROXIES="127.0.0.1/32")
    server = Server(data_dir, env).start()
    try:
        status, _, body = start(server, PHONE)
        assert status == 403 and body["error"]["code"] == "challenge_required", body
        assert body["error"]["details"]["providers"] == [{"name": "turnstile", "site_key": FakeTurnstile.SITE_KEY}]
        assert "reasons" not in body["error"]["details"]
        status, _, body = start(server, PHONE, {"provider": "turnstile", "token": "0.forged-token"})
        assert status == 403 and body["error"]["code"] == "challenge_failed", body
        token = turnstile.issue()
        status, _, started = start(server, PHONE, {"provider": "turnstile", "token": token})
        assert status == 201, started
        # The vendor saw the secret, the token and the client's address (behind the trusted proxy).
        sent = turnstile.requests[-1]
        assert sent["secret"] == FakeTurnstile.SECRET and sent["response"] == token and sent["remoteip"] == "198.51.100.7"
        code = server.wait_for_code(started["id"], PHONE)
        status, _, checked = server.request("POST", "/v1/verifications/%s/check" % started["id"], {"code": code})
        assert status == 200 and checked["credential"]["token"]
        # The same token again, for another number: refused, and nothing is sent.
        status, _, body = start(server, "+14155550143", {"provider": "turnstile", "token": token})
        assert status == 403 and body["error"]["code"] == "challenge_failed", body
        _, _, inbox = server.request("GET", "/dev/messages?phone_number=%2B14155550143")
        assert inbox["messages"] == []
        assert metric(server, "phoneverify_challenges_total", {"provider": "turnstile", "outcome": "asked"}) == 1
        assert metric(server, "phoneverify_challenges_total", {"provider": "turnstile", "outcome": "passed"}) == 1
        assert metric(server, "phoneverify_challenges_total", {"provider": "turnstile", "outcome": "failed"}) == 2
        assert metric(server, "phoneverify_challenge_reasons_total", {"reason": "always"}) == 1
        # No token or secret reaches the logs.
        logs = "\n".join(server.stdout_lines + server.stderr_lines)
        assert token not in logs and FakeTurnstile.SECRET not in logs
    finally:
        server.stop()


def test_strangers_using_up_a_number_leave_the_owner_a_challenge_not_an_hour(data_dir, turnstile):
    """Issue 15's known limit: five starts by strangers used to refuse the owner for an hour."""
    env = dict(turnstile.env(), PHONE_VERIFY_TRUSTED_PROXIES="127.0.0.1/32")  # suspicious, by default
    server = Server(data_dir, env).start()
    try:
        for n in range(1, 4):
            status, _, _ = start(server, PHONE, ip="203.0.113.%d" % n)
            assert status == 201
        # Past half the number's hourly quota (5): proof is asked; strangers have none.
        for n in range(4, 12):
            status, _, body = start(server, PHONE, ip="203.0.113.%d" % n)
            assert status == 403 and body["error"]["code"] == "challenge_required", body
        # The owner solves the widget and signs in.
        status, _, started = start(server, PHONE, {"provider": "turnstile", "token": turnstile.issue()}, ip="198.51.100.7")
        assert status == 201, started
        code = server.wait_for_code(started["id"], PHONE)
        status, _, _ = server.request("POST", "/v1/verifications/%s/check" % started["id"], {"code": code},
                                      headers={"X-Forwarded-For": "198.51.100.7"})
        assert status == 200
        # An ordinary user in another block never sees a challenge; one in this block (watched:
        # the strangers' codes were never confirmed) is asked too.
        status, _, _ = start(server, "+16502530000", ip="198.51.100.8")
        assert status == 201
        status, _, body = start(server, "+14155550199", ip="198.51.100.9")
        assert status == 403 and body["error"]["code"] == "challenge_required", body
        assert metric(server, "phoneverify_challenge_reasons_total", {"reason": "block_watched"}) >= 1
        assert metric(server, "phoneverify_challenge_reasons_total", {"reason": "phone_send_soft"}) >= 1
    finally:
        server.stop()


@pytest.mark.parametrize("challenge,field", [
    ("turnstile", "challenge"),
    ({"provider": "turnstile"}, "challenge.token"),
    ({"token": "x"}, "challenge.provider"),
    ({"provider": "nope", "token": "x"}, "challenge.provider"),
    ({"provider": "turnstile", "token": 5}, "challenge.token"),
    ({"provider": "turnstile", "token": "x" * 5000}, "challenge.token"),
    ({"provider": "turnstile", "token": "x", "nonce": "1"}, "challenge"),
    ({"provider": "turnstile", "token": "x", "key_id": ""}, "challenge.key_id"),
])
def test_malformed_challenges_are_clear_400s_and_send_nothing(data_dir, turnstile, challenge, field):
    server = Server(data_dir, dict(turnstile.env(), PHONE_VERIFY_CHALLENGE="always")).start()
    try:
        before = len(turnstile.requests)
        status, _, body = start(server, PHONE, challenge)
        assert status == 400 and body["error"]["code"] == "invalid_request", body
        assert body["error"]["details"]["field"] == field
        assert len(turnstile.requests) == before
        _, _, inbox = server.request("GET", "/dev/messages?phone_number=%2B14155550142")
        assert inbox["messages"] == []
    finally:
        server.stop()


def test_an_unreachable_vendor_is_503_and_sends_nothing(data_dir, turnstile):
    env = dict(turnstile.env(), PHONE_VERIFY_CHALLENGE="always", PHONE_VERIFY_TURNSTILE_VERIFY_URL="http://127.0.0.1:9/siteverify")
    server = Server(data_dir, env).start()
    try:
        status, headers, body = start(server, PHONE, {"provider": "turnstile", "token": turnstile.issue()})
        assert status == 503 and body["error"]["code"] == "unavailable", body
        assert re.fullmatch(r"\d+", headers.get("Retry-After", ""))
        _, _, inbox = server.request("GET", "/dev/messages?phone_number=%2B14155550142")
        assert inbox["messages"] == []
    finally:
        server.stop()
