"""The replay says at each roll whether the roller could have doubled first (``DecisionState.may_double``);
the analysis takes its no-double decisions from it."""

from __future__ import annotations

from tabla_cli.board import Play, Position
from tabla_cli.formats.mat import parse_matches
from tabla_cli.model import Action
from tabla_cli.replay import replay
from tabla_cli.visitor import BaseVisitor, DecisionState, Wants

MATCH = """; [Cube "On"]

 5 point match

 Game 1
 Ann : 0                        Bob : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2)  Doubles => 2                Takes
  3) 65: 24/13                   61: 13/7 8/7
  4) 52: 13/8 13/11              Doubles => 4
  5)  Takes                      43: 24/21 13/9
  6) 66: 13/7 13/7 8/2 8/2       11: 6/5 6/5 6/5 6/5
"""


class _MayDouble(BaseVisitor[list[bool]]):
    wants = Wants.ROLL

    def __init__(self) -> None:
        self.seen: list[bool] = []

    def visit_roll(self, state: DecisionState, action: Action, play: Play | None, after: Position | None) -> None:
        self.seen.append(state.may_double)

    def result(self) -> list[bool]:
        return self.seen


def test_may_double_follows_the_cube() -> None:
    """Not after one's own double (the roll that follows the take), not while the opponent owns the cube."""
    seen = replay(next(parse_matches(MATCH)), _MayDouble())
    # Ann 31, Bob 42, Ann 65 (after her double), Bob 61 (he took: his cube), Ann 52 (Bob's cube), Bob 43
    # (after his redouble), Ann 66 (she took: hers), Bob 11 (Ann's cube).
    assert seen == [True, True, False, True, False, False, True, False]


def test_no_double_without_a_cube() -> None:
    """A match played without a cube never lets the roller double."""
    text = MATCH.replace('; [Cube "On"]', '; [Cube "Off"]').split("  2)")[0] + "\n"
    assert replay(next(parse_matches(text)), _MayDouble()) == [False, False]
