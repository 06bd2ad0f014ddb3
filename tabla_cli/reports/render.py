"""Render report tables: terminal tables, CSV, JSON, JSON Lines, Markdown, Parquet (HTML: :mod:`.html`).

Nothing here computes statistics: it takes the DataFrames of
:mod:`tabla_cli.reports.summaries` and :mod:`tabla_cli.reports.frames`, or a
:class:`~tabla_cli.columns.Table` (``tabla analyze``'s, made without pandas),
and writes them out; the text formats need no pandas. The HTML page is
:mod:`tabla_cli.reports.html`, the plots :mod:`tabla_cli.reports.plots`.

>>> from tabla_cli.columns import Column, Table
>>> table = Table.of((Column("player", "string", ""), Column("games", "int64", "")), [{"player": "Ann|B", "games": 3}])
>>> print(render_markdown(Grid.of(table)), end="")
| player | games |
|:--|--:|
| Ann\\|B | 3 |
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from tabla_cli.columns import Table
from tabla_cli.reports.cells import Grid
from tabla_cli.reports.options import FORMATS

if TYPE_CHECKING:
    import pandas as pd

    T = TypeVar("T", pd.DataFrame, Table)

# --- text formats ------------------------------------------------------------------


def render_csv(grid: Grid) -> str:
    """CSV with a header; missing cells empty, floats at full precision (their shortest exact form).

    >>> print(render_csv(Grid(["a", "b"], [True, False], [[0.1, "x,y"], [None, True]])), end="")
    a,b
    0.1,"x,y"
    ,True
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(grid.names)
    writer.writerows(["" if value is None else value for value in row] for row in grid.rows)
    return out.getvalue()


def render_json(grid: Grid) -> str:
    """One JSON document: a list of row objects."""
    return json.dumps(grid.records(), ensure_ascii=False, indent=2) + "\n"


def render_jsonl(grid: Grid) -> str:
    """JSON Lines: one row object per line."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in grid.records())


def render_markdown(grid: Grid) -> str:
    """A GitHub-flavoured Markdown pipe table (numbers right-aligned)."""

    def cell(text: str) -> str:
        return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")

    lines = [
        "| " + " | ".join(cell(name) for name in grid.names) + " |",
        "|" + "|".join("--:" if n else ":--" for n in grid.numeric) + "|",
    ]
    lines.extend("| " + " | ".join(cell(v) for v in row) + " |" for row in grid.text_rows())
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

    Each group repeats the first ``keys`` columns so a row can be followed; a
    numeric column that is 0 in every row is left out (it would only widen the table).
    """
    from rich import box
    from rich.table import Table

    grid = Grid.of(df).without_zero_columns(keys)
    rows = grid.text_rows()
    headers, numeric = grid.names, grid.numeric
    widths = [max([len(h)] + [len(r[i]) for r in rows]) + 3 for i, h in enumerate(headers)]
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


def render_table(grid: Grid, *, width: int | None = None, keys: int = 1) -> str:
    """``grid`` as a plain-text table; ``width`` None = as wide as it needs.

    The layout of the rich tables, written directly (fast for large tables).
    Too wide for ``width``, it is split into column groups that each repeat
    the first ``keys`` columns.
    """
    gap = 3
    rows = grid.text_rows()
    headers, numeric = grid.names, grid.numeric
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
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


def select_columns(table: T, columns: Sequence[str]) -> T:
    """``table`` (a DataFrame or a :class:`~tabla_cli.columns.Table`) with only ``columns``, in that order;
    every column when ``columns`` is empty.

    Raises:
        UnknownColumnError: a column the table does not have (the message lists those it has).
    """
    if not columns:
        return table
    names = [c.name for c in table.columns] if isinstance(table, Table) else [str(c) for c in table.columns]
    Grid(names, [False] * len(names), []).select(columns)
    if isinstance(table, Table):
        chosen = tuple(next(c for c in table.columns if c.name == name) for name in columns)
        return Table(chosen, [{name: row[name] for name in columns} for row in table.rows])
    return table[list(columns)]


def render(table: pd.DataFrame | Table, fmt: str, *, width: int | None = None, keys: int = 1) -> str | bytes:
    """``table`` in the text format ``fmt`` (table, csv, json, jsonl, markdown) or as Parquet bytes.

    A terminal table (``table``) leaves out the numeric columns that are 0 in every row.

    The text formats of a :class:`~tabla_cli.columns.Table` load no pandas.
    HTML needs plots and headings: use :func:`render_html`.
    """
    if fmt in ("parquet", "html"):
        frame = table.frame() if isinstance(table, Table) else table
        if fmt == "parquet":
            return parquet_bytes(frame)
        from tabla_cli.reports.html import render_html  # the page's plots and frames load only for it

        return render_html([("Report", frame)])
    grid = Grid.of(table)
    if fmt == "table":
        return render_table(grid.without_zero_columns(keys), width=width, keys=keys)
    if fmt == "csv":
        return render_csv(grid)
    if fmt == "json":
        return render_json(grid)
    if fmt == "jsonl":
        return render_jsonl(grid)
    if fmt == "markdown":
        return render_markdown(grid)
    raise ValueError(f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}")
