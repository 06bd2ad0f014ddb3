"""``tabla analyze``'s library call: analyse many files, file by file, in worker processes or on a cluster.

:func:`analyse_sources` is to ``tabla analyze`` what :func:`~tabla_cli.reports.build.build_report` is to
``tabla report``: the command parses its options, calls it and renders what it yields.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tabla_cli.analysis.decisions import AnalysisOptions
    from tabla_cli.analysis.file_analysis import FileAnalysis
    from tabla_cli.pipeline import ReadOptions
    from tabla_cli.source import Source
    from tabla_cli.study.store import Store

__all__ = ["AnalysedFile", "analyse_sources"]


@dataclass(slots=True)
class AnalysedFile:
    """One file's analysis, as :func:`analyse_sources` yields it.

    Attributes:
        index: the file's place in the sources given.
        analysis: what the analysis of the file returned (its check report, rows, document).
        rows: its decision rows that the row filter keeps (all of them without one).
        notices: the analysis' notices not yielded with an earlier file.
    """

    index: int
    analysis: FileAnalysis
    rows: list[dict[str, Any]]
    notices: list[str] = field(default_factory=list)


def _work(options: AnalysisOptions, read: ReadOptions, source: Source) -> FileAnalysis:
    from tabla_cli.analysis.file_analysis import analyse_source

    return analyse_source(source, options, read)


def _tagged(options: AnalysisOptions, read: ReadOptions, source: Source) -> FileAnalysis:
    from tabla_cli.study.index import analyse_tagged

    return analyse_tagged(options, read, source)


def _failed(source: Source, message: str) -> FileAnalysis:
    """The analysis of a file whose task failed for good on a cluster: an ``internal-error`` finding, no rows."""
    from tabla_cli.analysis.file_analysis import FileAnalysis
    from tabla_cli.check import FileReport
    from tabla_cli.pipeline import internal_error

    return FileAnalysis(FileReport(source.path, findings=[internal_error(message, source.path)]), [])


def analyse_sources(
    sources: Sequence[Source],
    options: AnalysisOptions,
    read: ReadOptions,
    *,
    jobs: int,
    scheduler: str | None = None,
    store: Store | None = None,
    keep_row: Callable[[dict[str, Any]], bool] | None = None,
) -> Iterator[AnalysedFile]:
    """The analysis of each of ``sources``, in their order, as each is done (``jobs`` processes, or the Dask
    ``scheduler``'s workers).

    ``store``: an index (``analyze --db``) that each file's analysis is written into, with the index's tags
    on its rows; it is closed when the iteration ends. ``keep_row``: which decision rows to keep (the
    rows of the matches and players a filter chose); a :class:`~tabla_cli.reports.select.RowFilter` also
    has the analysis skip the matches it leaves out as they begin, before the engine sees them.
    """
    from tabla_cli.parallel import map_in_order

    if keep_row is not None:
        from tabla_cli.reports.select import RowFilter

        if isinstance(keep_row, RowFilter):  # the matches it keeps are the ones worth analysing
            options = dataclasses.replace(options, matches=keep_row.matches)
    work = functools.partial(_work if store is None else _tagged, options, read)
    seen: set[str] = set()
    try:
        for index, result in enumerate(
            map_in_order(work, sources, jobs, per_job=2, max_chunk=1, scheduler=scheduler, on_error=_failed)
        ):
            if store is not None:
                from tabla_cli.study.index import store_analysis

                store_analysis(store, sources[index], result)
            rows = result.rows if keep_row is None else [row for row in result.rows if keep_row(row)]
            notices = [notice for notice in dict.fromkeys(result.notices) if notice not in seen]
            seen.update(notices)
            yield AnalysedFile(index, result, rows, notices)
    finally:
        if store is not None:
            store.close()
