"""The ``auto`` level: each decision only as deep as it needs, each with the level it reached."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tabla_cli.analysis.bgsage_batch import AUTO_DEEPEST_ERROR
from tabla_cli.analysis.engine import analyse
from tabla_cli.cli import main
from tabla_cli.evaluation.types import CubeAction, DecisionKind
from tests.test_analysis_engine import FIVE_POINT, START, checker, cube, play

# From the opening 6-4: 24/14 is the best at 1ply, 24/18 13/9 by 0.0002 behind it and the best at 2ply.
RUN = play(START, (24, 18), (18, 14))
SPLIT = play(START, (24, 18), (13, 9))
# With 6-5, 8/3 8/2 is a blunder at every depth.
BLUNDER = play(START, (8, 3), (8, 2))


def test_a_play_the_net_calls_best_keeps_its_1ply_figures() -> None:
    auto, first, second = (
        analyse([checker(START, (6, 4), RUN)], level, luck=False)[0] for level in ("auto", "1ply", "2ply")
    )
    assert first.error == 0.0 and first.best == "24/14"
    assert auto.source == "bgsage 1ply" and auto.error == 0.0
    assert auto.equity == first.equity and auto.best == first.best
    # 2ply would have looked again and found it 0.005 worse than 24/18 13/9.
    assert second.error is not None and second.error > 0.004


def test_a_small_error_at_1ply_is_judged_at_2ply() -> None:
    auto, second = (analyse([checker(START, (6, 4), SPLIT)], level, luck=False)[0] for level in ("auto", "2ply"))
    assert auto.source == "bgsage 2ply"
    assert auto.error == second.error == 0.0
    assert auto.equity == pytest.approx(second.equity) and auto.best == second.best == "24/18 13/9"


def test_an_error_still_large_at_2ply_is_judged_at_3ply() -> None:
    auto, second, third = (
        analyse([checker(START, (6, 5), BLUNDER)], level, luck=False)[0] for level in ("auto", "2ply", "3ply")
    )
    assert second.error is not None and second.error > AUTO_DEEPEST_ERROR
    assert auto.source == "bgsage 3ply"
    assert auto.error == pytest.approx(third.error) and auto.best == third.best == "24/13"


def test_a_right_cube_action_at_1ply_keeps_1ply_figures_and_a_wrong_one_goes_to_3ply() -> None:
    # Doubling this early is wrong at every depth; not doubling is right.
    holds = [cube(DecisionKind.DOUBLE, FIVE_POINT, CubeAction.NO_DOUBLE)]
    doubles = [cube(DecisionKind.DOUBLE, FIVE_POINT, CubeAction.DOUBLE)]
    (held,), (held_1ply,) = analyse(holds, "auto", luck=False), analyse(holds, "1ply", luck=False)
    assert held.source == "bgsage 1ply" and held.error == 0.0
    assert held.cube_equities == held_1ply.cube_equities
    (doubled,), (doubled_3ply,) = analyse(doubles, "auto", luck=False), analyse(doubles, "3ply", luck=False)
    assert doubled.source == "bgsage 3ply"
    assert doubled.error is not None and doubled.error > 0.05
    assert doubled.error == pytest.approx(doubled_3ply.error)
    assert doubled.cube_equities == pytest.approx(doubled_3ply.cube_equities)


def test_auto_is_the_default_and_the_summary_counts_the_levels_reached(tmp_path: Path) -> None:
    match = "\n".join(
        [
            '; [Player 1 "Ann"]',
            '; [Player 2 "Bob"]',
            "",
            " 1 point match",
            "",
            " Game 1",
            " Ann : 0                 Bob : 0",
            "  1) 64: 24/14                      65: 8/3 8/2",
            "",
        ]
    )
    path = tmp_path / "m.mat"
    path.write_text(match)
    result = CliRunner().invoke(main, ["analyze", str(path), "--no-cache", "--by", "decision", "--format", "json"])
    assert result.exit_code == 0, result.stderr
    assert "2 decisions at auto (1 at 1ply, 1 at 3ply)" in result.stderr
    rows = json.loads(result.stdout)
    assert [row["source"] for row in rows] == ["bgsage 1ply", "bgsage 3ply"]


def test_searches_side_by_side_give_the_figures_of_one_thread() -> None:
    decisions = [
        checker(START, (6, 4), SPLIT),
        checker(START, (6, 5), BLUNDER),
        checker(START, (3, 1), play(START, (24, 21), (21, 20))),
        cube(DecisionKind.DOUBLE, FIVE_POINT, CubeAction.DOUBLE),
    ]
    one, two = (analyse(decisions, "3ply", threads, luck=False) for threads in (1, 2))
    assert one == two
