"""The report's rows of each file: read, replay once, rows; in worker processes or on a cluster.

:func:`file_rows` reads one file and replays each of its matches once with the
report's visitor (:class:`~tabla_cli.reports.rows.RowsVisitor`), which also
feeds the analysis' decisions visitor for the ``decisions`` frame
(:class:`ReportDecisions`: the analysis the files record, and with
``analyse`` the engine's for the rest, a match at a time);
:func:`iter_file_rows` does that for many files, with the rows made where
each file is read.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tabla_cli.model import Match
from tabla_cli.parallel import map_in_order
from tabla_cli.pipeline import ReadOptions, as_source, internal_error, run
from tabla_cli.reports.choice import MatchChoice
from tabla_cli.reports.rows import FileRows, rows_visitor
from tabla_cli.reports.schema import COLUMNS, FRAME_NAMES
from tabla_cli.source import Source
from tabla_cli.visitor import BaseVisitor

if TYPE_CHECKING:
    from tabla_cli.analysis.decisions import AnalysisOptions

__all__ = ["ReportDecisions", "failed_rows", "file_rows", "iter_file_rows", "text_rows"]


@dataclass(frozen=True, slots=True)
class ReportDecisions:
    """The report's :class:`~tabla_cli.reports.rows.MatchDecisions`: the analysis' decisions visitor per match,
    evaluated as the match ends (picklable: it travels to worker processes).

    Attributes:
        analyse: the engine's options; None = recorded analysis only, and a
            match that records none gives no visitor.
        choose: with ``analyse``, the matches the engine is to see (the others give no visitor); None: all.
    """

    analyse: AnalysisOptions | None = None
    choose: MatchChoice | None = None

    def visitor(self, match: Match, path: str) -> BaseVisitor[Any] | None:
        from tabla_cli.analysis.decisions import AnalysisOptions, DecisionsVisitor

        if self.analyse is not None and self.choose is not None and not self.choose(match):
            return None
        visitor = DecisionsVisitor(path, self.analyse or AnalysisOptions(recorded=True))
        visitor.begin_match(match)
        return visitor if self.analyse is not None or visitor.use_recorded else None

    def rows(self, visitor: BaseVisitor[Any], match: int, names: tuple[str, str]) -> list[tuple[Any, ...]]:
        """The ``decisions`` rows of one match's visitor, evaluated (the engine's in one batch)."""
        from tabla_cli.analysis.decisions import AnalysisOptions, DecisionsVisitor
        from tabla_cli.analysis.file_analysis import evaluate

        assert isinstance(visitor, DecisionsVisitor)
        rows = evaluate(visitor.pending, self.analyse or AnalysisOptions(recorded=True))
        out = []
        for row in rows:
            side = int(row["side"])
            row.update(match=match, player=names[side], opponent=names[1 - side])
            out.append(tuple(row.get(c.name) for c in COLUMNS["decisions"]))
        return out


def text_rows(
    text: str,
    path: str,
    *,
    include: Iterable[str] = FRAME_NAMES,
    scoring: str | None = None,
    analyse: AnalysisOptions | None = None,
) -> FileRows:
    """The rows of every match in ``text``; never raises for bad input.

    A file that cannot be read, or stops following its format, gives an
    ``unreadable-file`` or ``syntax-error`` row in ``findings`` (the matches
    before the bad spot are kept), as ``tabla check`` reports it. ``scoring``
    names a scoring rule set that wins over the transcripts' headers;
    ``analyse``: as :func:`file_rows` takes it.
    """
    rows = FileRows(path, frozenset(include))
    return run(path, rows_visitor(rows, decisions=ReportDecisions(analyse)), ReadOptions(scoring=scoring), text=text)


def file_rows(
    source: Source | str,
    *,
    include: Iterable[str] = FRAME_NAMES,
    options: ReadOptions = ReadOptions(),
    analyse: AnalysisOptions | None = None,
    headers: bool = False,
    choose: MatchChoice | None = None,
) -> FileRows:
    """The rows of every match in the file at ``source``; never raises for bad input.

    ``analyse``: the engine's options for matches that record no analysis
    (None: only recorded analysis fills ``decisions``). ``headers``: only the
    ``matches`` rows of what the headers say, no match replayed
    (:class:`~tabla_cli.reports.rows.HeaderRows`). ``choose``: the matches the engine
    sees (:attr:`ReportDecisions.choose`).
    """
    src = as_source(source)
    decisions = ReportDecisions(analyse, choose)
    visitor = rows_visitor(FileRows(src.path, frozenset(include)), decisions=decisions, headers=headers)
    return run(src, visitor, options)


def failed_rows(source: Source | str, message: str, *, include: Iterable[str] = FRAME_NAMES) -> FileRows:
    """The rows of a file whose task failed for good on a cluster (``Type: message``): an ``internal-error``."""
    path = as_source(source).path
    rows = FileRows(path, frozenset(include))
    rows.add_finding(internal_error(message, path), None)
    return rows


def iter_file_rows(
    paths: Iterable[Source | str],
    *,
    jobs: int = 1,
    include: Iterable[str] = FRAME_NAMES,
    options: ReadOptions = ReadOptions(),
    scheduler: str | None = None,
    progress: Callable[[], None] | None = None,
    analyse: AnalysisOptions | None = None,
    headers: bool = False,
    choose: MatchChoice | None = None,
) -> Iterator[FileRows]:
    """:class:`FileRows` of each file, in input order, with ``jobs`` processes or on the Dask ``scheduler``.

    The rows are made where the file is read (on the workers): only these
    row batches travel back. ``progress`` is called once per file done.
    ``analyse``, ``headers``, ``choose``: as :func:`file_rows` takes them.
    """
    kept = frozenset(include)
    work = functools.partial(file_rows, include=kept, options=options, analyse=analyse, headers=headers, choose=choose)
    return map_in_order(
        work,
        paths,
        jobs,
        per_job=8,
        max_chunk=8,
        scheduler=scheduler,
        progress=progress,
        on_error=functools.partial(failed_rows, include=kept),
    )
