"""Fake SMS vendors on 127.0.0.1 speaking each vendor's wire format, for black-box tests."""
import base64
import hashlib
import hmac
import json
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def twilio_signature(token, url, fields):
    """X-Twilio-Signature: base64 HMAC-SHA1 of the URL followed by the sorted form fields."""
    data = url + "".join(k + v for k, v in sorted(fields.items()))
    return base64.b64encode(hmac.new(token.encode(), data.encode(), hashlib.sha1).digest()).decode()


class FakeVendor:
    """Records every request; answers with the current mode: ("ok", body), ("status", code, body), ("sleep", s),
    ("hold", event): answers "ok" once the threading.Event is set (at most 10 s), ("echo", code, make): answers
    `code` with make(request body) — a vendor that quotes the request in its error."""

    def __init__(self, ok_body):
        self.ok_body = ok_body
        self.mode = ("ok",)
        self.requests = []
        self.lock = threading.Lock()
        vendor = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                with vendor.lock:
                    vendor.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                    mode = vendor.mode
                if mode[0] == "sleep":
                    time.sleep(mode[1])
                    mode = ("ok",)
                elif mode[0] == "hold":
                    mode[1].wait(10)
                    mode = ("ok",)
                if mode[0] == "echo":
                    status, payload = mode[1], mode[2](body)
                else:
                    status, payload = (200 if mode[0] == "ok" else mode[1]), (vendor.ok_body if mode[0] == "ok" else mode[2])
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.base = "http://127.0.0.1:%d" % self.port
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def form(self, index):
        return dict(urllib.parse.parse_qsl(self.requests[index]["body"].decode(), keep_blank_values=True))

    def wait_for(self, count, timeout=10):
        deadline = time.time() + timeout
        while time.time() < deadline:
            with self.lock:
                if len(self.requests) >= count:
                    return True
            time.sleep(0.05)
        return False

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class FakeTurnstile:
    """Cloudflare Turnstile's siteverify on 127.0.0.1: knows the tokens its "widget" issued
    (`issue()`), accepts each once (a second use answers `timeout-or-duplicate`, as Cloudflare
    does), and replays its first answer for a repeated `idempotency_key`."""

    SECRET = "0x4AAAAAAAfake-turnstile-secret"
    SITE_KEY = "0x4AAAAAAAfake-site-key"

    def __init__(self, hostname="app.example.com"):
        self.hostname = hostname
        self.issued = set()
        self.used = set()
        self.answers = {}
        self.requests = []
        self.lock = threading.Lock()
        self.counter = 0
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                raw = self.rfile.read(length).decode()
                if self.headers.get("Content-Type", "").startswith("application/json"):
                    form = json.loads(raw)
                else:
                    form = dict(urllib.parse.parse_qsl(raw, keep_blank_values=True))
                answer = fake.answer(form)
                data = json.dumps(answer).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d/turnstile/v0/siteverify" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def issue(self):
        with self.lock:
            self.counter += 1
            token = "0.fake-turnstile-token-%06d-%s" % (self.counter, "x" * 40)
            self.issued.add(token)
            return token

    def answer(self, form):
        with self.lock:
            self.requests.append(form)
            key = form.get("idempotency_key")
            if key and key in self.answers:
                return self.answers[key]
            token = form.get("response", "")
            if form.get("secret") != self.SECRET:
                result = {"success": False, "error-codes": ["invalid-input-secret"]}
            elif token not in self.issued:
                result = {"success": False, "error-codes": ["invalid-input-response"]}
            elif token in self.used:
                result = {"success": False, "error-codes": ["timeout-or-duplicate"]}
            else:
                self.used.add(token)
                result = {"success": True, "error-codes": [], "hostname": self.hostname,
                          "challenge_ts": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "action": ""}
            if key:
                self.answers[key] = result
            return result

    def env(self):
        return {"PHONE_VERIFY_CHALLENGE_PROVIDERS": "turnstile", "PHONE_VERIFY_TURNSTILE_SITE_KEY": self.SITE_KEY,
                "PHONE_VERIFY_TURNSTILE_SECRET": self.SECRET, "PHONE_VERIFY_TURNSTILE_VERIFY_URL": self.url,
                "PHONE_VERIFY_TURNSTILE_HOSTNAMES": self.hostname}

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class EventReceiver:
    """The main auth server's events endpoint: verifies each POST's Standard Webhooks signature with
    `key`, records it, and answers `statuses` in turn (then 200), or sleeps `hang` seconds first."""

    def __init__(self, key, statuses=(), hang=0):
        import base64
        import hashlib
        import hmac

        self.key = key
        self.statuses = list(statuses)
        self.hang = hang
        self.received = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                wid, stamp = self.headers.get("webhook-id", ""), self.headers.get("webhook-timestamp", "")
                signed = b"%s.%s.%s" % (wid.encode(), stamp.encode(), body)
                expected = "v1," + base64.b64encode(hmac.new(receiver.key, signed, hashlib.sha256).digest()).decode()
                with receiver.lock:
                    status = receiver.statuses.pop(0) if receiver.statuses else 200
                    receiver.received.append({
                        "id": wid, "timestamp": stamp, "valid": hmac.compare_digest(expected, self.headers.get("webhook-signature", "")),
                        "content_type": self.headers.get("Content-Type"), "event": json.loads(body), "status": status,
                    })
                if receiver.hang:
                    time.sleep(receiver.hang)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d/events" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def events(self, type_=None):
        with self.lock:
            return [r for r in self.received if type_ is None or r["event"]["type"] == type_]

    def wait(self, predicate, timeout=10):
        """Waits until `predicate(received)` holds; returns whether it did."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            with self.lock:
                if predicate(list(self.received)):
                    return True
            time.sleep(0.05)
        return False

    def close(self):
        self.server.shutdown()
        self.server.server_close()
