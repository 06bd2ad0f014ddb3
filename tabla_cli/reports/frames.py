"""Match statistics as five pandas DataFrames: matches, games, cube, plays, errors.

The frames are built by streaming: each file is read and replayed on its own
(in a worker process with ``jobs > 1``), turned into plain row tuples
(:class:`FileRows`), and the rows are packed into Arrow record batches as
they arrive. No :class:`~tabla_cli.model.Match` outlives its file, so memory
holds only the compact rows.

Every frame shares the integer key ``match`` (0, 1, ... in input order: files
in the order given, directories walked in sorted order, matches in file
order). Players are named as the transcript writes them (0 = the left column
of a ``.mat`` file); :func:`tabla_cli.reports.summaries.apply_aliases` merges
names. The columns and their dtypes are listed in :data:`COLUMNS`.

>>> [c.name for c in COLUMNS["games"]][:4]
['match', 'game', 'score0', 'score1']
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]

from tabla_cli.board import BAR, Player, Position, apply_segments
from tabla_cli.errors import InputError, InvalidPlayError, Location, TablaError, TranscriptSyntaxError
from tabla_cli.findings import CODES, Finding
from tabla_cli.model import Action, ActionKind, Game, Match
from tabla_cli.notation import format_play, parse_play
from tabla_cli.reader import decode, read_text_matches
from tabla_cli.replay import Decision, GameResult, MatchResult, replay_match
from tabla_cli.variant import Variant, find_variant

FRAME_NAMES: tuple[str, ...] = ("matches", "games", "cube", "plays", "errors")
"""The frames, in the order they are documented and written."""

RESULTS = ("single", "gammon", "backgammon")
ENDINGS = ("bearoff", "drop", "resign")
CUBE_ACTIONS = ("double", "redouble", "take", "drop", "beaver", "raccoon")
SEVERITIES = ("error", "warning", "note")


@dataclass(frozen=True, slots=True)
class Column:
    """One documented column of a frame or summary.

    Attributes:
        name: the column name (snake_case, stable).
        dtype: the pandas dtype name: ``int64`` and ``bool`` never missing,
            ``Int64`` and ``Float64`` nullable, ``float64`` (NaN where a rate
            is undefined), ``string`` (``pd.NA`` when missing) or
            ``category`` (fixed ``categories``).
        doc: what the column holds.
        categories: the categories of a ``category`` column, in order.
    """

    name: str
    dtype: str
    doc: str
    categories: tuple[str, ...] = ()

    @property
    def pandas_dtype(self) -> Any:
        """The dtype to give the pandas column."""
        if self.dtype == "category":
            return pd.CategoricalDtype(list(self.categories), ordered=False)
        if self.dtype == "string":
            return pd.StringDtype()
        return self.dtype

    @property
    def arrow_type(self) -> pa.DataType:
        """The Arrow type rows are packed into before the pandas conversion."""
        if self.dtype in ("int64", "Int64"):
            return pa.int64()
        if self.dtype in ("float64", "Float64"):
            return pa.float64()
        if self.dtype == "bool":
            return pa.bool_()
        return pa.string()


C = Column
_MATCH_KEY = C("match", "int64", "key of the match: 0, 1, ... in input order (shared by every frame)")

COLUMNS: dict[str, tuple[Column, ...]] = {
    "matches": (
        _MATCH_KEY,
        C("file", "string", "the file the match was read from, as given"),
        C("index", "int64", "position of the match in its file (1 = first)"),
        C("player0", "string", "the first player (left column)"),
        C("player1", "string", "the second player (right column)"),
        C("length", "int64", "match length in points; 0 = money session"),
        C("variant", "string", "the variant (nackgammon, hypergammon, ...); missing = standard backgammon"),
        C("date", "string", "the EventDate header as written, if any"),
        C("winner", "string", "the player who reached the match length; missing for money sessions and "
                              "incomplete matches"),
        C("winner_side", "Int64", "0 or 1: the side of the winner"),
        C("score0", "int64", "final score of player0 (the running score after the last game)"),
        C("score1", "int64", "final score of player1"),
        C("games", "int64", "games in the transcript"),
        C("crawford_game", "Int64", "number of the Crawford game, if one was played"),
        C("findings", "int64", "findings of the check in this match (all severities)"),
        C("errors", "int64", "findings of severity error"),
    ),
    "games": (
        _MATCH_KEY,
        C("game", "int64", "the game number as written"),
        C("score0", "int64", "player0's score before the game"),
        C("score1", "int64", "player1's score before the game"),
        C("away0", "Int64", "points player0 still needed before the game (missing in money play)"),
        C("away1", "Int64", "points player1 still needed before the game"),
        C("winner", "string", "the player credited with the game; missing if no result"),
        C("winner_side", "Int64", "0 or 1: the side of the winner"),
        C("points", "Int64", "points won, as the transcript records them"),
        C("cube", "int64", "cube value at the end (a dropped double leaves the value before it)"),
        C("cube_owner", "string", "who owned the cube at the end; missing = centred"),
        C("result", "category", "single, gammon or backgammon", RESULTS),
        C("ended_by", "category", "bearoff, drop or resign", ENDINGS),
        C("crawford", "bool", "the Crawford game (no doubling)"),
        C("post_crawford", "bool", "a game after the Crawford game"),
        C("moves", "int64", "rolls recorded in the game, dances included"),
    ),
    "cube": (
        _MATCH_KEY,
        C("game", "int64", "the game number"),
        C("move", "Int64", "the printed move number of the action's line"),
        C("player", "string", "who acts"),
        C("side", "int64", "0 or 1: the side of the player"),
        C("action", "category", "double (centred cube), redouble (owned cube), take, drop, beaver, raccoon",
          CUBE_ACTIONS),
        C("cube_before", "int64", "cube value before the action (for a beaver: the value of the double "
                                  "it takes)"),
        C("cube_after", "int64", "cube value after it (for a double: the value offered; a drop leaves it "
                                 "unchanged)"),
        C("score_player", "int64", "the acting player's match score before the game"),
        C("score_opponent", "int64", "the opponent's match score before the game"),
        C("away_player", "Int64", "points the acting player still needs (missing in money play)"),
        C("away_opponent", "Int64", "points the opponent still needs"),
        C("pips_player", "Int64", "the acting player's pip count at the decision"),
        C("pips_opponent", "Int64", "the opponent's pip count at the decision"),
    ),
    "plays": (
        _MATCH_KEY,
        C("game", "int64", "the game number"),
        C("move", "Int64", "the printed move number"),
        C("player", "string", "who rolled"),
        C("side", "int64", "0 or 1"),
        C("die1", "int64", "first die as written"),
        C("die2", "int64", "second die as written"),
        C("dice", "string", "the roll as written, e.g. 64"),
        C("play", "string", "the play in GNU Backgammon notation ('' = no move); missing when the written "
                            "play is not legal"),
        C("written", "string", "the play as the transcript writes it"),
        C("legal", "bool", "the written play is legal for the dice"),
        C("hits", "Int64", "opponent checkers sent to the bar"),
        C("pips_before", "int64", "the mover's pip count before the play"),
        C("pips_after", "Int64", "the mover's pip count after it"),
        C("opponent_pips_before", "int64", "the opponent's pip count before the play"),
        C("opponent_pips_after", "Int64", "the opponent's pip count after it (grows with hits)"),
        C("dance", "bool", "the mover had a checker on the bar and could not move"),
    ),
    "errors": (
        C("file", "string", "the file"),
        C("line", "Int64", "line of the finding (missing for a whole-file finding)"),
        C("column", "Int64", "column of the finding"),
        C("match", "Int64", "the match key; missing when the file could not be read"),
        C("game", "Int64", "game number"),
        C("move", "Int64", "printed move number"),
        C("player", "string", "the player who acted"),
        C("severity", "category", "error, warning or note", SEVERITIES),
        C("code", "category", "the finding code of tabla check", tuple(CODES)),
        C("message", "string", "the message"),
        C("dice", "string", "the roll, e.g. 64"),
        C("play", "string", "the play as written"),
        C("position_id", "string", "GNU Backgammon Position ID before the action"),
        C("gnubg_match_id", "string", "GNU Backgammon Match ID before the action"),
    ),
}
"""The columns of every frame, in order, with dtypes and meanings."""

del C

_INDEX = {name: {c.name: i for i, c in enumerate(cols)} for name, cols in COLUMNS.items()}
_FLUSH_ROWS = 8192


def empty_frame(name: str) -> pd.DataFrame:
    """A frame ``name`` with no rows, with its columns and dtypes."""
    return _to_pandas(name, [])


def _schema(name: str) -> pa.Schema:
    return pa.schema([pa.field(c.name, c.arrow_type) for c in COLUMNS[name]])


_PANDAS_TYPES: dict[pa.DataType, Any] = {
    pa.int64(): pd.Int64Dtype(),
    pa.float64(): pd.Float64Dtype(),
    pa.bool_(): pd.BooleanDtype(),
    pa.string(): pd.StringDtype(),
}


def _to_pandas(name: str, batches: list[pa.RecordBatch]) -> pd.DataFrame:
    table = pa.Table.from_batches(batches, schema=_schema(name))
    df: pd.DataFrame = table.to_pandas(types_mapper=_PANDAS_TYPES.get)
    return df.astype({c.name: c.pandas_dtype for c in COLUMNS[name]})


# --- rows of one file ---------------------------------------------------------


@dataclass(slots=True)
class FileRows:
    """The rows one file contributes to each frame (plain, picklable tuples).

    ``match`` values are local to the file (0 = its first match) until
    :class:`FrameBuilder` gives them their global key.
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

    def add_match(self, match: Match, result: MatchResult, read: Iterable[Finding] = ()) -> None:
        """Record the rows of one replayed match (replayed with ``collect=True``).

        ``read`` are findings of reading the match (syntax errors inside a
        game, after which the reader went on); they come first.
        """
        local = self.matches
        self.matches += 1
        findings = [*read, *result.findings]
        for finding in findings:
            self.add_finding(finding, local)
        length = match.length
        score = result.final_score
        winner: Player | None = None
        if length and max(score) >= length:
            winner = Player.ZERO if score[0] >= length else Player.ONE
        crawford = next((g.number for g in result.games if g.crawford), None)
        errors = sum(1 for f in findings if f.severity.value == "error")
        if "matches" in self.include:
            self.rows["matches"].append((
                local, self.path, local + 1, match.players[0], match.players[1], length,
                match.variant or None, match.header("EventDate"),
                None if winner is None else match.players[winner], None if winner is None else int(winner),
                score[0], score[1], len(result.games), crawford, len(findings), errors,
            ))
        walk = bool(self.include & {"cube", "plays"})
        variant = find_variant(match.variant) if walk else None
        for game, res in zip(match.games, result.games):
            if "games" in self.include:
                self._game_row(local, match, res)
            if variant is not None:
                _GameWalk(self, local, match, variant, game, res).run()

    def _game_row(self, local: int, match: Match, res: GameResult) -> None:
        length = match.length
        names = match.players
        s0, s1 = res.score
        winner = res.winner
        self.rows["games"].append((
            local, res.number, s0, s1, length - s0 if length else None, length - s1 if length else None,
            None if winner is None else names[winner], None if winner is None else int(winner),
            res.points, res.cube, None if res.cube_owner is None else names[res.cube_owner],
            res.result, res.ended_by, res.crawford, res.post_crawford, res.rolls,
        ))


class _GameWalk:
    """Walks one game's actions beside its replay to find cube states and pips.

    The replay keeps a :class:`~tabla_cli.replay.Decision` for every roll it
    checked; cube actions are followed here with the replay's own rules
    (an unanswered double counts as taken, nothing counts after the end).
    """

    def __init__(self, out: FileRows, local: int, match: Match, variant: Variant, game: Game,
                 res: GameResult) -> None:
        self.out = out
        self.local = local
        self.match = match
        self.variant = variant
        self.game = game
        self.res = res
        self.plays = "plays" in out.include
        self.board: Position | None = game.start or variant.start_position()
        self.side = Player.ZERO
        self.last: tuple[Decision, Action] | None = None
        cube, owner = game.start_cube or (1, None)
        self.cube = cube
        self.owner = owner
        self.pending: tuple[Player, int] | None = None
        self.last_cube: Player | None = None
        self.over = False

    def run(self) -> None:
        decisions = {id(d.action): d for d in self.res.decisions}
        cube_rows = "cube" in self.out.include
        for action in self.game.actions:
            kind = action.kind
            if kind in (ActionKind.WIN, ActionKind.LOSS) or self.over:
                continue
            decision = decisions.get(id(action)) if kind is ActionKind.ROLL else None
            if decision is None:
                self.settle()
                if self.over:
                    continue
            pending = self.pending
            if pending is not None and kind not in (
                ActionKind.TAKE, ActionKind.DROP, ActionKind.BEAVER, ActionKind.RACCOON, ActionKind.RESIGN
            ):
                self.cube, self.owner, self.pending = pending[1], pending[0].other, None
                pending = None
            if kind is ActionKind.ROLL:
                self.roll(action, decision)
                continue
            if kind is ActionKind.RESIGN:
                self.over = True
                self.pending = None
                continue
            answers = pending is not None and pending[0] != action.player
            before = self.cube
            if kind is ActionKind.DOUBLE:
                name = "double" if self.owner is None else "redouble"
                after = action.value or self.cube * 2
                self.pending = (action.player, after)
                self.last_cube = action.player
            elif kind is ActionKind.TAKE:
                if answers:
                    assert pending is not None
                    self.cube, self.owner, self.pending = pending[1], action.player, None
                name, after = "take", self.cube
            elif kind is ActionKind.DROP:
                name, after = "drop", self.cube
                if answers:
                    self.over = True
                    self.pending = None
            else:
                name = kind.value
                if self.last_cube is None or self.last_cube == action.player:
                    after = before  # nothing to beaver: the replay reports it and changes nothing
                else:
                    after = action.value or self.cube * 4
                    if answers:
                        assert pending is not None
                        before = pending[1]
                    self.cube, self.owner, self.pending = after, action.player, None
                    self.last_cube = action.player
            if cube_rows:
                self.cube_row(action, name, before, after)

    @staticmethod
    def after(decision: Decision, action: Action) -> Position | None:
        """The position after a checked roll, seen from the roller (None if it cannot be applied)."""
        if decision.play is not None:
            return decision.position.apply(decision.play)
        try:
            return apply_segments(decision.position, parse_play(action.play_text or ""))
        except InvalidPlayError:
            return None

    def settle(self) -> None:
        """Work out the board after the last roll (only when something needs it: it is the slow part)."""
        if self.last is None:
            return
        decision, action = self.last
        self.last = None
        after = self.after(decision, action)
        self.set_board(action, after)

    def set_board(self, action: Action, after: Position | None) -> None:
        if after is not None and self.variant.is_over(after):
            self.over = True
        self.board = None if after is None else after.flip()
        self.side = action.player.other

    def pips(self, player: Player) -> tuple[int | None, int | None]:
        if self.board is None:
            return None, None
        mine, theirs = self.board.pips()
        return (mine, theirs) if player == self.side else (theirs, mine)

    def cube_row(self, action: Action, name: str, before: int, after: int) -> None:
        player = action.player
        length = self.match.length
        score = self.res.score
        mine, theirs = score[player], score[player.other]
        pips = self.pips(player)
        self.out.rows["cube"].append((
            self.local, self.res.number, action.move_number, self.match.players[player], int(player), name,
            before, after, mine, theirs, length - mine if length else None,
            length - theirs if length else None, pips[0], pips[1],
        ))

    def roll(self, action: Action, decision: Decision | None) -> None:
        if decision is None:
            # a resignation in place of a play, or a game the replay stopped checking
            self.board = None
            return
        if not self.plays:
            self.last = (decision, action)
            return
        after = self.after(decision, action)
        self.play_row(action, decision.position, decision.play, after)
        self.set_board(action, after)

    def play_row(self, action: Action, before: Position, play: tuple[Any, ...] | None,
                 after: Position | None) -> None:
        dice = action.dice or (0, 0)
        pips = before.pips()
        pips_after: tuple[int | None, int | None] = after.pips() if after is not None else (None, None)
        hits = after.opponent[BAR] - before.opponent[BAR] if after is not None else None
        self.out.rows["plays"].append((
            self.local, self.res.number, action.move_number, self.match.players[action.player],
            int(action.player), dice[0], dice[1], f"{dice[0]}{dice[1]}",
            None if play is None else format_play(before, play), action.play_text or "", play is not None,
            hits, pips[0], pips_after[0], pips[1], pips_after[1],
            play is not None and not play and before.mover[BAR] > 0,
        ))


def text_rows(text: str, path: str, *, include: Iterable[str] = FRAME_NAMES) -> FileRows:
    """The rows of every match in ``text``; never raises for bad input.

    A file that cannot be read, or stops following its format, gives an
    ``unreadable-file`` or ``syntax-error`` row in ``errors`` (the matches
    before the bad spot are kept), as ``tabla check`` reports it.
    """
    rows = FileRows(path, frozenset(include))
    syntax: list[Finding] = []

    def on_error(exc: TranscriptSyntaxError) -> None:
        syntax.append(Finding("syntax-error", exc.message, exc.location or Location(path)))

    try:
        for match in read_text_matches(text, path, on_error):
            rows.add_match(match, replay_match(match, collect=True), syntax)
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
        data = Path(path).read_bytes()
    except OSError as exc:
        rows = FileRows(path, frozenset(include))
        rows.add_finding(Finding("unreadable-file", exc.strerror or str(exc), Location(path)), None)
        return rows
    return text_rows(decode(data), path, include=include)


def iter_file_rows(paths: Iterable[str], *, jobs: int = 1,
                   include: Iterable[str] = FRAME_NAMES) -> Iterator[FileRows]:
    """:class:`FileRows` of each file, in input order, with ``jobs`` processes."""
    names = list(paths)
    work = functools.partial(file_rows, include=frozenset(include))
    jobs = min(jobs, len(names))
    if jobs <= 1:
        for name in names:
            yield work(name)
        return
    chunk = max(1, min(8, len(names) // (jobs * 8)))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(work, names, chunksize=chunk)


# --- frames -------------------------------------------------------------------


@dataclass(frozen=True)
class Frames:
    """The five report frames (a frame not asked for is empty but typed).

    Attributes:
        matches: one row per match.
        games: one row per game.
        cube: one row per cube action.
        plays: one row per roll the replay checked.
        errors: one row per finding of ``tabla check``.
        files: how many files were read.
    """

    matches: pd.DataFrame
    games: pd.DataFrame
    cube: pd.DataFrame
    plays: pd.DataFrame
    errors: pd.DataFrame
    files: int = 0

    def __getitem__(self, name: str) -> pd.DataFrame:
        if name not in FRAME_NAMES:
            raise KeyError(name)
        frame: pd.DataFrame = getattr(self, name)
        return frame

    def items(self) -> Iterator[tuple[str, pd.DataFrame]]:
        """``(name, frame)`` pairs in :data:`FRAME_NAMES` order."""
        for name in FRAME_NAMES:
            yield name, self[name]

    @classmethod
    def from_dict(cls, frames: Mapping[str, pd.DataFrame], files: int = 0) -> Frames:
        """Frames from ``{name: frame}``; a missing name gets an empty frame."""
        def get(name: str) -> pd.DataFrame:
            return frames[name] if name in frames else empty_frame(name)

        return cls(get("matches"), get("games"), get("cube"), get("plays"), get("errors"), files)

    def replace(self, **frames: pd.DataFrame) -> Frames:
        """A copy with some frames replaced."""
        current = dict(self.items())
        current.update(frames)
        return Frames.from_dict(current, self.files)


NAME_COLUMNS: dict[str, tuple[str, ...]] = {
    "matches": ("player0", "player1", "winner"),
    "games": ("winner", "cube_owner"),
    "cube": ("player",),
    "plays": ("player",),
    "errors": ("player",),
}
"""The columns of each frame that hold a player's name (rewritten by aliases)."""


class FrameBuilder:
    """Accumulates :class:`FileRows` into Arrow batches; :meth:`frames` makes the DataFrames.

    Args:
        include: the frames to fill.
        keep: the frames to hold in memory for :meth:`frames` (default: all
            of ``include``); the others come back empty.
        aliases: player names to rewrite as rows arrive (``alias -> player``).
        sink: a directory to stream every included frame into, as
            ``<name>.parquet``, batch by batch (read back with :func:`read_frames`).

    >>> builder = FrameBuilder()
    >>> builder.frames().games.shape
    (0, 16)
    """

    def __init__(self, include: Iterable[str] = FRAME_NAMES, *, keep: Iterable[str] | None = None,
                 aliases: Mapping[str, str] | None = None, sink: str | Path | None = None) -> None:
        self.include = frozenset(include)
        self.keep = self.include if keep is None else frozenset(keep) & self.include
        unknown = self.include - set(FRAME_NAMES)
        if unknown:
            raise ValueError(f"unknown frames: {', '.join(sorted(unknown))}")
        self.aliases = dict(aliases or {})
        self.sink = None if sink is None else Path(sink)
        self.files = 0
        self.matches = 0
        self._pending: dict[str, list[tuple[Any, ...]]] = {n: [] for n in FRAME_NAMES}
        self._batches: dict[str, list[pa.RecordBatch]] = {n: [] for n in FRAME_NAMES}
        self._writers: dict[str, pq.ParquetWriter] = {}
        self._renames = {
            name: tuple(_INDEX[name][c] for c in NAME_COLUMNS[name]) if self.aliases else ()
            for name in FRAME_NAMES
        }

    def add(self, rows: FileRows) -> None:
        """Add one file's rows, giving its matches their global keys."""
        offset = self.matches
        aliases = self.aliases
        for name in self.include:
            new = rows.rows[name]
            if not new:
                continue
            at = _INDEX[name]["match"]
            renames = self._renames[name]
            pending = self._pending[name]
            for row in new:
                local = row[at]
                if local is not None or renames:
                    cells = list(row)
                    if local is not None:
                        cells[at] = local + offset
                    for i in renames:
                        cells[i] = aliases.get(cells[i], cells[i])
                    row = tuple(cells)
                pending.append(row)
            if len(pending) >= _FLUSH_ROWS:
                self._flush(name)
        self.matches += rows.matches
        self.files += 1

    def _flush(self, name: str) -> None:
        pending = self._pending[name]
        if not pending:
            return
        columns = list(zip(*pending))
        batch = pa.RecordBatch.from_arrays(
            [pa.array(col, type=c.arrow_type) for col, c in zip(columns, COLUMNS[name])],
            schema=_schema(name),
        )
        pending.clear()
        if name in self.keep:
            self._batches[name].append(batch)
        if self.sink is not None:
            self._write(name, _to_pandas(name, [batch]))

    def _write(self, name: str, df: pd.DataFrame) -> None:
        assert self.sink is not None
        schema = _parquet_schema(name)
        writer = self._writers.get(name)
        if writer is None:
            writer = self._writers[name] = pq.ParquetWriter(self.sink / f"{name}.parquet", schema)
        writer.write_table(pa.Table.from_pandas(df, schema=schema, preserve_index=False))

    def close(self) -> None:
        """Flush everything and close the Parquet files of ``sink``."""
        for name in FRAME_NAMES:
            if name in self.include:
                self._flush(name)
            if self.sink is not None and name in self.include and name not in self._writers:
                self._write(name, empty_frame(name))
        for writer in self._writers.values():
            writer.close()
        self._writers.clear()

    def frames(self) -> Frames:
        """The DataFrames of everything added so far (closes ``sink``)."""
        self.close()
        out = {name: _to_pandas(name, self._batches[name]) for name in FRAME_NAMES}
        return Frames.from_dict(out, files=self.files)


@functools.cache
def _parquet_schema(name: str) -> pa.Schema:
    return pa.Schema.from_pandas(empty_frame(name), preserve_index=False)


def write_frames(frames: Frames, directory: str | Path) -> list[Path]:
    """Write every frame of ``frames`` as ``directory/<name>.parquet``; returns the paths."""
    out = []
    for name, df in frames.items():
        path = Path(directory) / f"{name}.parquet"
        schema = _parquet_schema(name)
        pq.write_table(pa.Table.from_pandas(df, schema=schema, preserve_index=False), path)
        out.append(path)
    return out


def read_frames(directory: str | Path) -> Frames:
    """Read frames written by ``tabla report --frames`` back with their documented dtypes.

    (``pandas.read_parquet`` alone gives category columns only the
    categories that occur.) A missing file gives an empty frame.
    """
    out: dict[str, pd.DataFrame] = {}
    for name in FRAME_NAMES:
        path = Path(directory) / f"{name}.parquet"
        if path.exists():
            df = pd.read_parquet(path)
            out[name] = df.astype({c.name: c.pandas_dtype for c in COLUMNS[name]})
        else:
            out[name] = empty_frame(name)
    return Frames.from_dict(out)


def build_frames(paths: Iterable[str | Path], *, jobs: int = 1, include: Iterable[str] = FRAME_NAMES,
                 keep: Iterable[str] | None = None, aliases: Mapping[str, str] | None = None,
                 sink: str | Path | None = None, progress: Callable[[], None] | None = None) -> Frames:
    """Read and replay every match below ``paths`` into :class:`Frames`.

    Args:
        paths: files and directories (walked in sorted order, hidden entries skipped).
        jobs: worker processes; the result does not depend on it.
        include: the frames to fill (leaving out ``plays`` is faster and
            smaller); the others come back empty.
        keep: the frames to return filled (default: ``include``); with
            ``sink`` the others are only written.
        aliases: ``alias -> player`` names to rewrite in every frame.
        sink: a directory to stream the included frames into as Parquet.
        progress: called once per file read.
    """
    from tabla_cli.check import collect_paths

    builder = FrameBuilder(include, keep=keep, aliases=aliases, sink=sink)
    names = collect_paths(str(p) for p in paths)
    for rows in iter_file_rows(names, jobs=jobs, include=builder.include):
        builder.add(rows)
        if progress is not None:
            progress()
    return builder.frames()


def frames_from_text(text: str, path: str = "<string>", *, include: Iterable[str] = FRAME_NAMES) -> Frames:
    """:class:`Frames` of the transcript(s) in ``text`` (for notebooks and tests)."""
    builder = FrameBuilder(include)
    builder.add(text_rows(text, path, include=include))
    return builder.frames()


def frames_from_matches(matches: Iterable[Match], *, include: Iterable[str] = FRAME_NAMES) -> Frames:
    """:class:`Frames` of matches already read (``file`` is each match's ``path``)."""
    builder = FrameBuilder(include)
    for match in matches:
        rows = FileRows(match.path, builder.include)
        rows.add_match(match, replay_match(match, collect=True))
        builder.add(rows)
    return builder.frames()
