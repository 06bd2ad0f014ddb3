"""``tabla analyze``'s tables in plain Python: the same bytes as the pandas frames they replace.

The statistics (:func:`tabla_cli.analysis.stats.skill_rows`) and the text
formats of a :class:`~tabla_cli.columns.Table` need no pandas; here they are
held against pandas on real recorded analyses: the CSV against
``DataFrame.to_csv``, the sums against a grouped pandas sum.
"""

from __future__ import annotations

import json
import math

import pytest

from tabla_cli.analysis.decisions import AnalysisOptions
from tabla_cli.analysis.file_analysis import analyse_file
from tabla_cli.analysis.stats import decision_row, decisions_frame, player_stats, skill_rows, stat_columns
from tabla_cli.columns import Table, records
from tabla_cli.evaluation.types import DecisionKind
from tabla_cli.reports.analysis import analysis_table
from tabla_cli.reports.render import render

from helpers import CORPUS

ANALYSED = sorted((CORPUS / "sgf").glob("*.sgf"))[:3] + sorted((CORPUS / "txt").glob("*.txt"))[:3]


@pytest.fixture(scope="module")
def rows() -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for path in ANALYSED:
        out += analyse_file(str(path), AnalysisOptions(cache=False)).rows
    return out


@pytest.mark.parametrize("by", ["match", "player", "decision"])
def test_csv_is_pandas_csv(rows: list[dict[str, object]], by: str) -> None:
    table = analysis_table(rows, by)
    assert len(table.rows) > 1
    assert render(table, "csv") == table.frame().to_csv(index=False, lineterminator="\n")


@pytest.mark.parametrize("fmt", ["json", "jsonl", "markdown", "table"])
def test_text_formats_equal_those_of_the_frame(rows: list[dict[str, object]], fmt: str) -> None:
    table = analysis_table(rows, "match")
    assert render(table, fmt) == render(table.frame(), fmt)


def test_statistics_equal_pandas_sums(rows: list[dict[str, object]]) -> None:
    """Each player's error sums as pandas groups and sums the frame's errors (on these files, to the
    last bit; tests/test_stats_oracle.py draws many more, equal within rounding)."""
    frame = decisions_frame(rows)
    unforced = (frame["kind"] == DecisionKind.CHECKER.value) & frame["error"].notna() & ~frame["forced"]
    errors = frame["error"].astype("float64").fillna(0.0).where(unforced, 0.0)
    expected = errors.groupby(frame["player"], sort=False).sum()
    stats = {row["player"]: row for row in skill_rows(rows)}
    assert len(stats) >= 4
    assert {player: stats[player]["checker_error"] for player in expected.index} == expected.to_dict()


def test_sums_are_compensated() -> None:
    """Ten errors of 0.1 sum to 1.0 (a plain running sum gives 0.9999999999999999)."""
    rows = [decision_row("m", 1, n, "Ann", 0, DecisionKind.CHECKER, error=0.1) for n in range(10)]
    assert sum(0.1 for _ in range(10)) != 1.0
    (stats,) = skill_rows(rows)
    assert stats["checker_error"] == 1.0
    assert stats["error_rate"] == 100.0
    assert player_stats(decisions_frame(rows))["checker_error"].tolist() == [1.0]


def test_rows_without_a_player_count_for_nobody() -> None:
    rows = [
        decision_row("m", 1, 1, "Ann", 0, DecisionKind.CHECKER, error=0.05),
        {**decision_row("m", 1, 2, "x", 1, DecisionKind.CHECKER, error=0.5), "player": None},
    ]
    (stats,) = skill_rows(rows)
    assert stats["player"] == "Ann"
    assert stats["checker_error"] == 0.05
    assert math.isnan(stats["luck_rate"])
    assert stats["luck_rating"] is None


def test_player_stats_of_a_frame_equal_the_rows(rows: list[dict[str, object]]) -> None:
    """The frame path (``tabla report``'s skill tables) gives what the rows give."""
    from_frame = records(player_stats(decisions_frame(rows), by_match=True))
    from_rows = Table.of(stat_columns(by_match=True), skill_rows(rows, by_match=True)).rows
    assert len(from_rows) >= 6
    assert json.dumps(from_frame) == json.dumps(from_rows)
