"""Drives Courier Console in Debian's headless Chromium through chromium-driver (Selenium).

Usage: console_browser.py BASE_URL ADMIN_TOKEN WRITE_KEY COURIER_CLI WORK_DIR

Sends an event before the page opens and finds it, with its user id, in the live debugger; finds
the empty-state texts of a second write key with no events; signs in, sends events with
`courier track` (the Analytics SDK) and waits for them in the live debugger, opens one and reads its JSON, turns the kill switch on and sees the SDK's next batch
refused, edits a flag's rollout and sees the evaluation preview change, and checks that a hostile
property is shown as text. Nothing is downloaded: the browser and the driver are the system's.
Exits 0 when every step passed; prints the failing step otherwise.
"""

import json
import os
import re
import subprocess
import sys
import time

os.environ.setdefault("SE_OFFLINE", "true")

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import NoAlertPresentException, TimeoutException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

BASE, TOKEN, WRITE_KEY, CLI, WORK = sys.argv[1:6]
EMPTY_KEY = WRITE_KEY + "-empty"  # the test's server accepts it too; nothing is sent with it
HOSTILE = "<img src=x onerror=alert(1)>"


def step(name):
    print(f"step: {name}", file=sys.stderr, flush=True)


def courier(*arguments, check=True):
    """Runs the courier CLI against the server."""
    result = subprocess.run(
        [CLI, *arguments, "--server", BASE],
        env={**os.environ, "COURIER_ADMIN_TOKEN": TOKEN},
        capture_output=True, text=True, timeout=60)
    if check and result.returncode != 0:
        raise AssertionError(f"courier {' '.join(arguments)} failed: {result.returncode} {result.stderr}")
    return result


def track(name, *props, queue):
    arguments = ["track", name, "--write-key", WRITE_KEY, "--user-id", "browser-user",
                 "--data-dir", os.path.join(WORK, queue), "--drain-seconds", "5"]
    for prop in props:
        arguments += ["--prop", prop]
    return courier(*arguments, check=False)


def main():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("COURIER_CHROMIUM", "/usr/bin/chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1280,900", "--no-first-run", "--disable-background-networking"):
        options.add_argument(flag)
    service = Service(executable_path=os.environ.get("COURIER_CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = webdriver.Chrome(service=service, options=options)
    wait = WebDriverWait(driver, 10)
    try:
        run(driver, wait)
    finally:
        driver.quit()


def visible(driver, element_id):
    element = driver.find_element(By.ID, element_id)
    return element.is_displayed()


def event_buttons(driver, text):
    return [b for b in driver.find_elements(By.CSS_SELECTOR, "#event-list button") if text in b.text]


def run(driver, wait):
    step("an event is stored before the console opens")
    result = track("Stored Before Open", "plan=free", queue="q0")
    assert result.returncode == 0, result.stderr

    step("sign in with a wrong token, then the right one, by keyboard")
    driver.get(BASE + "/console/")
    wait.until(lambda d: visible(d, "sign-in-view"))
    # `hidden` must win over the style sheet's `nav { display: flex }`.
    assert not visible(driver, "nav"), "the navigation shows while signed out"
    assert not visible(driver, "sign-out"), "Sign out shows while signed out"
    token = driver.find_element(By.ID, "token")
    token.send_keys("not-the-token" + Keys.ENTER)
    wait.until(lambda d: d.find_element(By.ID, "sign-in-error").text != "")
    assert "not the admin token" in driver.find_element(By.ID, "sign-in-error").text
    token.clear()
    token.send_keys(TOKEN + Keys.ENTER)
    wait.until(lambda d: visible(d, "sources-view"))
    assert visible(driver, "nav") and visible(driver, "sign-out")
    cookies = {c["name"]: c for c in driver.get_cookies()}
    assert cookies["courier_console"]["httpOnly"] is True, cookies
    assert cookies["courier_console"]["sameSite"] == "Strict", cookies
    assert driver.execute_script("return document.cookie") == "", "the session cookie is readable by script"

    step("the sources list gives sparklines a scale and says when a source has no events")
    wait.until(lambda d: d.find_elements(By.LINK_TEXT, EMPTY_KEY))
    rows = {row.find_element(By.CSS_SELECTOR, "td a").text: row.text
            for row in driver.find_elements(By.CSS_SELECTOR, "#sources-table tbody tr")}
    assert "No events in the last hour" in rows[EMPTY_KEY], rows
    assert re.search(r"max [1-9][0-9]* per minute", rows[WRITE_KEY]), rows

    step("a source with no events says so in its debugger and volume")
    driver.find_element(By.LINK_TEXT, EMPTY_KEY).click()
    wait.until(lambda d: visible(d, "source-view"))
    wait.until(lambda d: "no events stored for this source" in d.find_element(By.ID, "stream-status").text)
    wait.until(lambda d: d.find_element(By.ID, "volume-empty").text == "No events in the last day for this source.")
    assert not visible(driver, "volume-table"), "an empty volume table shows"
    assert driver.find_elements(By.CSS_SELECTOR, "#event-list button") == []

    step("the live debugger opens with the event stored before, its user and properties")
    driver.find_element(By.LINK_TEXT, "All sources").click()
    wait.until(lambda d: d.find_elements(By.LINK_TEXT, WRITE_KEY))
    driver.find_element(By.LINK_TEXT, WRITE_KEY).click()
    wait.until(lambda d: visible(d, "source-view"))
    wait.until(lambda d: "Live" in d.find_element(By.ID, "stream-status").text)
    wait.until(lambda d: event_buttons(d, "Stored Before Open"))
    row = event_buttons(driver, "Stored Before Open")[0].text
    assert "user browser-user" in row, row
    assert "plan=free" in row, row
    assert "ago" in row or "just now" in row, row
    wait.until(lambda d: re.search(r"max [1-9][0-9]* per hour", d.find_element(By.ID, "volume-table").text))

    step("the rows' relative times refresh")
    shown = driver.find_element(By.CSS_SELECTOR, "#event-list button time").text
    WebDriverWait(driver, 5).until(
        lambda d: d.find_element(By.CSS_SELECTOR, "#event-list button time").text not in (shown, ""))

    step("events sent with `courier track` appear within 2 s")
    started_at = time.monotonic()
    result = track("Browser Checkout", "plan=pro", f"note={HOSTILE}", queue="q1")
    assert result.returncode == 0, result.stderr
    sent_at = time.monotonic()
    try:
        WebDriverWait(driver, 2, poll_frequency=0.05).until(
            lambda d: any("Browser Checkout" in b.text for b in d.find_elements(By.CSS_SELECTOR, "#event-list button")))
    except TimeoutException:
        raise AssertionError("the tracked event did not appear in the live debugger within 2 s")
    shown_at = time.monotonic()
    print(f"event shown {shown_at - sent_at:.3f} s after courier track returned "
          f"({shown_at - started_at:.3f} s after it started)", file=sys.stderr)

    step("open the event and read its stored JSON")
    button = next(b for b in driver.find_elements(By.CSS_SELECTOR, "#event-list button") if "Browser Checkout" in b.text)
    button.send_keys(Keys.ENTER)
    wait.until(lambda d: d.find_element(By.ID, "event-json").text.startswith("{"))
    stored = json.loads(driver.find_element(By.ID, "event-json").text)
    assert stored["event"] == "Browser Checkout", stored
    assert stored["properties"]["plan"] == "pro", stored
    for member in ("receivedAt", "timestamp", "originalTimestamp", "messageId"):
        assert member in stored, f"{member} missing from {stored}"

    step("a hostile property is shown as text")
    assert stored["properties"]["note"] == HOSTILE, stored
    assert HOSTILE in driver.find_element(By.ID, "event-json").text
    assert driver.find_elements(By.CSS_SELECTOR, "#main img") == [], "an event property became an element"
    try:
        driver.switch_to.alert.dismiss()
        raise AssertionError("an event property ran script (an alert opened)")
    except NoAlertPresentException:
        pass

    step("the filter hides other event names, pause holds new events back")
    driver.find_element(By.ID, "filter-name").send_keys("no such event")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#event-list button") == [])
    driver.find_element(By.ID, "filter-name").clear()
    driver.find_element(By.ID, "filter-name").send_keys(Keys.BACKSPACE)
    driver.find_element(By.ID, "pause").click()
    assert driver.find_element(By.ID, "pause").get_attribute("aria-pressed") == "true"
    driver.find_element(By.ID, "pause").click()

    step("the kill switch refuses the SDK's next batch")
    enabled = driver.find_element(By.ID, "setting-enabled")
    wait.until(lambda d: d.find_element(By.ID, "setting-sample-rate").get_attribute("value") != "")
    assert enabled.is_selected()
    enabled.send_keys(Keys.SPACE)
    driver.find_element(By.CSS_SELECTOR, "#settings-form button[type=submit]").click()
    wait.until(lambda d: "kill switch on" in d.find_element(By.ID, "notice").text)
    refused = track("After Kill", queue="q2")
    print(f"courier track after the kill switch: {refused.returncode} {refused.stderr.strip()}", file=sys.stderr)
    assert "sent 0" in refused.stderr, refused.stderr
    assert "the project's kill switch is on" in refused.stderr, refused.stderr
    # Either the SDK fetched the settings first and honoured the kill switch itself (it drops the
    # events: "dropped by the kill switch"), or it sent the batch and the collector refused it.
    if "dropped by the kill switch" not in refused.stderr:
        # The source page refreshes its panels every 10 s: wait past one refresh, not just 10 s.
        WebDriverWait(driver, 25).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, "#rejection-counts li[data-code=project_disabled]"))
    history = driver.find_element(By.ID, "settings-history").text
    assert "enabled: true → false" in history, history
    assert not any("After Kill" in b.text for b in driver.find_elements(By.CSS_SELECTOR, "#event-list button"))

    step("a flag rollout edit changes the evaluation preview")
    courier("flags", "set", "browser-ramp", "--env", "production", "--definition", json.dumps({
        "type": "bool", "value": False, "owner": "growth", "expires": "2020-01-31",
        "rules": [{"id": "ramp", "rollout": {"percentage": 0}, "value": True}]}))
    assert "kill switch on" in driver.find_element(By.ID, "notice").text
    driver.find_element(By.LINK_TEXT, "Flags").click()
    wait.until(lambda d: visible(d, "flags-view"))
    assert driver.find_element(By.ID, "notice").text == "", "a notice outlived its view"
    environment = driver.find_element(By.ID, "flags-environment")
    environment.clear()
    environment.send_keys("production" + Keys.ENTER)
    wait.until(lambda d: "browser-ramp" in d.find_element(By.ID, "flags-table").text)
    assert "overdue" in driver.find_element(By.ID, "flags-table").text
    driver.find_element(By.CSS_SELECTOR, "button[aria-label='Edit browser-ramp']").click()
    Select(driver.find_element(By.ID, "preview-flag")).select_by_value("browser-ramp")
    driver.find_element(By.ID, "preview-targeting-key").send_keys("user-7")
    driver.find_element(By.CSS_SELECTOR, "#preview-form button[type=submit]").click()
    wait.until(lambda d: "browser-ramp = false" in d.find_element(By.ID, "preview-result").text)

    rollout = driver.find_element(By.ID, "rollout-0")
    rollout.clear()
    rollout.send_keys("150")
    driver.find_element(By.ID, "flag-save").click()
    wait.until(lambda d: "percentage" in d.find_element(By.ID, "flag-editor-message").text)
    rollout = driver.find_element(By.ID, "rollout-0")
    rollout.clear()
    rollout.send_keys("100")
    driver.find_element(By.ID, "flag-save").click()
    wait.until(lambda d: "Saved flag browser-ramp" in d.find_element(By.ID, "notice").text)
    driver.find_element(By.CSS_SELECTOR, "#preview-form button[type=submit]").click()
    wait.until(lambda d: "browser-ramp = true" in d.find_element(By.ID, "preview-result").text)
    wait.until(lambda d: "set flag browser-ramp" in d.find_element(By.ID, "flags-audit").text)

    step("the messenger page shows devices and pushes")
    driver.find_element(By.LINK_TEXT, "Messenger").click()
    wait.until(lambda d: visible(d, "messenger-view"))
    assert driver.find_element(By.ID, "notice").text == "", "the flag's notice outlived its view"
    wait.until(lambda d: "pushes sent" in d.find_element(By.ID, "messenger-summary").text)

    step("at 200 % zoom the source page reflows and every control is reachable by keyboard")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 640, "height": 450, "deviceScaleFactor": 2, "mobile": False})
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    driver.get(BASE + "/console/#source/" + WRITE_KEY)
    wait.until(lambda d: visible(d, "source-view"))
    wait.until(lambda d: "Live" in d.find_element(By.ID, "stream-status").text)
    courier("settings", "set", WRITE_KEY, "--enabled", "true")
    assert track("Zoomed", queue="q3").returncode == 0
    wait.until(lambda d: event_buttons(d, "Zoomed"))
    overflow = driver.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px at 200 %"
    reached = set()
    body = driver.find_element(By.TAG_NAME, "body")
    body.click()
    for _ in range(80):
        driver.switch_to.active_element.send_keys(Keys.TAB)
        active = driver.switch_to.active_element
        reached.add(active.get_attribute("id") or active.get_attribute("data-event-id") and "event" or active.text)
    for wanted in ("pause", "filter-type", "filter-name", "event", "event-json", "setting-enabled",
                   "setting-sample-rate", "setting-allow-list", "sign-out"):
        assert wanted in reached, f"{wanted} is not reachable by Tab at 200 %: {sorted(map(str, reached))}"
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    step("sign out ends the session and hides the navigation")
    driver.find_element(By.CSS_SELECTOR, "#settings-form button[type=submit]").click()
    wait.until(lambda d: "Settings saved" in d.find_element(By.ID, "notice").text)
    driver.find_element(By.ID, "sign-out").click()
    wait.until(lambda d: visible(d, "sign-in-view"))
    assert not visible(driver, "nav"), "the navigation shows after signing out"
    assert driver.find_element(By.ID, "notice").text == "", "a notice survived signing out"
    driver.get(BASE + "/console/#flags")
    wait.until(lambda d: visible(d, "sign-in-view"))

    step("no script error was logged")
    # Refused requests (the wrong token, the invalid rollout) log as failed loads; anything else is a bug.
    errors = [e for e in driver.get_log("browser")
              if e.get("level") == "SEVERE" and "Failed to load resource" not in e.get("message", "")]
    assert errors == [], errors
    print("console browser test passed", file=sys.stderr)


if __name__ == "__main__":
    try:
        main()
    except AssertionError as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
