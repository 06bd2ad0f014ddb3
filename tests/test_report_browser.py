"""The personal HTML report in a real browser: Debian's chromium, driven by selenium.

``.ci/run`` installs ``chromium`` and ``chromium-driver`` with apt-get; the
browser runs headless, without network or sandbox. Without selenium (the test
extra) or without the browser the tests skip and say why, unless
``TABLA_REQUIRE_BROWSER`` is set (``.ci/run`` sets it): then a missing browser fails.
Each page is also saved as a full-page screenshot for review, in the folder
``TABLA_SCREENSHOTS`` names, else in pytest's temporary folder (never in the
repository).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("selenium", reason="the browser test needs selenium: pip install '.[test]'")

from click.testing import CliRunner
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tabla_cli.cli import main

import helpers

DATA = helpers.DATA / "players"
FLAGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--headless",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    binary = shutil.which("chromium")
    driver_path = shutil.which("chromedriver")
    if not (binary and driver_path):
        missing = " and ".join(name for name, path in (("chromium", binary), ("chromedriver", driver_path)) if not path)
        reason = f"{missing} not found: install Debian's chromium and chromium-driver (see .ci/run)"
        if os.environ.get("TABLA_REQUIRE_BROWSER"):
            pytest.fail(reason)
        pytest.skip(reason)
    options = Options()
    options.binary_location = binary
    for flag in FLAGS:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the screenshots go: $TABLA_SCREENSHOTS, else a temporary folder of this run."""
    folder = (
        Path(os.environ["TABLA_SCREENSHOTS"])
        if os.environ.get("TABLA_SCREENSHOTS")
        else (tmp_path_factory.mktemp("screenshots"))
    )
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def screenshot(browser: webdriver.Chrome, path: Path) -> None:
    """The whole page as a PNG at ``path`` (the window made as tall as the page)."""
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(1280, min(int(height) + 100, 16000))
    browser.save_screenshot(str(path))
    assert path.stat().st_size > 10_000


def page(tmp_path: Path, *args: str) -> str:
    out = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["report", str(DATA), *args, "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    return out.resolve().as_uri()


@pytest.mark.parametrize(
    "args, sections",
    [
        (
            ("--player", "lasse"),
            ["Headline", "Matches", "Opponents", "Over time", "Dice", "Gammons and cube", "Findings by code"],
        ),
        ((), ["Players", "Findings by code", "Plots"]),
    ],
)
def test_every_section_renders_and_no_image_is_broken(
    browser: webdriver.Chrome, tmp_path: Path, shots: Path, args: tuple[str, ...], sections: list[str]
) -> None:
    browser.get(page(tmp_path, *args))
    screenshot(browser, shots / ("personal.png" if args else "everyone.png"))
    found = browser.find_elements(By.CSS_SELECTOR, "section")
    assert [s.find_element(By.TAG_NAME, "h2").text for s in found] == sections
    for section in found:
        assert section.is_displayed() and section.size["height"] > 0
    images = browser.find_elements(By.TAG_NAME, "img")
    assert len(images) >= 3
    for image in images:
        assert browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image) > 0
        assert image.size["width"] > 0
    tables = browser.find_elements(By.CSS_SELECTOR, "table tbody tr")
    assert tables and all(row.is_displayed() for row in tables[:5])


def test_the_personal_headline_is_large_numbers_in_words(browser: webdriver.Chrome, tmp_path: Path) -> None:
    browser.get(page(tmp_path, "--player", "lasse"))
    cards = browser.find_elements(By.CSS_SELECTOR, "#headline .card")
    labels = [c.find_element(By.CLASS_NAME, "label").text for c in cards]
    assert labels[:3] == ["Matches won–lost", "Games won–lost", "Points in matches"]
    for card in cards:
        assert card.is_displayed()
        big = card.find_element(By.CLASS_NAME, "big")
        assert float(big.value_of_css_property("font-size").removesuffix("px")) >= 24
    # no horizontal scroll bar for the headline; rates as percentages, headers in words
    headline = browser.find_element(By.ID, "headline")
    assert browser.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth + 1", headline)
    headers = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "th")]
    assert headers and not [h for h in headers if "_" in h]
    cells = [td.text for td in browser.find_elements(By.CSS_SELECTOR, "#headline td")]
    assert any(c.endswith("%") for c in cells)


def test_worst_decisions_show_their_boards(browser: webdriver.Chrome, tmp_path: Path, shots: Path) -> None:
    out = tmp_path / "skill.html"
    analysed = helpers.DATA / "corpus" / "txt"
    result = CliRunner().invoke(main, ["report", str(analysed), "-q", "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    browser.get(out.resolve().as_uri())
    screenshot(browser, shots / "skill.png")
    headings = [h.text for h in browser.find_elements(By.CSS_SELECTOR, "section h2")]
    assert headings == ["Players", "Findings by code", "Error rates", "Worst decisions", "Plots"]
    section = browser.find_element(By.ID, "worst-decisions")
    boards = section.find_elements(By.CSS_SELECTOR, "figure.board svg")
    assert len(boards) == 20
    for board in boards:
        assert board.is_displayed() and board.size["width"] > 300 and board.size["height"] > 200
    assert all("lost" in c.text for c in section.find_elements(By.TAG_NAME, "figcaption"))
    plot = browser.find_element(By.CSS_SELECTOR, "#error-rates img")
    assert browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth", plot) > 0


def _column(browser: webdriver.Chrome, table: object, n: int) -> list[str]:
    rows = table.find_elements(By.CSS_SELECTOR, "tbody tr")  # type: ignore[attr-defined]
    return [r.find_elements(By.TAG_NAME, "td")[n].text for r in rows if r.is_displayed()]


@pytest.fixture(scope="module")
def analysed_page(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = tmp_path_factory.mktemp("analysed") / "llabba.html"
    result = CliRunner().invoke(
        main, ["report", str(helpers.DATA / "corpus" / "txt"), "-q", "--player", "Llabba", "-o", str(out)]
    )
    assert result.exit_code == 0, result.stderr
    return out.resolve().as_uri()


def test_a_header_click_or_key_sorts_numbers_as_numbers(
    browser: webdriver.Chrome, tmp_path: Path, analysed_page: str
) -> None:
    browser.get(page(tmp_path, "--player", "lasse"))
    table = browser.find_element(By.CSS_SELECTOR, "#matches table")
    headers = table.find_elements(By.TAG_NAME, "th")
    names = [th.text for th in headers]
    games, length = names.index("games"), names.index("length")
    before = [int(v) for v in _column(browser, table, games)]
    assert len(set(before)) > 2 and before != sorted(before)
    headers[games].click()
    assert [int(v) for v in _column(browser, table, games)] == sorted(before)
    assert headers[games].get_attribute("aria-sort") == "ascending"
    headers[games].send_keys(Keys.ENTER)
    assert [int(v) for v in _column(browser, table, games)] == sorted(before, reverse=True)
    assert headers[games].get_attribute("aria-sort") == "descending"
    headers[games].send_keys(Keys.SPACE)
    assert [int(v) for v in _column(browser, table, games)] == sorted(before)
    # 16 points after 5 points: as numbers, not as text
    headers[length].click()
    lengths = [int(v) for v in _column(browser, table, length)]
    assert lengths == sorted(lengths) and lengths[-1] >= 10 > lengths[0]
    browser.get(analysed_page)
    # a column of percentages sorts by its numbers too (9.5% before 10.0%)
    skill = browser.find_element(By.CSS_SELECTOR, "#opponents table")
    names = [th.text for th in skill.find_elements(By.TAG_NAME, "th")]
    percent = next(i for i, name in enumerate(names) if name.endswith("%"))
    skill.find_elements(By.TAG_NAME, "th")[percent].click()
    values = [float(v.rstrip("%")) for v in _column(browser, skill, percent) if v]
    assert values == sorted(values)


def test_a_filter_hides_the_rows_without_its_text(browser: webdriver.Chrome, analysed_page: str) -> None:
    browser.get(analysed_page)
    table = browser.find_element(By.CSS_SELECTOR, "#matches table")
    opponents = _column(browser, table, 2)
    assert len(set(opponents)) > 1
    wanted = opponents[0]
    box = browser.find_element(By.CSS_SELECTOR, "#matches input.filter")
    box.send_keys(wanted.lower())
    shown = _column(browser, table, 2)
    assert shown and len(shown) < len(opponents)
    assert all(wanted.lower() in " ".join(_row_texts(table)).lower() for _ in shown)
    assert len(shown) == sum(1 for row in _row_texts(table) if wanted.lower() in row.lower())
    box.clear()
    box.send_keys("x")
    box.send_keys(Keys.BACKSPACE)
    assert len(_column(browser, table, 2)) == len(opponents)
    boards = browser.find_element(By.CSS_SELECTOR, "#worst-decisions input.filter")
    figures = browser.find_elements(By.CSS_SELECTOR, "#worst-decisions figure.board")
    captions = [f.find_element(By.TAG_NAME, "figcaption").text for f in figures]
    match = captions[-1].rsplit("; ", 1)[1].rstrip(")")
    boards.send_keys("no such words anywhere")
    assert figures and not [f for f in figures if f.is_displayed()]
    boards.send_keys(Keys.CONTROL, "a")
    boards.send_keys(match)
    shown = [f for f in figures if f.is_displayed()]
    assert len(shown) == sum(match.lower() in c.lower() for c in captions) > 0
    assert all(match in f.find_element(By.TAG_NAME, "figcaption").text for f in shown)


def _row_texts(table: object) -> list[str]:
    rows = table.find_elements(By.CSS_SELECTOR, "tbody tr")  # type: ignore[attr-defined]
    return [r.text for r in rows if r.is_displayed()]


def test_a_match_links_to_its_decisions(browser: webdriver.Chrome, analysed_page: str) -> None:
    browser.set_window_size(1280, 800)
    browser.get(analysed_page)
    link = browser.find_element(By.CSS_SELECTOR, "#matches tbody tr a")
    name = link.text
    link.click()
    target = browser.execute_script("return document.querySelector(location.hash)")
    assert browser.current_url.endswith(link.get_attribute("href").split("#")[1])
    assert target.text == name and target.tag_name == "h3"
    assert browser.execute_script("return arguments[0].getBoundingClientRect().top", target) < 200
    # the decisions under it are that match's, costliest first
    table = target.find_element(By.XPATH, "following-sibling::div[1]//table")
    errors = [
        float(v)
        for v in _column(browser, table, [th.text for th in table.find_elements(By.TAG_NAME, "th")].index("error"))
    ]
    assert errors and errors == sorted(errors, reverse=True)


def test_without_analysis_a_match_links_to_its_file(browser: webdriver.Chrome, tmp_path: Path) -> None:
    browser.get(page(tmp_path, "--player", "lasse"))
    links = browser.find_elements(By.CSS_SELECTOR, "#matches tbody tr a")
    assert len(links) == 4
    files = {p.resolve().as_uri() for p in DATA.iterdir()}
    assert {a.get_attribute("href") for a in links} <= files
