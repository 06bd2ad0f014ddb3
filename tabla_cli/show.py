"""What ``tabla show`` and ``tabla plays`` compute: a position read from text, described, and its plays.

A position is given as ``start``, a GNU Backgammon Position ID, ``POS:MATCH``
IDs, an XGID or an OGID (OGXM's position ID); for a variant gnubg cannot encode (tapa, plakoto, gulbara,
fevga, long nardy, long tabla), as our position text. :func:`read_position`
reads it; :func:`describe` gives the data ``show --format json`` prints and
the lines of its board; :func:`legal_play_rows` and :func:`ranked_play_rows`
the plays of a roll.

>>> given = read_position("start")
>>> [row["play"] for row in legal_play_rows(given, (2, 1))][:3]
['24/23 24/22', '24/23 13/11', '24/23 8/6']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from tabla_cli.board import BAR, CHECKERS, OFF, Dice, Player, Position
from tabla_cli.errors import InvalidIdError, TablaError
from tabla_cli.ids import MatchState, encode_match_id, format_xgid
from tabla_cli.ids.ogid import format_ogid, looks_like_ogid, parse_ogid
from tabla_cli.match_state import away
from tabla_cli.pasted import parse_ids
from tabla_cli.render import gnubg_board, gnubg_legend
from tabla_cli.variant import Backgammon, Variant
from tabla_cli.variants.common import NO_IDS, VariantPosition
from tabla_cli.variants.position_text import board_lines

if TYPE_CHECKING:
    from tabla_cli.analysis.rollout import Job as RolloutJob
    from tabla_cli.evaluation.types import DecisionInput, DecisionKind

__all__ = [
    "RANKED_VARIANTS",
    "GivenPosition",
    "PlayRow",
    "PositionData",
    "RankedPlayRow",
    "Shown",
    "VariantData",
    "check_playable",
    "describe",
    "legal_play_rows",
    "position_svg",
    "ranked_play_rows",
    "read_position",
]

RANKED_VARIANTS = ("backgammon", "nackgammon")
"""The games whose plays the engine ranks."""

_ID_LIKE = re.compile(
    r"(?:XGID=.*|[A-Za-z0-9+/]{14}(?::[A-Za-z0-9+/]{12})?|[-a-pA-P]{26}:.*|[0-9a-p]{0,15}:[0-9a-p]{0,15}:[NWB].*)",
    re.IGNORECASE,
)


class SideData(TypedDict):
    """One side of a standard position: checkers per point (from its own side), on the bar, off, pips."""

    points: dict[str, int]
    bar: int
    off: int
    pips: int


class PositionData(TypedDict):
    """A standard position with its match state, as ``tabla show --format json`` prints it."""

    position_id: str
    match_id: str
    xgid: str | None
    ogid: str | None
    on_roll: SideData
    opponent: SideData
    player_on_roll: int
    turn: int
    cube: int
    cube_owner: int | None
    dice: list[int] | None
    length: int
    score: list[int]
    crawford: bool
    doubled: bool


class VariantSideData(TypedDict):
    """One side of a variant's position; ``pinned``: its checkers held under the opponent's (Tapa, Plakoto)."""

    points: dict[str, int]
    off: int
    pips: int
    pinned: NotRequired[list[int]]


class VariantData(TypedDict):
    """A variant's position, as ``tabla show --format json`` prints it; ``rolls`` and ``owed``: Gulbara's."""

    variant: str
    position: str
    on_roll: VariantSideData
    opponent: VariantSideData
    rolls: NotRequired[list[int]]
    owed: NotRequired[list[int]]


class PlayRow(TypedDict):
    """A legal play and the position after it: its Position ID, or (variants) its position text."""

    play: str
    position_id: NotRequired[str]
    position: NotRequired[str]
    pips: list[int]
    dice_used: int


class RankedPlayRow(TypedDict):
    """A legal play ranked by the engine: equity (cubeful, normalised) and loss against the best."""

    rank: int
    play: str
    equity: float
    loss: float
    level: str
    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float
    position_id: str
    pips: list[int]
    dice_used: int


@dataclass(frozen=True, slots=True)
class GivenPosition:
    """A position read from text.

    Attributes:
        variant: the game.
        position: the checkers, the side on roll first.
        state: cube, score and dice; None for a variant whose positions
            gnubg's IDs cannot encode (then ``position`` is its
            :class:`~tabla_cli.variants.common.VariantPosition`).
    """

    variant: Variant
    position: Position
    state: MatchState | None


@dataclass(frozen=True, slots=True)
class Shown:
    """What ``tabla show`` prints of a position: the data (``--format json``) and the board's lines."""

    data: PositionData | VariantData
    lines: list[str]


def read_position(text: str, variant: Variant | None = None) -> GivenPosition:
    """The position ``text`` names: ``start``, an ID, or (variants without IDs) our position text.

    Raises:
        InvalidIdError: the text cannot be read, or names a position no game
            of the variant can reach (the message quotes the text).
    """
    game = variant or Backgammon
    if text.strip().casefold().endswith(POSITION_FILE_SUFFIX) and game.has_gnubg_ids:
        return _position_file(text.strip(), game)
    if text.strip().casefold() == "start":
        return GivenPosition(game, game.start_position(), MatchState() if game.has_gnubg_ids else None)
    state: MatchState | None
    position_class = game.position_class
    if game.has_gnubg_ids and game.checkers == CHECKERS and looks_like_ogid(text):
        position, state, _ = parse_ogid(text)
    elif game.has_gnubg_ids or not issubclass(position_class, VariantPosition):
        position, state = parse_ids(text, checkers=game.checkers)
        state = state or MatchState()
    else:
        if _ID_LIKE.fullmatch(text.strip()):
            raise InvalidIdError(
                f"{NO_IDS}, not for {game.name}: write a {game.name} position as text, "
                f"e.g. '24:14 18:1 / 24:15' (see docs/variants.md), or 'start'"
            )
        position, state = position_class.from_text(text), None
    problem = game.position_problem(position)
    if problem:
        raise InvalidIdError(f"{text.strip()!r} is not a position any game of {game.name} can reach: {problem}")
    return GivenPosition(game, position, state)


POSITION_FILE_SUFFIX = ".xgp"
"""A POSITION ending so names an eXtreme Gammon position file."""


def _position_file(path: str, game: Variant) -> GivenPosition:
    """The position an eXtreme Gammon position file (``.xgp``) was saved at."""
    from tabla_cli.files import MAX_SIZE
    from tabla_cli.formats.xg_position import read_position_file

    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_SIZE + 1)
    except OSError as exc:
        raise InvalidIdError(f"{path}: cannot be read: {exc.strerror or exc}") from exc
    if len(data) > MAX_SIZE:
        raise InvalidIdError(f"{path}: larger than {MAX_SIZE} bytes, the size limit")
    try:
        found = read_position_file(data, path=path, max_size=MAX_SIZE)
    except TablaError as exc:
        raise InvalidIdError(f"{path}: {exc}") from exc
    problem = game.position_problem(found.position)
    if problem:
        raise InvalidIdError(f"{path}: not a position any game of {game.name} can reach: {problem}")
    return GivenPosition(game, found.position, found.state)


def describe(given: GivenPosition) -> Shown:
    """The data and the board of ``given`` (gnubg's board for a standard position, ours for a variant's)."""
    if given.state is None:
        if not isinstance(given.position, VariantPosition):
            raise TypeError(f"{given.variant.name}: a position with no match state must be a variant's")
        variant = _variant_data(given.variant, given.position)
        return Shown(variant, _variant_lines(variant, given.position))
    data = _position_data(given.position, given.state)
    return Shown(data, _position_lines(data, given.position, given.state))


def _variant_side(counts: tuple[int, ...], pins: int) -> VariantSideData:
    side: VariantSideData = {
        "points": {str(p): counts[p] for p in range(24, 0, -1) if counts[p]},
        "off": counts[OFF],
        "pips": sum(i * n for i, n in enumerate(counts)),
    }
    if pins:
        side["pinned"] = [p for p in range(24, 0, -1) if (pins >> p) & 1]
    return side


def _variant_data(variant: Variant, position: VariantPosition) -> VariantData:
    fields = position.text_fields()
    data: VariantData = {
        "variant": variant.name,
        "position": position.text(),
        "on_roll": _variant_side(position.mover, fields.mover_pins),
        "opponent": _variant_side(position.opponent, fields.opponent_pins),
    }
    if fields.rolls is not None:
        data["rolls"] = list(fields.rolls)
        data["owed"] = list(fields.mover_owed)
    return data


def _variant_lines(data: VariantData, position: VariantPosition) -> list[str]:
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


def _side(counts: tuple[int, ...]) -> SideData:
    return {
        "points": {str(p): counts[p] for p in range(1, 25) if counts[p]},
        "bar": counts[BAR],
        "off": counts[OFF],
        "pips": sum(i * n for i, n in enumerate(counts)),
    }


def _position_data(position: Position, state: MatchState) -> PositionData:
    try:
        xgid: str | None = format_xgid(position, state)
    except TablaError:
        xgid = None
    try:
        ogid: str | None = format_ogid(position, state) if sum(position.mover) == CHECKERS else None
    except TablaError:
        ogid = None
    return {
        "position_id": position.position_id(),
        "match_id": encode_match_id(state),
        "xgid": xgid,
        "ogid": ogid,
        "on_roll": _side(position.mover),
        "opponent": _side(position.opponent),
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


def _position_lines(data: PositionData, position: Position, state: MatchState) -> list[str]:
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
        f"OGID: {data['ogid']}" if data["ogid"] else "OGID: (not expressible)",
        *gnubg_board(position, Player(data["player_on_roll"]), gnubg_legend(state, over=over)),
        f"Pip counts: O {by_side['O']['pips']}, X {by_side['X']['pips']}",
        f"Borne off: O {by_side['O']['off']}, X {by_side['X']['off']}",
        f"{score}   Cube: {data['cube']}, {owner}   On roll: {roller}, dice {dice}",
    ]
    if data["doubled"]:
        lines.append("A double is offered and not yet answered.")
    return lines


def position_svg(given: GivenPosition) -> str:
    """``given`` drawn as an SVG diagram (standard-board positions only).

    Raises:
        InvalidIdError: the position is a variant's that gnubg's IDs cannot encode.
    """
    from tabla_cli.svg import board_svg

    state = given.state
    if state is None:
        raise InvalidIdError(f"an SVG diagram draws standard-board positions, not {given.variant.name}")
    return board_svg(
        given.position,
        on_roll=state.dice_owner,
        dice=state.dice,
        cube=state.cube,
        cube_owner=state.cube_owner,
        score=state.score if state.length else None,
        length=state.length,
        crawford=state.crawford,
    )


def check_playable(given: GivenPosition, text: str) -> None:
    """Raise unless a side of ``given`` still has checkers to play.

    Raises:
        InvalidIdError: a side has borne off all its checkers (``text``, the
            position as given, is quoted in the message).
    """
    if given.variant.checkers in (given.position.mover[OFF], given.position.opponent[OFF]):
        raise InvalidIdError(
            f"{text.strip()!r}: the game is over (a side has borne off all its checkers), there is nothing to play"
        )


def _play_order(game: Variant, text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """gnubg's order of a play: the points moved from, highest first, then the points reached."""
    if not text:
        return (), ()
    moves = sorted(((src, dst) for src, dst, _ in game.parse_play(text)), reverse=True)
    return tuple(src for src, _ in moves), tuple(dst for _, dst in moves)


def legal_play_rows(given: GivenPosition, roll: Dice) -> list[PlayRow]:
    """Every legal play of ``roll`` in gnubg's notation and order, with the position after it."""
    game, position = given.variant, given.position
    rows: list[PlayRow] = []
    for after, play in game.legal_plays(position, roll).items():
        text = game.format_play(position, play)
        if given.state is None and isinstance(after, VariantPosition):
            rows.append({"play": text, "position": after.text(), "pips": list(after.pips()), "dice_used": len(play)})
        else:
            rows.append(
                {"play": text, "position_id": after.position_id(), "pips": list(after.pips()), "dice_used": len(play)}
            )
    rows.sort(key=lambda row: _play_order(game, row["play"]), reverse=True)
    return rows


def decision_input(kind: DecisionKind, position: Position, state: MatchState, **more: Any) -> DecisionInput:
    """The engine's question about ``position`` with the cube, score and rules of ``state`` (the side
    on roll decides); ``more``: the dice and variant of a checker play."""
    from tabla_cli.evaluation.types import DecisionInput

    length, score = state.length, state.score
    return DecisionInput(
        kind,
        position,
        state.dice_owner,
        state.dice_owner,
        state.cube,
        state.cube_owner,
        (away(length, score, 0), away(length, score, 1)),
        crawford=state.crawford,
        jacoby=state.jacoby and not length,
        beavers=state.beaver and not length,
        **more,
    )


def ranked_play_rows(given: GivenPosition, roll: Dice, level: str) -> list[RankedPlayRow]:
    """The legal plays of ``roll`` ranked by the bgsage engine at ``level``, best first, with equity and loss.

    Raises:
        ValueError: ``given`` is not a game of :data:`RANKED_VARIANTS`.
    """
    from tabla_cli.analysis.engine import rank_plays
    from tabla_cli.evaluation.types import DecisionKind

    game, position, state = given.variant, given.position, given.state
    if state is None or game.name not in RANKED_VARIANTS:
        raise ValueError(f"the engine ranks {' and '.join(RANKED_VARIANTS)} plays, not {game.name}")
    decision = decision_input(DecisionKind.CHECKER, position, state, dice=roll, variant=game.name)
    ranked = rank_plays(decision, level)
    best = ranked[0].equity
    return [
        {
            "rank": rank,
            "play": r.text,
            "equity": round(r.equity, 6),
            "loss": round(best - r.equity, 6),
            "level": r.level,
            "win": round(r.chances[0], 6),
            "win_gammon": round(r.chances[1], 6),
            "win_backgammon": round(r.chances[2], 6),
            "lose_gammon": round(r.chances[3], 6),
            "lose_backgammon": round(r.chances[4], 6),
            "position_id": r.position.position_id(),
            "pips": list(r.position.pips()),
            "dice_used": len(r.play),
        }
        for rank, r in enumerate(ranked, 1)
    ]


def rollout_question(text: str, dice: Dice | None = None, *, cubeless: bool = False, candidates: int = 5) -> RolloutJob:
    """The rollout question (:func:`tabla_cli.analysis.rollout.prepare`) of the position ``text``.

    With ``dice`` (or, without them, dice in the ID) the checker play; else
    the cube decision before the roll, or with ``cubeless`` the cubeless
    equity before the roll.

    Raises:
        TablaError: the text cannot be read, the game is over, or
            :func:`~tabla_cli.analysis.rollout.prepare` refuses it.
    """
    from tabla_cli.analysis.rollout import prepare
    from tabla_cli.evaluation.types import DecisionKind

    given = read_position(text)
    check_playable(given, text)
    position, state = given.position, given.state
    if state is None:
        raise InvalidIdError(f"the engine rolls out backgammon and nackgammon, not {given.variant.name}")
    if dice is None and state.dice is not None and not cubeless:
        dice = (max(state.dice), min(state.dice))
    if dice is not None and not cubeless:
        decision = decision_input(DecisionKind.CHECKER, position, state, dice=dice, variant=given.variant.name)
    else:
        decision = decision_input(DecisionKind.DOUBLE, position, state, variant=given.variant.name)
    return prepare(text, decision, encode_match_id(state), cubeless=cubeless, candidates=candidates)
