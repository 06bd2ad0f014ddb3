"""GNU Backgammon's Base64 keys and the Position ID of two sides of checkers.

The bit-level half of the Position ID (``docs/formats.md``), on plain tuples so that
:mod:`tabla_cli.board` can use it without importing :mod:`tabla_cli.ids`
(the IDs and their match state). A *side* is a
:class:`~tabla_cli.board.Position` side: 26 counters, index 0 borne off,
1..24 the points, 25 the bar.

>>> side = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
>>> encode_sides(side, side, 15)
'4HPwATDgc/ABMA'
>>> decode_sides('4HPwATDgc/ABMA', strict=True, checkers=15) == (side, side)
True
"""

from __future__ import annotations

from collections.abc import Sequence

from tabla_cli.errors import InvalidIdError

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_SEXTET = {char: value for value, char in enumerate(ALPHABET)}

POSITION_ID_LENGTH = 14
BOARD_SLOTS = 25
"""A gnubg board: the side's points 1..24 at 0..23 and the bar at 24."""

_POSITION_BITS = 80
_ZEROS = 50

Board = tuple[int, ...]
"""gnubg's view of one side: 25 counters, own points 1..24 at 0..23, the bar at 24."""

Side = tuple[int, ...]


# --- Base64 ------------------------------------------------------------------


def sextets(text: str, what: str, length: int) -> int:
    """The ``6 * length`` bits of ``text`` as a big-endian integer.

    Raises:
        InvalidIdError: on a wrong length or a character outside the alphabet.
    """
    if len(text) != length:
        raise InvalidIdError(f"{what} {text!r} has {len(text)} characters, expected {length}")
    value = 0
    for column, char in enumerate(text, 1):
        if char not in _SEXTET:
            raise InvalidIdError(f"{what} {text!r} has {char!r} at column {column}, outside the Base64 alphabet")
        value = value << 6 | _SEXTET[char]
    return value


def chars(value: int, length: int) -> str:
    """Write the top ``6 * length`` bits of big-endian ``value`` as Base64."""
    return "".join(ALPHABET[value >> 6 * (length - 1 - i) & 63] for i in range(length))


def lsb_first(value: int, size: int) -> int:
    """Reorder ``size`` big-endian bytes so that bit ``k`` is byte ``k // 8``, bit ``k % 8``."""
    return int.from_bytes(value.to_bytes(size, "big"), "little")


def msb_first(bits: int, size: int) -> int:
    """Inverse of :func:`lsb_first`."""
    return int.from_bytes(bits.to_bytes(size, "little"), "big")


# --- boards ------------------------------------------------------------------


def board_of(side: Sequence[int]) -> Board:
    """A side (off, 1..24, bar) as a gnubg board."""
    return tuple(side[1 : BOARD_SLOTS + 1])


def side_of(board: Board, checkers: int) -> Side:
    """A gnubg board as a side; the rest of ``checkers`` are off."""
    return (checkers - sum(board), *board)


def board_problem(other: Board, on_roll: Board, checkers: int) -> str | None:
    """Why two boards cannot be a position (gnubg's ``CheckPosition``), or None."""
    for name, board in (("the side on roll", on_roll), ("the side not on roll", other)):
        if sum(board) > checkers:
            return f"{name} has {sum(board)} checkers, more than {checkers}"
    for i in range(24):
        if other[i] and on_roll[23 - i]:
            return f"both sides have checkers on the same point (the on-roll side's {24 - i}-point)"
    closed = all(board[i] >= 2 for board in (other, on_roll) for i in range(6))
    if closed and other[24] and on_roll[24]:
        return "both sides are on the bar against closed boards, so nobody can move"
    return None


# --- Position ID ---------------------------------------------------------------


def _unpack(bits: int, what: str) -> tuple[Board, Board, int]:
    """Read both boards from the 80 key bits; also return the bits after them.

    Raises:
        InvalidIdError: if the bits run out before 50 zero-bits.
    """
    boards = [[0] * BOARD_SLOTS, [0] * BOARD_SLOTS]
    side = slot = k = 0
    while side < 2:
        if k == _POSITION_BITS:
            raise InvalidIdError(f"{what} describes more than 30 checkers (fewer than {_ZEROS} zero bits)")
        if bits >> k & 1:
            boards[side][slot] += 1
        else:
            slot += 1
            if slot == BOARD_SLOTS:
                side, slot = side + 1, 0
        k += 1
    return tuple(boards[0]), tuple(boards[1]), bits >> k


def decode_sides(text: str, *, strict: bool, checkers: int) -> tuple[Side, Side]:
    """Decode a Position ID into ``(side on roll, other side)``.

    Raises:
        InvalidIdError: on a wrong length, a character outside the alphabet,
            too many one-bits, an illegal board or (strict) padding bits.
    """
    what = "Position ID"
    value = sextets(text, what, POSITION_ID_LENGTH)
    if strict and value & 0xF:
        raise InvalidIdError(f"{what} {text!r} has non-zero padding bits in its last character")
    bits = lsb_first(value >> 4, _POSITION_BITS // 8)
    other, on_roll, rest = _unpack(bits, f"{what} {text!r}")
    if strict and rest:
        raise InvalidIdError(f"{what} {text!r} has one-bits after its 50th zero bit")
    problem = board_problem(other, on_roll, checkers)
    if problem:
        raise InvalidIdError(f"{what} {text!r} is not a legal position: {problem}")
    return side_of(on_roll, checkers), side_of(other, checkers)


def encode_sides(mover: Side, opponent: Side, checkers: int) -> str:
    """The Position ID of ``mover`` (on roll) against ``opponent``.

    Raises:
        InvalidIdError: if a side has a negative count or more than
            ``checkers`` on the board and bar.
    """
    bits = k = 0
    for name, side in (("opponent", opponent), ("mover", mover)):
        board = board_of(side)
        if min(board) < 0 or sum(board) > checkers:
            raise InvalidIdError(f"cannot encode a Position ID: the {name} has counts {board}")
        for count in board:
            bits |= ((1 << count) - 1) << k
            k += count + 1
    return chars(msb_first(bits, _POSITION_BITS // 8) << 4, POSITION_ID_LENGTH)
