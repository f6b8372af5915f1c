"""Events for the main auth server (docs/EVENTS.md) against the real binary: every type arrives signed,
failed POSTs are retried under the same webhook-id, a hanging receiver never slows requests, bad
settings stop start-up, and a kill -9 under load loses no event of an acknowledged change."""
import base64
import os
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request

from conftest import BINARY, Server
from fakes import EventReceiver
from test_mfa import AUDIENCE, ISSUER, FakeAuthServer

KEY = b"events-key-0123456789abcdef-0123"
SECRET = "whsec_" + base64.b64encode(KEY).decode()
NO_LIMITS = ";".join(s + "=off" for s in ["phone_send", "ip_send", "ip_check", "prefix_send", "global_send", "phone_failed_check"])


def events_env(receiver, **extra):
    # Many unconfirmed codes to one block: the guard would hold the block to its usual volume,
    # which these tests do not measure (a pause, which one of them needs, still happens).
    env = {"PHONE_VERIFY_EVENTS_URL": receiver.url, "PHONE_VERIFY_EVENTS_SECRET": SECRET, "PHONE_VERIFY_LIMITS": NO_LIMITS,
           "PHONE_VERIFY_FRAUD_WATCH_SENDS": "1000000"}
    env.update(extra)
    return env


def start(server, phone, **extra):
    status, _, body = server.request("POST", "/v1/verifications", dict({"phone_number": phone}, **extra))
    assert status == 201, body
    return body["id"]


def test_every_event_type_arrives_signed(data_dir):
    receiver = EventReceiver(KEY)
    auth = FakeAuthServer()
    env = events_env(receiver, PHONE_VERIFY_FRAUD_MIN_SENDS="2", PHONE_VERIFY_AUTH_CORE_JWKS_URL=auth.url,
                     PHONE_VERIFY_AUTH_CORE_ISSUER=ISSUER, PHONE_VERIFY_AUTH_CORE_AUDIENCE=AUDIENCE)
    server = Server(data_dir, env).start()
    try:
        approved = start(server, "+447400111111")
        code = server.wait_for_code(approved, "+447400111111")
        assert server.request("POST", "/v1/verifications/%s/check" % approved, {"code": code})[0] == 200

        failed = start(server, "+447400222222")
        wrong = "000000" if server.wait_for_code(failed, "+447400222222") != "000000" else "111111"
        for _ in range(5):  # PHONE_VERIFY_MAX_ATTEMPTS: the fifth wrong code ends it
            server.request("POST", "/v1/verifications/%s/check" % failed, {"code": wrong})
        assert server.request("GET", "/v1/verifications/" + failed)[2]["status"] == "max_attempts_reached"

        canceled = start(server, "+447400333333")
        assert server.request("DELETE", "/v1/verifications/" + canceled)[0] == 200

        alice = {"Authorization": "Bearer " + auth.token("user-alice", amr=("pwd", "mfa"))}
        status, _, enrolment = server.request("POST", "/v1/mfa/enrollments", {"phone_number": "+447400444444"}, headers=alice)
        assert status == 201, enrolment
        code = server.wait_for_code(enrolment["id"], "+447400444444")
        status, _, factor = server.request("POST", "/v1/mfa/enrollments/%s/confirm" % enrolment["id"], {"code": code}, headers=alice)
        assert status == 201, factor
        factor = factor["factor"]
        assert server.request("DELETE", "/v1/mfa/factors/" + factor["id"], headers=alice)[0] == 200

        # Two unconfirmed codes to one block with no history: the guard pauses it (minimum 2 sends).
        start(server, "+447400999001")
        start(server, "+447400999002")
        for phone in ("+447400999003", "+447400999004"):
            status, _, body = server.request("POST", "/v1/verifications", {"phone_number": phone})
            assert status == 429 and body["error"]["code"] == "suspected_fraud", body

        wanted = {"verification.started", "verification.approved", "verification.failed", "verification.canceled",
                  "delivery.updated", "mfa.factor.enrolled", "mfa.factor.deleted", "fraud.paused"}
        assert receiver.wait(lambda got: wanted <= {r["event"]["type"] for r in got}, timeout=15), receiver.events()
        time.sleep(1)  # anything sent twice would be here by now
        received = receiver.events()
        assert all(r["valid"] and r["content_type"] == "application/json" for r in received)
        assert all(abs(int(r["timestamp"]) - time.time()) < 60 for r in received)
        assert all("code" not in r["event"]["data"] for r in received)
        by_type = {}
        for r in received:
            by_type.setdefault(r["event"]["type"], []).append(r["event"])
        assert {e["data"]["verification_id"] for e in by_type["verification.approved"]} == {approved, enrolment["id"]}
        failure = [e for e in by_type["verification.failed"] if e["data"]["verification_id"] == failed]
        assert len(failure) == 1 and failure[0]["data"]["reason"] == "max_attempts_reached"
        assert [e["data"]["verification_id"] for e in by_type["verification.canceled"]] == [canceled]
        assert by_type["verification.started"][0]["data"]["phone_number"].startswith("+44")
        assert {e["data"]["status"] for e in by_type["delivery.updated"]} == {"sent"}
        assert all(e["data"]["gateway"] == "console" for e in by_type["delivery.updated"])
        assert all(e["data"]["channel"] == "sms" for e in by_type["delivery.updated"])
        assert [e["data"]["factor_id"] for e in by_type["mfa.factor.enrolled"]] == [factor["id"]]
        assert [e["data"]["factor_id"] for e in by_type["mfa.factor.deleted"]] == [factor["id"]]
        # Once per key and window, however many starts the pause refused.
        paused = by_type["fraud.paused"]
        assert len(paused) == 1 and paused[0]["data"]["scope"] == "prefix", paused
        assert len({r["id"] for r in received}) == len(received)  # every event delivered once, each its own id
        for line in server.stderr_lines:
            assert "447400111111" not in line and SECRET not in line
    finally:
        server.stop()
        receiver.close()
        auth.close()


def test_a_refused_post_is_retried_with_the_same_webhook_id(data_dir):
    receiver = EventReceiver(KEY, statuses=[500, 302])
    server = Server(data_dir, events_env(receiver, PHONE_VERIFY_EVENTS="verification.started")).start()
    try:
        verification = start(server, "+447400123456")
        assert receiver.wait(lambda got: len(got) >= 3, timeout=15), receiver.events()
        time.sleep(1)
        attempts = receiver.events()
        assert [r["status"] for r in attempts] == [500, 302, 200]  # a redirect is not followed: retried too
        assert len({r["id"] for r in attempts}) == 1
        assert all(r["valid"] and r["event"]["data"]["verification_id"] == verification for r in attempts)
        assert {r["event"]["type"] for r in attempts} == {"verification.started"}  # PHONE_VERIFY_EVENTS filters
    finally:
        server.stop()
        receiver.close()


def test_a_hanging_receiver_does_not_slow_starts(data_dir):
    receiver = EventReceiver(KEY, hang=10)
    server = Server(data_dir, events_env(receiver, PHONE_VERIFY_EVENTS_TIMEOUT="2")).start()
    try:
        started = time.time()
        for i in range(20):
            began = time.time()
            start(server, "+4474001%05d" % i)
            assert time.time() - began < 1
        assert time.time() - started < 5
        assert receiver.wait(lambda got: len(got) >= 1, timeout=5)  # the sender is stuck in a POST meanwhile
    finally:
        server.stop()
        receiver.close()


def run_binary(data_dir, env):
    e = dict(os.environ, PHONE_VERIFY_DATA_DIR=data_dir, PHONE_VERIFY_LISTEN="127.0.0.1:0")
    e.update(env)
    return subprocess.run([BINARY], env=e, capture_output=True, text=True, timeout=30)


def test_configuration_errors_stop_start_up(data_dir):
    plain = run_binary(data_dir, {"PHONE_VERIFY_MODE": "production", "PHONE_VERIFY_EVENTS_URL": "http://auth.example.com/events",
                                  "PHONE_VERIFY_EVENTS_SECRET": SECRET})
    assert plain.returncode != 0
    assert "PHONE_VERIFY_EVENTS_URL must be https in production mode" in plain.stderr, plain.stderr

    for bad in ["whsec_not base64!", "plain-text-secret", "whsec_"]:
        refused = run_binary(data_dir, {"PHONE_VERIFY_EVENTS_URL": "http://127.0.0.1:9/events", "PHONE_VERIFY_EVENTS_SECRET": bad})
        assert refused.returncode != 0
        assert "PHONE_VERIFY_EVENTS_SECRET must be whsec_ followed by the key in base64" in refused.stderr, refused.stderr
        assert bad not in refused.stderr or bad == "whsec_"  # the secret itself is never printed

    missing = run_binary(data_dir, {"PHONE_VERIFY_EVENTS_URL": "http://127.0.0.1:9/events"})
    assert missing.returncode != 0 and "PHONE_VERIFY_EVENTS_SECRET is required" in missing.stderr, missing.stderr

    unknown = run_binary(data_dir, {"PHONE_VERIFY_EVENTS_URL": "http://127.0.0.1:9/events", "PHONE_VERIFY_EVENTS_SECRET": SECRET,
                                    "PHONE_VERIFY_EVENTS": "verification.started,verification.exploded"})
    assert unknown.returncode != 0 and 'unknown event type "verification.exploded"' in unknown.stderr, unknown.stderr


def test_kill_9_under_load_loses_no_event_of_an_acknowledged_start(data_dir):
    receiver = EventReceiver(KEY)
    env = events_env(receiver, PHONE_VERIFY_EVENTS="verification.started", PHONE_VERIFY_EVENTS_TIMEOUT="2",
                     PHONE_VERIFY_FRAUD="off", PHONE_VERIFY_GATEWAYS="console")
    first = Server(data_dir, env).start()
    acknowledged, lock, stop = set(), threading.Lock(), threading.Event()

    def client(worker):
        i = 0
        while not stop.is_set():
            i += 1
            data = ('{"phone_number": "+4474%02d%06d"}' % (worker, i)).encode()
            request = urllib.request.Request(first.base + "/v1/verifications", data=data, method="POST",
                                             headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(request, timeout=5) as response:
                    if response.status == 201:
                        import json
                        with lock:
                            acknowledged.add(json.loads(response.read())["id"])
            except (urllib.error.URLError, ConnectionError, OSError):
                return

    threads = [threading.Thread(target=client, args=(w,)) for w in range(8)]
    for t in threads:
        t.start()
    time.sleep(1.5)
    first.stop(signal.SIGKILL)
    stop.set()
    for t in threads:
        t.join(10)
    assert len(acknowledged) >= 50, len(acknowledged)

    second = Server(data_dir, env).start()
    try:
        def all_arrived(got):
            return acknowledged <= {r["event"]["data"]["verification_id"] for r in got}
        assert receiver.wait(all_arrived, timeout=40), len(acknowledged - {r["event"]["data"]["verification_id"] for r in receiver.events()})
        # At least once: duplicates carry the same webhook-id, so a receiver de-duplicates them.
        by_id = {}
        for r in receiver.events():
            assert r["valid"]
            by_id.setdefault(r["id"], set()).add(r["event"]["data"]["verification_id"])
        assert all(len(ids) == 1 for ids in by_id.values())
    finally:
        second.stop()
        receiver.close()
