"""Cut a ``.mat`` text stream into matches or pieces of whole games, for :mod:`tabla_cli.formats.mat`.

A stream is read in blocks, so memory holds one match (:func:`match_chunks`)
or one piece of a match (:func:`pieces`, :class:`LazyMatches`) at a time,
never the whole file. The cuts are found from the first characters of each
line; the reader parses the text between them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import Protocol, TextIO

from tabla_cli.errors import InputError, Location, TranscriptSyntaxError
from tabla_cli.formats._syntax import ErrorHandler
from tabla_cli.model import Game, Match

__all__ = ["LENGTH_LINE", "LazyMatches", "PieceReader", "lines", "match_chunks", "pieces"]

LENGTH_LINE = re.compile(r"[0-9]+[ \t]+point[ \t]+match\b", re.IGNORECASE)
"""A stripped line that is a match-length line ``N point match``."""
_GAME_LINE = re.compile(r"game[ \t]+[0-9]+\b", re.IGNORECASE)
_DIGITS = frozenset("0123456789")


def lines(handle: TextIO, path: str) -> Iterator[str]:
    """The lines of ``handle`` with LF line ends (CRLF and CR become LF), read in blocks.

    Raises:
        InputError: the stream cannot be decoded.
    """
    return _lines(_blocks(handle, path))


_BLOCK = 1 << 16
"""Characters read from a stream at a time."""


def _blocks(handle: TextIO, path: str) -> Iterator[str]:
    """The text of ``handle`` in blocks of :data:`_BLOCK` characters (the last one shorter, none empty).

    Raises:
        InputError: the stream cannot be decoded.
    """
    while True:
        try:
            block = handle.read(_BLOCK)
        except UnicodeDecodeError as exc:
            raise InputError(f"cannot decode the input: {exc}", Location(path)) from exc
        if not block:
            return
        yield block


def _lines(blocks: Iterable[str]) -> Iterator[str]:
    """The lines of a text given in blocks, with LF line ends (see :func:`lines`)."""
    rest = ""
    for block in blocks:
        text = rest + block
        if text.endswith("\r"):  # the start of a CRLF the next block ends
            text, rest = text[:-1], "\r"
        else:
            rest = ""
        split = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        rest = split.pop() + rest
        for line in split:
            yield line + "\n"
    if rest:
        yield rest.replace("\r", "\n")


def match_chunks(handle: TextIO, path: str) -> Iterator[tuple[str, int]]:
    """The text of each match in ``handle`` (its headers included) and the number of its first line.

    The stream is read in blocks, so memory holds one match at a time; a
    match starts at an ``N point match`` line, with the comment and blank
    lines just before it.

    Raises:
        InputError: the stream cannot be decoded.
    """
    chunk: list[str] = []
    pending: list[str] = []  # comment and blank lines since the last other line
    first = 1
    for number, line in enumerate(lines(handle, path), 1):
        stripped = line.strip().lstrip("\ufeff")
        if not stripped or stripped[0] in ";#":
            pending.append(line)
        elif chunk and LENGTH_LINE.match(stripped) is not None:
            yield "".join(chunk), first
            first = number - len(pending)
            chunk = [*pending, line]
            pending = []
        elif pending:
            chunk += pending
            chunk.append(line)
            pending = []
        else:
            chunk.append(line)
    chunk += pending
    if chunk or first == 1:
        yield "".join(chunk), first


def pieces(stream: Iterable[str], size: int) -> Iterator[tuple[bool, str, int]]:
    """The text of a stream in pieces of whole games: ``(starts_a_match, text, first line number)``.

    A match's first piece holds its headers, the ``N point match`` line and
    its first games (at least one: its score line names the players); each
    later piece the next games. A piece ends before a ``Game N`` line once
    it holds ``size`` lines, and before an ``N point match`` line; it starts
    with the comment and blank lines just before that line. A ``Game N``
    line right after another (where the score line belongs) ends nothing:
    the grammar reads it as a bad score line.
    """
    chunk: list[str] = []
    pending: list[str] = []  # comment and blank lines since the last other line
    first = number = 1
    match_start = True  # the piece being gathered starts a match
    has_game = after_game = False  # the piece holds a game; the line before was a Game line
    for line in stream:
        stripped = line.strip().lstrip("\ufeff")
        if not stripped or stripped[0] in ";#":
            pending.append(line)
            number += 1
            continue
        length = stripped[0] in _DIGITS and LENGTH_LINE.match(stripped) is not None
        game = stripped[0] in "gG" and not after_game and _GAME_LINE.match(stripped) is not None
        if chunk and (length or (game and has_game and len(chunk) >= size)):
            yield match_start, "".join(chunk), first
            first = number - len(pending)
            chunk = [*pending, line]
            match_start, has_game = length, game
        else:
            chunk += pending
            chunk.append(line)
            match_start = match_start or length
            has_game = has_game or game
        pending = []
        after_game = game
        number += 1
    chunk += pending
    if chunk or first == 1:
        yield match_start, "".join(chunk), first


class PieceReader(Protocol):
    """The reader of one match read piece by piece (:class:`LazyMatches` makes one per match)."""

    def first_piece(self, text: str, first_line: int) -> Match:
        """The match that the piece ``text`` starts, with the games the piece holds.

        Raises:
            TranscriptSyntaxError: the structure of the piece is wrong.
        """

    def later_piece(self, text: str, first_line: int) -> list[Game]:
        """The games of a later piece of the match.

        Raises:
            TranscriptSyntaxError: the structure of the piece is wrong; an
                error inside a line too when the reader has no error handler.
        """


class LazyMatches:
    """The matches of a stream of pieces (:func:`pieces`), each reading its games as they are asked for."""

    def __init__(
        self, pieces: Iterator[tuple[bool, str, int]], reader: Callable[[], PieceReader], on_error: ErrorHandler | None
    ) -> None:
        self.pieces = pieces
        self.reader = reader
        self.on_error = on_error
        self.next: tuple[bool, str, int] | None = None  # a piece read but not used yet
        self.stopped = False  # a structural error ended the reading

    def piece(self) -> tuple[bool, str, int] | None:
        if self.next is not None:
            piece, self.next = self.next, None
            return piece
        return None if self.stopped else next(self.pieces, None)

    def matches(self) -> Iterator[Match]:
        while (piece := self.piece()) is not None:
            _, text, first_line = piece
            reader = self.reader()
            match = reader.first_piece(text, first_line)
            games = self.games(reader, match.games)
            match.games = []
            match.game_stream = games
            yield match
            for _ in games:  # games the consumer left
                pass

    def games(self, reader: PieceReader, first: list[Game]) -> Iterator[Game]:
        """The games of the match ``reader`` is reading: those of its first piece, then those of each later one."""
        yield from first
        first.clear()
        while (piece := self.piece()) is not None:
            starts_match, text, first_line = piece
            if starts_match:
                self.next = piece
                return
            try:
                games = reader.later_piece(text, first_line)
            except TranscriptSyntaxError as exc:
                if self.on_error is None:
                    raise
                self.on_error(exc)
                self.stopped = True
                return
            yield from games
