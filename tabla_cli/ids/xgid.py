"""eXtreme Gammon's XGID (see ``docs/formats.md``): a position and match state in one line.

An XGID's X is gnubg's player 1; the position is oriented with the player on
roll as ``mover``.

>>> position, state = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:-1:31:0:0:0:5:10")
>>> format_xgid(position, state)
'XGID=-b----E-C---eE---c-e----B-:0:0:-1:31:0:0:0:5:10'
"""

from __future__ import annotations

import re

from tabla_cli.board import CHECKERS, Player, Position
from tabla_cli.errors import InvalidIdError
from tabla_cli.ids.match import MAX_CUBE_EXP, MAX_MATCH_LENGTH, PLAYING, MatchState, strict_problem
from tabla_cli.position_key import BOARD_SLOTS, Board, board_of, board_problem, side_of

XGID_PREFIX = "XGID="
_XGID_FIELDS = 10
_XGID_POINTS = 26


def _xgid_count(char: str, index: int) -> tuple[int, int]:
    """``(x_count, o_count)`` for one character of the position field.

    Raises:
        InvalidIdError: on a character other than ``-``, ``A``-``P``, ``a``-``p``
            or a side's letter on the other side's bar.
    """
    if char == "-":
        return 0, 0
    if "A" <= char <= "P" and index != 0:
        return ord(char) - ord("A") + 1, 0
    if "a" <= char <= "p" and index != _XGID_POINTS - 1:
        return 0, ord(char) - ord("a") + 1
    raise InvalidIdError(f"XGID position has {char!r} at index {index}, which is not allowed there")


def _xgid_boards(field: str) -> tuple[Board, Board]:
    """X's and O's gnubg boards (each in its own numbering) from the position field."""
    if len(field) != _XGID_POINTS:
        raise InvalidIdError(f"XGID position {field!r} has {len(field)} characters, expected {_XGID_POINTS}")
    x = [0] * BOARD_SLOTS
    o = [0] * BOARD_SLOTS
    for index, char in enumerate(field):
        x_count, o_count = _xgid_count(char, index)
        if index == 0:
            o[24] = o_count
        elif index == _XGID_POINTS - 1:
            x[24] = x_count
        else:
            x[index - 1] = x_count
            o[24 - index] = o_count
    return tuple(x), tuple(o)


def _xgid_int(field: str, name: str, low: int, high: int) -> int:
    """An integer field of an XGID, checked against ``low..high``."""
    digits = field[1:] if field.startswith("-") else field
    if not digits.isascii() or not digits.isdigit():
        raise InvalidIdError(f"XGID {name} {field!r} is not a number")
    if len(digits) > len(str(high)) + 1:  # far out of range, and int() refuses thousands of digits
        raise InvalidIdError(f"XGID {name} {field[:12]}... is not in {low}..{high}")
    value = int(field)
    if not low <= value <= high:
        raise InvalidIdError(f"XGID {name} {value} is not in {low}..{high}")
    return value


def _xgid_dice(field: str) -> tuple[bool, tuple[int, int] | None]:
    """``(doubled, dice)`` from the dice field (``00``, two digits or ``D``)."""
    if field == "D":
        return True, None
    if field in ("B", "R"):
        raise InvalidIdError(f"XGID dice field {field!r} (beaver/raccoon pending) is not supported")
    if field == "00":
        return False, None
    if len(field) == 2 and all(char in "123456" for char in field):
        return False, (int(field[0]), int(field[1]))
    raise InvalidIdError(f"XGID dice field {field!r} is not 00, D or two dice from 1 to 6")


_XGID_PREFIX_RE = re.compile(r"\s*xgid\s*=\s*", re.IGNORECASE)


def _xgid_split(text: str) -> list[str]:
    """The 10 fields of an XGID, prefix and surrounding blanks removed."""
    prefix = _XGID_PREFIX_RE.match(text)
    fields = text[prefix.end() if prefix else 0 :].strip().split(":")
    if len(fields) != _XGID_FIELDS:
        raise InvalidIdError(f"XGID {text.strip()!r} has {len(fields)} fields, expected {_XGID_FIELDS}")
    return fields


_XGID_OWNER = {1: Player.ONE, -1: Player.ZERO, 0: None}


def _xgid_state(fields: list[str]) -> MatchState:
    """The match state of an XGID's fields 2..10 (see xgid.md 4)."""
    cube_exp = _xgid_int(fields[1], "cube exponent", 0, MAX_CUBE_EXP)
    owner = _XGID_OWNER[_xgid_int(fields[2], "cube owner", -1, 1)]
    turn = _xgid_int(fields[3], "turn", -1, 1)
    if turn == 0:
        raise InvalidIdError("XGID turn 0 is neither X (1) nor O (-1)")
    doubled, dice = _xgid_dice(fields[4])
    score_x = _xgid_int(fields[5], "score of X", 0, 32767)
    score_o = _xgid_int(fields[6], "score of O", 0, 32767)
    length = _xgid_int(fields[8], "match length", 0, MAX_MATCH_LENGTH)
    flags = _xgid_int(fields[7], "rules flags", 0, 1 if length else 3)
    mover = Player.ONE if turn == 1 else Player.ZERO
    return MatchState(
        cube=1 << cube_exp,
        cube_owner=owner,
        dice_owner=mover,
        crawford=bool(length and flags),
        turn=mover.other if doubled else mover,
        doubled=doubled,
        dice=dice,
        length=length,
        score=(score_o, score_x),
        jacoby=not length and bool(flags & 1),
        beaver=not length and bool(flags & 2),
        max_cube_exp=_xgid_int(fields[9], "max cube", 0, 15),
    )


def parse_xgid(text: str, *, checkers: int = CHECKERS) -> tuple[Position, MatchState]:
    """Read an XGID, with or without the ``XGID=`` prefix.

    The position is oriented with the player on roll (the doubler when the
    dice field is ``D``) as ``mover``; X is gnubg's player 1.

    Args:
        text: the XGID.
        checkers: checkers per side; the ones not on the board are off.

    Returns:
        The position and the match state.

    Raises:
        InvalidIdError: naming the field that is wrong.

    >>> position, state = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:-1:31:0:0:0:5:10")
    >>> position.position_id(), state.cube, state.dice
    ('4HPwATDgc/ABMA', 1, (3, 1))
    """
    fields = _xgid_split(text)
    x, o = _xgid_boards(fields[0])
    state = _xgid_state(fields)
    on_roll, other = (x, o) if state.dice_owner == Player.ONE else (o, x)
    problem = board_problem(other, on_roll, checkers) or strict_problem(state)
    if problem:
        raise InvalidIdError(f"XGID {text.strip()!r} is not valid: {problem}")
    return Position(side_of(on_roll, checkers), side_of(other, checkers)), state


def _xgid_char(x_count: int, o_count: int) -> str:
    if x_count and o_count:
        raise InvalidIdError("cannot write an XGID: both sides have checkers on one point")
    count = x_count or o_count
    if count > 16:
        raise InvalidIdError(f"cannot write an XGID: {count} checkers on one point")
    if not count:
        return "-"
    return chr(ord("A" if x_count else "a") + count - 1)


def _xgid_position(x: Board, o: Board) -> str:
    chars = [_xgid_char(0, o[24])]
    chars += [_xgid_char(x[i - 1], o[24 - i]) for i in range(1, 25)]
    chars.append(_xgid_char(x[24], 0))
    return "".join(chars)


def _xgid_rules(state: MatchState) -> int:
    if state.length:
        return int(state.crawford)
    return int(state.jacoby) + 2 * int(state.beaver)


def format_xgid(pos: Position, state: MatchState) -> str:
    """Write ``pos`` (oriented with ``state.dice_owner`` on roll) as an XGID.

    Raises:
        InvalidIdError: for what an XGID cannot say: a resignation, a game
            that is not being played, a turn that is not the roller's without
            a pending double, or points both sides hold.

    >>> format_xgid(Position.start(), MatchState(dice_owner=Player.ONE, turn=Player.ONE, dice=(5, 2)))
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10'
    """
    if state.resign or state.game_state != PLAYING:
        raise InvalidIdError("cannot write an XGID: only a game in play without a resignation offer fits")
    if state.doubled == (state.turn == state.dice_owner):
        raise InvalidIdError("cannot write an XGID: turn differs from the dice owner only with a pending double")
    mover, other = board_of(pos.mover), board_of(pos.opponent)
    x, o = (mover, other) if state.dice_owner == Player.ONE else (other, mover)
    dice = "D" if state.doubled else "".join(map(str, state.dice or (0, 0)))
    fields = [
        _xgid_position(x, o),
        str(state.cube.bit_length() - 1),
        {None: "0", Player.ONE: "1", Player.ZERO: "-1"}[state.cube_owner],
        "1" if state.dice_owner == Player.ONE else "-1",
        dice,
        str(state.score[1]),
        str(state.score[0]),
        str(_xgid_rules(state)),
        str(state.length),
        str(state.max_cube_exp),
    ]
    return XGID_PREFIX + ":".join(fields)
