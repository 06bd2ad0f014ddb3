"""Read the analysis GNU Backgammon records in an SGF file: ``A`` and ``LU`` (a play), ``DA`` (a cube decision).

The game record itself is read by :mod:`tabla_cli.formats.sgf`; this module
turns the analysis properties of its move nodes into each action's
:attr:`~tabla_cli.model.Action.analysis`.

A play's analysis (``A[...]``, ``LU[...]``) needs nothing but the node. A
cube analysis (``DA[...]``) is written in match-winning chances at the score
and the cube of the moment, which the file does not write: the replay, the
one owner of game state, gives them (:class:`CubeAnalyses`, a visitor), and
``DA`` is read then. ``DA`` on a roll is the decision not to double before
it; on a double, a take or a drop, that double (not a beaver, as in gnubg).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from tabla_cli.board import Play, Player, Position, Step
from tabla_cli.evaluation.recorded import RecordedAnalysis, parse_sgf_cube_analysis, parse_sgf_move_analysis
from tabla_cli.evaluation.types import CubeAction
from tabla_cli.formats._sgf_values import letter_point, unescape
from tabla_cli.model import Action, ActionKind, Game, Match
from tabla_cli.notation import format_play_plain
from tabla_cli.replay import replay
from tabla_cli.visitor import BaseVisitor, DecisionState, Wants

__all__ = ["CubeAnalyses", "PendingCube", "attach_cube_analyses", "cube_made", "move_analysis"]

_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyz")

_CUBE_MADE = {
    ActionKind.ROLL: CubeAction.NO_DOUBLE,
    ActionKind.DOUBLE: CubeAction.DOUBLE,
    ActionKind.TAKE: CubeAction.TAKE,
    ActionKind.DROP: CubeAction.PASS,
}
_ANSWERS = (CubeAction.TAKE, CubeAction.PASS)


def move_analysis(player: Player, values: Sequence[str], luck: str | None, moved: bool) -> RecordedAnalysis | None:
    """The analysis of a roll's play: the raw values of its ``A[...]`` and of ``LU[...]`` (None: none written).

    Each candidate of ``A`` starts with its letter pairs (``lpab``), written
    in White's numbering; they become plain plays from ``player``'s side.
    """
    texts = [unescape(v) for v in values]
    plays = []
    for value in texts[1:]:
        letters = value.split(" ", 1)[0]
        steps = tuple(
            Step(letter_point(letters[i], player), letter_point(letters[i + 1], player))
            for i in range(0, len(letters) - 1, 2)
            if letters[i] in _LETTERS and letters[i + 1] in _LETTERS
        )
        plays.append(format_play_plain(steps))
    return parse_sgf_move_analysis(texts, plays, None if luck is None else unescape(luck), moved=moved)


def cube_made(kind: ActionKind, after_double: bool) -> CubeAction | None:
    """The cube decision a ``DA`` on an action of ``kind`` evaluates (None: it evaluates none).

    ``after_double``: the action comes right after a double (a take or a drop answers it).
    """
    made = _CUBE_MADE.get(kind)
    if made in _ANSWERS and not after_double:
        return None
    return made


@dataclass(frozen=True, slots=True)
class PendingCube:
    """A ``DA`` value waiting for the replay's cube: where its action is and what it evaluates."""

    index: int
    """The action's index in its game's ``actions``."""
    value: str
    """The ``DA`` value, unescaped."""
    made: CubeAction


class CubeAnalyses(BaseVisitor[None]):
    """Reads each ``DA`` with the cube and score the replay gives at its action, into the action's analysis.

    Args:
        pending: for each game (in order), its ``DA`` values.
    """

    wants = Wants.ROLL | Wants.CUBE | Wants.RESIGN
    reads_analysis = False

    def __init__(self, pending: Sequence[Sequence[PendingCube]]) -> None:
        self.pending = pending
        self.game_index = -1
        self.actions: list[Action] = []
        self.waiting: list[PendingCube] = []
        self.cursor = 0

    def begin_game(self, game: Game, state: DecisionState) -> None:
        self.game_index += 1
        self.actions = game.actions
        self.waiting = list(reversed(self.pending[self.game_index])) if self.game_index < len(self.pending) else []
        self.cursor = 0

    def visit_roll(self, state: DecisionState, action: Action, play: Play | None, after: Position | None) -> None:
        self._read(state, action)

    def visit_resign(self, state: DecisionState, action: Action) -> None:
        self._read(state, action)

    def visit_cube(
        self, state: DecisionState, action: Action, cube_before: int, cube_after: int, owner: Player | None
    ) -> None:
        self._read(state, action)

    def result(self) -> None:
        return None

    def _read(self, state: DecisionState, action: Action) -> None:
        """Read the ``DA`` of ``action`` (the next visited action of the game), if it has one."""
        actions = self.actions
        cursor = self.cursor
        while cursor < len(actions) and actions[cursor] is not action:
            cursor += 1
        if cursor == len(actions):
            return  # not in the record (a trailing roll the replay counted)
        self.cursor = cursor
        while self.waiting and self.waiting[-1].index < cursor:
            self.waiting.pop()
        if not self.waiting or self.waiting[-1].index != cursor:
            return
        found = self.waiting.pop()
        made = found.made
        doubler = action.player.other if made in _ANSWERS else action.player
        cube = state.cube
        context = (
            (state.length - state.score[doubler], state.length - state.score[doubler.other], cube, state.crawford)
            if state.length
            else None
        )
        analysis = parse_sgf_cube_analysis(found.value, context, cube > 1)
        if analysis is None:
            return
        recorded = action.analysis or RecordedAnalysis(level=analysis.level)
        actions[cursor] = dataclasses.replace(
            action, analysis=dataclasses.replace(recorded, cube=analysis, cube_action=made)
        )


def attach_cube_analyses(match: Match, pending: Sequence[Sequence[PendingCube]]) -> None:
    """Replay ``match`` to read the ``DA`` values ``pending`` (for each game, in order) into its actions."""
    if any(pending):
        replay(match, CubeAnalyses(pending))
