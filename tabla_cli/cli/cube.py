"""``tabla cube``: the engine's verdict on the cube decision before the roll, in GNU Backgammon's words."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any

import click

from tabla_cli.cli.options import format_option, level_option, reports_errors
from tabla_cli.errors import TablaError

CHANCES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
"""The names of the cubeless chances in ``--format json`` (gnubg's order)."""

GNUBG_DEPTH = {"1ply": "gnubg's 0-ply", "2ply": "gnubg's 1-ply", "3ply": "gnubg's 2-ply"}


def chances_data(chances: tuple[float, ...]) -> dict[str, float]:
    """The cubeless chances by their JSON names, rounded as the other figures are."""
    return {name: round(value, 6) for name, value in zip(CHANCES, chances)}


def chances_line(data: Mapping[str, Any]) -> str:
    """The chances as gnubg prints them: win, gammon, backgammon of the side, a dash, then the other side's."""
    lose = 1.0 - data["win"]
    return (
        f"{data['win']:.3f} {data['win_gammon']:.3f} {data['win_backgammon']:.3f} - "
        f"{lose:.3f} {data['lose_gammon']:.3f} {data['lose_backgammon']:.3f}"
    )


def _cube_data(position: Any, state: Any, level: str) -> dict[str, Any]:
    """The engine's verdict on the cube decision before the roll in ``position``, as data."""
    from tabla_cli.analysis.cube import cube_verdict
    from tabla_cli.evaluation.types import DecisionKind
    from tabla_cli.ids import encode_match_id
    from tabla_cli.show import decision_input

    verdict = cube_verdict(decision_input(DecisionKind.DOUBLE, position, state), level)
    return {
        "position_id": position.position_id(),
        "match_id": encode_match_id(state),
        "level": verdict.level,
        **chances_data(verdict.chances),
        "no_double": round(verdict.no_double, 6),
        "double_take": round(verdict.double_take, 6),
        "double_pass": round(verdict.double_pass, 6),
        "proper": verdict.proper,
        "double": verdict.double,
        "take": verdict.take,
        "costs": {action: round(cost, 6) for action, cost in verdict.costs.items()},
    }


def _cube_text(data: dict[str, Any]) -> list[str]:
    """The verdict as GNU Backgammon prints its cube analysis: the chances, then best first, each with its loss.

    The ranking follows the verdict's own ``double`` and ``take``: the proper action first.
    """
    redouble = data["proper"].split(",")[0].lower().endswith("redouble")
    verb = "Redouble" if redouble else "Double"
    nd, dt, dp = data["no_double"], data["double_take"], data["double_pass"]
    rows = [(f"No {verb.lower()}", nd), (f"{verb}, take", dt), (f"{verb}, pass", dp)]
    proper = rows[0] if not data["double"] else rows[1] if data["take"] else rows[2]
    optimal = proper[1]
    rows = [proper] + sorted((row for row in rows if row != proper), key=lambda row: -row[1])
    lines = [
        f"Position ID: {data['position_id']}   Match ID: {data['match_id']}",
        f"Cube analysis at {data['level']} ({GNUBG_DEPTH[data['level']]})",
        f"Cubeless chances of the side on roll: {chances_line(data)}",
        "Cubeful equities:",
    ]
    for rank, (name, equity) in enumerate(rows, 1):
        loss = f"  ({equity - optimal:+.3f})" if rank > 1 else ""
        lines.append(f"{rank}. {name:<20}{equity:+.3f}{loss}")
    lines.append(f"Proper cube action: {data['proper']}")
    wrong = [f"{action} {cost:.3f}" for action, cost in data["costs"].items() if cost > 0]
    lines.append(f"Cost of each wrong action: {', '.join(wrong) or 'none'}")
    return lines


@click.command(short_help="The cube decision before the roll: no double, double/take, double/pass.")
@click.argument("ids", nargs=-1, required=True, metavar="POSITION...")
@format_option("text", "json", default="text")
@level_option(help="The bgsage engine's depth; auto judges at 3ply, which agrees with gnubg's 2-ply most.")
@reports_errors
def cube(ids: tuple[str, ...], fmt: str, level: str) -> None:
    """Judge the cube decision of the side on roll, before it rolls, in each POSITION.

    POSITION is a 'POSITION:MATCH' ID, a Position ID (money, cube centred), an
    XGID or an eXtreme Gammon position file (FILE.xgp), as 'tabla show' reads
    them. Prints the cubeless chances of the side on roll (win, gammon,
    backgammon for it, then for the other side; in JSON win, win_gammon,
    win_backgammon, lose_gammon, lose_backgammon), the no double, double/take
    and double/pass equities (cubeful, normalised to the cube, from the side
    that may double), the proper action in GNU Backgammon's words ("Redouble,
    pass", "Too good to double, take", "No double, take (28.9%)", ...) and
    what each wrong action costs. A position where the side on roll may not
    double (Crawford game, a cube the other side owns or that already wins
    the match) is an error (exit 1); the other positions are still judged.
    """
    from tabla_cli.show import read_position

    judged: list[dict[str, Any]] = []
    failed = False
    for text in ids:
        try:
            given = read_position(text)
            data = _cube_data(given.position, given.state, level)
        except TablaError as exc:
            click.echo(f"tabla: {text.strip()}: {exc}", err=True)
            failed = True
            continue
        judged.append(data)
        if fmt == "text":
            click.echo("\n".join(_cube_text(data)) + ("\n" if len(ids) > 1 else ""))
    if fmt == "json" and judged:
        click.echo(json.dumps(judged if len(ids) > 1 else judged[0], indent=2))
    if failed:
        sys.exit(1)
