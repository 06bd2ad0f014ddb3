"""Table cells as people and JSON see them: missing values, rates, yes/no.

Shared by the text formats (:mod:`tabla_cli.reports.render`) and the HTML
page (:mod:`tabla_cli.reports.html`).
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd


def _is_missing(value: Any) -> bool:
    if value is None or value is pd.NA:
        return True
    return isinstance(value, float) and math.isnan(value)


def _plain(value: Any) -> Any:
    """A cell as a JSON-ready Python value."""
    if _is_missing(value):
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isinf(value):
        return None
    return value


def records(df: pd.DataFrame) -> list[dict[str, Any]]:
    """The rows of ``df`` as dicts of plain Python values (missing = None)."""
    columns = [str(c) for c in df.columns]
    data = [df[c].astype(object).tolist() for c in df.columns]
    return [{c: _plain(v) for c, v in zip(columns, row)} for row in zip(*data)]


def _text(value: Any) -> str:
    """A cell for people: missing = '', rates with 3 decimals, yes/no."""
    if _is_missing(value):
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def _numeric(df: pd.DataFrame) -> list[bool]:
    return [pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c]) for c in df.columns]


def _text_rows(df: pd.DataFrame) -> list[list[str]]:
    return [[_text(v) for v in row.values()] for row in records(df)]
