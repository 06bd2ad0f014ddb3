"""eXtreme Gammon position files (``.xgp``): the position of their last decision, with its cube, score and dice.

XG's published format ("XG file format", GameSite 2000) describes ``.xg`` and
``.xgp`` files alike: the same container (:mod:`tabla_cli.formats.xg_archive`)
and the same records (:mod:`tabla_cli.formats.xg_records`), a position file
holding one game whose records end at the position it was saved at.
:func:`read_position_file` reads that position from the game's last cube or
move record as the record writes it: the checkers (seen from XG's player 1,
turned to the side on roll), the cube (value and owner), the score, the
match length, the cube limit and (money) the beaver rule from the headers, the Crawford game as the game header marks it,
and the dice of a move record. The whole file is also a match that
:mod:`tabla_cli.formats.xg` reads (``convert --to positions`` lists its
decisions).
"""

from __future__ import annotations

from dataclasses import dataclass

from tabla_cli.board import Player, Position
from tabla_cli.errors import InputError, Location
from tabla_cli.formats.xg_archive import read_archive
from tabla_cli.formats.xg_records import (
    MATCH_MAGIC,
    RECORD_SIZE,
    CubeRecord,
    GameHeader,
    MatchHeader,
    MoveRecord,
    parse_record,
)
from tabla_cli.ids.match import MatchState

__all__ = ["XgPosition", "read_position_file"]

_MONEY = 99999


@dataclass(frozen=True, slots=True)
class XgPosition:
    """A position file's position: the checkers with the side on roll as mover, and the match state."""

    position: Position
    state: MatchState


def read_position_file(data: bytes, *, path: str, max_size: int) -> XgPosition:
    """The position an ``.xg``/``.xgp`` file's last decision is at.

    Raises:
        InputError: the file cannot be read (see :func:`~tabla_cli.formats.xg_archive.read_archive`),
            or holds no game with a cube or move record.
    """
    where = Location(path)
    records = read_archive(data, path=path, max_size=max_size).records
    header = parse_record(records[:RECORD_SIZE], 0) if len(records) >= RECORD_SIZE else None
    if not isinstance(header, MatchHeader) or header.magic != MATCH_MAGIC:
        raise InputError("the first record is not an eXtreme Gammon match header", where)
    game: GameHeader | None = None
    last: CubeRecord | MoveRecord | None = None
    for at in range(RECORD_SIZE, len(records) - RECORD_SIZE + 1, RECORD_SIZE):
        record = parse_record(records[at : at + RECORD_SIZE], header.version)
        if isinstance(record, GameHeader):
            game, last = record, None
        elif isinstance(record, (CubeRecord, MoveRecord)) and game is not None:
            last = record
    if game is None or last is None:
        raise InputError("the file holds no position: no game with a cube or move record", where)
    if last.actor not in (1, -1):
        raise InputError(f"the position's record names player {last.actor}, not 1 or -1", where)
    mover = Player.ZERO if last.actor == 1 else Player.ONE
    board = last.position
    seen = Position.from_points(
        {index: count for index, count in enumerate(board) if count > 0 and index > 0},
        {25 - index: -count for index, count in enumerate(board) if count < 0 and index < 25},
    )
    position = seen if mover is Player.ZERO else seen.flip()
    exponent = min(abs(last.cube), 30)
    owner = None if last.cube == 0 else (Player.ZERO if last.cube > 0 else Player.ONE)
    dice = None
    if isinstance(last, MoveRecord) and all(1 <= die <= 6 for die in last.dice):
        dice = (max(last.dice), min(last.dice))
    length = 0 if header.length == _MONEY else max(header.length, 0)
    state = MatchState(
        cube=2**exponent,
        cube_owner=owner,
        dice_owner=mover,
        crawford=bool(length) and game.crawford,
        turn=mover,
        dice=dice,
        length=length,
        score=(max(game.score[0], 0), max(game.score[1], 0)),
        beaver=not length and header.beaver,
        max_cube_exp=header.cube_limit if 0 < header.cube_limit < 31 else 10,
    )
    return XgPosition(position, state)
