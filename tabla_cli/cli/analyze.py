"""``tabla analyze``: players' skill errors, PR and luck, from bgsage or the analysis a file records.

A thin layer: it parses options, runs :mod:`tabla_cli.analysis` over the
files (one task per file, in worker processes with ``--jobs``) and renders
the tables as ``tabla report`` does. Register it with
``main.add_command(analyze)``.
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from tabla_cli.cli.options import (
    Filters,
    chosen_columns,
    filter_options,
    input_options,
    level_option,
    read_options,
    reports_errors,
    table_format,
    table_options,
    write_output,
)
from tabla_cli.cli.progress import analysis_progress
from tabla_cli.output import Inputs, check_targets
from tabla_cli.reports.options import ANALYSIS_TABLES, FORMATS
from tabla_cli.words import plural

if TYPE_CHECKING:
    from tabla_cli.pipeline import ReadOptions
    from tabla_cli.source import Source
    from tabla_cli.study.store import Store


def _open_index(target: str | None) -> Store | None:
    from tabla_cli.study.store import open_store

    return None if target is None else open_store(target)


def _select(
    names: list[Source],
    targets: list[Path],
    filters: Filters,
    read: ReadOptions,
    jobs: int,
    scheduler: str | None,
    quiet: bool,
) -> tuple[list[Source], list[Path], Callable[[dict[str, Any]], bool]]:
    """The files holding a match the filter options choose (with their --out-dir targets), and which rows to keep;
    exit 1 when a --player or --opponent name is in no match."""
    # The report's filter machinery (and pandas with it) loads only when an option chooses matches.
    from tabla_cli.reports.build import ReportOptions
    from tabla_cli.reports.select import files_to_analyse, row_filter

    kept, quick = files_to_analyse(
        names,
        ReportOptions(
            filter=filters.report_filter(), exact_case=filters.exact_case, read=read, jobs=jobs, scheduler=scheduler
        ),
    )
    for name, near in quick.unknown:
        hint = f"; did you mean {' or '.join(repr(n) for n in near)}?" if near else ""
        click.echo(f"analyze: no match has a player named {name!r}{hint}", err=True)
    if quick.unknown:
        sys.exit(1)
    paths_kept = {source.path for source in kept}
    chosen = [i for i, source in enumerate(names) if source.path in paths_kept]
    if not quiet:
        click.echo(f"analyze: {quick.describe()}; {plural(len(chosen), 'file')} of {len(names)} to analyse", err=True)
    return (
        [names[i] for i in chosen],
        [targets[i] for i in chosen] if targets else targets,
        row_filter(quick, exact_case=filters.exact_case),
    )


@click.command("analyze")
@click.argument("paths", nargs=-1, required=True)
@level_option(
    help="Engine depth; auto looks deeper (3ply) only where the play or cube action made is not the best at "
    "1ply, which comes closest to eXtreme Gammon's analysis (costs by level: docs/analysis-accuracy.md)."
)
@click.option(
    "--by",
    type=click.Choice(ANALYSIS_TABLES),
    default="match",
    show_default=True,
    help="One row per match and player, per game and player, per player, or per decision.",
)
@table_options(FORMATS)
@click.option(
    "--recorded/--no-recorded",
    default=True,
    show_default=True,
    help="Use the analysis an analysed file records (gnubg text export, SGF) where it has one.",
)
@click.option("--no-cache", is_flag=True, help="Neither read nor write the evaluation cache.")
@click.option("--no-luck", is_flag=True, help="Skip the luck of each roll (faster).")
@click.option(
    "--threads",
    type=click.IntRange(min=0),
    default=None,
    help="Engine threads per process (0 = every core; at most the cores this process may use). Default: "
    "every core when one process analyses (one file, or --jobs 1), else 1 (the files' processes share "
    "the cores). Every core means as many as the address-space limit (ulimit -v) has room for; a number "
    "it has no room for is an error.",
)
@click.option(
    "--out-dir",
    type=click.Path(file_okay=False),
    default=None,
    metavar="DIR",
    help="Also write each input as DIR/<name>.json: tabla JSON keeping every decision's analysis.",
)
@click.option("--force", is_flag=True, help="Overwrite existing output files (never an input).")
@filter_options
@click.option(
    "--db",
    "target",
    default=None,
    metavar="FILE|URL",
    help="Also write every decision's analysis into this index ('tabla index'), replacing the file's decisions.",
)
@input_options(quiet="No progress bar and no summary line (errors still go to stderr).")
@reports_errors
def analyze(
    paths: tuple[str, ...],
    level: str,
    by: str,
    fmt: str | None,
    output: str | None,
    columns: tuple[str, ...],
    recorded: bool,
    no_cache: bool,
    no_luck: bool,
    threads: int | None,
    out_dir: str | None,
    force: bool,
    filters: Filters,
    target: str | None,
    jobs: int | None,
    scheduler: str | None,
    quiet: bool,
    encoding: str | None,
    max_size: int,
) -> None:
    """Skill errors of the players of every match in PATHS (files or directories).

    Every checker play and cube decision is evaluated by the bgsage engine at
    --level (or taken from the analysis the file records), and summed up as
    GNU Backgammon's error rate (mEMG), eXtreme Gammon's PR, blunder counts
    and luck. With --out-dir, each input is also written as tabla JSON whose
    actions keep their analysis: every tabla command reads it, and analysing
    it again takes the stored numbers without the engine. The check's errors
    go to stderr first. --player, --opponent, --since, --until, --site,
    --length and --money choose the matches as 'tabla report' does (a quick
    read of every file, no engine): only the files holding a chosen match
    are analysed, only the chosen matches are in the rows, and with --player
    only that player's rows; the summary counts the matches left out. Progress (files, matches/s, time left) goes to
    stderr, a line now and then when it is not a terminal. The cost of each
    level: docs/analysis-accuracy.md. Exit 0 when done, 1
    when a file has errors or could not be read or a --player or --opponent
    name is in no match, 2 on usage errors.
    """
    from tabla_cli.analyse import analyse_sources
    from tabla_cli.analysis.decisions import AnalysisOptions
    from tabla_cli.findings import READ_FAILURES, Code, Severity
    from tabla_cli.source import collect_sources

    start = time.perf_counter()
    fmt = table_format(fmt, output)
    names = collect_sources(paths, outputs=[out_dir] if out_dir is not None else [])
    targets = analysed_json_paths(paths, Path(out_dir)) if out_dir is not None else []
    inputs = Inputs(source.path for source in names)
    if output and any(os.path.realpath(output) == os.path.realpath(target) for target in targets):
        raise click.UsageError(f"-o {output} is also where --out-dir writes an input's analysis")
    check_targets(([Path(output)] if output else []) + targets, inputs, force)
    read = read_options(encoding, max_size)
    workers = jobs or os.cpu_count() or 1
    keep_row = None
    if filters.selects:
        names, targets, keep_row = _select(names, targets, filters, read, workers, scheduler, quiet)
    options = AnalysisOptions(
        level=level,
        recorded=recorded,
        cache=not no_cache,
        threads=engine_threads(threads, jobs, len(names), scheduler),
        luck=not no_luck,
        document=out_dir is not None,
    )
    written = errors = 0
    rows: list[dict[str, Any]] = []
    codes: set[str] = set()
    analysed = analyse_sources(
        names, options, read, jobs=workers, scheduler=scheduler, store=_open_index(target), keep_row=keep_row
    )
    with analysis_progress(len(names), quiet) as advance:
        for item in analysed:
            result = item.analysis
            rows += item.rows
            for notice in item.notices:
                click.echo(f"analyze: warning: {notice}", err=True)
            if result.document is not None:
                targets[item.index].parent.mkdir(parents=True, exist_ok=True)
                write_output(targets[item.index], result.document, force, inputs)
                written += 1
            for finding in result.report.findings:
                codes.add(finding.code)
                if finding.severity is Severity.ERROR or finding.code == Code.INTERNAL_ERROR:
                    errors += 1
                    click.echo(finding.render(), err=True)
            advance(result.report.matches, result.decisions)
    unread = not codes.isdisjoint(READ_FAILURES)  # with nothing analysed, nothing goes to stdout
    if rows or not unread:
        _emit(rows, by, fmt, output, force, inputs, columns)
    if not quiet:
        _summary(rows, len(names), level, time.perf_counter() - start, out_dir, written)
    if errors:
        sys.exit(1)


def _summary(
    rows: list[dict[str, Any]], files: int, level: str, seconds: float, out_dir: str | None, written: int
) -> None:
    """The summary lines on stderr: what was analysed, how fast, and the analysed JSON written."""
    rate = f" ({len(rows) / seconds:.0f} decisions/s)" if seconds else ""
    click.echo(
        f"analyzed {plural(files, 'file')}, {plural(len({row['match'] for row in rows}), 'match')}, "
        f"{_decisions_by_source(rows, level)} in {seconds:.2f} s{rate}",
        err=True,
    )
    if out_dir is not None:
        click.echo(f"wrote {plural(written, 'analysed JSON file')} to {out_dir}", err=True)


def engine_threads(threads: int | None, jobs: int | None, files: int, scheduler: str | None) -> int:
    """The engine's threads per process: ``threads`` when given (0 = every core); else every core when
    one process analyses all ``files`` (as :func:`~tabla_cli.parallel.map_in_order` runs them), else 1.

    Run here (no ``scheduler``), ``threads`` may not pass the cores this process may use (a usage
    error), and every core means as many as the address-space limit leaves room for
    (:func:`tabla_cli.analysis.threads.engine_threads`); on a cluster the workers' cores are theirs.

    Raises:
        click.UsageError: ``threads`` is more than this process's cores.
        EngineThreadsError: the threads do not fit in the address-space limit (``ulimit -v``).

    >>> engine_threads(1, 4, 10, None)
    1
    >>> engine_threads(None, 4, 10, None), engine_threads(None, 1, 10, "local")
    (1, 1)
    >>> engine_threads(None, 1, 10, None) == engine_threads(None, None, 1, None) == engine_threads(0, 1, 1, None)
    True
    """
    from tabla_cli.analysis.threads import cores
    from tabla_cli.analysis.threads import engine_threads as fitting

    if threads is None:
        one_process = scheduler is None and min(jobs or os.cpu_count() or 1, files) <= 1
        threads = 0 if one_process else 1
    if scheduler is not None:
        return threads
    if threads > cores():
        raise click.UsageError(
            f"--threads {threads}: this process may use {cores()} cores; give 0 (every core) to {cores()}"
        )
    return fitting(threads)


def _decisions_by_source(rows: list[dict[str, Any]], level: str) -> str:
    """How many decisions, and whether the engine at ``level`` or a file's recorded analysis judged them.

    At ``auto`` the engine's decisions are counted by the level each reached.

    >>> _decisions_by_source([{"source": "bgsage 2ply"}, {"source": "recorded gnubg 2-ply"}], "2ply")
    '2 decisions (1 at 2ply, 1 from recorded analysis)'
    >>> _decisions_by_source([{"source": "recorded gnubg 0-ply"}, {"source": None}], "2ply")
    '2 decisions from recorded analysis'
    >>> _decisions_by_source([{"source": "bgsage 1ply"}, {"source": "bgsage 1ply"}, {"source": "bgsage 3ply"}], "auto")
    '3 decisions at auto (2 at 1ply, 1 at 3ply)'
    """
    sources = [str(row.get("source") or "") for row in rows]
    engine = sum(1 for source in sources if source.startswith("bgsage"))
    recorded = sum(1 for source in sources if source.startswith("recorded"))
    if level == "auto" and engine:
        reached = Counter(source.removeprefix("bgsage ") for source in sources if source.startswith("bgsage"))
        level = f"auto ({', '.join(f'{n} at {name}' for name, n in sorted(reached.items()))})"
    if engine and recorded:
        return f"{plural(len(rows), 'decision')} ({engine:,} at {level}, {recorded:,} from recorded analysis)"
    if recorded:
        return f"{plural(len(rows), 'decision')} from recorded analysis"
    return f"{plural(len(rows), 'decision')} at {level}"


def analysed_json_paths(paths: tuple[str, ...], out_dir: Path) -> list[Path]:
    """Where ``--out-dir`` writes each input, in the order of ``collect_paths(paths)``: ``<stem>.json``,
    a file found under a directory given keeping its folders; unique over the run (:mod:`tabla_cli.mirror`)."""
    from tabla_cli.mirror import mirror

    return [item.target for item in mirror(paths, out_dir, ".json")]


def _emit(
    rows: list[dict[str, Any]],
    by: str,
    fmt: str,
    output: str | None,
    force: bool,
    inputs: Inputs,
    columns: tuple[str, ...] = (),
) -> None:
    """Write the ``by`` table of the decision rows (pandas loads for the HTML page and Parquet only)."""
    from tabla_cli.reports.analysis import analysis_table

    table = chosen_columns(analysis_table(rows, by), columns)
    data: str | bytes
    if fmt == "html":
        from tabla_cli.analysis.stats import decisions_frame, player_stats
        from tabla_cli.reports.analysis import worst_decisions_html
        from tabla_cli.reports.html import Section, render_page
        from tabla_cli.reports.plots import plot_error_rates

        decisions = decisions_frame(rows)
        stats = player_stats(decisions)
        data = render_page(
            [
                Section(f"Skill by {by}", table.frame()),
                Section("Error rates", plots={"error_rates": plot_error_rates(stats)}),
                Section("Worst decisions", fragment=worst_decisions_html(decisions)),
            ],
            title="tabla analysis",
            summary=f"{len(decisions)} decisions",
        )
    else:
        from tabla_cli.reports.render import render

        data = render(table, fmt)
    if output is not None:
        write_output(Path(output), data, force, inputs)
    elif data:
        if isinstance(data, bytes):
            raise click.UsageError("this format writes a binary file: give -o FILE")
        click.echo(data, nl=False)
