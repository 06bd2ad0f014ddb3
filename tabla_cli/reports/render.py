"""Render report tables: terminal tables, CSV, JSON, JSON Lines, Markdown, Parquet (HTML: :mod:`.html`).

Nothing here computes statistics: it takes the DataFrames of
:mod:`tabla_cli.reports.summaries` and :mod:`tabla_cli.reports.frames` and
writes them out. The HTML page is :mod:`tabla_cli.reports.html`, the plots
:mod:`tabla_cli.reports.plots`.

>>> import pandas as pd
>>> print(render_markdown(pd.DataFrame({"player": ["Ann|B"], "games": [3]})), end="")
| player | games |
|:--|--:|
| Ann\\|B | 3 |
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from typing import Any

import pandas as pd

from tabla_cli.reports.cells import _numeric, _text_rows, records
from tabla_cli.reports.options import FORMATS

# --- text formats ------------------------------------------------------------------


def render_csv(df: pd.DataFrame) -> str:
    """CSV with a header; missing cells empty, floats at full precision."""
    text: str = df.to_csv(index=False, lineterminator="\n")
    return text


def render_json(df: pd.DataFrame) -> str:
    """One JSON document: a list of row objects."""
    return json.dumps(records(df), ensure_ascii=False, indent=2) + "\n"


def render_jsonl(df: pd.DataFrame) -> str:
    """JSON Lines: one row object per line."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records(df))


def render_markdown(df: pd.DataFrame) -> str:
    """A GitHub-flavoured Markdown pipe table (numbers right-aligned)."""

    def cell(text: str) -> str:
        return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")

    numeric = _numeric(df)
    lines = [
        "| " + " | ".join(cell(str(c)) for c in df.columns) + " |",
        "|" + "|".join("--:" if n else ":--" for n in numeric) + "|",
    ]
    lines.extend("| " + " | ".join(cell(v) for v in row) + " |" for row in _text_rows(df))
    return "\n".join(lines) + "\n"


def _column_groups(widths: Sequence[int], width: int, keys: int) -> list[list[int]]:
    """Split column indices into groups that fit ``width``, repeating the first ``keys`` columns."""
    head = list(range(min(keys, len(widths))))
    base = sum(widths[i] for i in head)
    groups: list[list[int]] = []
    current: list[int] = []
    used = base
    for i in range(len(head), len(widths)):
        if current and used + widths[i] > width:
            groups.append(head + current)
            current, used = [], base
        current.append(i)
        used += widths[i]
    if current or not groups:
        groups.append(head + current)
    return groups


def table_renderables(
    df: pd.DataFrame, *, width: int | None = None, keys: int = 1, title: str | None = None
) -> list[Any]:
    """rich Tables for ``df``: one, or several column groups when ``width`` is too narrow.

    Each group repeats the first ``keys`` columns so a row can be followed.
    """
    from rich import box
    from rich.table import Table

    rows = _text_rows(df)
    headers = [str(c) for c in df.columns]
    widths = [max([len(h)] + [len(r[i]) for r in rows]) + 3 for i, h in enumerate(headers)]
    numeric = _numeric(df)
    groups = [list(range(len(headers)))] if width is None else _column_groups(widths, width - 1, keys)
    out: list[Any] = []
    for n, group in enumerate(groups):
        table = Table(
            box=box.SIMPLE_HEAD, title=title if n == 0 else None, title_justify="left", pad_edge=False, show_edge=False
        )
        for i in group:
            table.add_column(headers[i], justify="right" if numeric[i] else "left", no_wrap=True)
        for row in rows:
            table.add_row(*(row[i] for i in group))
        out.append(table)
    return out


def print_tables(console: Any, tables: Sequence[Any]) -> None:
    """Print rich tables with a blank line between column groups."""
    for n, table in enumerate(tables):
        if n:
            console.print()
        console.print(table)


def render_table(df: pd.DataFrame, *, width: int | None = None, keys: int = 1) -> str:
    """``df`` as a plain-text table; ``width`` None = as wide as it needs.

    The layout of the rich tables, written directly (fast for large tables).
    Too wide for ``width``, it is split into column groups that each repeat
    the first ``keys`` columns.
    """
    gap = 3
    rows = _text_rows(df)
    headers = [str(c) for c in df.columns]
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    numeric = _numeric(df)
    if width is None:
        groups = [list(range(len(headers)))]
    else:
        groups = _column_groups([w + gap for w in widths], width + gap, keys)
    blocks = []
    for group in groups:

        def line(cells: Sequence[str], group: list[int] = group) -> str:
            return (
                (" " * gap)
                .join(cell.rjust(widths[i]) if numeric[i] else cell.ljust(widths[i]) for i, cell in zip(group, cells))
                .rstrip()
            )

        rule = "\u2500" * (sum(widths[i] for i in group) + gap * (len(group) - 1))
        body = [line([row[i] for i in group]) for row in rows]
        blocks.append("\n".join([line([headers[i] for i in group]), rule, *body]))
    return "\n\n".join(blocks) + "\n"


def parquet_bytes(df: pd.DataFrame) -> bytes:
    """``df`` as a Parquet file (pyarrow), dtypes kept in the pandas metadata."""
    buffer = io.BytesIO()
    df.to_parquet(buffer, engine="pyarrow", index=False)
    return buffer.getvalue()


def render(df: pd.DataFrame, fmt: str, *, width: int | None = None, keys: int = 1) -> str | bytes:
    """``df`` in the text format ``fmt`` (table, csv, json, jsonl, markdown) or as Parquet bytes.

    HTML needs plots and headings: use :func:`render_html`.
    """
    if fmt == "table":
        return render_table(df, width=width, keys=keys)
    if fmt == "csv":
        return render_csv(df)
    if fmt == "json":
        return render_json(df)
    if fmt == "jsonl":
        return render_jsonl(df)
    if fmt == "markdown":
        return render_markdown(df)
    if fmt == "parquet":
        return parquet_bytes(df)
    if fmt == "html":
        from tabla_cli.reports.html import render_html  # the page's plots and frames load only for it

        return render_html([("Report", df)])
    raise ValueError(f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}")
