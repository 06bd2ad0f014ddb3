"""Choose the files to analyse before the engine sees them: only those holding a match the report keeps.

Analysing a match costs far more than reading its headers. :func:`files_to_analyse` reads every file once without the
engine and without replaying a match (what the headers say is enough:
:class:`~tabla_cli.reports.rows.HeaderRows`), lets
:func:`~tabla_cli.reports.build.build_report` choose the matches exactly as
the report will (aliases, case of names, dates, site, length), and returns
the files that hold one, so that a question about 33 matches of an archive of
1,777 files analyses 33 files, and each chosen match is replayed once, by the
analysis. A file where no match could be read is kept, so that its errors are
still reported. No match is replayed here, so copies of a match are not told
apart: each copy counts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tabla_cli.reports.build import Report, ReportOptions, build_report
from tabla_cli.source import Source

__all__ = ["RowFilter", "files_to_analyse", "match_keys", "row_filter"]


def files_to_analyse(
    sources: Sequence[Source], options: ReportOptions, *, progress: Callable[[], None] | None = None
) -> tuple[list[Source], Report]:
    """The files of ``sources`` (in order) that hold a match ``options`` keeps, or no readable match.

    Args:
        sources: the files.
        options: the report's options (their ``analyse`` is not used here).
        progress: called once per file read.

    Returns:
        The files, and the report of the quick read (its ``unknown`` names
        the filter's players that no match has).
    """
    quick = build_report(sources, replace(options, analyse=None, plays=False, headers=True), progress=progress)
    readable = set(quick.everything.matches["file"])
    chosen = set(quick.frames.matches["file"])
    return [source for source in sources if source.path in chosen or source.path not in readable], quick


def match_keys(report: Report) -> set[str]:
    """The analysis' key of each match ``report`` chose: its file, with ``#n`` for a file's n-th match (n > 1)."""
    matches = report.frames.matches
    return {file if index == 1 else f"{file}#{index}" for file, index in zip(matches["file"], matches["index"])}


@dataclass(frozen=True, slots=True)
class RowFilter:
    """Whether an analysis row (a decision) belongs to a report's choice: one of its matches (by the
    analysis' key, :attr:`matches`) and, when the filter names players, one of theirs (names compared
    without case unless ``exact_case``). :func:`tabla_cli.analyse.analyse_sources` also has the analysis
    skip the other matches as they begin."""

    matches: frozenset[str]
    players: frozenset[str] = frozenset()
    exact_case: bool = False

    def _fold(self, name: str) -> str:
        return name if self.exact_case else name.casefold()

    def __call__(self, row: Mapping[str, Any]) -> bool:
        return row["match"] in self.matches and (not self.players or self._fold(str(row["player"])) in self.players)


def row_filter(report: Report, *, exact_case: bool = False) -> RowFilter:
    """The :class:`RowFilter` of ``report``'s choice."""
    players = frozenset(name if exact_case else name.casefold() for name in report.filter.players)
    return RowFilter(frozenset(match_keys(report)), players, exact_case)
