"""``tabla check`` as a library: read files, replay every match, collect findings."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from tabla_cli.errors import InputError, Location, TablaError, TranscriptSyntaxError
from tabla_cli.findings import Finding, Severity
from tabla_cli.model import Match
from tabla_cli.formats._syntax import ErrorHandler
from tabla_cli.reader import read_path_matches, read_text_matches
from tabla_cli.replay import MatchResult, replay
from tabla_cli.source import collect_paths, map_in_order
from tabla_cli.visitor import BaseVisitor

__all__ = ["CheckVisitor", "FileReport", "check_file", "check_match", "check_paths", "check_text", "collect_paths"]


@dataclass(slots=True)
class FileReport:
    """What checking one file found."""

    path: str
    matches: int = 0
    games: int = 0
    plays: int = 0
    findings: list[Finding] = field(default_factory=list)

    def count(self, severity: Severity) -> int:
        return sum(1 for f in self.findings if f.severity is severity)


class CheckVisitor(BaseVisitor[FileReport]):
    """Adds a match's findings and counts to a :class:`FileReport`."""

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


def check_match(match: Match, report: FileReport) -> FileReport:
    """Replay ``match`` and add its findings and counts to ``report``."""
    return replay(match, CheckVisitor(report))


def check_text(text: str, path: str) -> FileReport:
    """Check every match in ``text``; never raises for bad input."""
    return _check(lambda on_error: read_text_matches(text, path, on_error), path)


def _check(read: Callable[[ErrorHandler], Iterator[Match]], path: str) -> FileReport:
    """Check every match ``read(on_error)`` gives, one at a time; never raises for bad input."""
    report = FileReport(path)

    def syntax(exc: TranscriptSyntaxError) -> None:
        report.findings.append(Finding("syntax-error", exc.message, exc.location or Location(path)))

    try:
        for match in read(syntax):
            check_match(match, report)
    except InputError as exc:
        code = "unreadable-file" if exc.location is None or not exc.location.line else "syntax-error"
        report.findings.append(Finding(code, exc.message, exc.location or Location(path)))
    except TablaError as exc:
        report.findings.append(Finding("unreadable-file", str(exc), Location(path)))
    return report


def check_file(path: str) -> FileReport:
    """Check the file at ``path``; an unreadable file becomes a finding."""
    try:
        return _check(lambda on_error: read_path_matches(path, on_error), path)
    except OSError as exc:
        return FileReport(path, findings=[Finding("unreadable-file", exc.strerror or str(exc), Location(path))])


def check_paths(paths: list[str], jobs: int = 1) -> Iterator[FileReport]:
    """Check files in order, with ``jobs`` processes; results come in input order."""
    return map_in_order(check_file, paths, jobs)
