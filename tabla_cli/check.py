"""``tabla check`` as a library: read files, replay every match, collect findings."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from tabla_cli.digest import Duplicates, Fingerprint, MatchKey
from tabla_cli.errors import Location
from tabla_cli.findings import Code, Finding, Severity
from tabla_cli.model import Match
from tabla_cli.parallel import map_in_order
from tabla_cli.pipeline import FileTee, FileVisitor, ReadOptions, as_source, internal_error, run
from tabla_cli.replay import MatchResult, replay
from tabla_cli.source import Source, collect_paths
from tabla_cli.visitor import Wants

__all__ = [
    "CheckVisitor",
    "FileReport",
    "check_file",
    "check_visitor",
    "check_match",
    "check_paths",
    "check_sources",
    "check_text",
    "collect_paths",
    "failed_check",
    "mark_duplicates",
]


@dataclass(slots=True)
class FileReport:
    """What checking one file found.

    ``keys`` identify each match by its content, with where it starts
    (see :mod:`tabla_cli.digest`).
    """

    path: str
    matches: int = 0
    games: int = 0
    plays: int = 0
    findings: list[Finding] = field(default_factory=list)
    keys: list[tuple[MatchKey, Location]] = field(default_factory=list)

    def count(self, severity: Severity) -> int:
        return sum(1 for f in self.findings if f.severity is severity)


class CheckVisitor(FileVisitor[FileReport]):
    """Adds a match's findings and counts to a :class:`FileReport`.

    Args:
        report: what the file's matches add to.
    """

    wants = Wants.FINDING
    lazy_games = True
    reads_analysis = False

    def __init__(self, report: FileReport) -> None:
        self.report = report

    def visit_finding(self, finding: Finding) -> None:
        self.report.findings.append(finding)

    def end_match(self, match_result: MatchResult) -> None:
        report = self.report
        report.matches += 1
        report.games += len(match_result.games)
        report.plays += match_result.plays

    def result(self) -> FileReport:
        return self.report


def check_visitor(report: FileReport) -> FileTee[FileReport]:
    """The check of a file: :class:`CheckVisitor`, and a :class:`~tabla_cli.digest.Fingerprint` for ``report.keys``."""
    return FileTee(CheckVisitor(report), Fingerprint(report.keys))


def check_match(match: Match, report: FileReport) -> FileReport:
    """Replay ``match`` and add its findings and counts to ``report``."""
    return replay(match, check_visitor(report))


def check_text(text: str, path: str) -> FileReport:
    """Check every match in ``text``; never raises for bad input."""
    return run(path, check_visitor(FileReport(path)), text=text)


def check_file(source: Source | str, options: ReadOptions = ReadOptions()) -> FileReport:
    """Check the file at ``source``; whatever goes wrong becomes a finding.

    With ``options.verify``, an OGXM file's signatures are checked too
    (:func:`~tabla_cli.signatures.signature_findings`).
    """
    src = as_source(source)
    report = run(src, check_visitor(FileReport(src.path)), options)
    if options.verify:
        from tabla_cli.signatures import signature_findings

        report.findings.extend(
            signature_findings(src.path, src.data, trusted=options.trusted_keys, max_size=options.max_size)
        )
    return report


def failed_check(source: Source | str, message: str) -> FileReport:
    """The report of a file whose task failed for good on a cluster (``Type: message``): an ``internal-error``."""
    path = as_source(source).path
    return FileReport(path, findings=[internal_error(message, path)])


def check_paths(
    paths: Iterable[Source | str],
    jobs: int = 1,
    options: ReadOptions = ReadOptions(),
    *,
    scheduler: str | None = None,
    progress: Callable[[], None] | None = None,
) -> Iterator[FileReport]:
    """Check files in order, with ``jobs`` processes or on the Dask ``scheduler``; results come in input order.

    ``progress`` is called once per file checked.
    """
    return map_in_order(
        functools.partial(check_file, options=options),
        paths,
        jobs,
        scheduler=scheduler,
        progress=progress,
        on_error=failed_check,
    )


def check_sources(
    sources: Iterable[Source | str],
    options: ReadOptions = ReadOptions(),
    *,
    stdin: Source | None = None,
    jobs: int = 1,
    scheduler: str | None = None,
    progress: Callable[[], None] | None = None,
) -> Iterator[FileReport]:
    """``tabla check``'s library call: :func:`check_paths` (``stdin``, read here, first) with
    :func:`mark_duplicates`' notes, in order as each file is checked."""
    stream = check_paths(sources, jobs, options, scheduler=scheduler, progress=progress)
    if stdin is not None:
        stream = itertools.chain([check_file(stdin, options)], stream)
    return mark_duplicates(stream)


def mark_duplicates(reports: Iterable[FileReport]) -> Iterator[FileReport]:
    """The reports, in order, each match that repeats one before it given a ``duplicate-match`` note."""
    seen = Duplicates()
    for report in reports:
        for key, location in report.keys:
            first = seen.first(key, location.path)
            if first is not None:
                where, whole = first
                what = "the same match" if whole else "part of the match"
                report.findings.append(Finding(Code.DUPLICATE_MATCH, f"{what} read first in {where}", location))
        yield report
