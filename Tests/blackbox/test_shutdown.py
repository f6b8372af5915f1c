"""Graceful shutdown of the real binary: SIGTERM under load resets no request in flight, the
delivery worker finishes or releases its message, no outbox row stays claimed, exit status 0."""
import json
import os
import signal
import socket
import sqlite3
import threading
import time

from conftest import Server
from fakes import FakeVendor

NO_LIMITS = ";".join(s + "=off" for s in ["phone_send", "ip_send", "ip_check", "prefix_send", "global_send", "phone_failed_check"])


def one_request(host, port, phone):
    """Returns 'ok', 'refused' (never connected) or 'broken' (connected, then no complete response)."""
    try:
        sock = socket.create_connection((host, port), timeout=5)
    except (ConnectionRefusedError, ConnectionResetError):
        # Reset during the handshake: the listening socket closed with this connection still in
        # its backlog. Either way the request never reached the server.
        return "refused"
    try:
        body = json.dumps({"phone_number": phone}).encode()
        sock.sendall(b"POST /v1/verifications HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Connection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
        data = b""
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
        head, _, rest = data.partition(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 "):
            return "broken"
        length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")), None)
        return "ok" if length is not None and len(rest) == length else "broken"
    except OSError:
        return "broken"
    finally:
        sock.close()


def test_sigterm_under_load(data_dir):
    vendor = FakeVendor({"id": "p"})
    vendor.mode = ("sleep", 1.5)  # a slow vendor: the delivery worker is mid-send at SIGTERM
    env = {"PHONE_VERIFY_LIMITS": NO_LIMITS, "PHONE_VERIFY_FRAUD": "off", "PHONE_VERIFY_GATEWAYS": "webhook",
           "PHONE_VERIFY_WEBHOOK_URL": vendor.base, "PHONE_VERIFY_WEBHOOK_SECRET": "whsec_MDEyMzQ1Njc4OWFiY2RlZg==",
           "PHONE_VERIFY_HTTP_THREADS": "4"}
    server = Server(data_dir, env).start()
    host, port = "127.0.0.1", int(server.base.rsplit(":", 1)[1])
    results = []
    lock = threading.Lock()
    stop = threading.Event()

    def client(n):
        i = 0
        while not stop.is_set():
            outcome = one_request(host, port, "+1415%07d" % (2000000 + n * 100000 + i))
            i += 1
            with lock:
                results.append(outcome)
            if outcome == "refused":
                return

    threads = [threading.Thread(target=client, args=(n,)) for n in range(16)]
    for t in threads:
        t.start()
    time.sleep(0.8)
    assert vendor.wait_for(1)
    server.proc.send_signal(signal.SIGTERM)
    code = server.proc.wait(30)
    server.join_output()
    stop.set()
    for t in threads:
        t.join(10)
    vendor.close()

    assert code == 0
    assert results.count("ok") > 50
    assert results.count("broken") == 0, results.count("broken")
    db = sqlite3.connect(os.path.join(data_dir, "phone-verify.db"))
    claimed = db.execute("SELECT COUNT(*) FROM outbox WHERE lease_owner IS NOT NULL").fetchone()[0]
    queued = db.execute("SELECT COUNT(*) FROM outbox WHERE status = 'queued'").fetchone()[0]
    db.close()
    assert claimed == 0
    assert queued > 0  # the rest waits, unclaimed, for the next start
    assert any('"msg":"stopped"' in line for line in server.stderr_lines)
