"""``tabla index``: read an archive once into the index, and again only where a file changed.

Each file is read and replayed once (:func:`index_source`, in worker
processes with ``jobs``): the same replay feeds the report's rows
(:class:`~tabla_cli.reports.rows.RowsVisitor`, kept for ``report --db``) and
the index's decisions (:class:`~tabla_cli.study.visitor.StudyVisitor`). A
file whose content hash the index already holds is not read again; a
changed one has its rows replaced in one transaction; ``prune`` forgets the
indexed files that are gone. ``tabla analyze --db`` writes its results
through :func:`store_analysis`.
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tabla_cli.analysis.decisions import AnalysisOptions
from tabla_cli.analysis.file_analysis import FileAnalysis, evaluate
from tabla_cli.check import FileReport
from tabla_cli.files import MAX_SIZE
from tabla_cli.findings import Code, Finding
from tabla_cli.parallel import map_in_order
from tabla_cli.pipeline import FileTee, ReadOptions, as_source, internal_error, run
from tabla_cli.source import Source, collect_sources
from tabla_cli.study.store import Store, StoredFile, open_store
from tabla_cli.study.visitor import StudyVisitor

if TYPE_CHECKING:
    from tabla_cli.evaluation.recorded import RecordedAnalysis
    from tabla_cli.evaluation.types import Evaluation
    from tabla_cli.reports.rows import FileRows

__all__ = [
    "IndexOptions",
    "IndexSummary",
    "IndexedFile",
    "content_hash",
    "index_paths",
    "index_source",
    "store_analysis",
]

_ROLLED_OUT = "rollout"


@dataclass(frozen=True, slots=True)
class IndexOptions:
    """How to index (picklable: it travels to worker processes).

    Attributes:
        level: evaluate with the bgsage engine at this level the decisions
            no recorded analysis judges; None: only recorded analysis.
        threads: engine threads per process.
        cache: use the engine's persistent cache.
        read: how to read the files.
    """

    level: str | None = None
    threads: int = 1
    cache: bool = True
    read: ReadOptions = ReadOptions()

    def analysis(self) -> AnalysisOptions:
        """The analysis options of the index's visitor."""
        return AnalysisOptions(level=self.level or "auto", recorded=True, cache=self.cache, threads=self.threads)


@dataclass(slots=True)
class IndexedFile:
    """What :func:`index_source` made of one file: its rows for the index, and the check's findings."""

    stored: StoredFile
    findings: list[Finding] = field(default_factory=list)


@dataclass(slots=True)
class IndexSummary:
    """What one :func:`index_paths` run did.

    Attributes:
        files: the files found under the paths.
        indexed: files read and written into the index.
        skipped: files whose content hash the index already held.
        pruned: indexed files forgotten because they are gone (``prune``).
        decisions: decisions written.
        findings: the errors of the files read (unreadable files among them).
    """

    files: int = 0
    indexed: int = 0
    skipped: int = 0
    pruned: int = 0
    decisions: int = 0
    findings: list[Finding] = field(default_factory=list)


def content_hash(data: bytes) -> str:
    """The content hash the index keeps for a file (SHA-256, hex).

    >>> content_hash(b"")[:12]
    'e3b0c44298fc'
    """
    return hashlib.sha256(data).hexdigest()


def _file_hash(path: str, max_size: int = MAX_SIZE) -> tuple[str, int] | None:
    """The content hash and size of the file at ``path``; None when it cannot be read (the read says why)."""
    digest = hashlib.sha256()
    size = 0
    try:
        with open(path, "rb") as handle:
            while chunk := handle.read(1 << 20):
                size += len(chunk)
                if size > max_size:
                    return None
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest(), size


def _frame(rows: FileRows, name: str) -> list[dict[str, Any]]:
    """Every row of frame ``name`` of a file, packed or not, as dicts."""
    from tabla_cli.reports.rows import arrow_schema

    names = arrow_schema(name).names
    out: list[dict[str, Any]] = []
    for batch in rows.batches[name]:
        out += batch.to_pylist()
    out += [dict(zip(names, cells)) for cells in rows.rows[name]]
    return out


def _match_rows(path: str, rows: FileRows) -> list[dict[str, Any]]:
    from tabla_cli.study.store import MATCH_FIELDS

    kept = [name for name, _ in MATCH_FIELDS if name not in ("path", "match_no")]
    return [
        {"path": path, "match_no": int(row["index"]), **{k: row[k] for k in kept}} for row in _frame(rows, "matches")
    ]


def _game_rows(path: str, rows: FileRows) -> list[dict[str, Any]]:
    from tabla_cli.study.store import GAME_FIELDS

    kept = [name for name, _ in GAME_FIELDS if name not in ("path", "match_no")]
    return [
        {"path": path, "match_no": int(row["match"]) + 1, **{k: row[k] for k in kept}} for row in _frame(rows, "games")
    ]


def _finding_rows(path: str, findings: Iterable[Finding]) -> list[dict[str, Any]]:
    return [
        {
            "path": path,
            "line": finding.location.line or None,
            "severity": finding.severity.value,
            "code": finding.code,
            "message": finding.message,
        }
        for finding in findings
    ]


def decision_rows(path: str, rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The analysis' rows of a file as rows of the index's ``decisions`` (numbered in file order)."""
    out = []
    for seq, row in enumerate(rows):
        item = dict(row)
        item["path"] = path
        item["seq"] = seq
        source = row.get("source")
        item["rolled_out"] = None if source is None else _ROLLED_OUT in str(source)
        out.append(item)
    return out


ALTERNATIVES = 5
"""The best plays the index keeps of a checker decision's recorded ranking."""


def alternatives(kind: str, evaluation: Evaluation | None, recorded: RecordedAnalysis | None) -> str | None:
    """The options a decision was judged among, as JSON: a checker play's best :data:`ALTERNATIVES` plays of the
    recorded ranking (``[play, equity, error]``), a cube decision's equities of no double, double/take and
    double/pass (from the doubler's side); None when the evaluation does not give them."""
    equities = evaluation.cube_equities if evaluation is not None else None
    if kind != "checker" and equities is None and recorded is not None and recorded.cube is not None:
        equities = (recorded.cube.no_double, recorded.cube.double_take, recorded.cube.double_pass)
    if kind != "checker" and equities is not None:
        no_double, take, drop = equities
        return json.dumps({"no double": no_double, "double/take": take, "double/pass": drop})
    if kind == "checker" and recorded is not None and recorded.candidates:
        best = recorded.candidates[:ALTERNATIVES]
        return json.dumps([[c.play, c.equity, c.error] for c in best])
    return None


def index_source(source: Source | str, options: IndexOptions = IndexOptions()) -> IndexedFile:
    """Read and replay one file into its rows for the index; never raises for bad input."""
    from tabla_cli.digest import Fingerprint
    from tabla_cli.reports.reading import ReportDecisions
    from tabla_cli.reports.rows import FileRows, RowsVisitor
    from tabla_cli.study.frames import pack_rows

    src = as_source(source)
    path = src.path
    read = options.read
    analysis = options.analysis()
    hashed = _file_hash(path, read.max_size) if src.data is None else (content_hash(src.data), len(src.data))
    file_rows = FileRows(path)
    report = FileReport(path)
    study = StudyVisitor(path, analysis)
    try:
        from tabla_cli.check import CheckVisitor

        run(
            src,
            FileTee(
                RowsVisitor(file_rows, decisions=ReportDecisions()),
                Fingerprint(file_rows.keys),
                CheckVisitor(report),
                study,
            ),
            read,
        )
        if options.level is None:
            for item in study.pending:
                item.decision = None  # no engine: only what the files record
        rows = evaluate(study.pending, analysis)
        for item in study.pending:
            item.row["alternatives"] = alternatives(item.row["kind"], item.evaluation, item.action.analysis)
    except Exception as exc:  # one file's bug must not stop the rest
        report.findings.append(internal_error(exc, path))
        rows = []
    digest, size = hashed if hashed is not None else ("", 0)
    stored = StoredFile(
        path=path,
        hash=digest,
        size=size,
        matches=_match_rows(path, file_rows),
        decisions=decision_rows(path, rows),
        findings=_finding_rows(path, report.findings),
        frames=pack_rows(file_rows),
        games=_game_rows(path, file_rows),
    )
    return IndexedFile(stored, list(report.findings))


def _failed(source: Source, message: str) -> IndexedFile:
    finding = internal_error(message, source.path)
    return IndexedFile(StoredFile(source.path, "", 0, [], [], _finding_rows(source.path, [finding])), [finding])


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def index_paths(
    paths: Iterable[str],
    target: str,
    options: IndexOptions = IndexOptions(),
    *,
    prune: bool = False,
    jobs: int = 1,
    scheduler: str | None = None,
    progress: Callable[[IndexedFile | None], None] | None = None,
) -> IndexSummary:
    """Index every transcript under ``paths`` into the index at ``target`` (a file or a PostgreSQL URL).

    A file the index holds with the same content hash is skipped; any other
    is read and its rows replace the old ones in one transaction, as its
    result arrives. A file that cannot be read is indexed with its findings
    (and no hash, so it is read again next time).

    Args:
        paths: files and directories.
        target: the index.
        options: how to read and evaluate.
        prune: forget the indexed files that no longer exist.
        jobs: worker processes.
        scheduler: a Dask scheduler to read the files on instead.
        progress: called once per file: its result, or None when skipped.

    Raises:
        StoreError: the index cannot be opened or written.
    """
    with open_store(target) as store:
        return index_into(store, paths, options, prune=prune, jobs=jobs, scheduler=scheduler, progress=progress)


def index_into(
    store: Store,
    paths: Iterable[str],
    options: IndexOptions = IndexOptions(),
    *,
    prune: bool = False,
    jobs: int = 1,
    scheduler: str | None = None,
    progress: Callable[[IndexedFile | None], None] | None = None,
) -> IndexSummary:
    """:func:`index_paths` into an open index (its own files are never read as inputs)."""
    own = [] if store.postgres else [store.target + suffix for suffix in ("", "-wal", "-shm", "-journal")]
    sources = collect_sources(paths, outputs=own)
    summary = IndexSummary(files=len(sources))
    known = store.hashes()
    todo = []
    for source in sources:
        hashed = _file_hash(source.path, options.read.max_size)
        if hashed is not None and known.get(source.path) == hashed[0]:
            summary.skipped += 1
            if progress is not None:
                progress(None)
        else:
            todo.append(source)
    work = functools.partial(index_source, options=options)
    for result in map_in_order(work, todo, jobs, per_job=2, max_chunk=4, scheduler=scheduler, on_error=_failed):
        if store.replace_file(result.stored, _now(), unless_hash=bool(result.stored.hash)):
            summary.indexed += 1
            summary.decisions += len(result.stored.decisions)
        else:
            summary.skipped += 1
        summary.findings += [f for f in result.findings if f.severity.value == "error" or f.code == Code.INTERNAL_ERROR]
        if progress is not None:
            progress(result)
    if prune:
        summary.pruned = store.forget(path for path in known if not Path(path).is_file())
    return summary


def analyse_tagged(options: AnalysisOptions, read: ReadOptions, source: Source) -> FileAnalysis:
    """``tabla analyze``'s analysis of one file with the index's columns on each row (``analyze --db``)."""
    from tabla_cli.analysis.file_analysis import analyse_source

    return analyse_source(source, options, read, visitor_class=StudyVisitor)


def store_analysis(store: Store, source: Source, analysis: FileAnalysis) -> None:
    """Write ``tabla analyze``'s results for one file into the index: its decisions replaced by the analysis'.

    The file keeps its hash, matches, games and report rows as the index
    holds them (a file the index does not hold, or holds with another hash,
    is indexed afresh first), so that ``tabla index`` does not read it again.
    """
    hashed = _file_hash(source.path)
    if hashed is None:
        return
    known = store.query("SELECT hash, frames FROM files WHERE path = ?", (source.path,))
    if not known or known[0][0] != hashed[0]:
        stored = index_source(source).stored
    else:
        blob = known[0][1]
        stored = StoredFile(
            source.path,
            hashed[0],
            hashed[1],
            store.query_dicts('SELECT * FROM matches WHERE path = ? ORDER BY "match_no"', (source.path,)),
            [],
            _finding_rows(source.path, analysis.report.findings),
            None if blob is None else bytes(blob),
            store.query_dicts('SELECT * FROM games WHERE path = ? ORDER BY "match_no", game', (source.path,)),
        )
    stored = dataclasses.replace(stored, decisions=decision_rows(source.path, analysis.rows))
    store.replace_file(stored, _now(), unless_hash=False)


def _walk_key(path: str) -> list[tuple[int, str]]:
    """Sorts paths as a walk of their folders finds them: a folder's files (by name), then its folders.

    >>> sorted(["a/b/x.mat", "a/z.mat", "a/c.mat"], key=_walk_key)
    ['a/c.mat', 'a/z.mat', 'a/b/x.mat']
    """
    parts = Path(path).parts
    return [(1, part) for part in parts[:-1]] + [(0, parts[-1] if parts else "")]


def stored_rows(store: Store) -> list[FileRows]:
    """The report's rows of every indexed file, in the order a walk of their folders reads them
    (the order ``tabla report`` reads the files in, so that matches get the same keys)."""
    from tabla_cli.study.frames import unpack_rows

    found = [(path, blob) for path, blob in store.frames() if blob is not None]
    return [unpack_rows(blob) for _, blob in sorted(found, key=lambda item: _walk_key(item[0]))]
