"""The HTML quiz of ``tabla positions`` in a real browser, driven from the keyboard (selenium and Debian's
chromium, as tests/test_report_browser.py runs them; they skip or fail as it says)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("selenium", reason="the browser test needs selenium: pip install '.[test]'")

from click.testing import CliRunner
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tabla_cli.cli import main

from test_report_browser import browser, screenshot, shots  # noqa: F401  (fixtures)

DATA = Path(__file__).parent / "data" / "generated"


def test_quiz_reveals_and_moves_with_the_keyboard(browser: webdriver.Chrome, tmp_path: Path, shots: Path) -> None:  # noqa: F811
    shutil.copy(DATA / "gnubg_5pt_05100.txt", tmp_path / "m.txt")
    page = tmp_path / "quiz.html"
    result = CliRunner().invoke(
        main, ["positions", str(tmp_path / "m.txt"), "--kind", "checker", "--limit", "3", "-o", str(page), "-q"]
    )
    assert result.exit_code == 0, result.stderr
    browser.get(page.resolve().as_uri())
    cards = browser.find_elements(By.CSS_SELECTOR, "section.card")
    assert len(cards) == 3
    counter = browser.find_element(By.ID, "counter")
    assert counter.text == "1 / 3"
    first = cards[0]
    assert first.is_displayed() and not cards[1].is_displayed()
    assert first.find_element(By.TAG_NAME, "svg").size["width"] > 200
    answer = first.find_element(By.CLASS_NAME, "answer")
    assert not answer.is_displayed()
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.SPACE)
    assert answer.is_displayed() and "Best:" in answer.text and "Error:" in answer.text
    screenshot(browser, shots / "quiz.png")
    body.send_keys(Keys.ARROW_RIGHT)
    assert counter.text == "2 / 3" and cards[1].is_displayed() and not first.is_displayed()
    assert not cards[1].find_element(By.CLASS_NAME, "answer").is_displayed()
    body.send_keys(Keys.ENTER)
    assert cards[1].find_element(By.CLASS_NAME, "answer").is_displayed()
    body.send_keys("n")
    body.send_keys("n")
    assert counter.text == "1 / 3"  # past the last card: back to the first
    body.send_keys("p")
    assert counter.text == "3 / 3" and cards[2].is_displayed()
