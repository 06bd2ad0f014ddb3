"""Writers of match transcript formats, one module per format, and their registry.

Each writer takes a :class:`~tabla_cli.model.Match` with its
:class:`~tabla_cli.replay.MatchResult` and, where the format needs resolved
plays (one step per die), every game's rolls as
:class:`~tabla_cli.writers.rolls.RollsVisitor` collects them; it replays the
match itself when they are not given. :data:`WRITERS` lists them with their names (``tabla convert
--to``) and file suffixes; a writer module is imported only when its format
is written, so that the command line can list the formats without loading them.

>>> [w.name for w in WRITERS]
['mat', 'sgf', 'json', 'positions', 'txt']
>>> format_for_path("out/m.SGF"), format_for_path("m.txt"), format_for_path("m.xg")
('sgf', None, None)
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from tabla_cli.model import Match
    from tabla_cli.replay import MatchResult
    from tabla_cli.writers.positions import PositionRow
    from tabla_cli.writers.rolls import GameRolls

__all__ = ["FORMATS", "SUFFIXES", "WRITERS", "Replayed", "Writer", "format_for_path", "format_for_suffix", "get"]


class Replayed(NamedTuple):
    """One match replayed for a writer.

    Attributes:
        match: the match as read.
        result: its replay; None: the writer replays it.
        rows: its :class:`~tabla_cli.writers.positions.PositionRow` list,
            for writers that need them (:attr:`Writer.positions`), else None.
        rolls: its games' :data:`~tabla_cli.writers.rolls.GameRolls`, for
            writers that need them (:attr:`Writer.rolls`), else None.
    """

    match: Match
    result: MatchResult | None
    rows: list[PositionRow] | None = None
    rolls: list[GameRolls] | None = None


@dataclass(frozen=True, slots=True)
class Writer:
    """An output format.

    Attributes:
        name: the format's name (``--to``).
        suffixes: its file suffixes (lower case); ``--out-dir`` writes the first.
        by_suffix: whether an output's suffix names this format (``.txt``
            does not: it may be a ``.mat`` transcript or ASCII boards).
        module: the module of :mod:`tabla_cli.writers` that writes it.
        function: that module's function of ``[(match, replayed), ...]``.
        positions: the writer draws on every decision's position (a replay
            with :class:`~tabla_cli.writers.positions.PositionsVisitor`,
            given as ``rows=``).
        rolls: the writer draws on every roll's resolved play (a replay with
            :class:`~tabla_cli.writers.rolls.RollsVisitor`, given as ``rolls=``).
    """

    name: str
    suffixes: tuple[str, ...]
    module: str
    function: str
    by_suffix: bool = True
    positions: bool = False
    rolls: bool = False

    @property
    def suffix(self) -> str:
        """The suffix of the files ``--out-dir`` writes."""
        return self.suffixes[0]

    def write(self, matches: Sequence[Replayed]) -> str:
        """The text of ``matches`` in this format.

        Raises:
            InvalidPlayError: SGF only: a play that cannot even be read.
        """
        function = getattr(importlib.import_module(f"tabla_cli.writers.{self.module}"), self.function)
        pairs = [(m.match, m.result) for m in matches]
        if self.positions:
            return str(function(pairs, rows=[m.rows or [] for m in matches]))
        if self.rolls:
            return str(function(pairs, rolls=[m.rolls for m in matches]))
        return str(function(pairs))


WRITERS: tuple[Writer, ...] = (
    Writer("mat", (".mat",), "mat", "format_mats", rolls=True),
    Writer("sgf", (".sgf",), "sgf", "format_sgfs", rolls=True),
    Writer("json", (".json",), "json", "format_json", rolls=True),
    Writer("positions", (".csv",), "positions", "format_positions", positions=True),
    Writer("txt", (".txt",), "text", "format_text", by_suffix=False, positions=True),
)
"""Every output format, in the order ``--to`` lists them."""

FORMATS: tuple[str, ...] = tuple(w.name for w in WRITERS)
"""The output formats' names."""

SUFFIXES: dict[str, str] = {s: w.name for w in WRITERS if w.by_suffix for s in w.suffixes}
"""Output suffixes (lower case) that name a format."""


def get(name: str) -> Writer:
    """The writer of the format ``name``.

    Raises:
        ValueError: no writer has that name.
    """
    for writer in WRITERS:
        if writer.name == name:
            return writer
    raise ValueError(f"unknown output format {name!r}; choose from {', '.join(FORMATS)}")


def format_for_suffix(path: str | Path, table: Mapping[str, str]) -> str | None:
    """The format ``table`` gives the suffix (lower case) of ``path``; None for a suffix it lacks."""
    return table.get(Path(path).suffix.lower())


def format_for_path(path: str | Path) -> str | None:
    """The output format an output file's suffix names (None for ``.txt`` and unknown suffixes)."""
    return format_for_suffix(path, SUFFIXES)
