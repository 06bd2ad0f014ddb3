"""GNU Backgammon's Position ID of a :class:`~tabla_cli.board.Position` (see ``docs/formats.md``).

The position is always seen from the side on roll: ``mover`` is gnubg's
``board[1]``, the second half of the ID. The bits are
:mod:`tabla_cli.position_key`'s.

>>> decode_position_id("4HPwATDgc/ABMA") == Position.start()
True
"""

from __future__ import annotations

from tabla_cli.board import CHECKERS, Position
from tabla_cli.position_key import POSITION_ID_LENGTH, decode_sides, encode_sides

__all__ = ["POSITION_ID_LENGTH", "decode_position_id", "encode_position_id"]


def decode_position_id(text: str, *, strict: bool = True, checkers: int = CHECKERS) -> Position:
    """Decode a gnubg Position ID; the side on roll becomes ``mover``.

    Args:
        text: the 14-character ID, case-sensitive, nothing around it.
        strict: reject non-zero padding bits; lenient mode ignores them as
            gnubg does.
        checkers: checkers per side (3 for Hypergammon); the ones not on the
            board are borne off.

    Returns:
        The position.

    Raises:
        InvalidIdError: on a wrong length, a character outside the alphabet,
            too many one-bits, an illegal board or (strict) padding bits.

    >>> decode_position_id("ADAAAQAkIAAAAA", checkers=3).mover[0]
    0
    """
    return Position(*decode_sides(text, strict=strict, checkers=checkers))


def encode_position_id(pos: Position) -> str:
    """The gnubg Position ID of ``pos`` (``mover`` is the side on roll).

    Raises:
        InvalidIdError: if a side has a negative count or more than 15
            checkers on the board and bar.

    >>> encode_position_id(Position.from_points({6: 1}, {}))
    'AAAAQAAAAAAAAA'
    """
    return encode_sides(pos.mover, pos.opponent, CHECKERS)
