"""The rows one file gives the report frames, made by a replay visitor.

Each file is read and replayed on its own (in a worker process with
``jobs > 1``); :class:`RowsVisitor` turns what the replay says into plain row
tuples (:class:`FileRows`), which :class:`~tabla_cli.reports.frames.FrameBuilder`
packs into Arrow batches. No :class:`~tabla_cli.model.Match` outlives its file.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from tabla_cli.board import BAR, Play, Player, Position
from tabla_cli.errors import InputError, Location, TablaError, TranscriptSyntaxError
from tabla_cli.findings import Finding
from tabla_cli.model import Action, ActionKind, Match
from tabla_cli.notation import format_play
from tabla_cli.formats._syntax import ErrorHandler
from tabla_cli.reader import read_path_matches, read_text_matches
from tabla_cli.replay import MatchResult, replay
from tabla_cli.reports.schema import FRAME_NAMES
from tabla_cli.source import map_in_order
from tabla_cli.visitor import BaseVisitor, DecisionState

__all__ = ["FileRows", "RowsVisitor", "file_rows", "iter_file_rows", "text_rows"]


@dataclass(slots=True)
class FileRows:
    """The rows one file contributes to each frame (plain, picklable tuples).

    ``match`` values are local to the file (0 = its first match) until
    :class:`~tabla_cli.reports.frames.FrameBuilder` gives them their global key.
    """

    path: str
    include: frozenset[str] = frozenset(FRAME_NAMES)
    matches: int = 0
    rows: dict[str, list[tuple[Any, ...]]] = field(default_factory=lambda: {n: [] for n in FRAME_NAMES})

    def add_finding(self, finding: Finding, match: int | None) -> None:
        """Record one finding of ``match`` (None: a file-level finding)."""
        if "errors" not in self.include:
            return
        loc = finding.location
        dice = f"{finding.dice[0]}{finding.dice[1]}" if finding.dice else None
        self.rows["errors"].append((
            self.path, loc.line or None, loc.column or None, match, finding.game, finding.move,
            finding.player, finding.severity.value, finding.code, finding.message, dice, finding.play,
            finding.position_id, finding.match_id,
        ))

    def add_match(self, match: Match, read: Iterable[Finding] = ()) -> None:
        """Replay ``match`` and record its rows.

        ``read`` are findings of reading the match (syntax errors inside a
        game, after which the reader went on); they come first.
        """
        replay(match, RowsVisitor(self, list(read)))


class RowsVisitor(BaseVisitor[None]):
    """Adds the rows of one replayed match to a :class:`FileRows`.

    Args:
        out: the file's rows.
        read: findings of reading the match, recorded before the replay's.
    """

    def __init__(self, out: FileRows, read: list[Finding]) -> None:
        self.out = out
        self.read = read
        self.local = out.matches
        self.plays = out.rows["plays"] if "plays" in out.include else None
        self.cubes = out.rows["cube"] if "cube" in out.include else None
        self.findings = 0
        self.errors = 0
        self.names: tuple[str, str] = ("", "")

    def begin_match(self, match: Match) -> None:
        self.names = match.players
        self.out.matches += 1
        for finding in self.read:
            self.out.add_finding(finding, self.local)

    def visit_finding(self, finding: Finding) -> None:
        self.findings += 1
        self.errors += finding.severity.value == "error"
        self.out.add_finding(finding, self.local)

    def visit_roll(self, state: DecisionState, action: Action, play: Play | None, after: Position | None) -> None:
        rows = self.plays
        if rows is None:
            return
        before = state.position
        dice = action.dice or (0, 0)
        pips = before.pips()
        pips_after: tuple[int | None, int | None] = after.pips() if after is not None else (None, None)
        hits = after.opponent[BAR] - before.opponent[BAR] if after is not None else None
        rows.append((
            self.local, state.game, action.move_number, self.names[action.player],
            int(action.player), dice[0], dice[1], f"{dice[0]}{dice[1]}",
            None if play is None else format_play(before, play), action.play_text or "", play is not None,
            hits, pips[0], pips_after[0], pips[1], pips_after[1],
            play is not None and not play and before.mover[BAR] > 0,
        ))

    def visit_cube(self, state: DecisionState, action: Action, cube_before: int, cube_after: int,
                   owner: Player | None) -> None:
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
        rows.append((
            self.local, state.game, action.move_number, self.names[player], int(player), name,
            cube_before, cube_after, mine, theirs, length - mine if length else None,
            length - theirs if length else None, pips[0], pips[1],
        ))

    def end_match(self, match_result: MatchResult) -> None:
        out = self.out
        match = match_result.match
        local = self.local
        errors = self.errors + sum(1 for f in self.read if f.severity.value == "error")
        findings = self.findings + len(self.read)
        length = match.length
        score = match_result.final_score
        winner: Player | None = None
        if length and max(score) >= length:
            winner = Player.ZERO if score[0] >= length else Player.ONE
        games = match_result.games
        if "matches" in out.include:
            crawford = next((g.number for g in games if g.crawford), None)
            out.rows["matches"].append((
                local, out.path, local + 1, match.players[0], match.players[1], length,
                match.variant or None, match.header("EventDate"),
                None if winner is None else match.players[winner], None if winner is None else int(winner),
                score[0], score[1], len(games), crawford, findings, errors,
            ))
        if "games" not in out.include:
            return
        names = match.players
        for res in games:
            s0, s1 = res.score
            won = res.winner
            out.rows["games"].append((
                local, res.number, s0, s1, length - s0 if length else None, length - s1 if length else None,
                None if won is None else names[won], None if won is None else int(won),
                res.points, res.cube, None if res.cube_owner is None else names[res.cube_owner],
                res.result, res.ended_by, res.crawford, res.post_crawford, res.rolls,
            ))

    def result(self) -> None:
        return None


def text_rows(text: str, path: str, *, include: Iterable[str] = FRAME_NAMES) -> FileRows:
    """The rows of every match in ``text``; never raises for bad input.

    A file that cannot be read, or stops following its format, gives an
    ``unreadable-file`` or ``syntax-error`` row in ``errors`` (the matches
    before the bad spot are kept), as ``tabla check`` reports it.
    """
    return _rows(lambda on_error: read_text_matches(text, path, on_error), path, include)


def _rows(read: Callable[[ErrorHandler], Iterator[Match]], path: str, include: Iterable[str]) -> FileRows:
    """The rows of every match ``read(on_error)`` gives, one match at a time; never raises for bad input."""
    rows = FileRows(path, frozenset(include))
    syntax: list[Finding] = []

    def on_error(exc: TranscriptSyntaxError) -> None:
        syntax.append(Finding("syntax-error", exc.message, exc.location or Location(path)))

    try:
        for match in read(on_error):
            rows.add_match(match, syntax)
            syntax.clear()
    except InputError as exc:
        code = "unreadable-file" if exc.location is None or not exc.location.line else "syntax-error"
        rows.add_finding(Finding(code, exc.message, exc.location or Location(path)), None)
    except TablaError as exc:
        rows.add_finding(Finding("unreadable-file", str(exc), Location(path)), None)
    for finding in syntax:
        rows.add_finding(finding, None)
    return rows


def file_rows(path: str, *, include: Iterable[str] = FRAME_NAMES) -> FileRows:
    """The rows of every match in the file at ``path``; never raises for bad input."""
    try:
        return _rows(lambda on_error: read_path_matches(path, on_error), path, include)
    except OSError as exc:
        rows = FileRows(path, frozenset(include))
        rows.add_finding(Finding("unreadable-file", exc.strerror or str(exc), Location(path)), None)
        return rows


def iter_file_rows(paths: Iterable[str], *, jobs: int = 1,
                   include: Iterable[str] = FRAME_NAMES) -> Iterator[FileRows]:
    """:class:`FileRows` of each file, in input order, with ``jobs`` processes."""
    work = functools.partial(file_rows, include=frozenset(include))
    return map_in_order(work, paths, jobs, per_job=8, max_chunk=8)
