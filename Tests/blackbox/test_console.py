"""The operator console over plain HTTP (docs/OPERATIONS.md, "Console"): who may sign in, the
session cookie's flags, CSRF, the idle timeout and bad numbers, against the real binary. The
browser test (test_console_browser.py) drives the same pages in Chromium."""
import re
import time

import pytest
import requests

from conftest import Server

ADMIN = "admin-key-console-0123456789"
READ_ONLY = "read-key-console-0123456789a"
METRICS = "metrics-key-console-01234567"
PHONE = "+14155552671"


@pytest.fixture
def console(data_dir):
    server = Server(data_dir, {
        "PHONE_VERIFY_ADMIN_API_KEYS": ADMIN,
        "PHONE_VERIFY_SCOPED_API_KEYS": f"read={READ_ONLY},metrics={METRICS}",
        "PHONE_VERIFY_CONSOLE_IDLE_TIMEOUT": "3",
    }).start()
    yield server
    server.stop()


def sign_in(server, key=ADMIN):
    session = requests.Session()
    reply = session.post(server.base + "/console/session", data={"api_key": key}, allow_redirects=False, timeout=10)
    return session, reply


def csrf(session, server):
    page = session.get(server.base + "/console", timeout=10)
    return re.search(r'name="csrf-token" content="([^"]+)"', page.text).group(1)


def test_wrong_missing_and_scopeless_keys_get_nothing(console):
    for key in ("wrong-key-wrong-key-wrong-key", "", ADMIN + "x", ADMIN[:-1]):
        session, reply = sign_in(console, key)
        assert reply.status_code == 401, key
        assert "Set-Cookie" not in reply.headers
        assert "This key was refused." in reply.text and "csrf-token" not in reply.text
    session, reply = sign_in(console, METRICS)
    assert reply.status_code == 403 and "Set-Cookie" not in reply.headers
    # Without a session: the sign-in form, and 401 from the JSON.
    page = requests.get(console.base + "/console/fraud", timeout=10)
    assert 'name="api_key"' in page.text and "fraud-table" not in page.text
    assert requests.get(console.base + "/v1/admin/numbers/%2B14155552671", timeout=10).status_code == 401


def test_the_cookie_flags_and_page_headers(console):
    session, reply = sign_in(console)
    assert reply.status_code == 303 and reply.headers["Location"] == "/console"
    cookie = reply.headers["Set-Cookie"]
    # The server is on 127.0.0.1 without a proxy: no Secure (the browser would never send it back).
    assert cookie.startswith("pv_console=") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert "Secure" not in cookie and ADMIN not in cookie and "Max-Age=3" in cookie
    # Through a proxy it is __Host- and Secure.
    proxied = requests.post(console.base + "/console/session", data={"api_key": ADMIN}, allow_redirects=False,
                            headers={"X-Forwarded-Proto": "https"}, timeout=10)
    assert proxied.headers["Set-Cookie"].startswith("__Host-pv_console=") and "; Secure" in proxied.headers["Set-Cookie"]
    page = session.get(console.base + "/console", timeout=10)
    assert page.headers["Cache-Control"] == "no-store" and page.headers["X-Frame-Options"] == "DENY"
    csp = page.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp


def test_forged_csrf_changes_nothing(console):
    session, _ = sign_in(console)
    token = csrf(session, console)
    url = console.base + "/v1/admin/fraud/country:US"
    for headers in ({}, {"X-CSRF-Token": "forged"}, {"X-CSRF-Token": token, "Origin": "https://evil.example"}):
        reply = session.put(url, json={"action": "block"}, headers=headers, timeout=10)
        assert reply.status_code == 403, headers
    listed = requests.get(console.base + "/v1/admin/fraud", headers={"Authorization": "Bearer " + ADMIN}, timeout=10).json()
    assert all(k["override"] is None for k in listed["keys"])
    # Sign-out needs the token too.
    assert session.post(console.base + "/console/signout", data={"csrf_token": "forged"}, allow_redirects=False, timeout=10).status_code == 403
    assert session.put(url, json={"action": "block"}, headers={"X-CSRF-Token": token}, timeout=10).status_code == 200
    assert session.delete(url, headers={"X-CSRF-Token": token}, timeout=10).status_code == 200
    # The audit line names the key by its id, never the key.
    time.sleep(0.2)
    audit = [line for line in console.stdout_lines + console.stderr_lines if '"admin action"' in line]
    assert any('"via":"console"' in line and '"outcome":"200"' in line and '"key_id":"' in line for line in audit), audit
    assert not any(ADMIN in line for line in console.stdout_lines + console.stderr_lines)


def test_a_read_key_may_look_but_not_change(console):
    session, reply = sign_in(console, READ_ONLY)
    assert reply.status_code == 303
    token = csrf(session, console)
    assert session.get(console.base + "/v1/admin/fraud", timeout=10).status_code == 200
    reply = session.put(console.base + "/v1/admin/fraud/country:US", json={"action": "block"}, headers={"X-CSRF-Token": token}, timeout=10)
    assert reply.status_code == 403 and reply.json()["error"]["code"] == "forbidden"


def test_an_idle_session_ends(console):
    session, _ = sign_in(console)
    assert session.get(console.base + "/v1/admin/delivery", timeout=10).status_code == 200
    # The browser drops the cookie after Max-Age; a client that keeps it is refused by the server.
    kept = {"Cookie": "pv_console=" + session.cookies["pv_console"]}
    time.sleep(4)
    expired = requests.get(console.base + "/v1/admin/delivery", headers=kept, timeout=10)
    assert expired.status_code == 401 and expired.json()["error"]["code"] == "unauthenticated"
    page = requests.get(console.base + "/console", headers=kept, timeout=10)
    assert "Your session has ended" in page.text and 'name="api_key"' in page.text


def test_a_number_that_is_not_a_number(console):
    session, _ = sign_in(console)
    reply = session.get(console.base + "/v1/admin/numbers/hello", timeout=10)
    assert reply.status_code == 400 and reply.json()["error"]["code"] == "invalid_phone_number"
    assert reply.json()["error"]["details"]["reason"] == "not_a_number"
    page = session.get(console.base + "/console/numbers?number=%3Cb%3Ehello", timeout=10)
    assert page.status_code == 400 and "not a valid phone number" in page.text
    assert "<b>hello" not in page.text and "&lt;b&gt;hello" in page.text
    assert session.get(console.base + "/v1/admin/numbers/%2B14155552671?limit=1000", timeout=10).status_code == 400


def test_the_console_can_be_turned_off(data_dir):
    server = Server(data_dir, {"PHONE_VERIFY_ADMIN_API_KEYS": ADMIN, "PHONE_VERIFY_CONSOLE": "false"}).start()
    try:
        assert requests.get(server.base + "/console", timeout=10).status_code == 404
        reply = requests.post(server.base + "/console/session", data={"api_key": ADMIN}, allow_redirects=False, timeout=10)
        assert reply.status_code == 404 and "Set-Cookie" not in reply.headers
        assert requests.get(server.base + "/v1/admin/delivery", headers={"Authorization": "Bearer " + ADMIN}, timeout=10).status_code == 404
        # Bearer keys still work on the other admin routes.
        assert requests.get(server.base + "/v1/admin/fraud", headers={"Authorization": "Bearer " + ADMIN}, timeout=10).status_code == 200
    finally:
        server.stop()


def test_the_secure_cookie_setting_holds_on_loopback(data_dir):
    # A TLS terminator on the same host that adds no proxy headers: the peer is 127.0.0.1.
    server = Server(data_dir, {"PHONE_VERIFY_ADMIN_API_KEYS": ADMIN, "PHONE_VERIFY_CONSOLE_SECURE_COOKIE": "true"}).start()
    try:
        session, reply = sign_in(server)
        cookie = reply.headers["Set-Cookie"]
        assert reply.status_code == 303 and cookie.startswith("__Host-pv_console=") and "; Secure" in cookie
        kept = {"Cookie": cookie.split(";")[0]}
        assert requests.get(server.base + "/v1/admin/delivery", headers=kept, timeout=10).status_code == 200
    finally:
        server.stop()


def test_sign_out_revokes_a_copied_cookie(console):
    session, _ = sign_in(console)
    copied = {"Cookie": "pv_console=" + session.cookies["pv_console"]}
    token = csrf(session, console)
    out = session.post(console.base + "/console/signout", data={"csrf_token": token}, allow_redirects=False, timeout=10)
    assert out.status_code == 303
    replayed = requests.get(console.base + "/v1/admin/delivery", headers=copied, timeout=10)
    assert replayed.status_code == 401 and replayed.json()["error"]["code"] == "unauthenticated"


def test_listings_hide_the_ids_of_pending_verifications(console):
    """A pending id lets anyone cancel it: a read-only key never sees one; a key trusted to lift
    locks (admin) does, so operators can open the verification."""
    started = requests.post(console.base + "/v1/verifications", json={"phone_number": PHONE}, timeout=10).json()
    read, admin = {"Authorization": "Bearer " + READ_ONLY}, {"Authorization": "Bearer " + ADMIN}
    for path in ["/v1/admin/verifications?phone_number=%2B14155552671", "/v1/admin/numbers/%2B14155552671",
                 "/v1/admin/verification-log", "/v1/admin/verification-log.csv"]:
        reply = requests.get(console.base + path, headers=read, timeout=10)
        assert reply.status_code == 200 and started["id"] not in reply.text, path
        if not path.endswith(".csv"):
            assert reply.json()["verifications"][0]["id"] is None
        assert started["id"] in requests.get(console.base + path, headers=admin, timeout=10).text, path
    assert requests.delete(console.base + "/v1/verifications/" + started["id"], timeout=10).status_code == 200
    listed = requests.get(console.base + "/v1/admin/verifications?phone_number=%2B14155552671", headers=read, timeout=10).json()
    assert listed["verifications"][0]["id"] == started["id"]
