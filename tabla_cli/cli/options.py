"""What the ``tabla`` commands share: error reporting, the options of reading inputs, the progress bar.

Every command module of :mod:`tabla_cli.cli` imports this module; it imports none of them.
"""

from __future__ import annotations

import datetime
import functools
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from tabla_cli.cluster import SCHEDULER_HELP, SchedulerAddressError, check_scheduler
from tabla_cli.errors import TablaError

if TYPE_CHECKING:
    from tabla_cli.output import Inputs
    from tabla_cli.pipeline import ReadOptions
    from tabla_cli.source import Source

__all__ = [
    "LEVELS",
    "LEVEL_NAMES",
    "TRACEBACK",
    "encoding_option",
    "format_option",
    "input_options",
    "iso_date",
    "level_option",
    "max_size_option",
    "option_callback",
    "parse_size",
    "progress",
    "read_options",
    "reports_errors",
    "scheduler_option",
    "scoring_option",
    "stdin_source",
    "table_format",
    "table_options",
    "write_output",
]

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")

LEVELS = ("1ply", "2ply", "3ply", "auto")
"""The engine levels of ``--level`` and ``report --analyze``: :data:`tabla_cli.analysis.engine.LEVELS`, named
here because that module loads the engine."""

LEVEL_NAMES = (
    "Levels count plies as eXtreme Gammon does: 1ply is the raw net (gnubg's 0-ply), 2ply looks one roll "
    "ahead (gnubg's 1-ply), 3ply two rolls (gnubg's 2-ply), and auto looks deeper only where it matters."
)
"""The one sentence that explains the level names, in every ``--help`` that takes a level."""


def level_option(*names: str, help: str, default: str | None = "auto", **more: Any) -> Callable[[F], F]:
    """An engine level option (``--level`` unless ``names``): :data:`LEVELS`, ``help`` then :data:`LEVEL_NAMES`."""
    return click.option(
        *(names or ("--level",)),
        type=click.Choice(LEVELS),
        default=default,
        show_default=default is not None,
        help=f"{help} {LEVEL_NAMES}",
        **more,
    )


_SIZE = re.compile(r"([0-9]+)\s*([KMG]?)(?:i?B)?", re.IGNORECASE)
_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3}


TRACEBACK = "tabla.traceback"
"""The key in ``click.Context.meta`` that says ``tabla --traceback`` was given."""


def reports_errors(func: F) -> F:
    """Turn every :class:`TablaError` into a one-line message and exit 1 (with ``--traceback``: raise it)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except TablaError as exc:
            if click.get_current_context().meta.get(TRACEBACK):
                raise
            raise click.ClickException(str(exc)) from exc
        except BrokenPipeError:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


def option_callback(
    convert: Callable[[str], T], *errors: type[Exception]
) -> Callable[[click.Context, click.Parameter, str | None], T | None]:
    """A click callback for an option with no default: None stays None, a value becomes ``convert(value)``.

    Args:
        convert: reads the option's text.
        errors: what ``convert`` raises for a bad value (default
            :class:`TablaError`): a usage error (exit 2) with its message.
    """
    caught = errors or (TablaError,)

    def callback(ctx: click.Context, param: click.Parameter, value: str | None) -> T | None:
        if value is None:
            return None
        try:
            return convert(value)
        except caught as exc:
            raise click.BadParameter(str(exc)) from None

    return callback


def format_option(*choices: str, default: str) -> Callable[[F], F]:
    """``--format`` with ``choices``."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(choices),
        default=default,
        show_default=True,
        help="Output format.",
    )


def parse_size(text: str) -> int:
    """A size in bytes from ``1000``, ``64K``, ``256M`` or ``1G`` (powers of 1024).

    >>> parse_size("256M"), parse_size("64k"), parse_size("1000")
    (268435456, 65536, 1000)

    Raises:
        ValueError: ``text`` is not such a size (or is zero).
    """
    found = _SIZE.fullmatch(text.strip())
    if found is None or int(found.group(1)) == 0:
        raise ValueError(f"{text!r} is not a size such as 1000, 64K, 256M or 1G")
    return int(found.group(1)) * _UNITS[found.group(2).upper()]


def _check_size(ctx: click.Context, param: click.Parameter, value: str) -> int:
    try:
        return parse_size(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def _check_encoding(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    from tabla_cli.source import check_encoding

    try:
        return check_encoding(value)
    except LookupError:
        raise click.BadParameter(f"unknown encoding {value!r} (e.g. utf-8, cp1252, cp1251, latin-1)") from None


encoding_option = click.option(
    "--encoding",
    metavar="NAME",
    default=None,
    callback=_check_encoding,
    help="Read every input in encoding NAME (e.g. cp1251). Default: a byte-order mark, else UTF-8, else UTF-16, "
    "else a guessed legacy code page (with a note naming it).",
)

max_size_option = click.option(
    "--max-size",
    "max_size",
    default="256M",
    show_default=True,
    metavar="SIZE",
    callback=_check_size,
    help="Read no input larger than SIZE (bytes, or with K, M, G); a larger one is a finding.",
)


scheduler_option = click.option(
    "--scheduler",
    metavar="ADDRESS",
    default=None,
    callback=option_callback(check_scheduler, SchedulerAddressError),
    help=SCHEDULER_HELP,
)
"""``--scheduler ADDRESS``: a malformed address, or Dask not installed, is a usage error (exit 2)."""


def read_options(
    encoding: str | None, max_size: int, *, lenient: bool = True, scoring: str | None = None
) -> ReadOptions:
    """The :class:`~tabla_cli.pipeline.ReadOptions` of ``--encoding``, ``--max-size`` and ``--scoring``."""
    from tabla_cli.pipeline import ReadOptions

    return ReadOptions(encoding=encoding, max_size=max_size, lenient=lenient, scoring=scoring)


def stdin_source(max_size: int) -> Source:
    """Standard input as a :class:`~tabla_cli.source.Source` (at most one byte more than ``max_size`` read);
    one that says why when standard input is closed or cannot be read."""
    from tabla_cli.source import Source as Input

    try:
        data = sys.stdin.buffer.read(max_size + 1)
    except (OSError, ValueError) as exc:  # ValueError: read from a closed file
        reason = getattr(exc, "strerror", None) or str(exc)
        return Input(
            "<stdin>", error=reason if reason.startswith("cannot") else f"cannot read standard input: {reason}"
        )
    return Input("<stdin>", data=data)


@contextmanager
def progress(total: int, quiet: bool, label: str) -> Iterator[Callable[[], None]]:
    """A rich progress bar on stderr, only on a terminal and for more than 20 files; yields ``advance``."""
    if quiet or total <= 20 or not sys.stderr.isatty():
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import Progress

    bar = Progress(console=Console(stderr=True), transient=True)
    task = bar.add_task(label, total=total)
    with bar:
        yield lambda: bar.advance(task)


def _scoring_name(name: str) -> str:
    from tabla_cli.scoring import find_scoring

    return find_scoring(name).name


def scoring_option(func: F) -> F:
    """``--scoring NAME``: the scoring rule set, winning over the transcripts' ``Scoring`` headers."""
    option = click.option(
        "--scoring",
        metavar="NAME",
        default=None,
        callback=option_callback(_scoring_name),
        help="Score every game by this rule set: standard (1, 2, 3) or 1-2-4-8 (old Bulgarian); "
        "wins over a transcript's Scoring header.",
    )
    return option(func)


def _together(*options: Callable[[F], F]) -> Callable[[F], F]:
    """One decorator applying ``options`` in order (``--help`` lists them in that order)."""

    def decorate(func: F) -> F:
        for option in reversed(options):
            func = option(func)
        return func

    return decorate


def input_options(quiet: str) -> Callable[[F], F]:
    """The options of a command that reads many inputs: ``-j``, ``--scheduler``, ``-q``, ``--encoding``, ``--max-size``.

    Args:
        quiet: the help of ``-q/--quiet`` (what it turns off).
    """
    return _together(
        click.option(
            "-j",
            "--jobs",
            type=click.IntRange(min=1),
            default=None,
            help="Processes to use (default: all cores); the output does not depend on it.",
        ),
        scheduler_option,
        click.option("-q", "--quiet", is_flag=True, help=quiet),
        encoding_option,
        max_size_option,
    )


def table_options(formats: Sequence[str]) -> Callable[[F], F]:
    """``--format`` (one of ``formats``, by default from ``-o``'s suffix) and ``-o/--output``: where a table goes."""
    return _together(
        click.option(
            "--format",
            "fmt",
            type=click.Choice(formats),
            default=None,
            help="Output format.  [default: from -o's suffix, else table]",
        ),
        click.option(
            "-o",
            "--output",
            type=click.Path(dir_okay=False),
            default=None,
            help="Write the table to FILE (through a temporary file) instead of stdout.",
        ),
    )


def table_format(fmt: str | None, output: str | None) -> str:
    """The format of a table: ``--format``, else ``-o``'s suffix, else ``table``; usage errors exit 2."""
    from tabla_cli.reports.options import SUFFIXES, format_for_path

    if fmt is None:
        if output is None:
            return "table"
        found = format_for_path(output)
        if found is None:
            suffix = Path(output).suffix or "(none)"
            known = ", ".join(sorted(SUFFIXES))
            raise click.UsageError(
                f"cannot tell the format of -o {output!r} from its suffix {suffix}; give --format or use one of {known}"
            )
        fmt = found
    if fmt == "parquet" and output is None:
        raise click.UsageError("--format parquet writes a binary file: give -o FILE")
    return fmt


def write_output(path: Path, data: str | bytes, force: bool, inputs: Inputs) -> None:
    """Write ``data`` to a temporary file beside ``path``, then publish it (see :mod:`tabla_cli.output`)."""
    from tabla_cli.output import write_atomic

    try:
        write_atomic(path, data, force=force, inputs=inputs)
    except OSError as exc:
        raise click.ClickException(f"cannot write {path}: {exc.strerror or exc}") from exc


def iso_date(value: datetime.datetime | None) -> str | None:
    """The ``YYYY-MM-DD`` of a ``--since``/``--until`` value (None stays None)."""
    return None if value is None else value.date().isoformat()
