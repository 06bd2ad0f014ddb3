"""Standard backgammon and its direct relatives: Portes, Nackgammon, Hypergammon.

:class:`Backgammon` is the base of every variant (the tabla family in
:mod:`tabla_cli.variants` subclasses it); :mod:`tabla_cli.variant` keeps the
list of variants and finds one by name.

>>> Nackgammon.start_position().pips()
(194, 194)
"""

from __future__ import annotations

from typing import ClassVar

from tabla_cli import board
from tabla_cli.board import OFF, Dice, Play, Position, Resolution, Segment
from tabla_cli.notation import format_play, parse_play


class Backgammon:
    """Standard backgammon (права табла, the first game of a Bulgarian series)."""

    name: ClassVar[str] = "backgammon"
    aliases: ClassVar[tuple[str, ...]] = (
        "backgammon",
        "standard",
        "tabla",
        "табла",
        "права табла",
    )
    checkers: ClassVar[int] = 15
    start_points: ClassVar[dict[int, int]] = {24: 2, 13: 5, 8: 3, 6: 5}
    has_gnubg_ids: ClassVar[bool] = True
    backgammons: ClassVar[bool] = True
    position_class: ClassVar[type[Position]] = Position

    @classmethod
    def start_position(cls) -> Position:
        """The opening position of this variant."""
        side = [0] * 26
        for point, n in cls.start_points.items():
            side[point] = n
        side[OFF] = cls.checkers - sum(side)
        return cls.position_class(tuple(side), tuple(side))

    @classmethod
    def legal_plays(cls, position: Position, dice: Dice) -> dict[Position, Play]:
        """Every legal play, keyed by the resulting position."""
        return board.legal_plays(position, dice)

    @classmethod
    def some_plays(cls, position: Position, dice: Dice, limit: int) -> tuple[list[Play], int]:
        """Up to ``limit`` legal plays and how many there are (-1: more than listed, not counted)."""
        legal = cls.legal_plays(position, dice)
        return list(legal.values())[:limit], len(legal)

    @classmethod
    def resolve_play(cls, position: Position, dice: Dice, segments: tuple[Segment, ...]) -> Resolution:
        """Match a written play against this variant's rules."""
        return board.resolve_play(position, dice, segments)

    @classmethod
    def position_from(cls, position: Position) -> Position:
        """``position`` as this variant's position class (standard: unchanged)."""
        return position

    @classmethod
    def apply_written(cls, position: Position, segments: tuple[Segment, ...]) -> Position | None:
        """Move checkers as written, ignoring the dice (for going on after an illegal play); None if impossible."""
        return board.apply_segments(position, segments)

    @classmethod
    def parse_play(cls, text: str) -> tuple[Segment, ...]:
        """Read a written play (:func:`tabla_cli.notation.parse_play`)."""
        return parse_play(text)

    @classmethod
    def format_play(cls, position: Position, play: Play) -> str:
        """Write a play (:func:`tabla_cli.notation.format_play`)."""
        return format_play(position, play)

    @classmethod
    def allows_opening_double(cls, game_number: int) -> bool:
        """Whether game ``game_number`` may open with a double (standard: ties are thrown again)."""
        return False

    @classmethod
    def position_problem(cls, position: Position) -> str | None:
        """Why no game of this variant reaches ``position`` with ``mover`` to play, or None.

        >>> Backgammon.position_problem(Position.from_points({}, {}))
        'both sides have borne off all 15 checkers'
        """
        for name, side in (("the side on roll", position.mover), ("the other side", position.opponent)):
            if sum(side) != cls.checkers:
                return f"{name} has {sum(side)} checkers, not {cls.checkers}"
        if position.mover[OFF] == position.opponent[OFF] == cls.checkers:
            return f"both sides have borne off all {cls.checkers} checkers"
        return None

    @classmethod
    def is_over(cls, position: Position) -> bool:
        """True when the side that just moved (``mover``) has borne off all."""
        return position.mover[OFF] == cls.checkers

    @classmethod
    def outcome(cls, position: Position) -> int:
        """1, 2 or 3 for the winner (``mover``, all borne off): single, gammon, backgammon."""
        loser = position.opponent
        if loser[OFF]:
            return 1
        if cls.backgammons and any(loser[19:26]):
            return 3
        return 2


class Portes(Backgammon):
    """Portes (Greek, Πόρτες): standard moves, no backgammon (×3), the opening winner rolls both dice again."""

    name: ClassVar[str] = "portes"
    aliases: ClassVar[tuple[str, ...]] = ("portes", "πόρτες", "πορτες")
    backgammons: ClassVar[bool] = False

    @classmethod
    def allows_opening_double(cls, game_number: int) -> bool:
        return True


class Nackgammon(Backgammon):
    """Nackgammon: standard rules from a start with more back checkers."""

    name: ClassVar[str] = "nackgammon"
    aliases: ClassVar[tuple[str, ...]] = ("nackgammon", "nack")
    start_points: ClassVar[dict[int, int]] = {24: 2, 23: 2, 13: 4, 8: 3, 6: 4}


class Hypergammon3(Backgammon):
    """Hypergammon with three checkers each on the 24, 23 and 22 points."""

    name: ClassVar[str] = "hypergammon"
    aliases: ClassVar[tuple[str, ...]] = ("hypergammon", "hypergammon (3)", "hypergammon3")
    checkers: ClassVar[int] = 3
    start_points: ClassVar[dict[int, int]] = {24: 1, 23: 1, 22: 1}


class Hypergammon2(Hypergammon3):
    """Hypergammon with two checkers (24 and 23 points)."""

    name: ClassVar[str] = "hypergammon2"
    aliases: ClassVar[tuple[str, ...]] = ("hypergammon (2)", "hypergammon2")
    checkers: ClassVar[int] = 2
    start_points: ClassVar[dict[int, int]] = {24: 1, 23: 1}


class Hypergammon1(Hypergammon3):
    """Hypergammon with one checker (24 point)."""

    name: ClassVar[str] = "hypergammon1"
    aliases: ClassVar[tuple[str, ...]] = ("hypergammon (1)", "hypergammon1")
    checkers: ClassVar[int] = 1
    start_points: ClassVar[dict[int, int]] = {24: 1}
