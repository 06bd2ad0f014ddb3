"""PR as eXtreme Gammon counts it, on XG's own analysis in .xg files.

XG's Performance Rating is 500 x the error over the decisions XG counts,
with its own filter (:func:`tabla_cli.analysis.stats.xg_decision`). bgsage's
``xg_compare`` (MPL-2.0) is a second, independent reading of the same files
with the same filter: it parses the records itself and computes each error
from the candidates' and the cube's equities, where tabla takes XG's stored
error figures. Per player, both give the same decision count and PR.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bgsage import xg_compare  # type: ignore[import-untyped]

from tabla_cli.analysis.decisions import AnalysisOptions
from tabla_cli.analysis.file_analysis import analyse_file
from tabla_cli.analysis.stats import skill_rows, xg_decision
from tabla_cli.evaluation.types import DecisionKind, Evaluation

from helpers import DATA

XG_FILES = sorted(p for pattern in ("gammonview-*.xg", "gbf-*.xg") for p in (DATA / "xg").glob(pattern))
"""XG-analysed matches: GammonView's samples and, where tests/data holds them, live-tournament files."""


def bgsage_counts(path: Path) -> tuple[tuple[int, float], tuple[int, float]]:
    """xg_compare's (decisions, error) of XG's player 1 and player 2 over the whole match."""
    match = xg_compare.parse_xg_match(path.read_bytes())
    totals = [[0, 0.0], [0, 0.0]]
    for game in match["games"]:
        stats = xg_compare.compute_game_pr_stats(game["turns"])
        totals[0][0] += stats["user_dec"]
        totals[0][1] += stats["user_err"]
        totals[1][0] += stats["bot_dec"]
        totals[1][1] += stats["bot_err"]
    return (totals[0][0], totals[0][1]), (totals[1][0], totals[1][1])


def test_the_files_are_there() -> None:
    assert len(XG_FILES) >= 8


@pytest.mark.parametrize("path", XG_FILES, ids=lambda p: p.name)
def test_decisions_and_pr_as_xg_counts_them(path: Path) -> None:
    rows = analyse_file(str(path), AnalysisOptions(cache=False)).rows
    assert rows and all(r["source"].startswith("recorded XG") for r in rows if r["source"])
    sides = {int(r["side"]): str(r["player"]) for r in rows}
    stats = {r["player"]: r for r in skill_rows(rows)}
    for side, (count, error) in enumerate(bgsage_counts(path)):
        row = stats[sides[side]]
        assert row["xg_decisions"] == count, sides[side]
        # XG shows PR with two decimals; the two readings' errors differ in the last bits of XG's floats
        assert row["pr"] == pytest.approx(500 * error / count, abs=1e-3), sides[side]


def test_xg_and_gnubg_count_differently() -> None:
    """Over the files XG's filter and gnubg's "unforced or close" give different counts."""
    differ = 0
    for path in XG_FILES:
        for row in skill_rows(analyse_file(str(path), AnalysisOptions(cache=False)).rows):
            differ += row["xg_decisions"] != row["decisions"]
    assert differ >= 8


def evaluation(
    error: float, *, spread: float | None = None, cube: tuple[float, float, float] | None = None
) -> Evaluation:
    return Evaluation(0.0, error, "best", error, "test", spread=spread, cube_equities=cube)


@pytest.mark.parametrize(
    ("kind", "made", "counts"),
    [
        (DecisionKind.CHECKER, evaluation(0.0, spread=0.0009), False),  # every listed play worth the same
        (DecisionKind.CHECKER, evaluation(0.0, spread=0.001), True),
        (DecisionKind.CHECKER, evaluation(0.0), True),  # no list: counted, as gnubg counts an unforced play
        (DecisionKind.TAKE, evaluation(0.0, cube=(0.5, 1.0, 1.0)), False),  # double/take = double/pass
        (DecisionKind.TAKE, evaluation(0.0, cube=(0.5, 0.9, 1.0)), True),
        (DecisionKind.DOUBLE, evaluation(0.0, cube=(0.3, 0.3005, 1.0)), False),  # no double = double/take
        (DecisionKind.DOUBLE, evaluation(0.0, cube=(0.6, 0.35, 1.0)), False),  # too good to double or no double
        (DecisionKind.DOUBLE, evaluation(0.25, cube=(0.6, 0.35, 1.0)), True),  # ... yet doubled: counted
        (DecisionKind.DOUBLE, evaluation(0.0, cube=(1.3, 1.5, 1.0)), False),  # far above the pass
        (DecisionKind.DOUBLE, evaluation(0.0, cube=(-0.95, -0.92, 1.0)), False),  # hopeless
        (DecisionKind.DOUBLE, evaluation(0.0, cube=(0.5, 0.62, 1.0)), True),  # a real double
        (DecisionKind.DOUBLE, evaluation(0.0, cube=(0.9, 1.4, 1.0)), True),  # clear double/pass: XG counts it
        (DecisionKind.DOUBLE, evaluation(0.0), None),  # nothing to judge by: gnubg's count applies
    ],
)
def test_xg_filter(kind: DecisionKind, made: Evaluation, counts: bool | None) -> None:
    assert xg_decision(kind, made) is counts


def test_forced_and_unjudged_decisions() -> None:
    forced = Evaluation(None, 0.0, "", 0.0, "test", forced=True)
    assert xg_decision(DecisionKind.CHECKER, forced) is False
    unknown = Evaluation(None, 0.2, "8/2", None, "test", spread=0.5)
    assert xg_decision(DecisionKind.CHECKER, unknown) is None
