"""The console an operator opens in an outage (docs/OPERATIONS.md, "Console"), in headless
Chromium: Twilio answers 500 to every send and Vonage takes them over, a block in Nigeria is
pumped until the fraud guard pauses it, and legitimate users in the US and the UK sign in.
Every page is driven: the delivery page names the failing gateway, the log filters and exports
CSV, a verification shows every attempt and its events, the lookup reads a national number and
lifts a send quota (asked first), the fraud page puts the paused block first. With
PV_SAVE_SCREENSHOT=1 it writes docs/console-*.png from this scenario.
"""
import base64
import csv
import io
import time
import urllib.parse
import urllib.request

import pytest

from conftest import Server
from fakes import EventReceiver, FakeVendor
from test_console_browser import confirm, problems, rows, screenshot, sign_in
from test_dev_inbox_browser import browser, until  # noqa: F401 (the fixture)

try:
    from selenium.webdriver.common.by import By
except ImportError:  # the browser fixture reports it
    By = None

ADMIN = "admin-key-console-outage-0123456"
KEY = b"events-key-console-0123456789-01"
SECRET = "whsec_" + base64.b64encode(KEY).decode()
LEGIT = ["+14155552671", "+14155552672", "+14155552673", "+447400123456", "+447400123457"]
PUMPED = ["+23480212345%02d" % i for i in range(8)]


@pytest.fixture
def outage(data_dir):
    twilio = FakeVendor({"sid": "SM0123456789abcdef", "status": "queued"})
    twilio.mode = ("status", 500, {"code": 20500, "message": "Internal Server Error"})
    vonage = FakeVendor({"message-count": "1", "messages": [{"status": "0", "message-id": "VON-0001"}]})
    receiver = EventReceiver(KEY)
    env = {
        "PHONE_VERIFY_ADMIN_API_KEYS": ADMIN, "PHONE_VERIFY_DEFAULT_REGION": "US",
        "PHONE_VERIFY_GATEWAYS": "twilio,vonage", "PHONE_VERIFY_TWILIO_BASE_URL": twilio.base,
        "PHONE_VERIFY_TWILIO_ACCOUNT_SID": "AC0001", "PHONE_VERIFY_TWILIO_AUTH_TOKEN": "twilio-token",
        "PHONE_VERIFY_TWILIO_FROM": "+15005550006", "PHONE_VERIFY_VONAGE_BASE_URL": vonage.base,
        "PHONE_VERIFY_VONAGE_API_KEY": "k", "PHONE_VERIFY_VONAGE_API_SECRET": "s", "PHONE_VERIFY_VONAGE_FROM": "Acme",
        "PHONE_VERIFY_VONAGE_CALLBACK_TOKEN": "vonage-callback-token",
        "PHONE_VERIFY_EVENTS_URL": receiver.url, "PHONE_VERIFY_EVENTS_SECRET": SECRET,
        "PHONE_VERIFY_FRAUD_MIN_SENDS": "5", "PHONE_VERIFY_TRUSTED_PROXIES": "127.0.0.1/32",
        "PHONE_VERIFY_LIMITS": "ip_send=off;prefix_send=off;phone_send=2/1h",
    }
    server = Server(data_dir, env).start()
    try:
        ids = {}
        for i, phone in enumerate(LEGIT):
            status, _, body = server.request("POST", "/v1/verifications", {"phone_number": phone}, headers={"X-Forwarded-For": "198.51.100.%d" % i})
            assert status == 201, body
            ids[phone] = body["id"]
        for phone in LEGIT[:4]:
            code = server.wait_for_code(ids[phone], phone)
            assert server.request("POST", "/v1/verifications/%s/check" % ids[phone], {"code": code})[0] == 200
        paused = 0
        for i, phone in enumerate(PUMPED):
            status, _, body = server.request("POST", "/v1/verifications", {"phone_number": phone}, headers={"X-Forwarded-For": "203.0.113.%d" % i})
            assert status in (201, 429), body
            paused += status == 429 and body["error"]["code"] == "suspected_fraud"
        assert paused >= 1
        # A stranger spends the owner's send quota (phone_send=2/1h).
        for ip in ("203.0.113.200", "203.0.113.201"):
            server.request("POST", "/v1/verifications", {"phone_number": LEGIT[4]}, headers={"X-Forwarded-For": ip})
        assert vonage.wait_for(len(LEGIT)) and len(twilio.requests) >= 1
        yield server, ids, receiver
    finally:
        server.stop()
        twilio.close()
        vonage.close()
        receiver.close()


def test_the_console_in_an_outage(outage, browser):  # noqa: F811
    server, ids, receiver = outage
    browser.set_window_size(1280, 900)
    browser.get(server.base + "/console")
    sign_in(browser, ADMIN)
    until(browser, lambda d: d.find_elements(By.ID, "sign-out"), "signed in")

    # Lookup, before a number is typed: the latest verifications, with ids and the channel used.
    until(browser, lambda d: len(rows(d, "latest-table")) >= 5, "the latest verifications")
    latest = rows(browser, "latest-table")
    assert any(r[1].startswith("ver_") and r[5] == "vonage" for r in latest), latest
    assert browser.find_element(By.ID, "refresh").text.startswith("Refreshes every")

    # Delivery: Twilio is named failing at a glance, with its errors; Vonage took the failovers.
    browser.get(server.base + "/console/delivery")
    until(browser, lambda d: d.find_elements(By.ID, "delivery-health"), "the delivery page")
    banner = browser.find_element(By.ID, "delivery-health").text
    assert banner.startswith("Failing: twilio (sms)"), banner
    gateways = {r[0].split()[0]: r for r in rows(browser, "gateways-hour-table")}
    assert "FAILING" in gateways["twilio"][0] and int(gateways["twilio"][4]) >= 1, gateways
    assert int(gateways["vonage"][5]) >= 1 and int(gateways["vonage"][6]) >= 1, gateways
    assert browser.find_elements(By.CSS_SELECTOR, "#gateways-hour-table tr.failing")
    assert rows(browser, "events-outbox-table")
    until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#conversion-chart path.line"), "the conversion chart")
    assert "US · sms" in browser.find_element(By.ID, "conversion-legend").text
    screenshot(browser, "delivery")

    # Log: filter by country, open a verification, export CSV.
    browser.get(server.base + "/console/log?country=GB&window=24h")
    until(browser, lambda d: rows(d, "log-table") and rows(d, "log-table")[0][0] != "None.", "the GB verifications")
    assert {r[2] for r in rows(browser, "log-table")} <= {"+447400123456", "+447400123457"}
    browser.get(server.base + "/console/log")
    until(browser, lambda d: len(rows(d, "log-table")) >= 5, "the log")
    screenshot(browser, "log")
    browser.find_element(By.ID, "filter-status").send_keys("approved")
    browser.find_element(By.ID, "filter-apply").click()
    until(browser, lambda d: "status=approved" in d.current_url and rows(d, "log-table") and all(r[3] == "approved" for r in rows(d, "log-table")), "approved only")
    href = browser.find_element(By.ID, "export-csv").get_attribute("href")
    assert "status=approved" in href
    cookie = "; ".join(c["name"] + "=" + c["value"] for c in browser.get_cookies())
    with urllib.request.urlopen(urllib.request.Request(href, headers={"Cookie": cookie}), timeout=10) as resp:
        assert resp.status == 200 and resp.headers["Content-Type"].startswith("text/csv")
        table = list(csv.DictReader(io.StringIO(resp.read().decode())))
    assert len(table) == 4 and {r["status"] for r in table} == {"approved"}, table
    assert {r["gateway"] for r in table} == {"vonage"} and all(r["id"].startswith("ver_") for r in table)

    verification = ids[LEGIT[0]]
    browser.get(server.base + "/console/verifications/" + verification)
    until(browser, lambda d: rows(d, "messages-table") and rows(d, "messages-table")[0][0] != "None.", "the messages")
    message = rows(browser, "messages-table")[0]
    assert message[3] == "vonage" and message[6] == "VON-0001", message
    receiver.wait(lambda got: any(r["event"]["data"].get("verification_id") == verification and r["event"]["type"] == "verification.approved" for r in got))
    time.sleep(0.5)
    browser.refresh()
    until(browser, lambda d: any(r[2] == "verification.approved" for r in rows(d, "events-table")), "the events emitted")
    screenshot(browser, "verification")

    # Lookup of a national number, and lifting a send quota strangers spent (asked first).
    browser.get(server.base + "/console")
    field = browser.find_element(By.ID, "number")
    field.send_keys("(415) 555-2671")
    browser.find_element(By.ID, "look-up").click()
    until(browser, lambda d: d.current_url.endswith("/console/numbers/+14155552671") or "%20" in d.current_url, "the lookup")
    until(browser, lambda d: rows(d, "verifications-table") and rows(d, "verifications-table")[0][1] == "approved", "the number's verifications")
    first = rows(browser, "verifications-table")[0]
    assert first[2] == "sms" and first[3] == verification and first[8] == "vonage", first
    screenshot(browser, "lookup")
    browser.get(server.base + "/console/numbers/" + urllib.parse.quote(LEGIT[4]))
    until(browser, lambda d: rows(d, "quota-table") and rows(d, "quota-table")[0][2] == "0", "the spent quota")
    browser.find_element(By.ID, "lift-quota").click()
    assert "Lift the send quota of +447400123457" in browser.find_element(By.ID, "confirm-text").text
    confirm(browser)
    until(browser, lambda d: d.find_elements(By.ID, "status") and "Lifted the send quota" in d.find_element(By.ID, "status").text, "lifted")
    assert rows(browser, "quota-table")[0][2] == "2"
    status, _, _ = server.request("POST", "/v1/verifications", {"phone_number": LEGIT[4]}, headers={"X-Forwarded-For": "198.51.100.4"})
    assert status == 201

    # Fraud: the paused block first and highlighted, in words, with the spend it turns away.
    browser.get(server.base + "/console/fraud")
    until(browser, lambda d: rows(d, "fraud-table") and rows(d, "fraud-table")[0][0] != "None.", "the fraud table")
    first = rows(browser, "fraud-table")[0]
    assert first[0] == "+234802123… (block)" and first[1] == "paused" and first[6].startswith("≈"), first
    assert browser.find_elements(By.CSS_SELECTOR, "#fraud-table tr.state-paused")
    text = browser.find_element(By.TAG_NAME, "body").text
    assert "anomalous_blocks" not in text and "prefix:" not in text.split("Override a destination")[0]
    # No cell breaks a word ("norma|l"): lines wrap between words only, and the destination never wraps.
    styles = browser.execute_script(
        "return Array.from(document.querySelectorAll('#fraud-table tbody td')).map(function (td) {"
        " var s = getComputedStyle(td); return [s.overflowWrap, s.wordBreak]; })")
    assert styles and all(s == ["normal", "normal"] for s in styles), styles
    first_cell = browser.find_element(By.CSS_SELECTOR, "#fraud-table tbody tr td")
    assert first_cell.value_of_css_property("white-space") == "nowrap"
    screenshot(browser, "fraud")
    browser.find_element(By.ID, "allow-0").click()
    confirm(browser, accept=False)
    assert rows(browser, "fraud-table")[0][7] == "—"
    browser.find_element(By.ID, "allow-0").click()
    confirm(browser)
    until(browser, lambda d: any(r[7] == "allow" for r in rows(d, "fraud-table")), "allowed")

    # Settings: the issuer in use, not a placeholder.
    browser.get(server.base + "/console/settings")
    until(browser, lambda d: rows(d, "settings-table"), "the settings")
    issuer = [r for r in rows(browser, "settings-table") if r[0] == "PHONE_VERIFY_ISSUER"][0]
    assert issuer[1] == "default: " + server.base, issuer
    screenshot(browser, "settings")
    assert problems(browser) == []
