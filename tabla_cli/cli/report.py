"""``tabla report``: match statistics as tables, files and plots.

A thin layer like the rest of the CLI: it parses options, calls
:mod:`tabla_cli.reports` and writes what they return.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from tabla_cli.cli.options import (
    Filters,
    chosen_columns,
    filter_options,
    gathered,
    input_options,
    level_option,
    progress,
    read_options,
    reports_errors,
    say_unknown,
    scoring_option,
    stdin_source,
    table_format,
    table_options,
    verify_options,
    write_output,
)
from tabla_cli.cli.progress import analysis_progress
from tabla_cli.output import Inputs, check_targets, staged_folder, write_atomic
from tabla_cli.reports.options import (
    DEPRECATED_TABLES,
    FORMATS,
    PERIODS,
    PLAYER_TABLES,
    TABLE_NAMES,
)
from tabla_cli.words import plural

if TYPE_CHECKING:
    from tabla_cli.analysis.verify import VerifyOptions
    from tabla_cli.reports.build import Report, ReportOptions
    from tabla_cli.reports.filters import ReportFilter
    from tabla_cli.reports.frames import Frames
    from tabla_cli.reports.rows import FileRows

RICH_ROWS = 1000
"""Terminal tables up to this many rows are drawn with rich (styled); longer ones as plain text."""


@contextmanager
def _writing(folder: str | None) -> Iterator[None]:
    """File-system errors while the frames stream into ``folder`` as one-line messages."""
    try:
        yield
    except OSError as exc:
        if folder is None:
            raise
        raise click.ClickException(f"cannot write {folder}: {exc.strerror or exc}") from exc


class _NoSuchPlayer(Exception):
    """A name asked for is nobody's: the staged --frames folder is dropped, not published."""


@contextmanager
def _staged(folder: str, names: list[str], force: bool, inputs: Inputs) -> Iterator[Path]:
    """:func:`tabla_cli.output.staged_folder`, with file-system errors as one-line messages."""
    try:
        with staged_folder(folder, names, force=force, inputs=inputs) as tmp:
            yield tmp
    except OSError as exc:
        raise click.ClickException(f"cannot write {folder}: {exc.strerror or exc}") from exc


def _targets(output: str | None, frames_dir: str | None, plots_dir: str | None) -> list[Path]:
    from tabla_cli.reports.frames import FRAME_NAMES
    from tabla_cli.reports.plots import PLOTS

    out = []
    if output is not None:
        out.append(Path(output))
    if frames_dir is not None:
        out += [Path(frames_dir) / f"{name}.parquet" for name in FRAME_NAMES]
    if plots_dir is not None:
        out += [Path(plots_dir) / f"{name}.png" for name in PLOTS]
    return out


def _stored(target: str) -> list[FileRows]:
    """The report's rows of every file of the index at ``target``."""
    from tabla_cli.study.index import stored_rows
    from tabla_cli.study.store import open_store

    with open_store(target, create=False) as store:
        return stored_rows(store)


@dataclass(frozen=True, slots=True)
class _Args:
    """What the options of ``tabla report`` say."""

    by: str
    fmt: str | None
    output: str | None
    columns: tuple[str, ...]
    frames_dir: str | None
    level: str | None
    no_cache: bool
    plots_dir: str | None
    alias_file: str | None
    ignore_case: bool
    filters: Filters
    verify: VerifyOptions | None
    every: str
    top: int
    force: bool
    keep_duplicates: bool
    target: str | None
    jobs: int | None
    scheduler: str | None
    quiet: bool
    encoding: str | None
    max_size: int
    scoring: str | None

    def table(self, paths: tuple[str, ...]) -> str:
        """The ``--by`` table (a deprecated name said on stderr and replaced); usage errors exit 2."""
        by = self.by
        if by in DEPRECATED_TABLES:
            click.echo(f"report: --by {by} is deprecated: use --by {DEPRECATED_TABLES[by]}", err=True)
            by = DEPRECATED_TABLES[by]
        if not paths and self.target is None:
            raise click.UsageError("Missing argument 'PATHS...' (or --db INDEX)")
        if paths and self.target is not None:
            raise click.UsageError("give PATHS to read, or --db and an index (not both)")
        if self.target is not None and self.level is not None:
            raise click.UsageError("--analyze reads the files: with --db, 'tabla analyze --db' fills the index first")
        if self.no_cache and self.level is None:
            raise click.UsageError("--no-cache needs --analyze LEVEL")
        if self.verify is not None and self.level is None:
            raise click.UsageError("--verify needs --analyze (it rolls out what the analysis judged)")
        if by in PLAYER_TABLES and not self.filters.players:
            raise click.UsageError(f"--by {by} needs --player NAME")
        return by

    def options(self, by: str, fmt: str) -> ReportOptions:
        """The library's options of the report, its ``--alias`` file read."""
        from tabla_cli.reports.build import ReportOptions
        from tabla_cli.reports.summaries import read_aliases

        analyse = None
        if self.level is not None:
            from tabla_cli.analysis.decisions import AnalysisOptions

            analyse = AnalysisOptions(level=self.level, cache=not self.no_cache, verify=self.verify)
        personal = bool(self.filters.players) and (fmt == "html" or self.plots_dir is not None)
        return ReportOptions(
            filter=self.filters.report_filter(),
            ignore_case=self.ignore_case,
            exact_case=self.filters.exact_case,
            aliases=read_aliases(self.alias_file) if self.alias_file else {},
            keep_duplicates=self.keep_duplicates,
            plays=by == "dice" or personal,
            read=read_options(self.encoding, self.max_size, scoring=self.scoring),
            analyse=analyse,
            jobs=self.jobs or os.cpu_count() or 1,
            scheduler=self.scheduler,
        )


class _Shown:
    """How the report goes, on stderr (:class:`tabla_cli.reports.request.ReportProgress`)."""

    def __init__(self, quiet: bool, flt: ReportFilter) -> None:
        self.quiet = quiet
        self.filter = flt

    def chosen(self, files: int, quick: Report) -> None:
        if not self.quiet:
            click.echo(
                f"report: {self.filter.describe()}: {files:,} of {plural(quick.everything.files, 'file')} "
                f"{'holds' if files == 1 else 'hold'} a chosen match; "
                "analysing those",
                err=True,
            )

    def reading(self, files: int) -> AbstractContextManager[Callable[[], None]]:
        return progress(files, self.quiet, "reading")

    @contextmanager
    def analysing(self, files: int) -> Iterator[Callable[[FileRows], None]]:
        with analysis_progress(files, self.quiet) as analysed:
            yield lambda rows: analysed(rows.matches, rows.count("decisions"))


@click.command("report")
@click.argument("paths", nargs=-1)
@click.option(
    "--by",
    type=click.Choice(TABLE_NAMES + tuple(DEPRECATED_TABLES)),
    default="player",
    show_default=True,
    help="The table: per player, per match, every game, every cube action, findings by code, or "
    "every analysed decision ('errors': the old name of 'findings').",
)
@table_options(FORMATS)
@click.option(
    "--frames",
    "frames_dir",
    type=click.Path(file_okay=False),
    default=None,
    metavar="DIR",
    help="Also write every DataFrame (matches, games, cube, plays, findings, decisions) as DIR/<name>.parquet.",
)
@level_option(
    "--analyze",
    "level",
    help="Analyse the matches that record no analysis with the engine at this level (as tabla analyze "
    "does) for the skill columns; --analyze alone means auto, tabla analyze's default; --player, --since "
    "etc. choose the matches first (costs by level: docs/analysis-accuracy.md).",
    default=None,
    is_flag=False,
    flag_value="auto",
)
@click.option("--no-cache", is_flag=True, help="With --analyze: neither read nor write the evaluation cache.")
@verify_options
@click.option(
    "--plots",
    "plots_dir",
    type=click.Path(file_okay=False),
    default=None,
    metavar="DIR",
    help="Also write the plots as DIR/<name>.png.",
)
@click.option(
    "--alias",
    "alias_file",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="CSV with a header 'alias,player': count each alias as that player.",
)
@click.option(
    "--ignore-case",
    is_flag=True,
    help="Count every two names that differ only in case as one player, also without --player.",
)
@filter_options
@click.option(
    "--every", type=click.Choice(PERIODS), default="month", show_default=True, help="The period of --by period."
)
@click.option(
    "--top",
    type=click.IntRange(min=1),
    default=50,
    show_default=True,
    help="Rows an HTML table shows at most (the top ones by games).",
)
@click.option("--force", is_flag=True, help="Overwrite existing output files.")
@click.option(
    "--keep-duplicates",
    is_flag=True,
    help="Count every copy of a match (by default a match read twice, in any format, counts once).",
)
@click.option(
    "--db",
    "target",
    default=None,
    metavar="FILE|URL",
    help="Answer from this index ('tabla index') instead of reading PATHS: the same tables, no file read.",
)
@input_options(quiet="No progress bar and no summary line.")
@scoring_option
@gathered("args", _Args)
@reports_errors
def report(paths: tuple[str, ...], args: _Args) -> None:
    """Statistics of every match in PATHS (files or directories, '-' for stdin).

    Tables per player (the default), per match, per game, per cube action,
    findings by code, or every analysed decision, as a terminal table, CSV,
    JSON (a list of row objects), JSON Lines, Markdown, one self-contained
    HTML page with plots, or Parquet (needs -o). When the inputs carry
    analysis (analysed tabla JSON, gnubg exports, SGF), or with --analyze, the
    player and match tables have the players' skill columns (error rate, PR,
    blunders, luck). --player, --opponent, --since, --until, --site, --length
    and --money choose the matches before every table, frame and plot. Exit 0
    when done, 1 when a file could not be read (or only in part), a --player
    or --opponent name is in no match, or an output exists (without --force),
    2 on usage errors.
    """
    from tabla_cli.reports.build import read_failures
    from tabla_cli.reports.frames import FRAME_NAMES
    from tabla_cli.reports.request import ReportRequest, make_report
    from tabla_cli.source import LeftOut, collect_sources

    start = time.perf_counter()
    fmt = table_format(args.fmt, args.output)
    by = args.table(paths)
    left_out = LeftOut()
    names = collect_sources((p for p in paths if p != "-"), left_out)
    inputs = Inputs([*(n.path for n in names), *([args.alias_file] if args.alias_file else [])])
    check_targets(_targets(args.output, args.frames_dir, args.plots_dir), inputs, args.force)
    options = args.options(by, fmt)
    for message in left_out.messages():
        click.echo(message, err=True)
    with ExitStack() as stack:
        sink = None
        stack.enter_context(suppress(_NoSuchPlayer))  # outermost: the staged folder is removed first
        if args.frames_dir is not None:
            names_in = [f"{n}.parquet" for n in FRAME_NAMES]
            sink = stack.enter_context(_staged(args.frames_dir, names_in, args.force, inputs))
        stdin = stdin_source(args.max_size) if "-" in paths else None
        with _writing(args.frames_dir):
            stored = None if args.target is None else _stored(args.target)
            request = ReportRequest(names, options, stdin=stdin, stored=stored)
            built = make_report(request, sink=sink, progress=_Shown(args.quiet, options.filter))
        say_unknown("report", built.unknown)
        if built.unknown and sink is not None:
            raise _NoSuchPlayer
        if not built.unknown and (len(built.frames.matches) or read_failures(built.frames).empty):
            _emit(built, by, fmt, args, inputs)
    failed = _failures(built)
    if not args.quiet:
        _summary(built, time.perf_counter() - start, options.filter.selects)
    if failed or left_out.unreadable or built.unknown:
        sys.exit(1)


def _failures(built: Report) -> bool:
    """Say on stderr each file that could not be read (or only in part); whether any."""
    from tabla_cli.columns import records
    from tabla_cli.reports.build import read_failures

    failed = records(read_failures(built.everything))
    for row in failed:
        where = f"{row['file']}:{row['line']}:{row['column'] or 1}" if row["line"] else row["file"]
        click.echo(f"{where}: error[{row['code']}]: {row['message']}", err=True)
    return bool(failed)


def _summary(built: Report, seconds: float, selects: bool) -> None:
    """The summary lines on stderr: what the report holds, how fast, the copies left out and the filter's count."""
    click.echo(
        f"report: {_counts(built.frames, 'decision')} in {seconds:.2f} s"
        + (f"; left out {plural(built.duplicates, 'copy')} of matches read before" if built.duplicates else ""),
        err=True,
    )
    if selects:
        click.echo(f"report: {built.describe()}", err=True)


def _counts(frames: Frames, decision: str) -> str:
    """What ``frames`` hold, in words: files, matches, games, cube actions, findings (and decisions)."""
    counted = [
        (frames.files, "file"),
        (len(frames.matches), "match"),
        (len(frames.games), "game"),
        (len(frames.cube), "cube action"),
        (len(frames.findings), "finding"),
    ]
    if len(frames.decisions):
        counted.append((len(frames.decisions), decision))
    return ", ".join(plural(n, word) for n, word in counted)


def _emit(built: Report, by: str, fmt: str, args: _Args, inputs: Inputs) -> None:
    """Render the ``by`` table in ``fmt`` to ``-o`` or stdout, and the plots to ``--plots``."""
    data, plots = _rendered(built, by, fmt, args)
    if args.output is not None:
        write_output(Path(args.output), data, args.force, inputs)
    elif data:
        assert isinstance(data, str)
        click.echo(data, nl=False)
    if args.plots_dir is not None:
        with _staged(args.plots_dir, [f"{name}.png" for name in plots], args.force, inputs) as folder:
            for name, png in plots.items():
                write_atomic(folder / f"{name}.png", png)


def _rendered(built: Report, by: str, fmt: str, args: _Args) -> tuple[str | bytes, dict[str, bytes]]:
    """The ``by`` table in ``fmt`` ("" when drawn on the terminal already), and the plots (with HTML or
    ``--plots``; with ``--player``, those of the player's page)."""
    from tabla_cli.reports.html import TITLES, report_page
    from tabla_cli.reports.personal import player_page
    from tabla_cli.reports.plots import make_plots
    from tabla_cli.reports.summaries import player_summary, summarize

    frames, players = built.frames, built.filter.players
    table = chosen_columns(summarize(frames, by, players=players, every=args.every), args.columns)
    selection = built.describe()
    summary = _counts(frames, "analysed decision") + (f"; {selection}" if selection else "")
    plots: dict[str, bytes] = {}
    if players and (fmt == "html" or args.plots_dir is not None):
        extra = [] if by in ("player", "opponent", "period", "dice", "findings") else [(TITLES[by], table)]
        page, plots = player_page(frames, players, every=args.every, top=args.top, summary=summary, extra=extra)
        if fmt == "html":
            return page, plots
    elif fmt == "html" or args.plots_dir is not None:
        plots = make_plots(frames, table if by == "player" else player_summary(frames))
    if fmt == "html":
        return report_page(frames, by, table, plots, summary=summary, top=args.top), plots
    return _text(table, fmt, args.output), plots


def _text(table: Any, fmt: str, output: str | None) -> str | bytes:
    """The table in ``fmt``; a terminal table on a terminal is drawn there (with rich up to :data:`RICH_ROWS`
    rows, then "") or fitted to its width."""
    from tabla_cli.reports.render import print_tables, render, table_renderables

    if fmt == "table" and output is None and sys.stdout.isatty() and len(table) <= RICH_ROWS:
        from rich.console import Console

        console = Console()
        print_tables(console, table_renderables(table, width=console.width))
        return ""
    if fmt == "table" and output is None and sys.stdout.isatty():
        return render(table, fmt, width=shutil.get_terminal_size().columns)
    return render(table, fmt)
