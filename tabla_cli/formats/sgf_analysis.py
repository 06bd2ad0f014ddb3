"""Read the analysis GNU Backgammon records in an SGF file: ``A`` and ``LU`` (a play), ``DA`` (a cube decision).

The game record itself is read by :mod:`tabla_cli.formats.sgf`; this module
turns the analysis properties of its move nodes into each action's
:attr:`~tabla_cli.model.Action.analysis`.

A play's analysis (``A[...]``, ``LU[...]``) needs nothing but the node. A
cube analysis (``DA[...]``) is written in match-winning chances at the score
and the cube of the moment, which the file does not write: it is kept as
written (:class:`~tabla_cli.evaluation.recorded.WrittenCube`) and read where
the replay gives that state (:func:`tabla_cli.visitor.recorded_at`). ``DA``
on a roll is the decision not to double before it; on a double, a take or a
drop, that double (not a beaver, as in gnubg).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from tabla_cli.board import Player, Step
from tabla_cli.evaluation.recorded import RecordedAnalysis, WrittenCube, parse_sgf_move_analysis
from tabla_cli.evaluation.types import CubeAction
from tabla_cli.formats._sgf_values import letter_point, unescape
from tabla_cli.model import ActionKind
from tabla_cli.notation import format_play_plain

__all__ = ["cube_made", "move_analysis", "with_written_cube"]

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


def with_written_cube(recorded: RecordedAnalysis | None, value: str, made: CubeAction) -> RecordedAnalysis:
    """``recorded`` (the node's play analysis, if any) with the ``DA`` value ``value``, kept as written."""
    written = WrittenCube(unescape(value), made, alone=recorded is None)
    return dataclasses.replace(recorded or RecordedAnalysis(), written_cube=written)
