"""``tabla analyze``: tables of skill errors, recorded analysis, HTML with boards, exit codes."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from tabla_cli.cli import main

from helpers import CORPUS, EXAMPLES

THREE_POINT = str(EXAMPLES / "three-point-match.mat")
EXPORT = CORPUS / "txt" / "bglab-lasse-0-ply-match1788245.txt"


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own evaluation cache."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("TABLA_CACHE_DIR", str(folder))
    return folder


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["analyze", *args])
    return result.exit_code, result.stdout, result.stderr


def test_one_row_per_match_and_player() -> None:
    code, out, err = run(THREE_POINT, "--level", "1ply", "--format", "json", "-j", "1")
    assert code == 0, err
    rows = json.loads(out)
    assert [(r["player"], r["opponent"]) for r in rows] == [("Petar", "Maria"), ("Maria", "Petar")]
    for row in rows:
        assert row["file"] == THREE_POINT and row["match"] == 1
        assert row["decisions"] > 0 and row["error_rate"] >= 0
        assert row["pr"] == pytest.approx(row["error_rate"] / 2)
    assert re.search(r"analyzed 1 files, 1 matches, \d+ decisions at 1ply", err)


def test_decisions_are_consistent() -> None:
    code, out, err = run(THREE_POINT, "--level", "1ply", "--by", "decision", "--format", "json", "-j", "1")
    assert code == 0, err
    rows = json.loads(out)
    kinds = {r["kind"] for r in rows}
    assert kinds == {"checker", "double", "take"}
    for row in rows:
        assert row["source"] == "bgsage 1ply"
        assert row["position_id"] and row["match_id"]
        if row["forced"]:
            assert row["kind"] != "checker" or row["options"] == 1
            continue
        assert row["error"] >= 0
        assert (row["rank"] == 1) == (row["error"] == 0)
        if row["kind"] == "checker":
            assert row["dice"] and row["options"] > 1 and row["luck"] is not None
    checkers = [r for r in rows if r["kind"] == "checker"]
    assert len(checkers) == 16


def test_cache_gives_the_same_numbers(cache_dir: Path) -> None:
    first = run(THREE_POINT, "--level", "1ply", "--by", "decision", "--format", "csv", "-j", "1")
    assert any(cache_dir.iterdir())
    second = run(THREE_POINT, "--level", "1ply", "--by", "decision", "--format", "csv", "-j", "1")
    uncached = run(THREE_POINT, "--level", "1ply", "--by", "decision", "--format", "csv", "--no-cache")
    assert first[1] == second[1] == uncached[1]


def test_recorded_analysis_reproduces_gnubg_error_rates() -> None:
    code, out, err = run(str(EXPORT), "--by", "player", "--format", "json")
    assert code == 0, err
    rows = {r["player"]: r for r in json.loads(out)}
    text = EXPORT.read_text()
    statistics = text[text.index("Game statistics"):]
    header = re.search(r"^Player\s+(\S+)\s+(\S+)", statistics, re.MULTILINE)
    assert header is not None
    # Checker play, cube decisions, then overall: gnubg prints the overall rate last, as a loss (< 0).
    overall = re.findall(r"^Error rate mEMG \(MWC\)\s+([-0-9.]+)\s+\([^)]*\)\s+([-0-9.]+)", statistics,
                         re.MULTILINE)[-1]
    for name, value in zip(header.groups(), overall):
        assert rows[name]["error_rate"] == pytest.approx(abs(float(value)), abs=0.5)
        assert rows[name]["decisions"] > 0


def test_engine_instead_of_recorded_analysis() -> None:
    code, out, _ = run(str(EXPORT), "--by", "decision", "--format", "json", "--no-recorded", "--level", "1ply",
                       "--no-luck")
    assert code == 0
    assert {r["source"] for r in json.loads(out)} == {"bgsage 1ply"}


def test_html_has_worst_decisions_on_boards(tmp_path: Path) -> None:
    target = tmp_path / "skill.html"
    code, out, err = run(THREE_POINT, "--level", "1ply", "-o", str(target))
    assert code == 0 and out == "", err
    page = target.read_text()
    assert "<h2>Worst decisions</h2>" in page and 'src="data:image/png;base64,' in page
    section = page[page.index("<h2>Worst decisions</h2>"):]
    boards = re.findall(r"<svg.*?</svg>", section, re.DOTALL)
    assert 1 <= len(boards) <= 20
    for board in boards:
        root = ET.fromstring(board)
        assert root.find("{http://www.w3.org/2000/svg}title") is not None
    assert section.count("<figcaption>") == len(boards)


def test_output_is_not_overwritten(tmp_path: Path) -> None:
    target = tmp_path / "out.csv"
    target.write_text("keep")
    code, _, err = run(THREE_POINT, "--level", "1ply", "-o", str(target))
    assert code == 1 and "--force" in err and target.read_text() == "keep"
    code, _, _ = run(THREE_POINT, "--level", "1ply", "-o", str(target), "--force")
    assert code == 0 and target.read_text().startswith("file,match,player")


def test_findings_of_the_check_come_first() -> None:
    bad = CORPUS / "mat" / "gammonview-5nqfGw9bWG3deTaU.mat"
    code, out, err = run(str(bad), "--level", "1ply", "--no-luck", "--format", "json")
    assert code == 1
    assert "error[illegal-play]" in err
    assert json.loads(out)


@pytest.mark.parametrize("args", [["--level", "7ply"], ["--by", "game"], ["--format", "xml"], []])
def test_usage_errors(args: list[str]) -> None:
    code, _, _ = run(*args) if args else run()
    assert code == 2
