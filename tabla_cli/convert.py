"""``tabla convert`` as a library: read a transcript in any format, replay it, write it in another.

>>> text = '''5 point match
... Game 1
... Ann : 0   Bob : 0
... 1) 52: 13/8 13/11          61: 13/7 8/7
... 2) Doubles => 2            Drops
... Wins 1 point
... '''
>>> done = convert_text(text, "m.mat", "sgf")
>>> done.matches, done.errors, done.output.splitlines()[1:4]
(1, 0, [';W[52mhmk]', ';B[61lrqr]', ';W[double]'])
>>> convert_text(text.replace("13/8 13/11", "13/8 13/10"), "m.mat", "sgf").output is None
True
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tabla_cli.errors import InvalidPlayError, Location, UnsupportedFormatError
from tabla_cli.findings import Code, Finding, Severity
from tabla_cli.model import Match
from tabla_cli.pipeline import FileTee, FileVisitor, ReadOptions, Source, as_source, internal_error, run
from tabla_cli.replay import MatchResult, replay
from tabla_cli.visitor import BaseVisitor, Wants
from tabla_cli.writers import FORMATS, Writer, format_for_path, get

if TYPE_CHECKING:
    from tabla_cli.output import Inputs

__all__ = [
    "FORMATS",
    "Conversion",
    "ConvertVisitor",
    "Converted",
    "convert_into",
    "convert_matches",
    "convert_source",
    "convert_text",
    "convert_visitor",
    "format_for_path",
    "format_matches",
    "replayed_with",
]

Pairs = Sequence[tuple[Match, MatchResult | None]]


@dataclass(slots=True)
class Conversion:
    """What converting one input gave.

    Attributes:
        output: the converted text (bytes for OGXM); None when the input could not be read,
            or the check refused it.
        matches: matches read.
        games: games read.
        findings: everything the replay found (all severities).
        file_findings: what reading (or writing) the input as a whole found:
            it could not be read, a guessed encoding, a play that cannot be
            written, an internal error.
    """

    output: str | bytes | None
    matches: int = 0
    games: int = 0
    findings: list[Finding] = field(default_factory=list)
    file_findings: list[Finding] = field(default_factory=list)

    @property
    def errors(self) -> int:
        """Findings of severity error."""
        return sum(1 for f in (*self.file_findings, *self.findings) if f.severity is Severity.ERROR)

    @property
    def skipped(self) -> bool:
        """A named pipe, device or socket found in a directory: never opened, so nothing to write."""
        return any(f.code == Code.SPECIAL_FILE for f in self.file_findings)

    @property
    def failed(self) -> bool:
        """The input could not be read or written at all (an error about the whole file)."""
        return any(f.severity is Severity.ERROR for f in self.file_findings)


class ConvertVisitor(FileVisitor[Conversion]):
    """Gathers what converting one file finds, beside the format's writer (use :func:`convert_visitor`).

    Args:
        writer: the output format.
        written: that format's writer, a visitor replayed beside this one
            (see :func:`replayed_with`).
    """

    wants = Wants.FINDING

    def __init__(self, writer: Writer, written: BaseVisitor[Any]) -> None:
        self.writer = writer
        self.written = written
        self.done = Conversion(None)
        self.path = ""

    def visit_file_finding(self, finding: Finding) -> None:
        self.done.file_findings.append(finding)

    def visit_read_finding(self, finding: Finding) -> None:
        self.done.file_findings.append(finding)

    def visit_finding(self, finding: Finding) -> None:
        self.done.findings.append(finding)

    def end_match(self, match_result: MatchResult) -> None:
        match = match_result.match
        if not self.done.matches:
            self.path = match.path
        self.done.matches += 1
        self.done.games += len(match.games)

    def result(self) -> Conversion:
        return self.done

    def write(self, *, check: bool = True) -> Conversion:
        """The conversion, with its output unless reading failed or (with ``check``) an error was found."""
        done = self.done
        if done.failed or (check and done.errors):
            return done
        try:
            done.output = self.written.result()
        except InvalidPlayError as exc:  # --no-check, SGF: a play that cannot even be read
            done.file_findings.append(Finding(Code.INVALID_PLAY, exc.message, exc.location or Location(self.path)))
        except UnsupportedFormatError as exc:  # the output format has no place for something the file records
            done.file_findings.append(Finding(Code.UNWRITABLE, str(exc), Location(self.path)))
        except Exception as exc:  # one file's bug must not stop a run over many
            done.file_findings.append(internal_error(exc, self.path))
        return done


def convert_visitor(to: str | Writer) -> ConvertVisitor:
    """A fresh :class:`ConvertVisitor` for the output format ``to`` (replay it with :func:`replayed_with`).

    Raises:
        ValueError: ``to`` is not one of :data:`FORMATS`.
    """
    writer = get(to) if isinstance(to, str) else to
    return ConvertVisitor(writer, writer.visitor())


def replayed_with(visitor: ConvertVisitor) -> FileVisitor[Conversion]:
    """What replays the matches for ``visitor``: a :class:`~tabla_cli.pipeline.FileTee` of it and its writer."""
    return FileTee(visitor, visitor.written)


def format_matches(to: str, matches: Pairs) -> Any:
    """``matches`` written as ``to``: each is replayed with the format's writer (the result beside it, from
    ``replay_match(...)`` or None, is not needed).

    Raises:
        ValueError: ``to`` is not one of :data:`FORMATS`.
        InvalidPlayError: SGF only: a play that cannot even be read.
    """
    writer = get(to).visitor()
    for match, _ in matches:
        replay(match, writer)
    return writer.result()


def convert_matches(matches: list[Match], to: str, *, check: bool = True) -> Conversion:
    """Replay ``matches`` and write them as ``to``; with ``check``, not when an error is found."""
    visitor = convert_visitor(to)
    replaying = replayed_with(visitor)
    for match in matches:
        replay(match, replaying)
    return visitor.write(check=check)


def convert_source(
    source: Source | str, to: str, *, check: bool = True, options: ReadOptions = ReadOptions(lenient=False)
) -> Conversion:
    """Read ``source`` (a file, or a :class:`Source` with its bytes) and convert it to ``to``.

    Never raises for anything in the input: what goes wrong is in the
    :class:`Conversion`'s findings, and its output is None.

    Raises:
        ValueError: ``to`` is not one of :data:`FORMATS`.
    """
    visitor = convert_visitor(to)
    run(as_source(source), replayed_with(visitor), options)
    return visitor.write(check=check)


def convert_text(text: str, path: str, to: str, *, check: bool = True, scoring: str | None = None) -> Conversion:
    """Read every match of ``text`` (any format, detected by content) and convert it to ``to``.

    A text that cannot be read (not a transcript, a syntax error) gives a
    :class:`Conversion` without output whose ``file_findings`` say why.
    ``scoring`` names a scoring rule set that wins over the transcripts' headers
    (the ``.mat`` and JSON writers then say it in a header or field).

    Raises:
        ValueError: ``to`` is not one of :data:`FORMATS`.
    """
    visitor = convert_visitor(to)
    run(path, replayed_with(visitor), ReadOptions(lenient=False, scoring=scoring), text=text)
    return visitor.write(check=check)


@dataclass(slots=True)
class Converted:
    """What :func:`convert_into` did with one input.

    Attributes:
        problems: what went wrong, a line each in order: the target refused, the findings, why it was not written.
        matches: the matches converted; None when nothing was converted (or written).
        skipped: a special file found in a directory: nothing read, nothing written.
        output: the conversion, when it goes to standard output (no target).
    """

    problems: list[str] = field(default_factory=list)
    matches: int | None = None
    skipped: bool = False
    output: str | bytes | None = None


def _resolved(path: str | Path) -> Path:
    """``path`` made absolute with its links resolved as far as they go (a link loop is left as it is)."""
    return Path(os.path.realpath(path))


def _refused(target: Path, inputs: Inputs, written: dict[Path, str], force: bool) -> str | None:
    """Why ``target`` may not be written, or None."""
    from tabla_cli.output import replaces

    if inputs.holds(target):
        return f"{target}: error: is an input; not writing over it"
    if _resolved(target) in written:
        return f"{target}: error: already written from {written[_resolved(target)]} in this run; not replacing it"
    if not force and replaces(target):
        return f"{target}: error: exists; use --force to replace it"
    return None


def convert_into(
    open_source: Callable[[], Source],
    target: str | None,
    to: str,
    *,
    inputs: Inputs,
    written: dict[Path, str],
    force: bool = False,
    check: bool = True,
    options: ReadOptions = ReadOptions(lenient=False),
) -> Converted:
    """``tabla convert``'s library call for one input: convert it to ``to`` and write it to ``target``
    (through a temporary file, its folders made), or return it for standard output (``target`` None).

    ``open_source`` gives the input, called once the target is known to be writable. A target that is one
    of ``inputs``, already in ``written`` (resolved path: the input it was written from; updated here) or
    exists without ``force`` is not written; an input with errors is not converted unless not ``check``.
    """
    from tabla_cli.output import OutputExistsError, OutputIsInputError, make_folder, remove_created, write_atomic

    refused = None if target is None else _refused(Path(target), inputs, written, force)
    if refused is not None:
        return Converted([refused])
    source = open_source()
    done = convert_source(source, to, check=check, options=options)
    out = Converted([finding.render() for finding in done.file_findings])
    if done.failed or done.skipped:
        out.skipped = not done.failed
        return out
    if done.output is None:
        out.problems += [finding.render() for finding in done.findings if finding.severity is Severity.ERROR]
        plural = "s" if done.errors != 1 else ""
        out.problems.append(
            f"{source.path}: not converted: {done.errors} error{plural} (--no-check converts it anyway)"
        )
        return out
    if target is None:
        out.output, out.matches = done.output, done.matches
        return out
    path = Path(target)
    made: list[Path] = []
    try:
        made = make_folder(path.parent)
        write_atomic(path, done.output, force=force, inputs=inputs)
    except (OutputExistsError, OutputIsInputError) as exc:
        remove_created(made)
        out.problems.append(f"{target}: error: {exc}")
        return out
    except OSError as exc:
        remove_created(made)
        out.problems.append(f"{target}: error: cannot write: {exc.strerror or exc}")
        return out
    written[_resolved(path)] = source.path
    out.matches = done.matches
    return out
