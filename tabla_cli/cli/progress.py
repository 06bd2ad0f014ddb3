"""Progress of an analysis on stderr: files done, matches a second and the time left.

On a terminal a rich bar; elsewhere (a log, a pipe, a cluster job) one line
every few seconds, so that a long run says how far it is and when it will end::

    analysing: 12/33 files, 14 matches, 0.52 matches/s, 340 decisions/s, about 0:00:40 left
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta

import click

from tabla_cli.words import plural

EVERY = 5.0
"""Seconds between two progress lines when stderr is not a terminal."""

Advance = Callable[[int, int], None]
"""Called once per file done, with the matches and the decisions it held."""


ETA_FILES = 3
"""Files done before the time left is estimated: from fewer, one slow or quick file decides it."""

ETA_SHARE = 0.02
"""... and the share of the files done: the first files of a large archive say little of the rest."""


def progress_line(label: str, files: int, total: int, matches: int, decisions: int, seconds: float) -> str:
    """One progress line; the time left only once enough files are done (:data:`ETA_FILES`, :data:`ETA_SHARE`).

    >>> progress_line("analysing", 12, 33, 14, 9000, 27.0)
    'analysing: 12/33 files, 14 matches, 0.52 matches/s, 333 decisions/s, about 0:00:47 left'
    >>> progress_line("analysing", 1, 1698, 1, 150, 18.0)
    'analysing: 1/1,698 files, 1 match, 0.06 matches/s, 8 decisions/s'
    """
    rate = f"{matches / seconds:.2f} matches/s, {decisions / seconds:,.0f} decisions/s" if seconds else "starting"
    left = ""
    if seconds and files < total and files >= max(ETA_FILES, ETA_SHARE * total):
        left = f", about {timedelta(seconds=round(seconds / files * (total - files)))} left"
    return f"{label}: {files:,}/{plural(total, 'file')}, {plural(matches, 'match')}, {rate}{left}"


@contextmanager
def analysis_progress(
    total: int,
    quiet: bool,
    label: str = "analysing",
    *,
    every: float = EVERY,
    clock: Callable[[], float] = time.monotonic,
    terminal: bool | None = None,
) -> Iterator[Advance]:
    """Show the progress of ``total`` files; yields the :data:`Advance` to call per file.

    Args:
        total: files to go through.
        quiet: show nothing.
        label: the first word of each line.
        every: seconds between two lines off a terminal.
        clock: the time (seconds), for tests.
        terminal: draw a bar (default: whether stderr is a terminal).
    """
    if quiet:
        yield lambda matches, decisions: None
        return
    if terminal if terminal is not None else sys.stderr.isatty():
        with _bar(total, label) as advance:
            yield advance
        return
    start = last = clock()
    done = [0, 0, 0]

    def report(matches: int, decisions: int) -> None:
        nonlocal last
        done[0] += 1
        done[1] += matches
        done[2] += decisions
        now = clock()
        if now - last >= every or done[0] == total:
            last = now
            click.echo(progress_line(label, done[0], total, done[1], done[2], now - start), err=True)

    yield report


@contextmanager
def _bar(total: int, label: str) -> Iterator[Advance]:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = bar.add_task(label, total=total, rate="")
    start = time.perf_counter()
    matches = 0

    def advance(done_matches: int, decisions: int) -> None:
        nonlocal matches
        matches += done_matches
        seconds = time.perf_counter() - start
        bar.update(task, advance=1, rate=f"{matches / seconds:.2f} matches/s" if seconds else "")

    with bar:
        yield advance
