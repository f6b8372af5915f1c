"""Starts the real phone-verify binary on 127.0.0.1 (port 0) with a fresh data directory."""
import json
import os
import re
import signal
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request

import pytest

BINARY = os.environ.get("PHONE_VERIFY_BINARY", os.path.join(os.path.dirname(__file__), "../../.build/debug/phone-verify"))


class Server:
    def __init__(self, data_dir, env=None):
        self.data_dir = data_dir
        self.env = dict(os.environ)
        self.env.update({"PHONE_VERIFY_LISTEN": "127.0.0.1:0", "PHONE_VERIFY_DATA_DIR": data_dir})
        self.env.update(env or {})
        self.stdout_lines = []
        self.stderr_lines = []
        self.proc = None
        self.base = None

    def start(self, timeout=20):
        self.proc = subprocess.Popen([BINARY], env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        ready = threading.Event()

        def pump(stream, sink, watch):
            for line in stream:
                sink.append(line.rstrip("\n"))
                if watch:
                    m = re.search(r"listening on (http://\S+)", line)
                    if m:
                        self.base = m.group(1)
                        ready.set()

        self.pumps = [
            threading.Thread(target=pump, args=(self.proc.stdout, self.stdout_lines, True), daemon=True),
            threading.Thread(target=pump, args=(self.proc.stderr, self.stderr_lines, False), daemon=True),
        ]
        for thread in self.pumps:
            thread.start()
        deadline = time.time() + timeout
        while not ready.wait(0.1):
            if self.proc.poll() is not None or time.time() > deadline:  # it exited, or never listened
                self.stop()
                raise RuntimeError("server did not start: " + "\n".join(self.stderr_lines[-20:]))
        return self

    def stop(self, sig=signal.SIGTERM, timeout=15):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.join_output()
        return self.proc.returncode if self.proc else None

    def join_output(self, timeout=5):
        """After the process ended: waits until every line it wrote is in stdout_lines/stderr_lines."""
        for thread in getattr(self, "pumps", []):
            thread.join(timeout)

    def wait_for_line(self, lines, predicate, timeout=5):
        """The first of `lines` (stdout_lines or stderr_lines) matching `predicate`, waiting for it."""
        deadline = time.time() + timeout
        while True:
            found = [line for line in list(lines) if predicate(line)]
            if found or time.time() > deadline:
                return found
            time.sleep(0.02)

    def request(self, method, path, body=None, headers=None, raw=None):
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if body is not None:
            req.add_header("Content-Type", "application/json")
        for k, v in (headers or {}).items():
            req.add_header(k, v)
        try:
            with urllib.request.urlopen(req, timeout=10) as resp:
                text = resp.read().decode()
                return resp.status, dict(resp.headers), (json.loads(text) if text else None)
        except urllib.error.HTTPError as err:
            text = err.read().decode()
            return err.code, dict(err.headers), (json.loads(text) if text else None)

    def wait_for_delivery(self, verification_id, status=None, channel=None, timeout=5):
        """The verification's delivery once it has `status` and/or `channel` (asserted after
        `timeout`). Outcomes reach the store in batches a moment after a gateway took the message."""
        deadline = time.time() + timeout
        while True:
            _, _, seen = self.request("GET", "/v1/verifications/" + verification_id)
            delivery = seen.get("delivery") or {}
            matches = (status is None or delivery.get("status") == status) and (channel is None or delivery.get("channel") == channel)
            if matches or time.time() > deadline:
                assert matches, seen
                return delivery
            time.sleep(0.02)

    def wait_for_code(self, verification_id, phone, timeout=10):
        deadline = time.time() + timeout
        query = "/dev/messages?wait=2&verification_id=%s&phone_number=%s" % (
            urllib.request.quote(verification_id, safe=""), urllib.request.quote(phone, safe=""))
        while time.time() < deadline:
            # The server holds the request until this verification's message is sent (≤ 2 s).
            status, _, body = self.request("GET", query)
            assert status == 200
            for message in body["messages"]:
                if message["verification_id"] == verification_id:
                    return message["code"]
        raise AssertionError("no message arrived for " + verification_id)

    def credential(self, phone):
        """A first-factor credential for `phone`: start, read the code from the dev inbox, check."""
        status, _, started = self.request("POST", "/v1/verifications", {"phone_number": phone})
        assert status == 201, started
        code = self.wait_for_code(started["id"], phone)
        status, _, checked = self.request("POST", f"/v1/verifications/{started['id']}/check", {"code": code})
        assert status == 200, checked
        return checked["credential"]["token"]


@pytest.fixture
def data_dir():
    with tempfile.TemporaryDirectory(prefix="phone-verify-test-") as d:
        yield d


@pytest.fixture
def server(data_dir):
    s = Server(data_dir).start()
    yield s
    s.stop()
