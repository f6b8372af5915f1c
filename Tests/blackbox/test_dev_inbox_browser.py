"""The dev inbox in a real headless Chromium: Debian's `chromium` and `chromium-driver` packages,
driven by Selenium from PyPI (all installed by `scripts/install-deps --test`).

Loads /dev/inbox, starts verifications over HTTP, and sees each code appear in the page without
a reload; then the phone-number filter, the live status, the copy button and the absence of
Content-Security-Policy violations. With PV_SAVE_SCREENSHOT=1 it also writes docs/dev-inbox.png.
A missing browser, driver or Selenium fails the test: it is never skipped.
"""
import os
import time

import pytest

try:
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError as err:  # reported by the fixture as a failure
    webdriver = None
    SELENIUM_IMPORT_ERROR = err

CHROMIUM = os.environ.get("PV_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("PV_CHROMEDRIVER", "/usr/bin/chromedriver")
SCREENSHOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "docs", "dev-inbox.png"))
TIMEOUT = 10

US = "+14155552671"
UK = "+447400123456"
US2 = "+14155552672"


@pytest.fixture
def browser():
    if webdriver is None:
        pytest.fail(f"Selenium is not installed ({SELENIUM_IMPORT_ERROR}): run scripts/install-deps --test")
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not os.access(path, os.X_OK):
            pytest.fail(f"{path} is missing: install Debian's {package} (scripts/install-deps --test)")
    # Never let Selenium Manager look for a browser or driver elsewhere.
    os.environ.setdefault("SE_OFFLINE", "true")
    options = Options()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1000,780",
        "--force-device-scale-factor=1", "--lang=en-US", "--hide-scrollbars", "--no-first-run",
        "--disable-extensions", "--disable-background-networking", "--disable-sync", "--disable-default-apps",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(TIMEOUT)
    driver.set_script_timeout(TIMEOUT)
    try:
        yield driver
    finally:
        driver.quit()


def until(driver, condition, what):
    """Waits (bounded) until `condition(driver)` is truthy, and returns it."""
    return WebDriverWait(driver, TIMEOUT, poll_frequency=0.05, ignored_exceptions=(WebDriverException,)).until(
        condition, f"not within {TIMEOUT} s: {what}")


def card(driver, verification_id):
    found = driver.find_elements(By.CSS_SELECTOR, f'li.msg[data-verification-id="{verification_id}"]')
    return found[0] if found else None


def start(server, phone):
    status, _, body = server.request("POST", "/v1/verifications", {"phone_number": phone})
    assert status == 201, body
    return body["id"], server.wait_for_code(body["id"], phone)


def test_codes_appear_live_without_reload(server, browser):
    browser.get(server.base + "/dev/inbox")
    assert browser.title.startswith("Dev inbox")
    until(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-connection") == "live",
          "the event stream is connected")
    assert browser.find_elements(By.CSS_SELECTOR, "li.msg") == []
    assert browser.find_element(By.ID, "empty").is_displayed()
    # Anything set now disappears if the page reloads.
    browser.execute_script("window.pvSameDocument = 'still here'")

    # A verification started over HTTP shows up with its code, large, and its status.
    first_id, first_code = start(server, US)
    first = until(browser, lambda d: card(d, first_id), "the first message is shown")
    until(browser, lambda d: card(d, first_id).find_element(By.CSS_SELECTOR, ".code").text == first_code,
          "the first code is shown")
    assert browser.execute_script("return window.pvSameDocument") == "still here", "the page was reloaded"
    assert first.find_element(By.CSS_SELECTOR, ".to").text == US
    assert first.find_element(By.CSS_SELECTOR, ".channel").text == "SMS"
    assert first_code in first.find_element(By.CSS_SELECTOR, ".body").text
    code_style = browser.execute_script(
        "const s = getComputedStyle(arguments[0]); return [parseFloat(s.fontSize), s.fontFamily]",
        first.find_element(By.CSS_SELECTOR, ".code"))
    assert code_style[0] >= 28 and "mono" in code_style[1].lower()
    until(browser, lambda d: card(d, first_id).get_attribute("data-status") == "pending", "the status is shown")
    assert not browser.find_element(By.ID, "empty").is_displayed()

    # Newest first.
    second_id, second_code = start(server, UK)
    until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "li.msg")[0].get_attribute("data-verification-id") == second_id,
          "the second message is on top")
    assert card(browser, second_id).find_element(By.CSS_SELECTOR, ".code").text == second_code
    third_id, third_code = start(server, US2)
    until(browser, lambda d: [e.get_attribute("data-verification-id") for e in d.find_elements(By.CSS_SELECTOR, "li.msg")]
          == [third_id, second_id, first_id], "newest first")

    # The filter matches phone numbers by digits, however they are typed.
    search = browser.find_element(By.ID, "filter")
    search.send_keys("+44 7400")
    until(browser, lambda d: [e.get_attribute("data-verification-id") for e in d.find_elements(By.CSS_SELECTOR, "li.msg")
                              if e.is_displayed()] == [second_id], "only the UK message is shown")
    assert "phone_number=" in browser.current_url
    search.clear()
    search.send_keys("5552671")
    until(browser, lambda d: [e.get_attribute("data-verification-id") for e in d.find_elements(By.CSS_SELECTOR, "li.msg")
                              if e.is_displayed()] == [first_id], "only the first US message is shown")
    browser.execute_script("const f = arguments[0]; f.value = ''; f.dispatchEvent(new Event('input'))", search)
    until(browser, lambda d: all(e.is_displayed() for e in d.find_elements(By.CSS_SELECTOR, "li.msg")), "all shown again")

    # The status follows the verification.
    status, _, checked = server.request("POST", f"/v1/verifications/{first_id}/check", {"code": first_code})
    assert status == 200, checked
    until(browser, lambda d: card(d, first_id).get_attribute("data-status") == "approved", "the status turns approved")
    assert card(browser, second_id).get_attribute("data-status") == "pending"

    # The copy button puts the code on the clipboard (or, where the clipboard is refused, says how).
    browser.execute_cdp_cmd("Browser.grantPermissions", {
        "origin": server.base, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    button = card(browser, second_id).find_element(By.CSS_SELECTOR, "button.copy")
    assert button.text == "Copy"
    button.click()
    until(browser, lambda d: card(d, second_id).find_element(By.CSS_SELECTOR, "button.copy").text in ("Copied", "Ctrl+C"),
          "the copy button answers")
    if card(browser, second_id).find_element(By.CSS_SELECTOR, "button.copy").text == "Copied":
        pasted = browser.execute_async_script(
            "const done = arguments[0]; navigator.clipboard.readText().then(done, () => done(null))")
        assert pasted in (second_code, None)

    # Nothing was blocked by the Content-Security-Policy and no script failed.
    problems = [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert problems == [], problems

    if os.environ.get("PV_SAVE_SCREENSHOT") == "1":
        browser.execute_script("window.scrollTo(0, 0); document.activeElement && document.activeElement.blur()")
        until(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "li.msg.fresh"), "the arrival highlight is over")
        time.sleep(0.2)
        os.makedirs(os.path.dirname(SCREENSHOT), exist_ok=True)
        assert browser.save_screenshot(SCREENSHOT)
