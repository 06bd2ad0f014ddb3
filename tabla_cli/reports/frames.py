"""Match statistics as pandas DataFrames: matches, games, cube, plays, findings, decisions.

The frames are built by streaming: each file is read and replayed on its own
(in a worker process with ``jobs > 1``), turned into plain row tuples
(:class:`~tabla_cli.reports.rows.FileRows`, made by a replay visitor), and
the rows are packed into Arrow record batches as they arrive. No
:class:`~tabla_cli.model.Match` outlives its file, so memory holds only the
compact rows.

Every frame shares the integer key ``match`` (0, 1, ... in input order: files
in the order given, directories walked in sorted order, matches in file
order). Players are named as the transcript writes them (0 = the left column
of a ``.mat`` file); :func:`tabla_cli.reports.summaries.apply_aliases` merges
names. The columns and their dtypes are listed in
:data:`~tabla_cli.reports.schema.COLUMNS`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd
import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]

from tabla_cli.columns import Column
from tabla_cli.digest import Duplicates
from tabla_cli.model import Match
from tabla_cli.pipeline import ReadOptions
from tabla_cli.reports.reading import ReportDecisions, file_rows, iter_file_rows, text_rows
from tabla_cli.reports.rows import BATCH_ROWS, FileRows, arrow_schema, record_batch
from tabla_cli.reports.schema import (
    COLUMNS,
    CUBE_ACTIONS,
    ENDINGS,
    FRAME_NAMES,
    INDEX,
    NAME_COLUMNS,
    RESULTS,
    SEVERITIES,
)
from tabla_cli.source import collect_sources

if TYPE_CHECKING:
    from tabla_cli.analysis.decisions import AnalysisOptions

__all__ = [
    "COLUMNS",
    "CUBE_ACTIONS",
    "ENDINGS",
    "FRAME_NAMES",
    "NAME_COLUMNS",
    "RESULTS",
    "SEVERITIES",
    "Column",
    "FileRows",
    "FrameBuilder",
    "Frames",
    "build_frames",
    "decisions_of",
    "empty_frame",
    "file_rows",
    "frames_from_matches",
    "frames_from_text",
    "iter_file_rows",
    "read_frames",
    "text_rows",
    "write_frames",
]


def empty_frame(name: str) -> pd.DataFrame:
    """A frame ``name`` with no rows, with its columns and dtypes."""
    return _to_pandas(name, [])


_PANDAS_TYPES: dict[pa.DataType, Any] = {
    pa.int64(): pd.Int64Dtype(),
    pa.float64(): pd.Float64Dtype(),
    pa.bool_(): pd.BooleanDtype(),
    pa.string(): pd.StringDtype(),
}


def _to_pandas(name: str, batches: list[pa.RecordBatch]) -> pd.DataFrame:
    """A frame of ``batches``; the list is emptied, so that Arrow frees each column once converted."""
    table = pa.Table.from_batches(batches, schema=arrow_schema(name))
    batches.clear()
    df: pd.DataFrame = table.to_pandas(types_mapper=_PANDAS_TYPES.get, self_destruct=True, split_blocks=True)
    del table
    return df.astype({c.name: c.pandas_dtype for c in COLUMNS[name]})


# --- frames -------------------------------------------------------------------


@dataclass(frozen=True)
class Frames:
    """The report frames (a frame not asked for is empty but typed).

    Attributes:
        matches: one row per match.
        games: one row per game.
        cube: one row per cube action.
        plays: one row per roll the replay checked.
        findings: one row per finding of ``tabla check``.
        decisions: one row per analysed decision (players' skill), from the
            analysis the inputs record or the engine (``--analyze``); empty
            when there is none.
        files: how many files were read.
    """

    matches: pd.DataFrame
    games: pd.DataFrame
    cube: pd.DataFrame
    plays: pd.DataFrame
    findings: pd.DataFrame
    decisions: pd.DataFrame
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

        return cls(get("matches"), get("games"), get("cube"), get("plays"), get("findings"), get("decisions"), files)

    def replace(self, **frames: pd.DataFrame) -> Frames:
        """A copy with some frames replaced."""
        current = dict(self.items())
        current.update(frames)
        return Frames.from_dict(current, self.files)


def decisions_of(frames: Frames) -> pd.DataFrame | None:
    """The frames' ``decisions`` frame, or None when it is empty (no analysis)."""
    decisions = frames.decisions
    return None if decisions.empty else decisions


class FrameBuilder:
    """Accumulates :class:`FileRows` into Arrow batches; :meth:`frames` makes the DataFrames.

    Args:
        include: the frames to fill.
        keep: the frames to hold in memory for :meth:`frames` (default: all
            of ``include``); the others come back empty.
        aliases: player names to rewrite as rows arrive (``alias -> player``).
        sink: a directory to stream every included frame into, as
            ``<name>.parquet``, batch by batch (read back with :func:`read_frames`).
        keep_duplicates: count every copy of a match; by default a match
            that repeats one added before (:mod:`tabla_cli.digest`) is left
            out, and counted in :attr:`duplicates`.

    >>> builder = FrameBuilder()
    >>> builder.frames().games.shape
    (0, 17)
    """

    def __init__(
        self,
        include: Iterable[str] = FRAME_NAMES,
        *,
        keep: Iterable[str] | None = None,
        aliases: Mapping[str, str] | None = None,
        sink: str | Path | None = None,
        keep_duplicates: bool = False,
    ) -> None:
        self.include = frozenset(include)
        self.seen = None if keep_duplicates else Duplicates()
        self.duplicates = 0
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
            name: tuple(INDEX[name][c] for c in NAME_COLUMNS[name]) if self.aliases else () for name in FRAME_NAMES
        }

    def _keys(self, rows: FileRows) -> list[int | None]:
        """The global key of each match of ``rows``; None for a copy of a match added before."""
        keys: list[int | None] = []
        for key, _ in rows.keys:
            if self.seen is not None and self.seen.first(key, rows.path) is not None:
                keys.append(None)
                self.duplicates += 1
            else:
                keys.append(self.matches)
                self.matches += 1
        keys += range(self.matches, self.matches + rows.matches - len(keys))
        self.matches += rows.matches - len(rows.keys)
        return keys

    def add(self, rows: FileRows) -> None:
        """Add one file's rows, giving its matches their global keys (copies of a match are left out)."""
        keys = self._keys(rows)
        aliases = self.aliases
        for name in self.include:
            packed = rows.batches[name]
            new = rows.rows[name]
            if not new and not packed:
                continue
            at = INDEX[name]["match"]
            renames = self._renames[name]
            if packed:
                self._flush(name)
                for batch in packed:
                    self._store(name, self._rekey(name, batch, keys))
            pending = self._pending[name]
            for row in new:
                local = row[at]
                if local is not None and keys[local] is None:
                    continue
                if local is not None or renames:
                    cells = list(row)
                    if local is not None:
                        cells[at] = keys[local]
                    for i in renames:
                        cells[i] = aliases.get(cells[i], cells[i])
                    row = tuple(cells)
                pending.append(row)
            if len(pending) >= BATCH_ROWS:
                self._flush(name)
        self.files += 1

    def _rekey(self, name: str, batch: pa.RecordBatch, keys: list[int | None]) -> pa.RecordBatch:
        """``batch`` with global match keys and aliases applied; rows of a copy of a match left out."""
        at = INDEX[name]["match"]
        local = batch.column(at).to_pylist()
        glob = [None if m is None else keys[m] for m in local]
        batch = batch.set_column(at, batch.schema.field(at), pa.array(glob, type=batch.schema.field(at).type))
        for i in self._renames[name]:
            names = [self.aliases.get(v, v) for v in batch.column(i).to_pylist()]
            batch = batch.set_column(i, batch.schema.field(i), pa.array(names, type=batch.schema.field(i).type))
        kept = [m is None or k is not None for m, k in zip(local, glob)]
        return batch if all(kept) else batch.filter(pa.array(kept))

    def _flush(self, name: str) -> None:
        pending = self._pending[name]
        if not pending:
            return
        batch = record_batch(name, pending)
        pending.clear()
        self._store(name, batch)

    def _store(self, name: str, batch: pa.RecordBatch) -> None:
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
        """The DataFrames of everything added (closes ``sink``; the builder is spent after it)."""
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


def build_frames(
    paths: Iterable[str | Path],
    *,
    jobs: int = 1,
    include: Iterable[str] = FRAME_NAMES,
    keep: Iterable[str] | None = None,
    aliases: Mapping[str, str] | None = None,
    sink: str | Path | None = None,
    progress: Callable[[], None] | None = None,
    keep_duplicates: bool = False,
    scoring: str | None = None,
    analyse: AnalysisOptions | None = None,
) -> Frames:
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
        keep_duplicates: count every copy of a match (by default only the
            first copy, in input order, counts).
        scoring: a scoring rule set (``standard``, ``1-2-4-8``) that wins over
            the transcripts' headers.
        analyse: analyse the matches that record no analysis with the engine
            (``decisions`` holds the recorded analysis anyway).
    """
    builder = FrameBuilder(include, keep=keep, aliases=aliases, sink=sink, keep_duplicates=keep_duplicates)
    names = collect_sources(str(p) for p in paths)
    for rows in iter_file_rows(
        names, jobs=jobs, include=builder.include, options=ReadOptions(scoring=scoring), analyse=analyse
    ):
        builder.add(rows)
        if progress is not None:
            progress()
    return builder.frames()


def frames_from_text(
    text: str,
    path: str = "<string>",
    *,
    include: Iterable[str] = FRAME_NAMES,
    scoring: str | None = None,
    analyse: AnalysisOptions | None = None,
) -> Frames:
    """:class:`Frames` of the transcript(s) in ``text`` (for notebooks and tests)."""
    builder = FrameBuilder(include)
    builder.add(text_rows(text, path, include=include, scoring=scoring, analyse=analyse))
    return builder.frames()


def frames_from_matches(matches: Iterable[Match], *, include: Iterable[str] = FRAME_NAMES) -> Frames:
    """:class:`Frames` of matches already read (``file`` is each match's ``path``)."""
    builder = FrameBuilder(include)
    for match in matches:
        rows = FileRows(match.path, builder.include)
        rows.add_match(match, decisions=ReportDecisions())
        builder.add(rows)
    return builder.frames()
