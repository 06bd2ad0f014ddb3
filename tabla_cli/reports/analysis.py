"""Tables and the "worst decisions" section made from a decisions frame.

The tables are :func:`tabla_cli.analysis.stats.player_stats` per player or per
match and player, or the decisions themselves. The HTML section draws the
position before each of the costliest decisions as an SVG board
(:func:`tabla_cli.svg.board_svg`) with the play made, the best play and the
equity lost. The error-rate plot is :func:`tabla_cli.reports.plots.plot_error_rates`.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tabla_cli.analysis.stats import DECISION_COLUMNS, skill_rows, stat_columns
from tabla_cli.columns import Column, Table
from tabla_cli.reports.options import ANALYSIS_TABLES

if TYPE_CHECKING:
    import pandas as pd

BY_CHOICES = ANALYSIS_TABLES
"""The tables ``tabla analyze --by`` offers."""

WORST = 20
"""How many decisions the "worst decisions" section shows."""

_FIRST_COLUMNS = (
    "file",
    "match",
    "player",
    "opponent",
    "decisions",
    "error_rate",
    "pr",
    "blunders",
    "luck_rate",
    "rating",
)


def analysis_table(decisions: Sequence[Mapping[str, Any]], by: str) -> Table:
    """The ``by`` table of the decision rows: per ``match`` and player, per ``game`` and player, per
    ``player``, or every ``decision``.

    Plain Python (:class:`~tabla_cli.columns.Table`): ``tabla analyze`` writes
    it without pandas.

    Raises:
        ValueError: ``by`` is not one of :data:`BY_CHOICES`.
    """
    if by == "decision":
        return Table.of(DECISION_COLUMNS, decisions)
    if by == "player":
        return Table.of(stat_columns(), skill_rows(decisions))
    if by not in ("match", "game"):
        raise ValueError(f"unknown table {by!r}: choose one of {', '.join(BY_CHOICES)}")
    by_game = by == "game"
    named: dict[tuple[str, str], Mapping[str, Any]] = {}
    for row in decisions:
        named.setdefault((str(row["match"]), str(row["player"])), row)
    rows = []
    for stats in skill_rows(decisions, by_match=True, by_game=by_game):
        first = named[(stats["match"], stats["player"])]
        number = _number_in_file(stats["match"], str(first["file"]))
        rows.append({**stats, "match": number, "file": first["file"], "opponent": first["opponent"]})
    return Table.of(_by_match_columns(by_game), rows)


def _by_match_columns(by_game: bool = False) -> tuple[Column, ...]:
    """The columns of the ``match`` (or ``game``) table: :data:`_FIRST_COLUMNS` first (``game`` after
    ``match``), then the rest of the statistics."""
    named = {c.name: c for c in DECISION_COLUMNS if c.name in ("file", "opponent")}
    columns = {c.name: c for c in stat_columns(by_match=True, by_game=by_game)} | named
    columns["match"] = Column("match", "int64", "the match's number in its file")
    names = _FIRST_COLUMNS[:2] + ("game",) + _FIRST_COLUMNS[2:] if by_game else _FIRST_COLUMNS
    first = [columns[name] for name in names]
    return (*first, *(c for c in columns.values() if c.name not in names))


def _number_in_file(key: str, path: str) -> int:
    """The match's number in its file, from its key (``path`` or ``path#n``)."""
    suffix = key[len(path) :]
    return int(suffix[1:]) if suffix.startswith("#") and suffix[1:].isascii() and suffix[1:].isdigit() else 1


def worst_decisions(decisions: pd.DataFrame, n: int = WORST) -> pd.DataFrame:
    """The ``n`` decisions that gave away the most equity, costliest first."""
    analysed = decisions[decisions["error"].notna() & (decisions["error"] > 0)]
    return analysed.sort_values("error", ascending=False, kind="stable").head(n)


def worst_decisions_html(decisions: pd.DataFrame, n: int = WORST) -> str:
    """An HTML fragment: each of the :func:`worst_decisions` with a board of the position before it."""
    import pandas as pd

    rows = worst_decisions(decisions, n)
    if rows.empty:
        return "<p>No analysed decision lost equity.</p>"
    parts = ['<div class="boards">']
    for row in rows.to_dict("records"):
        caption = (
            f"{row['player']}, game {row['game']} move {_text(row['move'])}: "
            f"played {_text(row['action']) or '(no move)'}, best {_text(row['best'])}, "
            f"lost {row['error']:.3f}"
        )
        source = str(row["source"])
        if rollout_mark(row):  # the standard error beside the verdict, the trials beside the source
            se, trials = row.get("rollout_se"), row.get("rollout_trials")
            caption += "" if se is None or pd.isna(se) else f" ±{float(se):.3f}"
            source += "" if trials is None or pd.isna(trials) else f", {int(trials):,} trials"
        board = _board(row, caption)
        path = _text(row.get("file")) or _text(row["match"])
        parts.append(
            f'<figure class="board">{board}<figcaption>{html.escape(caption)} '
            f"({html.escape(source)}; "
            f'<span title="{html.escape(path)}">{html.escape(short_name(path))}</span>)'
            "</figcaption></figure>"
        )
    parts.append("</div>")
    return "\n".join(parts)


def rollout_mark(row: Mapping[Any, Any]) -> str:
    """What a decision row says of its rollout: ``""`` when none judged it, else the standard error of its
    error and the trials (``tabla analyze --verify``, or a rollout the file records).

    >>> rollout_mark({"rolled_out": True, "rollout_se": 0.01234, "rollout_trials": 324})
    'rolled out, ±0.012, 324 trials'
    >>> rollout_mark({"rolled_out": False}), rollout_mark({"rolled_out": True, "rollout_se": 0.002})
    ('', 'rolled out, ±0.002')
    """
    import pandas as pd

    if not _flag(row.get("rolled_out")):
        return ""
    se, trials = row.get("rollout_se"), row.get("rollout_trials")
    mark = "rolled out" if se is None or pd.isna(se) else f"rolled out, ±{float(se):.3f}"
    return mark if trials is None or pd.isna(trials) else f"{mark}, {int(trials):,} trials"


def _flag(value: object) -> bool:
    import pandas as pd

    return value is not None and not (value is pd.NA or value != value) and bool(value)


def short_name(match: str) -> str:
    """A match's key as a caption names it: the file's own name (the path stays in a tooltip), and
    ``#n`` for a file's n-th match.

    >>> short_name("/home/ann/archive/2024/Galaxy/match967143.txt"), short_name("a/b.mat#2")
    ('match967143.txt', 'b.mat#2')
    """
    return match.replace("\\", "/").rsplit("/", 1)[-1]


def _text(value: object) -> str:
    import pandas as pd

    return "" if value is None or value is pd.NA or value != value else str(value)


def _board(row: dict[Any, Any], caption: str) -> str:
    """The SVG of a decision's position, or a note when its IDs are missing or unreadable."""
    from tabla_cli.board import Position
    from tabla_cli.errors import TablaError
    from tabla_cli.ids import decode_match_id
    from tabla_cli.svg import board_svg

    position_id, match_id = _text(row["position_id"]), _text(row["match_id"])
    if not position_id or not match_id:
        return "<p>(no board: the variant has no Position ID)</p>"
    try:
        position = Position.from_id(position_id)
        state = decode_match_id(match_id, strict=False)
        side = int(str(row["side"]))
        names = (str(row["player"]), str(row["opponent"])) if side == 0 else (str(row["opponent"]), str(row["player"]))
        return board_svg(
            position,
            on_roll=state.dice_owner,
            dice=state.dice,
            cube=state.cube,
            cube_owner=state.cube_owner,
            score=state.score,
            length=state.length,
            crawford=state.crawford,
            names=names,
            title=caption,
            size=360,
        )
    except (TablaError, ValueError):
        return "<p>(no board: the IDs cannot be read)</p>"
