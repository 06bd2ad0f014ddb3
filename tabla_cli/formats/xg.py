"""Reader of eXtreme Gammon ``.xg`` files: the match, its rules and XG's analysis.

An ``.xg`` file is binary (see :mod:`tabla_cli.formats.xg_archive` for the
container, :mod:`tabla_cli.formats.xg_records` for the records): it is
detected by its magic ``RGMH`` and read from its bytes. The reader says what
the records say, as a ``.mat`` would: each turn's roll and play (a cube
record, then a move record), doubles and their answers, resignations and
results; the replay checks all of it. The one check made here compares two
things the file writes: the position a record says it starts from must be
the one the file's previous play left (``position-mismatch``), unless XG
marks it edited. Player 1 of XG is player 0 (the left column of a ``.mat``). A match of length 99999 is a money session.

Each action keeps XG's analysis (:mod:`tabla_cli.formats.xg_analysis`). The
match's fields that tabla's model has no place for are kept as headers
(shown by ``tabla convert --to json``), named as XG's own ``.mat`` export names
them where it has one: ``Event``, ``Site`` (the place), ``Round``,
``EventDate``, ``EventTime``, ``Player 1 Elo``, ``Transcriber``, ``Variation``,
``Crawford``, ``Jacoby``, ``Beaver``, ``CubeLimit``; and ``XG Edited``, one per
position a user edited (``game 2 move 5``), ``XG Money`` (the stakes of a
match played for money), ``XG AutoDouble`` (the rule), ``XG Auto Doubles``
(automatic doubles of a game), ``XG Missing Game`` (a game the file does not
hold, only its winner and points; the replay checks each game's score
against the games the file holds). Comments (``temp.xgc``, RTF) are kept as plain text on the
decision whose record names them, and XG's flag on a decision as ``flagged``; a move record with no play
(every from and to 0) is a roll without a move, the game's trailing roll when nothing but the game's end
follows it (docs/formats.md says what each kind of record becomes).

A binary file has no lines: findings say ``game 3 move 12``, numbered as a
``.mat`` numbers its lines (a new number at each action of player 0, or at
player 1's second action in a row).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from dataclasses import dataclass, field

from tabla_cli.board import OFF, Player, Position, Step
from tabla_cli.errors import InputError, Location, TranscriptSyntaxError
from tabla_cli.evaluation.types import CubeAction
from tabla_cli.findings import Code, Finding
from tabla_cli.formats import Format, never
from tabla_cli.formats._rtf import plain_text
from tabla_cli.formats._syntax import ErrorHandler
from tabla_cli.formats.mat_headers import said
from tabla_cli.formats.xg_analysis import (
    answer_analysis,
    checker_analysis,
    cube_analysis,
    with_cube,
)
from tabla_cli.formats.xg_archive import MAGIC, read_archive
from tabla_cli.formats.xg_records import (
    MATCH_MAGIC,
    RECORD_SIZE,
    Comment,
    CubeRecord,
    GameFooter,
    GameHeader,
    MatchFooter,
    MatchHeader,
    MissingGame,
    MoveRecord,
    RecordType,
    Rollout,
    parse_record,
    parse_rollouts,
)
from tabla_cli.model import Action, ActionKind, Game, Match, RuleSet
from tabla_cli.notation import format_play_plain

__all__ = ["FORMAT", "read_matches"]

MONEY = 99999
"""The match length XG writes for a money session."""

_VARIANTS = {0: "", 1: "nackgammon", 2: "hypergammon", 3: "longgammon"}
_VARIATION_NAMES = {0: "Backgammon", 1: "Nackgammon", 2: "Hypergammon", 3: "Longgammon"}
_RESIGNED = 100
_SETTLED = 1000
_ANSWERS = {0: ActionKind.DROP, 1: ActionKind.TAKE, 2: ActionKind.BEAVER}
_MADE = {ActionKind.DROP: CubeAction.PASS, ActionKind.TAKE: CubeAction.TAKE, ActionKind.BEAVER: CubeAction.BEAVER}
_DELPHI_EPOCH = datetime.datetime(1899, 12, 30)


def read_matches(
    data: bytes, *, path: str = "<stdin>", on_error: ErrorHandler | None = None, max_size: int
) -> Iterator[Match]:
    """The match of an ``.xg`` file's bytes (one per file).

    Args:
        data: the file's bytes.
        path: the name used in every location.
        on_error: called with an error in a game's records (an unknown
            record, a play or player that cannot be, a record out of place);
            the game keeps what was read before it and reading goes on at
            the next game. Without it the error is raised.
        max_size: the most bytes the match records may inflate to.

    Raises:
        InputError: the file is not an ``.xg`` file, or is truncated or
            damaged (:class:`~tabla_cli.errors.InflatesTooLargeError`: it
            inflates past ``max_size``).
        TranscriptSyntaxError: (without ``on_error``) see ``on_error``.
    """
    archive = read_archive(data, path=path, max_size=max_size)
    reader = _Reader(path, on_error, comments(archive.comments), parse_rollouts(archive.rollouts))
    match = reader.read(archive.records)
    if archive.damaged is not None:
        match.findings.insert(0, Finding(Code.DAMAGED_CONTAINER, archive.damaged, Location(path)))
    yield match


def comments(data: bytes) -> list[str]:
    """The comments of ``temp.xgc`` as plain text, in order (a record names its comment by its index):
    one RTF document a line, its own line breaks written as the bytes 1, 2."""
    lines = data.split(b"\r\n")
    if lines and not lines[-1]:
        lines.pop()
    return [plain_text(line.replace(b"\x01\x02", b"\r\n")) for line in lines]


def _player(side: int, what: str, where: Location) -> Player:
    if side == 1:
        return Player.ZERO
    if side == -1:
        return Player.ONE
    raise TranscriptSyntaxError(f"{what} names player {side}, not 1 or -1 (player 1 or 2)", where)


def _point(code: int, where: Location, *, target: bool) -> int:
    """A point of a play from XG's code: 0..23 a point, 24 the bar; a target below 0 is off (a bear-off
    with a larger die than needed goes below -1)."""
    if 0 <= code <= (23 if target else 24):
        return code + 1
    if target and -6 <= code < 0:
        return OFF
    what = "to" if target else "from"
    raise TranscriptSyntaxError(
        f"a play moves {what} point code {code}: not a point (0-23), the bar (24, from only) or off (below 0, to only)",
        where,
    )


def _play(steps: tuple[int, ...], where: Location) -> str:
    """The play of XG's ``(from, to)`` codes, as a ``.mat`` writes it."""
    moved = []
    for index in range(0, len(steps) - 1, 2):
        if steps[index] == -1:
            break
        source, target = _point(steps[index], where, target=False), _point(steps[index + 1], where, target=True)
        moved.append(Step(source, target))
    return format_play_plain(tuple(moved))


def _position(board: tuple[int, ...]) -> Position:
    """An XG board (seen from player 1) as a position with player 0 (XG's player 1) as mover."""
    mover = {index: count for index, count in enumerate(board) if count > 0 and index > 0}
    opponent = {25 - index: -count for index, count in enumerate(board) if count < 0 and index < 25}
    return Position.from_points(mover, opponent)


def _date(days: float) -> datetime.datetime | None:
    try:
        return _DELPHI_EPOCH + datetime.timedelta(days=days) if days > 0 else None
    except (OverflowError, ValueError):
        return None


def _headers(header: MatchHeader) -> list[tuple[str, str]]:
    out = [
        (key, value)
        for key, value in (("Event", header.event), ("Site", header.place), ("Round", header.round))
        if value
    ]
    when = _date(header.date)
    if when is not None:
        out += [("EventDate", when.strftime("%Y.%m.%d")), ("EventTime", when.strftime("%H:%M"))]
    for number, elo in enumerate(header.elo, 1):
        if elo:
            out.append((f"Player {number} Elo", f"{elo:.2f}"))
    if header.transcriber:
        out.append(("Transcriber", header.transcriber))
    on = {True: "On", False: "Off"}
    out += [
        ("Variation", _VARIATION_NAMES.get(header.variation, str(header.variation))),
        ("Crawford", on[header.crawford]),
        ("Jacoby", on[header.jacoby]),
        ("Beaver", on[header.beaver]),
    ]
    if 0 < header.cube_limit < 31:
        out.append(("CubeLimit", str(2**header.cube_limit)))
    if header.auto_double:
        out.append(("XG AutoDouble", f"On, at most {header.auto_double_max}"))
    if header.money:
        win, lose, currency, fee = header.stakes
        out.append(("XG Money", f"win {win:g}, lose {lose:g}, fee {fee:g}, currency {currency}"))
    return out


def _rules(header: MatchHeader) -> RuleSet:
    default = RuleSet()
    limit = 2**header.cube_limit if 0 < header.cube_limit < 31 else default.cube_limit
    return RuleSet(crawford=header.crawford, jacoby=header.jacoby, beaver=header.beaver, cube_limit=limit)


@dataclass(slots=True)
class _Turns:
    """``.mat``-style move numbers: a new number at each action of player 0, or at player 1's second in a row."""

    number: int = 0
    right_used: bool = True

    def peek(self, player: Player) -> int:
        """The number :meth:`next` would give ``player``, without taking it."""
        return self.number + (player is Player.ZERO or self.right_used)

    def next(self, player: Player) -> int:
        if player is Player.ZERO or self.right_used:
            self.number += 1
            self.right_used = False
        if player is Player.ONE:
            self.right_used = True
        return self.number


@dataclass(slots=True)
class _Reader:
    path: str
    on_error: ErrorHandler | None
    comments: list[str] = field(default_factory=list)
    rollouts: list[Rollout] = field(default_factory=list)
    match: Match = field(init=False)
    game: Game | None = None
    turns: _Turns = field(default_factory=_Turns)
    no_double: CubeRecord | None = None
    board: tuple[int, ...] | None = None
    """The position the file's last record left (XG's board, seen from player 1)."""
    version: int = 0
    skipping: bool = False
    ended: bool = False
    unset_start: bool = False
    """The current game's header writes no start: its first record's position is the start."""
    """The current game's footer has been read."""
    unplayed: Action | None = None
    """The current game's last roll, when its record holds no play."""

    def where(self, move: int = 0) -> Location:
        return Location(self.path, game=self.game.number if self.game is not None else 0, move=move)

    def read(self, records: bytes) -> Match:
        whole = len(records) - len(records) % RECORD_SIZE
        if whole == 0:
            raise InputError("the match records are empty or cut short: no match header", Location(self.path))
        header = parse_record(records[:RECORD_SIZE], 0)
        if not isinstance(header, MatchHeader) or header.magic != MATCH_MAGIC:
            raise InputError("the first record is not an eXtreme Gammon match header", Location(self.path))
        self.version = header.version
        headers = _headers(header)
        self.match = Match(
            players=header.players,
            length=0 if header.length == MONEY else header.length,
            headers=headers,
            rules=said(_rules(header), headers),
            variant=_VARIANTS.get(header.variation, ""),
            path=self.path,
            format="xg",
            location=Location(self.path),
            marks_hits=True,
        )
        self.match.comments += [f"XG: {text}" for text in map(self.comment, header.comments) if text]
        for index, start in enumerate(range(RECORD_SIZE, whole, RECORD_SIZE), 2):
            try:
                self.record(records[start : start + RECORD_SIZE], index)
            except TranscriptSyntaxError as exc:
                if self.on_error is None:
                    raise
                self.on_error(exc)
                self.skipping = True
        self.settle_unplayed()
        if whole < len(records):
            self.error(
                f"the match records end in a partial record of {len(records) - whole} bytes: ignored", self.where()
            )
        return self.match

    def comment(self, index: int) -> str | None:
        """The comment ``index`` of ``temp.xgc`` (-1: none); None when there is none or it is empty."""
        return (self.comments[index] or None) if 0 <= index < len(self.comments) else None

    def settle_unplayed(self) -> None:
        """The current game's last roll, when its record holds no play and nothing follows it but the game's end,
        is the roll XG saw rolled and not played (before a resignation, or pending when the file was saved): the
        game's :attr:`~tabla_cli.model.Game.trailing_roll`, which the replay counts as a dance only where no play
        was possible and the game goes on."""
        game, roll = self.game, self.unplayed
        self.unplayed = None
        if game is not None and roll is not None and game.actions and game.actions[-1] is roll:
            game.trailing_roll = game.actions.pop()

    def error(self, message: str, where: Location) -> None:
        exc = TranscriptSyntaxError(message, where)
        if self.on_error is None:
            raise exc
        self.on_error(exc)

    def record(self, data: bytes, index: int) -> None:
        record = parse_record(data, self.version)
        if record is None:
            self.error(f"record {index} has type {data[8]}, not one XG writes: skipped", self.where())
            return
        if isinstance(record, GameHeader):
            self.settle_unplayed()
            self.skipping = False
            self.start(record)
            return
        if isinstance(record, MatchHeader):
            raise TranscriptSyntaxError(f"record {index} is a second match header", self.where())
        if isinstance(record, Comment):
            return
        if isinstance(record, MatchFooter):
            self.settle_unplayed()
            self.game = None
            return
        if isinstance(record, MissingGame):
            winner = {1: "player 1", -1: "player 2"}.get(record.winner, f"player {record.winner}")
            self.match.headers.append(
                ("XG Missing Game", f"after game {len(self.match.games)}: {winner} won {record.points} points")
            )
            return
        if self.skipping:
            return
        if self.game is None:
            raise TranscriptSyntaxError(
                f"record {index} ({RecordType(data[8]).name.lower().replace('_', ' ')}) is outside a game", self.where()
            )
        if self.ended:
            self.after_end(record, index)
        elif isinstance(record, CubeRecord):
            self.cube(record)
        elif isinstance(record, MoveRecord):
            self.move(record)
        else:
            self.end(record)

    def after_end(self, record: CubeRecord | MoveRecord | GameFooter, index: int) -> None:
        """A record after the game's footer: a cube record without a double says nothing, a roll with no play is
        the roll pending when the file was saved (the game's trailing roll, left out); anything else is read into
        the game, after its end, where the replay reports it (``action-after-end``)."""
        assert self.game is not None
        if isinstance(record, GameFooter):
            raise TranscriptSyntaxError(f"record {index} is a second footer of game {self.game.number}", self.where())
        if isinstance(record, CubeRecord):
            if record.double == 1:
                self.cube(record)
        elif record.unplayed and self.game.trailing_roll is None:
            player = _player(record.actor, "a move record", self.where(self.turns.number))
            number = self.turns.next(player)
            self.game.trailing_roll = Action(ActionKind.ROLL, player, self.where(number), number, dice=record.dice)
        else:
            self.move(record)

    def start(self, header: GameHeader) -> None:
        number = header.number if header.number > 0 else len(self.match.games) + 1
        game = Game(
            number,
            header.score,
            location=Location(self.path, game=number),
            crawford=header.crawford if self.match.length else None,
        )
        self.game = game
        self.turns = _Turns()
        self.no_double = None
        self.ended = False
        self.match.games.append(game)
        self.match.comments += [f"XG game {number}: {text}" for text in map(self.comment, header.comments) if text]
        if not any(header.start):
            # No checker at all: XG leaves the start unwritten in some files it was given move by move (the first
            # game of a live transcription); the game's first record says where it starts.
            self.board = None
            self.unset_start = True
            return
        self.unset_start = False
        self.board = header.start
        start = _position(header.start)
        if start != Position.start():
            game.start = start
        if header.auto_doubles > 0:
            game.start_cube = (2 ** min(header.auto_doubles, 30), None)
            self.match.headers.append(("XG Auto Doubles", f"game {number}: {header.auto_doubles}"))

    def add(self, action: Action) -> None:
        assert self.game is not None
        self.game.actions.append(action)

    def follows(self, record: CubeRecord | MoveRecord, where: Location) -> None:
        """Mark an edited position; report one that is not where the file's last play left the board."""
        if self.unset_start and self.game is not None:
            self.unset_start = False
            start = _position(record.position)
            if start != Position.start() and any(record.position):
                self.game.start = start
        if record.edited:
            self.match.headers.append(("XG Edited", f"game {where.game} move {where.move}"))
        elif self.board is not None and record.position != self.board:
            self.match.findings.append(
                Finding(
                    Code.POSITION_MISMATCH,
                    "the position before this decision is not the one the last play left, "
                    "and XG does not mark it edited",
                    where,
                    game=where.game,
                    move=where.move or None,
                )
            )
        self.board = record.position

    def cube(self, record: CubeRecord) -> None:
        self.no_double = record if record.double == 0 else None
        doubler = _player(record.actor, "a cube record", self.where(self.turns.number))
        self.follows(record, self.where(self.turns.peek(doubler)))
        if record.double != 1:
            return
        number = self.turns.next(doubler)
        where = self.where(number)
        value = 2 ** (min(abs(record.cube), 30) + 1)
        note, flagged = self.comment(record.comment), record.flagged
        self.add(
            Action(
                ActionKind.DOUBLE,
                doubler,
                where,
                number,
                value=value,
                analysis=cube_analysis(record, self.rollouts),
                comment=note,
                flagged=flagged,
            )
        )
        taker = doubler.other
        answer = _ANSWERS.get(record.take)
        if answer is None:
            raise TranscriptSyntaxError(f"a double answered {record.take}: not 0 (pass), 1 (take) or 2 (beaver)", where)
        number = self.turns.next(taker)
        where = self.where(number)
        # XG writes no value for a beaver or raccoon: the replay's cube gives them, as for FIBS and SGF.
        self.add(
            Action(
                answer,
                taker,
                where,
                number,
                analysis=answer_analysis(record, _MADE[answer], self.rollouts),
                comment=note,
                flagged=flagged,
            )
        )
        if answer is ActionKind.BEAVER:
            self.beavered(record, doubler)

    def beavered(self, record: CubeRecord, doubler: Player) -> None:
        """The doubler's answer to a beaver: 1 take, 0 pass, 2 raccoon (then the taker's answer)."""
        if record.beaver_answer in (0, 2):
            number = self.turns.next(doubler)
            kind = ActionKind.DROP if record.beaver_answer == 0 else ActionKind.RACCOON
            self.add(Action(kind, doubler, self.where(number), number))
        if record.beaver_answer == 2 and record.raccoon_answer == 0:
            number = self.turns.next(doubler.other)
            self.add(Action(ActionKind.DROP, doubler.other, self.where(number), number))

    def move(self, record: MoveRecord) -> None:
        player = _player(record.actor, "a move record", self.where(self.turns.number))
        number = self.turns.next(player)
        where = self.where(number)
        self.follows(record, where)
        if not 0 <= record.candidate_count <= len(record.candidates) or len(record.candidates) > 32:
            raise TranscriptSyntaxError(
                f"a move record counts {record.candidate_count} candidate plays (at most 32)", where
            )
        play = "" if record.unplayed else _play(record.steps, where)
        cube = self.no_double if self.no_double is not None and self.no_double.actor == record.actor else None
        self.no_double = None
        analysis = with_cube(
            checker_analysis(record, lambda steps: _play(steps, where), self.rollouts),
            None if cube is None else cube_analysis(cube, self.rollouts),
        )
        # A comment or flag on the no-double decision before the roll belongs to this roll's decision too.
        note = self.comment(record.comment) or (None if cube is None else self.comment(cube.comment))
        flagged = record.flagged or (cube is not None and cube.flagged)
        action = Action(
            ActionKind.ROLL,
            player,
            where,
            number,
            dice=record.dice,
            play_text=play,
            analysis=analysis,
            comment=note,
            flagged=flagged,
        )
        self.add(action)
        if record.unplayed:
            # No play recorded (every from and to 0, no end position): read as a roll without a move. Inside a
            # game it is a dance (the replay says when a play was possible); as the game's last roll it is
            # settled by settle_unplayed. The board stays where it was.
            self.unplayed = action
            return
        self.unplayed = None
        end = record.position_end  # seen from the mover
        self.board = end if player is Player.ZERO else tuple(-end[25 - index] for index in range(26))

    def end(self, footer: GameFooter) -> None:
        winner = _player(footer.winner, "a game footer", self.where(self.turns.number))
        self.settle_unplayed()
        if footer.termination >= _RESIGNED:
            loser = winner.other
            number = self.turns.next(loser)
            level = footer.termination % _RESIGNED if footer.termination < _SETTLED else 0
            self.add(
                Action(ActionKind.RESIGN, loser, self.where(number), number, value=level if 1 <= level <= 3 else None)
            )
        self.add(Action(ActionKind.WIN, winner, self.where(), value=footer.points))
        self.ended = True


FORMAT = Format("xg", (".xg", ".xgp"), never, read_matches, magic=(MAGIC,), title="eXtreme Gammon .xg")
"""This reader in the format registry (:mod:`tabla_cli.formats`)."""
