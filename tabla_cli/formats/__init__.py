"""Readers of match transcript formats, one module per format, and their registry.

Each reader module declares a ``FORMAT`` line naming its format, file
suffixes and its ``looks_like`` and ``read_matches`` functions; :data:`MODULES`
lists the modules in the order content detection tries them (the most
distinctive first). Adding a reader is one module, one grammar and one line
here. Modules are imported only when a format is needed.

Binary formats (eXtreme Gammon ``.xg``, BGBlitz ``.bgf``) are never decoded as
text: their ``FORMAT`` sets ``magic``, the byte prefixes that start their
files, and a ``read_matches`` that takes the file's bytes::

    FORMAT = Format("xg", (".xg",), never, read_matches, magic=(b"RGMH",))

    def read_matches(data: bytes, *, path: str, on_error: ErrorHandler | None = None,
                     max_size: int) -> Iterator[Match]: ...

:func:`detect_binary` looks at the bytes of a file before anything decodes
them (:mod:`tabla_cli.pipeline`, :mod:`tabla_cli.reader`,
:func:`tabla_cli.source.is_transcript`). ``max_size`` is the ``--max-size``
limit: a reader that inflates a compressed part never holds more than that
(it raises :class:`~tabla_cli.errors.InflatesTooLargeError`). A binary file
has no lines: its reader locates what it says with
``Location(path, game=..., move=...)``.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from tabla_cli.errors import UnsupportedFormatError

if TYPE_CHECKING:
    from tabla_cli.formats._syntax import ErrorHandler
    from tabla_cli.model import Match

__all__ = [
    "MAGIC_SAMPLE",
    "MODULES",
    "Format",
    "claimed_suffixes",
    "detect",
    "detect_binary",
    "formats",
    "get",
    "names",
    "never",
    "titles",
]

MODULES: tuple[str, ...] = ("xg", "bgf", "ogxm", "gva", "json", "sgf", "gnubg_text", "position_text", "fibs", "mat")
"""The reader modules of :mod:`tabla_cli.formats`, in detection order."""


@dataclass(frozen=True, slots=True)
class Format:
    """What a reader module declares about its format.

    Attributes:
        name: the format's name (``mat``, ``sgf``, ``gnubg-text``, ...).
        suffixes: file suffixes (lower case) its files usually have.
        looks_like: whether a text is in this format (cheap, by content).
        read_matches: every match of a text stream:
            ``read_matches(handle, path=..., on_error=...)``.
        lazy: ``read_matches`` also takes ``lazy=True``: each match read
            game by game (:meth:`~tabla_cli.model.Match.iter_games`).
        magic: a binary format's file prefixes (empty for a text format):
            its ``read_matches`` takes bytes (see the module's doc).
        analysis: ``read_matches`` also takes ``analysis=False``: the
            analysis the file records is left unread (no
            :attr:`~tabla_cli.model.Action.analysis`), for a reader whose
            consumers never look at it.
        stream: a binary format's reader of an open binary file
            (``stream(handle, path=..., on_error=..., max_size=...)``), which
            keeps one match in memory at a time (OGXM streams); None: the
            file is read whole.
        title: the format's name for people, in messages that list what
            tabla reads (the name when empty).
        claims: suffixes that make a file a transcript whatever its
            content (a broken one is reported when read, never skipped).
    """

    name: str
    suffixes: tuple[str, ...]
    looks_like: Callable[[str], bool]
    read_matches: Callable[..., Iterator[Match]]
    lazy: bool = False
    magic: tuple[bytes, ...] = ()
    analysis: bool = False
    stream: Callable[..., Iterator[Match]] | None = None
    title: str = ""
    claims: tuple[str, ...] = ()

    @property
    def binary(self) -> bool:
        """Whether files of this format are bytes, read by :meth:`read_bytes` (never decoded as text)."""
        return bool(self.magic)

    def read_bytes(
        self, data: bytes, path: str, on_error: ErrorHandler | None = None, *, max_size: int
    ) -> Iterator[Match]:
        """The matches of a binary file's bytes; nothing inflated past ``max_size`` bytes.

        Raises:
            InputError: the file is damaged (:class:`~tabla_cli.errors.InflatesTooLargeError`:
                a compressed part inflates past ``max_size``).
        """
        return self.read_matches(data, path=path, on_error=on_error, max_size=max_size)

    def read(
        self,
        handle: TextIO,
        path: str,
        on_error: ErrorHandler | None = None,
        *,
        lazy: bool = False,
        analysis: bool = True,
    ) -> Iterator[Match]:
        """The matches of ``handle`` (syntax errors to ``on_error`` when given).

        ``lazy``: read each match game by game where the reader can.
        ``analysis``: False when nobody looks at the recorded analysis (a
        reader that can leaves it unread).
        """
        options: dict[str, bool] = {}
        if lazy and self.lazy:
            options["lazy"] = True
        if not analysis and self.analysis:
            options["analysis"] = False
        return self.read_matches(handle, path=path, on_error=on_error, **options)


@functools.cache
def _registry() -> tuple[Format, ...]:
    """Every registered format, in detection order: the reader modules are imported on the first call."""
    return tuple(importlib.import_module(f"tabla_cli.formats.{name}").FORMAT for name in MODULES)


def formats() -> list[Format]:
    """Every registered format, in detection order."""
    return list(_registry())


def get(name: str) -> Format:
    """The format called ``name``.

    Raises:
        UnsupportedFormatError: no reader has that name.
    """
    for fmt in _registry():
        if fmt.name == name:
            return fmt
    raise UnsupportedFormatError(f"unknown input format {name!r}; tabla reads {', '.join(names())}")


def names() -> list[str]:
    """The registered formats' names, in detection order."""
    return [fmt.name for fmt in _registry()]


def titles() -> str:
    """What tabla reads, for people: every format's title, in detection order."""
    return ", ".join(fmt.title or fmt.name for fmt in _registry())


def claimed_suffixes() -> frozenset[str]:
    """The suffixes (lower case) that make a file a transcript whatever its content (:attr:`Format.claims`)."""
    return frozenset(suffix for fmt in _registry() for suffix in fmt.claims)


def detect(text: str) -> Format | None:
    """The first text format (in :data:`MODULES` order) whose ``looks_like`` accepts ``text``."""
    for fmt in _registry():
        if not fmt.binary and fmt.looks_like(text):
            return fmt
    return None


MAGIC_SAMPLE = 64
"""How many leading bytes :func:`detect_binary` needs at most."""


def detect_binary(head: bytes) -> Format | None:
    """The binary format whose magic starts ``head`` (a file's first bytes), None for any other file."""
    for fmt in _registry():
        if fmt.magic and head.startswith(fmt.magic):
            return fmt
    return None


def never(text: str) -> bool:
    """``looks_like`` of a binary format: no text is one."""
    return False
