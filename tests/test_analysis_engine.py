"""The bgsage engine analysis on positions built here, and its cache."""

from __future__ import annotations

from typing import Any

import pytest

from tabla_cli.analysis import bgsage_batch, engine
from tabla_cli.analysis import cache as analysis_cache
from tabla_cli.analysis.engine import UnknownLevelError, analyse, to_board
from tabla_cli.board import Player, Position, Step, legal_plays
from tabla_cli.errors import TablaError
from tabla_cli.evaluation.types import CubeAction, DecisionInput, DecisionKind

START = Position.start()
ZERO, ONE = Player.ZERO, Player.ONE
# Player ZERO has borne in and off 3; ONE still has 13 checkers back in the race.
RACE_AHEAD = Position.from_points({6: 4, 5: 4, 4: 4}, {6: 5, 13: 5, 18: 3, 24: 2})
# ZERO has made its 5 point early: better, but nowhere near a double.
FIVE_POINT = Position.from_points({24: 2, 13: 5, 8: 2, 6: 4, 5: 2}, {24: 2, 13: 5, 8: 3, 6: 5})
# ZERO on the bar against a five-point board: only a 6 enters.
ON_BAR = Position.from_points({25: 1, 13: 5, 8: 4, 6: 5}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 3, 13: 4})
# One checker left on the 1 point: every roll bears it off.
LAST_CHECKER = Position.from_points({1: 1}, {24: 2, 13: 5})


def checker(
    position: Position, dice: tuple[int, int], played: Position | None = None, away: tuple[int, int] = (0, 0), **kw: Any
) -> DecisionInput:
    return DecisionInput(DecisionKind.CHECKER, position, ZERO, ZERO, 1, None, away, dice=dice, played=played, **kw)


def cube(
    kind: DecisionKind, position: Position, action: CubeAction, away: tuple[int, int] = (0, 0), **kw: Any
) -> DecisionInput:
    actor = ZERO if kind is DecisionKind.DOUBLE else ONE
    return DecisionInput(kind, position, ZERO, actor, 1, None, away, cube_action=action, **kw)


def play(position: Position, *steps: tuple[int, int]) -> Position:
    return position.apply(tuple(Step(s, d) for s, d in steps))


def test_best_play_has_no_error_and_a_worse_play_does() -> None:
    best, worse = analyse(
        [
            checker(START, (3, 1), play(START, (8, 5), (6, 5))),
            checker(START, (3, 1), play(START, (24, 21), (21, 20))),
        ],
        "1ply",
        luck=False,
    )
    assert best.best == "8/5 6/5"
    assert best.error == 0.0 and best.rank == 1 and best.equity == best.best_equity
    assert best.options == len(legal_plays(START, (3, 1))) == 16
    assert worse.error is not None and worse.error > 0.05
    assert worse.rank is not None and worse.rank > 1
    assert worse.best_equity == pytest.approx(best.best_equity)
    assert best.source == "bgsage 1ply" and not best.forced


def test_a_filtered_out_play_is_scored_at_the_full_level() -> None:
    made = play(START, (13, 7), (13, 8))
    (evaluation,) = analyse([checker(START, (6, 5), made)], "2ply", luck=False)
    assert evaluation.best == "24/13"
    assert evaluation.error is not None and evaluation.error > 0.05
    assert evaluation.equity == pytest.approx(evaluation.best_equity - evaluation.error)


def test_a_play_no_other_comes_near_at_1ply_is_not_looked_at_deeper() -> None:
    # 8/5 6/5 is the 1ply best with 3-1 by 0.24: the filter leaves it alone, and its error is 0 at any depth.
    made = play(START, (8, 5), (6, 5))
    one, two = (analyse([checker(START, (3, 1), made)], level, luck=False)[0] for level in ("1ply", "2ply"))
    assert two.error == 0.0 and two.rank == 1
    assert two.equity == pytest.approx(one.equity) and two.best == one.best == "8/5 6/5"


def test_3ply_looks_deeper_at_the_play_made_and_the_best_only() -> None:
    made = play(START, (24, 23), (13, 10))
    ranked = {r.text: r for r in engine.rank_plays(checker(START, (3, 1)), "3ply")}
    # Without a play made, the best two of the 2ply ranking go to 3ply, the rest stay lower.
    assert ranked["8/5 6/5"].level == ranked["24/23 13/10"].level == "3ply"
    assert ranked["13/10 6/5"].level == "2ply"
    (evaluation,) = analyse([checker(START, (3, 1), made)], "3ply", luck=False)
    assert evaluation.best == "8/5 6/5"
    assert evaluation.best_equity == pytest.approx(ranked["8/5 6/5"].equity)
    assert evaluation.equity == pytest.approx(ranked["24/23 13/10"].equity)
    # The best play made: after 2ply no other play is within the 3ply filter, so it stays at 2ply.
    (best,) = analyse([checker(START, (3, 1), play(START, (8, 5), (6, 5)))], "3ply", luck=False)
    (at_2ply,) = analyse([checker(START, (3, 1), play(START, (8, 5), (6, 5)))], "2ply", luck=False)
    assert best.error == 0.0 and best.equity == pytest.approx(at_2ply.equity)


def test_at_3ply_an_error_needs_the_best_play_only_and_a_ranking_the_best_two() -> None:
    # At 3ply 24/23 13/10 is second and further than the filter's 0.04 from the best at 2ply.
    # A ranking rescores it (the first two are shown); an error needs only the best and the play made.
    decision = checker(START, (3, 1), play(START, (13, 10), (6, 5)))
    state = bgsage_batch.State.of(decision)
    (moves,) = bgsage_batch.checker_batch([state.checker_input(to_board(START), (3, 1))], 1, False)
    boards = {
        text: tuple(to_board(result))
        for text, result in (
            ("8/5 6/5", play(START, (8, 5), (6, 5))),
            ("24/23 13/10", play(START, (24, 23), (13, 10))),
            ("13/10 6/5", play(START, (13, 10), (6, 5))),
        )
    }
    rescorer = bgsage_batch.Rescorer("3ply", 1)
    (error,), (ranking,) = (rescorer.score([(moves, state, played)]) for played in (boards["13/10 6/5"], None))
    assert [error[boards[text]][1] for text in boards] == ["3ply", "2ply", "3ply"]
    assert [ranking[boards[text]][1] for text in ("8/5 6/5", "24/23 13/10")] == ["3ply", "3ply"]


def test_the_cube_value_counts_above_1ply() -> None:
    # At 7-away all, the side that owns a 4-cube plays for more than half the match:
    # every play's equity (the best one's too) differs from a 2-cube's.
    made = play(FIVE_POINT, (13, 7), (8, 3))
    two, four = analyse(
        [
            DecisionInput(DecisionKind.CHECKER, FIVE_POINT, ZERO, ZERO, cube, ZERO, (7, 7), dice=(6, 5), played=made)
            for cube in (2, 4)
        ],
        "2ply",
        luck=False,
    )
    assert two.best == four.best == "24/13"
    assert abs(two.best_equity - four.best_equity) > 0.01
    assert two.equity is not None and four.equity is not None and abs(two.equity - four.equity) > 0.01


def test_luck_is_scored_at_1ply_whatever_the_level() -> None:
    decisions = [checker(FIVE_POINT, (6, 5), play(FIVE_POINT, (13, 7), (8, 3))), checker(ON_BAR, (4, 3), ON_BAR)]
    one = analyse(decisions, "1ply")
    two = analyse(decisions, "2ply")
    assert [e.luck for e in one] == [e.luck for e in two]
    assert all(e.luck is not None for e in two)


def test_luck_costs_the_same_engine_work_at_every_level(monkeypatch: pytest.MonkeyPatch) -> None:
    """Luck is scored once, at 1ply: above 1ply no roll is scored for luck a second time."""
    from tabla_cli.analysis import bgsage_batch

    positions: dict[str, int] = {}
    real = bgsage_batch.bgbot_cpp.batch_checker_play
    level = ["1ply"]

    def counting(items: list[Any], *args: Any, **kw: Any) -> Any:
        positions[level[0]] = positions.get(level[0], 0) + len(items)
        return real(items, *args, **kw)

    monkeypatch.setattr(bgsage_batch.bgbot_cpp, "batch_checker_play", counting)
    decisions = [checker(FIVE_POINT, (6, 5), play(FIVE_POINT, (13, 7), (8, 3))), checker(START, (3, 1), None)]
    for level[0] in ("1ply", "2ply"):
        analyse(decisions, level[0])
    # The two rolls made and the 20 other rolls of each position. The opening's 15 non-doubles for the
    # other side are the same questions as the roller's own (money, cube centred, a symmetric position).
    assert positions["1ply"] == positions["2ply"] == 2 + 20 + 20


def test_the_no_double_at_2ply_takes_the_rolls_luck_scored(monkeypatch: pytest.MonkeyPatch) -> None:
    """A no double at 2ply averages the best 1ply plays of the 21 rolls: at the position and cube of a
    checker play those are the rolls its luck scored, not asked again, and its figures are unchanged."""
    from tabla_cli.analysis import bgsage_batch

    decisions = [cube(DecisionKind.DOUBLE, RACE_AHEAD, CubeAction.NO_DOUBLE), checker(RACE_AHEAD, (2, 1))]
    (alone,) = analyse(decisions[:1], "2ply")
    sent: list[int] = []
    real = bgsage_batch.bgbot_cpp.batch_checker_play
    monkeypatch.setattr(
        bgsage_batch.bgbot_cpp,
        "batch_checker_play",
        lambda items, *a, **kw: sent.append(len(items)) or real(items, *a, **kw),
    )
    shared, _ = analyse(decisions, "2ply")
    assert sent == [1, 20]  # the roll made with its play, the 20 others for luck; none for the no double
    assert alone.cube_equities is not None and shared.cube_equities == alone.cube_equities


def test_forced_play_and_dance_are_not_sent_to_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[int] = []
    real = engine.checker_batch
    monkeypatch.setattr(engine, "checker_batch", lambda items, *a: sent.append(len(items)) or real(items, *a))
    forced, dance = analyse(
        [
            checker(LAST_CHECKER, (6, 5), play(LAST_CHECKER, (1, 0))),
            checker(ON_BAR, (4, 3), ON_BAR),
        ],
        "1ply",
        luck=False,
    )
    assert sent == []
    assert forced.forced and forced.options == 1 and forced.best == "1/off"
    assert forced.error == 0.0 and forced.equity is None
    assert dance.forced and dance.options == 1 and dance.best == ""


def test_a_dance_is_unlucky_and_the_opening_luck_is_the_best_plays_equity() -> None:
    dance, opening = analyse(
        [
            checker(ON_BAR, (4, 3), ON_BAR),
            checker(START, (3, 1), play(START, (8, 5), (6, 5))),
        ],
        "1ply",
    )
    assert dance.luck is not None and dance.luck < -0.05
    # From the symmetric start at a level score the 30 opening rolls average 0.
    assert opening.luck == pytest.approx(opening.best_equity, abs=1e-6)


def test_take_of_a_clear_pass_is_a_wrong_take() -> None:
    take, drop, double = analyse(
        [
            cube(DecisionKind.TAKE, RACE_AHEAD, CubeAction.TAKE),
            cube(DecisionKind.TAKE, RACE_AHEAD, CubeAction.PASS),
            cube(DecisionKind.DOUBLE, RACE_AHEAD, CubeAction.DOUBLE),
        ],
        "1ply",
    )
    assert take.best == drop.best == "pass"
    assert take.error is not None and take.error > 0.2 and take.rank == 2
    assert drop.error == 0.0 and drop.equity == pytest.approx(-1.0)
    assert take.close and drop.close and double.close
    # So far ahead that playing on for a gammon beats cashing: too good to double.
    assert double.cube_equities is not None and double.cube_equities[2] == pytest.approx(1.0)
    no_double, _, pass_ = double.cube_equities
    assert double.best == "no double" and double.error == pytest.approx(no_double - pass_)


def test_double_in_a_no_double_position_costs() -> None:
    double, no_double = analyse(
        [
            cube(DecisionKind.DOUBLE, FIVE_POINT, CubeAction.DOUBLE),
            cube(DecisionKind.DOUBLE, FIVE_POINT, CubeAction.NO_DOUBLE),
        ],
        "1ply",
    )
    assert double.best == no_double.best == "no double"
    assert double.error is not None and double.error > 0.02 and double.close
    # Within gnubg's 0.16 of doubling: the no double counts as a cube decision.
    assert no_double.error == 0.0 and no_double.close
    (behind,) = analyse([cube(DecisionKind.DOUBLE, FIVE_POINT.flip(), CubeAction.NO_DOUBLE)], "1ply")
    assert behind.error == 0.0 and not behind.close


def test_only_cube_decisions_close_at_1ply_go_deeper() -> None:
    decisions = [
        cube(DecisionKind.DOUBLE, FIVE_POINT.flip(), CubeAction.NO_DOUBLE),  # far from doubling
        cube(DecisionKind.DOUBLE, FIVE_POINT, CubeAction.NO_DOUBLE),  # within gnubg's close bound
        cube(DecisionKind.DOUBLE, FIVE_POINT.flip(), CubeAction.DOUBLE),  # a double always counts
    ]
    one = analyse(decisions, "1ply")
    two = analyse(decisions, "2ply")
    assert two[0].cube_equities == one[0].cube_equities and two[0].error == 0.0
    assert two[1].cube_equities != one[1].cube_equities
    assert two[2].cube_equities != one[2].cube_equities
    (alone,) = analyse(decisions[1:2], "2ply")
    assert alone.cube_equities == two[1].cube_equities


def test_a_player_who_cannot_double_has_no_cube_decision() -> None:
    owned = DecisionInput(DecisionKind.DOUBLE, RACE_AHEAD, ZERO, ZERO, 2, ONE, (0, 0), cube_action=CubeAction.NO_DOUBLE)
    (evaluation,) = analyse([owned], "1ply")
    assert evaluation.forced and not evaluation.close and evaluation.error == 0.0


def test_match_play_and_money_give_different_equities() -> None:
    made = play(START, (8, 5), (6, 5))
    money, match = analyse(
        [checker(START, (3, 1), made), checker(START, (3, 1), made, away=(3, 5))], "1ply", luck=False
    )
    assert money.equity is not None and match.equity is not None
    assert abs(money.equity - match.equity) > 0.01
    assert money.error_mwc is None and match.error_mwc == 0.0
    (wrong,) = analyse([cube(DecisionKind.TAKE, RACE_AHEAD, CubeAction.TAKE, away=(7, 7))], "1ply")
    assert wrong.error is not None and wrong.error_mwc is not None
    assert 0 < wrong.error_mwc < wrong.error


def test_other_variants_are_not_analysable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "checker_batch", None)
    (evaluation,) = analyse([checker(START, (3, 1), START, variant="plakoto")], "1ply")
    assert evaluation.error is None and evaluation.equity is None
    assert evaluation.source == "not analysable (plakoto)"


def test_unknown_level_is_an_error() -> None:
    with pytest.raises(UnknownLevelError, match="1ply, 2ply, 3ply"):
        analyse([], "0ply")


def test_board_layout_matches_bgsage() -> None:
    import bgsage  # type: ignore[import-untyped]

    assert to_board(START) == bgsage.STARTING_BOARD
    assert to_board(ON_BAR)[25] == 1 and to_board(ON_BAR)[0] == 0


def test_cache_hit_returns_the_same_without_the_engine(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLA_CACHE_DIR", str(tmp_path))
    decisions = [
        checker(START, (3, 1), play(START, (24, 21), (21, 20))),
        cube(DecisionKind.TAKE, RACE_AHEAD, CubeAction.TAKE, away=(7, 7)),
        checker(START, (3, 1), START, variant="fevga"),
    ]
    first = analysis_cache.analyse_cached(decisions, "1ply")
    assert (tmp_path / "analysis.sqlite").exists()

    def no_engine(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the engine was called")

    monkeypatch.setattr(analysis_cache, "analyse", no_engine)
    assert analysis_cache.analyse_cached(decisions, "1ply") == first
    with pytest.raises(AssertionError):
        analysis_cache.analyse_cached(decisions, "2ply")
    with pytest.raises(AssertionError):
        analysis_cache.analyse_cached(decisions, "1ply", use_cache=False)


def test_cache_sends_only_misses_to_the_engine(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLA_CACHE_DIR", str(tmp_path))
    old = checker(START, (3, 1), play(START, (8, 5), (6, 5)))
    new = checker(START, (4, 2), play(START, (8, 4), (6, 4)))
    analysis_cache.analyse_cached([old], "1ply", luck=False)
    asked: list[list[DecisionInput]] = []
    real = analysis_cache.analyse
    monkeypatch.setattr(analysis_cache, "analyse", lambda ds, *a, **kw: asked.append(list(ds)) or real(ds, *a, **kw))
    both = analysis_cache.analyse_cached([old, new], "1ply", luck=False)
    assert asked == [[new]]
    assert both[1].best == "8/4 6/4"


@pytest.mark.parametrize("level", ["1ply", "2ply"])
def test_rank_plays_agrees_with_analyse(level: str) -> None:
    ranked = engine.rank_plays(checker(START, (6, 5)), level)
    assert [r.equity for r in ranked] == sorted((r.equity for r in ranked), reverse=True)
    assert {r.position for r in ranked} == set(legal_plays(START, (6, 5)))
    assert ranked[0].text == "24/13" and ranked[0].level == level
    (best,) = analyse([checker(START, (6, 5), ranked[0].position)], level, luck=False)
    assert best.equity == best.best_equity == pytest.approx(ranked[0].equity)
    # The filter drops the worst play: it shows the 1ply equity that a 1ply analysis gives it.
    worst = ranked[-1]
    assert worst.level == "1ply"
    (evaluation,) = analyse([checker(START, (6, 5), worst.position)], "1ply", luck=False)
    assert evaluation.equity == pytest.approx(worst.equity)


def test_rank_plays_of_a_dance_and_of_another_game() -> None:
    (dance,) = engine.rank_plays(checker(ON_BAR, (5, 5)), "1ply")
    assert dance.play == () and dance.text == "" and dance.equity < 0
    with pytest.raises(TablaError):
        engine.rank_plays(checker(START, (6, 5), variant="plakoto"), "1ply")
    with pytest.raises(UnknownLevelError):
        engine.rank_plays(checker(START, (6, 5)), "4ply")


def test_a_run_keeps_no_cube_figures_behind() -> None:
    """The cube figures and best plays found during a run serve that run only: none stay in memory after it."""
    from tabla_cli.analysis import bgsage_batch

    start = Position.start()
    opening = play(start, (8, 5), (6, 5))
    decisions = [cube(DecisionKind.DOUBLE, start, CubeAction.NO_DOUBLE, (5, 5)), checker(start, (3, 1), opening)]
    engine.analyse(decisions, "3ply")
    assert not any(bgsage_batch._CUBE_MEMO.values()) and not bgsage_batch._BEST
