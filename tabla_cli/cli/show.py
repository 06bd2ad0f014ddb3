"""``tabla show`` and ``tabla plays``: draw a position given as an ID, list or rank the plays of a roll.

Thin commands over :mod:`tabla_cli.show`, which reads and describes the
position and lists or ranks its plays.
"""

from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING

import click

from tabla_cli.cli.options import format_option, level_option, option_callback, reports_errors
from tabla_cli.errors import TablaError

if TYPE_CHECKING:
    from tabla_cli.show import PositionData, VariantData
    from tabla_cli.variant import Variant


def _find_variant(name: str) -> Variant:
    from tabla_cli.variant import find_variant

    return find_variant(name)


variant_option = click.option(
    "--variant",
    "variant",
    metavar="NAME",
    default=None,
    callback=option_callback(_find_variant),
    help="The game: backgammon (default), portes, nackgammon, hypergammon, tapa, plakoto, gulbara, "
    "fevga, long_nardy, long_tabla (English, Bulgarian or Greek names).",
)


_SHOW_SUFFIXES = {".svg": "svg", ".json": "json", ".txt": "text"}


@click.command("show", short_help="Draw positions given as IDs, with pips, cube, score by side and dice.")
@click.argument("ids", nargs=-1, required=True, metavar="POSITION...")
@variant_option
@format_option("text", "json", "svg", default="text")
@click.option(
    "-o",
    "--output",
    metavar="FILE",
    default=None,
    help="Write to FILE (format from its suffix .svg/.json/.txt unless --format).",
)
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
@reports_errors
def show(ids: tuple[str, ...], variant: Variant | None, fmt: str, output: str | None, force: bool) -> None:
    """Draw the positions given as POSITION...

    Each POSITION is a GNU Backgammon Position ID, 'POSITION:MATCH' ID, an
    XGID (with or without 'XGID='), an eXtreme Gammon position file (FILE.xgp),
    or 'start'. Prints the board, pip counts,
    cube, score, dice and all three IDs. With --variant for a game that gnubg
    cannot encode (tapa, plakoto, gulbara, fevga, long_nardy, long_tabla),
    POSITION is our position text ('24:14 18:1 / 24:15', see docs/variants.md) or
    'start'. --format svg draws one position as an SVG diagram.
    """
    from tabla_cli.output import refuse_existing, write_atomic
    from tabla_cli.show import describe, position_svg, read_position
    from tabla_cli.writers import format_for_suffix

    target = None if output in (None, "-") else output
    source = click.get_current_context().get_parameter_source("fmt")
    if target is not None and source is click.core.ParameterSource.DEFAULT:
        implied = format_for_suffix(target, _SHOW_SUFFIXES)
        if implied is None:
            raise click.UsageError(f"cannot tell the format of {target!r} from its suffix: give --format")
        fmt = implied
    if fmt == "svg" and len(ids) > 1:
        raise click.UsageError("--format svg draws one position: give one POSITION at a time")
    if fmt == "svg" and variant is not None and not variant.has_gnubg_ids:
        raise click.UsageError(f"--format svg draws standard-board positions, not {variant.name}")
    if target is not None:
        refuse_existing([target], force)
    shown: list[PositionData | VariantData] = []
    parts: list[str] = []
    emit = functools.partial(click.echo, nl=False) if target is None else parts.append
    for text in ids:
        given = read_position(text, variant)
        if fmt == "json":
            shown.append(describe(given).data)
        elif fmt == "svg":
            emit(position_svg(given))
        else:
            emit("\n".join(describe(given).lines) + "\n")
    if fmt == "json":
        emit(json.dumps(shown if len(shown) > 1 else shown[0], indent=2) + "\n")
    if target is not None:
        try:
            write_atomic(target, "".join(parts), force=force)
        except OSError as exc:
            raise click.ClickException(f"{target}: cannot write: {exc.strerror or exc}") from exc


@click.command("plays", short_help="List the legal plays for a roll, or rank them by equity (--level).")
@click.argument("position_id", metavar="POSITION")
@click.argument("dice", nargs=-1, required=True)
@variant_option
@format_option("text", "json", default="text")
@level_option(
    help="Rank the plays with the bgsage engine at this depth (--level alone: auto, which ranks at 3ply, "
    "as tabla cube judges).",
    default=None,
    is_flag=False,
    flag_value="auto",
)
@reports_errors
def plays(position_id: str, dice: tuple[str, ...], variant: Variant | None, fmt: str, level: str | None) -> None:
    """List every legal play for DICE in POSITION (the side on roll moves).

    POSITION is a Position ID (or any ID or .xgp file 'tabla show' reads) or 'start'; with
    --variant for a game gnubg cannot encode, our position text or 'start'.
    DICE is written 64, 6-4 or 6 4. Plays are printed one per line in GNU
    Backgammon's notation and order (by the highest point moved from, then
    the next); --format json adds the Position ID (or, for those variants,
    the position text) after each play (seen from the side that moved) and
    the pip counts. With --level the plays are ranked by cubeful equity
    (normalised, from the side that moves), best first, with each play's
    loss against the best and, under it, the cubeless chances of the side
    that played, after the play (win, gammon, backgammon for it, then for
    the other side; in JSON win, win_gammon, win_backgammon, lose_gammon,
    lose_backgammon), as GNU Backgammon's hint shows them.
    """
    from tabla_cli.cli.cube import chances_line
    from tabla_cli.errors import InvalidDiceError
    from tabla_cli.notation import parse_dice
    from tabla_cli.show import RANKED_VARIANTS, check_playable, legal_play_rows, ranked_play_rows, read_position

    given = read_position(position_id, variant)
    check_playable(given, position_id)
    try:
        roll = parse_dice(" ".join(dice))
    except TablaError as exc:
        raise InvalidDiceError(str(exc)) from exc
    if level is not None:
        if given.variant.name not in RANKED_VARIANTS:
            raise click.UsageError(f"--level ranks backgammon and nackgammon plays, not {given.variant.name}")
        ranked = ranked_play_rows(given, roll, level)
        if fmt == "json":
            click.echo(json.dumps(ranked, indent=2))
            return
        width = max(len(row["play"]) for row in ranked)
        for row in ranked:
            loss = f" ({-row['loss']:+.3f})" if row["rank"] > 1 else ""
            click.echo(
                f"{row['rank']:>4}. {row['level']:<4}  {row['play'] or '(no legal play)':<{width}}  "
                f"Eq.: {row['equity']:+.3f}{loss}"
            )
            click.echo(f"{'':>6}{chances_line(row)}")
        return
    legal = legal_play_rows(given, roll)
    if fmt == "json":
        click.echo(json.dumps(legal, indent=2))
    else:
        for play in legal:
            click.echo(play["play"] or "(no legal play)")
