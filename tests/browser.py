"""A real browser for the page tests: headless Debian chromium driven by Selenium through
chromium-driver (.ci/run installs both), and the stepper's state as the page shows it."""

from __future__ import annotations

import os
import shutil

import pytest

CHROMEDRIVER = shutil.which("chromedriver")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def chromium():
    """A headless chromium (a generator for a fixture: yields it, quits it); skipped where
    chromium is not installed, a failure in CI."""
    if CHROMEDRIVER is None or CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("chromium or chromedriver is missing: .ci/run installs them (apt-get install chromium chromium-driver)")
        pytest.skip("chromium and chromedriver are not installed here (CI installs them)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    # no background connections: this machine's network is closed, and a page test must not depend on it
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000",
                 "--disable-background-networking", "--disable-component-update", "--no-first-run"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    browser = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield browser
    browser.quit()


def stepper_state(browser) -> dict:
    """What the stepper shows: the counter, the rule and its source, the token's link, the
    highlighted edge and program text, and the last step whose picture is in place."""
    return browser.execute_script("""
        const token = document.querySelector('#graph g.edge.token');
        const mark = document.querySelector('#source mark');
        return {counter: document.getElementById('counter').textContent,
                rule: document.getElementById('rule').textContent,
                source: document.getElementById('rule-source').textContent,
                link: document.getElementById('link').textContent,
                token: token ? token.id : null,
                mark: mark ? mark.textContent : null,
                ready: document.body.dataset.ready};""")


def settled(browser, step: int, timeout: float = 20) -> dict:
    """The state once the stepper shows recorded step `step` with its picture in place (a
    bound on waiting for the browser, not a verdict: the test fails only if it never does)."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, timeout).until(lambda b: b.execute_script("return document.body.dataset.ready") == str(step))
    return stepper_state(browser)


def severe(browser) -> list:
    """The browser console's errors."""
    return [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
