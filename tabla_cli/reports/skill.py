"""Players' skill in the report: the ``decisions`` frame and the skill columns of the tables.

The decisions are the analysis' own (:mod:`tabla_cli.analysis.decisions`):
the report's replay feeds a
:class:`~tabla_cli.analysis.decisions.DecisionsVisitor` per match, and what it
collected is evaluated (the analysis the file records, else the engine with
``--analyze``) into rows of the ``decisions`` frame
(:class:`tabla_cli.reports.reading.ReportDecisions`). The statistics are
:func:`tabla_cli.analysis.stats.player_stats`, so the skill columns are its
columns (:data:`SKILL_COLUMNS`), with the definitions of ``docs/analysis.md``.
"""

from __future__ import annotations

import pandas as pd

from tabla_cli.analysis.stats import STAT_COLUMNS, player_stats
from tabla_cli.columns import Column, rate

__all__ = [
    "MATCH_SKILL_COLUMNS",
    "OPPONENT_SKILL_COLUMNS",
    "RENAMED",
    "SKILL_COLUMNS",
    "group_skill",
    "match_skill",
    "player_skill",
]

RENAMED = {"rating": "skill_rating"}
"""Statistics renamed in the report tables (``rating`` there is a player's rating from the transcript)."""

SKILL_COLUMNS: tuple[Column, ...] = tuple(
    Column(RENAMED.get(c.name, c.name), c.dtype, c.doc, unit=c.unit) for c in STAT_COLUMNS if c.name != "player"
)
"""Added to the player table when the frames hold decisions: every statistic of
:data:`tabla_cli.analysis.stats.STAT_COLUMNS`."""

MATCH_SKILL_COLUMNS: tuple[Column, ...] = tuple(
    Column(f"{c.name}{side}", c.dtype, f"player{side}'s {c.name}", unit=c.unit)
    for c in SKILL_COLUMNS
    for side in (0, 1)
)
"""Added to the match table when the frames hold decisions: each skill column per side."""

OPPONENT_SKILL_COLUMNS: tuple[Column, ...] = (
    Column("opponent_error_rate", "float64", "the opponent's error_rate in these matches", unit="mEMG"),
    Column("opponent_pr", "float64", "the opponent's pr in these matches", unit="PR"),
)
"""Added to the opponent table, with ``decisions``, ``error_rate`` and ``pr``, when the frames hold decisions."""

GROUP_SKILL = ("decisions", "error_rate", "pr")
"""The skill columns of the opponent and period tables."""


def _stats(decisions: pd.DataFrame, key: pd.Series, by_match: bool = False) -> pd.DataFrame:
    """:func:`player_stats` grouped by ``key`` (given in the ``player`` column), as the report names them."""
    keyed = decisions.assign(player=key.astype("string"), match=decisions["match"].astype("string"))
    stats = player_stats(keyed, by_match=by_match).rename(columns=RENAMED)
    if by_match:
        stats["match"] = stats["match"].astype("int64")
    return stats


def player_skill(decisions: pd.DataFrame) -> pd.DataFrame:
    """:data:`SKILL_COLUMNS` per ``player``."""
    return _stats(decisions, decisions["player"])


def match_skill(decisions: pd.DataFrame) -> pd.DataFrame:
    """:data:`MATCH_SKILL_COLUMNS` per ``match``: each side's statistics in that match (missing for a
    side without decisions)."""
    stats = _stats(decisions, decisions["side"].astype("string"), by_match=True)
    wide = stats.pivot(index="match", columns="player")
    levels = wide.columns
    wide.columns = [f"{name}{side}" for name, side in zip(levels.get_level_values(0), levels.get_level_values(1))]
    return wide.reindex(columns=[c.name for c in MATCH_SKILL_COLUMNS]).reset_index()


def group_skill(decisions: pd.DataFrame, sides: pd.DataFrame, keys: list[str], prefix: str = "") -> pd.DataFrame:
    """``decisions``, ``error_rate`` and ``pr`` grouped by ``keys`` (columns of ``sides``).

    ``sides`` has one row per match and side that counts (``match``,
    ``player``, ``opponent`` and the keys). With ``prefix`` ``opponent_``,
    the rates are those of each side's opponent (and ``decisions`` is left out).
    """
    per = _stats(decisions, decisions["player"], by_match=True)
    sides = sides.assign(name=sides["opponent"] if prefix else sides["player"])
    joined = per.merge(sides, left_on=["match", "player"], right_on=["match", "name"], suffixes=("_stats", ""))
    sums = joined.groupby(keys).agg(decisions=("decisions", "sum"), error_total=("error_total", "sum"))
    out = pd.DataFrame(index=sums.index)
    if not prefix:
        out["decisions"] = sums["decisions"].astype("int64")
    out[f"{prefix}error_rate"] = rate(sums["error_total"], sums["decisions"], 1000)
    out[f"{prefix}pr"] = rate(sums["error_total"], sums["decisions"], 500)
    return out.reset_index()
