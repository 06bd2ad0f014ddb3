"""Documented table columns, shared by the analysis and the report: :class:`Column` and its helpers.

Every frame and table the package returns (the analysis' decisions and
statistics, the report's frames and ``--by`` tables) lists its columns as
:class:`Column` values: name, dtype and meaning, in order. They are data, in
one file shipped with the package, ``columns.toml`` (its head says how a
table is written); :func:`table` reads one table, and the module that owns
it gives it its public name. :func:`typed` gives a DataFrame exactly those
columns, and :func:`rate` is the one way a rate column is computed. pandas
and pyarrow load only where a frame is typed: the column lists need neither.

>>> Column("games", "int64", "games played").pandas_dtype
'int64'
>>> table("by.opponent")[-1]
Column(name='opponent_drops', dtype='int64', doc="the opponent's drops", categories=(), unit='')
"""

from __future__ import annotations

import functools
import math
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa  # type: ignore[import-untyped]

__all__ = ["Column", "Table", "plain", "rate", "records", "table", "typed"]

SCHEMA_FILE = "columns.toml"
"""The file of the package that holds every table's columns."""

Family = Sequence[str | Sequence[str]]
"""The values a ``for`` entry of the schema loops over: strings, or tuples of strings for ``a, b in F``."""


@dataclass(frozen=True, slots=True)
class Column:
    """One documented column of a frame or table.

    Attributes:
        name: the column name (snake_case, stable).
        dtype: the pandas dtype name: ``int64`` and ``bool`` never missing,
            ``Int64``, ``Float64`` and ``boolean`` nullable, ``float64`` (NaN where a rate
            is undefined), ``string`` (``pd.NA`` when missing) or
            ``category`` (fixed ``categories``).
        doc: what the column holds.
        categories: the categories of a ``category`` column, in order.
        unit: what a measure counts in, where a number alone would not say:
            ``share`` (a fraction from 0 to 1, which pages show as a
            percentage), ``mEMG`` or ``PR``; empty for counts, names and
            figures whose doc says their unit.
    """

    name: str
    dtype: str
    doc: str
    categories: tuple[str, ...] = ()
    unit: str = ""

    @property
    def pandas_dtype(self) -> Any:
        """The dtype to give the pandas column."""
        import pandas as pd

        if self.dtype == "category":
            return pd.CategoricalDtype(list(self.categories), ordered=False)
        if self.dtype == "string":
            return pd.StringDtype()
        return self.dtype

    @property
    def arrow_type(self) -> pa.DataType:
        """The Arrow type rows are packed into before the pandas conversion."""
        import pyarrow as pa

        if self.dtype in ("int64", "Int64"):
            return pa.int64()
        if self.dtype in ("float64", "Float64"):
            return pa.float64()
        if self.dtype in ("bool", "boolean"):
            return pa.bool_()
        return pa.string()

    @property
    def numeric(self) -> bool:
        """Whether the column holds numbers (written right-aligned)."""
        return self.dtype in ("int64", "Int64", "float64", "Float64")


@functools.cache
def _schema() -> dict[str, Any]:
    """The parsed :data:`SCHEMA_FILE` (read once)."""
    return tomllib.loads(resources.files(__package__).joinpath(SCHEMA_FILE).read_text(encoding="utf-8"))


def table(
    name: str, categories: Mapping[str, Sequence[str]] | None = None, each: Mapping[str, Family] | None = None
) -> tuple[Column, ...]:
    """The columns of table ``name`` of :data:`SCHEMA_FILE`, in order.

    Args:
        name: ``SECTION.TABLE``, e.g. ``frames.games``.
        categories: the category sets the table's category columns name (``{categories = "SET"}``).
        each: families its ``for`` entries loop over, beside the file's own ``[each]``.

    Raises:
        KeyError: the file has no such table, or a set or family is not given.
        ValueError: an entry is not a column, a ``for`` clause or a reference.
    """
    schema = _schema()
    return tuple(_columns(schema, name, categories or {}, {**schema["each"], **(each or {})}))


def _columns(
    schema: dict[str, Any], name: str, categories: Mapping[str, Sequence[str]], families: Mapping[str, Family]
) -> Iterator[Column]:
    section, _, key = name.partition(".")
    for entry in schema[section][key]:
        if isinstance(entry, str) and entry.startswith("@"):
            yield from _columns(schema, entry[1:], categories, families)
            continue
        if not isinstance(entry, list) or len(entry) not in (3, 4):
            raise ValueError(f"{SCHEMA_FILE}: {name}: not a column: {entry!r}")
        options: dict[str, str] = entry[3] if len(entry) == 4 else {}
        sets = tuple(categories[options["categories"]]) if "categories" in options else ()
        unit = options.get("unit", "")
        if "for" not in options:
            yield Column(entry[0], entry[1], entry[2], sets, unit)
            continue
        for fields in _loops(options["for"], families):
            yield Column(entry[0].format(**fields), entry[1], entry[2].format(**fields), sets, unit)


def _loops(clause: str, families: Mapping[str, Family]) -> list[dict[str, str | Sequence[str]]]:
    """The field values of a ``for`` clause (``a, b in F; c in G``: G varies fastest), in order."""
    out: list[dict[str, str | Sequence[str]]] = [{}]
    for loop in clause.split(";"):
        names, found, family = loop.partition(" in ")
        keys = [k.strip() for k in names.split(",")]
        if not found:
            raise ValueError(f"{SCHEMA_FILE}: not a loop: {loop!r}")
        values = [(v,) if isinstance(v, str) or len(keys) == 1 else tuple(v) for v in families[family.strip()]]
        if any(len(v) != len(keys) for v in values):
            raise ValueError(f"{SCHEMA_FILE}: {family.strip()} has no {len(keys)} parts to each value: {loop!r}")
        out = [{**fields, **dict(zip(keys, v))} for fields in out for v in values]
    return out


def typed(frame: pd.DataFrame, columns: tuple[Column, ...]) -> pd.DataFrame:
    """``frame``'s ``columns`` in their order, with their dtypes and a fresh index."""
    return frame[[c.name for c in columns]].astype({c.name: c.pandas_dtype for c in columns}).reset_index(drop=True)


def rate(count: pd.Series, total: pd.Series, scale: float = 1) -> pd.Series:
    """``scale * count / total`` as ``float64``; NaN where ``total`` is 0 (a rate over nothing).

    >>> import pandas as pd
    >>> rate(pd.Series([1, 2]), pd.Series([4, 0]), 1000).tolist()
    [250.0, nan]
    """
    totals = total.astype("float64")
    return (scale * count.astype("float64") / totals.where(totals > 0)).astype("float64")


def plain(value: Any, column: Column) -> Any:
    """``value`` as a plain Python value of ``column``'s dtype, as :func:`typed` gives it (None: missing).

    Missing is None or NaN; ``int64`` is never missing and ``bool`` missing is
    False (as pandas casts them); a ``category`` value outside the column's
    categories is missing.

    >>> plain(3, Column("x", "Float64", "")), plain(float("nan"), Column("x", "float64", ""))
    (3.0, None)
    >>> plain(None, Column("x", "bool", "")), plain(7, Column("x", "string", ""))
    (False, '7')
    """
    kind = column.dtype
    if kind == "bool":
        return bool(value)
    if kind == "int64":
        return int(value)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if kind in ("float64", "Float64"):
        return float(value)
    if kind == "Int64":
        return int(value)
    if kind == "boolean":
        return bool(value)
    if kind == "category":
        return value if value in column.categories else None
    return str(value)


@dataclass(frozen=True, slots=True)
class Table:
    """Rows of documented columns as plain Python values (None: missing): a table without pandas.

    Attributes:
        columns: the columns, in order.
        rows: one dict per row, keyed by column name, each value as :func:`plain` gives it.
    """

    columns: tuple[Column, ...]
    rows: list[dict[str, Any]]

    @classmethod
    def of(cls, columns: tuple[Column, ...], rows: Iterable[Mapping[str, Any]]) -> Table:
        """The table of ``rows`` (dicts with at least the columns' names), each value made :func:`plain`."""
        return cls(columns, [{c.name: plain(row[c.name], c) for c in columns} for row in rows])

    def frame(self) -> pd.DataFrame:
        """The table as a pandas DataFrame with the columns' dtypes."""
        import pandas as pd

        names = [c.name for c in self.columns]
        return typed(pd.DataFrame.from_records(self.rows, columns=names), self.columns)


def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """The rows of ``frame`` as dicts of plain Python values (missing and infinite = None)."""
    columns = [str(c) for c in frame.columns]
    data = [frame[c].astype(object).tolist() for c in frame.columns]
    return [{c: _plain(v) for c, v in zip(columns, row)} for row in zip(*data)]


def _plain(value: Any) -> Any:
    import pandas as pd

    if value is None or value is pd.NA:
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
