"""Read GNU Backgammon's text export (``export game text``) into the match model.

gnubg writes one file per game: the score line, optionally the match
information, then for every action a record with the board, its Position ID
and Match ID and the action (``* Bob moves 24/18 13/11``, ``* Bob doubles``,
``* Ann accepts``), followed by analysis; the result line ends the game and
statistics follow. Reading happens in two steps:

1. ``grammars/gnubg_text.lark`` (Lark, LALR, contextual lexer) checks the
   structure with whole-line tokens.
2. This module reads the score line, the match information, each record's
   header (``Move number 3:  Bob to play 62``), its two IDs and its action
   line, and the result. Boards, analysis and statistics are skipped.

Plays are kept as written (gnubg's compact notation, ``24/18(2) 13/1``,
``6/2*/1*``, ``bar/22``) and checked when the match is replayed. The reader
keeps no cube: a double's (beaver's, raccoon's) value is the one the next
record's header writes (``Bob doubles to 2``), none without such a record, and
a resignation's level is its points at the cube its record's Match ID prints.

Each record's IDs are kept as a :class:`PrintedPosition` so that a caller can
compare them with the IDs of the replayed positions: gnubg prints the
position before the action, seen from the player on roll, with the Match ID
of that moment (dice included for a roll).

Example:
    >>> text = '''The score (after 0 games) is: Ann 0, Bob 0 (match to 3 points)
    ...
    ... Move number 1:  Ann to play 31
    ...
    ...  GNU Backgammon  Position ID: 4HPwATDgc/ABMA
    ...                  Match ID   : MIDlAAAAAAAE
    ... Pip counts: O 167, X 167
    ...
    ... * Ann moves 8/5 6/5
    ...
    ... '''
    >>> export = parse_exports(text, path="g.txt")[0]
    >>> export.match.players, export.match.length, export.match.games[0].score
    (('Ann', 'Bob'), 3, (0, 0))
    >>> [(a.kind.value, int(a.player), a.dice, a.play_text) for a in export.match.games[0].actions]
    [('roll', 0, (3, 1), '8/5 6/5')]
    >>> export.positions[0].position_id, export.positions[0].match_id, str(export.positions[0].location)
    ('4HPwATDgc/ABMA', 'MIDlAAAAAAAE', 'g.txt:3:1')
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal, TextIO

from lark import Lark, Token, Tree

from tabla_cli.board import Dice, Player, Position
from tabla_cli.errors import InvalidIdError, Location, TranscriptSyntaxError
from tabla_cli.evaluation.recorded import RecordedAnalysis, parse_gnubg_text_analysis
from tabla_cli.evaluation.types import CubeAction
from tabla_cli.formats import Format
from tabla_cli.formats._syntax import ErrorHandler, normalise_newlines, parse_tree, read_handle, syntax_error
from tabla_cli.formats._tokens import NUMBER, dice
from tabla_cli.formats.mat_headers import said
from tabla_cli.grammar import load_grammar
from tabla_cli.model import Action, ActionKind, Game, Match, RuleSet
from tabla_cli.variant import VARIANTS

__all__ = [
    "ERROR_EXAMPLES",
    "GRAMMAR",
    "PrintedPosition",
    "RecordKind",
    "TextExport",
    "looks_like_gnubg_text",
    "parse_exports",
    "parse_matches",
    "read_exports",
    "read_matches",
]

GRAMMAR = "gnubg_text.lark"
"""File name of the grammar in ``grammars/``."""

RecordKind = Literal["roll", "cube", "take", "resign"]
"""What a record's header announces: ``to play DD``, ``on roll, cube decision?``,
``doubles to V`` (the answer to a double) or ``resigns N points``."""


def _examples() -> dict[str, list[str]]:
    """Malformed inputs for each label, in every shape of what comes before the error.

    ``match_examples`` compares the parser's stack depth, which depends on
    whether a blank line follows the score line, whether a match information
    block and earlier records come first, and whether lines follow the header.
    """
    score = "The score (after 0 games) is: A 0, B 0\n"
    header = "Move number 2:  A to play 31\n"
    ids = " GNU Backgammon  Position ID: 4HPwATDgc/ABMA\n                 Match ID   : MIDlAAAAAAAE\n"
    prefixes = [
        score + blank + info + earlier
        for blank in ("", "\n")
        for info in ("", "Match Information:\nDate: 1/2/2003\n\n")
        for earlier in ("", "Move number 1:  A to play 31\n\n" + ids + "* A moves 8/5 6/5\n\n")
    ]
    return {
        "no-score-line": ["", "\n", "hello\n", header],
        "no-ids": [prefix + header + tail for prefix in prefixes for tail in ("", "\nhello\n")],
        "no-match-id": [
            prefix + header + between + ids.split("\n")[0] + "\n" + tail
            for prefix in prefixes
            for between in ("", "\n")
            for tail in ("", "hello\n")
        ],
    }


ERROR_EXAMPLES: dict[str, list[str]] = _examples()
"""Labelled malformed inputs for ``UnexpectedInput.match_examples``."""

_LABEL_MESSAGES = {
    "no-score-line": "no game found: expected the line 'The score (after N games) is: ...' that opens a game",
    "no-ids": "a 'Move number' record without its 'Position ID' and 'Match ID' lines",
    "no-match-id": "expected the 'Match ID : ...' line after the 'Position ID' line",
}

_TERMINALS = {
    "SCORE": "the score line 'The score (after N games) is: ...'",
    "INFO": "'Match Information:'",
    "HEADER": "a record 'Move number N: ...'",
    "POSITION_ID": "the 'Position ID' line",
    "MATCH_ID": "the 'Match ID' line",
    "RESULT": "the result 'Name wins N points'",
    "OTHER": "a line",
    "$END": "the end of the input",
}

_SCORE = re.compile(
    # Atomic: when the rest fails after the first 'name score, ' it fails after any later one.
    r"The score \(after (?P<games>[0-9]{1,9}) games?\) is: (?>(?P<n0>.+?) (?P<s0>[0-9]{1,9}), )"
    r"(?P<n1>.+) (?P<s1>[0-9]{1,9})"
    r"(?: \(match to (?P<length>[0-9]{1,9}) points?\)(?P<flags>(?:, Crawford game|, post-Crawford play)*))?"
    r"\.?[ \t]*"
)
_HEADER = re.compile(r"Move number (?P<number>[0-9]{1,9}):[ \t]+(?P<rest>(?:.*[^ \t])?)[ \t]*")
_POSITION_ID = re.compile(r"[ \t]*GNU Backgammon[ \t]+Position ID[ \t]*:[ \t]*(?P<id>[A-Za-z0-9+/]{14})[ \t]*")
_MATCH_ID = re.compile(r"[ \t]*Match ID[ \t]*:[ \t]*(?P<id>[A-Za-z0-9+/]{12})[ \t]*")
_TO_PLAY = re.compile(f" to play {dice()}")
_DOUBLES_TO = re.compile(f" doubles to (?P<value>{NUMBER})")
_RESIGNS = re.compile(f" resigns (?P<value>{NUMBER}) points?")
_ON_ROLL = " on roll, cube decision?"
# The look-behind keeps the lazy name linear on long runs of blanks.
_RESULT = re.compile(r"(?P<name>.+?)(?<![ \t])[ \t]+wins[ \t]+(?P<value>[0-9]+)[ \t]+points?(?P<rest>.*)")
_ACTION_WORDS = re.compile(r"\* .*? (?:moves .*|cannot move|doubles|accepts|rejects)")
_RATING = re.compile(r"(?P<name>.+)'s rating: (?P<rating>.*)")
_INFO_HEADERS = {"Event": "Event", "Round": "Round", "Place": "Site", "Annotator": "Transcriber", "Date": "Date"}
_BOARD_LINE = re.compile(r"[ \t]*[v^]?[|+]")


@dataclass(frozen=True, slots=True)
class PrintedPosition:
    """The IDs gnubg printed for one record (one action) of its text export.

    Attributes:
        game: the game number (``Game.number``).
        move: the printed move number.
        kind: what the record's header announces.
        player: the player the header names: the roller, the player about to
            double, the doubler (``take``: the answer follows) or the
            resigner.
        dice: the roll of a ``roll`` record.
        position_id: the Position ID, seen from the player on roll.
        match_id: the Match ID of the position.
        location: the header line.
        action: the action the record describes (None when it has none).
    """

    game: int
    move: int
    kind: RecordKind
    player: Player
    dice: Dice | None
    position_id: str
    match_id: str
    location: Location
    action: Action | None


@dataclass(slots=True)
class TextExport:
    """One match read from a text export, with the IDs printed for it.

    Attributes:
        match: the match (normally one game).
        positions: the printed IDs, one per record, in file order.
        crawford: for each game, whether the score line says ``Crawford game``.
        post_crawford: for each game, whether it says ``post-Crawford play``.
    """

    match: Match
    positions: list[PrintedPosition] = field(default_factory=list)
    crawford: list[bool] = field(default_factory=list)
    post_crawford: list[bool] = field(default_factory=list)


@functools.cache
def _parser() -> Lark:
    """The parser, built once per process."""
    return load_grammar(GRAMMAR, parser="lalr", propagate_positions=False)


def looks_like_gnubg_text(text: str) -> bool:
    """Whether ``text`` looks like a gnubg text export: it starts with its score line.

    >>> looks_like_gnubg_text("The score (after 0 games) is: Ann 0, Bob 0 (match to 3 points)\\n")
    True
    >>> looks_like_gnubg_text(" 3 point match\\n")
    False
    """
    return text[:4096].lstrip("\ufeff \t\r\n").startswith("The score (after ")


def read_matches(handle: TextIO, *, path: str = "<stdin>", on_error: ErrorHandler | None = None) -> Iterator[Match]:
    """Every match in a gnubg text export stream (one game per file as gnubg writes it).

    Consecutive games with the same players and match length form one match.

    Args:
        handle: text stream; a leading BOM is ignored.
        path: the name used in every :class:`Location`.
        on_error: called with an error in a record or result line instead of
            raising it; that game keeps the actions read before the bad record
            and reading goes on with the next game. Errors in the structure
            and in the score line are raised either way.

    Yields:
        Each match, with ``format='gnubg-text'``.

    Raises:
        TranscriptSyntaxError: the text is not a gnubg text export, or a line
            of it cannot be read.
        InputError: the stream cannot be decoded.
    """
    for export in read_exports(handle, path=path, on_error=on_error):
        yield export.match


def parse_matches(text: str, *, path: str = "<string>", on_error: ErrorHandler | None = None) -> Iterator[Match]:
    """Every match in ``text``; see :func:`read_matches`."""
    for export in parse_exports(text, path=path, on_error=on_error):
        yield export.match


def read_exports(handle: TextIO, *, path: str = "<stdin>", on_error: ErrorHandler | None = None) -> list[TextExport]:
    """Every match of a text export stream with the IDs printed for it.

    Raises:
        TranscriptSyntaxError: see :func:`read_matches`.
        InputError: the stream cannot be decoded.
    """
    text = read_handle(handle, path)
    return parse_exports(text, path=path, on_error=on_error)


def parse_exports(text: str, *, path: str = "<string>", on_error: ErrorHandler | None = None) -> list[TextExport]:
    """Every match in ``text`` with its printed IDs; see :func:`read_exports`."""
    text = normalise_newlines(text)
    parser = _parser()
    tree = parse_tree(
        parser,
        text,
        path,
        "the text export",
        lambda exc: _near_record(
            syntax_error(exc, text, path, parser, ERROR_EXAMPLES, _LABEL_MESSAGES, _TERMINALS), text
        ),
    )
    reader = _Reader(path, on_error)
    for child in tree.children:
        if isinstance(child, Tree):
            reader.game(child)
    return reader.exports


# --------------------------------------------------------------------------
# Internals


def _near_record(error: TranscriptSyntaxError, text: str) -> TranscriptSyntaxError:
    """Point a 'record without IDs' error at the record's header line."""
    if error.message.startswith(_LABEL_MESSAGES["no-ids"]) and error.location is not None:
        lines = text.split("\n")
        for number in range(min(error.location.line, len(lines)), 0, -1):
            if lines[number - 1].startswith("Move number "):
                return TranscriptSyntaxError(
                    _LABEL_MESSAGES["no-ids"], Location(error.location.path, number, 1), lines[number - 1]
                )
    return error


_CUBE_ACTIONS = {" doubles": CubeAction.DOUBLE, " accepts": CubeAction.TAKE, " rejects": CubeAction.PASS}
"""The cube action an action line's phrase makes (a roll: no double)."""


def _without_cube(recorded: RecordedAnalysis | None) -> RecordedAnalysis | None:
    """The analysis of a beaver or raccoon, or its answer, without its cube analysis.

    GNU Backgammon leaves those decisions out of its statistics.
    """
    if recorded is None or recorded.cube is None:
        return recorded
    return dataclasses.replace(recorded, cube=None, cube_action=None)


_CUBE_KINDS = frozenset((ActionKind.DOUBLE, ActionKind.BEAVER, ActionKind.RACCOON))


def _level(points: int, match_id: str) -> int:
    """The level (1, 2, 3) of a resignation of ``points`` at the cube the record's Match ID prints; 0: not one."""
    from tabla_cli.ids import decode_match_id

    try:
        cube = decode_match_id(match_id, strict=False).cube
    except InvalidIdError:
        return 0
    level, rest = divmod(points, cube)
    return level if not rest and level in (1, 2, 3) else 0


def _crawford_game(crawford: bool, post_crawford: bool) -> bool | None:
    """What a score line says of its game: gnubg writes ``Crawford game`` or ``post-Crawford play`` at a score
    one point from the end under the Crawford rule; None when it writes neither."""
    if crawford or post_crawford:
        return crawford
    return None


def _line(token: Token) -> str:
    return token.rstrip("\n").rstrip()


class _Reader:
    """Builds matches from the parse tree, game by game."""

    def __init__(self, path: str, on_error: ErrorHandler | None = None) -> None:
        self.path = path
        self.on_error = on_error
        self.exports: list[TextExport] = []

    def fail(self, message: str, token: Token, column: int = 1) -> TranscriptSyntaxError:
        return TranscriptSyntaxError(message, Location(self.path, token.line or 0, column), _line(token))

    def where(self, token: Token) -> Location:
        return Location(self.path, token.line or 0, token.column or 1)

    # -- games -------------------------------------------------------------------

    def game(self, tree: Tree[Token]) -> None:
        children = tree.children
        score = children[0]
        assert isinstance(score, Token) and score.type == "SCORE"
        found = _SCORE.fullmatch(_line(score))
        if found is None:
            raise self.fail(
                "cannot read the score line: expected 'The score (after N games) is: "
                "Name s0, Name s1 (match to L points)'",
                score,
            )
        players = (found.group("n0").strip(), found.group("n1").strip())
        length = int(found.group("length") or 0)
        flags = found.group("flags") or ""
        export = self.exports[-1] if self.exports else None
        if export is None or export.match.players != players or export.match.length != length:
            match = Match(
                players=players,
                length=length,
                path=self.path,
                format="gnubg-text",
                location=self.where(score),
                marks_hits=True,
            )
            export = TextExport(match)
            self.exports.append(export)
        match = export.match
        game = Game(
            number=int(found.group("games")) + 1,
            score=(int(found.group("s0")), int(found.group("s1"))),
            location=self.where(score),
        )
        export.crawford.append("Crawford game" in flags)
        export.post_crawford.append("post-Crawford" in flags)
        if not match.games and (game.number > 1 or game.score != (0, 0)):
            # The games before this one are not in the file: the score line's word is all the replay has
            # to tell the Crawford game from a game after it (elsewhere the replay counts the games).
            game.crawford = _crawford_game(export.crawford[-1], export.post_crawford[-1])
        match.games.append(game)
        state = _GameState(self, export, game)
        try:
            for child in children[1:]:
                if isinstance(child, Tree):
                    if child.data == "info":
                        self.info(match, child)
                    elif child.data == "record":
                        state.record(child)
                    elif child.data == "result":
                        state.result(child)
        except TranscriptSyntaxError as error:
            if self.on_error is None:
                raise
            self.on_error(error)
        match.rules = said(match.rules, match.headers)

    def info(self, match: Match, tree: Tree[Token]) -> None:
        """The 'Match Information:' block: lines up to the first blank line after one."""
        ratings: list[str | None] = list(match.ratings)
        seen_text = False
        lines = str(tree.children[1]).split("\n") if len(tree.children) > 1 else []
        for raw in lines:
            line = raw.rstrip()
            if not line:
                if seen_text:
                    break
                continue
            seen_text = True
            rating = _RATING.fullmatch(line)
            if rating is not None and rating.group("name") in match.players:
                ratings[match.players.index(rating.group("name"))] = rating.group("rating").strip()
                continue
            key, sep, value = line.partition(":")
            if sep and key == "Comments":
                if value.strip():
                    match.comments.append(value.strip())
            elif sep and key in _INFO_HEADERS and value.strip():
                match.headers.append((_INFO_HEADERS[key], value.strip()))
            elif match.comments and not sep:
                match.comments.append(line.strip())  # a comment continued on the next line
        match.ratings = (ratings[0], ratings[1])


class _GameState:
    """Reads the records of one game."""

    def __init__(self, reader: _Reader, export: TextExport, game: Game) -> None:
        self.r = reader
        self.export = export
        self.match = export.match
        self.game = game
        # The kind and player of the last '* Name doubles' line that no roll or answer has followed:
        # gnubg writes a beaver (raccoon) as a 'doubles' answering one. No values: the replay's cube has them.
        self.exchange: tuple[ActionKind, Player] | None = None
        self.first = True

    def name_player(self, text: str, token: Token, column: int) -> tuple[Player, str]:
        """The player whose name starts ``text``, and the rest of ``text``."""
        players = self.match.players
        for index in sorted((0, 1), key=lambda i: -len(players[i])):
            name = players[index]
            if text.startswith(name) and (len(text) == len(name) or text[len(name)] == " "):
                return Player(index), text[len(name) :]
        raise self.r.fail(
            f"{text.split(' ')[0]!r} is not one of the players ({players[0]}, {players[1]})", token, column
        )

    # -- records -------------------------------------------------------------------

    def record(self, tree: Tree[Token]) -> None:
        tokens = [t for t in tree.children if isinstance(t, Token)]
        header = tokens[0]
        found = _HEADER.fullmatch(_line(header))
        if found is None:
            raise self.r.fail("cannot read the record header: expected 'Move number N:  Name ...'", header)
        number = int(found.group("number"))
        rest = found.group("rest")
        column = found.start("rest") + 1
        position_token = next(t for t in tokens if t.type == "POSITION_ID")
        match_token = next(t for t in tokens if t.type == "MATCH_ID")
        position_id = _POSITION_ID.fullmatch(_line(position_token))
        if position_id is None:
            raise self.r.fail("the Position ID must be 14 characters of A-Z, a-z, 0-9, + and /", position_token)
        match_id = _MATCH_ID.fullmatch(_line(match_token))
        if match_id is None:
            raise self.r.fail("the Match ID must be 12 characters of A-Z, a-z, 0-9, + and /", match_token)
        player, phrase = self.name_player(rest, header, column)
        kind: RecordKind
        dice: Dice | None = None
        value = 0
        if (roll := _TO_PLAY.fullmatch(phrase)) is not None:
            kind, dice = "roll", (int(roll.group("d1")), int(roll.group("d2")))
        elif phrase == _ON_ROLL:
            kind = "cube"
        elif (doubles := _DOUBLES_TO.fullmatch(phrase)) is not None:
            kind, value = "take", int(doubles.group("value"))
        elif (resigns := _RESIGNS.fullmatch(phrase)) is not None:
            kind, value = "resign", int(resigns.group("value"))
        else:
            raise self.r.fail(
                f"cannot read {phrase.strip()!r}: expected 'to play DD', 'on roll, cube decision?', "
                "'doubles to N' or 'resigns N points'",
                header,
                column + len(rest) - len(phrase) + 1,
            )
        if kind == "take":
            self.offered(player, value)
        elif kind == "resign":
            value = _level(value, match_id.group("id"))
        body = tokens[tokens.index(match_token) + 1 :]
        action = self.action(kind, player, dice, value, number, header, body)
        if self.first:
            self.first = False
            self.start(position_id.group("id"), match_id.group("id"), number, match_token)
        self.export.positions.append(
            PrintedPosition(
                game=self.game.number,
                move=number,
                kind=kind,
                player=player,
                dice=dice,
                position_id=position_id.group("id"),
                match_id=match_id.group("id"),
                location=self.r.where(header),
                action=action,
            )
        )

    @staticmethod
    def action_line(body: list[Token]) -> Token | None:
        """The first line after the board ('* Name moves ...'), if the record has one.

        ``body`` holds the run of lines after the Match ID (board, pip counts,
        action, analysis) or nothing.
        """
        if not body:
            return None
        run = body[0]
        text = str(run)
        if text.startswith("Pip counts:"):
            start = 0
        else:
            start = text.find("\nPip counts:") + 1
        if start or text.startswith("Pip counts:"):
            start = text.find("\n", start) + 1  # the line after the pip counts
        else:  # no pip counts: the board ends at the first other line
            start = 0
            while start < len(text):
                end = text.find("\n", start)
                line = text[start:end]
                if line.strip() and not _BOARD_LINE.match(line):
                    break
                start = end + 1
        while start < len(text):
            end = text.find("\n", start)
            line = text[start:end].rstrip()
            if line:
                if not _ACTION_WORDS.fullmatch(line):
                    return None
                number = (run.line or 0) + text.count("\n", 0, start)
                return Token(
                    "ACTION", text[start : end + 1], start_pos=(run.start_pos or 0) + start, line=number, column=1
                )
            start = end + 1
        return None

    def action(
        self,
        kind: RecordKind,
        player: Player,
        dice: Dice | None,
        value: int,
        number: int,
        header: Token,
        body: list[Token],
    ) -> Action | None:
        game = self.game
        token = self.action_line(body)
        if token is None:
            if kind == "roll":
                action = Action(ActionKind.ROLL, player, self.r.where(header), number, dice, "")
                game.actions.append(action)
                return action
            if kind == "resign":
                action = Action(ActionKind.RESIGN, player, self.r.where(header), number, value=value or None)
                game.actions.append(action)
                return action
            return None
        line = _line(token)
        actor, phrase = self.name_player(line[2:], token, 3)
        location = Location(self.r.path, token.line or 0, 1)
        run = body[0]
        after = str(run)[(token.start_pos or 0) - (run.start_pos or 0) + len(token) :]
        recorded = parse_gnubg_text_analysis(after, _CUBE_ACTIONS.get(phrase, CubeAction.NO_DOUBLE))
        if kind == "roll":
            if actor != player:
                raise self.r.fail(f"the record is {self.match.players[player]}'s roll", token, 3)
            if phrase.startswith(" moves "):
                play = phrase[len(" moves ") :].strip()
            elif phrase == " cannot move":
                play = ""
            else:
                raise self.r.fail(f"expected '{self.match.players[player]} moves ...' after a roll", token, 3)
            action = Action(ActionKind.ROLL, player, location, number, dice, play, analysis=recorded)
            self.exchange = None
        elif phrase == " doubles":
            action = self.double(actor, location, number, recorded)
        elif phrase in (" accepts", " rejects"):
            answer = self.answer(
                ActionKind.TAKE if phrase == " accepts" else ActionKind.DROP, actor, location, number, recorded
            )
            if answer is None:
                return None
            action = answer
        else:
            raise self.r.fail(f"{phrase.strip()!r} does not answer the record's header", token, 3)
        game.actions.append(action)
        return action

    def double(self, player: Player, location: Location, number: int, recorded: RecordedAnalysis | None) -> Action:
        """A ``doubles`` line: a double, or, answering the other player's double (beaver), a beaver (raccoon).

        The line writes no value; the next record's header (``Name doubles to V``) does (:meth:`offered`).
        """
        exchange = self.exchange
        kind = ActionKind.DOUBLE
        if exchange is not None and exchange[1] != player:
            kind = ActionKind.BEAVER if exchange[0] is ActionKind.DOUBLE else ActionKind.RACCOON
            recorded = _without_cube(recorded)
        self.exchange = (kind, player)
        return Action(kind, player, location, number, analysis=recorded)

    def offered(self, doubler: Player, value: int) -> None:
        """A record ``doubler doubles to value``: the value of the double (beaver, raccoon) just written."""
        actions = self.game.actions
        last = actions[-1] if actions else None
        if last is None or last.player != doubler or last.value is not None or last.kind not in _CUBE_KINDS:
            return
        actions[-1] = dataclasses.replace(last, value=value)
        positions = self.export.positions
        if positions and positions[-1].action is last:
            positions[-1] = dataclasses.replace(positions[-1], action=actions[-1])

    def answer(
        self, kind: ActionKind, player: Player, location: Location, number: int, recorded: RecordedAnalysis | None
    ) -> Action | None:
        """An ``accepts`` or ``rejects`` line; None when it accepts a beaver or raccoon (the beaver was a take)."""
        exchange, self.exchange = self.exchange, None
        if exchange is not None and exchange[1] != player and exchange[0] is not ActionKind.DOUBLE:
            if kind is ActionKind.TAKE:
                return None
            recorded = _without_cube(recorded)
        return Action(kind, player, location, number, analysis=recorded)

    def start(self, position_id: str, match_id: str, number: int, token: Token) -> None:
        """A game that does not start from the opening position or a centred cube of 1."""
        from tabla_cli.ids import decode_match_id, decode_position_id

        if number != 1:
            return
        try:
            state = decode_match_id(match_id, strict=False)
            position = decode_position_id(position_id)
        except InvalidIdError as exc:
            raise self.r.fail(exc.message, token) from None
        if state.dice_owner is Player.ONE:
            position = position.flip()
        if state.cube > 1 or state.cube_owner is not None:
            self.game.start_cube = (state.cube, state.cube_owner)
        if not self.match.length and len(self.match.games) == 1:
            self.match.rules = RuleSet(jacoby=state.jacoby, beaver=True)
        if position == Position.start():
            return
        for variant in VARIANTS:
            if position == variant.start_position():
                if len(self.match.games) == 1:
                    self.match.variant = variant.name
                else:
                    self.game.variant = variant.name
                return
        self.game.start = position

    def result(self, tree: Tree[Token]) -> None:
        token = tree.children[0]
        assert isinstance(token, Token)
        line = _line(token)
        found = _RESULT.fullmatch(line)
        if found is None:
            raise self.r.fail("cannot read the result line: expected 'Name wins N points'", token)
        if len(found.group("value")) > 9:
            raise self.r.fail(f"{found.group('value')[:20]}... points is too large a win", token)
        player, rest = self.name_player(line, token, 1)
        if not rest.lstrip().startswith("wins"):
            raise self.r.fail(f"{found.group('name')!r} is not one of the players", token)
        self.game.actions.append(
            Action(
                ActionKind.WIN,
                player,
                Location(self.r.path, token.line or 0, 1),
                value=int(found.group("value")),
                match_won="and the match" in found.group("rest"),
            )
        )


FORMAT = Format("gnubg-text", (".txt",), looks_like_gnubg_text, read_matches, title="GNU Backgammon text export")
"""This reader in the format registry (:mod:`tabla_cli.formats`)."""
