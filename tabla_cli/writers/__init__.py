"""Writers of match transcript formats, one module per format, and their registry.

Each writer is a visitor of the replay (:class:`~tabla_cli.visitor.BaseVisitor`
of ``str``): it writes every match it visits from the replay's steps alone
(the plays as resolved, the cube values decided, the results judged), and
its ``result()`` is the text of the matches so far. :data:`WRITERS` lists
them with their names (``tabla convert --to``) and file suffixes; a writer
module is imported only when its format is written, so that the command line
can list the formats without loading them.

>>> [w.name for w in WRITERS]
['mat', 'sgf', 'json', 'positions', 'txt', 'ogxm']
>>> format_for_path("out/m.SGF"), format_for_path("m.txt"), format_for_path("m.xg")
('sgf', None, None)
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tabla_cli.errors import UnsupportedFormatError

if TYPE_CHECKING:
    from tabla_cli.visitor import BaseVisitor

__all__ = ["FORMATS", "SUFFIXES", "WRITERS", "Writer", "format_for_path", "format_for_suffix", "get", "titles"]


@dataclass(frozen=True, slots=True)
class Writer:
    """An output format.

    Attributes:
        name: the format's name (``--to``).
        suffixes: its file suffixes (lower case); ``--out-dir`` writes the first.
        module: the module of :mod:`tabla_cli.writers` that writes it.
        visitor_class: that module's visitor class, made with no arguments.
        by_suffix: whether an output's suffix names this format (``.txt``
            does not: it may be a ``.mat`` transcript or ASCII boards).
        title: what the format is, for people (``convert --help``).
    """

    name: str
    suffixes: tuple[str, ...]
    module: str
    visitor_class: str
    by_suffix: bool = True
    title: str = ""

    @property
    def suffix(self) -> str:
        """The suffix of the files ``--out-dir`` writes."""
        return self.suffixes[0]

    def visitor(self) -> BaseVisitor[Any]:
        """A fresh writer: replay the matches with it, then its ``result()`` is their text in this format.

        ``result()`` raises :class:`~tabla_cli.errors.InvalidPlayError` (SGF,
        OGXM) for a play that cannot be written. The OGXM writer's text is bytes.
        """
        made: BaseVisitor[Any] = getattr(
            importlib.import_module(f"tabla_cli.writers.{self.module}"), self.visitor_class
        )()
        return made


WRITERS: tuple[Writer, ...] = (
    Writer("mat", (".mat",), "mat", "MatWriter", title=".mat transcript, GNU Backgammon's layout"),
    Writer("sgf", (".sgf",), "sgf", "SgfWriter", title="GNU Backgammon SGF"),
    Writer("json", (".json",), "json", "JsonWriter", title="tabla-match/1"),
    Writer(
        "positions",
        (".csv",),
        "positions",
        "PositionsWriter",
        title="CSV, one row per decision with Position ID, Match ID, XGID and OGID",
    ),
    Writer("txt", (".txt",), "text", "TextWriter", by_suffix=False, title="ASCII boards"),
    Writer(
        "ogxm",
        (".ogxm", ".ogxms"),
        "ogxm",
        "OgxmWriter",
        title="OGXM v2, one file per match: many matches make an .ogxms stream",
    ),
)
"""Every output format, in the order ``--to`` lists them."""

FORMATS: tuple[str, ...] = tuple(w.name for w in WRITERS)
"""The output formats' names."""

SUFFIXES: dict[str, str] = {s: w.name for w in WRITERS if w.by_suffix for s in w.suffixes}
"""Output suffixes (lower case) that name a format."""


def get(name: str) -> Writer:
    """The writer of the format ``name``.

    Raises:
        UnsupportedFormatError: no writer has that name.
    """
    for writer in WRITERS:
        if writer.name == name:
            return writer
    raise UnsupportedFormatError(f"unknown output format {name!r}; choose from {', '.join(FORMATS)}")


def titles() -> str:
    """What tabla writes, for people: each format's name and title, in :data:`WRITERS` order."""
    return ", ".join(f"'{w.name}' ({w.title})" for w in WRITERS)


def format_for_suffix(path: str | Path, table: Mapping[str, str]) -> str | None:
    """The format ``table`` gives the suffix (lower case) of ``path``; None for a suffix it lacks."""
    return table.get(Path(path).suffix.lower())


def format_for_path(path: str | Path) -> str | None:
    """The output format an output file's suffix names (None for ``.txt`` and unknown suffixes)."""
    return format_for_suffix(path, SUFFIXES)
