"""``tabla positions``: search an index (or files) for decisions, and write them out to study.

A thin layer over :mod:`tabla_cli.study.query` and :mod:`tabla_cli.study.export`;
register it with ``main.add_command(positions)``.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from tabla_cli.cli.index import DB_HELP
from tabla_cli.cli.options import (
    Filters,
    filter_options,
    gathered,
    input_options,
    read_options,
    reports_errors,
    say_unknown,
    write_output,
)
from tabla_cli.output import Inputs, check_targets

if TYPE_CHECKING:
    from tabla_cli.study.query import PositionFilter

_FORMATS = ("table", "json", "csv", "xgid", "ids", "anki", "html")


@dataclass(frozen=True, slots=True)
class _Decisions:
    """What the options of the decisions themselves chose (the fields of :class:`PositionFilter` they fill)."""

    tags: tuple[str, ...]
    without: tuple[str, ...]
    kind: str | None
    min_error: float | None
    max_error: float | None
    rating: str | None
    dice: tuple[str, ...]
    sort: str
    limit: int | None

    def position_filter(self, filters: Filters) -> PositionFilter:
        """The filter of these choices and the shared ones (``filters``)."""
        from tabla_cli.study.query import PositionFilter

        return PositionFilter(
            players=filters.players,
            opponents=filters.opponents,
            since=filters.since,
            until=filters.until,
            site=filters.site,
            length=filters.length,
            money=filters.money,
            keep_undated=filters.keep_undated,
            exact_case=filters.exact_case,
            **{field.name: getattr(self, field.name) for field in dataclasses.fields(self)},
        )


_SUFFIXES = {".json": "json", ".csv": "csv", ".apkg": "anki", ".html": "html", ".htm": "html", ".xgid": "xgid"}


def _usage(
    paths: tuple[str, ...], target: str | None, decisions: _Decisions, fmt: str | None, output: str | None
) -> str:
    """The output format (``--format``, else ``-o``'s suffix, else table); usage errors exit 2."""
    from tabla_cli.study.export import BINARY_FORMATS

    if (target is None) == (not paths):
        raise click.UsageError("give PATHS to read, or --db and an index (not both)")
    bad = [d for d in decisions.dice if len(d) != 2 or not all(c in "123456" for c in d)]
    if bad:
        raise click.UsageError(f"--dice takes two dice like 31, not {bad[0]!r}")
    if fmt is None:
        fmt = _SUFFIXES.get(Path(output).suffix.lower(), "table") if output else "table"
    if fmt in BINARY_FORMATS and output is None:
        raise click.UsageError(f"--format {fmt} writes a binary file: give -o FILE")
    return fmt


@click.command("positions", short_help="Find decisions by player, tags, kind and error; write XGIDs, Anki, a quiz.")
@click.argument("paths", nargs=-1)
@click.option("--db", "target", default=None, metavar="FILE|URL", help=DB_HELP + " Without it: PATHS are read.")
@filter_options
@click.option(
    "--tag", "tags", multiple=True, metavar="WORD", help="Decisions with this tag (repeatable; docs/study.md)."
)
@click.option("--not-tag", "without", multiple=True, metavar="WORD", help="Decisions without this tag (repeatable).")
@click.option(
    "--kind",
    type=click.Choice(["checker", "cube", "take"]),
    default=None,
    help="Checker plays, the roller's cube decisions (double or not), or answers to a double.",
)
@click.option("--min-error", type=float, default=None, metavar="E", help="Error at least E (normalised equity).")
@click.option("--max-error", type=float, default=None, metavar="E", help="Error at most E.")
@click.option(
    "--rating",
    type=click.Choice(["doubtful", "error", "blunder"]),
    default=None,
    help="Mistakes at least this bad (errors above 0.03, 0.06, 0.12: GNU Backgammon's marks).",
)
@click.option("--dice", "dice", multiple=True, metavar="AB", help="Rolls of these dice, e.g. 31 (repeatable).")
@click.option(
    "--sort",
    type=click.Choice(["error", "luck", "unlucky", "order"]),
    default="error",
    show_default=True,
    help="Biggest error first, luckiest roll first, unluckiest first, or file order.",
)
@click.option("--limit", type=click.IntRange(min=1), default=None, metavar="N", help="At most N decisions.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(_FORMATS),
    default=None,
    help="table, json, csv, xgid (one a line), ids (for 'tabla show'), anki (.apkg deck), html (a quiz).  "
    "[default: from -o's suffix, else table]",
)
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None, metavar="FILE", help="Write to FILE.")
@click.option("--force", is_flag=True, help="Replace FILE if it exists (never an input).")
@input_options(quiet="No summary line.")
@gathered("decisions", _Decisions)
@reports_errors
def positions(
    paths: tuple[str, ...],
    target: str | None,
    filters: Filters,
    decisions: _Decisions,
    fmt: str | None,
    output: str | None,
    force: bool,
    jobs: int | None,
    scheduler: str | None,
    quiet: bool,
    encoding: str | None,
    max_size: int,
) -> None:
    """The decisions of an index (--db) or of the matches in PATHS that the options choose.

    Tags (--tag, --not-tag) are the words of docs/study.md: phases (opening,
    middle, race, bearoff), scores (dmp, gs, gg, crawford, 3a-5a, money),
    cube (centred, owned, opponent), events (hit, missed-hit, closed-out,
    anchored), categories (backgame, containment, prime, blitz) and game
    plans (player-priming, opponent-attacking, ...). Errors are normalised
    equity as 'tabla analyze' gives them, from the files' recorded analysis
    or the engine ('tabla index --level', 'tabla analyze --db'). Exit 0 when
    done, 1 when a file cannot be read, 2 on usage errors.
    """
    from tabla_cli.study.export import render_positions
    from tabla_cli.study.index import IndexOptions
    from tabla_cli.study.query import search_positions

    fmt = _usage(paths, target, decisions, fmt, output)
    inputs = Inputs(paths)
    if target is not None:
        inputs.add(target)
    if output is not None:
        check_targets([Path(output)], inputs, force)
    found = search_positions(
        decisions.position_filter(filters),
        target=target,
        paths=paths,
        options=IndexOptions(read=read_options(encoding, max_size)),
        jobs=jobs or os.cpu_count() or 1,
        scheduler=scheduler,
    )
    for finding in found.findings:
        click.echo(finding.render(), err=True)
    say_unknown("positions", found.unknown)
    if found.unknown:
        sys.exit(1)
    data = render_positions(found.rows, fmt)
    if output is not None:
        write_output(Path(output), data, force, inputs)
    elif isinstance(data, str):
        click.echo(data, nl=False)
    if not quiet:
        click.echo(f"positions: {len(found.rows)} decision{'' if len(found.rows) == 1 else 's'}", err=True)
    if found.findings:
        sys.exit(1)
