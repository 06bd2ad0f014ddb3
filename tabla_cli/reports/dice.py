"""Dice statistics per player (``tabla report --by dice``): are the dice as fair as they should be?

The counts are of every roll the transcripts record (the ``plays`` frame:
rolls after a play the replay could not apply included). The tests leave
out each game's opening roll, which the rules make a non-double, and compare
the rest with fair dice: each non-double roll 2/36, each double 1/36. They
give numbers and their uncertainty, never a verdict: a p-value is the
chance of a deviation at least this large from fair dice, and one player
in twenty has p < 0.05 by chance.

* doubles rate versus 1/6, with the standard error of the rate under fair
  dice, sqrt(p (1 - p) / n);
* mean pips per roll (doubles count four times) versus 49/6 = 8.1667, with
  the standard error under fair dice;
* bar entries: the rolls made with a checker on the bar, how many brought a
  checker in, and how many fair dice bring in for the points closed
  (1 - (k/6)^2 for k closed points);
* the chi-square goodness of fit of the 21 rolls (scipy.stats.chisquare,
  20 degrees of freedom), with the smallest expected count: below 5 the
  test's p-value is only a rough guide.
"""

from __future__ import annotations

import math

import pandas as pd

from tabla_cli.columns import Column, table, typed
from tabla_cli.reports.frames import Frames

__all__ = ["DICE_COLUMNS", "EXPECTED_PIPS", "ROLLS", "dice_summary", "roll_counts", "roll_probabilities"]

ROLLS: tuple[str, ...] = tuple(f"{high}{low}" for high in range(1, 7) for low in range(1, high + 1))
"""The 21 rolls, larger die first: 11, 21, 22, 31, ..., 66."""

EXPECTED_PIPS = 49 / 6
"""Mean pips per roll of fair dice (doubles count four times): 8.1667."""


def roll_probabilities() -> dict[str, float]:
    """The chance of each of :data:`ROLLS` with fair dice (1/36 a double, 2/36 the others)."""
    return {roll: (1 if roll[0] == roll[1] else 2) / 36 for roll in ROLLS}


def _pips(roll: str) -> int:
    high, low = int(roll[0]), int(roll[1])
    return 4 * high if high == low else high + low


_PIPS_SD = math.sqrt(sum(p * (_pips(r) - EXPECTED_PIPS) ** 2 for r, p in roll_probabilities().items()))

DICE_COLUMNS: tuple[Column, ...] = table("by.dice", each={"rolls": ROLLS})
"""``--by dice``: one row per player (``by.dice`` in ``columns.toml``)."""


def roll_counts(plays: pd.DataFrame) -> pd.DataFrame:
    """The plays frame's rolls as one ``roll`` label each (``64``: larger die first), valid dice only."""
    valid = plays["die1"].between(1, 6) & plays["die2"].between(1, 6)
    rolls = plays[valid]
    high = rolls[["die1", "die2"]].max(axis=1).astype("int64")
    low = rolls[["die1", "die2"]].min(axis=1).astype("int64")
    return pd.DataFrame(
        {
            "player": rolls["player"].astype("string"),
            "roll": high.astype("string") + low.astype("string"),
            "opening": rolls["opening"].astype(bool),
            "on_bar": rolls["on_bar"],
            "closed": rolls["closed"],
            "entered": rolls["entered"],
        }
    )


def _chisquare(observed: list[int]) -> tuple[float, float]:
    from scipy.stats import chisquare  # type: ignore[import-untyped]

    n = sum(observed)
    if n == 0:
        return math.nan, math.nan
    expected = [p * n for p in roll_probabilities().values()]
    result = chisquare(observed, expected)
    return float(result.statistic), float(result.pvalue)


def dice_summary(frames: Frames, players: tuple[str, ...] = ()) -> pd.DataFrame:
    """One row per player (``players``, default everyone), sorted by name; columns :data:`DICE_COLUMNS`."""
    rolls = roll_counts(frames.plays)
    if players:
        rolls = rolls[rolls["player"].isin(players)]
    rows = []
    for player, own in rolls.groupby("player", sort=True):
        counts = own["roll"].value_counts()
        tested = own[~own["opening"]]
        tested_counts = tested["roll"].value_counts().reindex(list(ROLLS), fill_value=0)
        n = int(tested_counts.sum())
        doubles = int(sum(tested_counts[r] for r in ROLLS if r[0] == r[1]))
        pips = sum(int(tested_counts[r]) * _pips(r) for r in ROLLS)
        bar = own[own["on_bar"].fillna(0).gt(0) & own["entered"].notna()]
        chance = 1 - (bar["closed"].astype("float64") / 6) ** 2
        statistic, p_value = _chisquare([int(v) for v in tested_counts])
        row: dict[str, object] = {
            "player": player,
            "rolls": len(own),
            "opening_rolls": int(own["opening"].sum()),
            **{f"roll_{r}": int(counts.get(r, 0)) for r in ROLLS},
            "tested_rolls": n,
            "doubles": doubles,
            "doubles_rate": doubles / n if n else math.nan,
            "doubles_rate_se": math.sqrt(5 / 36 / n) if n else math.nan,
            "pips_mean": pips / n if n else math.nan,
            "pips_mean_se": _PIPS_SD / math.sqrt(n) if n else math.nan,
            "bar_rolls": len(bar),
            "bar_entries": int(bar["entered"].astype(bool).sum()),
            "bar_entries_expected": float(chance.sum()),
            "bar_entries_se": math.sqrt(float((chance * (1 - chance)).sum())),
            "chi2_statistic": statistic,
            "chi2_dof": len(ROLLS) - 1 if n else None,
            "chi2_p_value": p_value,
            "chi2_min_expected": n / 36 if n else math.nan,
        }
        rows.append(row)
    return typed(pd.DataFrame(rows, columns=[c.name for c in DICE_COLUMNS]), DICE_COLUMNS)
