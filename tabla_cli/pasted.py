"""Reading the IDs people paste: a Position ID, gnubg's pair, an XGID, or the lines programs print.

The shapes are the Lark grammar ``grammars/ids.lark``; what the IDs say is
checked by :mod:`tabla_cli.ids.match`, :mod:`tabla_cli.ids.xgid` and
:mod:`tabla_cli.position_key`. It sits over :mod:`tabla_cli.ids` (which
imports nothing but the standard library), beside the other Lark readers.

>>> parse_ids("4HPwATDgc/ABMA:cAkAAAAAAAAE")[1].dice_owner
<Player.ONE: 1>
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput

from tabla_cli.board import CHECKERS, Position
from tabla_cli.errors import InvalidIdError
from tabla_cli.grammar import load_grammar
from tabla_cli.ids.match import MatchState, decode_match_id
from tabla_cli.ids.position import decode_position_id
from tabla_cli.ids.xgid import parse_xgid

_T = TypeVar("_T")

SYNTAX_EXAMPLES: dict[str, list[str]] = {
    "a label is not followed by ':' and an ID": [
        "Position ID",
        "Position ID 4HPwATDgc/ABMA",
        "Match ID:",
        "Position ID: 4HPwATDgc/ABMA Match ID",
    ],
    "more than a Position ID and a Match ID": [
        "4HPwATDgc/ABMA cAkAAAAAAAAA cAkAAAAAAAAA",
        "4HPwATDgc/ABMA:cAkAAAAAAAAA cAkAAAAAAAAA",
    ],
    "':' is not followed by a Match ID": ["4HPwATDgc/ABMA:"],
    "bare IDs mixed with labelled ones": [
        "4HPwATDgc/ABMA Match ID: cAkAAAAAAAAA",
        "Position ID: 4HPwATDgc/ABMA cAkAAAAAAAAA",
    ],
    "'XGID=' is not followed by an XGID": ["XGID=", "XGID=4HPwATDgc/ABMA"],
    "a stray ':'": [":", ": 4HPwATDgc/ABMA"],
}
"""Malformed inputs labelled with what is wrong, for ``match_examples``."""


@functools.cache
def _parser() -> Lark:
    return load_grammar("ids.lark")


@dataclass(frozen=True, slots=True)
class _Found:
    """One ID found in the text, with where it starts."""

    kind: str
    text: str
    line: int
    column: int


class _Collect(Transformer[Token, list[_Found]]):
    """Turns the parse tree into the IDs it names, in order (tokens carry positions)."""

    @staticmethod
    def _found(kind: str, token: Token) -> _Found:
        return _Found(kind, str(token), token.line or 0, token.column or 0)

    def start(self, groups: list[list[_Found]]) -> list[_Found]:
        return [found for group in groups for found in group]

    def pair(self, tokens: list[Token]) -> list[_Found]:
        return [self._found(kind, token) for kind, token in zip(("position", "match"), tokens)]

    def position(self, tokens: list[Token]) -> list[_Found]:
        return [self._found("position", tokens[0])]

    def match(self, tokens: list[Token]) -> list[_Found]:
        return [self._found("match", tokens[0])]

    def xgid(self, tokens: list[Token]) -> list[_Found]:
        return [self._found("xgid", tokens[0])]


def _where(text: str, line: int, column: int) -> str:
    """Where in the pasted ``text`` something is, in words (no synthetic file name)."""
    if "\n" in text.strip("\n"):
        return f"line {line}, column {column} of the pasted text"
    return f"column {column} of {text.strip()!r}"


def _syntax_error(text: str, error: UnexpectedInput) -> InvalidIdError:
    label = None
    if error.state is not None:
        label = error.match_examples(_parser().parse, SYNTAX_EXAMPLES, use_accepts=True)
    message = label or "not a Position ID, Match ID or XGID"
    if error.line > 0:
        message = f"{message} (at {_where(text, error.line, error.column)})"
    return InvalidIdError(message, context=error.get_context(text).rstrip("\n"))


def _find(text: str) -> list[_Found]:
    """The IDs in ``text``, in order.

    Raises:
        InvalidIdError: if the text does not have one of the accepted shapes.
    """
    if not text.strip():
        raise InvalidIdError("no Position ID, Match ID or XGID given")
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as error:
        raise _syntax_error(text, error) from None
    return _Collect().transform(tree)


_KIND_NAMES = {"position": "Position ID", "match": "Match ID", "xgid": "XGID"}


def _only(found: list[_Found], kind: str, text: str) -> _Found | None:
    """The one ID of ``kind`` in ``found``, or None.

    Raises:
        InvalidIdError: if there are two.
    """
    matches = [item for item in found if item.kind == kind]
    if len(matches) > 1:
        again = _where(text, matches[1].line, matches[1].column)
        raise InvalidIdError(f"more than one {_KIND_NAMES[kind]} given (the second at {again})")
    return matches[0] if matches else None


def _at(item: _Found, decode: Callable[[str], _T], text: str) -> _T:
    """Decode one found ID; the error names the ID, and its line when the paste has several."""
    try:
        return decode(item.text)
    except InvalidIdError as error:
        if "\n" not in text.strip("\n"):
            raise
        raise InvalidIdError(f"{error.message} (line {item.line} of the pasted text)") from None


def _comparable(state: MatchState, xgid: MatchState) -> MatchState:
    """``state`` with the XGID-only fields of ``xgid`` and the dice sorted."""
    dice = (max(state.dice), min(state.dice)) if state.dice else None
    return dataclasses.replace(state, dice=dice, beaver=xgid.beaver, max_cube_exp=xgid.max_cube_exp)


def _agree(gnubg: tuple[Position, MatchState | None], xgid: tuple[Position, MatchState]) -> None:
    """Check that the gnubg IDs and the XGID of one paste say the same thing.

    The dice are compared unordered: BGBlitz writes the smaller die first in
    its Match ID but the larger first in its XGID.
    """
    position, state = gnubg
    if position != xgid[0]:
        raise InvalidIdError("the Position ID and the XGID describe different positions")
    if state is not None and _comparable(state, xgid[1]) != _comparable(xgid[1], xgid[1]):
        raise InvalidIdError("the Match ID and the XGID describe different match states")


def parse_ids(text: str, *, strict: bool = True, checkers: int = CHECKERS) -> tuple[Position, MatchState | None]:
    """Read a Position ID, a gnubg ID, an XGID, or the lines programs print.

    Accepted: ``POS``, ``POS:MATCH``, ``POS MATCH``, ``XGID=...`` or a bare
    XGID, ``Position ID: ...`` and ``Match ID: ...`` lines (gnubg's
    ``GNU Backgammon  Position ID:`` header included), and the one-line
    ``Position-ID: ...  Match-ID: ...`` of BGBlitz. When an XGID comes with
    gnubg IDs they must agree; the XGID's richer state is returned.

    Args:
        text: the pasted text.
        strict: passed on to :func:`decode_position_id` and
            :func:`decode_match_id`.
        checkers: checkers per side.

    Returns:
        The position (the side on roll as ``mover``) and the match state, or
        None for the state when only a Position ID was given.

    Raises:
        InvalidIdError: for text of another shape or an ID that is not valid.

    >>> parse_ids(" Position-ID: 4HPwATDgc/ABMA    Match-ID: cAkAAAAAAAAA")[1].turn
    <Player.ONE: 1>
    """
    text = text.lstrip("\ufeff")
    found = _find(text)
    position_item, match_item, xgid_item = (_only(found, kind, text) for kind in ("position", "match", "xgid"))
    xgid = _at(xgid_item, functools.partial(parse_xgid, checkers=checkers), text) if xgid_item else None
    if position_item is None:
        if xgid is None or match_item is not None:
            raise InvalidIdError("a Match ID was given without a Position ID")
        return xgid
    position = _at(position_item, functools.partial(decode_position_id, strict=strict, checkers=checkers), text)
    state = _at(match_item, functools.partial(decode_match_id, strict=strict), text) if match_item else None
    if xgid is None:
        return position, state
    _agree((position, state), xgid)
    return xgid
