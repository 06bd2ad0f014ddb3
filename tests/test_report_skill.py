"""``tabla report`` with analysis: skill columns, ``--analyze``, ``--by decisions``, findings, HTML boards."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from click.testing import CliRunner

from tabla_cli.analysis.stats import STAT_COLUMNS
from tabla_cli.cli import main
from tabla_cli.reports import COLUMNS, SUMMARY_COLUMNS, build_frames, summarize
from tabla_cli.reports.frames import read_frames
from tabla_cli.reports.skill import MATCH_SKILL_COLUMNS, RENAMED, SKILL_COLUMNS

from helpers import CORPUS, EXAMPLES

EXPORTS = CORPUS / "txt"
EXPORT = EXPORTS / "bglab-lasse-2-ply-match967143.txt"
THREE_POINT = EXAMPLES / "three-point-match.mat"
STATS = [c.name for c in STAT_COLUMNS if c.name != "player"]


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own evaluation cache."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("TABLA_CACHE_DIR", str(folder))
    return folder


def tabla(*args: str | Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def rows(*args: str | Path) -> list[dict[str, Any]]:
    code, out, err = tabla(*args, "--format", "json", "-q", "--jobs", "1")
    assert code == 0, err
    found: list[dict[str, Any]] = json.loads(out)
    return found


def by_player(table: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each player's statistics, as analyze names them."""
    inverse = {new: old for old, new in RENAMED.items()}
    return {r["player"]: {inverse.get(k, k): v for k, v in r.items() if inverse.get(k, k) in STATS} for r in table}


def assert_same_stats(report: dict[str, dict[str, Any]], analyze: dict[str, dict[str, Any]]) -> None:
    assert report.keys() == analyze.keys()
    for player, stats in analyze.items():
        for name in STATS:
            want, got = stats[name], report[player][name]
            if isinstance(want, float):
                assert got == pytest.approx(want, abs=1e-9), (player, name)
            else:
                assert got == want, (player, name)


# --- recorded analysis ------------------------------------------------------------------------


def test_recorded_error_rates_per_player_are_analyze_s() -> None:
    report = by_player(rows("report", EXPORTS))
    analyze = by_player(rows("analyze", "--by", "player", EXPORTS))
    assert_same_stats(report, analyze)
    assert report["lasse"]["decisions"] > 100 and not math.isnan(report["lasse"]["error_rate"])


def test_one_export_gives_its_players_recorded_rates() -> None:
    table = {r["player"]: r for r in rows("report", EXPORT)}
    assert table["alfa_3"]["error_rate"] == pytest.approx(4.667, abs=1e-3)
    assert table["lasse"]["error_rate"] == pytest.approx(49.333, abs=1e-3)
    assert table["lasse"]["pr"] == pytest.approx(table["lasse"]["error_rate"] / 2)
    assert table["lasse"]["wrong_passes"] == 1 and table["lasse"]["skill_rating"] == "Awful!"


def test_match_table_has_each_side_s_skill() -> None:
    matches = rows("report", "--by", "match", EXPORTS)
    analyze = rows("analyze", "--by", "match", EXPORTS)
    assert len(matches) == 21
    for match in matches:
        for side in (0, 1):
            theirs = next(r for r in analyze if r["file"] == match["file"] and r["player"] == match[f"player{side}"])
            assert match[f"decisions{side}"] == theirs["decisions"]
            assert match[f"error_rate{side}"] == pytest.approx(theirs["error_rate"])
            assert match[f"skill_rating{side}"] == theirs["rating"]


def test_a_match_with_one_side_analysed() -> None:
    frames = build_frames([EXPORT])
    one_side = frames.replace(decisions=frames.decisions[frames.decisions["side"] == 1])
    match = summarize(one_side, "match").iloc[0]
    assert match["decisions0"] == 0 and pd.isna(match["error_rate0"]) and match["decisions1"] == 3
    assert match["error_rate1"] == pytest.approx(49.333, abs=1e-3)


def test_without_analysis_there_are_no_skill_columns() -> None:
    players = rows("report", THREE_POINT)
    assert "error_rate" not in players[0] and "decisions" not in players[0]
    assert "error_rate0" not in rows("report", "--by", "match", THREE_POINT)[0]
    assert rows("report", "--by", "decisions", THREE_POINT) == []


def test_analysed_and_plain_inputs_together() -> None:
    players = {r["player"]: r for r in rows("report", EXPORT, THREE_POINT)}
    assert players["Petar"]["decisions"] == 0 and players["Petar"]["error_rate"] is None
    assert players["lasse"]["decisions"] == 3


# --- analysed JSON and --analyze ------------------------------------------------------------------


def test_analysed_json_gives_analyze_s_table(tmp_path: Path) -> None:
    out = tmp_path / "analysed"
    code, _, err = tabla("analyze", "-q", "--level", "1ply", "--out-dir", out, EXPORT, THREE_POINT)
    assert code == 0, err
    analyze = by_player(rows("analyze", "--by", "player", "--level", "1ply", EXPORT, THREE_POINT))
    assert_same_stats(by_player(rows("report", out)), analyze)
    assert_same_stats(by_player(rows("report", "--analyze", "1ply", EXPORT, THREE_POINT)), analyze)


def test_analyze_1ply_on_the_examples(cache_dir: Path) -> None:
    table = {r["player"]: r for r in rows("report", "--analyze", "1ply", EXAMPLES)}
    analyze = by_player(rows("analyze", "--by", "player", "--level", "1ply", EXAMPLES))
    assert_same_stats(by_player([r for r in table.values() if r["player"] in analyze]), analyze)
    assert table["Petar"]["decisions"] > 10 and table["Petar"]["error_rate"] > 0
    assert any(cache_dir.iterdir())
    cached = rows("report", "--analyze", "1ply", THREE_POINT)
    assert rows("report", "--analyze", "1ply", "--no-cache", THREE_POINT) == cached


def test_no_cache_needs_analyze() -> None:
    code, _, err = tabla("report", "--no-cache", THREE_POINT)
    assert code == 2 and "--no-cache needs --analyze" in err


# --- the decisions frame ---------------------------------------------------------------------


def test_by_decisions_gives_the_documented_columns(tmp_path: Path) -> None:
    code, out, err = tabla("report", "-q", "--by", "decisions", "--format", "csv", "--frames", tmp_path / "f", EXPORT)
    assert code == 0, err
    table = pd.read_csv(io.StringIO(out))
    assert (
        list(table.columns) == [c.name for c in COLUMNS["decisions"]] == [c.name for c in SUMMARY_COLUMNS["decisions"]]
    )
    analyze = rows("analyze", "--by", "decision", EXPORT)
    assert len(table) == len(analyze) == 13
    assert table["error"].sum() == pytest.approx(sum(r["error"] or 0 for r in analyze))
    assert set(table["match"]) == {0} and set(table["player"]) == {"alfa_3", "lasse"}
    back = read_frames(tmp_path / "f")
    assert len(back.decisions) == 13 and back.decisions["kind"].dtype == COLUMNS["decisions"][7].pandas_dtype
    assert (tmp_path / "f" / "decisions.parquet").exists()


def test_library_frames_carry_decisions_through_filters_and_aliases() -> None:
    frames = build_frames([EXPORT, THREE_POINT], aliases={"lasse": "Lasse"})
    assert set(frames.decisions["player"]) == {"alfa_3", "Lasse"}
    assert set(frames.decisions["opponent"]) == {"alfa_3", "Lasse"}
    assert summarize(frames, "decisions").equals(frames.decisions)
    players = summarize(frames, "player")
    assert list(players.columns[-len(SKILL_COLUMNS) :]) == [c.name for c in SKILL_COLUMNS]
    assert [c.name for c in MATCH_SKILL_COLUMNS][:2] == ["checker_decisions0", "checker_decisions1"]
    code, out, err = tabla(
        "report", "-q", "--format", "json", "--by", "decisions", "--opponent", "Petar", EXPORT, THREE_POINT
    )
    assert code == 0 and json.loads(out) == []


# --- findings (was errors) ----------------------------------------------------------------------


def test_by_findings_and_the_old_name() -> None:
    code, out, err = tabla("report", "-q", "--by", "findings", "--format", "csv", EXPORT)
    assert code == 0 and out.startswith("code,severity,findings") and err == ""
    old = tabla("report", "-q", "--by", "errors", "--format", "csv", EXPORT)
    assert old[:2] == (0, out)
    assert old[2] == "report: --by errors is deprecated: use --by findings\n"


# --- HTML --------------------------------------------------------------------------------------


def test_html_has_error_rates_and_worst_decisions_with_boards(tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    code, _, err = tabla("report", "-q", EXPORTS, "-o", page)
    assert code == 0, err
    text = page.read_text(encoding="utf-8")
    worst = text[text.index('<section id="worst-decisions">') :]
    worst = worst[: worst.index("</section>")]
    assert worst.count("<svg") == 20 and worst.count("<figcaption>") == 20
    assert '<section id="error-rates">' in text and 'alt="Error rate per player (mEMG)"' in text
    plain = tmp_path / "plain.html"
    assert tabla("report", "-q", THREE_POINT, "-o", plain)[0] == 0
    assert "worst-decisions" not in plain.read_text(encoding="utf-8")


def test_personal_page_shows_the_player_s_worst_decisions(tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    code, _, err = tabla("report", "-q", EXPORTS, "--player", "alfa_3", "-o", page, "--plots", tmp_path / "plots")
    assert code == 0, err
    text = page.read_text(encoding="utf-8")
    assert '<section id="skill">' in text and '<section id="worst-decisions">' in text
    captions = [part.split("</figcaption>")[0] for part in text.split('<figure class="board">')[1:]]
    assert captions and all("alfa_3, game" in c.split("<figcaption>")[1] for c in captions)
    assert (tmp_path / "plots" / "error_rates.png").exists()
