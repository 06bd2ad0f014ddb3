"""``tabla analyze``'s library call: analyse many files, file by file, in worker processes or on a cluster.

:func:`analyse` is to ``tabla analyze`` what :func:`~tabla_cli.reports.build.build_report` is to
``tabla report``: the command parses its options into an :class:`AnalyseRequest`, calls it and renders
what it yields. :func:`analyse_sources` is its part that analyses the files chosen.
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
    from tabla_cli.reports.filters import ReportFilter
    from tabla_cli.source import Source
    from tabla_cli.study.store import Store

__all__ = [
    "AnalyseRequest",
    "AnalysedFile",
    "Analysing",
    "ThreadsError",
    "analyse",
    "analyse_sources",
    "process_threads",
]


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


class ThreadsError(ValueError):
    """More engine threads asked for than this process may use (a usage error of ``--threads``)."""


def process_threads(threads: int | None, workers: int, files: int, scheduler: str | None) -> int:
    """The engine's threads per process: ``threads`` when given (0 = every core); else every core when
    one process analyses all ``files`` (``workers`` processes, as :func:`analyse_sources` runs them), else 1.

    Run here (no ``scheduler``), ``threads`` may not pass the cores this process may use, and every core
    means as many as the address-space limit leaves room for
    (:func:`tabla_cli.analysis.threads.engine_threads`); on a cluster the workers' cores are theirs.

    Raises:
        ThreadsError: ``threads`` is more than this process's cores.
        EngineThreadsError: the threads do not fit in the address-space limit (``ulimit -v``).

    >>> process_threads(1, 4, 10, None)
    1
    >>> process_threads(None, 4, 10, None), process_threads(None, 1, 10, "local")
    (1, 1)
    >>> process_threads(None, 1, 10, None) == process_threads(None, 4, 1, None) == process_threads(0, 1, 1, None)
    True
    """
    from tabla_cli.analysis.threads import cores, engine_threads

    if threads is None:
        one_process = scheduler is None and min(workers, files) <= 1
        threads = 0 if one_process else 1
    if scheduler is not None:
        return threads
    if threads > cores():
        raise ThreadsError(
            f"--threads {threads}: this process may use {cores()} cores; give 0 (every core) to {cores()}"
        )
    return engine_threads(threads)


@dataclass(frozen=True, slots=True)
class AnalyseRequest:
    """What ``tabla analyze`` asks :func:`analyse` for.

    Attributes:
        sources: the files, e.g. from :func:`tabla_cli.source.collect_sources`.
        options: how to analyse them; their ``threads`` are :func:`process_threads`' of ``threads``.
        read: how to read them.
        jobs: worker processes (the result does not depend on it).
        threads: the engine's threads per process asked for (None: as :func:`process_threads` says).
        scheduler: a Dask scheduler address to run the work on instead.
        index: an index ('tabla index') to write every decision's analysis into.
        filter: the matches to analyse (a quick read without the engine chooses the files first), and with
            players named only their rows; None: every match.
        exact_case: match the filter's names with their case.
    """

    sources: Sequence[Source]
    options: AnalysisOptions
    read: ReadOptions
    jobs: int = 1
    threads: int | None = None
    scheduler: str | None = None
    index: str | None = None
    filter: ReportFilter | None = None
    exact_case: bool = False


@dataclass(slots=True)
class Analysing:
    """What :func:`analyse` does.

    Attributes:
        sources: the files it analyses (all of the request's without a filter).
        unknown: the filter's players that no match has, each with the nearest names; then nothing is analysed.
        files: each file's analysis as it is done, in order; an :class:`AnalysedFile`'s ``index`` is the file's
            place in the request's ``sources``.
    """

    sources: list[Source]
    unknown: list[tuple[str, list[str]]] = field(default_factory=list)
    files: Iterator[AnalysedFile] = field(default_factory=lambda: iter(()))


def analyse(request: AnalyseRequest, *, chosen: Callable[[str, int], None] | None = None) -> Analysing:
    """``tabla analyze``'s library call: choose the files (with a filter), then analyse them one by one.

    With :attr:`AnalyseRequest.filter`, every file is read once without the engine first
    (:func:`tabla_cli.reports.select.files_to_analyse`), and ``chosen`` is called with the filter and its
    count in words and the number of files left to analyse (unless a player named is in no match).
    The analysis runs as the returned :attr:`Analysing.files` is iterated.

    Raises:
        ThreadsError: :attr:`AnalyseRequest.threads` is more than this process's cores.
    """
    sources = list(request.sources)
    chosen_at = list(range(len(sources)))
    keep_row = None
    if request.filter is not None:
        from tabla_cli.reports.build import ReportOptions
        from tabla_cli.reports.select import files_to_analyse, row_filter

        report = ReportOptions(
            filter=request.filter,
            exact_case=request.exact_case,
            read=request.read,
            jobs=request.jobs,
            scheduler=request.scheduler,
        )
        kept, quick = files_to_analyse(sources, report)
        if quick.unknown:
            return Analysing([], quick.unknown)
        paths_kept = {source.path for source in kept}
        chosen_at = [i for i, source in enumerate(sources) if source.path in paths_kept]
        if chosen is not None:
            chosen(quick.describe(), len(chosen_at))
        keep_row = row_filter(quick, exact_case=request.exact_case)
    files = [sources[i] for i in chosen_at]
    threads = process_threads(request.threads, request.jobs, len(files), request.scheduler)
    options = dataclasses.replace(request.options, threads=threads)
    store = _open_index(request.index)
    analysed = analyse_sources(
        files, options, request.read, jobs=request.jobs, scheduler=request.scheduler, store=store, keep_row=keep_row
    )
    return Analysing(files, files=_placed(analysed, chosen_at))


def _open_index(target: str | None) -> Store | None:
    from tabla_cli.study.store import open_store

    return None if target is None else open_store(target)


def _placed(analysed: Iterator[AnalysedFile], places: list[int]) -> Iterator[AnalysedFile]:
    """``analysed``, each file's index its place among all the sources (``places``) instead of the chosen."""
    for item in analysed:
        item.index = places[item.index]
        yield item
