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


def grant(phone, secret, issuer="https://backend.example.test", audience="pv"):
    import time
    import uuid
    import jwt
    now = int(time.time())
    return jwt.encode({"iss": issuer, "aud": audience, "phone_number": phone, "action": "start",
                       "iat": now, "exp": now + 120, "jti": str(uuid.uuid4())}, secret, algorithm="HS256")


def test_a_captcha_farm_cannot_spend_the_owners_last_way_in(data_dir, turnstile):
    """Issue 26: ten starts with fresh captcha tokens used to block the owner's solved captcha and
    a valid grant for an hour. The captcha tier is bounded and counted per requester; a grant
    from the customer's backend still starts (docs/ABUSE.md)."""
    secret = "s" * 40
    env = dict(turnstile.env(), PHONE_VERIFY_TRUSTED_PROXIES="127.0.0.1/32", PHONE_VERIFY_CHALLENGE_PROVIDERS="turnstile,grant",
               PHONE_VERIFY_GRANT_ISSUER="https://backend.example.test", PHONE_VERIFY_GRANT_AUDIENCE="pv",
               PHONE_VERIFY_GRANT_HS256_SECRET=secret)
    server = Server(data_dir, env).start()
    try:
        outcomes = []
        for n in range(1, 11):
            status, _, body = start(server, PHONE, ip="203.0.113.%d" % n)
            if status == 403 and body["error"]["code"] == "challenge_required":
                status, _, body = start(server, PHONE, {"provider": "turnstile", "token": turnstile.issue()}, ip="203.0.113.%d" % n)
            outcomes.append(status)
        # Captchas reach 7 an hour (5, and half of what the lift adds), whoever solves them.
        assert outcomes.count(201) == 7, outcomes
        # The owner's captcha is not enough now: only a grant would pass, so that is what is asked.
        status, _, body = start(server, PHONE, {"provider": "turnstile", "token": turnstile.issue()}, ip="198.51.100.7")
        assert status == 403 and body["error"]["code"] == "challenge_required", body
        assert [p["name"] for p in body["error"]["details"]["providers"]] == ["grant"]
        # The owner's backend vouches for the number: it starts past what the farm spent.
        status, _, started = start(server, PHONE, {"provider": "grant", "token": grant(PHONE, secret)}, ip="198.51.100.7")
        assert status == 201, started
        code = server.wait_for_code(started["id"], PHONE)
        status, _, _ = server.request("POST", "/v1/verifications/%s/check" % started["id"], {"code": code},
                                      headers={"X-Forwarded-For": "198.51.100.7"})
        assert status == 200
    finally:
        server.stop()


def test_a_farm_meets_the_blocks_usual_volume_and_its_users_are_steered(data_dir, turnstile):
    """A farm that solves every captcha gets a watched block's usual volume (3 + 3 codes with no
    history), then SMS to the block is steered to WhatsApp: its users still sign in."""
    env = dict(turnstile.env(), PHONE_VERIFY_TRUSTED_PROXIES="127.0.0.1/32", PHONE_VERIFY_CHANNELS="sms,whatsapp")
    server = Server(data_dir, env).start()
    try:
        channels = []
        for n in range(10):
            phone, ip = "+1415555%04d" % (1000 + n), "203.0.113.%d" % (n + 1)
            status, _, body = start(server, phone, ip=ip)
            if status == 403:
                status, _, body = start(server, phone, {"provider": "turnstile", "token": turnstile.issue()}, ip=ip)
            assert status == 201, body
            channels.append(body["channel"])
        assert channels == ["sms"] * 6 + ["whatsapp"] * 4
        # A user of the block: steered, the code comes over WhatsApp, and the sign-in works.
        phone = "+14155559876"
        status, _, body = start(server, phone, ip="198.51.100.9")
        if status == 403:
            status, _, body = start(server, phone, {"provider": "turnstile", "token": turnstile.issue()}, ip="198.51.100.9")
        assert status == 201 and body["channel"] == "whatsapp", body
        code = server.wait_for_code(body["id"], phone)
        assert server.request("POST", "/v1/verifications/%s/check" % body["id"], {"code": code},
                              headers={"X-Forwarded-For": "198.51.100.9"})[0] == 200
        import urllib.request
        with urllib.request.urlopen(server.base + "/metrics", timeout=5) as resp:
            steered = [line for line in resp.read().decode().splitlines() if line.startswith("phoneverify_fraud_steered_total")]
        assert steered and float(steered[0].rsplit(" ", 1)[1]) >= 5, steered
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
