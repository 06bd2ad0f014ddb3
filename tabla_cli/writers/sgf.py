"""Write a match as GNU Backgammon writes SGF (``FF[4] GM[6]``).

One game tree per game: a root node with the match information, an optional
set-up node for a game that starts from another position, then one node per
action (``W[31hefe]``, ``B[double]``, ``W[take]``, ``B[drop]``). Plays are
written one letter pair per die in a legal playing order, from the replay of
the match (:func:`~tabla_cli.writers.rolls.replay_rolls`).

What SGF cannot carry (see docs/formats.md, "What each format carries"): headers other than date,
event, round, place and transcriber; free comment lines other than the match
comment; ``????`` (written as a roll without moves); ``Losses`` lines;
``Resigns`` actions (a resignation is only the ``R`` of ``RE``); ``and the
match``; the printed move numbers; the cube value written on a ``Doubles``
line (SGF's double has none: the replay's cube gives it). Recorded analysis
(eXtreme Gammon's, gnubg's) is written as gnubg's ``A``, ``LU`` and ``DA``
properties (:mod:`tabla_cli.writers.sgf_analysis`).

Example:
    >>> from tabla_cli.formats.sgf import parse_matches
    >>> text = '''(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[Petar]PB[Maria]RU[Crawford]RE[W+1]
    ... ;W[31hefe];B[62agln];W[double];B[drop])'''
    >>> match = next(parse_matches(text))
    >>> print(format_sgf(match, application="tabla:test"), end="")
    (;FF[4]GM[6]CA[UTF-8]AP[tabla:test]MI[length:3][game:0][ws:0][bs:0]PW[Petar]PB[Maria]RU[Crawford]RE[W+1]
    ;W[31hefe]
    ;B[62agln]
    ;W[double]
    ;B[drop])
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TextIO

from tabla_cli import __version__
from tabla_cli.board import BAR, Player, Position, Step
from tabla_cli.errors import InvalidPlayError
from tabla_cli.formats.sgf import point_letter
from tabla_cli.model import Action, ActionKind, Game, Match
from tabla_cli.notation import parse_play
from tabla_cli.replay import Decision, GameResult, MatchResult
from tabla_cli.variant import find_variant
from tabla_cli.writers.rolls import GameRolls, replay_rolls
from tabla_cli.writers.sgf_analysis import cube_property, move_properties

__all__ = ["APPLICATION", "format_sgf", "format_sgfs", "write_sgf"]

APPLICATION = f"tabla:{__version__}"
"""Written in ``AP[...]``."""

_WHITE, _BLACK = Player.ZERO, Player.ONE
_COLOUR = {_WHITE: "W", _BLACK: "B"}
_HEADERS = {"site": "PC", "event": "EV", "round": "RO", "transcriber": "AN", "annotator": "AN"}
_HEADER_ORDER = ("DT", "EV", "RO", "PC", "AN")
_DATE = re.compile(r"\s*([0-9]{4})[-./]([0-9]{1,2})[-./]([0-9]{1,2})\s*")
_VARIANT_WORDS = {
    "nackgammon": "Nackgammon",
    "hypergammon": "Hypergammon3",
    "hypergammon2": "Hypergammon2",
    "hypergammon1": "Hypergammon1",
}
_CUBE_WORDS = {ActionKind.DOUBLE: "double", ActionKind.TAKE: "take", ActionKind.DROP: "drop"}


def write_sgf(
    match: Match,
    handle: TextIO,
    *,
    replayed: MatchResult | None = None,
    rolls: list[GameRolls] | None = None,
    application: str = APPLICATION,
) -> None:
    """Write ``match`` to ``handle`` as a GNU Backgammon SGF file.

    Args:
        match: the match to write.
        handle: a text stream (UTF-8 is what ``CA[UTF-8]`` says).
        replayed: the match's replay, with ``rolls``, if already done
            (:func:`~tabla_cli.writers.rolls.replay_rolls`).
        rolls: its games' rolls from that replay.
        application: the ``AP`` value.

    Raises:
        InvalidPlayError: a play that the replay could not resolve cannot
            even be read (it cannot be written as letter pairs).
    """
    handle.write(format_sgf(match, replayed=replayed, rolls=rolls, application=application))


def format_sgfs(
    matches: Iterable[tuple[Match, MatchResult | None]],
    *,
    rolls: Sequence[list[GameRolls] | None] | None = None,
    application: str = APPLICATION,
) -> str:
    """Several matches, one SGF game tree after another (gnubg reads them back one by one).

    ``rolls``: each match's games' rolls, from the replay that gave its result.
    """
    return "".join(
        format_sgf(m, replayed=r, rolls=None if rolls is None else rolls[i], application=application)
        for i, (m, r) in enumerate(matches)
    )


def format_sgf(
    match: Match,
    *,
    replayed: MatchResult | None = None,
    rolls: list[GameRolls] | None = None,
    application: str = APPLICATION,
) -> str:
    """The SGF text of ``match``; see :func:`write_sgf`."""
    if replayed is None or rolls is None:
        replayed, rolls = replay_rolls(match)
    results = replayed.games
    parts: list[str] = []
    for index, game in enumerate(match.games):
        result = results[index] if index < len(results) else None
        parts.append(_game(match, game, index, result, rolls[index] if index < len(rolls) else [], application))
    return "".join(parts)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def _simple(value: str) -> str:
    """A one-line text value."""
    return _escape(" ".join(value.split()))


def _root(match: Match, game: Game, index: int, result: GameResult | None, application: str) -> str:
    length = match.length
    score = game.score
    props = [
        "FF[4]GM[6]CA[UTF-8]",
        f"AP[{_escape(application)}]",
        f"MI[length:{length}][game:{max(0, game.number - 1)}][ws:{score[0]}][bs:{score[1]}]",
        f"PW[{_simple(match.players[0])}]PB[{_simple(match.players[1])}]",
    ]
    if index == 0:
        for tag, rating in (("WR", match.ratings[0]), ("BR", match.ratings[1])):
            if rating:
                props.append(f"{tag}[{_simple(rating)}]")
        props.extend(_header_props(match.headers))
        if match.comments:
            props.append(f"GC[{_escape(chr(10).join(match.comments))}]")
    rules = []
    if length and match.rules.crawford:
        rules.append("Crawford")
        if result is not None and result.crawford:
            rules.append("CrawfordGame")
    if match.rules.jacoby:
        rules.append("Jacoby")
    if not match.rules.cube:
        rules.append("NoCube")
    variant = game.variant if game.variant is not None else match.variant
    word = _VARIANT_WORDS.get(find_variant(variant).name)
    if word:
        rules.append(word)
    if rules:
        props.append(f"RU[{':'.join(rules)}]")
    won = _result(game, result)
    if won:
        props.append(f"RE[{won}]")
    return "(;" + "".join(props)


def _header_props(headers: Iterable[tuple[str, str]]) -> list[str]:
    found: dict[str, str] = {}
    for key, value in headers:
        name = key.casefold().replace(" ", "")
        if name == "eventdate":
            date = _DATE.fullmatch(value)
            if date is not None and "DT" not in found:
                found["DT"] = f"{date.group(1)}-{int(date.group(2)):02d}-{int(date.group(3)):02d}"
        elif name in _HEADERS and _HEADERS[name] not in found and value.strip():
            found[_HEADERS[name]] = _simple(value)
    return [f"{tag}[{found[tag]}]" for tag in _HEADER_ORDER if tag in found]


def _result(game: Game, result: GameResult | None) -> str:
    for action in game.actions:
        if action.kind is ActionKind.WIN:
            points = action.value if action.value is not None else ""
            resigned = result is not None and result.ended_by in ("resign", "forfeit")
            return f"{_COLOUR[action.player]}+{points}{'R' if resigned else ''}"
    return ""


def _setup(game: Game, match: Match) -> str:
    """The set-up node: the start position (if any) and the cube (value and owner)."""
    first = next((a.player for a in game.actions if a.kind is not ActionKind.WIN), _WHITE)
    node = f"\n;PL[{_COLOUR[first]}]"
    if game.start is not None:
        start: Position = game.start
        white = "".join(f"[{point_letter(p, _WHITE)}]" * start.mover[p] for p in range(BAR, 0, -1))
        black = "".join(f"[{point_letter(p, _BLACK)}]" * start.opponent[p] for p in range(BAR, 0, -1))
        node += "AE[a:y]"
        if white:
            node += f"AW{white}"
        if black:
            node += f"AB{black}"
    if game.start_cube is not None:
        value, owner = game.start_cube
        node += f"CV[{value}]CP[{'c' if owner is None else _COLOUR[owner].lower()}]"
    return node


def _game(match: Match, game: Game, index: int, result: GameResult | None, rolls: GameRolls, application: str) -> str:
    out = [_root(match, game, index, result, application)]
    if game.start is not None or (game.start_cube is not None and game.start_cube[1] is not None):
        out.append(_setup(game, match))
    elif game.start_cube is not None and game.start_cube[0] > 1:
        out[0] += f"CV[{game.start_cube[0]}]"
    decisions = iter(rolls)
    context = _CubeContext(match, game, result)
    actions = game.actions
    for i, action in enumerate(actions):
        kind = action.kind
        colour = _COLOUR[action.player]
        if kind is ActionKind.ROLL:
            decision = next(decisions, None)
            context.rolled(decision)
            out.append(
                f"\n;{colour}[{_roll(action, None if decision is None else decision.play)}]"
                + _analysis(action, context, None if decision is None else decision.cube)
            )
        elif kind in _CUBE_WORDS:
            out.append(f"\n;{colour}[{_CUBE_WORDS[kind]}]" + _analysis(action, context, context.cube(action)))
        elif kind in (ActionKind.BEAVER, ActionKind.RACCOON):
            # gnubg's form: the beaver is a double by the taker; the take of the
            # whole exchange follows once, after the last beaver or raccoon.
            out.append(f"\n;{colour}[double]")
            following = actions[i + 1].kind if i + 1 < len(actions) else None
            if following not in (ActionKind.BEAVER, ActionKind.RACCOON, ActionKind.TAKE):
                out.append(f"\n;{_COLOUR[action.player.other]}[take]")
    trailing = game.trailing_roll
    if trailing is not None:  # a roll without moves after the last move, as the file it was read from writes it
        out.append(f"\n;{_COLOUR[trailing.player]}[{_roll(trailing, None)}]")
    out.append(")\n")
    return "".join(out)


class _CubeContext:
    """What a ``DA`` needs in match play: each side's points to go, the Crawford game, the cube before a double."""

    def __init__(self, match: Match, game: Game, result: GameResult | None) -> None:
        self.length = match.length
        self.score = game.score
        self.crawford = bool(result.crawford) if result is not None else bool(game.crawford)
        self.offered = 1
        self.current = game.start_cube[0] if game.start_cube else 1

    def rolled(self, decision: Decision | None) -> None:
        """Note the cube the replay had at a roll (the cube a double after it offers to double)."""
        if decision is not None:
            self.current = decision.cube

    def cube(self, action: Action) -> int:
        """The cube before the double of ``action`` (a double, or its answer): as written, else the replay's."""
        if action.kind is ActionKind.DOUBLE:
            self.offered = action.value or 2 * self.current
        return max(1, self.offered // 2)

    def of(self, doubler: Player, cube: int) -> tuple[int, int, int, bool] | None:
        if not self.length:
            return None
        return (self.length - self.score[doubler], self.length - self.score[doubler.other], cube, self.crawford)


def _analysis(action: Action, context: _CubeContext, cube: int | None) -> str:
    """The SGF analysis properties of ``action``'s recorded analysis (:mod:`tabla_cli.writers.sgf_analysis`)."""
    recorded = action.analysis
    if recorded is None:
        return ""
    player = action.player
    out = ""
    if action.kind is ActionKind.ROLL:
        out = move_properties(recorded, lambda play: _letters(play, player))
    if recorded.cube is not None and cube is not None:
        doubler = player.other if action.kind in (ActionKind.TAKE, ActionKind.DROP) else player
        out += cube_property(recorded.cube, context.of(doubler, cube))
    return out


def _letters(play: str, player: Player) -> str | None:
    """A play written in the mover's numbering as SGF letter pairs; None when it cannot be read."""
    try:
        segments = parse_play(play)
    except InvalidPlayError:
        return None
    return "".join(point_letter(src, player) + point_letter(dst, player) for src, dst, _ in segments)


def _roll(action: Action, play: tuple[Step, ...] | None) -> str:
    dice = action.dice or (0, 0)
    head = f"{dice[0]}{dice[1]}"
    player = action.player
    if play is not None:
        return head + "".join(point_letter(s.src, player) + point_letter(s.dst, player) for s in play)
    text = action.play_text or ""
    if action.resigned or not text.strip():
        return head
    # Not resolved by the replay (an illegal play, or after one): write what is written.
    try:
        segments = parse_play(text)
    except InvalidPlayError as exc:
        raise InvalidPlayError(f"cannot write the play {text!r} as SGF: {exc.message}", action.location) from exc
    return head + "".join(point_letter(src, player) + point_letter(dst, player) for src, dst, _ in segments)
