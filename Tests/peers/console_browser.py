"""Drives Courier Console in Debian's headless Chromium through chromium-driver (Selenium).

Usage: console_browser.py BASE_URL ADMIN_TOKEN WRITE_KEY COURIER_CLI WORK_DIR

Sends an event before the page opens and finds it, with its user id, in the live debugger; finds
the empty-state texts of a second write key with no events; signs in, sends events with
`courier track` (the Analytics SDK) and waits for them in the live debugger, opens one and reads its JSON, turns the kill switch on and sees the SDK's next batch
refused, reads the volume charts' axes and hover readout, edits a flag through the structured
editor (a condition, a rollout, a segment rule, the server's complaints beside their fields) and
sees the evaluation preview change, kills it behind the in-page confirmation, revives it, reads
the audit's actors and diffs, and checks that a hostile property is shown as text. Nothing is downloaded: the browser and the driver are the system's.
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
from selenium.common.exceptions import (  # noqa: E402
    NoAlertPresentException,
    NoSuchElementException,
    StaleElementReferenceException,
    TimeoutException,
)
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

BASE, TOKEN, WRITE_KEY, CLI, WORK = sys.argv[1:6]
EMPTY_KEY = WRITE_KEY + "-empty"  # the test's server accepts it too; nothing is sent with it
HOSTILE = "<img src=x onerror=alert(1)>"


def click_link(wait, text):
    """Clicks the link `text` once the page shows it, finding it afresh if the page re-renders the
    list it is in between finding and clicking (a live list refreshes as its data arrives)."""
    def attempt(d):
        try:
            d.find_element(By.LINK_TEXT, text).click()
            return True
        except (NoSuchElementException, StaleElementReferenceException):
            return False
    wait.until(attempt)


def step(name):
    print(f"step: {name}", file=sys.stderr, flush=True)


def courier(*arguments, check=True):
    """Runs the courier CLI against the server. A run that fails or overruns says what it printed
    and how long it took, so a failure on a loaded machine can be read from the test's output."""
    started = time.monotonic()
    try:
        result = subprocess.run(
            [CLI, *arguments, "--server", BASE],
            env={**os.environ, "COURIER_ADMIN_TOKEN": TOKEN},
            capture_output=True, text=True, timeout=100)
    except subprocess.TimeoutExpired as overrun:
        raise AssertionError(
            f"courier {' '.join(arguments)} still running after {overrun.timeout} s: "
            f"stderr {overrun.stderr!r} stdout {overrun.output!r}") from None
    elapsed = time.monotonic() - started
    if result.returncode != 0:
        message = (f"courier {' '.join(arguments)} failed after {elapsed:.1f} s: "
                   f"{result.returncode} {result.stderr}")
        if check:
            raise AssertionError(message)
        print(message, file=sys.stderr, flush=True)
    return result


def track(name, *props, queue):
    # The drain ends as soon as the upload is answered; the limit only bounds a stuck one. 5 s
    # was once too short for the first probe and upload while chromium and other suites started.
    arguments = ["track", name, "--write-key", WRITE_KEY, "--user-id", "browser-user",
                 "--data-dir", os.path.join(WORK, queue), "--drain-seconds", "30"]
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


def retype(element, text):
    """Replaces a field's text by typing, so the page sees input events (clear() sends none)."""
    element.send_keys(Keys.CONTROL + "a")
    element.send_keys(Keys.BACKSPACE)
    if text:
        element.send_keys(text)


def definition_json(driver):
    return json.loads(driver.find_element(By.ID, "flag-definition").get_attribute("value"))


def preview(driver, wait, expected):
    """Runs the evaluation preview until its answer contains `expected`."""
    result = driver.find_element(By.ID, "preview-result")
    driver.execute_script("arguments[0].textContent = ''", result)
    driver.find_element(By.CSS_SELECTOR, "#preview-form button[type=submit]").click()
    wait.until(lambda d: result.text != "")
    assert expected in result.text, f"the preview said {result.text!r}, not {expected!r}"


def flag_state(driver, key):
    for row in driver.find_elements(By.CSS_SELECTOR, "#flags-table tbody tr"):
        if row.find_element(By.TAG_NAME, "th").text == key:
            return row.find_elements(By.TAG_NAME, "td")[2].text
    return None


def audit_entries(driver):
    return [{"actor": e.find_element(By.CLASS_NAME, "audit-actor").text,
             "what": e.find_element(By.CLASS_NAME, "audit-what").text,
             "changes": [li.text for li in e.find_elements(By.CSS_SELECTOR, ".diff li")]}
            for e in driver.find_elements(By.CSS_SELECTOR, "#flags-audit li.audit-entry")]


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

    step("the sources list gives its per-minute charts a scale and says when a source has no events")
    wait.until(lambda d: d.find_elements(By.LINK_TEXT, EMPTY_KEY))
    rows = {row.find_element(By.CSS_SELECTOR, "td a").text: row.text
            for row in driver.find_elements(By.CSS_SELECTOR, "#sources-table tbody tr")}
    assert "No events in the last hour" in rows[EMPTY_KEY], rows
    assert re.search(r"max [1-9][0-9]* per minute", rows[WRITE_KEY]), rows
    assert driver.find_elements(By.CSS_SELECTOR, "#sources-table svg.chart-svg text.x-label"), "no time axis"

    step("a source with no events says so in its debugger and volume")
    click_link(wait, EMPTY_KEY)
    wait.until(lambda d: visible(d, "source-view"))
    wait.until(lambda d: "no events stored for this source" in d.find_element(By.ID, "stream-status").text)
    wait.until(lambda d: d.find_element(By.ID, "volume-empty").text == "No events in the last day for this source.")
    assert not visible(driver, "volume-table"), "an empty volume table shows"
    assert driver.find_elements(By.CSS_SELECTOR, "#event-list button") == []

    step("the live debugger opens with the event stored before, its user and properties")
    click_link(wait, "All sources")
    click_link(wait, WRITE_KEY)
    wait.until(lambda d: visible(d, "source-view"))
    wait.until(lambda d: "Live" in d.find_element(By.ID, "stream-status").text)
    wait.until(lambda d: event_buttons(d, "Stored Before Open"))
    row = event_buttons(driver, "Stored Before Open")[0].text
    assert "user browser-user" in row, row
    assert "plan=free" in row, row
    assert "ago" in row or "just now" in row, row
    wait.until(lambda d: re.search(r"max [1-9][0-9]* per hour", d.find_element(By.ID, "volume-table").text))

    step("the volume charts have axes with values and a readout on hover and by keyboard")
    # The per-minute chart moves on with each minute, at the first 10-second refresh after it,
    # and is drawn anew then; between refreshes with the same counts it is left as it is. Read
    # it after that refresh and well before the next minute, so it stays one drawing throughout.
    WebDriverWait(driver, 60, poll_frequency=0.2).until(lambda d: 12 <= time.gmtime().tm_sec < 30)
    charts = driver.find_elements(By.CSS_SELECTOR, "#volume-table svg.chart-svg")
    assert len(charts) >= 2, "no volume charts"
    for chart in charts:
        labels = {label.get_attribute("class").split()[-1]: label.get_attribute("textContent")
                  for label in chart.find_elements(By.CSS_SELECTOR, "text.y-label")}
        top = max(int(hit.get_attribute("data-count")) for hit in chart.find_elements(By.CSS_SELECTOR, "rect.hit"))
        assert labels["y-max"] == str(top) and labels["y-zero"] == "0", labels
        assert labels["y-mid"] in (str(top / 2), str(top // 2)), labels
        times = [t.get_attribute("textContent") for t in chart.find_elements(By.CSS_SELECTOR, "text.x-label")]
        assert len(times) == 3 and all(re.fullmatch(r"\d\d:\d\d", t) for t in times), times
    busy = next(h for h in charts[0].find_elements(By.CSS_SELECTOR, "rect.hit") if h.get_attribute("data-count") != "0")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", busy)
    ActionChains(driver).move_to_element(busy).perform()
    readout = charts[0].find_element(By.XPATH, "./ancestor::figure").find_element(By.TAG_NAME, "figcaption")
    wait.until(lambda d: re.fullmatch(r"\d\d:\d\d UTC: [1-9][0-9]* events?", readout.text))
    assert busy.find_element(By.TAG_NAME, "title").get_attribute("textContent") == readout.text
    figure = charts[0].find_element(By.XPATH, "./ancestor::figure")
    titles = [t.get_attribute("textContent") for t in charts[0].find_elements(By.CSS_SELECTOR, "rect.hit title")]
    # The pointer leaves the chart: the readout rests.
    ActionChains(driver).move_to_element(driver.find_element(By.ID, "volume-heading")).perform()
    wait.until(lambda d: readout.text.startswith("max "))
    driver.execute_script("arguments[0].focus()", figure)
    figure.send_keys(Keys.END)
    wait.until(lambda d: readout.text == titles[-1])
    figure.send_keys(Keys.ARROW_LEFT)
    wait.until(lambda d: readout.text == titles[-2])
    figure.send_keys(Keys.HOME)
    wait.until(lambda d: readout.text == titles[0])
    figure.send_keys(Keys.ESCAPE)
    wait.until(lambda d: readout.text.startswith("max "))

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
    # The outcome shows beside the button that caused it, not at the top of the page.
    wait.until(lambda d: "kill switch on" in d.find_element(By.ID, "settings-status").text)
    assert driver.find_element(By.ID, "notice").text == "", "the settings notice went to the top of the page"
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

    step("a flag is edited through the structured editor: a condition, a rollout, a segment rule")
    courier("flags", "set", "browser-ramp", "--env", "production", "--definition", json.dumps({
        "type": "bool", "value": False, "owner": "growth", "expires": "2020-01-31",
        "rules": [{"id": "ramp", "rollout": {"percentage": 0}, "value": True}]}))
    courier("flags", "segment", "set", "beta", "--env", "production", "--condition", "plan in pro,team")
    assert "kill switch on" in driver.find_element(By.ID, "settings-status").text
    driver.find_element(By.LINK_TEXT, "Flags").click()
    wait.until(lambda d: visible(d, "flags-view"))
    assert driver.find_element(By.ID, "settings-status").text == "", "a notice outlived its view"
    environment = driver.find_element(By.ID, "flags-environment")
    environment.clear()
    environment.send_keys("production" + Keys.ENTER)
    wait.until(lambda d: "browser-ramp" in d.find_element(By.ID, "flags-table").text)
    assert "overdue" in driver.find_element(By.ID, "flags-table").text
    driver.find_element(By.CSS_SELECTOR, "button[aria-label='Edit browser-ramp']").click()
    wait.until(lambda d: visible(d, "flag-editor"))
    assert driver.find_element(By.ID, "flag-owner").get_attribute("value") == "growth"
    assert driver.find_element(By.ID, "rule-0-rollout").get_attribute("value") == "0"
    assert driver.find_element(By.ID, "flag-enabled").is_selected()
    Select(driver.find_element(By.ID, "preview-flag")).select_by_value("browser-ramp")
    driver.find_element(By.ID, "preview-targeting-key").send_keys("user-7")
    driver.find_element(By.ID, "preview-attributes").send_keys("country=FR")
    preview(driver, wait, "browser-ramp = false")

    # The JSON follows the fields, and the fields follow a hand edit of the JSON.
    retype(driver.find_element(By.ID, "flag-owner"), "growth-team")
    assert definition_json(driver)["owner"] == "growth-team"
    driver.find_element(By.ID, "flag-enabled").click()
    assert definition_json(driver)["enabled"] is False, "the on/off box does not reach the JSON"
    driver.find_element(By.ID, "flag-enabled").click()
    assert definition_json(driver)["enabled"] is True
    edited = definition_json(driver)
    edited["expires"] = "2099-12-31"
    driver.execute_script("const t = arguments[0]; t.value = arguments[1]; t.dispatchEvent(new Event('input'));",
                          driver.find_element(By.ID, "flag-definition"), json.dumps(edited, indent=2))
    assert driver.find_element(By.ID, "flag-expires").get_attribute("value") == "2099-12-31"

    driver.find_element(By.ID, "rule-0-add-condition").click()
    wait.until(lambda d: d.find_elements(By.ID, "rule-0-condition-0-attribute"))
    driver.find_element(By.ID, "rule-0-condition-0-attribute").send_keys("country")
    Select(driver.find_element(By.ID, "rule-0-condition-0-operator")).select_by_value("in")
    driver.find_element(By.ID, "rule-0-condition-0-values").send_keys("FR, DE")
    driver.find_element(By.ID, "flag-add-rule").click()
    wait.until(lambda d: d.find_elements(By.ID, "rule-1-segments"))
    driver.find_element(By.ID, "rule-1-segments").send_keys("nobody")
    retype(driver.find_element(By.ID, "rule-1-value"), "true")

    step("the server's complaints show beside the fields their paths name")
    retype(driver.find_element(By.ID, "rule-0-rollout"), "150")
    driver.find_element(By.ID, "flag-save").click()
    rollout_error = "[data-error-for='rules[0].rollout']"
    wait.until(lambda d: "percentage" in d.find_element(By.CSS_SELECTOR, rollout_error).text)
    assert "Not saved" in driver.find_element(By.ID, "flag-action-status").text
    retype(driver.find_element(By.ID, "rule-0-rollout"), "100")
    assert driver.find_element(By.CSS_SELECTOR, rollout_error).text == "", "an old complaint stayed"
    driver.find_element(By.ID, "flag-save").click()
    segments_error = "[data-error-for='rules[1].segments']"
    wait.until(lambda d: "names no defined segment" in d.find_element(By.CSS_SELECTOR, segments_error).text)
    retype(driver.find_element(By.ID, "rule-1-segments"), "beta")

    step("a save made from an older read is refused, and a second save stores it over the change")
    courier("flags", "set", "browser-other", "--env", "production", "--type", "bool", "--value", "false")
    driver.find_element(By.ID, "flag-save").click()
    wait.until(lambda d: "changed since it was read" in d.find_element(By.ID, "flag-action-status").text)
    assert "save again" in driver.find_element(By.ID, "flag-action-status").text
    wait.until(lambda d: "browser-other" in d.find_element(By.ID, "flags-table").text)
    assert definition_json(driver)["owner"] == "growth-team", "the refused save lost the edit in the fields"
    driver.find_element(By.ID, "flag-save").click()
    wait.until(lambda d: "Saved flag browser-ramp" in d.find_element(By.ID, "flag-action-status").text)
    assert driver.find_element(By.ID, "notice").text == "", "the save notice went to the top of the page"
    stored = definition_json(driver)
    assert stored["owner"] == "growth-team" and stored["expires"] == "2099-12-31", stored
    assert stored["rules"][0]["conditions"] == [
        {"attribute": "country", "operator": "in", "values": ["FR", "DE"]}], stored
    assert stored["rules"][0]["rollout"]["percentage"] == 100, stored
    assert stored["rules"][1]["segments"] == ["beta"] and stored["rules"][1]["value"] is True, stored
    preview(driver, wait, "browser-ramp = true")
    attributes = driver.find_element(By.ID, "preview-attributes")
    attributes.clear()
    attributes.send_keys("country=US")
    preview(driver, wait, "browser-ramp = false")
    attributes.send_keys(Keys.ENTER + "plan=pro")
    preview(driver, wait, "browser-ramp = true")

    step("kill asks in the page first; cancel keeps the flag on, confirm kills it")
    driver.find_element(By.ID, "flag-kill").click()
    wait.until(lambda d: d.find_element(By.ID, "kill-dialog").is_displayed())
    assert "Kill flag browser-ramp in production?" in driver.find_element(By.ID, "kill-dialog-heading").text
    assert driver.switch_to.active_element.get_attribute("id") == "kill-cancel", "focus is not on Cancel"
    driver.find_element(By.ID, "kill-cancel").click()
    wait.until(lambda d: not d.find_element(By.ID, "kill-dialog").is_displayed())
    assert flag_state(driver, "browser-ramp") == "on"
    driver.find_element(By.ID, "flag-kill").click()
    wait.until(lambda d: d.find_element(By.ID, "kill-dialog").is_displayed())
    driver.find_element(By.ID, "kill-confirm").click()
    wait.until(lambda d: "Killed flag browser-ramp" in d.find_element(By.ID, "flag-action-status").text)
    wait.until(lambda d: flag_state(d, "browser-ramp") == "killed")
    assert visible(driver, "flag-revive") and not visible(driver, "flag-kill")
    preview(driver, wait, "reason DISABLED")

    step("revive turns it back on")
    driver.find_element(By.ID, "flag-revive").click()
    wait.until(lambda d: "Revived flag browser-ramp" in d.find_element(By.ID, "flag-action-status").text)
    wait.until(lambda d: flag_state(d, "browser-ramp") == "on")
    assert visible(driver, "flag-kill") and not visible(driver, "flag-revive")
    preview(driver, wait, "browser-ramp = true")

    step("the audit shows who made each change and what changed, member by member")
    wait.until(lambda d: len(audit_entries(d)) >= 6)
    entries = audit_entries(driver)
    revive, kill, save, other, segment, created = entries[:6]
    assert other["actor"] == "admin-api" and other["what"] == "set flag browser-other", other
    assert revive["actor"] == "console" and revive["what"] == "set flag browser-ramp", revive
    assert "enabled: false → true" in revive["changes"], revive
    assert kill["actor"] == "console" and kill["what"] == "kill flag browser-ramp", kill
    assert "enabled: true → false" in kill["changes"], kill
    assert save["actor"] == "console", save
    assert 'owner: "growth" → "growth-team"' in save["changes"], save
    assert "rules[0].rollout.percentage: 0 → 100" in save["changes"], save
    assert segment["actor"] == "admin-api" and segment["what"] == "set segment beta", segment
    assert created["actor"] == "admin-api" and created["changes"][0].startswith("created: "), created

    step("the editor shows the flag in each environment, and opens it in another")
    courier("flags", "set", "browser-ramp", "--env", "staging", "--definition",
            json.dumps({"type": "bool", "value": False}))
    courier("flags", "kill", "browser-ramp", "--env", "staging")
    driver.find_element(By.ID, "flags-environment").send_keys(Keys.ENTER)
    wait.until(lambda d: not visible(d, "flag-editor"))
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "button[aria-label='Edit browser-ramp']"))
    driver.find_element(By.CSS_SELECTOR, "button[aria-label='Edit browser-ramp']").click()
    wait.until(lambda d: "staging: killed" in d.find_element(By.ID, "flag-environment-states").text)
    assert "production: on" in driver.find_element(By.ID, "flag-environment-states").text
    offered = {o.get_attribute("value") for o in driver.find_elements(By.CSS_SELECTOR, "#flags-environments option")}
    assert {"production", "staging"} <= offered, offered
    driver.find_element(By.CSS_SELECTOR, "#flag-environment-states li[data-environment=staging] button").click()
    wait.until(lambda d: d.find_element(By.ID, "flags-environment").get_attribute("value") == "staging"
               and visible(d, "flag-editor") and visible(d, "flag-revive"))
    assert driver.find_element(By.ID, "flag-editor-heading").text == "Edit flag browser-ramp"
    assert not driver.find_element(By.ID, "flag-enabled").is_selected(), "killed in staging, yet shown as on"

    step("the messenger page shows devices and pushes")
    driver.find_element(By.LINK_TEXT, "Messenger").click()
    wait.until(lambda d: visible(d, "messenger-view"))
    assert driver.find_element(By.ID, "flag-action-status").text == "", "the flag's notice outlived its view"
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
        # The live rows are re-rendered as their relative times refresh: a reference to the
        # focused element can go stale between two calls, so the key goes to whatever has focus
        # and the focused element is named in one script.
        ActionChains(driver).send_keys(Keys.TAB).perform()
        reached.add(driver.execute_script(
            "const a = document.activeElement;"
            "return a.id || (a.hasAttribute('data-event-id') ? 'event' : a.innerText);"))
    for wanted in ("pause", "filter-type", "filter-name", "event", "event-json", "setting-enabled",
                   "setting-sample-rate", "setting-allow-list", "sign-out"):
        assert wanted in reached, f"{wanted} is not reachable by Tab at 200 %: {sorted(map(str, reached))}"
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    step("sign out ends the session and hides the navigation")
    driver.find_element(By.CSS_SELECTOR, "#settings-form button[type=submit]").click()
    wait.until(lambda d: "Settings saved" in d.find_element(By.ID, "settings-status").text)
    driver.find_element(By.ID, "sign-out").click()
    wait.until(lambda d: visible(d, "sign-in-view"))
    assert not visible(driver, "nav"), "the navigation shows after signing out"
    assert driver.find_element(By.ID, "settings-status").text == "", "a notice survived signing out"
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
