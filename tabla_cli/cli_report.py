"""``tabla report``: match statistics as tables, files and plots.

A thin layer like the rest of the CLI: it parses options, calls
:mod:`tabla_cli.reports` and writes what they return. Register it on the
``tabla`` group with ``main.add_command(report)``.
"""

from __future__ import annotations

import functools
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from tabla_cli.output import Inputs, check_targets, staged_folder, write_atomic

if TYPE_CHECKING:
    from tabla_cli.reports.frames import Frames

F = TypeVar("F", bound=Callable[..., Any])

BY_CHOICES = ("player", "match", "game", "cube", "errors")
FORMAT_CHOICES = ("table", "csv", "json", "jsonl", "markdown", "html", "parquet")
IN_MEMORY = ("matches", "games", "cube", "errors")
READ_FAILURES = ("unreadable-file", "syntax-error")
RICH_ROWS = 1000
"""Terminal tables up to this many rows are drawn with rich (styled); longer ones as plain text."""


def _reports_errors(func: F) -> F:
    """Apply :func:`tabla_cli.cli.reports_errors` at call time (no import cycle with cli.py)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from tabla_cli.cli import reports_errors

        return reports_errors(func)(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


@contextmanager
def _progress(total: int, quiet: bool) -> Iterator[Callable[[], None]]:
    """A rich progress bar on stderr, only on a terminal and for more than 20 files."""
    if quiet or total <= 20 or not sys.stderr.isatty():
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import Progress

    bar = Progress(console=Console(stderr=True), transient=True)
    task = bar.add_task("reading", total=total)
    with bar:
        yield lambda: bar.advance(task)


def _write_atomic(path: Path, data: str | bytes, force: bool, inputs: Inputs) -> None:
    """Write ``data`` to a temporary file beside ``path``, then publish it (see :mod:`tabla_cli.output`)."""
    try:
        write_atomic(path, data, force=force, inputs=inputs)
    except OSError as exc:
        raise click.ClickException(f"cannot write {path}: {exc.strerror or exc}") from exc


@contextmanager
def _writing(folder: str | None) -> Iterator[None]:
    """File-system errors while the frames stream into ``folder`` as one-line messages."""
    try:
        yield
    except OSError as exc:
        if folder is None:
            raise
        raise click.ClickException(f"cannot write {folder}: {exc.strerror or exc}") from exc


@contextmanager
def _staged(folder: str, names: list[str], force: bool, inputs: Inputs) -> Iterator[Path]:
    """:func:`tabla_cli.output.staged_folder`, with file-system errors as one-line messages."""
    try:
        with staged_folder(folder, names, force=force, inputs=inputs) as tmp:
            yield tmp
    except OSError as exc:
        raise click.ClickException(f"cannot write {folder}: {exc.strerror or exc}") from exc


def _resolve_format(fmt: str | None, output: str | None) -> str:
    from tabla_cli.reports.render import SUFFIXES, format_for_path

    if fmt is None:
        if output is None:
            return "table"
        found = format_for_path(output)
        if found is None:
            suffix = Path(output).suffix or "(none)"
            known = ", ".join(sorted(SUFFIXES))
            raise click.UsageError(f"cannot tell the format of -o {output!r} from its suffix {suffix}; "
                                   f"give --format or use one of {known}")
        fmt = found
    if fmt == "parquet" and output is None:
        raise click.UsageError("--format parquet writes a binary file: give -o FILE")
    return fmt


def _targets(output: str | None, frames_dir: str | None, plots_dir: str | None) -> list[Path]:
    from tabla_cli.reports.frames import FRAME_NAMES
    from tabla_cli.reports.render import PLOTS

    out = []
    if output is not None:
        out.append(Path(output))
    if frames_dir is not None:
        out += [Path(frames_dir) / f"{name}.parquet" for name in FRAME_NAMES]
    if plots_dir is not None:
        out += [Path(plots_dir) / f"{name}.png" for name in PLOTS]
    return out


@click.command("report")
@click.argument("paths", nargs=-1, required=True)
@click.option("--by", type=click.Choice(BY_CHOICES), default="player", show_default=True,
              help="The table: per player, per match, every game, every cube action, or findings by code.")
@click.option("--format", "fmt", type=click.Choice(FORMAT_CHOICES), default=None,
              help="Output format.  [default: from -o's suffix, else table]")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write the table to FILE (through a temporary file) instead of stdout.")
@click.option("--frames", "frames_dir", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Also write every DataFrame (matches, games, cube, plays, errors) as DIR/<name>.parquet.")
@click.option("--plots", "plots_dir", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Also write the plots as DIR/<name>.png.")
@click.option("--alias", "alias_file", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="CSV with a header 'alias,player': count each alias as that player.")
@click.option("--force", is_flag=True, help="Overwrite existing output files.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Processes to use (default: all cores); the output does not depend on it.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary line.")
@_reports_errors
def report(paths: tuple[str, ...], by: str, fmt: str | None, output: str | None, frames_dir: str | None,
           plots_dir: str | None, alias_file: str | None, force: bool, jobs: int | None, quiet: bool) -> None:
    """Statistics of every match in PATHS (files or directories, '-' for stdin).

    Tables per player (the default), per match, per game, per cube action, or
    findings by code, as a terminal table, CSV, JSON (a list of row objects),
    JSON Lines, Markdown, one self-contained HTML page with plots, or Parquet
    (needs -o). Exit 0 when done, 1 when a file could not be read (or only
    in part) or an output exists (without --force), 2 on usage errors.
    """
    from tabla_cli.check import collect_paths
    from tabla_cli.reports.frames import FRAME_NAMES, FrameBuilder, iter_file_rows, text_rows
    from tabla_cli.reports.render import records
    from tabla_cli.reports.summaries import read_aliases

    start = time.perf_counter()
    fmt = _resolve_format(fmt, output)
    names = collect_paths(p for p in paths if p != "-")
    inputs = Inputs([*names, *([alias_file] if alias_file else [])])
    check_targets(_targets(output, frames_dir, plots_dir), inputs, force)
    aliases = read_aliases(alias_file) if alias_file else {}
    include = FRAME_NAMES if frames_dir is not None else IN_MEMORY
    with ExitStack() as stack:
        sink = None
        if frames_dir is not None:
            sink = stack.enter_context(_staged(frames_dir, [f"{n}.parquet" for n in FRAME_NAMES], force, inputs))
        builder = FrameBuilder(include, keep=IN_MEMORY, aliases=aliases, sink=sink)
        stdin = sys.stdin.read() if "-" in paths else None
        with _progress(len(names), quiet) as advance, _writing(frames_dir):
            if stdin is not None:
                builder.add(text_rows(stdin, "<stdin>", include=include))
            for rows in iter_file_rows(names, jobs=jobs or os.cpu_count() or 1, include=include):
                builder.add(rows)
                advance()
            frames = builder.frames()
        _emit(frames, by, fmt, output, plots_dir, force, inputs)

    failed = records(frames.errors[frames.errors["code"].isin(READ_FAILURES)])
    for row in failed:
        where = f"{row['file']}:{row['line']}:{row['column'] or 1}" if row["line"] else row["file"]
        click.echo(f"{where}: error[{row['code']}]: {row['message']}", err=True)
    if not quiet:
        seconds = time.perf_counter() - start
        click.echo(
            f"report: {frames.files} files, {len(frames.matches)} matches, {len(frames.games)} games, "
            f"{len(frames.cube)} cube actions, {len(frames.errors)} findings in {seconds:.2f} s", err=True,
        )
    if failed:
        sys.exit(1)


def _emit(frames: Frames, by: str, fmt: str, output: str | None, plots_dir: str | None, force: bool,
          inputs: Inputs) -> None:
    """Render the ``by`` table in ``fmt`` to ``output`` or stdout, and the plots to ``plots_dir``."""
    import pandas as pd

    from tabla_cli.reports.render import TITLES, make_plots, print_tables, render, render_html, table_renderables
    from tabla_cli.reports.summaries import findings_by_code, player_summary, summarize

    table = summarize(frames, by)
    plots: dict[str, bytes] = {}
    if fmt == "html" or plots_dir is not None:
        players = table if by == "player" else player_summary(frames)
        plots = make_plots(frames, players)
    data: str | bytes
    if fmt == "html":
        tables: list[tuple[str, pd.DataFrame]] = [(TITLES[by], table)]
        if by != "errors":
            tables.append((TITLES["errors"], findings_by_code(frames)))
        summary = (f"{frames.files} files, {len(frames.matches)} matches, {len(frames.games)} games, "
                   f"{len(frames.cube)} cube actions, {len(frames.errors)} findings")
        data = render_html(tables, plots=plots, summary=summary)
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
        _write_atomic(Path(output), data, force, inputs)
    elif data:
        assert isinstance(data, str)
        click.echo(data, nl=False)
    if plots_dir is not None:
        with _staged(plots_dir, [f"{name}.png" for name in plots], force, inputs) as folder:
            for name, png in plots.items():
                write_atomic(folder / f"{name}.png", png)
