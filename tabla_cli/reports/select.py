"""Choose the files to analyse before the engine sees them: only those holding a match the filter keeps.

Analysing costs seconds a match; reading a match's headers costs
milliseconds. :func:`files_to_analyse` reads every file once without the
engine (the matches frame only), lets :func:`~tabla_cli.reports.filters.filter_frames`
choose the matches as the report will, and returns the files that hold one,
so that a question about 33 matches of an archive of 1,777 files analyses
33 files. A file where no match could be read is kept, so that its errors
are still reported.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from tabla_cli.pipeline import ReadOptions
from tabla_cli.reports.filters import ReportFilter, filter_frames, fold_case
from tabla_cli.reports.frames import FrameBuilder
from tabla_cli.reports.rows import iter_file_rows
from tabla_cli.source import Source

__all__ = ["files_to_analyse"]


def files_to_analyse(sources: Sequence[Source], flt: ReportFilter, *, options: ReadOptions = ReadOptions(),
                     jobs: int = 1, scheduler: str | None = None, aliases: Mapping[str, str] | None = None,
                     ignore_case: bool = False, prefer: Sequence[str] = (),
                     progress: Callable[[], None] | None = None) -> list[Source]:
    """The files of ``sources`` (in order) that hold a match ``flt`` selects, or no readable match.

    Args:
        sources: the files.
        flt: the report's filter.
        options: how to read the files.
        jobs: processes to read them with (or ``scheduler``, a Dask scheduler).
        aliases: player names to merge, as the report merges them.
        ignore_case: merge names that differ only in case (``prefer``: the
            spellings given on the command line), as the report does.
        progress: called once per file read.
    """
    builder = FrameBuilder(("matches",), aliases=dict(aliases or {}), keep_duplicates=True)
    for rows in iter_file_rows(sources, jobs=jobs, include=("matches",), options=options, scheduler=scheduler,
                               progress=progress):
        builder.add(rows)
    frames = builder.frames()
    if ignore_case:
        frames = fold_case(frames, prefer)
    readable = set(frames.matches["file"])
    chosen = set(filter_frames(frames, flt).frames.matches["file"])
    return [source for source in sources if source.path in chosen or source.path not in readable]
