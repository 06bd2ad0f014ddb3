"""Write a match as GNU Backgammon writes SGF (``FF[4] GM[6]``).

One game tree per game: a root node with the match information, an optional
set-up node for a game that starts from another position, then one node per
action (``W[31hefe]``, ``B[double]``, ``W[take]``, ``B[drop]``). Plays are
written one letter pair per die in a legal playing order, from the replay of
the match (:class:`SgfWriter` is a visitor of the replay).

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
from collections.abc import Iterable
from typing import TextIO

from tabla_cli import __version__
from tabla_cli.board import BAR, Play, Player, Position, Step
from tabla_cli.errors import InvalidPlayError
from tabla_cli.evaluation.recorded import read_written_cube
from tabla_cli.formats.sgf import VARIANT_WORDS, point_letter
from tabla_cli.match_state import away
from tabla_cli.model import Action, ActionKind, Game, Match
from tabla_cli.notation import parse_play
from tabla_cli.replay import GameResult, MatchResult, replay
from tabla_cli.variant import find_variant
from tabla_cli.visitor import BaseVisitor, DecisionState, Wants
from tabla_cli.writers.sgf_analysis import cube_property, move_properties

__all__ = ["APPLICATION", "SgfWriter", "format_sgf", "format_sgfs", "write_sgf"]

APPLICATION = f"tabla:{__version__}"
"""Written in ``AP[...]``."""

_WHITE, _BLACK = Player.ZERO, Player.ONE
_COLOUR = {_WHITE: "W", _BLACK: "B"}
_HEADERS = {"site": "PC", "event": "EV", "round": "RO", "transcriber": "AN", "annotator": "AN"}
_HEADER_ORDER = ("DT", "EV", "RO", "PC", "AN")
_DATE = re.compile(r"\s*([0-9]{4})[-./]([0-9]{1,2})[-./]([0-9]{1,2})\s*")
_CUBE_WORDS = {ActionKind.DOUBLE: "double", ActionKind.TAKE: "take", ActionKind.DROP: "drop"}
_EXCHANGE = frozenset({ActionKind.BEAVER, ActionKind.RACCOON, ActionKind.TAKE})
"""What may follow a beaver in the same exchange (before its one take)."""


def write_sgf(match: Match, handle: TextIO, *, application: str = APPLICATION) -> None:
    """Write ``match`` to ``handle`` as a GNU Backgammon SGF file.

    Args:
        match: the match to write.
        handle: a text stream (UTF-8 is what ``CA[UTF-8]`` says).
        application: the ``AP`` value.

    Raises:
        InvalidPlayError: a play that the replay could not resolve cannot
            even be read (it cannot be written as letter pairs).
    """
    handle.write(format_sgf(match, application=application))


def format_sgfs(matches: Iterable[tuple[Match, MatchResult | None]], *, application: str = APPLICATION) -> str:
    """Several matches, one SGF game tree after another (gnubg reads them back one by one).

    Each match is replayed with an :class:`SgfWriter` (the result beside it is not needed).
    """
    writer = SgfWriter(application)
    for match, _ in matches:
        replay(match, writer)
    return writer.result()


def format_sgf(match: Match, *, application: str = APPLICATION) -> str:
    """The SGF text of ``match``; see :func:`write_sgf`."""
    return replay(match, SgfWriter(application))


class SgfWriter(BaseVisitor[str]):
    """Writes every match it visits as SGF game trees, from the replay's steps alone.

    Every action comes as one step, in order; a game's tree is written when
    it ends (its root says the result). :meth:`result` is the text of the
    matches so far.

    Args:
        application: the ``AP`` value.

    Raises:
        InvalidPlayError: from :meth:`result`: a play that the replay could
            not resolve cannot even be read.
    """

    wants = Wants.ROLL | Wants.CUBE | Wants.RESIGN | Wants.RESULT | Wants.RESULT_LINE | Wants.UNCHECKED | Wants.SETUP

    def __init__(self, application: str = APPLICATION) -> None:
        self.application = application
        self.parts: list[str] = []
        self.error: InvalidPlayError | None = None
        self.match: Match | None = None
        self.index = 0
        self.game: Game | None = None
        self.nodes: list[str] = []
        self.first: Player | None = None
        self.won: Action | None = None
        self.context: _CubeContext | None = None
        self.beavered: Player | None = None

    def begin_match(self, match: Match) -> None:
        self.match = match
        self.index = 0

    def begin_game(self, game: Game, state: DecisionState) -> None:
        self.game = game
        self.nodes = []
        self.first = self.won = self.beavered = None
        self.context = _CubeContext(state)

    def action(self, action: Action) -> None:
        """Before any action: the take that closes a beaver exchange, and the side that acts first."""
        kind = action.kind
        if self.beavered is not None and kind not in _EXCHANGE:
            self.nodes.append(f"\n;{_COLOUR[self.beavered]}[take]")
        self.beavered = None
        if self.first is None and kind is not ActionKind.WIN:
            self.first = action.player

    def visit_roll(self, state: DecisionState, action: Action, play: Play | None, after: Position | None) -> None:
        if self.game is not None and action is self.game.trailing_roll:
            return  # written as the file wrote it, after the game's nodes
        self.roll(action, play, state.cube)

    def visit_resign(self, state: DecisionState, action: Action) -> None:
        if action.kind is ActionKind.ROLL:
            self.roll(action, None, None)
        else:
            self.action(action)  # a resignation is only the R of RE

    def visit_unchecked(self, action: Action) -> None:
        if action.kind is ActionKind.ROLL:
            self.roll(action, None, None)
        elif action.kind in _CUBE_WORDS:
            self.cube(action, None)  # the replay does not follow it: its cube is not known
        elif action.kind is ActionKind.BEAVER or action.kind is ActionKind.RACCOON:
            self.beaver(action)
        else:
            self.action(action)

    def roll(self, action: Action, play: Play | None, cube: int | None) -> None:
        """A roll's node: ``play`` as the replay resolved it (None: as written); ``cube``: the cube before it,
        for its recorded cube analysis (None: not known)."""
        self.action(action)
        try:
            text = _roll(action, play)
        except InvalidPlayError as exc:
            self.error = self.error or exc
            text = ""
        assert self.context is not None  # begin_game came first
        self.nodes.append(
            f"\n;{_COLOUR[action.player]}[{text}]" + _analysis(action, self.context, cube) + _comment(action)
        )

    def cube(self, action: Action, cube: int | None) -> None:
        """A double's or answer's node; ``cube``: the cube before the double (None: not known)."""
        self.action(action)
        assert self.context is not None  # begin_game came first
        self.nodes.append(
            f"\n;{_COLOUR[action.player]}[{_CUBE_WORDS[action.kind]}]"
            + _analysis(action, self.context, cube)
            + _comment(action)
        )

    def beaver(self, action: Action) -> None:
        """gnubg's form: the beaver is a double by the taker; the take of the whole exchange follows once,
        after the last beaver or raccoon."""
        self.action(action)
        self.nodes.append(f"\n;{_COLOUR[action.player]}[double]")
        self.beavered = action.player.other

    def visit_cube(
        self, state: DecisionState, action: Action, cube_before: int, cube_after: int, owner: Player | None
    ) -> None:
        if action.kind in _CUBE_WORDS:
            self.cube(action, cube_before)
        else:
            self.beaver(action)

    def visit_result(self, state: DecisionState, action: Action, game_result: GameResult) -> None:
        self.action(action)
        self.won = action

    def visit_setup(self, state: DecisionState, action: Action) -> None:
        """A set-up inside the game, as gnubg writes one: the board emptied, then every checker; the cube."""
        setup = action.setup
        if setup is None:
            return
        node = "\n;"
        if setup.position is not None:
            node += _checkers(setup.position)
        if setup.cube is not None:
            node += f"CV[{setup.cube}]"
        if setup.owner_set:
            node += f"CP[{'c' if setup.owner is None else _COLOUR[setup.owner].lower()}]"
        self.nodes.append(node)

    def visit_result_line(self, state: DecisionState, action: Action, game_result: GameResult) -> None:
        self.action(action)

    def end_game(self, game_result: GameResult) -> None:
        match, game = self.match, self.game
        assert match is not None and game is not None  # begin_match and begin_game came first
        if self.beavered is not None:
            self.nodes.append(f"\n;{_COLOUR[self.beavered]}[take]")
        head = _root(match, game, self.index, game_result, self.won, self.application)
        if game.start is not None or (game.start_cube is not None and game.start_cube[1] is not None):
            head += _setup(game, self.first or _WHITE)
        elif game.start_cube is not None and game.start_cube[0] > 1:
            head += f"CV[{game.start_cube[0]}]"
        trailing = game.trailing_roll
        if trailing is not None:  # a roll without moves after the last move, as the file it was read from writes it
            self.nodes.append(f"\n;{_COLOUR[trailing.player]}[{_roll(trailing, None)}]")
        self.parts.append(head + "".join(self.nodes) + ")\n")
        self.index += 1

    def result(self) -> str:
        if self.error is not None:
            raise self.error
        return "".join(self.parts)


def _comment(action: Action) -> str:
    """The action's comment as ``C[]`` (none when it has none)."""
    return f"C[{_escape(action.comment)}]" if action.comment else ""


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def _simple(value: str) -> str:
    """A one-line text value."""
    return _escape(" ".join(value.split()))


def _root(match: Match, game: Game, index: int, result: GameResult, won: Action | None, application: str) -> str:
    length = match.length
    score = result.score
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
        if result.crawford:
            rules.append("CrawfordGame")
    if match.rules.jacoby:
        rules.append("Jacoby")
    if not match.rules.cube:
        rules.append("NoCube")
    variant = game.variant if game.variant is not None else match.variant
    word = VARIANT_WORDS.get(find_variant(variant).name)
    if word:
        rules.append(word)
    if rules:
        props.append(f"RU[{':'.join(rules)}]")
    if won is not None:
        points = won.value if won.value is not None else ""
        resigned = result.ended_by in ("resign", "forfeit")
        props.append(f"RE[{_COLOUR[won.player]}+{points}{'R' if resigned else ''}]")
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


def _checkers(position: Position) -> str:
    """A whole board as set-up properties: every point and the bar emptied, then each side's checkers."""
    white = "".join(f"[{point_letter(p, _WHITE)}]" * position.mover[p] for p in range(BAR, 0, -1))
    black = "".join(f"[{point_letter(p, _BLACK)}]" * position.opponent[p] for p in range(BAR, 0, -1))
    return "AE[a:y]" + (f"AW{white}" if white else "") + (f"AB{black}" if black else "")


def _setup(game: Game, first: Player) -> str:
    """The set-up node: the start position (if any) and the cube (value and owner); ``first`` acts first."""
    node = f"\n;PL[{_COLOUR[first]}]"
    if game.start is not None:
        node += _checkers(game.start)
    if game.start_cube is not None:
        value, owner = game.start_cube
        node += f"CV[{value}]CP[{'c' if owner is None else _COLOUR[owner].lower()}]"
    return node


class _CubeContext:
    """What a ``DA`` needs in match play: each side's points to go and the Crawford game, from the game's start."""

    def __init__(self, state: DecisionState) -> None:
        self.length = state.length
        self.score = state.score
        self.crawford = state.crawford

    def of(self, doubler: Player, cube: int) -> tuple[int, int, int, bool] | None:
        if not self.length:
            return None
        return (
            away(self.length, self.score, doubler),
            away(self.length, self.score, doubler.other),
            cube,
            self.crawford,
        )


def _analysis(action: Action, context: _CubeContext, cube: int | None) -> str:
    """The SGF analysis properties of ``action``'s recorded analysis (:mod:`tabla_cli.writers.sgf_analysis`)."""
    player = action.player
    doubler = player.other if action.kind in (ActionKind.TAKE, ActionKind.DROP) else player
    match = None if cube is None else context.of(doubler, cube)
    recorded = read_written_cube(action.analysis, match, cube or 0)  # a DA as the file it was read from wrote it
    if recorded is None:
        return ""
    out = ""
    if action.kind is ActionKind.ROLL:
        out = move_properties(recorded, lambda play: _letters(play, player))
    if recorded.cube is not None and cube is not None:
        out += cube_property(recorded.cube, match)
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
