"""Compare two match models, as a converter's round trip must preserve them.

Plays are compared by the positions they lead to (``13/7* 13/9`` and
``13/9 13/7*`` are the same play), found by replaying both matches; every
other field is compared as read. Options leave out what a format cannot
carry, so a test states exactly what a format loses.

>>> from tabla_cli.model import Match
>>> match_differences(Match(("Ann", "Bob"), 5), Match(("Ann", "Bo"), 5))
["players: ('Ann', 'Bob') != ('Ann', 'Bo')"]
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from tabla_cli.board import Player, Position
from tabla_cli.model import Action, ActionKind, Game, Match
from tabla_cli.replay import Decision, replay
from tabla_cli.visitor import BaseVisitor, DecisionState, Wants

from helpers import replayed_decisions

__all__ = ["Carried", "match_differences"]

_RESULTS = frozenset({ActionKind.WIN, ActionKind.LOSS})
_CUBED = frozenset({ActionKind.DOUBLE, ActionKind.BEAVER, ActionKind.RACCOON})


@dataclass(frozen=True, slots=True)
class Carried:
    """What a comparison looks at; each field off = the format cannot carry it.

    Attributes:
        headers: header keys compared (case-insensitive); None = all headers,
            in order.
        comments: the match's comment lines.
        ratings: the players' ratings.
        rules: the fields of the rule set compared (names of
            :class:`~tabla_cli.model.RuleSet` fields); the variant is
            compared when any is.
        values: the cube value of doubles, beavers and raccoons (as the replay
            counts it: SGF writes none) and the points of results.
        skip_kinds: action kinds left out before the actions are paired.
        resigned: the ``????`` flag of rolls.
        game_numbers: the ``Game N`` numbers.
        start: set-up positions and cubes.
    """

    headers: Collection[str] | None = None
    comments: bool = True
    ratings: bool = True
    rules: Collection[str] = ("crawford", "jacoby", "beaver", "cube_limit", "cube")
    values: bool = True
    skip_kinds: frozenset[ActionKind] = frozenset()
    resigned: bool = True
    game_numbers: bool = True
    start: bool = True


EVERYTHING = Carried()


def _after(games: list[list[Decision]]) -> dict[int, Position | None]:
    """Position after each replayed roll, by ``id`` of its action (None: not resolved)."""
    out: dict[int, Position | None] = {}
    for game in games:
        for decision in game:
            play = decision.play
            out[id(decision.action)] = decision.position.apply(play) if play is not None else None
    return out


class _Cubes(BaseVisitor[dict[int, int]]):
    """The cube's value after each double, beaver and raccoon the replay follows, by ``id`` of its action."""

    wants = Wants.CUBE

    def __init__(self) -> None:
        self.values: dict[int, int] = {}

    def visit_cube(
        self, state: DecisionState, action: Action, cube_before: int, cube_after: int, owner: Player | None
    ) -> None:
        self.values[id(action)] = cube_after

    def result(self) -> dict[int, int]:
        return self.values


def _headers(match: Match, keys: Collection[str] | None) -> list[tuple[str, str]]:
    if keys is None:
        return list(match.headers)
    wanted = {k.casefold() for k in keys}
    return sorted((k.casefold(), v) for k, v in match.headers if k.casefold() in wanted)


def match_differences(expected: Match, actual: Match, carried: Carried = EVERYTHING) -> list[str]:
    """Where ``actual`` differs from ``expected`` in what ``carried`` names ([] = equal).

    Both matches are replayed (with every roll's decision) to compare plays by the
    positions they lead to.
    """
    out: list[str] = []

    def differ(what: str, a: object, b: object) -> None:
        if a != b:
            out.append(f"{what}: {a!r} != {b!r}")

    differ("players", expected.players, actual.players)
    differ("length", expected.length, actual.length)
    differ("headers", _headers(expected, carried.headers), _headers(actual, carried.headers))
    if carried.comments:
        differ("comments", expected.comments, actual.comments)
    if carried.ratings:
        differ("ratings", expected.ratings, actual.ratings)
    for name in carried.rules:
        differ(f"rules.{name}", getattr(expected.rules, name), getattr(actual.rules, name))
    if carried.rules:
        differ("variant", expected.variant, actual.variant)
    differ("games", len(expected.games), len(actual.games))
    after_a = _after(replayed_decisions(expected)[1])
    after_b = _after(replayed_decisions(actual)[1])
    cubes = (replay(expected, _Cubes()), replay(actual, _Cubes()))
    for index, (game_a, game_b) in enumerate(zip(expected.games, actual.games), start=1):
        _game(out, f"game {index}", game_a, game_b, carried, after_a, after_b, cubes)
    return out


def _game(
    out: list[str],
    where: str,
    a: Game,
    b: Game,
    carried: Carried,
    after_a: dict[int, Position | None],
    after_b: dict[int, Position | None],
    cubes: tuple[dict[int, int], dict[int, int]],
) -> None:
    def differ(what: str, x: object, y: object) -> None:
        if x != y:
            out.append(f"{where}: {what}: {x!r} != {y!r}")

    if carried.game_numbers:
        differ("number", a.number, b.number)
    differ("score", tuple(a.score), tuple(b.score))
    if carried.start:
        differ("start", a.start, b.start)
        differ("start cube", a.start_cube, b.start_cube)
    if carried.rules:
        differ("variant", a.variant, b.variant)
    actions_a = [x for x in _record(a) if x.kind not in carried.skip_kinds]
    actions_b = [x for x in _record(b) if x.kind not in carried.skip_kinds]
    differ("actions", len(actions_a), len(actions_b))
    for i, (x, y) in enumerate(zip(actions_a, actions_b), start=1):
        _action(out, f"{where} action {i} ({x.location})", x, y, carried, after_a, after_b, cubes)


def _record(game: Game) -> list[Action]:
    """The game's actions, with SGF's trailing roll (a roll without moves after the last move) after its last play."""
    if game.trailing_roll is None:
        return game.actions
    results = [a for a in game.actions if a.kind in _RESULTS]
    return [a for a in game.actions if a.kind not in _RESULTS] + [game.trailing_roll] + results


def _action(
    out: list[str],
    where: str,
    x: Action,
    y: Action,
    carried: Carried,
    after_a: dict[int, Position | None],
    after_b: dict[int, Position | None],
    cubes: tuple[dict[int, int], dict[int, int]],
) -> None:
    def differ(what: str, p: object, q: object) -> None:
        if p != q:
            out.append(f"{where}: {what}: {p!r} != {q!r}")

    differ("kind", x.kind, y.kind)
    differ("player", x.player, y.player)
    differ("dice", x.dice, y.dice)
    if carried.values and x.kind in _RESULTS:
        differ("value", x.value, y.value)
    if carried.values and x.kind in _CUBED:
        differ("cube", cubes[0].get(id(x)), cubes[1].get(id(y)))
    if carried.resigned:
        differ("resigned", x.resigned, y.resigned)
    if x.kind is ActionKind.ROLL and y.kind is ActionKind.ROLL:
        pa, pb = after_a.get(id(x)), after_b.get(id(y))
        if pa != pb:
            shown_a = pa.position_id() if pa is not None else None
            shown_b = pb.position_id() if pb is not None else None
            out.append(f"{where}: play {x.play_text!r} -> {shown_a} != {y.play_text!r} -> {shown_b}")
