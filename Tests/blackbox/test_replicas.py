"""Three real phone-verify replicas sharing one PostgreSQL database: every promise holds across them.

Needs a PostgreSQL server (`scripts/postgres start`; PHONE_VERIFY_TEST_POSTGRES_URL overrides the URL) and
the `psql` client. Each test creates a fresh database and drops it afterwards. When the server or psql is
missing the tests fail (they never skip): running on PostgreSQL is the point.

Replicas share what a deployment shares: the database URL, PHONE_VERIFY_CODE_SECRET (code hashes and sealed
outbox payloads must open on every replica) and PHONE_VERIFY_SIGNING_KEY_FILE. Messages go through the
webhook gateway to a FakeVendor that records every POST, so sends are counted by their webhook-id.
"""
import base64
import collections
import os
import re
import random
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import Server
from fakes import FakeVendor

TEST_URL = os.environ.get("PHONE_VERIFY_TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:55432/phone_verify_test")
REPLICAS = 3
ATTEMPTS = 5
PHONE_QUOTA = 5
IP_QUOTA = 7
LIMITS = (f"phone_send={PHONE_QUOTA}/1h;ip_send={IP_QUOTA}/10m;ip_check=off;prefix_send=off;global_send=off;"
          "phone_failed_check=off")


def admin_url(database="postgres"):
    parts = urllib.parse.urlsplit(TEST_URL)
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, "/" + database, parts.query, parts.fragment))


def psql(sql):
    if shutil.which("psql") is None:
        pytest.fail("psql is missing: install the postgresql-client package")
    done = subprocess.run(["psql", admin_url(), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c", sql],
                          capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        pytest.fail(f"PostgreSQL at {admin_url()} refused {sql!r}: {done.stderr.strip()} "
                    "(start a server with `scripts/postgres start` or set PHONE_VERIFY_TEST_POSTGRES_URL)")


@pytest.fixture
def database():
    name = "pv_replicas_%d_%s" % (os.getpid(), uuid.uuid4().hex[:10])
    psql(f"CREATE DATABASE {name}")
    try:
        yield admin_url(name)
    finally:
        psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


ADMIN_KEY = "replica-admin-7Kq2Xv9LrT0mWb5ZkP1yNc4HdJ8sFgA"


class Cluster:
    """Three replicas on their own ports, one database, one fake SMS vendor."""

    def __init__(self, database_url, vendor_mode=("ok",)):
        self.vendor = FakeVendor({"id": "prov-1"})
        self.vendor.mode = vendor_mode
        self.tmp = tempfile.TemporaryDirectory(prefix="phone-verify-replicas-")
        key_file = os.path.join(self.tmp.name, "signing-key.pem")
        subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", key_file], check=True, capture_output=True)
        secret = base64.b64encode(os.urandom(32)).decode()
        self.env = {
            "PHONE_VERIFY_MODE": "production",
            "PHONE_VERIFY_ISSUER": "https://verify.example.test",
            "PHONE_VERIFY_DATABASE_URL": database_url,
            "PHONE_VERIFY_CODE_SECRET": secret,
            "PHONE_VERIFY_SIGNING_KEY_FILE": key_file,
            "PHONE_VERIFY_GATEWAYS": "webhook",
            "PHONE_VERIFY_WEBHOOK_URL": self.vendor.base + "/sms",
            "PHONE_VERIFY_WEBHOOK_SECRET": "whsec_" + base64.b64encode(b"0123456789abcdef0123456789abcdef").decode(),
            "PHONE_VERIFY_LIMITS": LIMITS,
            "PHONE_VERIFY_FRAUD": "off",
            "PHONE_VERIFY_MAX_ATTEMPTS": str(ATTEMPTS),
            "PHONE_VERIFY_TRUSTED_PROXIES": "127.0.0.1/32",
            "PHONE_VERIFY_HTTP_THREADS": "4",
            "PHONE_VERIFY_ADMIN_API_KEYS": ADMIN_KEY,
        }
        self.servers = []
        try:
            # Started together, so their migrations race: the advisory lock must make that harmless.
            pending = [Server(os.path.join(self.tmp.name, "replica-%d" % i), self.env) for i in range(REPLICAS)]
            for server in pending:
                os.makedirs(server.data_dir)
            with ThreadPoolExecutor(REPLICAS) as pool:
                self.servers = list(pool.map(lambda s: s.start(timeout=30), pending))
        except BaseException:
            self.close()
            raise

    def replica(self, index):
        return self.servers[index % len(self.servers)]

    def messages(self):
        """The vendor's requests as (webhook-id, payload)."""
        import json
        with self.vendor.lock:
            requests = list(self.vendor.requests)
        return [(r["headers"].get("webhook-id") or r["headers"].get("Webhook-Id"), json.loads(r["body"])) for r in requests]

    def wait_for_messages(self, verification_ids, timeout):
        wanted = set(verification_ids)
        deadline = time.time() + timeout
        while time.time() < deadline:
            seen = {payload["verification_id"] for _, payload in self.messages()}
            if wanted <= seen:
                return True
            time.sleep(0.1)
        return False

    def code_for(self, verification_id, timeout=15):
        deadline = time.time() + timeout
        while time.time() < deadline:
            for _, payload in self.messages():
                if payload["verification_id"] == verification_id:
                    return payload["code"]
            time.sleep(0.05)
        raise AssertionError("no message arrived for " + verification_id)

    def close(self):
        for server in self.servers:
            server.stop()
        self.vendor.close()
        self.tmp.cleanup()


@pytest.fixture
def cluster(database):
    c = Cluster(database)
    yield c
    c.close()


def post(server, path, body, ip):
    try:
        return server.request("POST", path, body, headers={"X-Forwarded-For": ip})
    except (urllib.error.URLError, ConnectionError, OSError) as err:
        return None, {}, {"transport_error": str(err)}


def error_code(body):
    return (body or {}).get("error", {}).get("code")


def in_parallel(count, call, workers=48):
    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(call, range(count)))


def uk_mobile(n):
    return "+447400%06d" % n


def test_two_hundred_parallel_wrong_guesses_never_exceed_the_attempt_cap(cluster):
    status, _, started = post(cluster.replica(0), "/v1/verifications", {"phone_number": uk_mobile(1)}, "198.51.100.1")
    assert status == 201, started
    vid = started["id"]
    code = cluster.code_for(vid)
    bad = "".join(str((int(c) + 1) % 10) for c in code)

    results = in_parallel(200, lambda i: post(cluster.replica(i), f"/v1/verifications/{vid}/check", {"code": bad}, "198.51.100.2"))
    codes = collections.Counter(error_code(body) for _, _, body in results)
    assert codes["incorrect_code"] == ATTEMPTS, codes
    assert codes["max_attempts_reached"] == 200 - ATTEMPTS, codes
    # The right code no longer works either: the cap is spent.
    status, _, body = post(cluster.replica(1), f"/v1/verifications/{vid}/check", {"code": code}, "198.51.100.2")
    assert status == 429 and error_code(body) == "max_attempts_reached", body
    for i in range(REPLICAS):
        status, _, seen = cluster.replica(i).request("GET", "/v1/verifications/" + vid)
        assert status == 200 and seen["status"] == "max_attempts_reached", seen


def test_fifty_parallel_correct_checks_approve_exactly_once(cluster):
    status, _, started = post(cluster.replica(1), "/v1/verifications", {"phone_number": uk_mobile(2)}, "198.51.100.3")
    assert status == 201, started
    vid = started["id"]
    code = cluster.code_for(vid)

    results = in_parallel(50, lambda i: post(cluster.replica(i), f"/v1/verifications/{vid}/check", {"code": code}, "198.51.100.4"))
    statuses = collections.Counter(status for status, _, _ in results)
    assert statuses[200] == 1, statuses
    assert statuses[409] == 49, statuses
    approved = [body for status, _, body in results if status == 200]
    assert approved[0]["status"] == "approved" and approved[0]["credential"]["token"]
    assert all(error_code(body) == "already_used" for status, _, body in results if status == 409)


def test_per_phone_and_per_ip_limits_hold_exactly_across_replicas(cluster):
    # One phone, sixty clients: exactly the phone quota gets through.
    phone = uk_mobile(3)
    results = in_parallel(60, lambda i: post(cluster.replica(i), "/v1/verifications", {"phone_number": phone}, "203.0.113.%d" % (i + 1)))
    statuses = collections.Counter(status for status, _, _ in results)
    assert statuses[201] == PHONE_QUOTA, statuses
    assert statuses[429] == 60 - PHONE_QUOTA, statuses
    assert all(error_code(body) == "rate_limited" and body["error"]["details"]["scope"] == "phone"
               for status, _, body in results if status == 429)

    # One client, sixty phones: exactly the IP quota gets through.
    results = in_parallel(60, lambda i: post(cluster.replica(i), "/v1/verifications", {"phone_number": uk_mobile(100 + i)}, "192.0.2.77"))
    statuses = collections.Counter(status for status, _, _ in results)
    assert statuses[201] == IP_QUOTA, statuses
    assert statuses[429] == 60 - IP_QUOTA, statuses
    assert all(body["error"]["details"]["scope"] == "ip" for status, _, body in results if status == 429)


def test_each_outbox_message_is_sent_exactly_once(cluster):
    results = in_parallel(90, lambda i: post(cluster.replica(i), "/v1/verifications", {"phone_number": uk_mobile(200 + i)}, "198.18.0.%d" % (i + 1)))
    accepted = [body["id"] for status, _, body in results if status == 201]
    assert len(accepted) == 90, collections.Counter(status for status, _, _ in results)
    assert cluster.wait_for_messages(accepted, timeout=20)
    time.sleep(2.5)  # let any duplicate show up: polls are 1 s, leases 15 s but renewed
    messages = cluster.messages()
    ids = collections.Counter(webhook_id for webhook_id, _ in messages)
    duplicates = {k: n for k, n in ids.items() if n > 1}
    assert not duplicates, duplicates
    per_verification = collections.Counter(payload["verification_id"] for _, payload in messages)
    assert sorted(per_verification) == sorted(accepted)
    assert set(per_verification.values()) == {1}


def test_killing_a_replica_mid_load_loses_no_message(database):
    # A slow vendor keeps messages in flight, so the killed replica dies holding claims.
    cluster = Cluster(database, vendor_mode=("sleep", 0.3))
    try:
        accepted = []
        lock = threading.Lock()
        victim = cluster.replica(1)
        killed = threading.Event()

        def start(i):
            server = cluster.replica(i)
            if killed.is_set() and server is victim:
                server = cluster.replica(i + 1)
            status, _, body = post(server, "/v1/verifications", {"phone_number": uk_mobile(400 + i)}, "198.18.1.%d" % (i % 250 + 1))
            if status == 201:
                with lock:
                    accepted.append(body["id"])
            return status

        def killer():
            # Once a third of the load is in, and the victim has queued work, kill it without warning.
            while True:
                with lock:
                    if len(accepted) >= 40:
                        break
                time.sleep(0.01)
            victim.stop(signal.SIGKILL)
            killed.set()

        threading.Thread(target=killer, daemon=True).start()
        statuses = in_parallel(120, start, workers=12)
        assert killed.wait(10), "the load finished before the kill"
        assert len(accepted) >= 90, collections.Counter(statuses)
        # Its leases lapse after 15 s; a surviving replica's worker then sends what it held.
        assert cluster.wait_for_messages(accepted, timeout=25), (
            "lost: %s" % sorted(set(accepted) - {p["verification_id"] for _, p in cluster.messages()}))
        # Only messages in flight at the kill may go out twice (at-least-once delivery).
        messages = cluster.messages()
        ids = collections.Counter(webhook_id for webhook_id, _ in messages)
        duplicates = sum(n - 1 for n in ids.values() if n > 1)
        assert duplicates <= 4 * 16, duplicates
    finally:
        cluster.close()


def console_request(server, method, path, cookie=None, form=None, ip="203.0.113.50"):
    """A console call through the trusted proxy (the cookie is then `__Host-pv_console`)."""
    import requests
    headers = {"X-Forwarded-For": ip, "X-Forwarded-Proto": "https"}
    if cookie:
        headers["Cookie"] = cookie
    reply = requests.request(method, server.base + path, data=form, headers=headers, allow_redirects=False, timeout=10)
    return reply.status_code, reply.headers, reply.text


def test_a_console_sign_out_on_one_replica_ends_the_session_on_all(cluster):
    status, headers, _ = console_request(cluster.replica(0), "POST", "/console/session", form={"api_key": ADMIN_KEY})
    assert status == 303
    cookie = headers["Set-Cookie"].split(";")[0]
    assert cookie.startswith("__Host-pv_console=")
    assert console_request(cluster.replica(2), "GET", "/v1/admin/numbers/%2B14155552671", cookie=cookie)[0] == 200
    page = console_request(cluster.replica(1), "GET", "/console", cookie=cookie)[2]
    token = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
    status, _, _ = console_request(cluster.replica(1), "POST", "/console/signout", cookie=cookie, form={"csrf_token": token})
    assert status == 303
    for i in range(REPLICAS):
        assert console_request(cluster.replica(i), "GET", "/v1/admin/numbers/%2B14155552671", cookie=cookie)[0] == 401


def test_bad_keys_are_throttled_per_address_across_replicas(cluster):
    def admin_get(i, key, ip):
        return cluster.replica(i).request("GET", "/v1/admin/lockouts?phone_number=%2B14155552671",
                                          headers={"Authorization": "Bearer " + key, "X-Forwarded-For": ip})
    for i in range(6):
        assert admin_get(i, "wrong-key-0123456789abcdef", "198.51.100.66")[0] == 401
    status, headers, body = admin_get(0, ADMIN_KEY, "198.51.100.66")
    assert status == 429 and body["error"]["code"] == "rate_limited" and 1 <= int(headers["Retry-After"]) <= 2
    # Another address, the operator's, is not delayed by the stranger's failures.
    assert admin_get(1, ADMIN_KEY, "198.51.100.67")[0] == 200
