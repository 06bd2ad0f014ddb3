"""GNU Backgammon Position ID and Match ID, and eXtreme Gammon's XGID.

The formats are summed up in ``docs/formats.md``.
A :class:`~tabla_cli.board.Position` is always seen from the side on roll:
``mover`` is gnubg's ``board[1]`` (the second half of the Position ID) and,
with a Match ID, the player in its dice-owner bit. gnubg's player 0 is "O"
(the top of its text board), player 1 is "X"; an XGID's X is player 1.

One module per seam: :mod:`~tabla_cli.ids.position` (Position ID, on the
bit codec of :mod:`tabla_cli.position_key`), :mod:`~tabla_cli.ids.match`
(Match ID and :class:`MatchState`) and :mod:`~tabla_cli.ids.xgid`. They are
pure (the standard library only); reading the IDs people paste, with a Lark
grammar, is :mod:`tabla_cli.pasted`.

>>> position = decode_position_id("4HPwATDgc/ABMA")
>>> position.pips(), encode_position_id(position)
((167, 167), '4HPwATDgc/ABMA')
>>> state = decode_match_id("QYkqASAAIAAA")
>>> state.cube, state.cube_owner, state.dice, state.length, state.score
(2, <Player.ZERO: 0>, (5, 2), 9, (2, 4))
>>> format_xgid(decode_position_id("4HPwATDgc/ABMA"), decode_match_id("cAkAAAAAAAAE"))
'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10'
"""

from __future__ import annotations

from tabla_cli.ids.match import (
    MATCH_ID_LENGTH,
    MAX_CUBE_EXP,
    MAX_MATCH_LENGTH,
    XGID_MAX_CUBE_EXP,
    MatchState,
    decode_match_id,
    encode_match_id,
)
from tabla_cli.ids.position import POSITION_ID_LENGTH, decode_position_id, encode_position_id
from tabla_cli.ids.xgid import XGID_PREFIX, format_xgid, parse_xgid
from tabla_cli.position_key import ALPHABET

__all__ = [
    "ALPHABET",
    "MATCH_ID_LENGTH",
    "MAX_CUBE_EXP",
    "MAX_MATCH_LENGTH",
    "POSITION_ID_LENGTH",
    "XGID_MAX_CUBE_EXP",
    "XGID_PREFIX",
    "MatchState",
    "decode_match_id",
    "decode_position_id",
    "encode_match_id",
    "encode_position_id",
    "format_xgid",
    "parse_xgid",
]
