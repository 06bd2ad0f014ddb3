"""The cube's state machine on its own (the replay's use of it is in test_replay and test_visitors)."""

from __future__ import annotations

import pytest

from tabla_cli.board import Player
from tabla_cli.cube import Cube
from tabla_cli.model import RuleSet

ZERO, ONE = Player.ZERO, Player.ONE


def test_a_take_turns_the_cube_to_the_value_offered() -> None:
    cube = Cube(RuleSet(), length=5)
    assert cube.refusal(ZERO, crawford=False) is None and cube.double(ZERO) == 2
    assert cube.answers(ONE) and not cube.answers(ZERO) and cube.seen_from(ONE) is ZERO
    cube.take(ONE)
    assert (cube.value, cube.owner, cube.pending, cube.turned) == (2, ONE, None, True)
    assert cube.refusal(ZERO, crawford=False) == "owned" and cube.refusal(ONE, crawford=False) is None
    assert cube.value_problem(None) is None and cube.value_problem(8) == "the cube is at 2, so a double offers 4, not 8"


@pytest.mark.parametrize(("written", "expected"), [((None, None), (4, 8)), ((4, 8), (4, 8)), ((6, 12), (6, 12))])
def test_beaver_and_raccoon_values(written: tuple[int | None, int | None], expected: tuple[int, int]) -> None:
    cube = Cube(RuleSet(beaver=True), length=0)
    cube.double(ZERO)
    assert cube.beavers and cube.beaver_answers(ONE) and not cube.beaver_answers(ZERO)
    before, value, turn = cube.beaver(ONE, written[0])
    assert (before, value, turn, cube.owner, cube.seen_from(ONE)) == (2, expected[0], ZERO, ONE, ZERO)
    before, value, turn = cube.beaver(ZERO, written[1])
    assert (before, value, turn, cube.owner) == (expected[0], expected[1], ZERO, ZERO)


def test_the_rules_refuse_doubles_and_beavers() -> None:
    assert Cube(RuleSet(cube=False), length=5).refusal(ZERO, crawford=False) == "no-cube"
    assert Cube(RuleSet(), length=5).refusal(ZERO, crawford=True) == "crawford"
    assert not Cube(RuleSet(beaver=True), length=5).beavers
    assert Cube(RuleSet(cube_limit=2), length=0, value=2, owner=ZERO).value_problem(None) == (
        "4 is above the cube limit 2"
    )


def test_a_dropped_or_cancelled_double_leaves_the_cube() -> None:
    cube = Cube(RuleSet(), length=0, value=2, owner=ONE)
    cube.double(ONE)
    cube.drop()
    assert cube.pending is ONE and cube.doubler is None
    cube.cancel()
    assert (cube.value, cube.owner, cube.pending) == (2, ONE, None)
