"""The ``tabla`` command: a thin layer that parses options, calls the library and renders."""

from __future__ import annotations

import functools
import itertools
import json
import os
import re
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import click

from tabla_cli import __version__
from tabla_cli.errors import TablaError

F = TypeVar("F", bound=Callable[..., Any])


def reports_errors(func: F) -> F:
    """Turn every :class:`TablaError` into a one-line message and exit 1."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except TablaError as exc:
            if click.get_current_context().find_root().params.get("verbose"):
                raise
            raise click.ClickException(str(exc)) from exc
        except BrokenPipeError:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


def format_option(*choices: str, default: str) -> Callable[[F], F]:
    return click.option(
        "--format", "fmt", type=click.Choice(choices), default=default, show_default=True,
        help="Output format.",
    )


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tabla")
@click.option("-v", "--verbose", is_flag=True, help="Show tracebacks for errors.")
def main(verbose: bool) -> None:
    """Check, convert and summarise backgammon (tabla) match transcripts."""
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)


# --- check ------------------------------------------------------------------


@main.command()
@click.argument("paths", nargs=-1, required=True)
@format_option("text", "json", "jsonl", default="text")
@click.option("--strict", is_flag=True, help="Exit 1 on warnings too.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Processes to use (default: all cores).")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary.")
@reports_errors
def check(paths: tuple[str, ...], fmt: str, strict: bool, jobs: int | None, quiet: bool) -> None:
    """Check that every match in PATHS (files or directories, '-' for stdin) is legal.

    Findings go to stderr as FILE:LINE:COL: severity[code]: message (or to
    stdout as JSON with --format json/jsonl). Exit 0 when no errors, 1 when
    any error (or warning with --strict), 2 on usage errors.
    """
    from tabla_cli.check import FileReport, check_paths, check_text, collect_paths
    from tabla_cli.findings import Severity

    start = time.perf_counter()
    reports: list[FileReport] = []
    names = collect_paths(p for p in paths if p != "-")
    stream: Iterable[FileReport] = check_paths(names, jobs or os.cpu_count() or 1)
    if "-" in paths:
        stream = itertools.chain([check_text(sys.stdin.read(), "<stdin>")], stream)
    as_json = fmt == "json"
    out: list[dict[str, Any]] = []
    with _progress(len(names), quiet) as advance:
        for report in stream:
            reports.append(report)
            for finding in report.findings:
                if fmt == "text":
                    click.echo(finding.render(), err=True)
                elif as_json:
                    out.append(finding.to_dict())
                else:
                    click.echo(json.dumps(finding.to_dict(), ensure_ascii=False))
            advance()
    if as_json:
        click.echo(json.dumps(out, ensure_ascii=False, indent=2))
    counts = Counter(f.code for r in reports for f in r.findings)
    errors = sum(r.count(Severity.ERROR) for r in reports)
    warnings = sum(r.count(Severity.WARNING) for r in reports)
    if not quiet:
        _summary(reports, counts, time.perf_counter() - start)
    if errors or (strict and warnings):
        sys.exit(1)


class _progress:
    """A rich progress bar on stderr, shown only on a terminal and for long runs."""

    def __init__(self, total: int, quiet: bool) -> None:
        self.total = total
        self.show = not quiet and total > 20 and sys.stderr.isatty()
        self.bar: Any = None

    def __enter__(self) -> Callable[[], None]:
        if not self.show:
            return lambda: None
        from rich.console import Console
        from rich.progress import Progress

        self.bar = Progress(console=Console(stderr=True), transient=True)
        self.bar.start()
        task = self.bar.add_task("checking", total=self.total)
        return lambda: self.bar.advance(task)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


def _summary(reports: list[Any], counts: Counter[str], seconds: float) -> None:
    from tabla_cli.findings import CODES

    matches = sum(r.matches for r in reports)
    games = sum(r.games for r in reports)
    plays = sum(r.plays for r in reports)
    rate = f"{matches / seconds:.0f} matches/s, {plays / seconds:.0f} plays/s" if seconds else ""
    click.echo(
        f"checked {len(reports)} files, {matches} matches, {games} games, {plays} plays "
        f"in {seconds:.2f} s ({rate})", err=True,
    )
    for severity in ("error", "warning", "note"):
        found = {c: n for c, n in sorted(counts.items()) if CODES[c][0].value == severity}
        if found:
            listed = ", ".join(f"{c} {n}" for c, n in found.items())
            click.echo(f"{severity}s: {sum(found.values())} ({listed})", err=True)


# --- show and plays ---------------------------------------------------------


def _find_variant(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    if value is None:
        return None
    from tabla_cli.variant import find_variant

    try:
        return find_variant(value)
    except TablaError as exc:
        raise click.BadParameter(str(exc)) from exc


variant_option = click.option(
    "--variant", "variant", metavar="NAME", default=None, callback=_find_variant,
    help="The game: backgammon (default), portes, nackgammon, hypergammon, tapa, plakoto, gulbara, "
         "fevga, long_nardy, long_tabla (English, Bulgarian or Greek names).",
)

_ID_LIKE = re.compile(r"(?:XGID=.*|[A-Za-z0-9+/]{14}(?::[A-Za-z0-9+/]{12})?|[-a-pA-P]{26}:.*)", re.IGNORECASE)


def _read_position(variant: Any, text: str) -> tuple[Any, Any]:
    """``(position, match state)`` for POSITION: ``start``, an ID, or (variants) our position text."""
    from tabla_cli.ids import MatchState, parse_ids
    from tabla_cli.variant import Backgammon

    if text.strip().casefold() == "start":
        game = variant or Backgammon
        return game.start_position(), MatchState() if game.has_gnubg_ids else None
    if variant is None or variant.has_gnubg_ids:
        position, state = parse_ids(text)
        return position, state or MatchState()
    from tabla_cli.errors import InvalidIdError
    from tabla_cli.variants.common import NO_IDS

    if _ID_LIKE.fullmatch(text.strip()):
        raise InvalidIdError(f"{NO_IDS}, not for {variant.name}: write a {variant.name} position as text, "
                             f"e.g. '24:14 18:1 / 24:15' (see the README), or 'start'")
    return variant.position_class.from_text(text), None


def _variant_data(variant: Any, position: Any) -> dict[str, Any]:
    from tabla_cli.board import OFF

    def side(counts: tuple[int, ...], pins: int) -> dict[str, Any]:
        data: dict[str, Any] = {
            "points": {str(p): counts[p] for p in range(24, 0, -1) if counts[p]},
            "off": counts[OFF],
            "pips": sum(i * n for i, n in enumerate(counts)),
        }
        if pins:
            data["pinned"] = [p for p in range(24, 0, -1) if (pins >> p) & 1]
        return data

    data: dict[str, Any] = {
        "variant": variant.name,
        "position": position.text(),
        "on_roll": side(position.mover, getattr(position, "mover_pins", 0)),
        "opponent": side(position.opponent, getattr(position, "opponent_pins", 0)),
    }
    if hasattr(position, "mover_rolls"):
        data["rolls"] = [position.mover_rolls, position.opponent_rolls]
        data["owed"] = list(position.mover_owed)
    return data


def _variant_text(data: dict[str, Any], position: Any) -> list[str]:
    from tabla_cli.variants.position_text import board_lines

    me, them = data["on_roll"], data["opponent"]
    lines = [
        f"Variant: {data['variant']}   Position: {data['position']}",
        *board_lines(position),
        f"Pip count  X (on roll): {me['pips']}  other: {them['pips']}",
        f"Borne off  X (on roll): {me['off']}  other: {them['off']}",
    ]
    if "pinned" in me or "pinned" in them:
        mine = ", ".join(map(str, me.get("pinned", []))) or "-"
        theirs = ", ".join(map(str, them.get("pinned", []))) or "-"
        lines.append(f"Pinned     X (on roll): {mine}  other: {theirs}  (points in each side's numbering)")
    if "rolls" in data:
        owed = ",".join(map(str, data["owed"])) or "none"
        lines.append(f"Rolls so far  X (on roll): {data['rolls'][0]}  other: {data['rolls'][1]}   Owed to X: {owed}")
    return lines


def _position_data(position: Any, state: Any) -> dict[str, Any]:
    from tabla_cli.board import BAR, OFF
    from tabla_cli.ids import encode_match_id, format_xgid

    def side(counts: tuple[int, ...]) -> dict[str, Any]:
        return {
            "points": {str(p): counts[p] for p in range(1, 25) if counts[p]},
            "bar": counts[BAR],
            "off": counts[OFF],
            "pips": sum(i * n for i, n in enumerate(counts)),
        }

    try:
        xgid: str | None = format_xgid(position, state)
    except TablaError:
        xgid = None
    return {
        "position_id": position.position_id(),
        "match_id": encode_match_id(state),
        "xgid": xgid,
        "on_roll": side(position.mover),
        "opponent": side(position.opponent),
        "player_on_roll": int(state.dice_owner),
        "turn": int(state.turn),
        "cube": state.cube,
        "cube_owner": None if state.cube_owner is None else int(state.cube_owner),
        "dice": list(state.dice) if state.dice else None,
        "length": state.length,
        "score": list(state.score),
        "crawford": state.crawford,
        "doubled": state.doubled,
    }


def _show_text(data: dict[str, Any], position: Any) -> list[str]:
    from tabla_cli.render import board_lines

    owner = {None: "centred", 0: "player 0 (O)", 1: "player 1 (X)"}[data["cube_owner"]]
    score = "money game" if not data["length"] else (
        f"{data['score'][0]}-{data['score'][1]} in a {data['length']}-point match"
        + (" (Crawford game)" if data["crawford"] else "")
    )
    dice = "-".join(map(str, data["dice"])) if data["dice"] else "not rolled"
    roller = "X" if data["player_on_roll"] == 1 else "O"
    lines = [
        f"Position ID: {data['position_id']}   Match ID: {data['match_id']}",
        data["xgid"] or "XGID: (not expressible)",
        *board_lines(position, bottom="X" if roller == "X" else "O", top="O" if roller == "X" else "X"),
        f"Pip count  {roller} (on roll): {data['on_roll']['pips']}  other: {data['opponent']['pips']}",
        f"Borne off  {roller} (on roll): {data['on_roll']['off']}  other: {data['opponent']['off']}",
        f"Cube: {data['cube']} ({owner})   Score: {score}   Dice: {dice}",
    ]
    if data["doubled"]:
        lines.append("A double is offered and not yet answered.")
    return lines


_SHOW_SUFFIXES = {".svg": "svg", ".json": "json", ".txt": "text"}


@main.command()
@click.argument("ids", nargs=-1, required=True, metavar="POSITION...")
@variant_option
@format_option("text", "json", "svg", default="text")
@click.option("-o", "--output", metavar="FILE", default=None,
              help="Write to FILE (format from its suffix .svg/.json/.txt unless --format).")
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
@reports_errors
def show(ids: tuple[str, ...], variant: Any, fmt: str, output: str | None, force: bool) -> None:
    """Draw the positions given as POSITION...

    Each POSITION is a GNU Backgammon Position ID, 'POSITION:MATCH' ID, an
    XGID (with or without 'XGID='), or 'start'. Prints the board, pip counts,
    cube, score, dice and all three IDs. With --variant for a game that gnubg
    cannot encode (tapa, plakoto, gulbara, fevga, long_nardy, long_tabla),
    POSITION is our position text ('24:14 18:1 / 24:15', see the README) or
    'start'. --format svg draws one position as an SVG diagram.
    """
    from pathlib import Path

    from tabla_cli.output import refuse_existing, write_atomic

    target = None if output in (None, "-") else output
    source = click.get_current_context().get_parameter_source("fmt")
    if target is not None and source is click.core.ParameterSource.DEFAULT:
        suffix = Path(target).suffix.lower()
        if suffix not in _SHOW_SUFFIXES:
            raise click.UsageError(f"cannot tell the format of {target!r} from its suffix: give --format")
        fmt = _SHOW_SUFFIXES[suffix]
    if fmt == "svg" and len(ids) > 1:
        raise click.UsageError("--format svg draws one position: give one POSITION at a time")
    if fmt == "svg" and variant is not None and not variant.has_gnubg_ids:
        raise click.UsageError(f"--format svg draws standard-board positions, not {variant.name}")
    if target is not None:
        refuse_existing([target], force)
    shown = []
    parts: list[str] = []
    emit = functools.partial(click.echo, nl=False) if target is None else parts.append
    for text in ids:
        position, state = _read_position(variant, text)
        if state is None:
            data = _variant_data(variant, position)
            lines = _variant_text(data, position)
        else:
            data = _position_data(position, state)
            lines = _show_text(data, position)
        if fmt == "json":
            shown.append(data)
        elif fmt == "svg":
            emit(_show_svg(position, state))
        else:
            emit("\n".join(lines) + "\n")
    if fmt == "json":
        emit(json.dumps(shown if len(shown) > 1 else shown[0], indent=2) + "\n")
    if target is not None:
        try:
            write_atomic(target, "".join(parts), force=force)
        except OSError as exc:
            raise click.ClickException(f"{target}: cannot write: {exc.strerror or exc}") from exc


def _show_svg(position: Any, state: Any) -> str:
    from tabla_cli.svg import board_svg

    return board_svg(
        position, on_roll=state.dice_owner, dice=state.dice, cube=state.cube, cube_owner=state.cube_owner,
        score=state.score if state.length else None, length=state.length, crawford=state.crawford,
    )


@main.command()
@click.argument("position_id", metavar="POSITION")
@click.argument("dice", nargs=-1, required=True)
@variant_option
@format_option("text", "json", default="text")
@reports_errors
def plays(position_id: str, dice: tuple[str, ...], variant: Any, fmt: str) -> None:
    """List every legal play for DICE in POSITION (the side on roll moves).

    POSITION is a Position ID (or any ID 'tabla show' reads) or 'start'; with
    --variant for a game gnubg cannot encode, our position text or 'start'.
    DICE is written 64, 6-4 or 6 4. Plays are printed one per line in GNU
    Backgammon's notation; --format json adds the Position ID (or, for those
    variants, the position text) after each play (seen from the side that
    moved) and the pip counts.
    """
    from tabla_cli.errors import InvalidDiceError
    from tabla_cli.notation import parse_dice
    from tabla_cli.variant import Backgammon

    game = variant or Backgammon
    position, state = _read_position(variant, position_id)
    try:
        roll = parse_dice(" ".join(dice))
    except TablaError as exc:
        raise InvalidDiceError(str(exc)) from exc
    found = sorted(
        game.legal_plays(position, roll).items(),
        key=lambda item: (-len(item[1]), game.format_play(position, item[1])),
    )
    key = "position_id" if state is not None else "position"
    rows = [
        {
            "play": game.format_play(position, play),
            key: after.position_id() if state is not None else after.text(),
            "pips": list(after.pips()),
            "dice_used": len(play),
        }
        for after, play in found
    ]
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2))
    else:
        for row in rows:
            click.echo(row["play"] or "(no legal play)")


def _register() -> None:
    from tabla_cli.cli_convert import convert
    from tabla_cli.cli_report import report

    main.add_command(convert)
    main.add_command(report)


_register()
