"""``tabla index``: read an archive once into an index (an SQLite file or a PostgreSQL server).

A thin layer over :func:`tabla_cli.study.index.index_paths`; register it with
``main.add_command(index)``.
"""

from __future__ import annotations

import os
import sys
import time

import click

from tabla_cli.cli.options import input_options, level_option, read_options, reports_errors

DB_HELP = "The index: an SQLite file (made if missing), or a postgresql:// URL of a server."


@click.command("index", short_help="Read matches into an index (SQLite file or PostgreSQL) for positions and report.")
@click.argument("paths", nargs=-1, required=True)
@click.option("--db", "target", required=True, metavar="FILE|URL", help=DB_HELP)
@click.option("--prune", is_flag=True, help="Forget the indexed files that no longer exist.")
@level_option(
    help="Evaluate with bgsage at this level the decisions no recorded analysis judges (--level alone: auto, "
    "as tabla analyze; without it only the analysis the files record; 'tabla analyze --db' also fills it).",
    default=None,
    is_flag=False,
    flag_value="auto",
)
@input_options(quiet="No summary line (errors still go to stderr).")
@reports_errors
def index(
    paths: tuple[str, ...],
    target: str,
    prune: bool,
    level: str | None,
    jobs: int | None,
    scheduler: str | None,
    quiet: bool,
    encoding: str | None,
    max_size: int,
) -> None:
    """Index every match in PATHS (files or directories) into --db.

    Each file is read and replayed once: its matches, games, findings and
    every decision (Position ID, Match ID, XGID, dice, play made, best play,
    error and who judged it, luck, cube action, with the tags of
    docs/study.md). Run it again and only files whose content changed are
    read again, each replacing its rows in one transaction; --prune forgets
    the files that are gone. Two runs at once leave a consistent index.
    'tabla positions --db' and 'tabla report --db' answer from it. Exit 0
    when done, 1 when a file has errors or could not be read, 2 on usage
    errors.
    """
    from tabla_cli.study.index import IndexOptions, index_paths

    start = time.perf_counter()
    options = IndexOptions(level=level, read=read_options(encoding, max_size), threads=1)
    summary = index_paths(paths, target, options, prune=prune, jobs=jobs or os.cpu_count() or 1, scheduler=scheduler)
    for finding in summary.findings:
        click.echo(finding.render(), err=True)
    if not quiet:
        pruned = f", {summary.pruned} forgotten" if prune else ""
        click.echo(
            f"indexed {summary.indexed} of {summary.files} files ({summary.decisions} decisions), "
            f"{summary.skipped} unchanged{pruned} in {time.perf_counter() - start:.2f} s",
            err=True,
        )
    if summary.findings:
        sys.exit(1)
