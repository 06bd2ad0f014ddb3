"""Documented table columns, shared by the analysis and the report: :class:`Column` and its helpers.

Every frame and table the package returns (the analysis' decisions and
statistics, the report's frames and ``--by`` tables) lists its columns as
:class:`Column` values: name, dtype and meaning, in order. :func:`typed` gives a
DataFrame exactly those columns, and :func:`rate` is the one way a rate
column is computed.

>>> Column("games", "int64", "games played").pandas_dtype
'int64'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd
import pyarrow as pa  # type: ignore[import-untyped]

__all__ = ["Column", "rate", "typed"]


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
    """

    name: str
    dtype: str
    doc: str
    categories: tuple[str, ...] = ()

    @property
    def pandas_dtype(self) -> Any:
        """The dtype to give the pandas column."""
        if self.dtype == "category":
            return pd.CategoricalDtype(list(self.categories), ordered=False)
        if self.dtype == "string":
            return pd.StringDtype()
        return self.dtype

    @property
    def arrow_type(self) -> pa.DataType:
        """The Arrow type rows are packed into before the pandas conversion."""
        if self.dtype in ("int64", "Int64"):
            return pa.int64()
        if self.dtype in ("float64", "Float64"):
            return pa.float64()
        if self.dtype in ("bool", "boolean"):
            return pa.bool_()
        return pa.string()


def typed(frame: pd.DataFrame, columns: tuple[Column, ...]) -> pd.DataFrame:
    """``frame``'s ``columns`` in their order, with their dtypes and a fresh index."""
    return frame[[c.name for c in columns]].astype({c.name: c.pandas_dtype for c in columns}).reset_index(drop=True)


def rate(count: pd.Series, total: pd.Series, scale: float = 1) -> pd.Series:
    """``scale * count / total`` as ``float64``; NaN where ``total`` is 0 (a rate over nothing).

    >>> rate(pd.Series([1, 2]), pd.Series([4, 0]), 1000).tolist()
    [250.0, nan]
    """
    totals = total.astype("float64")
    return (scale * count.astype("float64") / totals.where(totals > 0)).astype("float64")
