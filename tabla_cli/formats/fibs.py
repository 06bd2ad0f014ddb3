"""Read FIBS ``oldmoves`` game records into the match model.

The structure is the one GNU Backgammon's importer accepts
(``docs/formats.md``, "FIBS oldmoves")::

    Score is 0-0 in a 3 point match.
    alice is X - bob is O
    X: (3 1) 17-20 19-20
    O: (6 2) 24-18 13-11
    X: doubles
    O: rejects
    X: wins 1 point

A game starts with the ``Score is`` line (without ``in a N point match`` it
is a money game), names the players and their colours, then has one action
per line; a blank line ends it. Player 0 is the first name of the colours
line of the first game; the scores ``n0-n1`` belong to the first and second
name.

Moves may be written in FIBS's absolute numbering, in which one colour moves
upwards: a move list that goes upwards (``17-20``, ``bar-3``, ``20-off``) is
turned round (``p`` -> ``25 - p``), as gnubg does. Plays are stored as plain
numeric text from the mover's side (``8/5 6/5``) and checked when the match
is replayed. ``wants to resign`` followed by the opponent's ``accepts``
becomes a ``RESIGN`` action (a refused offer is dropped). A ``doubles``
answering the other player's is a beaver (then a raccoon) and the ``accepts``
that ends the exchange is implied; FIBS writes no cube values, so the actions
carry none (the replay's cube gives them). FIBS at times writes a score
line's two scores swapped: each game's score is read as written and marked
``score_unordered``, and the replay takes it swapped back where that is the
score the games before make (gnubg's work-around for the FIBS bug).

Example:
    >>> text = '''Score is 0-0 in a 3 point match.
    ... alice is X - bob is O
    ... X: (3 1) 17-20 19-20
    ... O: (6 2) 24-18 13-11
    ... '''
    >>> match = next(parse_matches(text, path="o.txt"))
    >>> match.players, match.length
    (('alice', 'bob'), 3)
    >>> [(a.kind.value, int(a.player), a.dice, a.play_text) for a in match.games[0].actions]
    [('roll', 0, (3, 1), '8/5 6/5'), ('roll', 1, (6, 2), '24/18 13/11')]
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import TextIO

from lark import Lark, Token, Tree

from tabla_cli.board import BAR, OFF, Dice, Player, Step
from tabla_cli.errors import Location, TranscriptSyntaxError
from tabla_cli.formats import Format
from tabla_cli.formats._syntax import ErrorHandler, normalise_newlines, parse_tree, read_stream, syntax_error
from tabla_cli.formats._tokens import CANNOT_MOVE, MOVE, NUMBER, dice
from tabla_cli.grammar import load_grammar
from tabla_cli.model import Action, ActionKind, Game, Match
from tabla_cli.notation import format_play_plain

__all__ = ["ERROR_EXAMPLES", "GRAMMAR", "looks_like_fibs", "parse_matches", "read_matches"]

GRAMMAR = "fibs.lark"
"""File name of the grammar in ``grammars/``."""

ERROR_EXAMPLES: dict[str, list[str]] = {
    "no-colours": [
        "Score is 0-0 in a 3 point match.\nX: (3 1) 8-5 6-5\n",
        "Score is 0-0 in a 3 point match.\n",
        "Score is 0-0 in a 3 point match.\n\n",
    ],
    "not-an-action": [
        "Score is 0-0 in a 3 point match.\nann is X - bob is O\nhello\n",
        "Score is 0-0 in a 3 point match.\nann is X - bob is O\nX: (3 1) 17-20 19-20\nhello\n",
        "Score is 0-0 in a 3 point match.\nann is X - bob is O\nX: (3 1) 17-20 19-20\n"
        "Score is 0-1 in a 3 point match.\n",
    ],
}
"""Labelled malformed inputs for ``UnexpectedInput.match_examples``."""

_LABEL_MESSAGES = {
    "no-colours": "expected the line 'name is X - name is O' after the 'Score is' line",
    "not-an-action": "expected an action line 'X: ...' or 'O: ...', or a blank line to end the game",
}

_TERMINALS = {
    "SCORE": "a 'Score is n-n in a N point match.' line",
    "COLOURS": "the line 'name is X - name is O'",
    "ACTION": "an action line 'X: ...'",
    "_BLANK": "a blank line",
    "OTHER": "a line",
    "$END": "the end of the input",
}

_SCORE = re.compile(
    rf"[ \t]*Score is (?P<s0>{NUMBER})[ \t]*-[ \t]*(?P<s1>{NUMBER})"
    rf"(?:[ \t]+in an?[ \t]+(?P<length>{NUMBER})[ \t]+point[ \t]+match)?\.?[ \t]*"
)
_COLOURS = re.compile(
    r"[ \t]*(?P<n0>\S+)[ \t]+is[ \t]+(?P<c0>[XO])[ \t]*-[ \t]*(?P<n1>\S+)[ \t]+is[ \t]+(?P<c1>[XO])\.?[ \t]*"
)
_ACTION = re.compile(r"[ \t]*(?P<colour>[XO])[ \t]*:[ \t]*(?P<rest>(?:.*[^ \t])?)[ \t]*")
_ROLL = re.compile(r"\(" + dice(between=r"[ \t]+") + r"\)[ \t]*(?P<moves>.*)")
_MOVE = re.compile(MOVE, re.IGNORECASE)
_WINS = re.compile(r"wins\b[^0-9]*(?P<value>[0-9]+)?.*", re.IGNORECASE)
_CANNOT_MOVE = re.compile(CANNOT_MOVE, re.IGNORECASE)


@functools.cache
def _parser() -> Lark:
    """The parser, built once per process."""
    return load_grammar(GRAMMAR, parser="lalr", propagate_positions=False)


def looks_like_fibs(text: str) -> bool:
    """Whether ``text`` looks like FIBS ``oldmoves``: a ``Score is n-n`` line
    followed by a ``name is X - name is O`` line, near the start.

    >>> looks_like_fibs("Score is 0-0 in a 3 point match.\\nann is X - bob is O\\n")
    True
    >>> looks_like_fibs(" 3 point match\\n")
    False
    """
    head = text[:8192]
    if "Score is " not in head:  # no line can be a score line: spare the splitting and the matching
        return False
    lines = head.lstrip("\ufeff").splitlines()
    for index, line in enumerate(lines[:200]):
        if _SCORE.fullmatch(line.rstrip()) is not None:
            return index + 1 < len(lines) and _COLOURS.fullmatch(lines[index + 1].rstrip()) is not None
    return False


def read_matches(handle: TextIO, *, path: str = "<stdin>", on_error: ErrorHandler | None = None) -> Iterator[Match]:
    """Every match in an ``oldmoves`` text stream: :func:`parse_matches` of all its text.

    Raises:
        InputError: the stream cannot be decoded (besides what :func:`parse_matches` raises).
    """
    return read_stream(parse_matches, handle, path, on_error)


def parse_matches(text: str, *, path: str = "<string>", on_error: ErrorHandler | None = None) -> Iterator[Match]:
    """Every match in an ``oldmoves`` text, read whole before the first match is yielded.

    A game whose players differ from the previous game's, or whose match
    length differs, starts a new match (as gnubg's importer stops there).

    Args:
        text: the text; a leading BOM is ignored.
        path: the name used in every :class:`Location`.
        on_error: called with an error in an action line instead of raising
            it; that game keeps the actions read before the bad line and
            reading goes on with the next game. Errors in the structure, the
            score line and the colours line are raised either way.

    Yields:
        Each match, with ``format='fibs'``.

    Raises:
        TranscriptSyntaxError: the text is not ``oldmoves``, or a line of a
            game cannot be read.
    """
    text = normalise_newlines(text)
    parser = _parser()
    tree = parse_tree(
        parser,
        text,
        path,
        "the oldmoves file",
        lambda exc: syntax_error(exc, text, path, parser, ERROR_EXAMPLES, _LABEL_MESSAGES, _TERMINALS),
    )
    games = [child for child in tree.children if isinstance(child, Tree)]
    if not games:
        raise TranscriptSyntaxError(
            "no game found: expected a line 'Score is n-n in a N point match.'", Location(path, 1, 1)
        )
    yield from _Reader(path, on_error).matches(games)


# --------------------------------------------------------------------------
# Internals


def _line(token: Token) -> str:
    return token.rstrip("\n").rstrip()


def _column(token: Token, offset: int = 0) -> int:
    return (token.column or 1) + offset


class _Reader:
    def __init__(self, path: str, on_error: ErrorHandler | None = None) -> None:
        self.path = path
        self.on_error = on_error

    def fail(self, message: str, token: Token, column: int = 0) -> TranscriptSyntaxError:
        text = _line(token)
        if not column:
            column = len(text) - len(text.lstrip()) + 1
        return TranscriptSyntaxError(message, Location(self.path, token.line or 0, column), text)

    def matches(self, games: list[Tree[Token]]) -> list[Match]:
        out: list[Match] = []
        match: Match | None = None
        for tree in games:
            score_token, colours_token = tree.children[0], tree.children[1]
            assert isinstance(score_token, Token) and isinstance(colours_token, Token)
            score = _SCORE.fullmatch(_line(score_token))
            if score is None:
                raise self.fail("cannot read the score line: expected 'Score is n-n in a N point match.'", score_token)
            colours = _COLOURS.fullmatch(_line(colours_token))
            if colours is None or colours.group("c0") == colours.group("c1"):
                raise self.fail("expected 'name is X - name is O' (one player X, the other O)", colours_token)
            names = (colours.group("n0"), colours.group("n1"))
            length = int(score.group("length") or 0)
            if match is None or set(names) != set(match.players) or length != match.length or names[0] == names[1]:
                match = Match(
                    players=names,
                    length=length,
                    path=self.path,
                    format="fibs",
                    location=Location(self.path, score_token.line or 0, _column(score_token)),
                )
                out.append(match)
            first = Player(match.players.index(names[0]))
            colour = {colours.group("c0"): first, colours.group("c1"): first.other}
            written = (int(score.group("s0")), int(score.group("s1")))
            game = Game(
                number=len(match.games) + 1,
                score=written if first is Player.ZERO else (written[1], written[0]),
                location=Location(self.path, score_token.line or 0, _column(score_token)),
                score_unordered=True,
            )
            match.games.append(game)
            actions = [t for t in tree.children[2:] if isinstance(t, Token)]
            try:
                _GameReader(self, game, colour).read(actions)
            except TranscriptSyntaxError as error:
                if self.on_error is None:
                    raise
                self.on_error(error)
        return out


class _GameReader:
    def __init__(self, reader: _Reader, game: Game, colour: dict[str, Player]) -> None:
        self.r = reader
        self.game = game
        self.colour = colour
        # The kind and player of the last 'doubles' line that no roll or answer has followed: FIBS
        # writes a beaver (raccoon) as a 'doubles' answering one. No values: the replay's cube has them.
        self.exchange: tuple[ActionKind, Player] | None = None
        self.resign_offer: Player | None = None

    def read(self, tokens: list[Token]) -> None:
        for token in tokens:
            self.line(token)

    def line(self, token: Token) -> None:
        text = _line(token)
        found = _ACTION.fullmatch(text)
        if found is None:  # pragma: no cover - the grammar's ACTION has this form
            raise self.r.fail("expected an action line 'X: ...' or 'O: ...'", token)
        player = self.colour[found.group("colour")]
        rest = found.group("rest")
        column = found.start("rest") + 1
        location = Location(self.r.path, token.line or 0, found.start("colour") + 1)
        word = rest.casefold()
        offer, self.resign_offer = self.resign_offer, None
        actions = self.game.actions
        if rest.startswith("("):
            actions.append(self.roll(player, rest, token, column, location))
        elif word.startswith("wants to resign"):
            self.resign_offer = player
        elif word.startswith(("accepts", "rejects")) and offer is not None and offer != player:
            if word.startswith("accepts"):
                actions.append(Action(ActionKind.RESIGN, offer, location))
        elif word.startswith("doubles"):
            actions.append(self.double(player, location))
        elif word.startswith("accepts"):
            action = self.answer(ActionKind.TAKE, player, location)
            if action is not None:
                actions.append(action)
        elif word.startswith("rejects"):
            self.exchange = None
            actions.append(Action(ActionKind.DROP, player, location))
        elif word.startswith("wins"):
            wins = _WINS.fullmatch(rest)
            digits = wins.group("value") if wins is not None else None
            if digits is not None and len(digits) > 9:
                raise self.r.fail(f"{digits[:12]}... points is too large a win", token, column)
            value = int(digits) if digits else None
            actions.append(Action(ActionKind.WIN, player, location, value=value))
        else:
            raise self.r.fail(
                f"cannot read {rest!r}: expected '(d d) moves', 'doubles', 'accepts', 'rejects', "
                "'wants to resign' or 'wins ...'",
                token,
                column,
            )

    def roll(self, player: Player, rest: str, token: Token, column: int, location: Location) -> Action:
        found = _ROLL.fullmatch(rest)
        if found is None:
            raise self.r.fail(f"cannot read the roll {rest!r}: expected '(d d)' with two dice 1-6", token, column)
        dice: Dice = (int(found.group("d1")), int(found.group("d2")))
        moves = found.group("moves").strip()
        self.exchange = None
        if not moves or _CANNOT_MOVE.fullmatch(moves):
            return Action(ActionKind.ROLL, player, location, dice=dice, play_text="")
        offset = column + found.start("moves")
        written: list[tuple[int, int]] = []
        for word in moves.split():
            move = _MOVE.fullmatch(word)
            if move is None:
                at = offset + moves.index(word)
                raise self.r.fail(
                    f"cannot read the move {word!r}: expected 'from-to' (points 1-24, bar, off)", token, at
                )
            src = BAR if move.group("src").casefold() == "bar" else int(move.group("src"))
            dst = OFF if move.group("dst").casefold() == "off" else int(move.group("dst"))
            if src > BAR or dst > 24 or src == OFF or src == dst:
                at = offset + moves.index(word)
                raise self.r.fail(f"{word!r} is not a move between points 1-24, the bar and off", token, at)
            written.append((src, dst))
        upward = {self.upward(src, dst) for src, dst in written}
        if len(upward) > 1:
            raise self.r.fail(f"the moves {moves!r} go in both directions", token, offset)
        if upward == {True}:
            written = [(src if src == BAR else 25 - src, dst if dst == OFF else 25 - dst) for src, dst in written]
        steps = tuple(Step(src, dst) for src, dst in written)
        return Action(ActionKind.ROLL, player, location, dice=dice, play_text=format_play_plain(steps))

    @staticmethod
    def upward(src: int, dst: int) -> bool:
        """Whether a written move goes from a low point to a high one (FIBS's other colour)."""
        if src == BAR:
            return dst <= 12
        if dst == OFF:
            return src >= 13
        return dst > src

    def double(self, player: Player, location: Location) -> Action:
        """A ``doubles`` line: a double, or, answering the other player's double (beaver), a beaver (raccoon).

        FIBS writes no value: the replay's cube gives each its value.
        """
        exchange = self.exchange
        kind = ActionKind.DOUBLE
        if exchange is not None and exchange[1] != player:
            kind = ActionKind.BEAVER if exchange[0] is ActionKind.DOUBLE else ActionKind.RACCOON
        self.exchange = (kind, player)
        return Action(kind, player, location)

    def answer(self, kind: ActionKind, player: Player, location: Location) -> Action | None:
        """An ``accepts`` line; None when it accepts a beaver or raccoon (the beaver was a take already)."""
        exchange, self.exchange = self.exchange, None
        if exchange is not None and exchange[1] != player and exchange[0] is not ActionKind.DOUBLE:
            return None
        return Action(kind, player, location)


FORMAT = Format("fibs", (".txt",), looks_like_fibs, read_matches, title="FIBS oldmoves")
"""This reader in the format registry (:mod:`tabla_cli.formats`)."""
