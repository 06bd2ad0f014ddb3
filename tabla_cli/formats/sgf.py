"""Read GNU Backgammon's SGF match files (``GM[6]``) into the match model.

The dialect is summed up in ``docs/formats.md``. Reading
happens in two steps:

1. ``grammars/sgf.lark`` (Lark, LALR) checks the tree structure; each
   property with all its values is one token, so gnubg's large analysis
   properties (``A``, ``DA``, ``GS`` ...) cost one regular-expression match
   each and are never split.
2. This module reads the properties it needs: the root's match information
   (``MI``, ``PW``/``PB``, ``RU``, ``RE``, ``DT`` ...) and one action per
   move node (``B[...]``/``W[...]``: a roll with its checker moves, ``double``,
   ``take``, ``drop``), set-up nodes (``AE``/``AW``/``AB``, ``CV``/``CP``: the
   game's start before the first move, a SETUP action inside the game) and
   gnubg's roll-only nodes (``PL`` and ``DI``: a roll whose play is not written).

White (``W``, ``PW``) is player 0 and Black player 1. Checker moves, written
as letter pairs in White's absolute numbering, become plain numeric plays
from the mover's side (``13/9 24/23``) in :attr:`Action.play_text`; they are
checked later, when the match is replayed. A resignation is only the ``R``
of ``RE``: it becomes a bare ``WIN`` action, as a ``.mat`` file writes it.

The reader says only what the file writes: a double carries no value (SGF
writes none), and the reader keeps no board and no cube. The replay, the one
owner of game state, gives the cube's values and resolves the roll gnubg may
write without moves after the last move (:attr:`~tabla_cli.model.Game.trailing_roll`).
gnubg's analysis properties are read by :mod:`tabla_cli.formats.sgf_analysis`.

Example:
    >>> import io
    >>> text = '''(;FF[4]GM[6]CA[UTF-8]MI[length:3][game:0][ws:0][bs:0]PW[Petar]PB[Maria]RU[Crawford]RE[W+1]
    ... ;W[31hefe]
    ... ;B[62agln]
    ... ;W[double]
    ... ;B[drop])'''
    >>> match = next(read_matches(io.StringIO(text), path="m.sgf"))
    >>> match.players, match.length, match.rules.crawford
    (('Petar', 'Maria'), 3, True)
    >>> [(a.kind.value, int(a.player), a.dice, a.play_text, a.value) for a in match.games[0].actions]
    [('roll', 0, (3, 1), '8/5 6/5', None), ('roll', 1, (6, 2), '24/18 13/11', None), ('double', 0, None, None, None), ('drop', 1, None, None, None), ('win', 0, None, None, 1)]
    >>> str(match.games[0].actions[1].location)
    'm.sgf:3:2'
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TextIO

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput

from tabla_cli.board import BAR, OFF, Dice, Player, Position, Step
from tabla_cli.errors import Location, RuleError, TranscriptSyntaxError, UnsupportedFormatError
from tabla_cli.evaluation.recorded import read_written_cube
from tabla_cli.formats import Format
from tabla_cli.formats._sgf_values import letter_point, point_letter, unescape
from tabla_cli.formats._syntax import ErrorHandler, line_of, normalise_newlines, parse_tree, read_stream, syntax_error
from tabla_cli.formats._tokens import DIE
from tabla_cli.formats.mat_headers import said
from tabla_cli.formats.sgf_analysis import cube_made, move_analysis, with_written_cube
from tabla_cli.grammar import load_grammar
from tabla_cli.model import Action, ActionKind, Game, Match, RuleSet, SetUp
from tabla_cli.notation import format_play_plain
from tabla_cli.variant import Variant, find_variant

__all__ = [
    "ERROR_EXAMPLES",
    "GRAMMAR",
    "HEADER_PROPERTIES",
    "RULE_WORDS",
    "VARIANT_WORDS",
    "looks_like_sgf",
    "parse_matches",
    "point_letter",
    "letter_point",
    "read_matches",
]

GRAMMAR = "sgf.lark"
"""File name of the grammar in ``grammars/``."""

HEADER_PROPERTIES: dict[str, str] = {
    "PC": "Site",
    "EV": "Event",
    "RO": "Round",
    "AN": "Transcriber",
    "DT": "EventDate",
}
"""Root properties kept as match headers, with the ``.mat`` header key each maps to.

``DT[2025-11-08]`` becomes ``EventDate`` ``2025.11.08`` (``.mat`` date form).
"""

VARIANT_WORDS: dict[str, str] = {
    "nackgammon": "Nackgammon",
    "hypergammon": "Hypergammon3",
    "hypergammon2": "Hypergammon2",
    "hypergammon1": "Hypergammon1",
}
"""Each variant's name with the ``RU`` word that selects it (the word the SGF writer writes)."""

RULE_WORDS: dict[str, str] = {word: name for name, word in VARIANT_WORDS.items()} | {"Hypergammon": "hypergammon"}
"""``RU`` words that select a variant, with the variant's name: :data:`VARIANT_WORDS` read back, and
``Hypergammon`` (three checkers, as ``Hypergammon3``)."""

ERROR_EXAMPLES: dict[str, list[str]] = {
    "empty": ["", "\n"],
    "no-node": ["()", "(())"],
    "unclosed-tree": ["(;FF[4]", "(;FF[4];B[31hefe]", "(;FF[4](;B[31])"],
    "outside-tree": ["(;FF[4]);", "(;FF[4]))", "(;FF[4])\n;B[31]", "(;FF[4])(;FF[4]))"],
    "node-outside-tree": [";FF[4]", ";"],
}
"""Labelled malformed inputs for ``UnexpectedInput.match_examples``.

Errors inside a node (an unclosed ``[``, a property without a value, a
property outside a node) are found by the lexer and described by
:func:`_lexer_message`.
"""

_LABEL_MESSAGES = {
    "empty": "no SGF game tree found: expected '(;'",
    "no-node": "a game tree must start with a node ';'",
    "unclosed-tree": "a game tree is not closed: expected ')'",
    "outside-tree": "text outside a game tree: expected '(' to start the next game tree",
    "node-outside-tree": "a node outside a game tree: expected '(' before ';'",
}

_TERMINALS = {
    "LPAR": "'('",
    "RPAR": "')'",
    "SEMICOLON": "';'",
    "NODE": "a node ';ID[value]...'",
    "$END": "the end of the input",
}

_WHITE, _BLACK = Player.ZERO, Player.ONE
_COLOURS = {"W": _WHITE, "B": _BLACK}
_IDENT = re.compile(r"[A-Za-z]+")
_PROPERTY = re.compile(r"(?<![A-Za-z])([A-Za-z]++)\s*+(?:\[[^\]\\]*+(?:\\[\s\S][^\]\\]*+)*+\]\s*+)++")
_VALUE = re.compile(r"\[([^\]\\]*+(?:\\[\s\S][^\]\\]*+)*+)\]")
_ROLL = re.compile(f"({DIE})({DIE})([a-z]*)")
_RESULT = re.compile(r"([WB])\+([0-9]{0,9})(R|Resign)?", re.IGNORECASE)
_DATE = re.compile(r"([0-9]{4})[-.]([0-9]{1,2})[-.]([0-9]{1,2})")
_MOVE_PROPS = frozenset({"B", "W"})
_SETUP_PROPS = frozenset({"AE", "AW", "AB", "CV", "CP"})
_CUBE_WORDS = {"double": ActionKind.DOUBLE, "take": ActionKind.TAKE, "drop": ActionKind.DROP}


@functools.cache
def _parser() -> Lark:
    """The parser, built once per process."""
    return load_grammar(GRAMMAR, parser="lalr", propagate_positions=False)


def looks_like_sgf(text: str) -> bool:
    """Whether ``text`` looks like an SGF file: it starts with ``(`` and ``;``.

    The game type is checked when reading: an SGF file of another game
    (``GM[1]`` is Go) raises :class:`UnsupportedFormatError` there.

    >>> looks_like_sgf("\\ufeff (;FF[4]GM[6])")
    True
    >>> looks_like_sgf(" 5 point match")
    False
    """
    head = text[:4096].lstrip("\ufeff \t\r\n")
    return head.startswith("(") and head[1:].lstrip(" \t\r\n").startswith(";")


def read_matches(
    handle: TextIO, *, path: str = "<stdin>", on_error: ErrorHandler | None = None, analysis: bool = True
) -> Iterator[Match]:
    """Every match in an SGF text stream: :func:`parse_matches` of all its text.

    Raises:
        InputError: the stream cannot be decoded (besides what :func:`parse_matches` raises).
    """
    return read_stream(functools.partial(parse_matches, analysis=analysis), handle, path, on_error)


def parse_matches(
    text: str, *, path: str = "<string>", on_error: ErrorHandler | None = None, analysis: bool = True
) -> Iterator[Match]:
    """Every match in an SGF text (normally one per file), parsed whole before the first is yielded.

    Game trees whose players or match length differ from the previous tree's
    start a new match.

    Args:
        text: the text; a leading BOM is ignored.
        path: the name used in every :class:`Location`.
        on_error: called with an error in a game tree's properties (a move,
            ``MI``, ``RE``, a set-up node) instead of raising it; that game
            keeps the actions read before the bad node (and no result) and
            reading goes on with the next game tree. Errors in the tree
            structure are raised either way.
        analysis: read gnubg's analysis (``A``, ``LU``, ``DA``) into each
            action's :attr:`~tabla_cli.model.Action.analysis`; without it the
            actions carry none (reading it is most of the work on an analysed file).

    Yields:
        Each match, with ``format='sgf'``.

    Raises:
        TranscriptSyntaxError: the text is not well-formed SGF, or a value
            gnubg's dialect defines cannot be read.
        RuleError: a set-up node describes an impossible position.
        UnsupportedFormatError: the file is SGF of another game than backgammon.
    """
    text = normalise_newlines(text)
    parser = _parser()
    tree = parse_tree(parser, text, path, "the SGF file", lambda exc: _parse_error(exc, text, path, parser))
    games = [_main_line(child) for child in tree.children if isinstance(child, Tree)]
    yield from _Reader(text, path, on_error, analysis).matches(games)


# --------------------------------------------------------------------------
# Internals


def _parse_error(exc: UnexpectedInput, text: str, path: str, parser: Lark) -> TranscriptSyntaxError:
    error = syntax_error(exc, text, path, parser, ERROR_EXAMPLES, _LABEL_MESSAGES, _TERMINALS)
    if isinstance(exc, UnexpectedCharacters):
        error = TranscriptSyntaxError(_lexer_message(text, exc.pos_in_stream or 0), error.location, error.context)
    return error


def _lexer_message(text: str, position: int) -> str:
    """Why the text at ``position`` is not a token."""
    if _PROPERTY.match(text, position) is not None:
        return "a property outside a node: expected ';' (or '(;' to start a game tree) before it"
    ident = _IDENT.match(text, position)
    if ident is not None:
        name = ident.group()
        if not text[ident.end() :].lstrip().startswith("["):
            return f"property {name!r} has no value: expected '{name}[...]'"
        return f"the value of property {name!r} is not closed: expected ']'"
    if text.startswith("[", position):
        return "a value '[...]' without a property name"
    return f"unexpected character {text[position : position + 1]!r}: expected '(', ';', ')' or a property 'ID[value]'"


def _main_line(tree: Tree[Token]) -> list[Token]:
    """The nodes of a game tree along its main line (first variation)."""
    nodes: list[Token] = []
    current: Tree[Token] | None = tree
    while current is not None:
        following: Tree[Token] | None = None
        for child in current.children:
            if isinstance(child, Token):
                nodes.append(child)
            elif following is None:
                following = child
        current = following
    return nodes


@dataclass(slots=True)
class _Property:
    """One property of a node: its identifier and where its text is in the node token."""

    ident: str
    node: Token
    start: int
    end: int
    _values: list[str] | None = None

    @property
    def values(self) -> list[str]:
        """The raw (still escaped) values, read on first use."""
        if self._values is None:
            self._values = _VALUE.findall(self.node, self.node.find("[", self.start), self.end)
        return self._values

    def text(self) -> str:
        """The first value, unescaped, surrounding blanks removed."""
        return unescape(self.values[0]).strip()

    def value_offset(self, index: int) -> int:
        """Offset in the node token of value ``index`` (1-based; 0 = the property itself)."""
        if index:
            found = list(_VALUE.finditer(self.node, self.start, self.end))
            if index <= len(found):
                return found[index - 1].start()
        return self.start


def _properties(node: Token) -> list[_Property]:
    out: list[_Property] = []
    for found in _PROPERTY.finditer(node):
        ident = found.group(1)
        if not ident.isupper():
            ident = "".join(c for c in ident if c.isupper())
        out.append(_Property(ident, node, found.start(), found.end()))
    return out


@dataclass(slots=True)
class _GameInfo:
    """What the root node of one game tree says."""

    location: Location
    players: tuple[str | None, str | None] = (None, None)
    length: int | None = None
    number: int | None = None
    score: tuple[int, int] = (0, 0)
    rules: list[str] = field(default_factory=list)
    result: tuple[Player, int | None, bool] | None = None
    result_location: Location | None = None
    cube: int | None = None
    headers: list[tuple[str, str]] = field(default_factory=list)
    ratings: tuple[str | None, str | None] = (None, None)
    comments: list[str] = field(default_factory=list)


class _Reader:
    """Turns the main lines of the game trees of one text into matches."""

    def __init__(self, text: str, path: str, on_error: ErrorHandler | None = None, analysis: bool = True) -> None:
        self.text = text
        self.path = path
        self.on_error = on_error
        self.analysis = analysis

    # -- errors and locations -------------------------------------------------

    def where(self, prop: _Property, index: int = 0) -> Location:
        """The location of ``prop``, or of its ``index``-th value when ``index`` > 0."""
        node = prop.node
        offset = prop.value_offset(index)
        newlines = node.count("\n", 0, offset)
        if newlines:
            return Location(self.path, (node.line or 0) + newlines, offset - node.rfind("\n", 0, offset))
        return Location(self.path, node.line or 0, (node.column or 1) + offset)

    def fail(self, message: str, prop: _Property, index: int = 0) -> TranscriptSyntaxError:
        location = self.where(prop, index)
        return TranscriptSyntaxError(message, location, line_of(self.text, location.line).rstrip())

    # -- matches ---------------------------------------------------------------

    def matches(self, games: list[list[Token]]) -> Iterator[Match]:
        match: Match | None = None
        for nodes in games:
            props = _properties(nodes[0])
            try:
                info = self.root(nodes[0], props)
            except TranscriptSyntaxError as error:
                if self.on_error is None:
                    raise
                self.on_error(error)
                if match is not None:
                    where = error.location or Location(self.path)
                    match.games.append(Game(len(match.games) + 1, (0, 0), location=where))
                continue
            # A root without PW/PB or MI (gnubg writes them in every root) keeps the match's.
            known = match.players if match is not None else ("", "")
            players = (
                info.players[0] if info.players[0] is not None else known[0],
                info.players[1] if info.players[1] is not None else known[1],
            )
            length = info.length if info.length is not None else (match.length if match is not None else 0)
            if match is not None and (match.players != players or match.length != length):
                yield match
                match = None
            if match is None:
                match = Match(
                    players=players,
                    length=length,
                    path=self.path,
                    format="sgf",
                    location=info.location,
                )
                self.start_match(match, info)
            else:
                self.merge_root(match, info)
            variant = self.variant(info)
            game = Game(
                number=info.number + 1 if info.number is not None else len(match.games) + 1,
                score=info.score,
                location=info.location,
            )
            if variant != match.variant:
                game.variant = variant
            if not match.games and (info.number or info.score != (0, 0)):
                # The games before this one are not in the file: its word is all the replay has to tell
                # the Crawford game from a game after it (elsewhere the replay counts the games).
                game.crawford = _crawford_game(info, length)
            match.games.append(game)
            reader = _GameReader(self, game, info, find_variant(variant))
            try:
                reader.read(nodes)
            except TranscriptSyntaxError as error:
                if self.on_error is None:
                    raise
                self.on_error(error)
        if match is not None:
            yield match

    def start_match(self, match: Match, info: _GameInfo) -> None:
        match.headers = list(info.headers)
        match.ratings = info.ratings
        match.comments = list(info.comments)
        words = set(info.rules)
        default = RuleSet()
        match.rules = RuleSet(
            crawford="Crawford" in words if match.length else default.crawford,
            jacoby="Jacoby" in words,
            beaver=not match.length,  # gnubg writes no beaver rule; money play allows them
            cube_limit=default.cube_limit,
            cube="NoCube" not in words,
        )
        match.variant = self.variant(info)
        match.rules = said(match.rules, match.headers)

    def merge_root(self, match: Match, info: _GameInfo) -> None:
        """Match information that gnubg writes in the first game only, if a later game has it."""
        known = {key for key, _ in match.headers}
        match.headers.extend((k, v) for k, v in info.headers if k not in known)
        match.rules = said(match.rules, match.headers)
        if match.ratings == (None, None):
            match.ratings = info.ratings
        if not match.comments:
            match.comments = list(info.comments)

    @staticmethod
    def variant(info: _GameInfo) -> str:
        for word in info.rules:
            if word in RULE_WORDS:
                return RULE_WORDS[word]
        return ""

    # -- the root node -----------------------------------------------------------

    def root(self, node: Token, props: list[_Property]) -> _GameInfo:
        if props:
            location = self.where(props[0])
        else:
            location = Location(self.path, node.line or 0, node.column or 0)
        info = _GameInfo(location)
        players: list[str | None] = [None, None]
        ratings: list[str | None] = [None, None]
        for prop in props:
            ident = prop.ident
            if ident == "GM":
                game = prop.text()
                if game != "6":
                    where = self.where(prop)
                    raise UnsupportedFormatError(f"{where}: SGF game type GM[{game}] is not backgammon (GM[6])")
            elif ident == "MI":
                self.match_info(info, prop)
            elif ident in ("PW", "PB"):
                players[ident == "PB"] = " ".join(prop.text().split())
            elif ident in ("WR", "BR"):
                ratings[ident == "BR"] = prop.text() or None
            elif ident in HEADER_PROPERTIES:
                value = " ".join(prop.text().split())
                if ident == "DT":
                    date = _DATE.fullmatch(value)
                    if date is not None:
                        value = f"{date.group(1)}.{int(date.group(2)):02d}.{int(date.group(3)):02d}"
                if value:
                    info.headers.append((HEADER_PROPERTIES[ident], value))
            elif ident == "GC":
                info.comments.extend(line.strip() for line in prop.text().splitlines() if line.strip())
            elif ident == "RU":
                info.rules = [word.strip() for word in prop.text().split(":") if word.strip()]
            elif ident == "RE":
                self.result(info, prop)
            elif ident == "CV":
                info.cube = self.cube_value(prop)
        info.players = (players[0], players[1])
        info.ratings = (ratings[0], ratings[1])
        return info

    def match_info(self, info: _GameInfo, prop: _Property) -> None:
        score = [0, 0]
        for index, raw in enumerate(prop.values, start=1):
            key, _, value = unescape(raw).partition(":")
            key, value = key.strip().casefold(), value.strip()
            if key not in ("length", "game", "ws", "bs"):
                continue
            if not (value.isascii() and value.isdigit() and len(value) <= 9):
                raise self.fail(f"MI[{key}:...] must be a whole number, not {value!r}", prop, index)
            number = int(value)
            if key == "length":
                info.length = number
            elif key == "game":
                info.number = number
            else:
                score[key == "bs"] = number
        info.score = (score[0], score[1])

    def result(self, info: _GameInfo, prop: _Property) -> None:
        value = prop.text()
        if value in ("", "?", "0") or value.casefold() in ("void", "draw"):
            return
        found = _RESULT.fullmatch(value)
        if found is None:
            raise self.fail(f"cannot read the result RE[{value}]: expected W+n or B+n, 'R' for a resignation", prop, 1)
        points = int(found.group(2)) if found.group(2) else None
        info.result = (_COLOURS[found.group(1).upper()], points, found.group(3) is not None)
        info.result_location = self.where(prop)

    def cube_value(self, prop: _Property) -> int:
        value = prop.text()
        if not (value.isascii() and value.isdigit() and len(value) <= 6) or int(value) < 1:
            raise self.fail(f"the cube value CV[{value}] must be a power of two", prop, 1)
        cube = int(value)
        if cube & (cube - 1):
            raise self.fail(f"the cube value CV[{value}] must be a power of two", prop, 1)
        return cube


def _crawford_game(info: _GameInfo, length: int) -> bool | None:
    """What the root says of its game: gnubg names the Crawford game (``RU[Crawford:CrawfordGame]``) in every
    game under the Crawford rule, so a game it does not name is not the Crawford game; None when the rule is off."""
    if not length or "Crawford" not in info.rules:
        return None
    return "CrawfordGame" in info.rules


class _GameReader:
    """Reads the nodes of one game tree into ``game.actions``, each as the file writes it.

    The reader keeps no cube and no board: the double of a node is a double
    of unwritten value, and what the cube or the checkers make of each action
    is the replay's to say. It follows only the notation: a double written as
    the answer to a double is a beaver (then a raccoon), and the take that
    closes such an exchange is implied, as in a ``.mat`` file.
    """

    def __init__(self, reader: _Reader, game: Game, info: _GameInfo, variant: Variant) -> None:
        self.r = reader
        self.game = game
        self.info = info
        self.variant = variant
        if info.cube and info.cube > 1:
            game.start_cube = (info.cube, None)
        self.offer: tuple[ActionKind, Player] | None = None  # the double (beaver) last written, not yet answered
        self.rolled: Action | None = None  # the roll of a roll-only node (PL, DI), its play not yet written
        self.trailing_pending = False  # the record ends with a roll-only node that is not a resignation

    def read(self, nodes: list[Token]) -> None:
        actions = self.game.actions
        for index, node in enumerate(nodes):
            props = _properties(node)
            # In the root, CV is the cube of automatic doubles (read with the root).
            setup = [p for p in props if p.ident in _SETUP_PROPS and (index or p.ident != "CV")]
            if setup:
                if actions:
                    actions.append(self.setup_action(setup))
                else:
                    self.setup(setup)
            moves = [p for p in props if p.ident in _MOVE_PROPS]
            if len(moves) > 1:
                raise self.r.fail("a node with more than one move (B and W)", moves[1])
            if moves:
                after_double = self.offer is not None and self.offer[0] is ActionKind.DOUBLE
                action = self.action(moves[0])
                # A roll-only node before this move: the same player's is this move's roll (gnubg keeps such a
                # node when a resignation was declined, or the dice were set again); any other leaves the board
                # as it was (gnubg's reading too), and is not a decision of the game.
                self.rolled = None
                if action is not None:
                    if self.r.analysis:
                        action = self.analysed(action, props, after_double)
                    comment = next((p.text().strip() for p in props if p.ident == "C"), "")
                    if comment:
                        action = dataclasses.replace(action, comment=comment)
                    actions.append(action)
            elif any(p.ident == "DI" for p in props):
                self.roll_only(props)
        if self.rolled is not None:
            self.last_roll_only(self.rolled)
        if actions and actions[-1].kind is ActionKind.ROLL and not actions[-1].play_text:
            result = self.info.result
            if result is None or not result[2] or self.trailing_pending:
                # A roll without moves after the last move, with no resignation after it: gnubg's
                # placeholder for the roll pending when the file was saved, or a dance. The replay tells.
                # Its DA is not kept: the cube decision before a roll still to be played was not made.
                trailing = actions.pop()
                if trailing.analysis is not None and trailing.analysis.written_cube is not None:
                    trailing = dataclasses.replace(trailing, analysis=read_written_cube(trailing.analysis, None, 0))
                self.game.trailing_roll = trailing
        self.result()

    def roll_only(self, props: list[_Property]) -> None:
        """A node with a roll and no move (``PL[B]DI[33]``): gnubg's record of dice rolled whose play is not
        written (the roll pending when a game ended by resignation, or when the file was saved)."""
        dice_prop = next(p for p in props if p.ident == "DI")
        player_prop = next((p for p in props if p.ident == "PL"), None)
        if player_prop is None:
            raise self.r.fail("a roll DI[...] names no player: expected PL[W] or PL[B] in its node", dice_prop)
        colour = player_prop.text().upper()
        if colour not in _COLOURS:
            raise self.r.fail(f"PL[{player_prop.text()}] must be W or B", player_prop, 1)
        value = dice_prop.text()
        found = _ROLL.fullmatch(value)
        if found is None or found.group(3):
            raise self.r.fail(f"cannot read the roll DI[{value}]: expected two dice (e.g. 33)", dice_prop, 1)
        dice: Dice = (int(found.group(1)), int(found.group(2)))
        action = Action(ActionKind.ROLL, _COLOURS[colour], self.r.where(dice_prop), dice=dice, play_text="")
        self.rolled = self.analysed(action, props, False) if self.r.analysis else action

    def last_roll_only(self, action: Action) -> None:
        """The roll of a roll-only node that ends the game's record: a roll of the game when its roller then
        resigned (as ``????`` in a ``.mat`` file), else the game's trailing roll, for the replay to judge."""
        result = self.info.result
        if result is not None and result[2] and result[0] != action.player:
            self.game.actions.append(dataclasses.replace(action, resigned=True))
        else:
            self.game.actions.append(action)  # made the trailing roll below: no resignation, or the winner's roll
            self.trailing_pending = True

    def setup(self, props: list[_Property]) -> None:
        """A set-up node before the first move: the game's start (checkers and cube)."""
        position, cube, owner, _ = self.board(props, self.game.start or self.variant.start_position())
        if position is not None:
            self.game.start = position
        if cube is not None or owner is not None:
            value = cube or (self.game.start_cube[0] if self.game.start_cube else 1)
            if value == 1 and owner is not None:
                raise RuleError("illegal set-up: a cube of 1 cannot be owned", self.r.where(props[0]))
            self.game.start_cube = (value, owner)

    def setup_action(self, props: list[_Property]) -> Action:
        """A set-up node inside the game (gnubg writes one where a board was set by hand): a SETUP action.

        The reader keeps no board, so a board set there must be set whole: gnubg writes ``AE[a:y]`` (every
        point and the bar emptied) and then every checker (``AW``, ``AB``).
        """
        board = [p for p in props if p.ident in ("AE", "AW", "AB")]
        if board:
            cleared = {letter for p in board if p.ident == "AE" for letter in self.letters(p)}
            if len(cleared) < 25:
                raise self.r.fail(
                    "a set-up node inside a game must empty the whole board first (AE[a:y]) before AW and AB",
                    board[0],
                )
        empty = Position((0,) * 26, (0,) * 26)
        position, cube, owner, owner_set = self.board(props, empty)
        if cube == 1 and owner is not None:
            raise RuleError("illegal set-up: a cube of 1 cannot be owned", self.r.where(props[0]))
        setup = SetUp(position, cube, owner, owner_set)
        return Action(ActionKind.SETUP, _WHITE, self.r.where(props[0]), setup=setup)

    def board(self, props: list[_Property], base: Position) -> tuple[Position | None, int | None, Player | None, bool]:
        """What the set-up properties ``props`` set, from ``base``: the checkers (None: none written), the
        cube's value (None: not written), its owner and whether it is written."""
        white = list(base.mover)
        black = list(base.opponent)
        owner: Player | None = None
        owner_set = False
        cube: int | None = None
        for prop in props:
            ident = prop.ident
            if ident == "AE":
                for letter in self.letters(prop):
                    if letter == "y":
                        white[BAR] = black[BAR] = 0
                    else:
                        point = letter_point(letter, _WHITE)
                        white[point] = 0
                        black[25 - point] = 0
            elif ident in ("AW", "AB"):
                side, player = (white, _WHITE) if ident == "AW" else (black, _BLACK)
                for letter in self.letters(prop):
                    side[letter_point(letter, player)] += 1
            elif ident == "CV":
                cube = self.r.cube_value(prop)
            elif ident == "CP":
                where = prop.text().casefold()
                if where not in ("c", "w", "b"):
                    raise self.r.fail(f"CP[{where}] must be c (centred), w (White owns) or b (Black owns)", prop, 1)
                owner = None if where == "c" else _COLOURS[where.upper()]
                owner_set = True
        checkers = self.variant.checkers
        for name, side in (("White", white), ("Black", black)):
            on_board = sum(side[1:])
            if on_board > checkers:
                raise RuleError(
                    f"illegal set-up: {name} has {on_board} checkers, more than {checkers}", self.r.where(props[0])
                )
            side[OFF] = checkers - on_board
        for point in range(1, 25):
            if white[point] and black[25 - point]:
                raise RuleError(
                    f"illegal set-up: both players have checkers on White's {point}-point", self.r.where(props[0])
                )
        position = Position(tuple(white), tuple(black)) if any(p.ident in ("AE", "AW", "AB") for p in props) else None
        return position, cube, owner, owner_set

    def letters(self, prop: _Property) -> Iterator[str]:
        """Point letters of a point-list property; ``a:c`` ranges are expanded."""
        for index, raw in enumerate(prop.values, start=1):
            value = raw.strip()
            first, sep, last = value.partition(":")
            if not re.fullmatch(r"[a-y]", first) or (sep and not re.fullmatch(r"[a-y]", last)):
                raise self.r.fail(
                    f"{prop.ident}[{value}] is not a point a-x or the bar y (or a range a:y)", prop, index
                )
            end = last if sep else first
            for code in range(min(ord(first), ord(end)), max(ord(first), ord(end)) + 1):
                yield chr(code)

    def action(self, prop: _Property) -> Action | None:
        player = _COLOURS[prop.ident]
        location = self.r.where(prop)
        if len(prop.values) != 1:
            raise self.r.fail(f"a move {prop.ident}[...] has exactly one value", prop)
        value = unescape(prop.values[0]).strip()
        word = value.casefold()
        if word in _CUBE_WORDS:
            return self.cube_action(_CUBE_WORDS[word], player, location)
        found = _ROLL.fullmatch(value)
        if found is None:
            raise self.r.fail(
                f"cannot read the move {prop.ident}[{value}]: expected dice and letter pairs "
                "(e.g. 31hefe), 'double', 'take' or 'drop'",
                prop,
                1,
            )
        letters = found.group(3)
        if len(letters) % 2 or len(letters) > 16:
            raise self.r.fail(
                f"the move {prop.ident}[{value}] must have up to four pairs of letters after the dice",
                prop,
                1,
            )
        steps: list[Step] = []
        for i in range(0, len(letters), 2):
            src, dst = letters[i], letters[i + 1]
            if src == "z" or dst == "y":
                raise self.r.fail(
                    f"'{src}{dst}' in {prop.ident}[{value}] is not a move: a move goes from a point "
                    "a-x or the bar y to a point a-x or off z",
                    prop,
                    1,
                )
            steps.append(Step(letter_point(src, player), letter_point(dst, player)))
        dice: Dice = (int(found.group(1)), int(found.group(2)))
        self.offer = None
        return Action(ActionKind.ROLL, player, location, dice=dice, play_text=format_play_plain(tuple(steps)))

    def cube_action(self, kind: ActionKind, player: Player, location: Location) -> Action | None:
        """A cube action as SGF writes it; a beaver is a double answering a double, its take implied."""
        answered = self.offer if self.offer is not None and self.offer[1] != player else None
        if kind is ActionKind.DOUBLE:
            if answered is not None:
                kind = ActionKind.BEAVER if answered[0] is ActionKind.DOUBLE else ActionKind.RACCOON
            self.offer = (kind, player)
            return Action(kind, player, location)
        self.offer = None
        if kind is ActionKind.TAKE and answered is not None and answered[0] is not ActionKind.DOUBLE:
            return None  # the take that closes a beaver (raccoon) exchange: implied
        return Action(kind, player, location)

    def analysed(self, action: Action, props: list[_Property], after_double: bool) -> Action:
        """``action`` with its node's play analysis (``A``, ``LU``) and its ``DA`` as written (read where the
        replay gives the cube and the score)."""
        if action.kind is ActionKind.ROLL:
            found = next((p for p in props if p.ident == "A"), None)
            luck = next((p.values[0] for p in props if p.ident == "LU" and p.values), None)
            recorded = move_analysis(
                action.player, found.values if found is not None else [], luck, moved=bool(action.play_text)
            )
            if recorded is not None:
                action = dataclasses.replace(action, analysis=recorded)
        made = cube_made(action.kind, after_double)
        cube = next((p for p in props if p.ident == "DA" and p.values), None)
        if made is not None and cube is not None:
            action = dataclasses.replace(action, analysis=with_written_cube(action.analysis, cube.values[0], made))
        return action

    def result(self) -> None:
        info = self.info
        if info.result is None:
            return
        winner, points, _ = info.result
        location = info.result_location or info.location
        self.game.actions.append(Action(ActionKind.WIN, winner, location, value=points))


FORMAT = Format(
    "sgf", (".sgf",), looks_like_sgf, read_matches, analysis=True, title="GNU Backgammon .sgf", claims=(".sgf",)
)
"""This reader in the format registry (:mod:`tabla_cli.formats`)."""
