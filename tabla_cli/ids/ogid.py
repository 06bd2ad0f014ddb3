"""OGID, the position ID of the OGXM format: read and write.

An OGID is ten fields separated by ``:``::

    11ccccchhhjjjjj:66666888dddddoo:N0N:45:W:IB:0:0:7:0

1. white's checkers, 2. black's, one character per checker on the board
   (borne-off checkers are not written), sorted: the point in black's
   numbering (``1``-``9``, ``a``-``o`` for 10-24; black moves from 24 down),
   ``0`` white's bar, ``p`` black's bar;
3. the cube: its owner (``N`` centred, ``W`` white, ``B`` black), the log2
   of its value, and its state (``N`` in play, ``O`` offered, ``T`` taken,
   ``P`` passed);
4. the dice, the smaller first (empty when not rolled);
5. whose turn: ``W`` black (colour 0 in OGXM), ``B`` white (the letters are
   OGXM's colour letters, not the players' names);
6. the phase: ``IB`` the opening roll, ``C`` on roll before rolling
   (a cube decision), ``R`` rolled, ``D`` a double to answer, ``G`` the
   game over, ``A`` a resignation offered;
7. and 8. white's and black's scores; 9. the match length (0: money), with
   ``C`` in the Crawford game; 10. the number of rolls played in the game.

White is tabla's first player (:data:`~tabla_cli.board.Player.ZERO`).
The letters and fields are as the ``ogxm`` package (``libogxm``) writes
them in its JSON projection, which the tests compare with on every decision
of the corpus; the package has no Python function that writes or reads an
OGID, so this module is that piece.

>>> from tabla_cli.board import Position
>>> format_ogid(Position.start(), MatchState(dice_owner=Player.ONE, turn=Player.ONE, dice=(4, 5), length=7), opening=True)
'11ccccchhhjjjjj:66666888dddddoo:N0N:45:W:IB:0:0:7:0'
>>> position, state, rolls = parse_ogid('11ccccchhhjjjjj:66666888dddddoo:N0N:45:W:IB:0:0:7:0')
>>> position == Position.start(), state.dice, state.turn, rolls
(True, (4, 5), <Player.ONE: 1>, 0)
"""

from __future__ import annotations

import re

from tabla_cli.board import CHECKERS, Player, Position
from tabla_cli.errors import InvalidIdError
from tabla_cli.ids.match import MAX_MATCH_LENGTH, PLAYING, MatchState

NOT_STARTED = 0

__all__ = ["OGID_PATTERN", "format_ogid", "looks_like_ogid", "parse_ogid"]

_DIGITS = "0123456789abcdefghijklmnop"
_TURN = {Player.ONE: "W", Player.ZERO: "B"}
_OWNER = {None: "N", Player.ZERO: "W", Player.ONE: "B"}
_MAX_SCORE = 999_999_999
_MAX_ROLLS = 99_999

OGID_PATTERN = re.compile(
    r"(?<![0-9a-zA-Z])[0-9a-p]{0,15}:[0-9a-p]{0,15}:[NWB][0-9]{1,2}[NOTP]:(?:[1-6]{2})?:[WB]:(?:IB|IW|[CRDGA]):"
    r"[0-9]{1,9}:[0-9]{1,9}:[0-9]{1,5}C?:[0-9]{1,5}(?![0-9a-zA-Z:])"
)
"""An OGID inside other text."""


def looks_like_ogid(text: str) -> bool:
    """Whether ``text`` (stripped) is written like an OGID.

    >>> looks_like_ogid('11ccccchhhjjjjj:66666888dddddoo:N0N:45:W:IB:0:0:7:0'), looks_like_ogid('4HPwATDgc/ABMA')
    (True, False)
    """
    return OGID_PATTERN.fullmatch(text.strip()) is not None


def _sides(pos: Position, owner: Player) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(white's, black's) 26 counters, each in its own numbering, from ``pos`` seen from ``owner``."""
    return (pos.mover, pos.opponent) if owner is Player.ZERO else (pos.opponent, pos.mover)


def format_ogid(pos: Position, state: MatchState, *, rolls: int = 0, opening: bool = False, taken: bool = False) -> str:
    """``pos`` (seen from ``state.dice_owner``) and ``state`` as an OGID.

    Args:
        rolls: how many rolls have been played in the game.
        taken: a double was taken since the last roll (cube state ``T``).
        opening: the decision is the game's opening roll (phase ``IB``;
            also a state of game state 0 with dice, as gnubg's Match ID
            says the opening roll).

    Raises:
        InvalidIdError: a game that is not being played.
    """
    if state.game_state > PLAYING:
        raise InvalidIdError("cannot write an OGID: only a game in play fits")
    opening = opening or (state.game_state == NOT_STARTED and state.dice is not None)
    white, black = _sides(pos, state.dice_owner)
    white_chars = "".join(_DIGITS[25 - p] * white[p] for p in range(25, 0, -1))
    black_chars = "".join(_DIGITS[p] * black[p] for p in range(1, 26))
    cube_state = "O" if state.doubled else "T" if taken else "N"
    cube = f"{_OWNER[state.cube_owner]}{state.cube.bit_length() - 1}{cube_state}"
    if state.doubled:
        phase, dice = "D", ""
    elif state.dice is not None:
        phase, dice = ("IB" if opening else "R"), "".join(map(str, sorted(state.dice)))
    else:
        phase, dice = "A" if state.resign else "C", ""
    length = f"{state.length}{'C' if state.crawford else ''}"
    fields = [white_chars, black_chars, cube, dice, _TURN[state.turn], phase]
    return ":".join([*fields, str(state.score[0]), str(state.score[1]), length, str(rolls)])


def _board(field: str, white: bool) -> tuple[int, ...]:
    side = [0] * 26
    for char in field:
        point = _DIGITS.index(char)
        own = 25 - point if white else point
        if own == 0:
            raise InvalidIdError(
                f"OGID: {'white' if white else 'black'} has a checker on the other side's bar ({char!r})"
            )
        side[own] += 1
    if len(field) > CHECKERS:
        raise InvalidIdError(f"OGID: {len(field)} checkers on the board, more than {CHECKERS}")
    side[0] = CHECKERS - len(field)
    return tuple(side)


def parse_ogid(text: str) -> tuple[Position, MatchState, int]:
    """The position (seen from the player on roll), state and number of rolls an OGID says.

    Raises:
        InvalidIdError: ``text`` is not an OGID, or says something impossible
            (a point both sides hold, a score past the match length).
    """
    written = text.strip()
    if OGID_PATTERN.fullmatch(written) is None:
        raise InvalidIdError(f"not an OGID: {written[:80]!r}")
    fields = written.split(":")
    white, black = _board(fields[0], True), _board(fields[1], False)
    for point in range(1, 25):
        if white[point] and black[25 - point]:
            raise InvalidIdError(f"OGID: both sides have checkers on point {25 - point} (black's numbering)")
    cube_field = fields[2]
    exponent = int(cube_field[1:-1])
    if exponent > 15:
        raise InvalidIdError(f"OGID: the cube 2^{exponent} is larger than tabla reads")
    owner = {"N": None, "W": Player.ZERO, "B": Player.ONE}[cube_field[0]]
    turn = Player.ONE if fields[4] == "W" else Player.ZERO
    doubled = cube_field[-1] == "O" or fields[5] == "D"
    dice = (int(fields[3][0]), int(fields[3][1])) if fields[3] else None
    dice_owner = turn.other if doubled else turn
    length_field = fields[8]
    length = int(length_field.rstrip("C"))
    score = (int(fields[6]), int(fields[7]))
    if length > MAX_MATCH_LENGTH:
        raise InvalidIdError(f"OGID: a match to {length} points is longer than tabla reads")
    if length and max(score) >= length:
        raise InvalidIdError(f"OGID: the score {score[0]}-{score[1]} is past the match length {length}")
    state = MatchState(
        cube=1 << exponent,
        cube_owner=owner,
        dice_owner=dice_owner,
        crawford=length_field.endswith("C"),
        turn=turn,
        doubled=doubled,
        resign=1 if fields[5] == "A" else 0,
        dice=None if doubled else dice,
        length=length,
        score=score,
    )
    mover, opponent = (white, black) if dice_owner is Player.ZERO else (black, white)
    return Position(mover, opponent), state, min(int(fields[9]), _MAX_ROLLS)
