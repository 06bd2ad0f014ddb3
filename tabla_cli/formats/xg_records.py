"""The records of ``temp.xg``, the match inside an eXtreme Gammon ``.xg`` file, as plain values.

``temp.xg`` is a run of 2,560-byte records (``TSaveRec`` in the published
"XG file format"); byte 8 of each says its type: the match header, a game
header, a cube decision, a checker play, a game footer, the match footer
(and two the model has no use for: a comment, a game the file does not hold).
The offsets below follow the published Delphi declarations (fields aligned
to their size), little-endian; fields a later file version added are read
only when the match header's version has them. Nothing here interprets a
record: :mod:`tabla_cli.formats.xg` turns them into a match.

Positions (``PositionEngine``) are 26 signed counts seen from player 1:
index 1..24 is player 1's point of that number (positive: player 1's
checkers) or player 2's point ``25 - index`` (negative: player 2's), index 25
player 1's bar, index 0 player 2's bar. Plays are up to four
``(from, to)`` pairs in the mover's numbering from 0: 24 is the bar, -1 off;
a ``from`` of -1 ends the list. Evaluations are seven numbers: the chances
of losing a backgammon, a gammon, the game, of winning the game, a gammon,
a backgammon, and the equity.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import IntEnum

__all__ = [
    "MATCH_MAGIC",
    "RECORD_SIZE",
    "Candidate",
    "Comment",
    "CubeRecord",
    "GameFooter",
    "GameHeader",
    "MatchFooter",
    "MatchHeader",
    "MissingGame",
    "MoveRecord",
    "ROLLOUT_SIZE",
    "RecordType",
    "Rollout",
    "parse_record",
    "parse_rollouts",
]

RECORD_SIZE = 2560
MATCH_MAGIC = 0x494C4D44
"""``DMLI``: the magic of a match header record."""
MAX_CANDIDATES = 32


class RecordType(IntEnum):
    """Byte 8 of a record."""

    HEADER_MATCH = 0
    HEADER_GAME = 1
    CUBE = 2
    MOVE = 3
    FOOTER_GAME = 4
    FOOTER_MATCH = 5
    COMMENT = 6
    """Declared by the published layout, carries nothing tabla reads (comments live in ``temp.xgc``)."""
    MISSING = 7
    """A game the file does not hold, only its winner and points."""


Board = tuple[int, ...]
Evaluation = tuple[float, ...]


@dataclass(frozen=True, slots=True)
class MatchHeader:
    """The first record: players, rules, event. ``cube_limit`` is a power of two's exponent (0 = none)."""

    version: int
    magic: int
    players: tuple[str, str]
    length: int
    variation: int
    crawford: bool
    jacoby: bool
    beaver: bool
    auto_double: bool
    elo: tuple[float, float]
    date: float
    event: str
    place: str
    round: str
    transcriber: str
    transcribed: bool
    levels: tuple[int, int]
    game_mode: int
    imported: bool
    money: bool
    stakes: tuple[float, float, int, float]
    """Win, lose, currency, fee of a match played for money."""
    site: int
    cube_limit: int
    auto_double_max: int
    money_score: tuple[int, int]
    comments: tuple[int, int] = (-1, -1)
    """The indexes in ``temp.xgc`` of the match's header and footer comments (-1: none)."""


@dataclass(frozen=True, slots=True)
class GameHeader:
    score: tuple[int, int]
    crawford: bool
    start: Board
    number: int
    auto_doubles: int
    comments: tuple[int, int] = (-1, -1)
    """The indexes in ``temp.xgc`` of the game's header and footer comments (-1: none)."""


@dataclass(frozen=True, slots=True)
class CubeRecord:
    """A cube decision. ``double``: -2 no access to the cube, -1 the turn ends the game (a resignation),
    0 no double, 1 double; ``take``: 0 pass, 1 take, 2 beaver; ``beaver_answer``: 0 pass, 1 take, 2
    raccoon; ``cube``: the cube before, as a power of two owned by player 1 (+), player 2 (-), centred (0)."""

    actor: int
    double: int
    take: int
    beaver_answer: int
    raccoon_answer: int
    cube: int
    position: Board
    level: int
    equities: tuple[float, float, float]
    """No double, double/take, double/pass, from the doubler."""
    no_double_eval: Evaluation
    double_take_eval: Evaluation
    error_cube: float
    error_take: float
    analysed: int
    """The analysis level (-1: none)."""
    edited: bool
    flagged: bool = False
    """A user flagged the decision (to study it)."""
    comment: int = -1
    """The index of its comment in ``temp.xgc`` (-1: none)."""
    rollout: int = -1
    """The index of its rollout in ``temp.xgr`` (-1: none)."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """One play of a checker play's ranked list."""

    position: Board
    steps: tuple[int, ...]
    level: int
    evaluation: Evaluation


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """A roll and the play made."""

    actor: int
    position: Board
    position_end: Board
    steps: tuple[int, ...]
    dice: tuple[int, int]
    cube: int
    candidate_count: int
    candidates: tuple[Candidate, ...]
    played: bool
    error_move: float
    luck: float
    analysed: int
    """The analysis level of the play (-1: none)."""
    luck_analysed: int
    edited: bool
    flagged: bool = False
    """A user flagged the play (to study it)."""
    comment: int = -1
    """The index of its comment in ``temp.xgc`` (-1: none)."""
    rollouts: tuple[int, ...] = ()
    """For each candidate, the index of its rollout in ``temp.xgr`` (-1: none)."""

    @property
    def unplayed(self) -> bool:
        """No play is recorded: every from and to is 0 (XG's record of a roll it did not see played)."""
        return not any(self.steps)


@dataclass(frozen=True, slots=True)
class GameFooter:
    """``termination``: 0 pass, 1 single, 2 gammon, 3 backgammon; +100 a resignation, +1000 a settlement."""

    score: tuple[int, int]
    winner: int
    points: int
    termination: int


@dataclass(frozen=True, slots=True)
class MatchFooter:
    score: tuple[int, int]
    winner: int


@dataclass(frozen=True, slots=True)
class Comment:
    """A comment record (declared by the layout, never seen written): the reader skips it; comments are
    ``temp.xgc``'s lines, named by the ``comment`` index of the record they belong to."""


@dataclass(frozen=True, slots=True)
class MissingGame:
    winner: int
    points: int


Record = MatchHeader | GameHeader | CubeRecord | MoveRecord | GameFooter | MatchFooter | Comment | MissingGame

_I = struct.Struct("<i")
_D = struct.Struct("<d")
_BOARD = struct.Struct("<26b")
_EVAL = struct.Struct("<7f")


def _int(data: bytes, at: int) -> int:
    value: int = _I.unpack_from(data, at)[0]
    return value


def _double(data: bytes, at: int) -> float:
    value: float = _D.unpack_from(data, at)[0]
    return value


def _board(data: bytes, at: int) -> Board:
    return tuple(_BOARD.unpack_from(data, at))


def _eval(data: bytes, at: int) -> Evaluation:
    return tuple(_EVAL.unpack_from(data, at))


def _ansi(data: bytes, at: int, size: int) -> str:
    """A Delphi ``string[size]``: a length byte, then that many ANSI (Windows-1252) characters."""
    return data[at + 1 : at + 1 + min(data[at], size)].decode("cp1252", errors="replace")


def _unicode(data: bytes, at: int) -> str:
    """A ``TShortUnicodeString``: up to 128 UTF-16 units, ended by a zero unit."""
    raw = data[at : at + 258]
    for end in range(0, len(raw) - 1, 2):
        if raw[end] == 0 and raw[end + 1] == 0:
            raw = raw[:end]
            break
    return raw.decode("utf-16-le", errors="replace")


def _match_header(r: bytes) -> MatchHeader:
    version = _int(r, 552)
    unicode = version >= 24
    players = (_unicode(r, 880), _unicode(r, 1138)) if unicode else (_ansi(r, 9, 40), _ansi(r, 50, 40))
    return MatchHeader(
        version=version,
        magic=_int(r, 556),
        players=players,
        length=_int(r, 92),
        variation=_int(r, 96),
        crawford=bool(r[100]),
        jacoby=bool(r[101]),
        beaver=bool(r[102]),
        auto_double=bool(r[103]),
        elo=(_double(r, 104), _double(r, 112)),
        date=_double(r, 128),
        event=_unicode(r, 622) if unicode else _ansi(r, 136, 128),
        place=_unicode(r, 1396) if unicode else _ansi(r, 283, 128),
        round=_unicode(r, 1654) if unicode else _ansi(r, 417, 128),
        transcriber=_unicode(r, 1960) if version >= 30 else "",
        transcribed=unicode and bool(r[620]),
        levels=(_int(r, 272), _int(r, 276)),
        game_mode=_int(r, 412),
        imported=bool(r[416]),
        money=bool(r[584]),
        stakes=(
            struct.unpack_from("<f", r, 588)[0],
            struct.unpack_from("<f", r, 592)[0],
            _int(r, 596),
            struct.unpack_from("<f", r, 600)[0],
        ),
        site=_int(r, 608),
        cube_limit=_int(r, 612) if version >= 8 else 0,
        auto_double_max=_int(r, 616) if version >= 8 else 0,
        money_score=(_int(r, 564), _int(r, 568)),
        comments=(_int(r, 576), _int(r, 580)),
    )


def _game_header(r: bytes, version: int) -> GameHeader:
    return GameHeader(
        score=(_int(r, 12), _int(r, 16)),
        crawford=bool(r[20]),
        start=_board(r, 21),
        number=_int(r, 48),
        auto_doubles=_int(r, 64) if version >= 26 else 0,
        comments=(_int(r, 56), _int(r, 60)),
    )


def _cube(r: bytes, version: int) -> CubeRecord:
    action = 64  # EngineStructDoubleAction, 132 bytes
    return CubeRecord(
        actor=_int(r, 12),
        double=_int(r, 16),
        take=_int(r, 20),
        beaver_answer=_int(r, 24),
        raccoon_answer=_int(r, 28),
        cube=_int(r, 32),
        position=_board(r, 36),
        level=_int(r, action + 28),
        equities=struct.unpack_from("<3f", r, action + 88),
        no_double_eval=_eval(r, action + 60),
        double_take_eval=_eval(r, action + 104),
        error_cube=_double(r, 200),
        error_take=_double(r, 216),
        analysed=_int(r, 232),
        edited=version >= 24 and bool(r[296]),
        flagged=bool(r[288]),
        comment=_int(r, 292),
        rollout=_int(r, 224),
    )


def _move(r: bytes, version: int) -> MoveRecord:
    best = 124  # EngineStructBestMove, 2184 bytes
    count = _int(r, best + 64)
    candidates = tuple(
        Candidate(
            position=_board(r, best + 68 + 26 * i),
            steps=struct.unpack_from("<8b", r, best + 900 + 8 * i),
            level=struct.unpack_from("<h", r, best + 1156 + 4 * i)[0],
            evaluation=_eval(r, best + 1284 + 28 * i),
        )
        for i in range(min(max(count, 0), MAX_CANDIDATES))
    )
    return MoveRecord(
        actor=_int(r, 64),
        position=_board(r, 9),
        position_end=_board(r, 35),
        steps=struct.unpack_from("<8i", r, 68),
        dice=(_int(r, 100), _int(r, 104)),
        cube=_int(r, 108),
        candidate_count=count,
        candidates=candidates,
        played=bool(r[2308]),
        error_move=_double(r, 2312),
        luck=_double(r, 2320),
        analysed=_int(r, 2472),
        luck_analysed=_int(r, 2476),
        edited=version >= 24 and bool(r[2528]),
        flagged=bool(r[2520]),
        comment=_int(r, 2524),
        rollouts=struct.unpack_from("<32i", r, 2344),
    )


def _game_footer(r: bytes) -> GameFooter:
    return GameFooter(score=(_int(r, 12), _int(r, 16)), winner=_int(r, 24), points=_int(r, 28), termination=_int(r, 32))


ROLLOUT_SIZE = 2184
"""The size of a record of ``temp.xgr`` (``TRolloutContext``)."""
_ROLLED_AT = struct.calcsize("<BBxxllxxxxdllllBBBxllLlllBxxxflBBBx")
_ERRORS_AT = struct.calcsize("<BBxxllxxxxdllllBBBxllLlllBxxxflBBBxlBxxxxxxx37d37d37d37d37d37d37l")
_ROLLED2_AT = struct.calcsize("<BBxxllxxxxdllllBBBxllLlllBxxxflBBBxlBxxxxxxx37d37d37d37d37d37d37lff7f7fffl7fllll")


@dataclass(frozen=True, slots=True)
class Rollout:
    """What tabla reads of a rollout of ``temp.xgr``: the games rolled and the 95% confidence interval of the
    equity (no double, or the play; and of double/take for a cube rollout)."""

    games: int
    ci: float
    games_double: int
    ci_double: float


def parse_rollouts(data: bytes) -> list[Rollout]:
    """The rollouts of ``temp.xgr``, in order (a record names one by its index)."""
    return [
        Rollout(
            games=_int(data, at + _ROLLED_AT),
            ci=struct.unpack_from("<f", data, at + _ERRORS_AT)[0],
            games_double=_int(data, at + _ROLLED2_AT),
            ci_double=struct.unpack_from("<f", data, at + _ERRORS_AT + 4)[0],
        )
        for at in range(0, len(data) - ROLLOUT_SIZE + 1, ROLLOUT_SIZE)
    ]


def parse_record(record: bytes, version: int) -> Record | None:
    """The record ``record`` (:data:`RECORD_SIZE` bytes) of a file of ``version``; None for an unknown type."""
    kind = record[8]
    if kind == RecordType.HEADER_MATCH:
        return _match_header(record)
    if kind == RecordType.HEADER_GAME:
        return _game_header(record, version)
    if kind == RecordType.CUBE:
        return _cube(record, version)
    if kind == RecordType.MOVE:
        return _move(record, version)
    if kind == RecordType.FOOTER_GAME:
        return _game_footer(record)
    if kind == RecordType.FOOTER_MATCH:
        return MatchFooter(score=(_int(record, 12), _int(record, 16)), winner=_int(record, 20))
    if kind == RecordType.COMMENT:
        return Comment()
    if kind == RecordType.MISSING:
        return MissingGame(winner=_int(record, 24), points=_int(record, 28))
    return None
