"""``tabla show`` and ``tabla plays``: draw a position given as an ID, list or rank the plays of a roll."""

from __future__ import annotations

import functools
import json
import re
from typing import Any

import click

from tabla_cli.cli.options import format_option, option_callback, reports_errors
from tabla_cli.errors import TablaError


def _find_variant(name: str) -> Any:
    from tabla_cli.variant import find_variant

    return find_variant(name)


variant_option = click.option(
    "--variant", "variant", metavar="NAME", default=None, callback=option_callback(_find_variant),
    help="The game: backgammon (default), portes, nackgammon, hypergammon, tapa, plakoto, gulbara, "
         "fevga, long_nardy, long_tabla (English, Bulgarian or Greek names).",
)

_ID_LIKE = re.compile(r"(?:XGID=.*|[A-Za-z0-9+/]{14}(?::[A-Za-z0-9+/]{12})?|[-a-pA-P]{26}:.*)", re.IGNORECASE)


def _read_position(variant: Any, text: str) -> tuple[Any, Any]:
    """``(position, match state)`` for POSITION: ``start``, an ID, or (variants) our position text.

    Raises:
        InvalidIdError: the text cannot be read, or names a position no game
            of the variant can reach (the message quotes the text).
    """
    from tabla_cli.errors import InvalidIdError
    from tabla_cli.ids import MatchState, parse_ids
    from tabla_cli.variant import Backgammon

    game: Any = variant or Backgammon
    if text.strip().casefold() == "start":
        return game.start_position(), MatchState() if game.has_gnubg_ids else None
    if game.has_gnubg_ids:
        position, state = parse_ids(text, checkers=game.checkers)
        state = state or MatchState()
    else:
        from tabla_cli.variants.common import NO_IDS

        if _ID_LIKE.fullmatch(text.strip()):
            raise InvalidIdError(f"{NO_IDS}, not for {game.name}: write a {game.name} position as text, "
                                 f"e.g. '24:14 18:1 / 24:15' (see docs/variants.md), or 'start'")
        position, state = game.position_class.from_text(text), None
    problem = game.position_problem(position)
    if problem:
        raise InvalidIdError(f"{text.strip()!r} is not a position any game of {game.name} can reach: {problem}")
    return position, state


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


def _show_text(data: dict[str, Any], position: Any, state: Any) -> list[str]:
    from tabla_cli.board import Player
    from tabla_cli.render import gnubg_board, gnubg_legend

    over = sum(position.mover) in (data["on_roll"]["off"], data["opponent"]["off"])
    by_side = {"O": data["on_roll"], "X": data["opponent"]}
    roller = "X" if data["player_on_roll"] == 1 else "O"
    if roller == "X":
        by_side = {"O": data["opponent"], "X": data["on_roll"]}
    owner = {None: "centred", 0: "owned by O", 1: "owned by X"}[data["cube_owner"]]
    score = f"Score: O {data['score'][0]}, X {data['score'][1]}"
    if data["length"]:
        score += f" in a {data['length']}-point match" + (" (Crawford game)" if data["crawford"] else "")
    else:
        score = "Score: money game"
    dice = "-".join(map(str, data["dice"])) if data["dice"] else "not rolled"
    lines = [
        f"Position ID: {data['position_id']}   Match ID: {data['match_id']}",
        data["xgid"] or "XGID: (not expressible)",
        *gnubg_board(position, Player(data["player_on_roll"]), gnubg_legend(state, over=over)),
        f"Pip counts: O {by_side['O']['pips']}, X {by_side['X']['pips']}",
        f"Borne off: O {by_side['O']['off']}, X {by_side['X']['off']}",
        f"{score}   Cube: {data['cube']}, {owner}   On roll: {roller}, dice {dice}",
    ]
    if data["doubled"]:
        lines.append("A double is offered and not yet answered.")
    return lines


_SHOW_SUFFIXES = {".svg": "svg", ".json": "json", ".txt": "text"}


@click.command("show", short_help="Draw positions given as IDs, with pips, cube, score by side and dice.")
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
    POSITION is our position text ('24:14 18:1 / 24:15', see docs/variants.md) or
    'start'. --format svg draws one position as an SVG diagram.
    """
    from tabla_cli.output import refuse_existing, write_atomic
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
            lines = _show_text(data, position, state)
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


def _play_order(game: Any, text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """gnubg's order of a play: the points moved from, highest first, then the points reached."""
    if not text:
        return (), ()
    moves = sorted(((src, dst) for src, dst, _ in game.parse_play(text)), reverse=True)
    return tuple(src for src, _ in moves), tuple(dst for _, dst in moves)


def _ranked(game: Any, position: Any, state: Any, roll: Any, level: str) -> list[dict[str, Any]]:
    """The legal plays ranked by the engine at ``level``, best first, with equity and loss."""
    from tabla_cli.analysis.engine import rank_plays
    from tabla_cli.evaluation.types import DecisionInput, DecisionKind

    if game.name not in ("backgammon", "nackgammon"):
        raise click.UsageError(f"--level ranks backgammon and nackgammon plays, not {game.name}")
    length, score = state.length, state.score
    decision = DecisionInput(
        DecisionKind.CHECKER, position, state.dice_owner, state.dice_owner, state.cube, state.cube_owner,
        (length - score[0], length - score[1]) if length else (0, 0), crawford=state.crawford,
        jacoby=state.jacoby and not length, beavers=state.beaver, dice=roll, variant=game.name,
    )
    ranked = rank_plays(decision, level)
    best = ranked[0].equity
    return [
        {"rank": rank, "play": r.text, "equity": round(r.equity, 6), "loss": round(best - r.equity, 6),
         "level": r.level, "position_id": r.position.position_id(), "pips": list(r.position.pips()),
         "dice_used": len(r.play)}
        for rank, r in enumerate(ranked, 1)
    ]


@click.command("plays", short_help="List the legal plays for a roll, or rank them by equity (--level).")
@click.argument("position_id", metavar="POSITION")
@click.argument("dice", nargs=-1, required=True)
@variant_option
@format_option("text", "json", default="text")
@click.option("--level", type=click.Choice(["1ply", "2ply", "3ply"]), default=None,
              help="Rank the plays with the bgsage engine at this depth (1ply = gnubg's 0-ply).")
@reports_errors
def plays(position_id: str, dice: tuple[str, ...], variant: Any, fmt: str, level: str | None) -> None:
    """List every legal play for DICE in POSITION (the side on roll moves).

    POSITION is a Position ID (or any ID 'tabla show' reads) or 'start'; with
    --variant for a game gnubg cannot encode, our position text or 'start'.
    DICE is written 64, 6-4 or 6 4. Plays are printed one per line in GNU
    Backgammon's notation and order (by the highest point moved from, then
    the next); --format json adds the Position ID (or, for those variants,
    the position text) after each play (seen from the side that moved) and
    the pip counts. With --level the plays are ranked by cubeful equity
    (normalised, from the side that moves), best first, with each play's
    loss against the best, as GNU Backgammon's hint shows them.
    """
    from tabla_cli.board import OFF
    from tabla_cli.errors import InvalidDiceError, InvalidIdError
    from tabla_cli.notation import parse_dice
    from tabla_cli.variant import Backgammon

    game: Any = variant or Backgammon
    position, state = _read_position(variant, position_id)
    if game.checkers in (position.mover[OFF], position.opponent[OFF]):
        raise InvalidIdError(f"{position_id.strip()!r}: the game is over (a side has borne off all its "
                             f"checkers), there is nothing to play")
    try:
        roll = parse_dice(" ".join(dice))
    except TablaError as exc:
        raise InvalidDiceError(str(exc)) from exc
    if level is not None:
        rows = _ranked(game, position, state, roll, level)
        if fmt == "json":
            click.echo(json.dumps(rows, indent=2))
            return
        width = max(len(row["play"]) for row in rows)
        for row in rows:
            loss = f" ({-row['loss']:+.3f})" if row["rank"] > 1 else ""
            click.echo(f"{row['rank']:>4}. {row['level']:<4}  {row['play'] or '(no legal play)':<{width}}  "
                       f"Eq.: {row['equity']:+.3f}{loss}")
        return
    key = "position_id" if state is not None else "position"
    rows = [
        {
            "play": game.format_play(position, play),
            key: after.position_id() if state is not None else after.text(),
            "pips": list(after.pips()),
            "dice_used": len(play),
        }
        for after, play in game.legal_plays(position, roll).items()
    ]
    rows.sort(key=lambda row: _play_order(game, row["play"]), reverse=True)
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2))
    else:
        for row in rows:
            click.echo(row["play"] or "(no legal play)")
