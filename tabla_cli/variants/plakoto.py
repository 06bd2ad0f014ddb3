"""Plakoto (Πλακωτό) and Тапа (Tapa): pinning instead of hitting (rules.md §6).

Both sides start with all 15 checkers on their own 24-point and move in
opposite directions, as in backgammon (the mover's point ``p`` is the
opponent's ``25 - p``). There is no bar: a checker that lands on a single
opposing checker *pins* it; the pinned checker cannot move until every
pinning checker has left, the pinned side cannot land there, and the pinning
side may stack more checkers on the pin. A player with a pinned checker
cannot bear off.

:class:`PlakotoPosition` adds two bit masks to the checker counts:
``mover_pins`` has bit ``p`` set when the mover's checker on his point ``p``
is pinned, ``opponent_pins`` the same for the opponent in his numbering.
A step's ``hit`` flag means "this step pinned a checker".

>>> from tabla_cli.variants import Tapa
>>> start = Tapa.start_position()
>>> sorted(Tapa.format_play(start, p) for p in Tapa.legal_plays(start, (6, 5)).values())
['24/13', '24/19 24/18']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tabla_cli.board import OFF, Play, Position, Segment, Step
from tabla_cli.findings import Code
from tabla_cli.variants.common import TablaVariant, VariantPosition
from tabla_cli.variants.position_text import TextFields
from tabla_cli.variants.search import (
    PathStep,
    TurnPlan,
    bear_off_blocked,
    lands_on_held,
    no_checker,
    reaches,
    step_name,
)


@dataclass(frozen=True, slots=True, repr=False)
class PlakotoPosition(VariantPosition):
    """A Plakoto/Tapa position: checker counts plus who is pinned where.

    Attributes:
        mover_pins: bit ``p`` set = the mover's (single) checker on his point
            ``p`` is pinned under opposing checkers.
        opponent_pins: the same for the opponent, in his own numbering.
    """

    mover_pins: int = 0
    opponent_pins: int = 0
    pinning: ClassVar[bool] = True

    def flip(self) -> PlakotoPosition:
        return PlakotoPosition(self.opponent, self.mover, self.opponent_pins, self.mover_pins)

    def text_fields(self) -> TextFields:
        return TextFields(self.mover, self.opponent, self.mover_pins, self.opponent_pins)

    @classmethod
    def from_text_fields(cls, fields: TextFields) -> PlakotoPosition:
        return PlakotoPosition(fields.mover, fields.opponent, fields.mover_pins, fields.opponent_pins)

    @classmethod
    def opposite(cls, point: int) -> int:
        return 25 - point

    def apply(self, play: Play) -> PlakotoPosition:
        """The position after ``play`` (trusted), seen from the side that moved."""
        got = _apply(self, tuple((s.src, s.dst, False) for s in play))
        assert got is not None
        return got


@dataclass(frozen=True, slots=True)
class PlakotoOptions:
    """Where Plakoto practice differs (rules.md §6, §9).

    Attributes:
        mother_checker: the mother-checker rule: a player whose last checker
            on his starting point is pinned there loses 2 points at once,
            unless the pinner still has checkers on his own starting point;
            both mother checkers pinned = a draw (Greek practice, Ludii,
            msoworld). Bulgarian тапа sources do not have it.
        opening_reroll: the winner of the opening throw rolls both dice again
            (so an opening roll may be a double). Greek practice: yes;
            Bulgarian: the opening dice are played (no double in game 1).
    """

    mother_checker: bool = True
    opening_reroll: bool = True


class _PinBoard:
    """The mover's checkers and the pins, changed in place by a search."""

    __slots__ = ("me", "opp", "mp", "op", "undo")

    def __init__(self, position: PlakotoPosition) -> None:
        self.me = list(position.mover)
        self.opp = position.opponent
        self.mp = position.mover_pins
        self.op = position.opponent_pins
        self.undo: list[tuple[int, int, bool, bool]] = []

    def steps(self, die: int) -> list[tuple[int, int, bool]]:
        me, opp, mp = self.me, self.opp, self.mp
        out: list[tuple[int, int, bool]] = []
        home: bool | None = None
        for src in range(24, 0, -1):
            if not me[src] or (mp >> src) & 1:
                continue
            dst = src - die
            if dst > 0:
                n = opp[25 - dst]
                if n == 0:
                    out.append((src, dst, False))
                elif n == 1 and not (mp >> dst) & 1:
                    out.append((src, dst, me[dst] == 0))
            else:
                if home is None:
                    home = not mp and not any(me[7:25])
                if home and (dst == 0 or not any(me[src + 1 : 7])):
                    out.append((src, OFF, False))
        return out

    def push(self, src: int, dst: int, flag: bool) -> None:
        me = self.me
        me[src] -= 1
        me[dst] += 1
        freed = False
        if not me[src] and (self.op >> (25 - src)) & 1:
            self.op &= ~(1 << (25 - src))
            freed = True
        if flag:
            self.op |= 1 << (25 - dst)
        self.undo.append((src, dst, flag, freed))

    def pop(self) -> None:
        src, dst, flag, freed = self.undo.pop()
        if flag:
            self.op &= ~(1 << (25 - dst))
        if freed:
            self.op |= 1 << (25 - src)
        self.me[src] += 1
        self.me[dst] -= 1

    def key(self) -> object:
        return (tuple(self.me), self.op)

    def snapshot(self) -> object:
        return (tuple(self.me), self.op)

    def reaches(self, goal: tuple[int, ...]) -> bool:
        return reaches(self.me, goal)

    def explain(self, src: int, die: int) -> tuple[str, str]:
        me, opp, mp = self.me, self.opp, self.mp
        dst = max(src - die, OFF)
        name = step_name(src, dst)
        if not me[src]:
            return no_checker(name, src)
        if (mp >> src) & 1:
            return (Code.PINNED_CHECKER, f"'{name}' moves the checker pinned on the {src}-point")
        if dst == OFF:
            if mp:
                pinned = ", ".join(str(p) for p in range(24, 0, -1) if (mp >> p) & 1)
                return (Code.PINNED_CHECKER, f"'{name}' bears off while a checker is pinned (on {pinned})")
            return bear_off_blocked(name, me, die)
        if (mp >> dst) & 1:
            return (Code.PINNED_CHECKER, f"'{name}' lands on the {dst}-point, where the opponent pins our checker")
        if opp[25 - dst] >= 2:
            return lands_on_held(name, dst)
        return (Code.ILLEGAL_PLAY, f"'{name}' is not a legal step")


def _apply(position: PlakotoPosition, segments: tuple[Segment, ...]) -> PlakotoPosition | None:
    """Move checkers as written (no dice); None when a move is impossible."""
    me = list(position.mover)
    opp = position.opponent
    mp, op = position.mover_pins, position.opponent_pins
    for src, dst, _ in segments:
        if not (0 < src <= 24) or not me[src] or dst < OFF:
            return None
        if dst and (opp[25 - dst] >= 2 or (mp >> dst) & 1):
            return None
        me[src] -= 1
        me[dst] += 1
        if not me[src]:
            op &= ~(1 << (25 - src))
        if dst and opp[25 - dst] == 1:
            op |= 1 << (25 - dst)
        if not me[src] and (mp >> src) & 1:
            mp &= ~(1 << src)
    return PlakotoPosition(tuple(me), opp, mp, op)


def mother_pinned(side: tuple[int, ...], pins: int) -> bool:
    """True when the last checker on this side's starting point (24) is pinned there."""
    return side[24] == 1 and bool((pins >> 24) & 1)


class Plakoto(TablaVariant):
    """Plakoto (Greek, Πλακωτό): pinning, the mother-checker rule (Greek practice)."""

    name: ClassVar[str] = "plakoto"
    aliases: ClassVar[tuple[str, ...]] = ("plakoto", "πλακωτό", "πλακωτο", "plakoto (greek)")
    position_class: ClassVar[type[VariantPosition]] = PlakotoPosition
    options: ClassVar[PlakotoOptions] = PlakotoOptions()
    tradition: ClassVar[str] = "greek"

    @classmethod
    def position_from(cls, position: Position) -> Position:
        if isinstance(position, PlakotoPosition):
            return position
        base = super().position_from(position)
        assert isinstance(base, VariantPosition)
        return PlakotoPosition(base.mover, base.opponent)

    @classmethod
    def board(cls, position: Position, plan: TurnPlan) -> _PinBoard:
        assert isinstance(position, PlakotoPosition)
        return _PinBoard(position)

    @classmethod
    def make_result(cls, position: Position, snapshot: object, plan: TurnPlan, best: tuple[int, int]) -> Position:
        assert isinstance(position, PlakotoPosition)
        assert isinstance(snapshot, tuple)
        me: tuple[int, ...] = snapshot[0]
        op: int = snapshot[1]
        return PlakotoPosition(me, position.opponent, position.mover_pins, op)

    @classmethod
    def finish_play(cls, position: Position, result: Position, path: tuple[PathStep, ...]) -> Play:
        """Steps whose ``hit`` flag marks the first landing on each point pinned by the play.

        A pin made and released within the play (or a pin released and made
        again) leaves no trace and gets no ``*``: which checkers pass through
        a point is not fixed by the written play, the final pins are.
        """
        assert isinstance(position, PlakotoPosition) and isinstance(result, PlakotoPosition)
        new = result.opponent_pins & ~position.opponent_pins
        marked: set[int] = set()
        steps = []
        for src, dst, _, _, _ in path:
            hit = bool(dst) and dst not in marked and bool((new >> (25 - dst)) & 1)
            if hit:
                marked.add(dst)
            steps.append(Step(src, dst, hit))
        return tuple(steps)

    @classmethod
    def snapshot_of(cls, position: Position) -> object:
        assert isinstance(position, PlakotoPosition)
        return (position.mover, position.opponent_pins)

    @classmethod
    def apply_written(cls, position: Position, segments: tuple[Segment, ...]) -> Position | None:
        pos = cls.position_from(position)
        assert isinstance(pos, PlakotoPosition)
        return _apply(pos, segments)

    @classmethod
    def allows_opening_double(cls, game_number: int) -> bool:
        return cls.options.opening_reroll or game_number > 1

    @classmethod
    def position_problem(cls, position: Position) -> str | None:
        """Also: the side on roll has already lost by the mother-checker rule."""
        problem = super().position_problem(position)
        if problem is None and isinstance(position, PlakotoPosition):
            other = PlakotoPosition(position.opponent, position.mover, position.opponent_pins, position.mover_pins)
            if cls._mother(other) == 2:
                problem = (
                    "the side on roll has already lost by the mother-checker rule "
                    "(its last checker on its 24-point is pinned, the other side has none left on its own)"
                )
        return problem

    @classmethod
    def is_over(cls, position: Position) -> bool:
        """All borne off, both mother checkers pinned (a draw), or a mother-checker win."""
        if position.mover[OFF] == cls.checkers:
            return True
        return cls._mother(position) is not None

    @classmethod
    def _mother(cls, position: Position) -> int | None:
        """2 = the mover wins by the mother-checker rule, 0 = a draw, None = the game goes on.

        Both mother checkers pinned is a draw with or without the rule: the
        pinners stand on their own 1-points and cannot bear off while their
        own mother checker is pinned, so neither side can ever finish.
        """
        if not isinstance(position, PlakotoPosition):
            return None
        if not mother_pinned(position.opponent, position.opponent_pins):
            return None
        if mother_pinned(position.mover, position.mover_pins):
            return 0
        if cls.options.mother_checker and position.mover[24] == 0:
            return 2
        return None

    @classmethod
    def outcome(cls, position: Position) -> int:
        """1 or 2 (gammon: the loser has borne off none); 2 for a mother-checker win; 0 = draw."""
        if position.mover[OFF] == cls.checkers:
            return 1 if position.opponent[OFF] else 2
        mother = cls._mother(position)
        return 1 if mother is None else mother


class Tapa(Plakoto):
    """Тапа (Tapa), the Bulgarian Plakoto: no mother-checker rule, opening dice played."""

    name: ClassVar[str] = "tapa"
    aliases: ClassVar[tuple[str, ...]] = ("tapa", "тапа", "tapa (bulgarian)")
    options: ClassVar[PlakotoOptions] = PlakotoOptions(mother_checker=False, opening_reroll=False)
    tradition: ClassVar[str] = "bulgarian"
