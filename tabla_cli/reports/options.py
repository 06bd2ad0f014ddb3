"""What a report can be asked for: its tables, periods and output formats.

Plain names with no pandas behind them, so that ``tabla``'s options can list
them without loading the report machinery (start-up time is user time).
"""

from __future__ import annotations

from pathlib import Path

from tabla_cli.writers import format_for_suffix

TABLE_NAMES: tuple[str, ...] = (
    "player",
    "opponent",
    "period",
    "dice",
    "match",
    "game",
    "cube",
    "findings",
    "decisions",
)
"""The tables of ``tabla report --by`` (see :func:`tabla_cli.reports.summarize`)."""

PLAYER_TABLES: tuple[str, ...] = ("opponent", "period")
"""The tables that need players (``--player``)."""

DEPRECATED_TABLES: dict[str, str] = {"errors": "findings"}
"""Old table names: they still work, with a notice on stderr."""

PERIODS: tuple[str, ...] = ("week", "month", "year")
"""The periods of the ``period`` table."""

ANALYSIS_TABLES: tuple[str, ...] = ("match", "game", "player", "decision")
"""The tables of ``tabla analyze --by`` (see :func:`tabla_cli.reports.analysis.analysis_table`)."""

FORMATS: tuple[str, ...] = ("table", "csv", "json", "jsonl", "markdown", "html", "parquet")
"""The ``--format`` values of ``tabla report`` and ``tabla analyze``."""

SUFFIXES: dict[str, str] = {
    ".txt": "table",
    ".csv": "csv",
    ".json": "json",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".md": "markdown",
    ".markdown": "markdown",
    ".html": "html",
    ".htm": "html",
    ".parquet": "parquet",
    ".pq": "parquet",
}
"""Output file suffixes (lower case) and the report format each one implies (not the same
formats as ``tabla convert``'s: a ``.csv`` report is a table, not positions)."""


def format_for_path(path: str | Path) -> str | None:
    """The format an output file's suffix implies; None when the suffix is unknown.

    >>> format_for_path("out/report.CSV"), format_for_path("report.xlsx")
    ('csv', None)
    """
    return format_for_suffix(path, SUFFIXES)
