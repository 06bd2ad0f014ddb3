"""The doubling cube of one game: the one state machine of doubles, takes, drops, beavers and raccoons.

Only the replay (:mod:`tabla_cli.replay`) drives a :class:`Cube`; it asks
the cube whether a double is allowed and what a cube action makes of the
cube, and turns the answers into findings. Readers write down the actions as
the transcript gives them, visitors are told the values decided here; only
for a double the replay does not follow (after the game ended, or after a
play it could not apply) does a writer ask :func:`offer` what it offers.

Values: a double offers twice the cube; a take sets the cube to the value
offered; a beaver without a written value doubles the value offered (four
times the cube before the double); a raccoon without one doubles the
beavered cube. A double left unanswered when the game goes on was taken.
Beavers and raccoons are allowed where the match's
:meth:`~tabla_cli.model.RuleSet.beavers` says so.

>>> from tabla_cli.model import RuleSet
>>> cube = Cube(RuleSet(beaver=True), length=0)
>>> cube.double(Player.ZERO), cube.beaver(Player.ONE, None), (cube.value, cube.owner)
(2, (2, 4, <Player.ZERO: 0>), (4, <Player.ONE: 1>))
"""

from __future__ import annotations

from typing import Literal

from tabla_cli.board import Player
from tabla_cli.model import ActionKind, RuleSet

__all__ = ["Cube", "Refusal", "offer"]

Refusal = Literal["crawford", "owned", "no-cube"]
"""Why a double is not allowed: the Crawford game, the cube is the opponent's, the match has no cube."""

CEILING = 1 << 62
"""The cube never goes above this (a transcript doubling thousands of times, each double a finding already,
would make numbers of thousands of digits, slow to multiply and past what ``str`` converts); far above any
cube limit (a header's limit has at most nine digits)."""


def _times(value: int, factor: int) -> int:
    return min(value * factor, CEILING)


def offer(value: int) -> int:
    """What a double offers on a cube of ``value``: twice it.

    >>> offer(1), offer(32)
    (2, 64)
    """
    return _times(value, 2)


class Cube:
    """The cube of one game, from its start (centred at 1, or a set-up position's cube).

    Attributes:
        value: the cube's value.
        owner: who owns it; None when it is centred.
        pending: the player whose double waits for an answer (None: none does).
        doubler: the player who doubled (or beavered) in the exchange being
            answered; the side the answers are seen from.
        last: the last double or beaver: its kind and who made it.
        turned: the cube was turned in this game (a take, beaver or raccoon).
        offered: the value of the last double.
        beavers: beavers and raccoons are allowed.

    Args:
        rules: the match's rules.
        length: the match length (0: money play).
        value: the cube at the start.
        owner: its owner at the start.
    """

    __slots__ = ("beavers", "doubler", "last", "offered", "owner", "pending", "rules", "turned", "value")

    def __init__(self, rules: RuleSet, length: int, value: int = 1, owner: Player | None = None) -> None:
        self.rules = rules
        self.beavers = rules.beavers(length)
        self.value = value
        self.owner = owner
        self.pending: Player | None = None
        self.doubler: Player | None = None
        self.last: tuple[ActionKind, Player] | None = None
        self.turned = False
        self.offered = 0

    def refusal(self, player: Player, crawford: bool) -> Refusal | None:
        """Why ``player`` may not double now (in the Crawford game if ``crawford``); None when they may."""
        if crawford:
            return "crawford"
        if self.owner is not None and self.owner != player:
            return "owned"
        if not self.rules.cube:
            return "no-cube"
        return None

    def value_problem(self, written: int | None) -> str | None:
        """What is wrong with a double written as offering ``written`` (None: the value is implied)."""
        want = offer(self.value)
        value = written or want
        if value != want:
            return f"the cube is at {self.value}, so a double offers {want}, not {value}"
        if value > self.rules.cube_limit:
            return f"{value} is above the cube limit {self.rules.cube_limit}"
        return None

    def double(self, player: Player) -> int:
        """``player`` doubles; the value offered."""
        self.pending = self.doubler = player
        self.last = (ActionKind.DOUBLE, player)
        self.offered = offer(self.value)
        return self.offered

    def answers(self, player: Player) -> bool:
        """Whether a take or drop by ``player`` answers a double."""
        return self.pending is not None and self.pending != player

    def seen_from(self, answerer: Player) -> Player:
        """The side an answer by ``answerer`` is seen from: the doubler."""
        return self.doubler if self.doubler is not None else answerer.other

    def take(self, taker: Player) -> None:
        """``taker`` takes the double waiting (or one that was never answered: the game went on)."""
        self.value = self.offered or offer(self.value)
        self.owner = taker
        self.turned = True
        self.pending = self.doubler = None

    def drop(self) -> None:
        """A drop: the exchange is over (the replay ends the game when it answered a double, see :meth:`cancel`)."""
        self.doubler = None

    def cancel(self) -> None:
        """The game ends with a double waiting (a drop, a resignation, a forfeit)."""
        self.pending = None

    def beaver_answers(self, player: Player) -> bool:
        """Whether a beaver or raccoon by ``player`` answers a double or a beaver."""
        return self.last is not None and self.last[1] != player

    def beaver(self, player: Player, written: int | None) -> tuple[int, int, Player]:
        """``player`` beavers (or raccoons): ``(cube before, cube after, who is on turn next)``.

        A beaver of a waiting double takes it first; the cube's value after it
        is ``written`` when given, else twice the cube.
        """
        assert self.last is not None  # beaver_answers
        value = written or _times(self.value, 4 if self.pending is not None else 2)
        doubler = self.doubler
        if self.pending is not None:
            self.take(player)
        before = self.value
        self.value = value
        self.owner = player
        self.turned = True
        self.doubler = doubler
        kind, by = self.last
        self.last = (ActionKind.BEAVER, player)
        return before, value, by if kind is ActionKind.DOUBLE else player
