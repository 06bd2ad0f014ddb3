"""Table cells as people and JSON see them: missing values, rates, yes/no.

A :class:`Grid` is what every text format writes (:mod:`tabla_cli.reports.render`,
the HTML page of :mod:`tabla_cli.reports.html`): column names, which are
numbers, and rows of plain Python values. It comes from a pandas DataFrame
(the report's tables) or from a :class:`~tabla_cli.columns.Table` without
pandas (``tabla analyze``'s tables).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tabla_cli.columns import Table, records

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

    def records(self) -> list[dict[str, Any]]:
        """The rows as dicts of JSON-ready values (missing, NaN and infinite = None)."""
        return [{name: _json(value) for name, value in zip(self.names, row)} for row in self.rows]

    def text_rows(self) -> list[list[str]]:
        """The rows as people read them (:func:`text`)."""
        return [[text(value) for value in row] for row in self.rows]


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
