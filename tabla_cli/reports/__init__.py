"""Reports: match statistics as pandas DataFrames (``tabla report``).

Compute apart from render, as ydata-profiling does: :mod:`.frames` reads and
replays transcripts into six DataFrames with documented columns and dtypes
(``decisions``: the players' analysed decisions, :mod:`.skill`),
:mod:`.summaries` aggregates them per player, per match and per finding code,
and :mod:`.render`, :mod:`.html` and :mod:`.plots` turn a table into text,
files, pages and plots. :mod:`.build` makes a report's frames from its
inputs and options in one call, as ``tabla report`` does. :mod:`.options`
names the tables and formats without loading pandas; the names below load
their module (and pandas) on first use.

>>> from tabla_cli.reports import build_frames, player_summary
>>> frames = build_frames(["examples/three-point-match.mat"])  # doctest: +SKIP
>>> player_summary(frames)[["player", "match_wins"]]  # doctest: +SKIP
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tabla_cli.reports.build import Report, ReportOptions, build_report
    from tabla_cli.reports.frames import (
        COLUMNS,
        FRAME_NAMES,
        NAME_COLUMNS,
        Column,
        FileRows,
        FrameBuilder,
        Frames,
        build_frames,
        empty_frame,
        file_rows,
        frames_from_matches,
        frames_from_text,
        iter_file_rows,
        read_frames,
        text_rows,
        write_frames,
    )
    from tabla_cli.reports.summaries import (
        SUMMARY_COLUMNS,
        TABLES,
        apply_aliases,
        cube_table,
        decision_table,
        findings_by_code,
        game_table,
        match_summary,
        player_summary,
        read_aliases,
        summarize,
    )

_MODULES = {
    "build": ("Report", "ReportOptions", "build_report"),
    "frames": (
        "COLUMNS",
        "FRAME_NAMES",
        "NAME_COLUMNS",
        "Column",
        "FileRows",
        "FrameBuilder",
        "Frames",
        "build_frames",
        "empty_frame",
        "file_rows",
        "frames_from_matches",
        "frames_from_text",
        "iter_file_rows",
        "read_frames",
        "text_rows",
        "write_frames",
    ),
    "summaries": (
        "SUMMARY_COLUMNS",
        "TABLES",
        "apply_aliases",
        "cube_table",
        "decision_table",
        "findings_by_code",
        "game_table",
        "match_summary",
        "player_summary",
        "read_aliases",
        "summarize",
    ),
}
_LAZY = {name: module for module, names in _MODULES.items() for name in names}

__all__ = [
    "COLUMNS",
    "FRAME_NAMES",
    "NAME_COLUMNS",
    "SUMMARY_COLUMNS",
    "TABLES",
    "Column",
    "FileRows",
    "FrameBuilder",
    "Frames",
    "Report",
    "ReportOptions",
    "apply_aliases",
    "build_frames",
    "build_report",
    "cube_table",
    "decision_table",
    "empty_frame",
    "file_rows",
    "findings_by_code",
    "frames_from_matches",
    "frames_from_text",
    "game_table",
    "iter_file_rows",
    "match_summary",
    "player_summary",
    "read_aliases",
    "read_frames",
    "summarize",
    "text_rows",
    "write_frames",
]


def __getattr__(name: str) -> Any:
    """Import the module that defines ``name`` when ``name`` is first asked for."""
    if name in _LAZY:
        return getattr(importlib.import_module(f"tabla_cli.reports.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
