"""``tabla convert``: matches from any transcript format to .mat, SGF, JSON, a positions CSV or ASCII boards.

A thin layer like the rest of the CLI: it parses options, finds the inputs
and outputs, calls :mod:`tabla_cli.convert` and writes what it returns.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final, Literal

import click

from tabla_cli.cli.options import (
    encoding_option,
    max_size_option,
    read_options,
    reports_errors,
    scoring_option,
    stdin_source,
)
from tabla_cli.output import Inputs
from tabla_cli.words import plural
from tabla_cli.writers import FORMATS, SUFFIXES, format_for_path, get, titles

if TYPE_CHECKING:
    from tabla_cli.pipeline import ReadOptions
    from tabla_cli.source import Source

STDIO = "-"


@dataclass(frozen=True, slots=True)
class _Job:
    """One input and where its conversion goes (``-`` = stdin / stdout); ``found``: in a directory given."""

    source: str
    target: str
    found: bool = False


def _resolve_format(to: str | None, output: str | None, out_dir: str | None) -> str:
    """The output format, from ``--to`` or ``-o``'s suffix; usage errors exit 2."""
    if output is not None and out_dir is not None:
        raise click.UsageError("give either -o OUTPUT or --out-dir DIR, not both")
    if output is None and out_dir is None:
        raise click.UsageError("give -o OUTPUT ('-' for stdout) or --out-dir DIR")
    choices = ", ".join(FORMATS)
    if out_dir is not None:
        if to is None:
            raise click.UsageError(f"--out-dir needs --to FORMAT ({choices})")
        return to
    assert output is not None
    if output == STDIO:
        if to is None:
            raise click.UsageError(f"-o - (stdout) needs --to FORMAT ({choices})")
        return to
    suffix = Path(output).suffix.lower()
    implied = format_for_path(output)
    if to is None:
        if suffix == ".txt":
            raise click.UsageError(
                f"-o {output!r}: .txt may be a .mat transcript or ASCII boards; give --to mat or --to txt"
            )
        if implied is None:
            known = ", ".join(sorted(SUFFIXES))
            raise click.UsageError(
                f"cannot tell the format of -o {output!r} from its suffix {suffix or '(none)'}; "
                f"give --to FORMAT or use one of {known}"
            )
        return implied
    if implied is not None and implied != to:
        raise click.UsageError(f"-o {output!r} has the suffix of {implied}, but --to says {to}")
    return to


def _jobs(inputs: tuple[str, ...], output: str | None, out_dir: str | None, to: str) -> list[_Job]:
    """Each input file with its output; directories are walked and mirrored under ``out_dir`` (:mod:`tabla_cli.mirror`)."""
    from tabla_cli.mirror import mirror
    from tabla_cli.source import LeftOut

    if out_dir is not None and STDIO in inputs:
        raise click.UsageError("stdin ('-') has no file name: convert it with -o OUTPUT")
    left_out = LeftOut()
    files = [name for name in inputs if name != STDIO]
    outputs = [out_dir] if out_dir is not None else []
    found = mirror(files, out_dir or ".", get(to).suffix, left_out, outputs=outputs)
    for message in left_out.messages():
        _say(message)
    jobs = [_Job(item.source, str(item.target), item.found) for item in found]
    jobs += [_Job(STDIO, "") for name in inputs if name == STDIO]
    if output is not None:
        if len(jobs) != 1:
            raise click.UsageError(f"{len(jobs)} inputs: -o takes one; use --out-dir DIR (with --to) for several")
        jobs = [_Job(jobs[0].source, output, jobs[0].found)]
    return jobs


def _say(message: str) -> None:
    click.echo(message, err=True)


class _ListsFormats(click.Command):
    """``convert``, whose help lists the formats from the registries: ``{reads}`` and ``{writes}`` in it are filled in
    when the help is shown (the readers' registry imports every reader, which no other run of ``tabla`` needs)."""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from tabla_cli.formats import titles as reader_titles

        self.help = (self.help or "").replace("{reads}", reader_titles()).replace("{writes}", titles())
        super().format_help_text(ctx, formatter)


_BY_SUFFIX = ", ".join(f"{suffix} ({name})" for suffix, name in SUFFIXES.items())


@click.command("convert", cls=_ListsFormats)
@click.argument("inputs", nargs=-1, required=True, metavar="INPUT...")
@click.option(
    "-o",
    "--output",
    default=None,
    metavar="OUTPUT",
    help="Write to OUTPUT (one input; '-' = stdout). The format comes from its suffix unless --to.",
)
@click.option(
    "--out-dir",
    type=click.Path(file_okay=False),
    default=None,
    metavar="DIR",
    help="Write one file per input into DIR (needs --to); directories given as inputs are mirrored.",
)
@click.option(
    "--to",
    "to",
    type=click.Choice(FORMATS),
    default=None,
    help=f"Output format.  [default: from -o's suffix: {_BY_SUFFIX}]",
)
@click.option("--force", is_flag=True, help="Replace outputs that exist (never an input).")
@click.option("--no-check", is_flag=True, help="Convert transcripts even when the replay finds errors in them.")
@click.option("-q", "--quiet", is_flag=True, help="No summary line.")
@encoding_option
@max_size_option
@scoring_option
@reports_errors
def convert(
    inputs: tuple[str, ...],
    output: str | None,
    out_dir: str | None,
    to: str | None,
    force: bool,
    no_check: bool,
    quiet: bool,
    encoding: str | None,
    max_size: int,
    scoring: str | None,
) -> None:
    """Convert the matches in INPUT... (files, directories, '-' for stdin) to another format.

    Reads every format tabla reads ({reads}; detected by content) and
    writes {writes}.
    Every match is replayed first: a transcript with an error (an illegal
    play, a wrong score, ...) is reported and not converted unless
    --no-check. Outputs are written through a temporary file; an existing
    output is kept unless --force, and an input is never written over.

    Exit 0 when every input was converted, 1 when any was not, 2 on usage
    errors.
    """
    start = time.perf_counter()
    fmt = _resolve_format(to, output, out_dir)
    jobs = _jobs(inputs, output, out_dir, fmt)
    sources = Inputs(j.source for j in jobs if j.source != STDIO)
    failed = converted = skipped = matches = 0
    written: dict[Path, str] = {}
    options = read_options(encoding, max_size, lenient=False, scoring=scoring)
    for job in jobs:
        result = _convert_one(job, fmt, sources, written, options, force=force, check=not no_check)
        if result is None:
            failed += 1
        elif result == _SKIPPED:
            skipped += 1
        else:
            converted += 1
            matches += result
    if not quiet:
        seconds = time.perf_counter() - start
        what = f"converted {converted:,} of {plural(len(jobs), 'input')} ({plural(matches, 'match')}) to {fmt}"
        what += f" in {seconds:.2f} s"
        what += f"; {skipped:,} skipped (not a regular file)" if skipped else ""
        _say(what + (f"; {failed:,} not converted" if failed else ""))
    if failed:
        sys.exit(1)


_SKIPPED: Final = "skipped"
"""What :func:`_convert_one` returns for a special file found in a directory."""


def _convert_one(
    job: _Job, fmt: str, sources: Inputs, written: dict[Path, str], options: ReadOptions, *, force: bool, check: bool
) -> int | Literal["skipped"] | None:
    """Convert one input (:func:`tabla_cli.convert.convert_into`); report any problem on stderr.

    The number of matches; :data:`_SKIPPED` for a special file found in a
    directory (nothing written); None on failure.
    """
    from tabla_cli.convert import convert_into
    from tabla_cli.source import Source

    def open_source() -> Source:
        return stdin_source(options.max_size) if job.source == STDIO else Source(job.source, found=job.found)

    target = None if job.target == STDIO else job.target
    done = convert_into(
        open_source, target, fmt, inputs=sources, written=written, force=force, check=check, options=options
    )
    for problem in done.problems:
        _say(problem)
    if done.skipped:
        return _SKIPPED
    if done.output is not None:
        click.echo(done.output, nl=False)
    return done.matches
