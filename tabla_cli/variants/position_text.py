"""Our text format for variant positions (gnubg and XG IDs cannot hold them).

A position is written from the side on roll::

    MOVER / OPPONENT [/ EXTRA ...]

Each side is a list of ``POINT:COUNT`` items in **that side's own numbering**
(24 = its starting point, 1..6 = its home board), separated by blanks or
commas, plus ``off:N`` for checkers borne off (when omitted: 15 minus the
checkers on the board). In Tapa/Plakoto a ``p`` after the count marks a
pinned checker (the count is then 1, and the other side has a checker on the
same point: the mover's point ``p`` is the opponent's ``25 - p``). In the
parallel games the mover's point ``p`` is the opponent's ``p ± 12`` and no
point holds checkers of both sides. Gulbara adds ``rolls=M,O`` (rolls each
side has had in this game, the side on roll first, kept up to 3) and
``owed=d,d`` / ``owed-other=d,d`` (dice of a progression passed to the side
on roll / to the other side). :func:`format_position` writes points from 24
down and ``off:N`` only when N > 0.

Each position class says what its text holds: :class:`TextFields` is what
is read and written, :meth:`~tabla_cli.variants.common.VariantPosition.text_fields`
and ``from_text_fields`` turn a position into it and back, and the class
variables ``pinning`` and ``keeps_rolls`` say whether pins and the Gulbara
extras may be given. So this module knows no position class.

>>> from tabla_cli.variants import PlakotoPosition
>>> pos = parse_position(PlakotoPosition, "24:13 18:1 6:1p / 24:13 19:2")
>>> pos.mover_pins == 1 << 6, pos.mover[OFF], format_position(pos)
(True, 0, '24:13 18:1 6:1p / 24:13 19:2')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tabla_cli.board import OFF
from tabla_cli.errors import InvalidIdError

if TYPE_CHECKING:
    from tabla_cli.variants.common import VariantPosition

__all__ = ["TextFields", "board_lines", "format_position", "parse_position"]

CHECKERS = 15
_ITEM = re.compile(r"^(?P<point>[0-9]{1,2}|off):(?P<count>[0-9]{1,2})(?P<pin>p?)$", re.IGNORECASE)
_DICE = re.compile(r"^[1-6](?:,[1-6])*$")


@dataclass(frozen=True, slots=True)
class TextFields:
    """What the text of a position holds; each position class keeps the fields its rules need.

    Attributes:
        mover: the side on roll's checker counts (26 entries, ``OFF`` = borne
            off), in its own numbering.
        opponent: the same for the other side.
        mover_pins: bit ``p`` set = the mover's checker on his point ``p`` is
            pinned (Tapa/Plakoto).
        opponent_pins: the same for the other side, in its own numbering.
        rolls: rolls each side has had, the side on roll first (Gulbara), or
            None where they are not kept (then there is no third part).
        mover_owed: dice of a progression passed to the side on roll (Gulbara).
        opponent_owed: dice passed to the other side (Gulbara).
    """

    mover: tuple[int, ...]
    opponent: tuple[int, ...]
    mover_pins: int = 0
    opponent_pins: int = 0
    rolls: tuple[int, int] | None = None
    mover_owed: tuple[int, ...] = ()
    opponent_owed: tuple[int, ...] = ()


def _fail(text: str, why: str) -> InvalidIdError:
    return InvalidIdError(f"bad position text {text!r}: {why}")


def _side(text: str, part: str, who: str) -> tuple[list[int], set[int]]:
    side = [0] * 26
    pins: set[int] = set()
    seen: set[str] = set()
    off: int | None = None
    for word in re.split(r"[\s,]+", part.strip()):
        if not word:
            continue
        found = _ITEM.match(word)
        if found is None:
            raise _fail(text, f"{who}: {word!r} is not POINT:COUNT, POINT:1p or off:COUNT")
        key = found["point"].lower()
        if key in seen:
            raise _fail(text, f"{who}: {key} is given twice")
        seen.add(key)
        count = int(found["count"])
        if key == "off":
            if found["pin"]:
                raise _fail(text, f"{who}: a borne-off checker cannot be pinned")
            off = count
            continue
        point = int(key)
        if not 1 <= point <= 24:
            raise _fail(text, f"{who}: point {point} is not 1-24 (there is no bar in these games)")
        if count < 1:
            raise _fail(text, f"{who}: point {point} has no checkers; leave it out")
        if found["pin"]:
            if count != 1:
                raise _fail(text, f"{who}: only a single checker can be pinned (point {point} has {count})")
            pins.add(point)
        side[point] = count
    on_board = sum(side)
    if off is None:
        off = CHECKERS - on_board
    if off < 0 or on_board + off != CHECKERS:
        raise _fail(text, f"{who} has {on_board} checkers on the board and {off} off, not {CHECKERS}")
    side[OFF] = off
    return side, pins


def _dice(text: str, value: str, key: str) -> tuple[int, ...]:
    if not value:
        return ()
    if not _DICE.match(value):
        raise _fail(text, f"{key}={value!r}: give dice 1-6 separated by commas")
    return tuple(int(d) for d in value.split(","))


def parse_position(cls: type[VariantPosition], text: str) -> VariantPosition:
    """Read a position of class ``cls`` (see the module doc for the format).

    Raises:
        InvalidIdError: the text is not a valid position.
    """
    parts = text.split("/")
    if len(parts) not in (2, 3):
        raise _fail(text, "write MOVER / OPPONENT, e.g. '24:15 / 24:15'")
    mover, mine = _side(text, parts[0], "the side on roll")
    opponent, theirs = _side(text, parts[1], "the other side")
    opposite = cls.opposite
    pin_bits = (0, 0)
    if cls.pinning:
        for point in range(1, 25):
            other = opposite(point)
            if mover[point] and opponent[other]:
                pinned = (point in mine) + (other in theirs)
                if pinned != 1:
                    raise _fail(
                        text,
                        f"the mover's {point}-point holds checkers of both sides: mark the one pinned checker with 'p'",
                    )
            elif point in mine or other in theirs:
                raise _fail(
                    text,
                    f"a checker is marked pinned on the mover's {point}-point, but the other side has no checker there",
                )
        pin_bits = (sum(1 << p for p in mine), sum(1 << p for p in theirs))
    else:
        if mine or theirs:
            raise _fail(text, "only Tapa/Plakoto checkers can be pinned")
        for point in range(1, 25):
            if mover[point] and opponent[opposite(point)]:
                raise _fail(
                    text,
                    f"both sides have checkers on the mover's {point}-point "
                    f"(it is the other side's {opposite(point)}-point)",
                )
    extras: dict[str, str] = {}
    if len(parts) == 3:
        for word in parts[2].split():
            key, sep, value = word.partition("=")
            if not sep or key.lower() not in ("rolls", "owed", "owed-other") or key.lower() in extras:
                raise _fail(text, f"{word!r}: extras are rolls=M,O, owed=d,d and owed-other=d,d")
            extras[key.lower()] = value
    if extras and not cls.keeps_rolls:
        raise _fail(text, "rolls and owed dice are only kept in Gulbara positions")
    rolls: tuple[int, int] | None = None
    owed: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    if cls.keeps_rolls:
        given = extras.get("rolls", "0,0")
        found = re.fullmatch(r"([0-9]{1,3}),([0-9]{1,3})", given)
        if found is None:
            raise _fail(text, f"rolls={given!r}: write rolls=M,O (the side on roll first)")
        rolls = int(found[1]), int(found[2])
        owed = _dice(text, extras.get("owed", ""), "owed"), _dice(text, extras.get("owed-other", ""), "owed-other")
    fields = TextFields(tuple(mover), tuple(opponent), *pin_bits, rolls, *owed)
    return cls.from_text_fields(fields)


def _format_side(side: tuple[int, ...], pins: int) -> str:
    words = [f"{p}:{side[p]}{'p' if (pins >> p) & 1 else ''}" for p in range(24, 0, -1) if side[p]]
    if side[OFF] or not words:
        words.append(f"off:{side[OFF]}")
    return " ".join(words)


def format_position(position: VariantPosition) -> str:
    """Write a variant position in our text format."""
    fields = position.text_fields()
    text = f"{_format_side(fields.mover, fields.mover_pins)} / {_format_side(fields.opponent, fields.opponent_pins)}"
    if fields.rolls is not None:
        text += f" / rolls={fields.rolls[0]},{fields.rolls[1]}"
        if fields.mover_owed:
            text += " owed=" + ",".join(map(str, fields.mover_owed))
        if fields.opponent_owed:
            text += " owed-other=" + ",".join(map(str, fields.opponent_owed))
    return text


# --- drawing ---------------------------------------------------------------------

_TOP = " +13-14-15-16-17-18------19-20-21-22-23-24-+"
_BOTTOM = " +12-11-10--9--8--7-------6--5--4--3--2--1-+"


def _stack(position: VariantPosition, point: int) -> list[str]:
    """The checkers on the mover's ``point``, bottom first: X = mover, O = other, lower case = pinned."""
    mine = position.mover[point]
    other = position.opposite(point)
    theirs = position.opponent[other]
    if position.pinning and mine and theirs:
        if (position.text_fields().mover_pins >> point) & 1:
            return ["x"] + ["O"] * theirs
        return ["o"] + ["X"] * mine
    return ["X"] * mine + ["O"] * theirs


def _cell(stack: list[str], row: int) -> str:
    if len(stack) <= row:
        return " "
    if row == 4 and len(stack) > 5:
        return str(len(stack)) if len(stack) < 10 else "+"
    return stack[row]


def board_lines(position: VariantPosition) -> list[str]:
    """The board seen by the side on roll (X, moving 24 -> 1 along the bottom last).

    Points are numbered from the side on roll; a lower-case ``x``/``o`` at the
    foot of a stack is a pinned checker.
    """
    upper = list(range(13, 25))
    lower = list(range(12, 0, -1))
    lines = [_TOP]
    for row in range(5):
        lines.append(_row(position, upper, row))
    lines.append(" |                  |   |                  |")
    for row in range(4, -1, -1):
        lines.append(_row(position, lower, row))
    lines.append(_BOTTOM)
    return lines


def _row(position: VariantPosition, points: list[int], row: int) -> str:
    cells = [f" {_cell(_stack(position, p), row)} " for p in points]
    return f" |{''.join(cells[:6])}|   |{''.join(cells[6:])}|"
