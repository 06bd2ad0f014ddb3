"""What the tabla variants share: positions without gnubg IDs and the variant base class.

Every variant here is a :class:`~tabla_cli.variant.Backgammon` subclass whose
hooks feed the search of :mod:`tabla_cli.variants.search`; written plays are
matched by :mod:`tabla_cli.variants.written`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar, TypeVar

from tabla_cli.board import BAR, OFF, Dice, Play, Position, Resolution, Segment
from tabla_cli.errors import InvalidIdError
from tabla_cli.findings import Code
from tabla_cli.variants.position_text import TextFields, format_position, parse_position
from tabla_cli.variants.search import (
    SEARCH_LIMIT,
    Board,
    PathStep,
    SearchLimitError,
    SearchResult,
    TurnPlan,
    plain_plan,
    search,
    to_play,
)
from tabla_cli.variants.standard import Backgammon
from tabla_cli.variants.written import VariantResolution, format_steps, resolve

__all__ = ["NO_IDS", "TablaVariant", "VariantPosition", "VariantResolution", "with_changes"]

NO_IDS = "GNU Backgammon Position IDs and XGIDs exist only for standard backgammon, nackgammon and hypergammon"


@dataclass(frozen=True, slots=True, repr=False)
class VariantPosition(Position):
    """A position of a variant that gnubg cannot encode (no bar, other geometry).

    Same surface as :class:`~tabla_cli.board.Position` (``mover``,
    ``opponent``, ``flip()``, ``pips()``); :meth:`position_id` raises.
    Subclasses add the state their rules need, and put it in their text
    through :attr:`pinning`, :attr:`keeps_rolls`, :meth:`text_fields` and
    :meth:`from_text_fields`.
    """

    pinning: ClassVar[bool] = False
    """Whether a single checker can be pinned under opposing ones (its text marks it ``p``)."""
    keeps_rolls: ClassVar[bool] = False
    """Whether the position keeps the rolls made and the dice owed (its text adds ``rolls=`` and ``owed=``)."""

    def flip(self) -> VariantPosition:
        return type(self)(self.opponent, self.mover)

    def position_id(self) -> str:
        raise InvalidIdError(f"{NO_IDS}; this is a {type(self).__name__}")

    def text(self) -> str:
        """The position in our text format (see :mod:`tabla_cli.variants.position_text`)."""
        return format_position(self)

    @classmethod
    def from_text(cls, text: str) -> VariantPosition:
        """Read a position written by :meth:`text`."""
        return parse_position(cls, text)

    def text_fields(self) -> TextFields:
        """What :meth:`text` writes: here the checkers; subclasses add the state they keep."""
        return TextFields(self.mover, self.opponent)

    @classmethod
    def from_text_fields(cls, fields: TextFields) -> VariantPosition:
        """The position :meth:`from_text` read (only the fields that :meth:`text_fields` fills are given)."""
        return cls(fields.mover, fields.opponent)

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_text({self.text()!r})"

    @classmethod
    def opposite(cls, point: int) -> int:
        """The opponent's number for the mover's ``point`` (1..24)."""
        raise NotImplementedError


# --- options ------------------------------------------------------------------

O = TypeVar("O")


def with_changes(options: O, changes: dict[str, Any]) -> O:
    """``options`` with ``changes`` applied; unknown names raise ValueError."""
    known = {f.name for f in fields(options)}  # type: ignore[arg-type]
    unknown = sorted(set(changes) - known)
    if unknown:
        raise ValueError(f"unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    return replace(options, **changes)  # type: ignore[type-var]


# --- the variant base class ---------------------------------------------------------

V = TypeVar("V", bound="TablaVariant")


class TablaVariant(Backgammon):
    """Base of the variants that are not standard backgammon (no gnubg IDs, no bar).

    Subclasses set :attr:`position_class`, :attr:`options` and implement
    :meth:`board`, :meth:`plan`, :meth:`explain_play` hooks as needed.
    """

    has_gnubg_ids: ClassVar[bool] = False
    backgammons: ClassVar[bool] = False
    position_class: ClassVar[type[VariantPosition]] = VariantPosition
    options: ClassVar[Any] = None
    start_points: ClassVar[dict[int, int]] = {24: 15}
    tradition: ClassVar[str] = "greek"
    """``greek``, ``bulgarian`` or ``russian``: whose practice the defaults follow."""

    # --- construction -------------------------------------------------------------

    @classmethod
    def with_options(cls: type[V], **changes: Any) -> type[V]:
        """A variant like this one with some options changed.

        >>> from tabla_cli.variants import Plakoto
        >>> Plakoto.with_options(mother_checker=False).options.mother_checker
        False
        """
        options = with_changes(cls.options, changes)
        return type(cls.__name__, (cls,), {"options": options, "__doc__": cls.__doc__})

    @classmethod
    def position_from(cls, position: Position) -> Position:
        """``position`` as this variant's position class (a standard one gets no pins)."""
        if isinstance(position, cls.position_class):
            return position
        if position.mover[BAR] or position.opponent[BAR]:
            raise InvalidIdError(f"{cls.name} has no bar, but the position has checkers on it")
        return cls.position_class(position.mover, position.opponent)

    # --- hooks for subclasses ---------------------------------------------------------

    @classmethod
    def board(cls, position: Position, plan: TurnPlan) -> Board:
        raise NotImplementedError

    @classmethod
    def plan(cls, position: Position, dice: Dice) -> TurnPlan:
        return plain_plan(dice)

    @classmethod
    def make_result(cls, position: Position, snapshot: object, plan: TurnPlan, best: tuple[int, int]) -> Position:
        raise NotImplementedError

    @classmethod
    def filter_results(cls, position: Position, results: dict[Position, Play]) -> dict[Position, Play]:
        """Rules that judge whole plays (Fevga's trapping prime); default none."""
        return results

    @classmethod
    def filter_reason(cls, position: Position) -> tuple[str, str]:
        return (Code.ILLEGAL_PLAY, "is not one of the legal plays")

    @classmethod
    def finish_play(cls, position: Position, result: Position, path: tuple[PathStep, ...]) -> Play:
        """The :class:`Step` tuple of a search path that leads from ``position`` to ``result``."""
        return to_play(path)

    @classmethod
    def snapshot_of(cls, position: Position) -> object:
        """What a search's ``snapshot()`` would be for this result position."""
        return position.mover

    @classmethod
    def judges_plays(cls, position: Position) -> bool:
        """True when :meth:`filter_results` may reject plays in ``position``."""
        return False

    # --- generation -----------------------------------------------------------------

    @classmethod
    def _search(cls, position: Position, dice: Dice, *, stop_at_full: bool = False) -> tuple[TurnPlan, SearchResult]:
        """The search of every play of ``dice``; raises :class:`SearchLimitError` past :data:`SEARCH_LIMIT`."""
        plan = cls.plan(position, dice)
        result = search(cls.board(position, plan), plan, stop_at_full=stop_at_full)
        if not result.complete:
            raise SearchLimitError(
                f"the legal plays of {dice[0]}-{dice[1]} in {cls.name} here take more than "
                f"{SEARCH_LIMIT:,} positions to search"
            )
        return plan, result

    @classmethod
    def legal_plays(cls, position: Position, dice: Dice) -> dict[Position, Play]:
        """Every legal play, keyed by the resulting position (seen from the side that moved)."""
        position = cls.position_from(position)
        plan, result = cls._search(position, dice)
        out: dict[Position, Play] = {}
        for snap, path in result.found.items():
            after = cls.make_result(position, snap, plan, result.best)
            out[after] = cls.finish_play(position, after, path)
        return cls.filter_results(position, out)

    @classmethod
    def some_plays(cls, position: Position, dice: Dice, limit: int) -> tuple[list[Play], int]:
        """Up to ``limit`` legal plays, and how many there are (-1: not counted: more than shown, or the
        search gave up after :data:`SEARCH_LIMIT` // 4 positions and lists none)."""
        position = cls.position_from(position)
        if cls.judges_plays(position):
            try:
                legal = cls.legal_plays(position, dice)
            except SearchLimitError:
                return [], -1
            return list(legal.values())[:limit], len(legal)
        plan = cls.plan(position, dice)
        result = search(cls.board(position, plan), plan, cap=limit + 1, limit=SEARCH_LIMIT // 4)
        if not result.complete:
            return [], -1
        plays = [
            cls.finish_play(position, cls.make_result(position, snap, plan, result.best), path)
            for snap, path in result.found.items()
        ]
        if len(plays) > limit:
            return plays[:limit], -1
        return plays, len(plays)

    @classmethod
    def max_dice_playable(cls, position: Position, dice: Dice) -> int:
        """How many dice (owed and own) the best play uses."""
        position = cls.position_from(position)
        _, result = cls._search(position, dice, stop_at_full=True)
        return sum(result.best)

    @classmethod
    def is_legal(cls, position: Position, dice: Dice, play: Play) -> bool:
        """True if ``play`` is a complete legal play of ``dice``."""
        segments = tuple((s.src, s.dst, s.hit) for s in play)
        return cls.resolve_play(position, dice, segments).error is None

    # --- written plays --------------------------------------------------------------------

    @classmethod
    def resolve_play(cls, position: Position, dice: Dice, segments: tuple[Segment, ...]) -> Resolution:
        """Match a written play against the rules (see :func:`resolve`)."""
        return resolve(cls, cls.position_from(position), dice, segments)

    @classmethod
    def apply_written(cls, position: Position, segments: tuple[Segment, ...]) -> Position | None:
        raise NotImplementedError

    @classmethod
    def format_play(cls, position: Position, play: Play) -> str:
        return format_steps(play)

    @classmethod
    def allows_opening_double(cls, game_number: int) -> bool:
        """``opening_reroll`` (Greek, Russian): the opening winner rolls both dice again; later
        games are opened by the previous winner rolling both dice."""
        return bool(getattr(cls.options, "opening_reroll", True)) or game_number > 1

    # --- end of game ---------------------------------------------------------------------

    @classmethod
    def outcome(cls, position: Position) -> int:
        """1 or 2 (the loser has borne off none) for the side that bore off all."""
        return 1 if position.opponent[OFF] else 2
