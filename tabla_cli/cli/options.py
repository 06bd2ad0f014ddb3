"""What the ``tabla`` commands share: error reporting, the options of reading inputs, the progress bar.

Every command module of :mod:`tabla_cli.cli` imports this module; it imports none of them.
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
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
    "PLY_NAMES",
    "TRACEBACK",
    "Filters",
    "encoding_option",
    "filter_options",
    "gathered",
    "chosen_columns",
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
    "say_unknown",
    "scheduler_option",
    "scoring_option",
    "stdin_source",
    "table_format",
    "table_options",
    "verify_options",
    "write_output",
]

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")

LEVELS = ("1ply", "2ply", "3ply", "auto")
"""The engine levels of ``--level`` and ``report --analyze``: :data:`tabla_cli.analysis.engine.LEVELS`, named
here because that module loads the engine."""

PLY_NAMES = (
    "Levels count plies as eXtreme Gammon does: 1ply is the raw net (gnubg's 0-ply), 2ply looks one roll "
    "ahead (gnubg's 1-ply), 3ply two rolls (gnubg's 2-ply)"
)
"""The names of the fixed depths, for an option that offers no ``auto`` (``rollout --level``): end it."""

LEVEL_NAMES = f"{PLY_NAMES}, and auto looks deeper only where it matters."
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
    """``--format`` (one of ``formats``, by default from ``-o``'s suffix), ``-o/--output`` and ``--columns``:
    where a table goes and what of it."""
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
        click.option(
            "--columns",
            metavar="NAMES",
            default="",
            callback=lambda ctx, param, value: tuple(name.strip() for name in value.split(",") if name.strip()),
            help="Only these columns, in this order (comma-separated names, as in docs/columns.md). Without it "
            "a terminal table leaves out the numeric columns that are 0 in every row.",
        ),
    )


def chosen_columns(table: Any, columns: Sequence[str]) -> Any:
    """:func:`~tabla_cli.reports.render.select_columns`, a column the table lacks a usage error (exit 2)."""
    from tabla_cli.reports.cells import UnknownColumnError
    from tabla_cli.reports.render import select_columns

    try:
        return select_columns(table, columns)
    except UnknownColumnError as exc:
        raise click.UsageError(f"--columns: {exc}") from None


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


def say_unknown(command: str, unknown: Sequence[tuple[str, Sequence[str]]]) -> None:
    """On stderr, each name no match has, with the nearest names ('did you mean'), as ``command`` says it."""
    for name, near in unknown:
        hint = f"; did you mean {' or '.join(repr(n) for n in near)}?" if near else ""
        click.echo(f"{command}: no match has a player named {name!r}{hint}", err=True)


def iso_date(value: datetime.datetime | None) -> str | None:
    """The ``YYYY-MM-DD`` of a ``--since``/``--until`` value (None stays None)."""
    return None if value is None else value.date().isoformat()


@dataclass(frozen=True, slots=True)
class Filters:
    """What ``--player``, ``--opponent``, ``--since`` ... chose: the same for every command that has them.

    They choose matches (a file is read only for the matches it holds), and
    ``--player`` the player's rows of those matches.
    """

    players: tuple[str, ...] = ()
    opponents: tuple[str, ...] = ()
    exact_case: bool = False
    since: str | None = None
    until: str | None = None
    keep_undated: bool = False
    site: str | None = None
    length: int | None = None
    money: bool = False

    @property
    def selects(self) -> bool:
        """Whether any match may be left out."""
        return bool(self.players or self.opponents or self.since or self.until or self.site or self.money) or (
            self.length is not None
        )

    def report_filter(self) -> Any:
        """The :class:`~tabla_cli.reports.filters.ReportFilter` of these choices (loads the report machinery)."""
        from tabla_cli.reports.filters import ReportFilter

        return ReportFilter(
            players=self.players,
            opponents=self.opponents,
            since=self.since,
            until=self.until,
            site=self.site,
            length=self.length,
            money=self.money,
            keep_undated=self.keep_undated,
        )


_FILTER_PARAMS = ("players", "opponents", "exact_case", "since", "until", "keep_undated", "site", "length", "money")


_DATED = "undated matches are left out and counted, unless --keep-undated"

_FILTER_OPTIONS = _together(
    click.option(
        "--player",
        "players",
        multiple=True,
        metavar="NAME",
        help="Only matches of this player (repeatable), and of those only this player's rows; a name in no "
        "match is an error (exit 1) that suggests the nearest names.",
    ),
    click.option(
        "--opponent",
        "opponents",
        multiple=True,
        metavar="NAME",
        help="Only matches against this opponent (repeatable).",
    ),
    click.option(
        "--exact-case",
        is_flag=True,
        help="Match --player and --opponent names with their case (by default 'lasse' finds 'Lasse' too, "
        "and the spellings count as one player).",
    ),
    click.option(
        "--since",
        type=click.DateTime(["%Y-%m-%d"]),
        default=None,
        metavar="YYYY-MM-DD",
        help=f"Only matches on or after this date ({_DATED}).",
    ),
    click.option(
        "--until",
        type=click.DateTime(["%Y-%m-%d"]),
        default=None,
        metavar="YYYY-MM-DD",
        help=f"Only matches on or before this date ({_DATED}).",
    ),
    click.option("--keep-undated", is_flag=True, help="With --since/--until: keep the matches that have no date."),
    click.option("--site", default=None, metavar="NAME", help="Only matches whose Site header is NAME (any case)."),
    click.option("--length", type=click.IntRange(min=1), default=None, metavar="N", help="Only N-point matches."),
    click.option("--money", is_flag=True, help="Only money sessions."),
)


def filter_options(func: F) -> F:
    """The options that choose matches and a player's rows, given to the command as one ``filters``
    argument (:class:`Filters`); ``--length`` with ``--money``, or ``--keep-undated`` without a date,
    is a usage error."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        given = {name: kwargs.pop(name) for name in _FILTER_PARAMS}
        if given["length"] is not None and given["money"]:
            raise click.UsageError("--length and --money exclude each other")
        if given["keep_undated"] and given["since"] is None and given["until"] is None:
            raise click.UsageError("--keep-undated needs --since or --until")
        given["since"], given["until"] = iso_date(given["since"]), iso_date(given["until"])
        return func(*args, filters=Filters(**given), **kwargs)

    return _FILTER_OPTIONS(wrapper)  # type: ignore[return-value]


_VERIFY_PARAMS = (
    "verify",
    "verify_trials",
    "verify_truncate",
    "verify_level",
    "verify_seed",
    "verify_checker_error",
    "verify_cube_window",
)


_VERIFY_OPTIONS = _together(
    click.option(
        "--verify",
        is_flag=True,
        help="Roll out the decisions whose verdict decides the players' numbers (cube decisions near a double "
        "or take point, checker errors of --verify-checker-error or more, doubles that decide the match) and "
        "judge them by the rollout: their error becomes the rollout's, with its standard error "
        "(docs/rollout.md, 'Checking an analysis').",
    ),
    click.option(
        "--verify-trials",
        type=click.IntRange(min=288),
        default=None,
        metavar="N",
        help="With --verify: trials of each play or cube line, in batches of 36 (default 324).",
    ),
    click.option(
        "--verify-truncate",
        type=click.IntRange(min=0),
        default=None,
        metavar="N",
        help="With --verify: stop each trial after N half-moves and evaluate it there (default 7; 0: play "
        "every game to the end).",
    ),
    click.option(
        "--verify-level",
        type=click.Choice(("1ply", "2ply", "3ply")),
        default=None,
        help="With --verify: the depth of the plays during the trials and of the evaluation at truncation "
        "(default 1ply).",
    ),
    click.option(
        "--verify-seed", type=int, default=None, metavar="N", help="With --verify: the rollouts' seed (default 1)."
    ),
    click.option(
        "--verify-checker-error",
        type=click.FloatRange(min=0),
        default=None,
        metavar="X",
        help="With --verify: roll out the checker plays whose error at the analysis level is X or more "
        "(default 0.06, gnubg's 'bad').",
    ),
    click.option(
        "--verify-cube-window",
        type=click.FloatRange(min=0),
        default=None,
        metavar="X",
        help="With --verify: roll out the cube decisions whose two closest actions are within X (default 0.08).",
    ),
)


def verify_options(func: F) -> F:
    """``--verify`` and its settings, given to the command as one ``verify`` argument: the
    :class:`~tabla_cli.analysis.verify.VerifyOptions`, or None without ``--verify`` (a ``--verify-*``
    option without it is a usage error)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        given = {name: kwargs.pop(name) for name in _VERIFY_PARAMS}
        wanted = given.pop("verify")
        settings = {name.removeprefix("verify_"): value for name, value in given.items() if value is not None}
        if not wanted:
            if settings:
                raise click.UsageError(f"--verify-{next(iter(settings)).replace('_', '-')} needs --verify")
            return func(*args, verify=None, **kwargs)
        from tabla_cli.analysis.verify import VerifyOptions

        try:
            options = VerifyOptions(**settings)
        except TablaError as exc:
            raise click.UsageError(str(exc)) from exc
        return func(*args, verify=options, **kwargs)

    return _VERIFY_OPTIONS(wrapper)  # type: ignore[return-value]


def gathered(name: str, cls: type[Any]) -> Callable[[F], F]:
    """Give the command the values of its options named as the fields of the dataclass ``cls`` as one
    argument ``name``, ``cls(**values)`` (the options themselves are declared as ever, in ``--help``'s order).

    Put it below the decorators that make a value of their own (:func:`filter_options`, :func:`verify_options`),
    so that it sees theirs.
    """
    fields = [field.name for field in dataclasses.fields(cls)]

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            values = {field: kwargs.pop(field) for field in fields}
            return func(*args, **{name: cls(**values)}, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate
