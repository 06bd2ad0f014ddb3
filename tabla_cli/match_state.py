"""The state of a match between its games: the score, the Crawford game, post-Crawford, match over, away.

(:class:`tabla_cli.ids.match.MatchState` is another thing: the fields a Match ID encodes.) The replay
alone drives a :class:`MatchScore` (:mod:`tabla_cli.replay`), as it
drives the :class:`~tabla_cli.cube.Cube` within a game; :func:`away` is the one
way the points a side still needs are counted.

>>> state = MatchScore(length=3, crawford_rule=True)
>>> state.begin_game(None)
(False, False)
>>> state.award(0, 2)
>>> state.score, state.away(0), state.away(1), state.begin_game(None)
((2, 0), 1, 3, (True, False))
>>> state.award(1, 1)
>>> state.begin_game(None), state.over, state.winner
((False, True), False, None)
>>> state.award(0, 1)
>>> state.over, state.winner
(True, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["MatchScore", "away"]


def away(length: int, score: Sequence[int], side: int) -> int:
    """The points ``side`` still needs to win a ``length``-point match at ``score`` (0 in money play)."""
    return length - score[side] if length else 0


@dataclass(slots=True)
class MatchScore:
    """A match's score and Crawford state before each game, as the replay keeps it.

    Attributes:
        length: the match length (0: money play, no match to win).
        crawford_rule: the Crawford rule is in force.
        score: each side's points so far.
        post_crawford: the Crawford game has been played (or a game at 1-away was not it).
        finished: a game has taken a side to the match length.
    """

    length: int
    crawford_rule: bool = True
    score: tuple[int, int] = (0, 0)
    post_crawford: bool = False
    finished: bool = False

    def away(self, side: int) -> int:
        """The points ``side`` still needs (0 in money play)."""
        return away(self.length, self.score, side)

    @property
    def over(self) -> bool:
        """Whether the match was won before the game about to start."""
        return self.finished or (bool(self.length) and max(self.score) >= self.length)

    @property
    def winner(self) -> int | None:
        """The side that has reached the match length (None: nobody, or money play)."""
        if not self.length or max(self.score) < self.length:
            return None
        return 0 if self.score[0] >= self.length else 1

    def begin_game(self, recorded: bool | None) -> tuple[bool, bool]:
        """``(crawford, post_crawford)`` of the next game; ``recorded``: what its transcript says of the Crawford
        game (None: nothing), which the rule gives way to."""
        one_away = bool(self.length) and ((self.score[0] == self.length - 1) != (self.score[1] == self.length - 1))
        crawford = self.crawford_rule and not self.post_crawford and one_away
        if recorded is not None:
            crawford = recorded
            self.post_crawford = self.post_crawford or (one_away and not crawford)
        if crawford:
            self.post_crawford = True
        return crawford, self.post_crawford and not crawford

    def award(self, winner: int, points: int) -> None:
        """Add a game's ``points`` to ``winner``'s score."""
        score = list(self.score)
        score[winner] += points
        self.score = (score[0], score[1])
        if self.length and max(self.score) >= self.length:
            self.finished = True
