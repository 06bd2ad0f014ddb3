"""``tabla report``'s library call: from what the command asks to the report, whichever way its frames are made.

:func:`make_report` reads the files (:func:`~tabla_cli.reports.build.build_report`), or first chooses
the files to analyse with the engine (:func:`~tabla_cli.reports.select.files_to_analyse`), or takes
the files' rows an index keeps ('tabla index', :func:`tabla_cli.study.index.stored_rows`) without
reading a file; a :class:`ReportProgress` hears how it goes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from tabla_cli.reports.build import Report, ReportOptions, build_report

if TYPE_CHECKING:
    from tabla_cli.reports.rows import FileRows
    from tabla_cli.source import Source

__all__ = ["ReportProgress", "ReportRequest", "make_report"]


@dataclass(frozen=True, slots=True)
class ReportRequest:
    """What ``tabla report`` asks :func:`make_report` for.

    Attributes:
        sources: the files, e.g. from :func:`tabla_cli.source.collect_sources`.
        options: how to read (and analyse) them and which matches to keep.
        stdin: one more input read first, in this process (standard input).
        stored: the files' rows already made (``report --db``: an index's), used instead of reading ``sources``.
    """

    sources: Sequence[Source] = ()
    options: ReportOptions = ReportOptions()
    stdin: Source | None = None
    stored: Iterable[FileRows] | None = None


class ReportProgress(Protocol):
    """What :func:`make_report` says as it goes (``tabla report`` shows it on stderr)."""

    def chosen(self, files: int, quick: Report) -> None:
        """``files`` of the sources hold a match the filter chose (the quick read ``quick``), to be analysed."""

    def reading(self, files: int) -> AbstractContextManager[Callable[[], None]]:
        """Around reading ``files`` files without the engine: yields what to call once per file read."""

    def analysing(self, files: int) -> AbstractContextManager[Callable[[FileRows], None]]:
        """Around analysing ``files`` files: yields what to call with each file's rows."""


def make_report(
    request: ReportRequest, *, sink: str | Path | None = None, progress: ReportProgress | None = None
) -> Report:
    """``tabla report``'s library call: the report of ``request``.

    With :attr:`ReportOptions.analyse` and a filter that may leave matches out, every file is read once
    without the engine first and only the files holding a chosen match are analysed; a player the filter
    names that is in no match gives that quick read's report (its ``unknown`` names them), nothing analysed.
    ``sink``: a directory to write every frame into as Parquet (see :func:`build_report`).

    Raises:
        OSError: writing to ``sink`` failed.
    """
    options = request.options
    if request.stored is not None:
        return build_report([], options, sink=sink, stored=request.stored)
    sources = list(request.sources)
    if options.analyse is None:
        with _reading(progress, len(sources)) as advance:
            return build_report(sources, options, stdin=request.stdin, sink=sink, progress=advance)
    if options.filter.selects:
        from tabla_cli.reports.select import files_to_analyse

        sources, quick = files_to_analyse(sources, options)
        if quick.unknown:
            return quick  # a player no match has: nothing to analyse, and the names to suggest are all here
        if progress is not None:
            progress.chosen(len(sources), quick)
    with _analysing(progress, len(sources)) as each:
        return build_report(sources, options, stdin=request.stdin, sink=sink, each=each)


@contextmanager
def _reading(progress: ReportProgress | None, files: int) -> Iterator[Callable[[], None] | None]:
    if progress is None:
        yield None
        return
    with progress.reading(files) as advance:
        yield advance


@contextmanager
def _analysing(progress: ReportProgress | None, files: int) -> Iterator[Callable[[FileRows], None] | None]:
    if progress is None:
        yield None
        return
    with progress.analysing(files) as each:
        yield each
