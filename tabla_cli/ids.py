"""GNU Backgammon Position ID and Match ID, and eXtreme Gammon's XGID.

The formats are summed up in ``docs/formats.md``.
A :class:`~tabla_cli.board.Position` is always seen from the side on roll:
``mover`` is gnubg's ``board[1]`` (the second half of the Position ID) and,
with a Match ID, the player in its dice-owner bit. gnubg's player 0 is "O"
(the top of its text board), player 1 is "X"; an XGID's X is player 1.

>>> position = decode_position_id("4HPwATDgc/ABMA")
>>> position == Position.start()
True
>>> encode_position_id(position)
'4HPwATDgc/ABMA'
>>> state = decode_match_id("QYkqASAAIAAA")
>>> state.cube, state.cube_owner, state.dice, state.length, state.score
(2, <Player.ZERO: 0>, (5, 2), 9, (2, 4))
>>> format_xgid(*parse_ids("4HPwATDgc/ABMA:cAkAAAAAAAAE"))
'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10'
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput

from tabla_cli.board import BAR, CHECKERS, Player, Position
from tabla_cli.errors import InvalidIdError, Location
from tabla_cli.grammar import load_grammar

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_SEXTET = {char: value for value, char in enumerate(ALPHABET)}

POSITION_ID_LENGTH = 14
MATCH_ID_LENGTH = 12
MAX_MATCH_LENGTH = 64
"""gnubg's ``MAXSCORE``: the longest match a Match ID or XGID may name."""
MAX_CUBE_EXP = 10
"""Strict decoding allows cubes up to ``2 ** 10 = 1024`` (XG's table limit)."""
XGID_MAX_CUBE_EXP = 10
"""What XG writes in the XGID's last field."""

_T = TypeVar("_T")

_POSITION_BITS = 80
_ZEROS = 50
_BOARD_SLOTS = 25


# --- Base64 ------------------------------------------------------------------


def _sextets(text: str, what: str, length: int) -> int:
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


def _chars(value: int, length: int) -> str:
    """Write the top ``6 * length`` bits of big-endian ``value`` as Base64."""
    return "".join(ALPHABET[value >> 6 * (length - 1 - i) & 63] for i in range(length))


def _lsb_first(value: int, size: int) -> int:
    """Reorder ``size`` big-endian bytes so that bit ``k`` is byte ``k // 8``, bit ``k % 8``."""
    return int.from_bytes(value.to_bytes(size, "big"), "little")


def _msb_first(bits: int, size: int) -> int:
    """Inverse of :func:`_lsb_first`."""
    return int.from_bytes(bits.to_bytes(size, "little"), "big")


# --- Position ID ---------------------------------------------------------------

Board = tuple[int, ...]
"""gnubg's view of one side: 25 counters, own points 1..24 at 0..23, the bar at 24."""


def _board(side: Sequence[int]) -> Board:
    """A :class:`Position` side (off, 1..24, bar) as a gnubg board."""
    return tuple(side[1 : BAR + 1])


def _side(board: Board, checkers: int) -> tuple[int, ...]:
    """A gnubg board as a :class:`Position` side; the rest of ``checkers`` are off."""
    return (checkers - sum(board), *board)


def _board_problem(other: Board, on_roll: Board, checkers: int) -> str | None:
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


def _unpack_position(bits: int, what: str) -> tuple[Board, Board, int]:
    """Read both boards from the 80 key bits; also return the bits after them.

    Raises:
        InvalidIdError: if the bits run out before 50 zero-bits.
    """
    boards = [[0] * _BOARD_SLOTS, [0] * _BOARD_SLOTS]
    side = slot = k = 0
    while side < 2:
        if k == _POSITION_BITS:
            raise InvalidIdError(f"{what} describes more than 30 checkers (fewer than {_ZEROS} zero bits)")
        if bits >> k & 1:
            boards[side][slot] += 1
        else:
            slot += 1
            if slot == _BOARD_SLOTS:
                side, slot = side + 1, 0
        k += 1
    return tuple(boards[0]), tuple(boards[1]), bits >> k


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
    what = "Position ID"
    value = _sextets(text, what, POSITION_ID_LENGTH)
    if strict and value & 0xF:
        raise InvalidIdError(f"{what} {text!r} has non-zero padding bits in its last character")
    bits = _lsb_first(value >> 4, _POSITION_BITS // 8)
    other, on_roll, rest = _unpack_position(bits, f"{what} {text!r}")
    if strict and rest:
        raise InvalidIdError(f"{what} {text!r} has one-bits after its 50th zero bit")
    problem = _board_problem(other, on_roll, checkers)
    if problem:
        raise InvalidIdError(f"{what} {text!r} is not a legal position: {problem}")
    return Position(_side(on_roll, checkers), _side(other, checkers))


def _append_board(bits: int, k: int, board: Board) -> tuple[int, int]:
    for count in board:
        bits |= ((1 << count) - 1) << k
        k += count + 1
    return bits, k


def encode_position_id(pos: Position) -> str:
    """The gnubg Position ID of ``pos`` (``mover`` is the side on roll).

    Raises:
        InvalidIdError: if a side has a negative count or more than 15
            checkers on the board and bar.

    >>> encode_position_id(Position.from_points({6: 1}, {}))
    'AAAAQAAAAAAAAA'
    """
    bits = k = 0
    for name, side in (("opponent", pos.opponent), ("mover", pos.mover)):
        board = _board(side)
        if min(board) < 0 or sum(board) > CHECKERS:
            raise InvalidIdError(f"cannot encode a Position ID: the {name} has counts {board}")
        bits, k = _append_board(bits, k, board)
    return _chars(_msb_first(bits, _POSITION_BITS // 8) << 4, POSITION_ID_LENGTH)


# --- Match ID ------------------------------------------------------------------

_FIELDS: dict[str, tuple[int, int]] = {
    "cube": (0, 4),
    "owner": (4, 2),
    "dice_owner": (6, 1),
    "crawford": (7, 1),
    "game_state": (8, 3),
    "turn": (11, 1),
    "doubled": (12, 1),
    "resign": (13, 2),
    "die1": (15, 3),
    "die2": (18, 3),
    "length": (21, 15),
    "score0": (36, 15),
    "score1": (51, 15),
    "no_jacoby": (66, 1),
}
"""Match-ID fields: name -> (first bit, width), bits counted LSB-first."""
_MATCH_BITS = 67
_CENTRED = 3
_PLAYING = 1


@dataclass(frozen=True, slots=True)
class MatchState:
    """Everything a gnubg Match ID says, plus the two XGID-only settings.

    Players are gnubg's: :attr:`Player.ZERO` is "O", :attr:`Player.ONE` is
    "X". A state round-trips exactly through :func:`encode_match_id` (except
    ``beaver`` and ``max_cube_exp``, which only an XGID carries).

    Attributes:
        cube: the cube value (1, 2, 4, ...).
        cube_owner: who owns the cube; None when it is centred.
        dice_owner: the player on roll or who has just rolled (bit 6); the
            position is oriented with this player as ``mover``.
        crawford: this game is the Crawford game.
        game_state: 0 no game, 1 playing, 2 over, 3 resigned, 4 cube dropped.
        turn: the player who must act now (bit 11); differs from
            ``dice_owner`` while a double or a resignation is pending.
        doubled: a double has been offered and not yet answered.
        resign: resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon.
        dice: the dice as stored (gnubg writes the larger first); None when
            not rolled.
        length: the match length; 0 for money play.
        score: points won so far, ``(player 0, player 1)``.
        jacoby: bit 66 is clear. gnubg 1.07+ clears it only in money play
            with the Jacoby rule on; older IDs (the manual's) always clear
            it, so in match play it says nothing about the rules. Kept as
            written so that IDs round-trip exactly.
        beaver: beavers allowed (XGID rules flag, money only).
        max_cube_exp: the XGID's cube-limit field (10 = 1024).
    """

    cube: int = 1
    cube_owner: Player | None = None
    dice_owner: Player = Player.ZERO
    crawford: bool = False
    game_state: int = _PLAYING
    turn: Player = Player.ZERO
    doubled: bool = False
    resign: int = 0
    dice: tuple[int, int] | None = None
    length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False
    beaver: bool = False
    max_cube_exp: int = XGID_MAX_CUBE_EXP


def _unpack_match(bits: int) -> dict[str, int]:
    return {name: bits >> start & (1 << width) - 1 for name, (start, width) in _FIELDS.items()}


def _gnubg_problem(raw: dict[str, int]) -> str | None:
    """The checks gnubg's own ``MatchFromKey`` makes, or None."""
    if 7 in (raw["die1"], raw["die2"]):
        return "a die shows 7"
    if raw["length"] > MAX_MATCH_LENGTH:
        return f"match length {raw['length']} is over {MAX_MATCH_LENGTH}"
    if raw["length"] and max(raw["score0"], raw["score1"]) > raw["length"]:
        return f"score {raw['score0']}-{raw['score1']} is above the match length {raw['length']}"
    if raw["crawford"] and not raw["length"]:
        return "the Crawford flag is set in money play"
    return None


def _owner(bits: int) -> Player | None:
    return None if bits >= 2 else Player(bits)


def _state(raw: dict[str, int]) -> MatchState:
    dice = (raw["die1"], raw["die2"])
    return MatchState(
        cube=1 << raw["cube"],
        cube_owner=_owner(raw["owner"]),
        dice_owner=Player(raw["dice_owner"]),
        crawford=bool(raw["crawford"]),
        game_state=raw["game_state"],
        turn=Player(raw["turn"]),
        doubled=bool(raw["doubled"]),
        resign=raw["resign"],
        dice=None if dice == (0, 0) else dice,
        length=raw["length"],
        score=(raw["score0"], raw["score1"]),
        jacoby=not raw["no_jacoby"],
    )


def _dice_problem(state: MatchState) -> str | None:
    if state.dice is not None and not all(1 <= die <= 6 for die in state.dice):
        return f"dice {state.dice[0]}-{state.dice[1]} are not two values from 1 to 6"
    return None


def _cube_problem(state: MatchState) -> str | None:
    if state.cube > 1 << MAX_CUBE_EXP:
        return f"cube {state.cube} is above the limit {1 << MAX_CUBE_EXP}"
    if state.cube == 1 and state.cube_owner is not None:
        return f"a cube of 1 is owned by player {int(state.cube_owner)}"
    return None


def _pending_problem(state: MatchState) -> str | None:
    if state.doubled:
        if state.turn == state.dice_owner:
            return "a double is pending but the doubler is also the player to act"
        if state.dice is not None:
            return "a double is pending but the dice have been rolled"
        if state.resign:
            return "a double and a resignation are both pending"
    if state.resign and state.game_state == _PLAYING and state.turn == state.dice_owner:
        return "a resignation is pending but the player to act is the one who offered it"
    return None


def _score_problem(state: MatchState) -> str | None:
    length = state.length
    if state.game_state > 4:
        return f"game state {state.game_state} is not one of 0-4"
    if length and state.game_state <= _PLAYING and max(state.score) >= length:
        return f"score {state.score[0]}-{state.score[1]} has reached the match length {length} in an unfinished game"
    at_point = sum(1 for score in state.score if score == length - 1)
    if state.crawford and length > 1 and at_point != 1:
        return f"the Crawford flag is set at {state.score[0]}-{state.score[1]} in a {length}-point match"
    return None


def _strict_problem(state: MatchState) -> str | None:
    """The consistency rules gnubg does not check (position-id.md 3.5), or None."""
    for check in (_dice_problem, _cube_problem, _pending_problem, _score_problem):
        problem = check(state)
        if problem:
            return problem
    return None


def decode_match_id(text: str, *, strict: bool = True) -> MatchState:
    """Decode a gnubg Match ID.

    Args:
        text: the 12-character ID, case-sensitive, nothing around it.
        strict: also enforce the consistency rules gnubg leaves out (dice,
            cube, pending double or resignation, score, Crawford, unused
            bits). Lenient mode checks only what gnubg checks and reads
            cube-owner bits ``2`` as centred, as gnubg does.

    Returns:
        The decoded fields.

    Raises:
        InvalidIdError: naming the rule broken.

    >>> decode_match_id("YAkAAAAAAAAA", strict=False).cube_owner is None
    True
    """
    what = f"Match ID {text!r}"
    bits = _lsb_first(_sextets(text, "Match ID", MATCH_ID_LENGTH), MATCH_ID_LENGTH * 6 // 8)
    raw = _unpack_match(bits)
    problem = _gnubg_problem(raw)
    if problem is None and strict:
        if raw["owner"] == 2:
            problem = "cube-owner bits are 2 (neither player nor centred)"
        elif bits >> _MATCH_BITS:
            problem = "unused bits 67-71 are not zero"
        else:
            problem = _strict_problem(_state(raw))
    if problem:
        raise InvalidIdError(f"{what} is not valid: {problem}")
    return _state(raw)


def _encodable_problem(state: MatchState) -> str | None:
    exp = state.cube.bit_length() - 1
    if state.cube < 1 or state.cube != 1 << exp or exp > 15:
        return f"cube {state.cube} is not a power of two up to 32768"
    dice = state.dice or (0, 0)
    if not all(0 <= die <= 7 for die in dice):
        return f"dice {dice} do not fit in 3 bits"
    limits = {
        "game state": (state.game_state, 7),
        "resignation": (state.resign, 3),
        "length": (state.length, 32767),
        "score of player 0": (state.score[0], 32767),
        "score of player 1": (state.score[1], 32767),
    }
    for name, (value, top) in limits.items():
        if not 0 <= value <= top:
            return f"{name} {value} does not fit its field"
    return None


def encode_match_id(state: MatchState) -> str:
    """The gnubg Match ID of ``state``, byte for byte what gnubg would write.

    Raises:
        InvalidIdError: if a field does not fit its bits.

    >>> encode_match_id(MatchState(dice_owner=Player.ONE, turn=Player.ONE, jacoby=True))
    'cAkAAAAAAAAA'
    """
    problem = _encodable_problem(state)
    if problem:
        raise InvalidIdError(f"cannot encode a Match ID: {problem}")
    die1, die2 = state.dice or (0, 0)
    values = {
        "cube": state.cube.bit_length() - 1,
        "owner": _CENTRED if state.cube_owner is None else int(state.cube_owner),
        "dice_owner": int(state.dice_owner),
        "crawford": int(state.crawford),
        "game_state": state.game_state,
        "turn": int(state.turn),
        "doubled": int(state.doubled),
        "resign": state.resign,
        "die1": die1,
        "die2": die2,
        "length": state.length,
        "score0": state.score[0],
        "score1": state.score[1],
        "no_jacoby": int(not state.jacoby),
    }
    bits = 0
    for name, (start, _) in _FIELDS.items():
        bits |= values[name] << start
    return _chars(_msb_first(bits, MATCH_ID_LENGTH * 6 // 8), MATCH_ID_LENGTH)


# --- XGID --------------------------------------------------------------------------

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
    x = [0] * _BOARD_SLOTS
    o = [0] * _BOARD_SLOTS
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
    >>> encode_position_id(position), encode_match_id(state)
    ('4HPwATDgc/ABMA', 'MIGlAAAAAAAE')
    """
    fields = _xgid_split(text)
    x, o = _xgid_boards(fields[0])
    state = _xgid_state(fields)
    on_roll, other = (x, o) if state.dice_owner == Player.ONE else (o, x)
    problem = _board_problem(other, on_roll, checkers) or _strict_problem(state)
    if problem:
        raise InvalidIdError(f"XGID {text.strip()!r} is not valid: {problem}")
    return Position(_side(on_roll, checkers), _side(other, checkers)), state


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
    if state.resign or state.game_state != _PLAYING:
        raise InvalidIdError("cannot write an XGID: only a game in play without a resignation offer fits")
    if state.doubled == (state.turn == state.dice_owner):
        raise InvalidIdError("cannot write an XGID: turn differs from the dice owner only with a pending double")
    mover, other = _board(pos.mover), _board(pos.opponent)
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


# --- pasted text -----------------------------------------------------------------

SYNTAX_EXAMPLES: dict[str, list[str]] = {
    "a label is not followed by ':' and an ID": [
        "Position ID",
        "Position ID 4HPwATDgc/ABMA",
        "Match ID:",
        "Position ID: 4HPwATDgc/ABMA Match ID",
    ],
    "more than a Position ID and a Match ID": [
        "4HPwATDgc/ABMA cAkAAAAAAAAA cAkAAAAAAAAA",
        "4HPwATDgc/ABMA:cAkAAAAAAAAA cAkAAAAAAAAA",
    ],
    "':' is not followed by a Match ID": ["4HPwATDgc/ABMA:"],
    "bare IDs mixed with labelled ones": [
        "4HPwATDgc/ABMA Match ID: cAkAAAAAAAAA",
        "Position ID: 4HPwATDgc/ABMA cAkAAAAAAAAA",
    ],
    "'XGID=' is not followed by an XGID": ["XGID=", "XGID=4HPwATDgc/ABMA"],
    "a stray ':'": [":", ": 4HPwATDgc/ABMA"],
}
"""Malformed inputs labelled with what is wrong, for ``match_examples``."""


@functools.cache
def _parser() -> Lark:
    return load_grammar("ids.lark")


@dataclass(frozen=True, slots=True)
class _Found:
    """One ID found in the text, with where it starts."""

    kind: str
    text: str
    line: int
    column: int


class _Collect(Transformer[Token, list[_Found]]):
    """Turns the parse tree into the IDs it names, in order (tokens carry positions)."""

    @staticmethod
    def _found(kind: str, token: Token) -> _Found:
        return _Found(kind, str(token), token.line or 0, token.column or 0)

    def start(self, groups: list[list[_Found]]) -> list[_Found]:
        return [found for group in groups for found in group]

    def pair(self, tokens: list[Token]) -> list[_Found]:
        return [self._found(kind, token) for kind, token in zip(("position", "match"), tokens)]

    def position(self, tokens: list[Token]) -> list[_Found]:
        return [self._found("position", tokens[0])]

    def match(self, tokens: list[Token]) -> list[_Found]:
        return [self._found("match", tokens[0])]

    def xgid(self, tokens: list[Token]) -> list[_Found]:
        return [self._found("xgid", tokens[0])]


def _syntax_error(text: str, error: UnexpectedInput) -> InvalidIdError:
    label = None
    if error.state is not None:
        label = error.match_examples(_parser().parse, SYNTAX_EXAMPLES, use_accepts=True)
    where = Location("<ids>", error.line, error.column) if error.line > 0 else None
    message = label or "not a Position ID, Match ID or XGID"
    return InvalidIdError(message, where, error.get_context(text).rstrip("\n"))


def _find(text: str) -> list[_Found]:
    """The IDs in ``text``, in order.

    Raises:
        InvalidIdError: if the text does not have one of the accepted shapes.
    """
    if not text.strip():
        raise InvalidIdError("no Position ID, Match ID or XGID given")
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as error:
        raise _syntax_error(text, error) from None
    return _Collect().transform(tree)


_KIND_NAMES = {"position": "Position ID", "match": "Match ID", "xgid": "XGID"}


def _only(found: list[_Found], kind: str) -> _Found | None:
    """The one ID of ``kind`` in ``found``, or None.

    Raises:
        InvalidIdError: if there are two.
    """
    matches = [item for item in found if item.kind == kind]
    if len(matches) > 1:
        again = Location("<ids>", matches[1].line, matches[1].column)
        raise InvalidIdError(f"more than one {_KIND_NAMES[kind]} given", again)
    return matches[0] if matches else None


def _at(item: _Found, decode: Callable[[str], _T]) -> _T:
    """Decode one found ID, adding where it was found to any error."""
    try:
        return decode(item.text)
    except InvalidIdError as error:
        raise InvalidIdError(error.message, Location("<ids>", item.line, item.column)) from None


def _comparable(state: MatchState, xgid: MatchState) -> MatchState:
    """``state`` with the XGID-only fields of ``xgid`` and the dice sorted."""
    dice = (max(state.dice), min(state.dice)) if state.dice else None
    return dataclasses.replace(state, dice=dice, beaver=xgid.beaver, max_cube_exp=xgid.max_cube_exp)


def _agree(gnubg: tuple[Position, MatchState | None], xgid: tuple[Position, MatchState]) -> None:
    """Check that the gnubg IDs and the XGID of one paste say the same thing.

    The dice are compared unordered: BGBlitz writes the smaller die first in
    its Match ID but the larger first in its XGID.
    """
    position, state = gnubg
    if position != xgid[0]:
        raise InvalidIdError("the Position ID and the XGID describe different positions")
    if state is not None and _comparable(state, xgid[1]) != _comparable(xgid[1], xgid[1]):
        raise InvalidIdError("the Match ID and the XGID describe different match states")


def parse_ids(text: str, *, strict: bool = True, checkers: int = CHECKERS) -> tuple[Position, MatchState | None]:
    """Read a Position ID, a gnubg ID, an XGID, or the lines programs print.

    Accepted: ``POS``, ``POS:MATCH``, ``POS MATCH``, ``XGID=...`` or a bare
    XGID, ``Position ID: ...`` and ``Match ID: ...`` lines (gnubg's
    ``GNU Backgammon  Position ID:`` header included), and the one-line
    ``Position-ID: ...  Match-ID: ...`` of BGBlitz. When an XGID comes with
    gnubg IDs they must agree; the XGID's richer state is returned.

    Args:
        text: the pasted text.
        strict: passed on to :func:`decode_position_id` and
            :func:`decode_match_id`.
        checkers: checkers per side.

    Returns:
        The position (the side on roll as ``mover``) and the match state, or
        None for the state when only a Position ID was given.

    Raises:
        InvalidIdError: for text of another shape or an ID that is not valid.

    >>> parse_ids(" Position-ID: 4HPwATDgc/ABMA    Match-ID: cAkAAAAAAAAA")[1].turn
    <Player.ONE: 1>
    """
    found = _find(text.lstrip("\ufeff"))
    position_item, match_item, xgid_item = (_only(found, kind) for kind in ("position", "match", "xgid"))
    xgid = _at(xgid_item, functools.partial(parse_xgid, checkers=checkers)) if xgid_item else None
    if position_item is None:
        if xgid is None or match_item is not None:
            raise InvalidIdError("a Match ID was given without a Position ID")
        return xgid
    position = _at(position_item, functools.partial(decode_position_id, strict=strict, checkers=checkers))
    state = _at(match_item, functools.partial(decode_match_id, strict=strict)) if match_item else None
    if xgid is None:
        return position, state
    _agree((position, state), xgid)
    return xgid
