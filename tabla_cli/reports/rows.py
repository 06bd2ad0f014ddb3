"""The rows one file gives the report frames, made by a replay visitor.

Each file is read and replayed on its own (in a worker process with
``jobs > 1``, :mod:`tabla_cli.reports.reading`); :class:`RowsVisitor` turns
what the replay says into plain row tuples (:class:`FileRows`), packed into
Arrow record batches every :data:`BATCH_ROWS` rows, so that a long file (a
money session of 100,000 games) holds compact columns rather than millions of
Python objects. :class:`~tabla_cli.reports.frames.FrameBuilder` gives the rows
their global match keys. No :class:`~tabla_cli.model.Match` outlives its file.
The ``decisions`` rows come from the visitor a :class:`MatchDecisions` gives
for each match (the report's is the analysis'), so this module knows nothing
of the engine.
"""

from __future__ import annotations

import datetime
import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import pyarrow as pa  # type: ignore[import-untyped]

from tabla_cli.board import BAR, Play, Player, Position
from tabla_cli.digest import Fingerprint, MatchKey
from tabla_cli.errors import Location
from tabla_cli.findings import Finding
from tabla_cli.model import Action, ActionKind, Game, Match
from tabla_cli.notation import format_play
from tabla_cli.replay import GameResult, MatchResult, replay
from tabla_cli.reports.schema import COLUMNS, FRAME_NAMES
from tabla_cli.visitor import SKIP, BaseVisitor, DecisionState, FileTee, FileVisitor, Skip, Wants

__all__ = [
    "BATCH_ROWS",
    "FileRows",
    "HeaderRows",
    "MatchDecisions",
    "RowsVisitor",
    "arrow_schema",
    "display_names",
    "match_date",
    "match_ratings",
    "parse_date",
    "parse_rating",
    "record_batch",
    "rows_visitor",
]

_DATE = re.compile(r"([0-9]{4})[ \t]*[-./][ \t]*([0-9]{1,2})[ \t]*[-./][ \t]*([0-9]{1,2})")
_RATING = re.compile(r"[-+]?[0-9]+(?:[.,][0-9]+)?")

BATCH_ROWS = 8192
"""Rows of a frame gathered as tuples before they are packed into an Arrow record batch."""


@functools.cache
def arrow_schema(name: str) -> pa.Schema:
    """The Arrow schema of frame ``name`` (:data:`~tabla_cli.reports.schema.COLUMNS`)."""
    return pa.schema([pa.field(c.name, c.arrow_type) for c in COLUMNS[name]])


def record_batch(name: str, rows: list[tuple[Any, ...]]) -> pa.RecordBatch:
    """Row tuples of frame ``name`` as one Arrow record batch."""
    columns = list(zip(*rows)) if rows else [()] * len(COLUMNS[name])
    return pa.RecordBatch.from_arrays(
        [pa.array(col, type=c.arrow_type) for col, c in zip(columns, COLUMNS[name])],
        schema=arrow_schema(name),
    )


def parse_date(text: str | None) -> str | None:
    """A header's date as ``YYYY-MM-DD``; None when it holds no valid year-month-day date.

    >>> parse_date("2024.08.04"), parse_date("2023-8-9 18:11"), parse_date("04.08.2024")
    ('2024-08-04', '2023-08-09', None)
    """
    found = _DATE.search(text or "")
    if found is None:
        return None
    try:
        return datetime.date(*(int(part) for part in found.groups())).isoformat()
    except ValueError:
        return None


_NAME_DATE = re.compile(r"(?<![0-9])((?:19|20)[0-9][0-9])[-_.]([0-9][0-9])[-_.]([0-9][0-9])(?![0-9])")


def match_date(match: Match) -> str | None:
    """The match's date (``YYYY-MM-DD``): its EventDate header, else its Date header, else a
    ``YYYY_MM_DD`` (or ``-``, ``.``) date in its file's name (as Backgammon Studio names files)."""
    for key in ("EventDate", "Date"):
        found = parse_date(match.header(key))
        if found is not None:
            return found
    named = _NAME_DATE.search(Path(match.path).name)
    return None if named is None else parse_date("-".join(named.groups()))


def parse_rating(text: str | None) -> float | None:
    """The rating a header or score line gives (the first number; a decimal comma is read as a point).

    >>> parse_rating("1623,40/1210"), parse_rating("1600.00/0"), parse_rating("n/a")
    (1623.4, 1600.0, None)
    """
    found = _RATING.search(text or "")
    return None if found is None else float(found.group().replace(",", "."))


_ELO_IS_SCORE = frozenset({"backgammongalaxy"})
"""Sites (``Site`` header, lower case, no blanks) whose ``Player N Elo`` header holds no rating.

Backgammon Galaxy writes the player's final match score there (``3,00/0``
in a 3-point match won), or that score capped at the match length.
"""


def match_ratings(match: Match) -> tuple[float | None, float | None]:
    """Each player's rating: the ``Player N Elo`` header, else the score line's (``Name,1780``).

    The header is read where a site writes a rating there; Backgammon
    Galaxy writes the final match score (see :data:`_ELO_IS_SCORE`).
    """
    site = "".join((match.header("Site") or "").split()).casefold()
    header = site not in _ELO_IS_SCORE
    out = []
    for side in (0, 1):
        rating = parse_rating(match.header(f"Player {side + 1} Elo")) if header else None
        out.append(rating if rating is not None else parse_rating(match.ratings[side]))
    return out[0], out[1]


class MatchDecisions(Protocol):
    """What fills the ``decisions`` frame: a visitor for each match, and its rows once it is replayed."""

    def visitor(self, match: Match, path: str) -> BaseVisitor[Any] | None:
        """The visitor of ``match`` (of the file at ``path``), its ``begin_match`` called; None: no decisions."""
        ...

    def rows(self, visitor: BaseVisitor[Any], match: int, names: tuple[str, str]) -> list[tuple[Any, ...]]:
        """The ``decisions`` rows of one match's ``visitor`` after the replay (``match``: the file's local key,
        ``names``: the players' names in the report)."""
        ...


@dataclass(slots=True)
class FileRows:
    """The rows one file contributes to each frame (plain, picklable tuples).

    ``match`` values are local to the file (0 = its first match) until
    :class:`~tabla_cli.reports.frames.FrameBuilder` gives them their global key;
    ``keys`` identify each match by its content (:mod:`tabla_cli.digest`).
    A frame's earlier rows are in ``batches`` (packed by :meth:`pack`), its
    latest in ``rows``.
    """

    path: str
    include: frozenset[str] = frozenset(FRAME_NAMES)
    matches: int = 0
    keys: list[tuple[MatchKey, Location]] = field(default_factory=list)
    rows: dict[str, list[tuple[Any, ...]]] = field(default_factory=lambda: {n: [] for n in FRAME_NAMES})
    batches: dict[str, list[pa.RecordBatch]] = field(default_factory=lambda: {n: [] for n in FRAME_NAMES})

    def count(self, name: str) -> int:
        """How many rows of frame ``name`` the file gave (packed or not)."""
        return len(self.rows[name]) + sum(int(batch.num_rows) for batch in self.batches[name])

    def pack(self) -> None:
        """Pack each frame's rows into a record batch once there are :data:`BATCH_ROWS` of them."""
        for name, rows in self.rows.items():
            if len(rows) >= BATCH_ROWS:
                self.batches[name].append(record_batch(name, rows))
                rows.clear()

    def add_finding(self, finding: Finding, match: int | None) -> None:
        """Record one finding of ``match`` (None: a file-level finding)."""
        if "findings" not in self.include:
            return
        loc = finding.location
        dice = f"{finding.dice[0]}{finding.dice[1]}" if finding.dice else None
        self.rows["findings"].append(
            (
                self.path,
                loc.line or None,
                loc.column or None,
                match,
                finding.game,
                finding.move,
                finding.player,
                finding.severity.value,
                finding.code,
                finding.message,
                dice,
                finding.play,
                finding.position_id,
                finding.match_id,
            )
        )

    def add_match(self, match: Match, read: Iterable[Finding] = (), decisions: MatchDecisions | None = None) -> None:
        """Replay ``match`` and record its rows.

        ``read`` are findings of reading the match (syntax errors inside a
        game, after which the reader went on); they come first. ``decisions``:
        as :class:`RowsVisitor` takes it.
        """
        replay(match, rows_visitor(self, read, decisions))


def rows_visitor(
    out: FileRows, read: Iterable[Finding] = (), decisions: MatchDecisions | None = None, *, headers: bool = False
) -> FileTee[FileRows]:
    """The report's visitor of a file: :class:`RowsVisitor`, and a :class:`~tabla_cli.digest.Fingerprint`
    for ``out.keys`` (arguments as :class:`RowsVisitor` takes them); with ``headers``, a
    :class:`HeaderRows` alone (no match is replayed, so none has a digest)."""
    if headers:
        return FileTee(HeaderRows(out, read))
    return FileTee(RowsVisitor(out, read, decisions), Fingerprint(out.keys))


class RowsVisitor(FileVisitor[FileRows]):
    """Adds the rows of each replayed match of a file to a :class:`FileRows`.

    With ``decisions`` among the frames, the same replay also feeds the
    visitor ``decisions`` gives for each match (the report's is the analysis'
    :class:`~tabla_cli.analysis.decisions.DecisionsVisitor`, see
    :class:`tabla_cli.reports.reading.ReportDecisions`), and the match's
    ``decisions`` rows are what it gives once the match ends.

    Args:
        out: the file's rows.
        read: findings of reading the next match, recorded before the replay's.
        decisions: what fills the ``decisions`` frame; None leaves it empty.
    """

    wants = Wants.FINDING | Wants.ROLL | Wants.RESIGN | Wants.UNCHECKED | Wants.CUBE | Wants.RESULT
    lazy_games = True  # only .mat is read game by game, and a .mat file records no analysis

    def __init__(self, out: FileRows, read: Iterable[Finding] = (), decisions: MatchDecisions | None = None) -> None:
        self.out = out
        self.deciding = decisions if "decisions" in out.include else None
        self.decisions: BaseVisitor[Any] | None = None
        self.replaying = False
        self.pending = list(read)
        self.read: list[Finding] = []
        self.local = out.matches
        self.plays = out.rows["plays"] if "plays" in out.include else None
        self.cubes = out.rows["cube"] if "cube" in out.include else None
        self.findings = 0
        self.error_findings = 0
        self.names: tuple[str, str] = ("", "")
        self.length = 0
        self.game = 0
        self.rolled = False

    def visit_read_finding(self, finding: Finding) -> None:
        if self.replaying:  # a match read game by game: the finding is the match's
            self.read.append(finding)
            self.out.add_finding(finding, self.local)
        else:
            self.pending.append(finding)

    def visit_file_finding(self, finding: Finding) -> None:
        self.out.add_finding(finding, None)

    def begin_match(self, match: Match) -> Skip | None:
        self.local = self.out.matches
        self.names = display_names(match.players, self.out.path, self.local)
        self.length = match.length
        self.out.matches += 1
        if self.deciding is not None:
            self.decisions = self.deciding.visitor(match, self.out.path)
        self.read, self.pending = self.pending, []
        self.replaying = True
        self.findings = self.error_findings = 0
        for finding in self.read:
            self.out.add_finding(finding, self.local)
        return None

    def visit_finding(self, finding: Finding) -> None:
        self.findings += 1
        self.error_findings += finding.severity.value == "error"
        self.out.add_finding(finding, self.local)

    def begin_game(self, game: Game, state: DecisionState) -> None:
        self.game = game.number
        self.rolled = False
        if self.decisions is not None:
            self.decisions.begin_game(game, state)

    def _opening(self) -> bool:
        """Whether the roll now visited is the game's first (and note that one was seen)."""
        first = not self.rolled
        self.rolled = True
        return first

    def visit_roll(self, state: DecisionState, action: Action, play: Play | None, after: Position | None) -> None:
        if self.decisions is not None:
            self.decisions.visit_roll(state, action, play, after)
        if self.plays is not None:
            self._play_row(self.plays, state, action, play, after)

    def visit_resign(self, state: DecisionState, action: Action) -> None:
        if self.decisions is not None:
            self.decisions.visit_resign(state, action)
        if self.plays is not None and action.kind is ActionKind.ROLL and action.dice:
            self._play_row(self.plays, state, action, None, None)  # a roll resigned instead of played

    def _play_row(
        self,
        rows: list[tuple[Any, ...]],
        state: DecisionState,
        action: Action,
        play: Play | None,
        after: Position | None,
    ) -> None:
        """Add the plays table's row of a roll to ``rows``: ``play`` None when it was not played as
        written (or was resigned)."""
        opening = self._opening()
        before = state.position
        dice = action.dice or (0, 0)
        pips = before.pips()
        pips_after: tuple[int | None, int | None] = after.pips() if after is not None else (None, None)
        hits = after.opponent[BAR] - before.opponent[BAR] if after is not None else None
        on_bar = before.mover[BAR]
        closed = sum(1 for point in range(1, 7) if before.opponent[point] >= 2)
        entered = None if not on_bar or after is None else after.mover[BAR] < on_bar
        rows.append(
            (
                self.local,
                state.game,
                action.move_number,
                self.names[action.player],
                int(action.player),
                dice[0],
                dice[1],
                f"{dice[0]}{dice[1]}",
                None if play is None else format_play(before, play),
                action.play_text or "",
                play is not None,
                hits,
                pips[0],
                pips_after[0],
                pips[1],
                pips_after[1],
                play is not None and not play and on_bar > 0,
                opening,
                True,
                on_bar,
                closed,
                entered,
            )
        )

    def visit_unchecked(self, action: Action) -> None:
        if self.decisions is not None:
            self.decisions.visit_unchecked(action)
        rows = self.plays
        if rows is None or action.kind is not ActionKind.ROLL or not action.dice:
            return
        dice = action.dice
        rows.append(
            (
                self.local,
                self.game,
                action.move_number,
                self.names[action.player],
                int(action.player),
                dice[0],
                dice[1],
                f"{dice[0]}{dice[1]}",
                None,
                action.play_text or "",
                False,
                None,
                None,
                None,
                None,
                None,
                False,
                self._opening(),
                False,
                None,
                None,
                None,
            )
        )

    def visit_cube(
        self, state: DecisionState, action: Action, cube_before: int, cube_after: int, owner: Player | None
    ) -> None:
        if self.decisions is not None:
            self.decisions.visit_cube(state, action, cube_before, cube_after, owner)
        rows = self.cubes
        if rows is None:
            return
        kind = action.kind
        if kind is ActionKind.DOUBLE:
            name = "double" if state.cube_owner is None else "redouble"
        else:
            name = kind.value
        player = action.player
        length = state.length
        mine, theirs = state.score[player], state.score[player.other]
        pips = state.position.pips()
        if player != state.on_roll:
            pips = (pips[1], pips[0])
        rows.append(
            (
                self.local,
                state.game,
                action.move_number,
                self.names[player],
                int(player),
                name,
                cube_before,
                cube_after,
                mine,
                theirs,
                length - mine if length else None,
                length - theirs if length else None,
                pips[0],
                pips[1],
            )
        )

    def visit_result(self, state: DecisionState, action: Action, game_result: GameResult) -> None:
        if self.decisions is not None:
            self.decisions.visit_result(state, action, game_result)

    def end_game(self, game_result: GameResult) -> None:
        if self.decisions is not None:
            self.decisions.end_game(game_result)
        out = self.out
        if "games" in out.include:
            names = self.names
            length = self.length
            s0, s1 = game_result.score
            won = game_result.winner
            out.rows["games"].append(
                (
                    self.local,
                    game_result.number,
                    s0,
                    s1,
                    length - s0 if length else None,
                    length - s1 if length else None,
                    None if won is None else names[won],
                    None if won is None else int(won),
                    game_result.verified_points,
                    game_result.points,
                    game_result.cube,
                    None if game_result.cube_owner is None else names[game_result.cube_owner],
                    game_result.result,
                    game_result.ended_by,
                    game_result.crawford,
                    game_result.post_crawford,
                    game_result.rolls,
                )
            )
        out.pack()

    def end_match(self, match_result: MatchResult) -> None:
        self.replaying = False
        out = self.out
        match = match_result.match
        names = self.names
        local = self.local
        error_findings = self.error_findings + sum(1 for f in self.read if f.severity.value == "error")
        findings = self.findings + len(self.read)
        length = match.length
        score = match_result.final_score
        games = match_result.games
        if self.decisions is not None and self.deciding is not None:
            out.rows["decisions"] += self.deciding.rows(self.decisions, local, names)
            self.decisions = None
            out.pack()
        winner = match_result.winner
        if "matches" in out.include:
            crawford = next((g.number for g in games if g.crawford), None)
            ratings = match_ratings(match)
            out.rows["matches"].append(
                (
                    local,
                    out.path,
                    local + 1,
                    names[0],
                    names[1],
                    length,
                    match_result.kind,
                    match.variant or None,
                    match_result.scoring,
                    match_date(match),
                    match.header("Site"),
                    ratings[0],
                    ratings[1],
                    None if winner is None else names[winner],
                    None if winner is None else int(winner),
                    score[0],
                    score[1],
                    len(games),
                    crawford,
                    findings,
                    error_findings,
                )
            )

    def result(self) -> FileRows:
        """The file's rows; syntax errors read after the last match are the file's."""
        for finding in self.pending:
            self.out.add_finding(finding, None)
        self.pending = []
        return self.out


class HeaderRows(RowsVisitor):
    """The ``matches`` rows of a file from what its matches' headers say, and what reading found: no match
    is replayed (:data:`~tabla_cli.visitor.SKIP`), so a row has no result, score, games or replay findings.

    Enough to choose matches by player, opponent, date, site and length before the one replay that
    counts (:func:`tabla_cli.reports.select.files_to_analyse`); ``decisions`` stays empty.
    """

    def __init__(self, out: FileRows, read: Iterable[Finding] = ()) -> None:
        super().__init__(out, read)

    def begin_match(self, match: Match) -> Skip | None:
        super().begin_match(match)
        self.end_match(MatchResult(match, kind="match" if match.length else "money"))
        return SKIP


def display_names(players: tuple[str, str], path: str, local: int) -> tuple[str, str]:
    """The names a match's players get in reports: an empty name (a deleted account) becomes one of its own.

    Two unnamed players are never one person: each gets a name that says
    which side of which match it played, e.g. ``(unnamed 2: match1.mat #1)``.

    >>> display_names(("ann", ""), "m.mat", 0)
    ('ann', '(unnamed 2: m.mat #1)')
    """
    if all(players):
        return players
    return (players[0] or f"(unnamed 1: {path} #{local + 1})", players[1] or f"(unnamed 2: {path} #{local + 1})")
