"""``tabla analyze``: players' skill errors, PR and luck, from bgsage or the analysis a file records.

A thin layer: it parses options into an :class:`~tabla_cli.analyse.AnalyseRequest`, calls
:func:`tabla_cli.analyse.analyse` (one task per file, in worker processes with ``--jobs``) and
renders the tables as ``tabla report`` does. Register it with
``main.add_command(analyze)``.
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
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
    read_options,
    reports_errors,
    say_unknown,
    table_format,
    table_options,
    verify_options,
    write_output,
)
from tabla_cli.cli.progress import analysis_progress
from tabla_cli.output import Inputs, check_targets
from tabla_cli.reports.options import ANALYSIS_TABLES, FORMATS
from tabla_cli.words import plural

if TYPE_CHECKING:
    from tabla_cli.analyse import AnalyseRequest, Analysing
    from tabla_cli.analysis.verify import VerifyOptions
    from tabla_cli.source import Source


@dataclass(frozen=True, slots=True)
class _Args:
    """What the options of ``tabla analyze`` say."""

    level: str
    by: str
    fmt: str | None
    output: str | None
    columns: tuple[str, ...]
    recorded: bool
    no_cache: bool
    no_luck: bool
    threads: int | None
    out_dir: str | None
    force: bool
    filters: Filters
    verify: VerifyOptions | None
    target: str | None
    jobs: int | None
    scheduler: str | None
    quiet: bool
    encoding: str | None
    max_size: int

    def request(self, sources: list[Source]) -> AnalyseRequest:
        """The library's request to analyse ``sources`` as these options say."""
        from tabla_cli.analyse import AnalyseRequest
        from tabla_cli.analysis.decisions import AnalysisOptions

        options = AnalysisOptions(
            level=self.level,
            recorded=self.recorded,
            cache=not self.no_cache,
            luck=not self.no_luck,
            document=self.out_dir is not None,
            verify=self.verify,
        )
        selects = self.filters.selects
        return AnalyseRequest(
            sources,
            options,
            read_options(self.encoding, self.max_size),
            jobs=self.jobs or os.cpu_count() or 1,
            threads=self.threads,
            scheduler=self.scheduler,
            index=self.target,
            filter=self.filters.report_filter() if selects else None,
            exact_case=self.filters.exact_case,
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
@verify_options
@click.option(
    "--db",
    "target",
    default=None,
    metavar="FILE|URL",
    help="Also write every decision's analysis into this index ('tabla index'), replacing the file's decisions.",
)
@input_options(quiet="No progress bar and no summary line (errors still go to stderr).")
@gathered("args", _Args)
@reports_errors
def analyze(paths: tuple[str, ...], args: _Args) -> None:
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
    from tabla_cli.analyse import ThreadsError, analyse
    from tabla_cli.source import collect_sources

    start = time.perf_counter()
    fmt = table_format(args.fmt, args.output)
    names = collect_sources(paths, outputs=[args.out_dir] if args.out_dir is not None else [])
    targets = analysed_json_paths(paths, Path(args.out_dir)) if args.out_dir is not None else []
    inputs = Inputs(source.path for source in names)
    output = args.output
    if output and any(os.path.realpath(output) == os.path.realpath(target) for target in targets):
        raise click.UsageError(f"-o {output} is also where --out-dir writes an input's analysis")
    check_targets(([Path(output)] if output else []) + targets, inputs, args.force)

    def chosen(selection: str, files: int) -> None:
        click.echo(f"analyze: {selection}; {plural(files, 'file')} of {len(names)} to analyse", err=True)

    try:
        run = analyse(args.request(names), chosen=None if args.quiet else chosen)
    except ThreadsError as exc:
        raise click.UsageError(str(exc)) from None
    say_unknown("analyze", run.unknown)
    if run.unknown:
        sys.exit(1)
    rows, written, errors, unread = _collect(run, targets, args.force, inputs, args.quiet)
    if rows or not unread:  # with nothing analysed, nothing goes to stdout
        _emit(rows, args.by, fmt, output, args.force, inputs, args.columns)
    if not args.quiet:
        _summary(rows, len(run.sources), args.level, time.perf_counter() - start, args.out_dir, written)
    if errors:
        sys.exit(1)


def _collect(
    run: Analysing, targets: list[Path], force: bool, inputs: Inputs, quiet: bool
) -> tuple[list[dict[str, Any]], int, int, bool]:
    """Go through the files' analyses as they come, with the progress on stderr: say their notices and errors,
    write their analysed JSON to ``targets``. The decision rows, the analysed JSON files written, the errors,
    and whether any file could not be read."""
    from tabla_cli.findings import READ_FAILURES, Code, Severity

    written = errors = 0
    rows: list[dict[str, Any]] = []
    codes: set[str] = set()
    with analysis_progress(len(run.sources), quiet) as advance:
        for item in run.files:
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
    return rows, written, errors, not codes.isdisjoint(READ_FAILURES)


def _summary(
    rows: list[dict[str, Any]], files: int, level: str, seconds: float, out_dir: str | None, written: int
) -> None:
    """The summary lines on stderr: what was analysed, how fast, and the analysed JSON written."""
    rate = f" ({len(rows) / seconds:,.0f} decisions/s)" if seconds else ""
    rolled = sum(1 for row in rows if row.get("rolled_out"))
    click.echo(
        f"analyzed {plural(files, 'file')}, {plural(len({row['match'] for row in rows}), 'match')}, "
        f"{_decisions_by_source(rows, level)}{f', {rolled:,} rolled out' if rolled else ''} in {seconds:.2f} s{rate}",
        err=True,
    )
    if out_dir is not None:
        click.echo(f"wrote {plural(written, 'analysed JSON file')} to {out_dir}", err=True)


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
