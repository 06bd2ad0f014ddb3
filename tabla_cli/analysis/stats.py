"""Skill statistics from the decisions: error rates, PR, blunders, luck.

The input is the ``decisions`` frame, one row per decision (its columns are
:data:`DECISION_COLUMNS`); :func:`player_stats` sums it per player, or per
match and player. Each statistic follows GNU Backgammon's definition unless
it says otherwise (docs/analysis.md gives the sources):

* a checker play counts when it is unforced (more than one legal play);
* a cube decision counts when it is close or actual: a double, a take or a
  pass always, a no-double when the best action beats "double, take"
  (capped at +1) by less than 0.16;
* ``error_rate`` is 1000 x (checker + cube error) / (unforced plays + close
  or actual cube decisions), in normalised millipoints (mEMG);
* ``pr`` is eXtreme Gammon's Performance Rating, 500 x the same average
  (XG's own counting of decisions differs a little: see docs/analysis.md).

pandas loads where a frame is made: a file's rows are collected without it.

Example:
    >>> from tabla_cli.evaluation.types import DecisionKind
    >>> rows = [
    ...     decision_row("m", 1, 1, "Ann", 0, DecisionKind.CHECKER, error=0.0),
    ...     decision_row("m", 1, 3, "Ann", 0, DecisionKind.CHECKER, error=0.05),
    ...     decision_row("m", 1, 5, "Ann", 0, DecisionKind.CHECKER, error=0.0, forced=True),
    ... ]
    >>> stats = player_stats(decisions_frame(rows))
    >>> row = stats.iloc[0]
    >>> int(row.unforced), float(row.error_rate), float(row.pr), int(row.doubtful)
    (2, 25.0, 12.5, 1)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tabla_cli.columns import Column, rate, table, typed
from tabla_cli.evaluation.types import CubeAction, DecisionKind, Evaluation

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "DECISION_COLUMNS",
    "LUCK_WORDS",
    "RATING_WORDS",
    "SKILL_THRESHOLDS",
    "STAT_COLUMNS",
    "decision_row",
    "actual_result",
    "decisions_frame",
    "player_stats",
    "rating_word",
]


DECISION_COLUMNS: tuple[Column, ...] = table(
    "analysis.decisions", {"decision_kinds": tuple(k.value for k in DecisionKind)}
)
"""The ``decisions`` frame: one row per decision."""

SKILL_THRESHOLDS: tuple[float, float, float] = (0.03, 0.06, 0.12)
"""Errors above these (normalised) mark a decision doubtful, bad (an error),
very bad (a blunder): GNU Backgammon 1.07's values, seen in every export of
the corpus (older releases used 0.04, 0.08, 0.16)."""

RATING_WORDS: tuple[tuple[float, str], ...] = (
    (0.002, "Supernatural"),
    (0.005, "World class"),
    (0.008, "Expert"),
    (0.012, "Advanced"),
    (0.018, "Intermediate"),
    (0.026, "Casual player"),
    (0.035, "Beginner"),
)
"""GNU Backgammon's rating by normalised error per decision: the first
bound the rate is under; "Awful!" above all."""

LUCK_WORDS: tuple[tuple[float, str], ...] = (
    (0.06, "Go to Las Vegas"),
    (0.03, "Good dice, man!"),
    (-0.03, "None"),
    (-0.06, "Bad dice, man!"),
)
"""GNU Backgammon's luck rating by luck per roll: the first bound the rate is
above; "Go to bed" below all (its luck levels 0.6 and 0.3 applied to ten
times the rate)."""

STAT_COLUMNS: tuple[Column, ...] = table("analysis.stats")
"""The statistics per player (with ``match`` first when grouped by match)."""


def decision_row(
    match: str,
    game: int,
    move: int | None,
    player: str,
    side: int,
    kind: DecisionKind,
    *,
    error: float | None = None,
    forced: bool = False,
    close: bool = True,
    evaluation: Evaluation | None = None,
    action: str | None = None,
    cube: int = 1,
    position_id: str | None = None,
    match_id: str | None = None,
) -> dict[str, Any]:
    """One row of the decisions frame.

    Args:
        match: the match key.
        game: the game number.
        move: the printed move number.
        player: who decides.
        side: the player's column (0 or 1).
        kind: the decision's kind.
        error: the error, when no ``evaluation`` is given.
        forced: the play was forced, when no ``evaluation`` is given.
        close: the cube decision counts, when no ``evaluation`` is given.
        evaluation: the decision's evaluation (its fields fill the row).
        action: the play or cube action made.
        cube: the cube value before the decision.
        position_id: the Position ID before the decision.
        match_id: the Match ID before the decision.

    Returns:
        A dict keyed by the names of :data:`DECISION_COLUMNS`.
    """
    row: dict[str, Any] = {
        "match": match,
        "game": game,
        "move": move,
        "player": player,
        "side": side,
        "kind": kind.value,
        "file": None,
        "opponent": None,
        "dice": None,
        "action": action,
        "best": None,
        "equity": None,
        "best_equity": None,
        "error": error,
        "error_mwc": None,
        "rank": None,
        "options": 1,
        "forced": forced,
        "close": close,
        "luck": None,
        "skill": None,
        "source": None,
        "cube": cube,
        "position_id": position_id,
        "match_id": match_id,
        "game_result": None,
    }
    if evaluation is not None:
        row.update(evaluation_fields(evaluation))
    return row


def actual_result(
    length: int, score: tuple[int, int], crawford: bool, winner: int | None, points: int | None
) -> tuple[float, float] | None:
    """A game's result for each side (player 0, player 1), gnubg's "actual result".

    Money: the points won and lost. Match play: the change of each side's
    match-winning chances (:func:`tabla_cli.evaluation.met.game_result_mwc`).
    None when the game has no winner or no points.

    >>> actual_result(0, (0, 0), False, 1, 2)
    (-2.0, 2.0)
    >>> [round(r, 3) for r in actual_result(3, (0, 0), False, 0, 1)]
    [0.099, -0.099]
    """
    if winner is None or points is None:
        return None
    if length:
        from tabla_cli.evaluation.met import game_result_mwc

        gain = game_result_mwc(length - score[winner], length - score[1 - winner], points, crawford=crawford)
    else:
        gain = float(points)
    return (gain, -gain) if winner == 0 else (-gain, gain)


def evaluation_fields(ev: Evaluation) -> dict[str, Any]:
    """The columns of a decision row that come from its :class:`Evaluation`."""
    return {
        "best": ev.best,
        "equity": ev.equity,
        "best_equity": ev.best_equity,
        "error": ev.error,
        "error_mwc": ev.error_mwc,
        "rank": ev.rank,
        "options": ev.options,
        "forced": ev.forced,
        "close": ev.close,
        "luck": ev.luck,
        "skill": ev.skill,
        "source": ev.source,
    }


def decisions_frame(rows: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """The decisions frame from rows (:func:`decision_row`), with the documented dtypes."""
    import pandas as pd

    return typed(pd.DataFrame.from_records(list(rows), columns=[c.name for c in DECISION_COLUMNS]), DECISION_COLUMNS)


def rating_word(error_rate: float) -> str:
    """GNU Backgammon's rating words for an error rate in mEMG.

    >>> rating_word(20.1), rating_word(6.1), rating_word(40.0)
    ('Casual player', 'Expert', 'Awful!')
    """
    rate = error_rate / 1000
    word = "Awful!"
    for bound, name in reversed(RATING_WORDS):
        if rate < bound:
            word = name
    return word


def _luck_word(luck_rate: float) -> str:
    rate = luck_rate / 1000
    for bound, name in LUCK_WORDS:
        if rate > bound:
            return name
    return "Go to bed"


def player_stats(
    decisions: pd.DataFrame,
    *,
    by_match: bool = False,
    thresholds: Sequence[float] = SKILL_THRESHOLDS,
) -> pd.DataFrame:
    """The statistics of :data:`STAT_COLUMNS`, one row per player (or per match and player).

    Args:
        decisions: the decisions frame (:data:`DECISION_COLUMNS`).
        by_match: one row per match and player (a ``match`` column first).
        thresholds: doubtful, bad and very bad error bounds (normalised).

    Returns:
        The statistics, in order of first appearance.
    """
    import pandas as pd

    doubtful, bad, very_bad = thresholds
    frame = decisions
    checker = frame["kind"] == DecisionKind.CHECKER.value
    take = frame["kind"] == DecisionKind.TAKE.value
    double = frame["kind"] == DecisionKind.DOUBLE.value
    error = frame["error"].astype("float64").fillna(0.0)
    analysed = frame["error"].notna()
    forced = frame["forced"].astype(bool)
    unforced = checker & analysed & ~forced
    cube_row = (double | take) & analysed
    action = frame["action"].astype("string").fillna("")
    best = frame["best"].astype("string").fillna("")
    wrong = cube_row & (error > 0) & (action != best)
    luck = frame["luck"].astype("float64")
    marked = pd.Series(
        pd.cut(
            error,
            [-float("inf"), doubtful, bad, very_bad, float("inf")],
            labels=["none", "doubtful", "bad", "very bad"],
        ).astype("string"),
        index=frame.index,
    )
    skill = frame["skill"].astype("string").fillna(marked)
    parts = pd.DataFrame(
        {
            "checker_decisions": checker.astype("int64"),
            "unforced": unforced.astype("int64"),
            "cube_decisions": cube_row.astype("int64"),
            "close_cube": (cube_row & frame["close"].astype(bool)).astype("int64"),
            "checker_error": error.where(unforced, 0.0),
            "cube_error": error.where(cube_row, 0.0),
            "doubtful": (checker & analysed & (skill == "doubtful")).astype("int64"),
            "errors": (checker & analysed & (skill == "bad")).astype("int64"),
            "blunders": (checker & analysed & (skill == "very bad")).astype("int64"),
            "missed_doubles": (wrong & double & (action == CubeAction.NO_DOUBLE.value)).astype("int64"),
            "wrong_doubles": (wrong & double & (action == CubeAction.DOUBLE.value)).astype("int64"),
            "wrong_takes": (wrong & take & (action == CubeAction.TAKE.value)).astype("int64"),
            "wrong_passes": (wrong & take & (action == CubeAction.PASS.value)).astype("int64"),
            "luck_total": luck.where(checker),
            "lucky_rolls": (checker & luck.notna()).astype("int64"),
        }
    )
    keys = ["match", "player"] if by_match else ["player"]
    for name in keys:
        parts[name] = frame[name].astype("string")
    grouped = parts.groupby(keys, sort=False)
    sums = grouped.sum(min_count=0)
    sums["luck_total"] = grouped["luck_total"].sum(min_count=1)
    out = sums.reset_index()
    out["decisions"] = out["unforced"] + out["close_cube"]
    out["error_total"] = out["checker_error"] + out["cube_error"]
    out["error_rate"] = rate(out["error_total"], out["decisions"], 1000)
    out["checker_error_rate"] = rate(out["checker_error"], out["unforced"], 1000)
    out["cube_error_rate"] = rate(out["cube_error"], out["close_cube"], 1000)
    out["pr"] = rate(out["error_total"], out["decisions"], 500)
    out["luck_rate"] = rate(out["luck_total"].astype("float64"), out["lucky_rolls"], 1000)
    # A missing rate gives a missing word (null, an empty cell), as for a player with no analysis at all.
    out["rating"] = [rating_word(r) if r == r else None for r in out["error_rate"]]
    out["luck_rating"] = [_luck_word(r) if r == r else None for r in out["luck_rate"]]
    results = _results(frame, checker, keys)
    out = out.merge(results, on=keys, how="left") if len(out) else out.assign(actual_result=[], luck_adjusted_result=[])
    return typed(out, (DECISION_COLUMNS[0], *STAT_COLUMNS) if by_match else STAT_COLUMNS)


def _results(frame: pd.DataFrame, checker: pd.Series, keys: list[str]) -> pd.DataFrame:
    """``actual_result`` and ``luck_adjusted_result`` per ``keys``, summed from each match's two sides.

    A game's result is read from any row of the game (the two sides' results
    are opposite); a roll's luck counts in the result's unit: times the cube
    in money play, times ``(W - L) / 2`` at its score and cube in match play
    (from the row's Match ID). Per match and side: actual - own luck +
    opponent's luck, as gnubg's ``updateStatcontext`` adds it up.
    """
    import pandas as pd

    side = frame["side"].astype("int64")
    game_result = frame["game_result"].astype("float64")
    signed = game_result.where(side == 0, -game_result)
    games = pd.DataFrame({"match": frame["match"].astype("string"), "game": frame["game"], "r0": signed})
    per_game = games.dropna(subset=["r0"]).groupby(["match", "game"], sort=False)["r0"].first()
    actual0 = per_game.groupby(level="match", sort=False).sum()
    luck = frame["luck"].astype("float64").where(checker)
    scale = pd.Series([_luck_unit(m) for m in frame["match_id"]], index=frame.index, dtype="float64")
    lucky = pd.DataFrame({"match": frame["match"].astype("string"), "side": side, "luck": luck * scale})
    luck_by = lucky.dropna(subset=["luck"]).groupby(["match", "side"], sort=False)["luck"].sum()
    sides = frame[["match", "side", "player"]].astype({"match": "string", "player": "string"})
    sides = sides.drop_duplicates(["match", "side"]).reset_index(drop=True)
    actual, adjusted = [], []
    for match, number in zip(sides["match"], sides["side"]):
        result = actual0.get(match, float("nan"))
        result = result if number == 0 else -result
        own, theirs = luck_by.get((match, number)), luck_by.get((match, 1 - number))
        actual.append(result)
        adjusted.append(float("nan") if own is None and theirs is None else result - (own or 0.0) + (theirs or 0.0))
    sides["actual_result"] = pd.array(actual, dtype="float64")
    sides["luck_adjusted_result"] = pd.array(adjusted, dtype="float64")
    grouped = sides.groupby(keys, sort=False)[["actual_result", "luck_adjusted_result"]]
    return grouped.sum(min_count=1).reset_index()


@functools.cache
def _scale(match_id: str) -> float:
    from tabla_cli.errors import TablaError
    from tabla_cli.evaluation.met import cube_outcomes
    from tabla_cli.ids import decode_match_id

    try:
        state = decode_match_id(match_id, strict=False)
    except TablaError:
        return float("nan")
    if not state.length:
        return float(state.cube)
    roller = state.dice_owner
    win, lose = cube_outcomes(
        state.length - state.score[roller],
        state.length - state.score[roller.other],
        state.cube,
        crawford=state.crawford,
    )
    return (win - lose) / 2


def _luck_unit(match_id: object) -> float:
    """What a roll's normalised luck is worth in the result's unit, from the roll's Match ID (NaN: no ID).

    The Match ID is the replay's state at the roll (written by the decisions visitor from its
    :class:`~tabla_cli.visitor.DecisionState`; ``tests/test_visitors.py`` holds them equal), and the
    only documented column of the decisions frame that holds the score and the Crawford flag, so the
    statistics need nothing beyond the frame (as ``tabla report --frames`` writes it, say).
    """
    if not isinstance(match_id, str) or not match_id:
        return float("nan")
    return _scale(match_id)
