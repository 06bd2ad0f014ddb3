"""Readers of match transcript formats, one module per format, and their registry.

Each reader module declares a ``FORMAT`` line naming its format, file
suffixes and its ``looks_like`` and ``read_matches`` functions; :data:`MODULES`
lists the modules in the order content detection tries them (the most
distinctive first). Adding a reader is one module, one grammar and one line
here. Modules are imported only when a format is needed.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from tabla_cli.formats._syntax import ErrorHandler
    from tabla_cli.model import Match

__all__ = ["MODULES", "Format", "detect", "formats", "get"]

MODULES: tuple[str, ...] = ("json", "sgf", "gnubg_text", "position_text", "fibs", "mat")
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
    """

    name: str
    suffixes: tuple[str, ...]
    looks_like: Callable[[str], bool]
    read_matches: Callable[..., Iterator[Match]]
    lazy: bool = False

    def read(self, handle: TextIO, path: str, on_error: ErrorHandler | None = None, *,
             lazy: bool = False) -> Iterator[Match]:
        """The matches of ``handle`` (syntax errors to ``on_error`` when given).

        ``lazy``: read each match game by game where the reader can.
        """
        if lazy and self.lazy:
            return self.read_matches(handle, path=path, on_error=on_error, lazy=True)
        return self.read_matches(handle, path=path, on_error=on_error)


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
        KeyError: no reader has that name.
    """
    for fmt in _registry():
        if fmt.name == name:
            return fmt
    raise KeyError(name)


def detect(text: str) -> Format | None:
    """The first format (in :data:`MODULES` order) whose ``looks_like`` accepts ``text``."""
    for fmt in _registry():
        if fmt.looks_like(text):
            return fmt
    return None
