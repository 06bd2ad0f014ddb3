"""GNU Backgammon's Match ID and the match state it encodes (see ``docs/formats.md``).

gnubg's player 0 is "O" (the top of its text board), player 1 is "X".

>>> state = decode_match_id("QYkqASAAIAAA")
>>> state.cube, state.cube_owner, state.dice, state.length, state.score
(2, <Player.ZERO: 0>, (5, 2), 9, (2, 4))
"""

from __future__ import annotations

from dataclasses import dataclass

from tabla_cli.board import Player
from tabla_cli.errors import InvalidIdError
from tabla_cli.position_key import chars, lsb_first, msb_first, sextets

MATCH_ID_LENGTH = 12
MAX_MATCH_LENGTH = 64
"""gnubg's ``MAXSCORE``: the longest match a Match ID or XGID may name."""
MAX_CUBE_EXP = 10
"""Strict decoding allows cubes up to ``2 ** 10 = 1024`` (XG's table limit)."""
XGID_MAX_CUBE_EXP = 10
"""What XG writes in the XGID's last field."""

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
PLAYING = 1
"""``game_state`` of a game in play."""


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
    game_state: int = PLAYING
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
    if state.resign and state.game_state == PLAYING and state.turn == state.dice_owner:
        return "a resignation is pending but the player to act is the one who offered it"
    return None


def _score_problem(state: MatchState) -> str | None:
    length = state.length
    if state.game_state > 4:
        return f"game state {state.game_state} is not one of 0-4"
    if length and state.game_state <= PLAYING and max(state.score) >= length:
        return f"score {state.score[0]}-{state.score[1]} has reached the match length {length} in an unfinished game"
    at_point = sum(1 for score in state.score if score == length - 1)
    if state.crawford and length > 1 and at_point != 1:
        return f"the Crawford flag is set at {state.score[0]}-{state.score[1]} in a {length}-point match"
    return None


def strict_problem(state: MatchState) -> str | None:
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
    bits = lsb_first(sextets(text, "Match ID", MATCH_ID_LENGTH), MATCH_ID_LENGTH * 6 // 8)
    raw = _unpack_match(bits)
    problem = _gnubg_problem(raw)
    if problem is None and strict:
        if raw["owner"] == 2:
            problem = "cube-owner bits are 2 (neither player nor centred)"
        elif bits >> _MATCH_BITS:
            problem = "unused bits 67-71 are not zero"
        else:
            problem = strict_problem(_state(raw))
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
    return chars(msb_first(bits, MATCH_ID_LENGTH * 6 // 8), MATCH_ID_LENGTH)
