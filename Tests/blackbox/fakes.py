"""Fake SMS vendors on 127.0.0.1 speaking each vendor's wire format, for black-box tests."""
import json
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakeVendor:
    """Records every request; answers with the current mode: ("ok", body), ("status", code, body), ("sleep", s),
    ("hold", event): answers "ok" once the threading.Event is set (at most 10 s)."""

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
