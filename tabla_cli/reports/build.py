"""From transcripts to the frames of a report, as ``tabla report`` makes them.

:func:`build_report` reads and replays (with :attr:`ReportOptions.analyse`,
also analyses) every source in worker processes, merges aliases, folds the
case of names when asked, and keeps the matches the filter selects. The
command calls it with what its options say; a Python user calls it the same
way:

>>> from tabla_cli.reports.build import ReportOptions, build_report
>>> from tabla_cli.reports.filters import ReportFilter
>>> from tabla_cli.source import collect_sources
>>> options = ReportOptions(filter=ReportFilter(players=("Ann",)))
>>> report = build_report(collect_sources(["examples"]), options)  # doctest: +SKIP
>>> report.frames.matches, report.describe()  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from tabla_cli.findings import READ_FAILURES
from tabla_cli.pipeline import ReadOptions
from tabla_cli.reports.choice import MatchChoice
from tabla_cli.reports.filters import FilterResult, ReportFilter, as_spelled, filter_frames, fold_case, unknown_names
from tabla_cli.reports.frames import FRAME_NAMES, FrameBuilder, Frames, write_frames
from tabla_cli.reports.reading import file_rows, iter_file_rows
from tabla_cli.reports.rows import FileRows

if TYPE_CHECKING:
    from tabla_cli.analysis.decisions import AnalysisOptions
    from tabla_cli.source import Source

__all__ = ["IN_MEMORY", "READ_FAILURES", "Report", "ReportOptions", "build_report", "read_failures"]

IN_MEMORY = ("matches", "games", "cube", "findings", "decisions")
"""The frames a report keeps in memory (``plays`` only when asked: it is by far the largest)."""


@dataclass(frozen=True, slots=True)
class ReportOptions:
    """How a report reads its sources and which matches it keeps.

    Attributes:
        filter: the matches to keep (players, opponents, dates, site,
            length); every frame, table and plot counts only those.
        ignore_case: count every two names that differ only in case as one player.
        exact_case: match the filter's players and opponents with their case
            (by default names that differ only in case are one player when
            the filter names players or opponents).
        aliases: ``alias -> player`` names merged before anything else.
        keep_duplicates: count every copy of a match (by default a match read
            twice, in any format, counts once).
        plays: fill the ``plays`` frame too (the dice table and a player's
            page need it).
        read: encoding, size limit and scoring rules of the inputs.
        analyse: analyse the matches that record no analysis with the engine.
        jobs: worker processes (the result does not depend on it).
        scheduler: a Dask scheduler address to run the work on instead.
        headers: read only what the matches' headers say, replaying none
            (:class:`~tabla_cli.reports.rows.HeaderRows`): enough to choose
            the matches, as :func:`~tabla_cli.reports.select.files_to_analyse` does.
    """

    filter: ReportFilter = field(default_factory=ReportFilter)
    ignore_case: bool = False
    exact_case: bool = False
    aliases: Mapping[str, str] = field(default_factory=dict)
    keep_duplicates: bool = False
    plays: bool = False
    read: ReadOptions = field(default_factory=ReadOptions)
    analyse: AnalysisOptions | None = None
    jobs: int = 1
    scheduler: str | None = None
    headers: bool = False


@dataclass(frozen=True, slots=True)
class Report:
    """What :func:`build_report` made.

    Attributes:
        everything: the frames of every match read (aliases merged, before
            case folding and the filter).
        chosen: the frames of the matches the filter kept, with counts.
        filter: the filter that chose them.
        duplicates: copies of matches read before, left out.
        unknown: the filter's players and opponents that no match has, each
            with the nearest names (:func:`~tabla_cli.reports.filters.unknown_names`).
    """

    everything: Frames
    chosen: FilterResult
    filter: ReportFilter
    duplicates: int
    unknown: list[tuple[str, list[str]]] = field(default_factory=list)

    @property
    def frames(self) -> Frames:
        """The frames of the matches the report is about."""
        return self.chosen.frames

    def describe(self) -> str:
        """The filter in words with how many matches it kept (and how many are undated); "" without one."""
        if not self.filter.selects:
            return ""
        text = f"{self.filter.describe()}: {self.chosen.kept} of {self.chosen.matches} matches"
        undated = self.chosen.undated
        if self.filter.dated and self.filter.keep_undated:
            text += f" ({undated} undated, kept)"
        elif undated:
            text += f"; {undated} undated {'match' if undated == 1 else 'matches'} left out (--keep-undated keeps them)"
        return text


def read_failures(frames: Frames) -> pd.DataFrame:
    """The findings of ``frames`` that say a file could not be read, or only in part."""
    return frames.findings[frames.findings["code"].isin(READ_FAILURES)]


def _choice(options: ReportOptions) -> MatchChoice:
    """The filter of ``options`` as each match is tested when it begins (the engine sees only those)."""
    return MatchChoice(options.filter, tuple(options.aliases.items()))


def build_report(
    sources: Sequence[Source],
    options: ReportOptions = ReportOptions(),
    *,
    stdin: Source | None = None,
    sink: str | Path | None = None,
    progress: Callable[[], None] | None = None,
    each: Callable[[FileRows], None] | None = None,
    stored: Iterable[FileRows] | None = None,
) -> Report:
    """Read, replay (and analyse) ``sources`` into the frames of the matches ``options`` keeps.

    Args:
        sources: the inputs, e.g. from :func:`tabla_cli.source.collect_sources`.
        options: how to read them and which matches to keep.
        stdin: one more input read first, in this process (standard input).
        sink: a directory to write every frame into as Parquet (all of
            :data:`FRAME_NAMES`, of the matches kept); without a filter they
            stream there as the files are read.
        progress: called once per source read.
        each: called with each source's rows as they arrive, before they are merged.
        stored: the files' rows already made (``report --db``: from the index),
            used instead of reading ``sources``.

    Raises:
        OSError: writing to ``sink`` failed.
    """
    memory = IN_MEMORY + (("plays",) if options.plays else ())
    include = FRAME_NAMES if sink is not None else memory
    flt = options.filter
    named = (*flt.players, *flt.opponents)
    fold = options.ignore_case or (bool(named) and not options.exact_case)
    streaming = not (flt.selects or fold)
    builder = FrameBuilder(
        include,
        keep=memory if streaming else include,
        aliases=options.aliases,
        sink=sink if streaming else None,
        keep_duplicates=options.keep_duplicates,
    )
    choose = _choice(options) if options.analyse is not None and flt.selects else None
    if stdin is not None:
        builder.add(
            file_rows(
                stdin,
                include=include,
                options=options.read,
                analyse=options.analyse,
                headers=options.headers,
                choose=choose,
            )
        )
    read = (
        iter_file_rows(
            sources,
            jobs=options.jobs,
            include=include,
            options=options.read,
            scheduler=options.scheduler,
            progress=progress,
            analyse=options.analyse,
            headers=options.headers,
            choose=choose,
        )
        if stored is None
        else stored
    )
    for rows in read:
        if each is not None:
            each(rows)
        builder.add(rows)
    everything = builder.frames()
    if fold:
        flt = as_spelled(everything, flt)
        named = (*flt.players, *flt.opponents)
    folded = fold_case(everything, named) if fold else everything
    unknown = unknown_names(folded, named)
    chosen = filter_frames(folded, flt)
    if sink is not None and not streaming and not unknown:
        write_frames(chosen.frames, sink)
    return Report(everything, chosen, flt, builder.duplicates, unknown)
