"""Write a match as a Jellyfish ``.mat`` transcript, in GNU Backgammon's layout.

The rules (``docs/formats.md``, "Writing .mat"): the headers, `` N point
match``, then per game `` Game n``, the score line
``' %-31s%s' % ('Name : s0', 'Name : s1')`` and the move lines
``'%3d) %-27s %s' % (k, left, right)`` with trailing blanks removed. Rolls
are written ``dd: from/to from/to`` in plain numbers (25 = bar, 0 = off),
one step per die, in a legal playing order (the highest source first), with
``*`` on every step that hits; the steps come from the replay
(:class:`MatWriter` is a visitor of the replay). Cube actions are `` Doubles => v``,
`` Takes``, `` Drops``, `` Beavers => v``, `` Raccoons => v``; results
`` Wins k point(s)``, with ``and the match`` on the game that decides the
match.

It carries everything the ``.mat`` reader reads: every header in order
(plus headers for rules and a variant the match has but its headers do not
say), comment lines, ratings (``Name,1780`` on the score lines, digits
only), game numbers and scores, ``????`` (rolled, then resigned),
``Resigns``, ``Losses k point(s)``, beavers and raccoons, dances (``dd:``).
A play the replay could not resolve (an illegal play, or one after it) is
written as written. A game that starts from a set-up position gets an XG
``; Set Pos=`` line after its score line (tabla's own reader keeps that line
as a comment). Writing the written text again gives the same bytes.

Example:
    >>> from tabla_cli.formats.mat import parse_matches
    >>> text = '''3 point match
    ... Game 1
    ... Petar : 0   Maria : 0
    ... 1) 31: 6/5 8/5  64: 24/14
    ... 2) Doubles => 2  Drops
    ...    Wins 1 point
    ... '''
    >>> match = next(parse_matches(text))
    >>> print(format_mat(match), end="")
     3 point match
    <BLANKLINE>
     Game 1
     Petar : 0                      Maria : 0
      1) 31: 8/5 6/5                 64: 24/18 18/14
      2)  Doubles => 2                Drops
          Wins 1 point
    <BLANKLINE>
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

from tabla_cli.board import BAR, OFF, Play, Player, Position, Step
from tabla_cli.cube import offer
from tabla_cli.errors import TablaError, UnsupportedFormatError
from tabla_cli.model import Action, ActionKind, Game, Match
from tabla_cli.replay import GameResult, MatchResult, replay
from tabla_cli.visitor import BaseVisitor, DecisionState, Wants

__all__ = ["MatWriter", "canonical_play", "format_mat", "format_mats", "plain_play", "write_mat"]

_ZERO, _ONE = Player.ZERO, Player.ONE
"""How XG and gnubg write the ``Variation`` of the variants they know."""


def write_mat(match: Match, handle: TextIO, *, newline: str = "\n") -> None:
    """Write ``match`` to ``handle`` as a ``.mat`` transcript.

    Args:
        match: the match to write.
        handle: a text stream (write it as UTF-8, without a BOM).
        newline: the line end, ``"\\n"`` (default) or ``"\\r\\n"``.
    """
    handle.write(format_mat(match, newline=newline))


def format_mats(matches: Iterable[tuple[Match, MatchResult | None]], *, newline: str = "\n") -> str:
    """Several matches in one text, one after another (the reader reads them back one by one).

    Each match is replayed with a :class:`MatWriter` (the result beside it is not needed).
    """
    writer = MatWriter(newline)
    for match, _ in matches:
        replay(match, writer)
    return writer.result()


def format_mat(match: Match, *, newline: str = "\n") -> str:
    """The ``.mat`` text of ``match``; see :func:`write_mat`."""
    return replay(match, MatWriter(newline))


class MatWriter(BaseVisitor[str]):
    """Writes every match it visits as a ``.mat`` transcript, from the replay's steps alone.

    Every action comes as one step, in order: the plays as the replay resolved
    them (or as written, where it could not), the cube values it decided, the
    results it judged. :meth:`result` is the text of the matches so far.

    Args:
        newline: the line end, ``"\\n"`` (default) or ``"\\r\\n"``.
    """

    wants = Wants.ROLL | Wants.CUBE | Wants.RESIGN | Wants.RESULT | Wants.RESULT_LINE | Wants.UNCHECKED | Wants.SETUP

    def __init__(self, newline: str = "\n") -> None:
        self.newline = newline
        self.texts: list[str] = []
        self.lines: list[str] = []
        self.match: Match | None = None
        self.slots = _Lines()
        self.cube = 1  # the cube the replay last reported (for an action it does not follow)
        self.trailing: Action | None = None
        self.first_game = True
        self.set_up: Action | None = None  # a set-up inside a game: a .mat has no place for it

    def begin_match(self, match: Match) -> None:
        self.match = match
        self.lines = _heading(match, match.rules.crawford)
        self.first_game = True

    def begin_game(self, game: Game, state: DecisionState) -> None:
        match = self.match
        assert match is not None  # begin_match came first
        if self.first_game and state.post_crawford and match.rules.crawford:
            # A .mat names no Crawford game: a transcript that starts after it says the rule is off,
            # under which the replay plays its games as it plays games after the Crawford game.
            self.lines = _heading(match, False)
        self.first_game = False
        left = f"{_score_name(match, _ZERO)} : {state.score[0]}"
        right = f"{_score_name(match, _ONE)} : {state.score[1]}"
        # gnubg's ' %-31s%s', but never without a space
        self.lines += [f" Game {game.number}", f" {left:<30} {right}".rstrip()]
        set_pos = _set_pos(match, game)
        if set_pos is not None:
            self.lines.append(set_pos)
        self.slots = _Lines()
        self.cube = state.cube
        self.trailing = game.trailing_roll

    def visit_roll(self, state: DecisionState, action: Action, play: Play | None, after: Position | None) -> None:
        if action is self.trailing:
            return  # a roll without moves after the record's last move: not a move line
        self.cube = state.cube
        self.slots.add(action.player, _roll(action, state.position, play), False)
        self.slots.note(action)

    def visit_resign(self, state: DecisionState, action: Action) -> None:
        text = _roll(action, None, None) if action.kind is ActionKind.ROLL else _WORDS[action.kind]
        self.slots.add(action.player, text, False)

    def visit_unchecked(self, action: Action) -> None:
        """An action after the game ended or the replay stopped: as written (a value the replay never decided:
        what a double offers on the cube it last reported)."""
        kind = action.kind
        if kind is ActionKind.ROLL:
            text = _roll(action, None, None)
        elif kind in _VALUED:
            text = f" {_VALUED[kind]} => {action.value or offer(self.cube)}"
        else:
            text = _WORDS[kind]
        self.slots.add(action.player, text, False)
        self.slots.note(action)

    def visit_cube(
        self, state: DecisionState, action: Action, cube_before: int, cube_after: int, owner: Player | None
    ) -> None:
        kind = action.kind
        self.cube = cube_before if kind is ActionKind.DOUBLE else cube_after
        text = f" {_VALUED[kind]} => {action.value or cube_after}" if kind in _VALUED else _WORDS[kind]
        self.slots.add(action.player, text, False)
        self.slots.note(action)

    def visit_result(self, state: DecisionState, action: Action, game_result: GameResult) -> None:
        self.wins(action, game_result, game_result.match_won)

    def visit_result_line(self, state: DecisionState, action: Action, game_result: GameResult) -> None:
        if action.kind is ActionKind.LOSS:
            self.slots.add(
                action.player, f" Losses {_points(state.cube if action.value is None else action.value)}", True
            )
        else:
            self.wins(action, game_result, False)

    def wins(self, action: Action, game_result: GameResult, match_won: bool) -> None:
        """A ``Wins`` line: the value written, else what the game is worth; ``and the match`` where it is written
        or where the replay says this line wins the match (``match_won``)."""
        value = game_result.worth if action.value is None else action.value
        text = f" Wins {_points(value)}"
        if action.match_won or match_won:
            text += " and the match"
        self.slots.add(action.player, text, True)

    def end_game(self, game_result: GameResult) -> None:
        self.lines += self.slots.text()
        self.lines.append("")

    def end_match(self, match_result: MatchResult) -> None:
        self.texts.append(self.newline.join(self.lines) + self.newline)
        self.lines = []

    def visit_setup(self, state: DecisionState, action: Action) -> None:
        self.set_up = self.set_up or action

    def result(self) -> str:
        if self.set_up is not None:
            raise UnsupportedFormatError(
                f"{self.set_up.location}: a .mat file has no place for a position set inside a game"
            )
        return "".join(self.texts)


_VALUED = {ActionKind.DOUBLE: "Doubles", ActionKind.BEAVER: "Beavers", ActionKind.RACCOON: "Raccoons"}
"""The cube actions written with their value (``Doubles => 4``)."""
_WORDS = {ActionKind.TAKE: " Takes", ActionKind.DROP: " Drops", ActionKind.RESIGN: " Resigns"}
"""The actions written as one word."""


def _one_line(text: str) -> str:
    """``text`` with any line break turned into a space (a .mat header or name is one line)."""
    return " ".join(text.splitlines()) if "\n" in text or "\r" in text else text


# --- headers ------------------------------------------------------------------------


def _norm(key: str) -> str:
    return key.casefold().replace(" ", "")


def _set_header(headers: list[tuple[str, str]], key: str, value: str) -> None:
    """Give the last header named ``key`` (as the reader matches keys) ``value``, or append it."""
    want = _norm(key)
    for i in range(len(headers) - 1, -1, -1):
        if _norm(headers[i][0]) == want:
            headers[i] = (headers[i][0], value)
            return
    headers.append((key, value))


def _on_off(flag: bool) -> str:
    return "On" if flag else "Off"


def _heading(match: Match, crawford: bool) -> list[str]:
    """The lines before the first game: headers (the Crawford rule as ``crawford`` says), comments, length."""
    lines = [f'; [{_one_line(key)} "{_one_line(value)}"]' for key, value in _headers(match, crawford)]
    for comment in match.comments:
        for part in comment.splitlines():
            if part.strip():
                lines.append(f"; {part.strip()}")
    if lines:
        lines.append("")
    return lines + [f" {match.length} point match", ""]


def _headers(match: Match, crawford: bool) -> list[tuple[str, str]]:
    """The match's headers, plus those that say its rules (the Crawford rule: ``crawford``) and variant where
    its headers do not."""
    from tabla_cli.formats.mat_headers import VARIANT_NAMES, rules, variant

    headers = list(match.headers)
    if variant(match.header("Variation")) != match.variant:
        name = VARIANT_NAMES.get(match.variant, match.variant) or "Backgammon"
        if variant(name) != match.variant:
            name = match.variant
        replaced = False
        for i, (key, _) in enumerate(headers):
            if key.casefold() == "variation":
                headers[i] = (key, name)
                replaced = True
                break
        if not replaced:
            headers.append(("Variation", name))
    said = rules(headers, match.length)
    want = match.rules
    if said.crawford != crawford:
        _set_header(headers, "Crawford", _on_off(crawford))
    if said.jacoby != want.jacoby:
        _set_header(headers, "Jacoby", _on_off(want.jacoby))
    if said.beaver != want.beaver:
        _set_header(headers, "Beaver", _on_off(want.beaver))
    if said.cube_limit != want.cube_limit:
        _set_header(headers, "CubeLimit", str(want.cube_limit))
    if said.cube != want.cube:
        _set_header(headers, "Cube", _on_off(want.cube))
    if said.scoring != want.scoring:
        _set_header(headers, "Scoring", want.scoring)
    return headers


# --- plays --------------------------------------------------------------------------


def canonical_play(position: Position, play: Play) -> Play:
    """``play`` in the order the writer uses: highest source first, ties by highest destination.

    Hits are marked on the step that lands on the blot in that order. For
    standard backgammon this order is always a legal playing order of a
    legal play (bar entries come first, checkers reach home before any
    bears off, and a checker moves on only after it arrived); the result is
    checked against ``play``'s and ``play`` is kept when they differ (or
    for a variant's own position type).

    >>> start = Position.start()
    >>> print(*canonical_play(start, (Step(6, 5), Step(8, 5))))
    8/5 6/5
    """
    if len(play) < 2 or type(position) is not Position:
        return play
    for a, b in zip(play, play[1:]):
        if a.src < b.src or (a.src == b.src and a.dst < b.dst):
            break
    else:
        return play  # already in order: the replay marked its hits
    order = sorted(play, key=lambda s: (-s.src, -s.dst))
    me = list(position.mover)
    opp = list(position.opponent)
    steps: list[Step] = []
    for step in order:
        src, dst = step.src, step.dst
        if not me[src]:
            return play
        me[src] -= 1
        me[dst] += 1
        hit = dst != OFF and opp[25 - dst] == 1
        if hit:
            opp[25 - dst] = 0
            opp[BAR] += 1
        steps.append(Step(src, dst, hit))
    out = tuple(steps)
    if Position(tuple(me), tuple(opp)) != position.apply(play):
        return play
    return out


def plain_play(position: Position, play: Play) -> str:
    """``play`` as ``.mat`` writes it: one numeric ``from/to`` per die, ``*`` on each hit.

    >>> plain_play(Position.start(), (Step(13, 7), Step(24, 18), Step(24, 18), Step(13, 7)))
    '24/18 24/18 13/7 13/7'
    """
    return " ".join(f"{s.src}/{s.dst}{'*' if s.hit else ''}" for s in canonical_play(position, play))


# --- games --------------------------------------------------------------------------


def _score_name(match: Match, player: Player) -> str:
    name = _one_line(match.players[player])
    rating = match.ratings[player]
    if rating and rating.isascii() and rating.isdigit():
        return f"{name},{rating}"
    return name


def _set_pos(match: Match, game: Game) -> str | None:
    """XG's ``Set Pos=`` line for a game that starts from a set-up position or an owned cube."""
    from tabla_cli.ids import MatchState, format_xgid
    from tabla_cli.variant import find_variant

    owned = game.start_cube is not None and game.start_cube[1] is not None
    if game.start is None and not owned:
        return None
    try:
        start = game.start or find_variant(game.variant or match.variant).start_position()
        xgid = format_xgid(start.flip(), MatchState(dice_owner=_ONE, turn=_ONE))
    except TablaError:
        return None
    return f"; Set Pos={xgid.split('=', 1)[1].split(':', 1)[0]}/{_cube_code(game)}"


def _cube_code(game: Game) -> str:
    """The cube part of ``Set Pos``: 0 centred, ``d`` = 2^d owned by player 1, ``-d`` by player 0."""
    if game.start_cube is None or game.start_cube[1] is None:
        return "0"
    value, owner = game.start_cube
    exp = max(0, value.bit_length() - 1)
    return str(exp) if owner is _ONE else f"-{exp}"


def _points(value: int) -> str:
    return f"{value} point" if value == 1 else f"{value} points"


class _Lines:
    """Move lines being filled: player 0 in the left slot, player 1 in the right."""

    def __init__(self) -> None:
        self.rows: list[list[object]] = []  # [number | None, left | None, right | None]
        self.number = 0
        self.notes: dict[int, list[str]] = {}  # a row's comment lines, written after it
        self.last_note: str | None = None

    def note(self, action: Action) -> None:
        """The action's comment as ``;`` lines after its row (a double and its answer share one: written once)."""
        comment = action.comment
        if comment and comment != self.last_note and self.rows:
            self.last_note = comment
            lines = [line.strip() for line in comment.splitlines() if line.strip()]
            self.notes.setdefault(len(self.rows) - 1, []).extend(f"; Comment: {line}" for line in lines)

    def add(self, player: Player, text: str, result: bool) -> None:
        rows = self.rows
        if player is _ONE and rows:
            last = rows[-1]
            if last[1] is not None and last[2] is None and (last[0] is not None or result):
                last[2] = text
                return
        if result:
            number = None
        else:
            self.number += 1
            number = self.number
        rows.append([number, text, None] if player is _ZERO else [number, None, text])

    def text(self) -> list[str]:
        out = []
        for index, (number, left, right) in enumerate(self.rows):
            head = "     " if number is None else f"{number:3d}) "
            out.append(f"{head}{left or '':<27} {right or ''}".rstrip())
            out += self.notes.get(index, [])
        return out


def _roll(action: Action, position: Position | None, play: Play | None) -> str:
    """A roll's text: ``play`` as resolved from ``position``, else the play as written."""
    dice = action.dice or (0, 0)
    head = f"{dice[0]}{dice[1]}:"
    if action.resigned:
        return f"{head} ????"
    if position is not None and play is not None:
        body = plain_play(position, play)
    else:
        body = " ".join((action.play_text or "").split())
    return f"{head} {body}" if body else head
