"""Table cells as people and JSON see them: missing values, rates, yes/no.

A :class:`Grid` is what every text format writes (:mod:`tabla_cli.reports.render`,
the HTML page of :mod:`tabla_cli.reports.html`): column names, which are
numbers, and rows of plain Python values. It comes from a pandas DataFrame
(the report's tables) or from a :class:`~tabla_cli.columns.Table` without
pandas (``tabla analyze``'s tables).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tabla_cli.columns import Table, records
from tabla_cli.errors import TablaError

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True, slots=True)
class Grid:
    """A table ready to write.

    Attributes:
        names: the column names.
        numeric: for each column, whether it holds numbers (right-aligned).
        rows: each row's values in column order (None: missing; a float may
            be NaN or infinite, which JSON and the text formats write as missing).
    """

    names: list[str]
    numeric: list[bool]
    rows: list[list[Any]]

    @classmethod
    def of(cls, table: pd.DataFrame | Table) -> Grid:
        """The grid of a DataFrame or of a :class:`~tabla_cli.columns.Table`."""
        if isinstance(table, Table):
            names = [c.name for c in table.columns]
            return cls(names, [c.numeric for c in table.columns], [[row[n] for n in names] for row in table.rows])
        import pandas as pd

        numeric = [
            pd.api.types.is_numeric_dtype(table[c]) and not pd.api.types.is_bool_dtype(table[c]) for c in table.columns
        ]
        return cls([str(c) for c in table.columns], numeric, [list(row.values()) for row in records(table)])

    def select(self, names: Sequence[str]) -> Grid:
        """The columns ``names``, in that order.

        Raises:
            UnknownColumnError: a name is no column of the table (says which are).
        """
        unknown = [name for name in names if name not in self.names]
        if unknown:
            raise UnknownColumnError(
                f"no column {', '.join(repr(n) for n in unknown)}; the table has {', '.join(self.names)}"
            )
        at = [self.names.index(name) for name in names]
        return Grid(list(names), [self.numeric[i] for i in at], [[row[i] for i in at] for row in self.rows])

    def without_zero_columns(self, keys: int = 1) -> Grid:
        """The grid without its numeric columns that are 0 (or missing) in every row, the first ``keys`` kept.

        >>> Grid(["player", "games", "beavers"], [False, True, True], [["a", 3, 0], ["b", 1, None]]).without_zero_columns().names
        ['player', 'games']
        """
        kept = [
            name
            for i, name in enumerate(self.names)
            if i < keys or not self.numeric[i] or not self.rows or any(_nonzero(row[i]) for row in self.rows)
        ]
        return self.select(kept)

    def records(self) -> list[dict[str, Any]]:
        """The rows as dicts of JSON-ready values (missing, NaN and infinite = None)."""
        return [{name: _json(value) for name, value in zip(self.names, row)} for row in self.rows]

    def text_rows(self) -> list[list[str]]:
        """The rows as people read them (:func:`text`)."""
        return [[text(value) for value in row] for row in self.rows]


class UnknownColumnError(TablaError, ValueError):
    """A column asked for (``--columns``) that the table does not have."""


def _nonzero(value: Any) -> bool:
    return value is not None and not (isinstance(value, float) and not math.isfinite(value)) and value != 0


def _json(value: Any) -> Any:
    return None if isinstance(value, float) and not math.isfinite(value) else value


def text(value: Any) -> str:
    """A cell for people: missing = '', rates with 3 decimals, yes/no.

    >>> [text(v) for v in (None, float("nan"), True, 0.12345, 7, "Ann")]
    ['', '', 'yes', '0.123', '7', 'Ann']
    """
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)
