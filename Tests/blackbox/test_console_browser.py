"""The operator console in a real headless Chromium (docs/OPERATIONS.md, "Console"): Debian's
`chromium` and `chromium-driver` packages, driven by Selenium (installed by
`scripts/install-deps --test`).

Signs in (a wrong key refused, the admin key let in), looks up a number with verifications,
lifts its lockout, blocks then clears a fraud key, opens the delivery and settings pages, and
checks that the browser logged no Content-Security-Policy violation or script error. With
PV_SAVE_SCREENSHOT=1 it writes docs/console-sign-in.png (the other pages' screenshots come from the
outage scenario of test_console_outage_browser.py). A missing browser, driver or Selenium fails
the test: it is never skipped.
"""
import os

import pytest

from conftest import Server
from test_dev_inbox_browser import browser, until  # noqa: F401 (the fixture)

try:
    from selenium.webdriver.common.by import By
except ImportError:  # the browser fixture reports it
    By = None

ADMIN = "admin-key-console-browser-0123"
PHONE = "+14155552671"
DOCS = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "docs"))
# A page answered 400/401 on purpose (a refused key, a bad number) is logged by Chromium as a
# failed load; anything else SEVERE (a CSP violation, a script error) fails the test.
EXPECTED = ("the server responded with a status of 401", "the server responded with a status of 400")


@pytest.fixture
def console(data_dir):
    server = Server(data_dir, {"PHONE_VERIFY_ADMIN_API_KEYS": ADMIN}).start()
    yield server
    server.stop()


def screenshot(driver, name):
    if os.environ.get("PV_SAVE_SCREENSHOT") == "1":
        driver.execute_script("window.scrollTo(0, 0); document.activeElement && document.activeElement.blur()")
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(1280, min(max(height + 140, 600), 1800))  # the whole page, bounded
        driver.save_screenshot(os.path.join(DOCS, f"console-{name}.png"))
        driver.set_window_size(1280, 900)


def problems(driver):
    return [e["message"] for e in driver.get_log("browser")
            if e["level"] == "SEVERE" and not any(text in e["message"] for text in EXPECTED)]


def rows(driver, table):
    return [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
            for tr in driver.find_elements(By.CSS_SELECTOR, f"#{table} tbody tr")]


def confirm(driver, accept=True):
    """Answers the page's confirmation dialog (every change asks first)."""
    until(driver, lambda d: d.find_elements(By.ID, "confirm-yes"), "the confirmation is asked")
    driver.find_element(By.ID, "confirm-yes" if accept else "confirm-no").click()


def sign_in(driver, key):
    field = driver.find_element(By.ID, "api_key")
    field.clear()
    field.send_keys(key)
    driver.find_element(By.ID, "sign-in").click()


def test_sign_in_look_up_lift_block_and_clear(console, browser):  # noqa: F811
    # Sign-in: a wrong key is refused with nothing of the console shown.
    browser.set_window_size(1280, 900)
    browser.get(console.base + "/console")
    assert browser.title.startswith("Sign in")
    screenshot(browser, "sign-in")
    sign_in(browser, "not-the-admin-key-0123456789")
    until(browser, lambda d: d.find_elements(By.ID, "message"), "the refusal is shown")
    assert browser.find_element(By.ID, "message").text == "This key was refused."
    assert browser.find_elements(By.TAG_NAME, "nav") == []
    assert browser.get_cookies() == []
    sign_in(browser, ADMIN)
    until(browser, lambda d: d.find_elements(By.ID, "sign-out"), "signed in")
    cookie = browser.get_cookies()[0]
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and ADMIN not in cookie["value"]
    assert browser.execute_script("return document.cookie") == ""

    # A number with verifications, one wrong code (a lockout counted) and its delivery.
    status, _, started = console.request("POST", "/v1/verifications", {"phone_number": PHONE})
    assert status == 201, started
    code = console.wait_for_code(started["id"], PHONE)
    wrong = "000000" if code != "000000" else "111111"
    status, _, _ = console.request("POST", f"/v1/verifications/{started['id']}/check", {"code": wrong})
    assert status == 422

    field = browser.find_element(By.ID, "number")
    field.send_keys(PHONE)
    browser.find_element(By.ID, "look-up").click()
    until(browser, lambda d: rows(d, "verifications-table") and rows(d, "verifications-table")[0][1] == "pending",
          "the verification is listed")
    assert browser.current_url.endswith("/console/numbers/+14155552671")
    first = rows(browser, "verifications-table")[0]
    assert first[2] == "sms" and first[3] == started["id"] and first[5] == "1 / 5" and first[7] in ("sent", "delivered")
    assert code not in browser.find_element(By.TAG_NAME, "body").text
    facts = browser.find_element(By.ID, "parse").text
    assert "US" in facts and "libphonenumber" in facts
    until(browser, lambda d: rows(d, "lockouts-table") and rows(d, "lockouts-table")[0][1] == "1", "the lockout is listed")

    # Lift the lockout: asked first; cancelling changes nothing.
    browser.find_element(By.ID, "lift-lockouts").click()
    confirm(browser, accept=False)
    assert rows(browser, "lockouts-table")[0][1] == "1"
    browser.find_element(By.ID, "lift-lockouts").click()
    assert "Lift every failed-check lockout of +14155552671?" in browser.find_element(By.ID, "confirm-text").text
    confirm(browser)
    until(browser, lambda d: d.find_elements(By.ID, "status") and "Lifted 1" in d.find_element(By.ID, "status").text, "lifted")
    assert rows(browser, "lockouts-table") == [["None."]]
    status, _, listed = console.request("GET", "/v1/admin/lockouts?phone_number=%2B14155552671",
                                        headers={"Authorization": "Bearer " + ADMIN})
    assert status == 200 and listed["lockouts"] == []

    # A number that is not a number: a clear message on the page.
    browser.get(console.base + "/console/numbers/hello")
    assert "not a valid phone number" in browser.find_element(By.ID, "message").text

    # Fraud: block the country from its row (asked first), then clear it.
    browser.get(console.base + "/console/fraud")
    until(browser, lambda d: any(r and r[0] == "US (country)" for r in rows(d, "fraud-table")), "the fraud keys are listed")
    index = [r[0] for r in rows(browser, "fraud-table")].index("US (country)")
    browser.find_element(By.ID, f"block-{index}").click()
    confirm(browser)
    until(browser, lambda d: [r for r in rows(d, "fraud-table") if r[0] == "US (country)"][0][7] == "block", "blocked")
    assert browser.find_elements(By.CSS_SELECTOR, "#fraud-history svg rect")
    status, _, refused = console.request("POST", "/v1/verifications", {"phone_number": "+14155552672"})
    assert status == 429 and refused["error"]["code"] == "suspected_fraud", refused
    index = [r[0] for r in rows(browser, "fraud-table")].index("US (country)")
    browser.find_element(By.ID, f"clear-{index}").click()
    confirm(browser)
    until(browser, lambda d: [r for r in rows(d, "fraud-table") if r[0] == "US (country)"][0][7] == "—", "cleared")

    # Delivery and settings.
    browser.get(console.base + "/console/delivery")
    until(browser, lambda d: rows(d, "delivery-hour-table") and rows(d, "delivery-hour-table")[0][1] == "US", "delivery counts")
    assert [r[2] for r in rows(browser, "gateways-hour-table")] == ["closed"]
    assert browser.find_element(By.ID, "delivery-health").text == "Every gateway is healthy in the last hour."
    browser.get(console.base + "/console/settings")
    until(browser, lambda d: rows(d, "keys-table") and rows(d, "keys-table")[0][2] == "active", "signing keys")
    secret_rows = [r for r in rows(browser, "settings-table") if r[0] == "PHONE_VERIFY_ADMIN_API_KEYS"]
    assert secret_rows and ADMIN not in secret_rows[0][1]

    # Sign out: back to the form, and the JSON is closed.
    browser.find_element(By.ID, "sign-out").click()
    until(browser, lambda d: d.find_elements(By.ID, "api_key"), "signed out")
    assert browser.get_cookies() == []

    assert problems(browser) == []
