"""The web page in a real browser (issue 22): headless Chromium driven through WebDriver.

Clicks a hand, a seat and a turned card, runs ``advise`` with a fixed seed, and checks
the recommendation and the P(success) column against ``wiezen-sim advise --format
json`` for the same position; a link to the position reruns it to the same numbers; a
bad paste shows the parser's message next to the field. Saves a screenshot of the
finished page in a temporary folder, or where ``--screenshot PATH`` says (``pytest
tests/test_web_browser.py --screenshot results/web/advise.png`` refreshes the README's:
the test run itself writes nothing into the repository).

Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from wiezen_sim.cards import card_name, cards_of, parse_hand
from wiezen_sim.web.forms import MAX_TEXT

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
pytestmark = pytest.mark.skipif(
    not (os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)),
    reason="needs Debian's chromium and chromium-driver (apt-get install -y chromium chromium-driver; .ci/run does)",
)

HAND, SEAT, TURNED, SAMPLES, SEED = "S:AKQ9 H:KQJ D:A82 C:K74", "second", "TD", 20, 7
BAD_PASTE = "S:AKQ H:ZZ D:- C:-"
LINES_PER_CELL = """return [...document.querySelectorAll(arguments[0])].filter((td) => td.textContent)
  .map((td) => { const r = document.createRange(); r.selectNodeContents(td); return r.getClientRects().length; });"""
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1280,1000")  # fmt: skip


@pytest.fixture(scope="module")
def server():
    """``wiezen-sim serve`` on a free port in a subprocess; yields its URL."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "wiezen_sim.cli", "serve", "--port", "0", "--jobs", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    line = proc.stdout.readline()  # "wiezen-sim: the web page is at http://127.0.0.1:PORT/ (...)"
    assert "http://" in line, f"the server did not start: {line!r}"
    yield line.split(" at ", 1)[1].split()[0]
    proc.terminate()
    proc.wait(timeout=30)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


def _wait(driver, condition, timeout: float = 240):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.2).until(condition)


def _result(driver) -> tuple[dict, list[float]]:
    """Wait for a finished run; the recommendation's data attributes and the P(success) column."""
    from selenium.webdriver.common.by import By

    _wait(driver, lambda d: d.find_element(By.ID, "wiezen-status").text == "done")
    summary = driver.find_element(By.ID, "wiezen-summary")
    cells = driver.find_elements(By.CSS_SELECTOR, "#wiezen-table td[data-column=p_success]")
    return {"contract": summary.get_attribute("data-contract"), "trump": summary.get_attribute("data-trump")}, [
        float(c.get_attribute("data-value")) for c in cells
    ]


def _cli_advice() -> dict:
    out = subprocess.run(
        [sys.executable, "-m", "wiezen_sim.cli", "advise", *HAND.split(), "--seat", SEAT, "--turned", TURNED,
         "--samples", str(SAMPLES), "--seed", str(SEED), "--jobs", "1", "--format", "json", "--quiet"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return json.loads(out.stdout)


def test_page_matches_the_cli(server: str, browser, request, tmp_path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(server)
    grid = browser.find_element(By.ID, "wiezen-grid")
    for card in cards_of(parse_hand(HAND)):
        grid.find_element(By.CSS_SELECTOR, f'[data-card="{card_name(card)}"]').click()
    Select(browser.find_element(By.ID, "wiezen-seat")).select_by_value(SEAT)
    browser.find_element(By.CSS_SELECTOR, "input[name=wiezen-pick][value=turned]").click()
    grid.find_element(By.CSS_SELECTOR, f'[data-card="{TURNED}"]').click()
    _wait(browser, lambda d: d.find_element(By.ID, "wiezen-count").text == "13 of 13 cards", 30)
    for name, value in (("samples", SAMPLES), ("seed", SEED)):
        field = browser.find_element(By.ID, f"wiezen-{name}")
        field.clear()
        field.send_keys(str(value))
    browser.find_element(By.ID, "wiezen-run").click()

    recommendation, p_success = _result(browser)
    expected = _cli_advice()
    assert recommendation == {k: expected["recommendation"][k] or "" for k in ("contract", "trump")}
    assert p_success == [row["p_success"] for row in expected["contracts"]]
    shown_bids = browser.find_elements(By.CSS_SELECTOR, "#wiezen-bids td[data-column=ev_units]")
    bid_evs = [float(c.get_attribute("data-value")) for c in shown_bids]  # the bid values, best first
    assert bid_evs == sorted((row["ev_units"] for row in expected["bids"]), reverse=True)
    rows = browser.find_elements(By.CSS_SELECTOR, "#wiezen-table tbody tr")
    # abondance in troef is no bid (only an overcall)
    bids = [row["contract"] != "abondance_in_troef" for row in expected["contracts"]]
    assert [("illegal" in tr.get_attribute("class").split()) for tr in rows] == [not bid for bid in bids]
    made = [bid and row["p_success"] > 0 for row, bid in zip(expected["contracts"], bids, strict=True)]
    assert [tr.is_displayed() for tr in rows] == made  # as the CLI's table, the rest behind "show every row"
    show_all = browser.find_element(By.ID, "wiezen-all")
    show_all.click()
    assert all(tr.is_displayed() for tr in rows)
    lines = browser.execute_script(LINES_PER_CELL, "#wiezen-table td:not(.note)")
    assert set(lines) == {1}, "a number, an interval or a name wraps"
    show_all.click()  # the page as it was: the screenshot shows what a player sees first
    assert browser.find_element(By.ID, "wiezen-ev-chart").find_elements(By.TAG_NAME, "svg")
    assert browser.find_element(By.ID, "wiezen-tricks-chart").find_elements(By.TAG_NAME, "svg")
    screenshot = Path(request.config.getoption("--screenshot") or tmp_path / "advise.png")
    screenshot.parent.mkdir(parents=True, exist_ok=True)
    page, frame = browser.execute_script(
        "return [document.documentElement.scrollHeight, window.outerHeight - window.innerHeight]"
    )
    browser.set_window_size(1280, page + frame)  # the whole page, nothing below it
    assert browser.save_screenshot(str(screenshot)) and screenshot.read_bytes().startswith(b"\x89PNG")

    link = browser.current_url  # the position and its seed: opening it runs it again
    assert f"seed={SEED}" in link and f"turned={TURNED}" in link
    browser.get(link)
    assert _result(browser) == (recommendation, p_success)


def test_bad_paste_shows_the_message_next_to_the_field(server: str, browser) -> None:
    from selenium.webdriver.common.by import By

    with pytest.raises(ValueError) as parser:
        parse_hand(BAD_PASTE, 13)
    browser.get(server)
    field = browser.find_element(By.ID, "wiezen-hand")
    field.send_keys(BAD_PASTE)
    message = field.find_element(By.XPATH, "following-sibling::span[@class='error']")
    _wait(browser, lambda d: message.text != "", 30)
    assert message.text == str(parser.value)
    assert "invalid" in field.get_attribute("class").split()
    field.clear()
    field.send_keys(HAND.replace("C:K74", "C:K7"))  # 12 cards: the count, not a traceback
    _wait(browser, lambda d: message.text.endswith("has 12 cards, expected 13"), 30)
    time.sleep(0.3)
    assert browser.find_element(By.ID, "wiezen-count").text == "12 of 13 cards"
    field.clear()
    field.send_keys("X" * MAX_TEXT["hand"])  # one long word, which the parser's message quotes: it wraps in place
    _wait(browser, lambda d: message.text.startswith("not a card: 'XXX"), 30)
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
