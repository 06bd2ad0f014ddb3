"""Every roll's decision, game by game: what the replay made of each roll, kept for later.

The replay visits every roll of a game exactly once and in order: as a roll
(:meth:`~tabla_cli.visitor.BaseVisitor.visit_roll`), as a resignation, or as
an action it does not follow. :class:`RollsVisitor` keeps one entry per roll
in that order: the :class:`~tabla_cli.replay.Decision` the replay made of it,
or None for a roll it resigned or did not follow. (The writers need no such
list: they write from the steps as they come.)

>>> from tabla_cli.formats.mat import parse_matches
>>> text = '''1 point match
... Game 1
... Ann : 0   Bob : 0
... 1) 31: 8/5 6/5   42: ????
... '''
>>> result, rolls = replay_rolls(next(parse_matches(text)))
>>> [None if d is None else d.play for d in rolls[0]]
[(Step(src=8, dst=5, hit=False), Step(src=6, dst=5, hit=False)), None]
"""

from __future__ import annotations

from tabla_cli.board import Play, Position
from tabla_cli.model import Action, ActionKind, Game, Match
from tabla_cli.replay import Decision, MatchResult, replay
from tabla_cli.visitor import BaseVisitor, DecisionState, Wants

__all__ = ["GameRolls", "RollsVisitor", "replay_rolls"]

GameRolls = list[Decision | None]
"""One game's rolls in order: each one's decision, None for a roll the replay resigned or did not follow."""


class RollsVisitor(BaseVisitor[list[GameRolls]]):
    """Keeps each game's :data:`GameRolls`; :meth:`take` hands over a match's once it is replayed."""

    wants = Wants.ROLL | Wants.RESIGN | Wants.UNCHECKED
    reads_analysis = False

    def __init__(self) -> None:
        self.games: list[GameRolls] = []

    def begin_game(self, game: Game, state: DecisionState) -> None:
        self.games.append([])

    def visit_roll(self, state: DecisionState, action: Action, play: Play | None, after: Position | None) -> None:
        self.games[-1].append(Decision(action, state.position, state.cube, state.cube_owner, play))

    def visit_resign(self, state: DecisionState, action: Action) -> None:
        if action.kind is ActionKind.ROLL:
            self.games[-1].append(None)

    def visit_unchecked(self, action: Action) -> None:
        if action.kind is ActionKind.ROLL:
            self.games[-1].append(None)

    def take(self) -> list[GameRolls]:
        """The games' rolls since the last call (or the start)."""
        games, self.games = self.games, []
        return games

    def result(self) -> list[GameRolls]:
        return self.games


class _Replay(RollsVisitor):
    """:class:`RollsVisitor` that also keeps the match's result."""

    match_result: MatchResult | None = None

    def end_match(self, match_result: MatchResult) -> None:
        self.match_result = match_result


def replay_rolls(match: Match) -> tuple[MatchResult, list[GameRolls]]:
    """Replay ``match``: its result and every game's :data:`GameRolls`."""
    visitor = _Replay()
    games = replay(match, visitor)
    assert visitor.match_result is not None  # the replay always ends the match
    return visitor.match_result, games
