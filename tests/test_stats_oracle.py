"""The plain-Python statistics against the pandas computation they replaced, on generated decisions.

:func:`tabla_cli.analysis.stats.skill_rows` was a pandas group-by until
``tabla analyze`` stopped loading pandas. That computation is kept here as
the oracle (vectorised, grouped, pandas' own compensated sums), and
hypothesis draws decision rows (errors on and off the skill bounds, forced
plays, missing errors and luck, recorded marks, cube actions right and
wrong, Match IDs and game results) for every statistic to equal it: counts,
words and missing values exactly, sums and rates within rounding (both
compensate their sums, not bit for bit alike: 1 ulp apart at times). The
statistics added since (eXtreme Gammon's count for PR, gnubg's Snowie error
rate, MWC errors and error-based FIBS rating) are computed here the same
vectorised way, from their definitions in docs/analysis.md.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabla_cli.analysis.stats import (
    FIBS_RATING_OFFSET,
    SKILL_THRESHOLDS,
    _luck_unit,
    _match_facts,
    decision_row,
    decisions_frame,
    rating_word,
    skill_rows,
    stat_columns,
)
from tabla_cli.analysis.stats import _luck_word as luck_word
from tabla_cli.columns import Table, rate, records
from tabla_cli.evaluation.types import CubeAction, DecisionKind

CHECKER, DOUBLE, TAKE = DecisionKind.CHECKER.value, DecisionKind.DOUBLE.value, DecisionKind.TAKE.value
PLAYERS = {"m1": ("Ann", "Bob"), "m2": ("Ann", "Cy"), "m3": ("Dee", "Dee")}
MATCH_IDS = ("cAkAAAAAAAAA", "cIjuAAAAAAAE", "MIHyAAAAAAAE", "AQHgAEAAEAAE", "not an id", None)
ERRORS = st.one_of(
    st.none(),
    st.sampled_from([0.0, 0.1, *SKILL_THRESHOLDS, 0.2, 1e-9]),
    st.floats(0, 2, allow_nan=False),
)
ACTIONS = [a.value for a in CubeAction] + ["13/7 8/7", None]


@st.composite
def rows(draw: st.DrawFn) -> list[dict[str, Any]]:
    out = []
    for _ in range(draw(st.integers(0, 40))):
        match = draw(st.sampled_from(sorted(PLAYERS)))
        side = draw(st.integers(0, 1))
        kind = draw(st.sampled_from([CHECKER, CHECKER, DOUBLE, TAKE]))
        row = decision_row(
            match,
            draw(st.integers(1, 3)),
            None,
            PLAYERS[match][side],
            side,
            DecisionKind(kind),
            error=draw(ERRORS),
            forced=draw(st.booleans()),
            close=draw(st.booleans()),
            action=draw(st.sampled_from(ACTIONS)),
            match_id=draw(st.sampled_from(MATCH_IDS)),
        )
        row["best"] = draw(st.sampled_from(ACTIONS))
        row["luck"] = draw(st.one_of(st.none(), st.floats(-1, 1, allow_nan=False)))
        row["skill"] = draw(st.sampled_from([None, None, "none", "doubtful", "bad", "very bad"]))
        row["game_result"] = draw(st.one_of(st.none(), st.floats(-3, 3, allow_nan=False)))
        row["xg_decision"] = draw(st.sampled_from([None, None, True, False]))
        row["error_mwc"] = draw(st.one_of(st.none(), st.none(), st.floats(0, 1, allow_nan=False)))
        out.append(row)
    return out


def pandas_stats(frame: pd.DataFrame, by_match: bool) -> pd.DataFrame:
    """The statistics as the pandas group-by computed them (the oracle)."""
    doubtful, bad, very_bad = SKILL_THRESHOLDS
    checker, take, double = frame["kind"] == CHECKER, frame["kind"] == TAKE, frame["kind"] == DOUBLE
    error = frame["error"].astype("float64").fillna(0.0)
    analysed = frame["error"].notna()
    unforced = checker & analysed & ~frame["forced"].astype(bool)
    cube_row = (double | take) & analysed
    action, best = frame["action"].astype("string").fillna(""), frame["best"].astype("string").fillna("")
    wrong = cube_row & (error > 0) & (action != best)
    luck = frame["luck"].astype("float64")
    bins = [-float("inf"), doubtful, bad, very_bad, float("inf")]
    marked = pd.Series(pd.cut(error, bins, labels=["none", "doubtful", "bad", "very bad"]).astype("string"))
    skill = frame["skill"].astype("string").fillna(marked)

    def count(mask: pd.Series) -> pd.Series:
        return mask.astype("int64")

    parts = pd.DataFrame(
        {
            "checker_decisions": count(checker),
            "unforced": count(unforced),
            "cube_decisions": count(cube_row),
            "close_cube": count(cube_row & frame["close"].astype(bool)),
            "checker_error": error.where(unforced, 0.0),
            "cube_error": error.where(cube_row, 0.0),
            "doubtful": count(checker & analysed & (skill == "doubtful")),
            "errors": count(checker & analysed & (skill == "bad")),
            "blunders": count(checker & analysed & (skill == "very bad")),
            "missed_doubles": count(wrong & double & (action == CubeAction.NO_DOUBLE.value)),
            "wrong_doubles": count(wrong & double & (action == CubeAction.DOUBLE.value)),
            "wrong_takes": count(wrong & take & (action == CubeAction.TAKE.value)),
            "wrong_passes": count(wrong & take & (action == CubeAction.PASS.value)),
            "luck_total": luck.where(checker),
            "lucky_rolls": count(checker & luck.notna()),
            **xg_parts(frame, analysed, unforced, cube_row, error),
            **match_play_parts(frame, unforced, cube_row, error),
        }
    )
    keys = ["match", "player"] if by_match else ["player"]
    for name in keys:
        parts[name] = frame[name].astype("string")
    grouped = parts.groupby(keys, sort=False)
    out = grouped.sum(min_count=0)
    out["luck_total"] = grouped["luck_total"].sum(min_count=1)
    out = out.reset_index()
    out["decisions"] = out["unforced"] + out["close_cube"]
    out["error_total"] = out["checker_error"] + out["cube_error"]
    out["error_rate"] = rate(out["error_total"], out["decisions"], 1000)
    out["checker_error_rate"] = rate(out["checker_error"], out["unforced"], 1000)
    out["cube_error_rate"] = rate(out["cube_error"], out["close_cube"], 1000)
    out["pr"] = rate(out["xg_error"], out["xg_decisions"], 500)
    out["snowie_error_rate"] = rate(out["error_total"], snowie_moves(frame, keys, out), 1000)
    out = match_play_stats(out)
    out["luck_rate"] = rate(out["luck_total"].astype("float64"), out["lucky_rolls"], 1000)
    out["rating"] = [rating_word(r) if r == r else None for r in out["error_rate"]]
    out["luck_rating"] = [luck_word(r) if r == r else None for r in out["luck_rate"]]
    if len(out):
        out = out.merge(pandas_results(frame, checker, keys), on=keys, how="left")
    else:
        out = out.assign(actual_result=[], luck_adjusted_result=[])
    out["luck_fibs_rating_diff"] = luck_rating_diff(frame, keys, out) if by_match else float("nan")
    return Table.of(stat_columns(by_match), records(out)).frame()


def xg_parts(
    frame: pd.DataFrame, analysed: pd.Series, unforced: pd.Series, cube_row: pd.Series, error: pd.Series
) -> dict[str, pd.Series]:
    """XG's count and the error it counts: the row's ``xg_decision`` where known, else gnubg's count."""
    known = frame["xg_decision"].notna()
    flagged = frame["xg_decision"].astype("boolean").fillna(False).astype(bool) & analysed
    close = cube_row & frame["close"].astype(bool)
    counted = flagged.where(known, unforced | close)
    summed = flagged.where(known, unforced | cube_row)
    return {"xg_decisions": counted.astype("int64"), "xg_error": error.where(summed, 0.0)}


def match_play_parts(
    frame: pd.DataFrame, unforced: pd.Series, cube_row: pd.Series, error: pd.Series
) -> dict[str, pd.Series]:
    """Per row: its MWC error and its error times gnubg's rating factor, in match play only."""
    facts = [_match_facts(m) for m in frame["match_id"]]
    length = pd.Series([f[0] for f in facts], index=frame.index, dtype="float64")
    scale = pd.Series([f[1] for f in facts], index=frame.index, dtype="float64")
    match = length > 0
    mwc = frame["error_mwc"].astype("float64").fillna(error * scale)
    close = cube_row & frame["close"].astype(bool)
    a2, b = 8798.0 + 25526.0 / length, 863.0 - 519.0 / length
    return {
        "checker_mwc": mwc.where(match & unforced, 0.0),
        "cube_mwc": mwc.where(match & cube_row, 0.0),
        "match_decisions": (match & (unforced | close)).astype("int64"),
        "match_unforced": (match & unforced).astype("int64"),
        "match_close_cube": (match & close).astype("int64"),
        "checker_loss": (error * a2).where(match & unforced, 0.0),
        "cube_loss": (error * b).where(match & cube_row, 0.0),
    }


def snowie_moves(frame: pd.DataFrame, keys: list[str], out: pd.DataFrame) -> pd.Series:
    """Per group: both players' checker plays in each match the group has a row in."""
    plays = frame.assign(match=frame["match"].astype("string"), player=frame["player"].astype("string"))
    per_match = (plays["kind"] == CHECKER).groupby(plays["match"]).sum()
    pairs = plays[["match", "player"]].drop_duplicates()
    pairs = pairs.assign(moves=pairs["match"].map(per_match).astype("int64"))
    moves = pairs.groupby(keys, sort=False)["moves"].sum().reset_index()
    return out[keys].merge(moves, on=keys, how="left")["moves"]


def luck_rating_diff(frame: pd.DataFrame, keys: list[str], out: pd.DataFrame) -> pd.Series:
    """gnubg's luck-based FIBS rating difference per group, at the length of the group's first row."""
    lengths = pd.Series([_match_facts(m)[0] for m in frame["match_id"]], index=frame.index, dtype="float64")
    named = frame[keys].astype("string").assign(length=lengths)
    first = named.groupby(keys, sort=False)["length"].first().reset_index()
    length = out[keys].merge(first, on=keys, how="left")["length"]
    chance = 0.5 + out["luck_adjusted_result"].astype("float64")
    with np.errstate(invalid="ignore", divide="ignore"):
        diff = (-2000.0 / np.sqrt(length) * np.log10(1.0 / chance - 1.0)).clip(lower=-2100.0)
    return diff.where((chance > 0) & (chance < 1) & (length > 0))


def match_play_stats(out: pd.DataFrame) -> pd.DataFrame:
    """The MWC errors and the FIBS rating from the summed parts (NaN without match-play decisions)."""
    match = out["match_decisions"] > 0
    out["checker_error_mwc"] = (100 * out["checker_mwc"]).where(match)
    out["cube_error_mwc"] = (100 * out["cube_mwc"]).where(match)
    out["error_total_mwc"] = out["checker_error_mwc"] + out["cube_error_mwc"]
    out["error_rate_mwc"] = out["error_total_mwc"] / out["match_decisions"].where(match)
    checker = rate(out["checker_loss"], out["match_unforced"])
    cube = rate(out["cube_loss"], out["match_close_cube"])
    out["fibs_rating"] = (FIBS_RATING_OFFSET - checker.fillna(0.0) - cube.fillna(0.0)).where(match)
    out["checker_rating_loss"] = checker.where(match)
    out["cube_rating_loss"] = cube.where(match)
    return out


def pandas_results(frame: pd.DataFrame, checker: pd.Series, keys: list[str]) -> pd.DataFrame:
    side = frame["side"].astype("int64")
    result = frame["game_result"].astype("float64")
    games = pd.DataFrame(
        {"match": frame["match"].astype("string"), "game": frame["game"], "r0": result.where(side == 0, -result)}
    )
    per_game = games.dropna(subset=["r0"]).groupby(["match", "game"], sort=False)["r0"].first()
    actual0 = per_game.groupby(level="match", sort=False).sum()
    scale = pd.Series([_luck_unit(m) for m in frame["match_id"]], index=frame.index, dtype="float64")
    luck = frame["luck"].astype("float64").where(checker) * scale
    lucky = pd.DataFrame({"match": frame["match"].astype("string"), "side": side, "luck": luck})
    luck_by = lucky.dropna(subset=["luck"]).groupby(["match", "side"], sort=False)["luck"].sum()
    sides = frame[["match", "side", "player"]].astype({"match": "string", "player": "string"})
    sides = sides.drop_duplicates(["match", "side"]).reset_index(drop=True)
    actual, adjusted = [], []
    for match, number in zip(sides["match"], sides["side"]):
        total = actual0.get(match, float("nan"))
        total = total if number == 0 else -total
        own, theirs = luck_by.get((match, number)), luck_by.get((match, 1 - number))
        actual.append(total)
        adjusted.append(float("nan") if own is None and theirs is None else total - (own or 0.0) + (theirs or 0.0))
    sides["actual_result"] = pd.array(actual, dtype="float64")
    sides["luck_adjusted_result"] = pd.array(adjusted, dtype="float64")
    return sides.groupby(keys, sort=False)[["actual_result", "luck_adjusted_result"]].sum(min_count=1).reset_index()


def same(made: Any, expected: Any) -> bool:
    if isinstance(made, float) and isinstance(expected, float):
        return math.isclose(made, expected, rel_tol=1e-12, abs_tol=1e-12)
    return type(made) is type(expected) and made == expected


def check(decisions: list[dict[str, Any]], by_match: bool) -> None:
    expected = records(pandas_stats(decisions_frame(decisions), by_match))
    made = Table.of(stat_columns(by_match), skill_rows(decisions, by_match=by_match)).rows
    assert [list(row) for row in made] == [list(row) for row in expected]
    for row, want in zip(made, expected):
        assert all(same(row[name], want[name]) for name in row), (row, want)


@pytest.mark.parametrize("by_match", [False, True])
@settings(max_examples=40, deadline=None)
@given(decisions=rows())
def test_statistics_equal_the_pandas_group_by(decisions: list[dict[str, Any]], by_match: bool) -> None:
    check(decisions, by_match)


@pytest.mark.slow
@pytest.mark.parametrize("by_match", [False, True])
@settings(max_examples=400, deadline=None)
@given(decisions=rows())
def test_statistics_equal_the_pandas_group_by_long(decisions: list[dict[str, Any]], by_match: bool) -> None:
    check(decisions, by_match)
