"""SGF values that both the game record and its analysis read: point letters and escaped text.

Points are letters in one frame, White's numbering: ``a`` is White's 1-point
(Black's 24-point), ``x`` White's 24-point, ``y`` the bar of the player
moving, ``z`` off the board.
"""

from __future__ import annotations

import re

from tabla_cli.board import BAR, OFF, Player

__all__ = ["letter_point", "point_letter", "unescape"]

_ESCAPE = re.compile(r"\\(?:\n|([\s\S]))")


def point_letter(point: int, player: Player) -> str:
    """The SGF letter of ``point`` (in ``player``'s own numbering; 25 = bar, 0 = off).

    >>> point_letter(8, Player.ZERO), point_letter(13, Player.ONE), point_letter(25, Player.ONE), point_letter(0, Player.ZERO)
    ('h', 'l', 'y', 'z')
    """
    if point == BAR:
        return "y"
    if point == OFF:
        return "z"
    return chr(ord("a") + point - 1) if player is Player.ZERO else chr(ord("x") - point + 1)


def letter_point(letter: str, player: Player) -> int:
    """The point (in ``player``'s numbering) of an SGF letter: ``y`` = bar (25), ``z`` = off (0).

    >>> letter_point("h", Player.ZERO), letter_point("l", Player.ONE), letter_point("y", Player.ZERO)
    (8, 13, 25)
    """
    if letter == "y":
        return BAR
    if letter == "z":
        return OFF
    index = ord(letter) - ord("a") + 1
    return index if player is Player.ZERO else 25 - index


def unescape(raw: str) -> str:
    """SGF text value: ``\\`` escapes the next character; ``\\`` + newline is removed.

    >>> unescape(r"a\\]b")
    'a]b'
    """
    if "\\" not in raw:
        return raw
    return _ESCAPE.sub(lambda m: m.group(1) or "", raw)
