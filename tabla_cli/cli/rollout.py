"""``tabla rollout``: settle a checker play or a cube decision by rollout, here or on a Dask cluster.

A thin command over :func:`tabla_cli.analysis.rollout.rollout`: this module
reads the options and the positions (:func:`tabla_cli.show.rollout_question`),
shows the progress on stderr and renders the results as text (as a player
reads gnubg's rollouts) or JSON.
"""

from __future__ import annotations

import json
import math
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from tabla_cli.cli.options import PLY_NAMES, format_option, reports_errors, scheduler_option
from tabla_cli.cli.progress import EVERY
from tabla_cli.errors import InvalidDiceError, TablaError

if TYPE_CHECKING:
    from tabla_cli.analysis.rollout import Job

_CHANCES = (("win", "Win"), ("win_gammon", "W(g)"), ("win_backgammon", "W(bg)"))
_LOSSES = (("lose", "Lose"), ("lose_gammon", "L(g)"), ("lose_backgammon", "L(bg)"))


def _questions(position: str, dice: tuple[str, ...]) -> tuple[list[tuple[str, Any]], bool]:
    """The (position, dice) to roll out, and whether they came from a list (``-`` or a file)."""
    from tabla_cli.notation import parse_dice

    def read_dice(words: list[str]) -> Any:
        if not words:
            return None
        try:
            return parse_dice(" ".join(words))
        except TablaError as exc:
            raise InvalidDiceError(str(exc)) from exc

    if position != "-" and not Path(position).is_file():
        return [(position, read_dice(list(dice)))], False
    if dice:
        raise click.UsageError("give the dice on each line of the list, not after it")
    if position == "-":
        text = sys.stdin.read()
    else:
        try:
            text = Path(position).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise click.ClickException(f"{position}: cannot read: {exc}") from exc
    out: list[tuple[str, Any]] = []
    for line in text.splitlines():
        words = line.split("#", 1)[0].split()
        if words:
            out.append((words[0], read_dice(words[1:])))
    return out, True


class _Progress:
    """Trials done, trials a second and the time left, on stderr: a line every few seconds off a terminal."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.terminal = sys.stderr.isatty()
        self.start = self.last = time.monotonic()
        self.shown = False

    def __call__(self, done: int, total: int, run: int) -> None:
        if self.quiet:
            return
        now = time.monotonic()
        if now - self.last < (0.5 if self.terminal else EVERY) and done < total:
            return
        self.last = now
        seconds = now - self.start
        rate = run / seconds if seconds > 0 else 0.0
        left = f", about {timedelta(seconds=round((total - done) / rate))} left" if rate > 0 else ", from the cache"
        line = f"rolling out: {done:,}/{total:,} trials, {rate:,.1f} trials/s{left}"
        if self.terminal:
            click.echo(f"\r{line}\x1b[K", err=True, nl=False)
            self.shown = True
        else:
            click.echo(line, err=True)

    def close(self) -> None:
        if self.shown:
            click.echo("\r\x1b[K", err=True, nl=False)


def _se(value: float | None, digits: int = 3) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{value:.{digits}f}"


def _header(data: dict[str, Any]) -> list[str]:
    s = data["settings"]
    games = "full games" if s["truncate"] == 0 else f"truncated after {s['truncate']} half-moves"
    what = {
        "play": "Rollout of {d}".format(d="-".join(map(str, data.get("dice") or []))),
        "cube": "Cube rollout",
        "cubeless": "Cubeless rollout",
    }[data["kind"]]
    partial = f" (PARTIAL: stopped before the {data['trials_asked']} asked)" if data["partial"] else ""
    return [
        f"Position ID: {data['position_id']}   Match ID: {data['match_id']}",
        f"{what}: {data['trials']} trials{partial}, {data['batches']} batches of {data['batch_trials']}, "
        f"{games}, plays at {s['level']}, seed {s['seed']}",
    ]


def _chances(row: dict[str, Any]) -> str:
    """Both sides' chances in percent, each with its standard error."""
    names = [*_CHANCES, *_LOSSES]
    return "  ".join(f"{label} {100 * row[name]:.1f}% ±{_se(_percent(row[name + '_se']), 2)}" for name, label in names)


def _percent(value: float | None) -> float | None:
    return None if value is None else 100 * value


def _text(data: dict[str, Any]) -> list[str]:
    from tabla_cli.analysis.rollout import APART

    lines = _header(data)
    if data["trials"] == 0:
        return [*lines, "No trials were completed."]
    if data["kind"] == "play":
        width = max(len(c["play"]) for c in data["candidates"])
        lines.append(f"     {'Play':<{width}}  Equity (SE)       Cubeless (SE)     Diff (SE)")
        for c in data["candidates"]:
            diff = "" if c["rank"] == 1 else f"{c['diff']:+.3f} ({_se(c['diff_se'])}){' *' if c['apart'] else ''}"
            lines.append(
                f"{c['rank']:>3}. {c['play']:<{width}}  {c['equity']:+.3f} ({_se(c['equity_se'])})    "
                f"{c['cubeless_equity']:+.3f} ({_se(c['cubeless_se'])})    {diff}".rstrip()
            )
            lines.append(f"     {_chances(c)}")
        lines.append(f"* apart from the best: the difference exceeds {APART:g} standard errors of it.")
        return lines
    lines.append(f"Cubeless equity before the roll: {data['cubeless_equity']:+.3f} ({_se(data['cubeless_se'])})")
    lines.append(f"  {_chances(data)}")
    if data["kind"] == "cube":
        verb = "Redouble" if data["proper_action"].split(",")[0].lower().endswith("redouble") else "Double"
        rows = [
            (f"No {verb.lower()}", data["no_double"], data["no_double_se"]),
            (f"{verb}, take", data["double_take"], data["double_take_se"]),
            (f"{verb}, pass", data["double_pass"], None),
        ]
        proper = rows[0] if not data["double"] else rows[1] if data["take"] else rows[2]
        ordered = [proper] + sorted((r for r in rows if r != proper), key=lambda r: -r[1])
        lines.append("Cubeful equities:")
        for rank, (name, equity, se) in enumerate(ordered, 1):
            error = f" ({_se(se)})" if se is not None else "        "
            loss = f"  ({equity - proper[1]:+.3f})" if rank > 1 else ""
            lines.append(f"{rank}. {name:<20}{equity:+.3f}{error}{loss}".rstrip())
        lines.append(f"Proper cube action: {data['proper_action']}")
    return lines


@click.command(short_help="Roll out a checker play or a cube decision: trial games, here or on a Dask cluster.")
@click.argument("position", metavar="POSITION")
@click.argument("dice", nargs=-1)
@click.option("--cubeless", is_flag=True, help="Roll out the cubeless equity of the position before the roll.")
@click.option(
    "--candidates",
    type=click.IntRange(min=1),
    default=5,
    show_default=True,
    help="With dice: roll out at most this many of the best plays at 2ply (those within 0.32 of the best).",
)
@click.option(
    "--trials",
    type=click.IntRange(min=1),
    default=1296,
    show_default=True,
    help="Trials per line, rounded up to whole batches of 36 (at least two).",
)
@click.option(
    "--truncate",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    metavar="N",
    help="Stop each trial after N half-moves and evaluate the position at --level (0: play to the end).",
)
@click.option(
    "--level",
    type=click.Choice(["1ply", "2ply", "3ply"]),
    default="1ply",
    show_default=True,
    help=f"The depth of the plays and cube decisions made during the trials. {PLY_NAMES}.",
)
@click.option("--seed", type=int, default=1, show_default=True, help="The dice: the same seed, the same rollout.")
@click.option(
    "--target-se",
    type=click.FloatRange(min=0.0),
    default=0.0,
    show_default=True,
    help="Stop once every line's standard error is below this (checked every 4 batches; 0: run every trial).",
)
@click.option(
    "--threads",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    help="Threads of the engine (0 = every core); the numbers do not depend on it.",
)
@click.option(
    "--no-bearoff-db",
    "bearoff_db",
    flag_value=False,
    default=True,
    help="Let the net play and judge the bear-offs of the trials instead of bgsage's bear-off database.",
)
@click.option("--no-cache", is_flag=True, help="Neither read nor write the rollout cache.")
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")
@scheduler_option
@format_option("text", "json", default="text")
@reports_errors
def rollout(
    position: str,
    dice: tuple[str, ...],
    cubeless: bool,
    candidates: int,
    trials: int,
    truncate: int,
    level: str,
    seed: int,
    target_se: float,
    threads: int,
    bearoff_db: bool,
    no_cache: bool,
    quiet: bool,
    scheduler: str | None,
    fmt: str,
) -> None:
    """Roll out POSITION: play it out many times with the bgsage engine and average.

    POSITION is anything 'tabla show' reads. With DICE (written 31, 3-1 or
    3 1; or dice in the ID) the checker play: the best plays at 2ply are
    rolled out on the same dice, each with its cubeful and cubeless equity,
    both sides' win, gammon and backgammon chances, and its difference to
    the best, every figure with its standard error. Without dice the cube
    decision before the roll (no double, double/take, double/pass and the
    proper action, as 'tabla cube' says it), or with --cubeless the
    position's cubeless equity before the roll.

    POSITION '-' reads one position a line from stdin (POSITION [DICE], '#'
    starts a comment); a file name reads them from the file. Results are
    cached: the same rollout again is instant, and more --trials with the
    same seed run only the trials the cache lacks. Ctrl-C stops and prints
    what was done, marked partial (exit 1). With --scheduler the batches
    run on a Dask cluster; the numbers are the same as here.
    """
    from tabla_cli.analysis.rollout import Settings, as_data
    from tabla_cli.analysis.rollout import rollout as roll_out

    questions, listed = _questions(position, dice)
    settings = Settings(trials, truncate, level, seed, target_se, bearoff_db)
    jobs, failed = _jobs(questions, cubeless, candidates)
    shown = _Progress(quiet)
    try:
        results = (
            roll_out(jobs, settings, threads=threads, scheduler=scheduler, use_cache=not no_cache, progress=shown)
            if jobs
            else []
        )
    finally:
        shown.close()
    data = [as_data(result) for result in results]
    _show(data, fmt, listed)
    if any(one["partial"] for one in data):
        click.echo("tabla: rollout stopped: the figures are of the trials done (partial)", err=True)
        sys.exit(1)
    if failed:
        sys.exit(1)


def _show(data: list[dict[str, Any]], fmt: str, listed: bool) -> None:
    """The results on stdout: as text, or as JSON (a list when the positions came from a list)."""
    if fmt == "json" and data:
        click.echo(json.dumps(data if listed else data[0], indent=2))
    elif fmt == "text" and data:
        click.echo("\n\n".join("\n".join(_text(one)) for one in data))


def _jobs(questions: list[tuple[str, Any]], cubeless: bool, candidates: int) -> tuple[list[Job], bool]:
    """The rollout of each question (:func:`tabla_cli.show.rollout_question`), and whether any could not be
    read (each said on stderr)."""
    from tabla_cli.show import rollout_question

    jobs: list[Job] = []
    failed = False
    for text, roll in questions:
        try:
            jobs.append(rollout_question(text, roll, cubeless=cubeless, candidates=candidates))
        except TablaError as exc:
            failed = True
            click.echo(f"tabla: {text}: {exc}", err=True)
    return jobs, failed
