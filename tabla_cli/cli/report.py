"""``tabla report``: match statistics as tables, files and plots.

A thin layer like the rest of the CLI: it parses options, calls
:mod:`tabla_cli.reports` and writes what they return.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING

import click

from tabla_cli.cli.options import (
    Filters,
    chosen_columns,
    filter_options,
    input_options,
    level_option,
    progress,
    read_options,
    reports_errors,
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
@reports_errors
def report(
    paths: tuple[str, ...],
    by: str,
    fmt: str | None,
    output: str | None,
    columns: tuple[str, ...],
    frames_dir: str | None,
    level: str | None,
    no_cache: bool,
    plots_dir: str | None,
    alias_file: str | None,
    ignore_case: bool,
    filters: Filters,
    verify: VerifyOptions | None,
    every: str,
    top: int,
    force: bool,
    keep_duplicates: bool,
    target: str | None,
    jobs: int | None,
    scheduler: str | None,
    quiet: bool,
    encoding: str | None,
    max_size: int,
    scoring: str | None,
) -> None:
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
    from tabla_cli.columns import records
    from tabla_cli.reports.build import ReportOptions, build_report, read_failures
    from tabla_cli.reports.frames import FRAME_NAMES
    from tabla_cli.reports.summaries import read_aliases
    from tabla_cli.source import LeftOut, collect_sources

    start = time.perf_counter()
    fmt = table_format(fmt, output)
    if by in DEPRECATED_TABLES:
        click.echo(f"report: --by {by} is deprecated: use --by {DEPRECATED_TABLES[by]}", err=True)
        by = DEPRECATED_TABLES[by]
    if not paths and target is None:
        raise click.UsageError("Missing argument 'PATHS...' (or --db INDEX)")
    if paths and target is not None:
        raise click.UsageError("give PATHS to read, or --db and an index (not both)")
    if target is not None and level is not None:
        raise click.UsageError("--analyze reads the files: with --db, 'tabla analyze --db' fills the index first")
    if no_cache and level is None:
        raise click.UsageError("--no-cache needs --analyze LEVEL")
    if verify is not None and level is None:
        raise click.UsageError("--verify needs --analyze (it rolls out what the analysis judged)")
    analyse = None
    if level is not None:
        from tabla_cli.analysis.decisions import AnalysisOptions

        analyse = AnalysisOptions(level=level, cache=not no_cache, verify=verify)
    players = filters.players
    if by in PLAYER_TABLES and not players:
        raise click.UsageError(f"--by {by} needs --player NAME")
    flt = filters.report_filter()
    left_out = LeftOut()
    names = collect_sources((p for p in paths if p != "-"), left_out)
    inputs = Inputs([*(n.path for n in names), *([alias_file] if alias_file else [])])
    check_targets(_targets(output, frames_dir, plots_dir), inputs, force)
    aliases = read_aliases(alias_file) if alias_file else {}
    for message in left_out.messages():
        click.echo(message, err=True)
    personal = bool(players) and (fmt == "html" or plots_dir is not None)
    options = ReportOptions(
        filter=flt,
        ignore_case=ignore_case,
        exact_case=filters.exact_case,
        aliases=aliases,
        keep_duplicates=keep_duplicates,
        plays=by == "dice" or personal,
        read=read_options(encoding, max_size, scoring=scoring),
        analyse=analyse,
        jobs=jobs or os.cpu_count() or 1,
        scheduler=scheduler,
    )
    with ExitStack() as stack:
        sink = None
        stack.enter_context(suppress(_NoSuchPlayer))  # outermost: the staged folder is removed first
        if frames_dir is not None:
            sink = stack.enter_context(_staged(frames_dir, [f"{n}.parquet" for n in FRAME_NAMES], force, inputs))
        stdin = stdin_source(max_size) if "-" in paths else None
        if analyse is not None:
            quick = None
            if flt.selects:
                from tabla_cli.reports.select import files_to_analyse

                names, quick = files_to_analyse(names, options)
                if not quiet and not quick.unknown:
                    click.echo(
                        f"report: {flt.describe()}: {len(names):,} of {plural(quick.everything.files, 'file')} "
                        f"{'holds' if len(names) == 1 else 'hold'} a chosen match; "
                        "analysing those",
                        err=True,
                    )
            if quick is not None and quick.unknown:
                built = quick  # a player no match has: nothing to analyse, and the names to suggest are all here
            else:
                with analysis_progress(len(names), quiet) as analysed, _writing(frames_dir):
                    built = build_report(
                        names,
                        options,
                        stdin=stdin,
                        sink=sink,
                        each=lambda rows: analysed(rows.matches, rows.count("decisions")),
                    )
        elif target is not None:
            with _writing(frames_dir):
                built = build_report([], options, sink=sink, stored=_stored(target))
        else:
            with progress(len(names), quiet, "reading") as advance, _writing(frames_dir):
                built = build_report(names, options, stdin=stdin, sink=sink, progress=advance)
        frames = built.frames
        for name, near in built.unknown:
            hint = f"; did you mean {' or '.join(repr(n) for n in near)}?" if near else ""
            click.echo(f"report: no match has a player named {name!r}{hint}", err=True)
        if built.unknown and sink is not None:
            raise _NoSuchPlayer
        if not built.unknown and (len(frames.matches) or read_failures(frames).empty):
            _emit(
                frames,
                by,
                fmt,
                output,
                plots_dir,
                force,
                inputs,
                players=built.filter.players,
                every=every,
                top=top,
                selection=built.describe(),
                columns=columns,
            )

    failed = records(read_failures(built.everything))
    for row in failed:
        where = f"{row['file']}:{row['line']}:{row['column'] or 1}" if row["line"] else row["file"]
        click.echo(f"{where}: error[{row['code']}]: {row['message']}", err=True)
    if not quiet:
        seconds = time.perf_counter() - start
        click.echo(
            f"report: {_counts(frames, 'decision')} in {seconds:.2f} s"
            + (f"; left out {plural(built.duplicates, 'copy')} of matches read before" if built.duplicates else ""),
            err=True,
        )
        if flt.selects:
            click.echo(f"report: {built.describe()}", err=True)
    if failed or left_out.unreadable or built.unknown:
        sys.exit(1)


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


def _emit(
    frames: Frames,
    by: str,
    fmt: str,
    output: str | None,
    plots_dir: str | None,
    force: bool,
    inputs: Inputs,
    *,
    players: tuple[str, ...] = (),
    every: str = "month",
    top: int = 50,
    selection: str = "",
    columns: tuple[str, ...] = (),
) -> None:
    """Render the ``by`` table in ``fmt`` to ``output`` or stdout, and the plots to ``plots_dir``."""
    from tabla_cli.reports.html import TITLES, report_page
    from tabla_cli.reports.personal import player_page
    from tabla_cli.reports.plots import make_plots
    from tabla_cli.reports.render import print_tables, render, table_renderables
    from tabla_cli.reports.summaries import player_summary, summarize

    table = chosen_columns(summarize(frames, by, players=players, every=every), columns)
    plots: dict[str, bytes] = {}
    summary = _counts(frames, "analysed decision") + (f"; {selection}" if selection else "")
    page = ""
    if players and (fmt == "html" or plots_dir is not None):
        extra = [] if by in ("player", "opponent", "period", "dice", "findings") else [(TITLES[by], table)]
        page, plots = player_page(frames, players, every=every, top=top, summary=summary, extra=extra)
    elif fmt == "html" or plots_dir is not None:
        plots = make_plots(frames, table if by == "player" else player_summary(frames))
    data: str | bytes
    if fmt == "html" and players:
        data = page
    elif fmt == "html":
        data = report_page(frames, by, table, plots, summary=summary, top=top)
    elif fmt == "table" and output is None and sys.stdout.isatty() and len(table) <= RICH_ROWS:
        from rich.console import Console

        console = Console()
        print_tables(console, table_renderables(table, width=console.width))
        data = ""
    elif fmt == "table" and output is None and sys.stdout.isatty():
        data = render(table, fmt, width=shutil.get_terminal_size().columns)
    else:
        data = render(table, fmt)
    if output is not None:
        write_output(Path(output), data, force, inputs)
    elif data:
        assert isinstance(data, str)
        click.echo(data, nl=False)
    if plots_dir is not None:
        with _staged(plots_dir, [f"{name}.png" for name in plots], force, inputs) as folder:
            for name, png in plots.items():
                write_atomic(folder / f"{name}.png", png)
