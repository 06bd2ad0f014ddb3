"""Read Jellyfish ``.mat`` match transcripts, in every dialect met in the wild.

The layout is summed up in ``docs/formats.md``. Reading happens in
two steps:

1. ``grammars/mat.lark`` (Lark, LALR, contextual lexer) checks the block
   structure with coarse tokens: a header comment line, the
   ``N point match`` line, a ``Game N`` line, the score line, a run of move
   and result lines, any other line.
2. This module reads the inside of those lines with compiled regular
   expressions: names, ratings and scores; the one or two actions of a move
   line, assigned to a column by their content, never by fixed widths.

A play stays the raw text written after ``dd:`` (``Action.play_text``); the
notation is read and checked later, when the match is replayed.

Example:
    >>> import io
    >>> text = '''; [Site "Club"]
    ... 1 point match
    ...  Game 1
    ...  Ann : 0                Bob : 0
    ...   1)                    52: 13/8 13/11
    ...   2)  Doubles => 2       Drops
    ...                         Wins 1 point and the match
    ... '''
    >>> match = next(read_matches(io.StringIO(text), path="m.mat"))
    >>> match.players, match.length, match.headers
    (('Ann', 'Bob'), 1, [('Site', 'Club')])
    >>> [(a.kind.value, int(a.player), a.value) for a in match.games[0].actions]
    [('roll', 1, None), ('double', 0, 2), ('drop', 1, None), ('win', 1, 1)]
    >>> roll = match.games[0].actions[0]
    >>> roll.dice, roll.play_text, str(roll.location)
    ((5, 2), '13/8 13/11', 'm.mat:5:25')
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from lark import Lark, Token
from lark.exceptions import LarkError, UnexpectedInput, UnexpectedToken

from tabla_cli.board import Dice, Player
from tabla_cli.errors import Location, TranscriptSyntaxError
from tabla_cli.files import read_path_text
from tabla_cli.findings import Code, Finding
from tabla_cli.formats import Format
from tabla_cli.formats._mat_stream import LENGTH_LINE, LazyMatches, lines, match_chunks, pieces
from tabla_cli.formats._syntax import ErrorHandler, normalise_newlines, parse_tree
from tabla_cli.formats._tokens import DIE, NUMBER
from tabla_cli.formats.mat_headers import rules as _rules
from tabla_cli.formats.mat_headers import variant as _variant
from tabla_cli.grammar import load_grammar
from tabla_cli.model import Action, ActionKind, Game, Match

__all__ = [
    "ERROR_EXAMPLES",
    "GRAMMAR",
    "RIGHT_COLUMN",
    "ErrorHandler",
    "looks_like_mat",
    "parse_matches",
    "read_match",
    "read_matches",
    "read_text",
]

GRAMMAR = "mat.lark"
"""File name of the grammar in ``grammars/``."""

RIGHT_COLUMN = 20
"""0-based column from which the first action of a line is the right player's.

Writers start the left column 1-3 characters after ``n)`` (columns 5-7) and
the right column at column 33 or more; a lone action at column 20 or beyond
belongs to player 1. A second action on a line is always player 1's.
"""

ERROR_EXAMPLES: dict[str, list[str]] = {
    "empty": [
        "",
        '; [Site "x"]\n',
    ],
    "no-length-line": [
        "hello\n",
        " Game 1\n",
        "  1) 52: 13/8 13/11\n",
        '; [Site "x"]\nhello\n',
        '; [Site "x"]\n Game 1\n',
    ],
    "before-first-game": [
        "7 point match\n  1) 52: 13/8 13/11\n",
        "7 point match\nhello\n",
        "7 point match\n; comment\n  1) 52: 13/8 13/11\n",
        "7 point match\n; comment\nhello\n",
    ],
    "no-score-line": [
        "7 point match\n Game 1\n",
    ],
}
"""Labelled malformed inputs for ``UnexpectedInput.match_examples``.

Each label names a kind of structural error that the grammar catches; errors
inside lines are found by this module and need no example.
"""

_LABEL_MESSAGES = {
    "empty": "no match found: expected the match-length line 'N point match'",
    "no-length-line": (
        "expected a comment line '; ...' or the match-length line 'N point match' before the first game"
    ),
    "before-first-game": "expected a 'Game N' line after the match-length line",
    "no-score-line": "expected the score line 'Name : score   Name : score' after 'Game N'",
}

_TERMINALS = {
    "COMMENT": "a comment line '; ...'",
    "LENGTH": "the match-length line 'N point match'",
    "GAME": "a 'Game N' line",
    "MOVES": "a move line 'n) ...' or a result line 'Wins n point(s)'",
    "LINE": "a score line 'Name : score   Name : score'",
    "$END": "the end of the input",
}

_CANNOT_MOVE = "cannot move"
_SPECIAL_PLAY = frozenset("Cc?")  # first letters of "Cannot Move" and "????"
_ROLL, _WIN, _LOSS = ActionKind.ROLL, ActionKind.WIN, ActionKind.LOSS

# One action at ``pos`` (leading blanks skipped); ``lastgroup`` names its kind.
# Keywords match in any case. A play runs up to the next token that may start
# an action: two digits and a colon (a roll; ``72:`` then fails as one and is
# reported), a move number ``24)`` glued into the line, or a word starting
# with a keyword's first letter (D, T, W, L, I, R, or "Be"); no play notation
# starts so ("bar", "off", "Cannot Move", "????"). Testing one or two
# characters instead of whole keywords halves the
# time of reading a line.


def _any_case(word: str) -> str:
    return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else c for c in word)


_NUMBER = f"{NUMBER}(?![0-9])"
_STOP = r"(?:[0-9](?:[0-9]:|[0-9]*\))|[DdTtWwLlIiRr]|[Bb][Ee])"
_POINTS = rf"[ \t]+{_any_case('point')}[sS]?\b"
_AND_THE_MATCH = rf"[ \t]+{_any_case('and')}[ \t]+{_any_case('the')}[ \t]+{_any_case('match')}\b"
_ACTION = re.compile(
    rf"""[ \t]*(?:
      (?P<roll>(?P<dice>{DIE}{DIE}):
          [ \t]*(?P<play>(?!{_STOP})[^ \t]+(?:[ \t]+(?!{_STOP})[^ \t]+)*)?)
    | (?P<double>{_any_case("doubles")}[ \t]*=>[ \t]*(?P<double_value>{_NUMBER}))
    | (?P<take>{_any_case("takes")}\b)
    | (?P<drop>{_any_case("drops")}\b)
    | (?P<win>{_any_case("wins")}[ \t]+(?P<win_value>{_NUMBER}){_POINTS}(?P<and_match>{_AND_THE_MATCH})?)
    | (?P<loss>{_any_case("losses")}[ \t]+(?P<loss_value>{_NUMBER}){_POINTS})
    | (?P<beaver>{_any_case("beavers")}[ \t]*=>[ \t]*(?P<beaver_value>{_NUMBER}))
    | (?P<raccoon>{_any_case("raccoon")}[a-zA-Z]*[ \t]*=>[ \t]*(?P<raccoon_value>{_NUMBER}))
    | (?P<resign>{_any_case("resign")}[sS]?\b)
    | (?P<illegal>{_any_case("illegal")}[ \t]+{_any_case("play")}\b[^()\n]*(?:\([^)\n]*\))?)
    )""",
    re.VERBOSE,
)
_MOVE_NUMBER = re.compile(rf"[ \t]*({_NUMBER})\)")
_LENGTH = re.compile(rf"[ \t]*({_NUMBER})[ \t]+point[ \t]+match\b", re.IGNORECASE)
_GAME = re.compile(rf"[ \t]*game[ \t]+({_NUMBER})", re.IGNORECASE)
# Linear on any line: a lazy name stops only after a non-blank (the
# look-behinds), and the first 'name : score' is final (atomic: when the rest
# of the line fails after it, it fails after any later one).
_SCORE = re.compile(
    rf"[ \t]*+(?>(?:(?P<n0>[^ \t].*?)(?<![ \t]))?[ \t]*:[ \t]*(?P<s0>{_NUMBER})[ \t]+(?=[^ \t]))"
    rf"(?:(?P<n1>[^ \t].*?)(?<![ \t]))?[ \t]*:[ \t]*(?P<s1>{_NUMBER})[ \t]*$"
)
"""A score line; a name may be empty (a deleted account: `` lasse : 0     : 0``)."""
_RATED = re.compile(r"(?P<name>.*?)(?<![ \t])[ \t]*,[ \t]*(?P<rating>[0-9]+)$")
_HEADER = re.compile(r'[ \t]*+[;#][ \t]*+\[[ \t]*+(?P<key>[^"\[\]]*[^"\[\] \t])[ \t]*"(?P<value>.*)"[ \t]*\][ \t]*$')

_DICE: dict[str, Dice] = {f"{a}{b}": (a, b) for a in range(1, 7) for b in range(1, 7)}
_ZERO, _ONE = Player.ZERO, Player.ONE
_VALUE_KINDS = {
    "double": (ActionKind.DOUBLE, "double_value"),
    "beaver": (ActionKind.BEAVER, "beaver_value"),
    "raccoon": (ActionKind.RACCOON, "raccoon_value"),
    "loss": (ActionKind.LOSS, "loss_value"),
}
_PLAIN_KINDS = {
    "take": ActionKind.TAKE,
    "drop": ActionKind.DROP,
    "resign": ActionKind.RESIGN,
}
_ACTION_HINT = (
    "expected a roll 'dd: play', 'Doubles => n', 'Takes', 'Drops', 'Beavers => n', "
    "'Raccoons => n', 'Wins n point(s)', 'Losses n point(s)' or 'Resigns'"
)


@functools.cache
def _parser() -> Lark:
    """The parser, built once per process."""
    return load_grammar(GRAMMAR, parser="lalr", propagate_positions=False)


def read_text(path: str | Path) -> str:
    """The text of a transcript file, decoded by :func:`tabla_cli.files.decode_bytes`.

    Raises:
        OSError: the file cannot be read.
    """
    return read_path_text(path)


def looks_like_mat(text: str) -> bool:
    """Whether ``text`` looks like a ``.mat`` transcript.

    True when the first line that is neither blank nor a ``;``/``#`` comment
    is a match-length line ``N point match``.

    >>> looks_like_mat('; [Site "x"]\\n\\n 5 point match\\n Game 1\\n')
    True
    >>> looks_like_mat('(;FF[4]GM[6])')
    False
    """
    for count, line in enumerate(text[:65536].splitlines()):
        stripped = line.strip().lstrip("\ufeff")
        if not stripped or stripped[0] in ";#":
            if count > 500:
                return False
            continue
        return LENGTH_LINE.match(stripped) is not None
    return False


def read_matches(
    handle: TextIO, *, path: str = "<stdin>", on_error: ErrorHandler | None = None, lazy: bool = False
) -> Iterator[Match]:
    """Every match in a ``.mat`` text stream, one at a time.

    A file normally holds one match; several concatenated matches (each with
    its own header and ``N point match`` line) are read one after another.

    Args:
        handle: text stream; a leading BOM is ignored, CRLF/CR line ends are
            accepted.
        path: the name used in every :class:`Location`.
        on_error: called with a syntax error found inside a game, instead of
            raising it; that game keeps the actions read before the bad line
            and reading goes on with the next game. Errors in the structure of
            the file (no ``N point match`` line, no score line) are raised
            either way.
        lazy: read each match game by game: its ``games`` stay empty and
            :meth:`~tabla_cli.model.Match.iter_games` reads them, one at a
            few at a time, as they are asked for (memory holds some thousand
            lines of it, not a whole money session of thousands of games). A match's games are to be read
            before the next match is asked for (any left are skipped). An
            error in the structure of a later game ends the match and the
            reading there (given to ``on_error``, or raised without it).

    Yields:
        Each match, with ``format='mat'``.

    Raises:
        TranscriptSyntaxError: the text is not a ``.mat`` transcript, or
            (without ``on_error``) a line of a game cannot be read.
        InputError: the stream cannot be decoded.
    """
    if lazy:
        reader = functools.partial(_Reader, path, on_error)
        yield from LazyMatches(pieces(lines(handle, path), _PIECE_LINES), reader, on_error).matches()
        return
    for chunk, first_line in match_chunks(handle, path):
        yield from parse_matches(chunk, path=path, on_error=on_error, first_line=first_line)


_PIECE_LINES = 4000
"""A piece of a match read game by game holds whole games, this many lines or a little more."""

_CONTINUED = "0 point match\n"
"""Put before a later piece of a match read game by game, so that the grammar takes it (the line is dropped)."""


def parse_matches(
    text: str, *, path: str = "<string>", on_error: ErrorHandler | None = None, first_line: int = 1
) -> Iterator[Match]:
    """Every match in ``text``; see :func:`read_matches`.

    The structure of the whole text is checked first (a structural error
    raises before the first match is yielded); the lines of the games are
    read as the matches are yielded. ``first_line`` is the line number of
    the text's first line in its file (locations count from there).

    Raises:
        TranscriptSyntaxError: see :func:`read_matches`.
    """
    tokens = _tokens(text, path, first_line)
    yield from _Reader(path, on_error, first_line - 1).matches(tokens)


def _tokens(text: str, path: str, first_line: int) -> list[Token]:
    """The grammar's tokens of ``text``, whose first line is line ``first_line`` of its file.

    Raises:
        TranscriptSyntaxError: the structure of the text is wrong.
    """
    text = normalise_newlines(text)
    parser = _parser()
    offset = first_line - 1

    def structure(exc: UnexpectedInput) -> TranscriptSyntaxError:
        error = _structure_error(exc, text, path, parser)
        if offset and error.location is not None:
            where = error.location
            error = TranscriptSyntaxError(
                error.message, Location(path, where.line + offset, where.column), error.context
            )
        return error

    tree = parse_tree(parser, text, path, "the transcript", structure)
    return [child for child in tree.children if isinstance(child, Token)]


def read_match(path: str | Path) -> Match:
    """The match in the ``.mat`` file at ``path``.

    Raises:
        OSError: the file cannot be read.
        TranscriptSyntaxError: the file is not a ``.mat`` transcript, a line
            cannot be read, or the file holds more than one match.
    """
    name = str(path)
    matches = list(parse_matches(read_text(path), path=name))
    if len(matches) > 1:
        raise TranscriptSyntaxError(
            f"the file holds {len(matches)} matches; use read_matches() to read them all",
            matches[1].location,
        )
    return matches[0]


# --------------------------------------------------------------------------
# Internals


def _structure_error(exc: UnexpectedInput, text: str, path: str, parser: Lark) -> TranscriptSyntaxError:
    """A grammar-level error as a :class:`TranscriptSyntaxError` with a hint."""
    line, column = exc.line, exc.column
    found = ""
    if isinstance(exc, UnexpectedToken):
        if exc.token.type == "$END":
            line, column = max(1, text.count("\n")), 1
            found = "the end of the input"
        else:
            found = repr(exc.token.strip()[:60])
    if not isinstance(line, int) or line < 1:
        line, column = max(1, text.count("\n")), 1
    if not isinstance(column, int):
        column = 1
    label = None
    try:
        label = exc.match_examples(parser.parse, ERROR_EXAMPLES, use_accepts=True)
    except LarkError:  # pragma: no cover - defensive: examples are tested
        label = None
    message = _LABEL_MESSAGES.get(label or "")
    if message is None:
        expected = sorted(_TERMINALS.get(name, name) for name in getattr(exc, "expected", None) or ())
        message = "unexpected " + (found or "text")
        if expected:
            message += "; expected " + " or ".join(expected)
    elif found and label != "empty":
        message = f"{message}, found {found}"
    lines = text.split("\n")
    context = lines[line - 1].rstrip() if 0 < line <= len(lines) else ""
    return TranscriptSyntaxError(message, Location(path, line, max(1, column)), context)


class _Reader:
    """Turns the token list of one text into matches."""

    def __init__(self, path: str, on_error: ErrorHandler | None, offset: int = 0) -> None:
        self.path = path
        self.on_error = on_error
        self.offset = offset  # lines of the file before the text parsed
        self.match: Match | None = None
        self.game: Game | None = None
        self.loss_at: int | None = None  # where the current game's last 'Losses' action is in its actions
        self.skip = False  # the current game had an error: ignore its lines
        self.have_players = False
        self.next_variant: str | None = None  # a [Variation] line just before a later Game line
        self.pending: list[Token] = []  # comments not yet known to be whose
        self.expect_score = False

    def line(self, token: Token) -> int:
        """The line of ``token`` in the file."""
        return (token.line or 0) + self.offset

    # -- errors -----------------------------------------------------------

    def fail(self, message: str, line: int, column: int, context: str) -> None:
        error = TranscriptSyntaxError(message, Location(self.path, line, column), context.rstrip())
        if self.on_error is None:
            raise error
        self.on_error(error)
        self.skip = True
        if self.game is not None:
            self.game.cut = True

    # -- structure ----------------------------------------------------------

    def matches(self, tokens: list[Token]) -> Iterator[Match]:
        for token in tokens:
            done = self.feed(token)
            if done is not None:
                yield done
        if self.pending:
            self.comments(self.pending)
            self.pending = []
        if self.match is not None:
            yield self.finish(self.match)

    def first_piece(self, text: str, first_line: int) -> Match:
        """The match whose first piece, read game by game, is ``text`` (see :class:`LazyMatches`).

        Raises:
            TranscriptSyntaxError: the structure of the piece is wrong.
        """
        self.offset = first_line - 1
        [match] = self.matches(_tokens(text, self.path, first_line))  # the grammar wants the one length line
        return match

    def later_piece(self, text: str, first_line: int) -> list[Game]:
        """The games of a later piece ``text`` of the match being read (no ``N point match`` in it).

        Raises:
            TranscriptSyntaxError: the structure of the piece is wrong, or
                (without ``on_error``) a line of a game cannot be read.
        """
        tokens = _tokens(_CONTINUED + text, self.path, first_line - 1)
        self.offset = first_line - 2
        match = self.match
        assert match is not None  # the first piece made it
        match.games = []
        for token in tokens[1:]:
            self.feed(token)
        if self.pending:
            self.comments(self.pending)
            self.pending = []
        games, match.games = match.games, []
        return games

    def feed(self, token: Token) -> Match | None:
        """Read one token; the match before it when it starts a new one."""
        kind = token.type
        pending = self.pending
        if kind == "MOVES":
            if pending:
                self.comments(pending)
                self.pending = []
            if not self.skip:
                self.moves(token)
        elif kind == "COMMENT":
            pending.append(token)
        elif kind == "LINE":
            if pending:
                self.comments(pending)
                self.pending = []
            if self.expect_score:
                self.expect_score = False
                self.score(token)
            elif not self.skip:
                self.fail(
                    "unexpected line in a game: expected a move line 'n) ...', "
                    "a result line 'Wins n point(s)', a comment or 'Game N'",
                    self.line(token),
                    _first_column(token),
                    token,
                )
        elif kind == "GAME":
            if pending:
                self.comments(pending, before_game=True)
                self.pending = []
            self.start_game(token)
            self.expect_score = True
        elif kind == "LENGTH":
            done = self.match
            self.pending = []
            self.start_match(token, pending)
            return None if done is None else self.finish(done)
        return None

    def start_match(self, token: Token, comments: list[Token]) -> None:
        found = _LENGTH.match(token)
        line = self.line(token)
        start = self.line(comments[0]) if comments else line
        self.match = Match(
            players=("", ""),
            length=0,
            path=self.path,
            format="mat",
            location=Location(self.path, start or 0, 1),
        )
        self.game = None
        self.skip = False
        self.have_players = False
        self.next_variant = None
        self.comments(comments)
        if found is None:
            # The grammar took it as a length line; only the number can be bad.
            raise TranscriptSyntaxError(
                "match length too large", Location(self.path, line, _first_column(token)), token.rstrip()
            )
        self.match.length = int(found.group(1))

    def finish(self, match: Match) -> Match:
        match.rules = _rules(match.headers, match.length)
        match.variant = _variant(match.header("Variation"))
        return match

    def comments(self, tokens: list[Token], before_game: bool = False) -> None:
        """Headers and comments; a ``[Variation]`` line right before a game after the first names that game's variant."""
        match = self.match
        if match is None:  # pragma: no cover - the grammar puts a match first
            return
        for token in tokens:
            header = _HEADER.match(token)
            if header is not None:
                if before_game and self.game is not None and header.group("key").casefold() == "variation":
                    self.next_variant = _variant(header.group("value"))
                    continue
                match.headers.append((header.group("key"), header.group("value")))
                continue
            body = token.strip()[1:].strip()
            if body:
                match.comments.append(body)

    def start_game(self, token: Token) -> None:
        match = self.match
        assert match is not None  # the grammar puts a match first
        line = self.line(token)
        found = _GAME.match(token)
        self.skip = False
        self.loss_at = None
        self.game = Game(
            number=int(found.group(1)) if found else 0,
            score=(0, 0),
            location=Location(self.path, line, _first_column(token)),
        )
        self.game.variant, self.next_variant = self.next_variant, None
        match.games.append(self.game)
        if found is None:
            self.fail("game number too large", line, _first_column(token), token)

    def score(self, token: Token) -> None:
        game, match = self.game, self.match
        assert game is not None and match is not None
        text = token.rstrip()
        found = _SCORE.match(text)
        if found is None:
            self.fail(
                "expected the score line 'Name : score   Name : score' after 'Game N'",
                self.line(token),
                _first_column(token),
                text,
            )
            return
        game.score = (int(found.group("s0")), int(found.group("s1")))
        if not self.have_players:
            self.have_players = True
            names: list[str] = []
            ratings: list[str | None] = []
            for side, name in enumerate((found.group("n0") or "", found.group("n1") or "")):
                if not name:
                    match.findings.append(
                        Finding(
                            Code.UNNAMED_PLAYER,
                            f"player {side + 1} has no name (a deleted account?); "
                            "reports keep it apart from every other player",
                            Location(self.path, token.line or 0, _first_column(token)),
                            game=game.number,
                        )
                    )
                rated = _RATED.match(name)
                if rated is not None and rated.group("name"):
                    names.append(rated.group("name"))
                    ratings.append(rated.group("rating"))
                else:
                    names.append(name)
                    ratings.append(None)
            match.players = (names[0], names[1])
            match.ratings = (ratings[0], ratings[1])

    # -- game records -------------------------------------------------------

    def moves(self, token: Token) -> None:
        """Read a run of move and result lines (one token, blank lines included)."""
        line = self.line(token) - 1
        for text in token.split("\n"):
            line += 1
            text = text.rstrip()
            if text and not self.record_line(text, line):
                return

    def record_line(self, text: str, line: int) -> bool:
        """Read the actions of one move or result line; False after an error.

        ``text`` has no trailing blanks.
        """
        game = self.game
        assert game is not None
        head = _MOVE_NUMBER.match(text)
        if head is not None:
            number: int | None = int(head.group(1))
            pos = head.end()
        else:
            number = None
            pos = 0
        append = game.actions.append
        path = self.path
        end = len(text)
        player: Player | None = None
        base = 0  # where the columns of the line are counted from: a glued move number starts them again
        while pos < end:
            found = _ACTION.match(text, pos)
            if found is None and player is not None:
                glued = self.glued(text, pos, line)
                if glued is not None:
                    found, base = glued
                    player = None
            if found is None:
                column = len(text) - len(text[pos:].lstrip()) + 1
                word = re.split(r"[ \t]{2}", text[column - 1 :], maxsplit=1)[0]
                self.fail(f"cannot read {word!r} as an action: {_ACTION_HINT}", line, column, text)
                return False
            kind = found.lastgroup
            assert kind is not None  # every alternative is a named group
            start = found.start(kind)
            pos = found.end()
            if kind == "illegal":
                # Snowie's "Illegal play (...)": kept as a comment; it takes no
                # column (it stands where the play of a roll would).
                assert self.match is not None
                self.match.comments.append(found.group(kind).strip())
                continue
            if player is None:
                player = _ONE if start - base >= RIGHT_COLUMN else _ZERO
            elif player is _ZERO:
                player = _ONE
            else:
                self.fail("more than one action in the right column of a line", line, start + 1, text)
                return False
            location = Location(path, line, start + 1)
            if kind == "roll":
                dice = _DICE[found.group("dice")]
                play = found.group("play")
                if play is None:
                    append(Action(_ROLL, player, location, number, dice, ""))
                elif play[0] in _SPECIAL_PLAY and (play.casefold() == _CANNOT_MOVE or not play.strip("?")):
                    # "Cannot Move": no play; "????": resigned without moving.
                    append(Action(_ROLL, player, location, number, dice, "", resigned=play[0] == "?"))
                else:
                    append(Action(_ROLL, player, location, number, dice, play))
            elif kind == "win":
                value = int(found.group("win_value"))
                won = found.group("and_match") is not None
                append(Action(_WIN, player, location, number, value=value, match_won=won))
                if self.loss_at is not None:
                    self.settle_forfeit(game, self.loss_at)
            elif kind in _PLAIN_KINDS:
                append(Action(_PLAIN_KINDS[kind], player, location, number))
            else:
                action_kind, group = _VALUE_KINDS[kind]
                if action_kind is _LOSS:
                    self.loss_at = len(game.actions)
                append(Action(action_kind, player, location, number, value=int(found.group(group))))
        return True

    def settle_forfeit(self, game: Game, loss_at: int) -> None:
        """Make a forfeit's ``Losses`` and ``Wins`` lines name two sides, when they name one; with a note.

        ``loss_at`` is where the game's last ``Losses`` action is in its actions
        (the ``Wins`` action is the last one).

        Backgammon Galaxy writes a forfeit as ``Losses N point`` and the
        winner's ``Wins N point``; on a line of its own (no move number) or
        glued into a move line, ``Losses`` does not stand in the loser's
        column. When both lines name the same side, the score decides who
        won: only a side that reaches the match length can win "and the
        match", and only one that does not can win without it. When the
        score tells nothing either, the ``Wins`` line says (gnubg reads only
        that line).
        """
        actions = game.actions
        win = actions[-1]
        if actions[loss_at].player != win.player or any(a.kind is _WIN for a in actions[:-1]):
            return
        match = self.match
        assert match is not None
        names = [name or f"player {side + 1}" for side, name in enumerate(match.players)]
        points = win.value or 0
        winner = _forfeit_winner(points, win.match_won, game.score, match.length)
        if winner is None:
            winner = win.player
            reason = "the score does not tell which; read as the 'Wins' line says, as gnubg does"
        else:
            what = "and the match" if win.match_won else "without winning the match"
            reason = (
                f"at {game.score[0]}-{game.score[1]} in a {match.length}-point match only {names[winner]} "
                f"can win {points} point{'s' if points != 1 else ''} {what}"
            )
        loss = actions[loss_at]
        actions[loss_at] = dataclasses.replace(loss, player=winner.other)
        actions[-1] = dataclasses.replace(win, player=winner)
        match.findings.append(
            Finding(
                Code.FORFEIT_SIDE,
                f"the 'Losses {loss.value}' and 'Wins {win.value}' lines name the same side; "
                f"read as {names[winner.other]} giving the game up to {names[winner]}: {reason}",
                loss.location,
                game=game.number,
                move=loss.move_number,
            )
        )

    def glued(self, text: str, pos: int, line: int) -> tuple[re.Match[str], int] | None:
        """The action after a second move number inside a line (``24)  Losses 2 point``), with a warning.

        Backgammon Galaxy sometimes writes a forfeit on the move line before
        it, number and all. The columns of the glued part count from its
        move number (``24)  Losses 2 point ... Wins 2 point`` is a line of
        its own, ``Losses`` in the left column); returned with the match is
        the position of that number.
        """
        number = _MOVE_NUMBER.match(text, pos)
        if number is None:
            return None
        found = _ACTION.match(text, number.end())
        if found is None:
            return None
        assert self.match is not None and found.lastgroup is not None
        self.match.findings.append(
            Finding(
                Code.GLUED_LINE,
                f"a second move number {number.group(1) + ')'!r} inside the line, as if two lines "
                f"were glued together; read {found.group(found.lastgroup).strip()!r} as the next action",
                Location(self.path, line, number.start(1) + 1),
                game=self.game.number if self.game else None,
                move=int(number.group(1)),
            )
        )
        return found, number.start(1)


def _forfeit_winner(points: int, match_won: bool, score: tuple[int, int], length: int) -> Player | None:
    """The one side that can have won ``points`` (and the match, or not) at ``score``; None when both or neither can.

    >>> _forfeit_winner(1, True, (0, 2), 3), _forfeit_winner(1, False, (0, 2), 3), _forfeit_winner(1, True, (2, 2), 3)
    (<Player.ONE: 1>, <Player.ZERO: 0>, None)
    """
    if not length:
        return None
    able = [side for side in (_ZERO, _ONE) if (score[side] + points >= length) == match_won]
    return able[0] if len(able) == 1 else None


def _first_column(text: str) -> int:
    """1-based column of the first non-blank character of a line."""
    return len(text) - len(text.lstrip()) + 1


FORMAT = Format("mat", (".mat", ".txt"), looks_like_mat, read_matches, lazy=True, title=".mat", claims=(".mat",))
"""This reader in the format registry (:mod:`tabla_cli.formats`)."""
