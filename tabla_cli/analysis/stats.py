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
* ``pr`` is eXtreme Gammon's Performance Rating, 500 x the average error
  over the decisions XG counts (:func:`xg_decision`: XG's own filter, not
  gnubg's);
* the MWC errors, the Snowie error rate and the error-based FIBS rating are
  gnubg's (``formatgs.c``, ``analysis.c``).

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
    >>> float(row.snowie_error_rate)
    16.666666666666668
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tabla_cli.analysis.decisions import (
    XG_OBVIOUS,
    XG_TRIVIAL,
    actual_result,
    decision_row,
    evaluation_fields,
    xg_decision,
)
from tabla_cli.columns import Column, Table, table, typed
from tabla_cli.evaluation.types import CubeAction, DecisionKind
from tabla_cli.match_state import away

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "DECISION_COLUMNS",
    "LUCK_WORDS",
    "RATING_WORDS",
    "SKILL_THRESHOLDS",
    "STAT_COLUMNS",
    "XG_OBVIOUS",
    "XG_TRIVIAL",
    "decision_row",
    "actual_result",
    "checker_rating_factor",
    "cube_rating_factor",
    "decisions_frame",
    "error_in_mwc",
    "evaluation_fields",
    "luck_fibs_rating_diff",
    "player_stats",
    "rating_word",
    "xg_decision",
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

FIBS_RATING_OFFSET = 2050.0
"""gnubg's ``rRatingOffset``: the error-based FIBS rating of a player who makes no error."""


def checker_rating_factor(length: int) -> float:
    """gnubg's rating points lost per unit of checker error per unforced play in a ``length``-point match
    (``absoluteFibsRatingChequer``, from Kees van den Doel's fit: 8798 + 25526 / N).

    >>> round(checker_rating_factor(5), 1)
    13903.2
    """
    return 8798.0 + 25526.0 / length


def cube_rating_factor(length: int) -> float:
    """gnubg's rating points lost per unit of cube error per close cube decision (``absoluteFibsRatingCube``:
    863 - 519 / N).

    >>> round(cube_rating_factor(5), 1)
    759.2
    """
    return 863.0 - 519.0 / length


STAT_COLUMNS: tuple[Column, ...] = table("analysis.stats")
"""The statistics per player (with ``match`` first when grouped by match)."""


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
    by_game: bool = False,
    thresholds: Sequence[float] = SKILL_THRESHOLDS,
) -> pd.DataFrame:
    """:func:`skill_rows` of a decisions frame, as a frame with the dtypes of :data:`STAT_COLUMNS`.

    Args:
        decisions: the decisions frame (:data:`DECISION_COLUMNS`).
        by_match: one row per match and player (a ``match`` column first).
        by_game: one row per game and player (``match`` and ``game`` first).
        thresholds: doubtful, bad and very bad error bounds (normalised).
    """
    rows = skill_rows(_cells(decisions, _STAT_INPUTS), by_match=by_match, by_game=by_game, thresholds=thresholds)
    return Table.of(stat_columns(by_match, by_game), rows).frame()


_STAT_INPUTS = (
    "match",
    "game",
    "player",
    "side",
    "kind",
    "action",
    "best",
    "error",
    "forced",
    "close",
    "xg_decision",
    "error_mwc",
    "luck",
    "skill",
    "match_id",
    "game_result",
)
"""The columns of the decisions frame that :func:`skill_rows` reads."""


def _cells(frame: pd.DataFrame, names: Sequence[str]) -> list[dict[str, Any]]:
    """The rows of ``frame``'s ``names`` columns as dicts of Python values (None: missing)."""
    lists = [frame[name].astype(object).where(frame[name].notna(), None).tolist() for name in names]
    return [dict(zip(names, values)) for values in zip(*lists)]


def stat_columns(by_match: bool = False, by_game: bool = False) -> tuple[Column, ...]:
    """The columns of :func:`skill_rows`: :data:`STAT_COLUMNS`, after ``match`` when ``by_match``, after
    ``match`` and ``game`` when ``by_game``."""
    if by_game:
        return (DECISION_COLUMNS[0], DECISION_COLUMNS[1], *STAT_COLUMNS)
    return (DECISION_COLUMNS[0], *STAT_COLUMNS) if by_match else STAT_COLUMNS


class _Sum:
    """A sum of floats with Kahan's compensation, added in order: the rounding of a long sum stays
    at the last bit (pandas, which computed these sums before, also compensates; the two can
    differ in that last bit)."""

    __slots__ = ("total", "compensation", "count")

    def __init__(self) -> None:
        self.total = 0.0
        self.compensation = 0.0
        self.count = 0

    def add(self, value: float) -> None:
        if math.isnan(value):
            return
        self.count += 1
        y = value - self.compensation
        t = self.total + y
        self.compensation = t - self.total - y
        if math.isnan(self.compensation):
            self.compensation = 0.0
        self.total = t

    def value(self, min_count: int = 0) -> float:
        """The sum; NaN with fewer than ``min_count`` values added."""
        return self.total if self.count >= min_count else math.nan


_COUNTS = (
    "checker_decisions",
    "unforced",
    "cube_decisions",
    "close_cube",
    "doubtful",
    "errors",
    "blunders",
    "missed_doubles",
    "wrong_doubles",
    "wrong_takes",
    "wrong_passes",
    "lucky_rolls",
)
_TALLIES = ("xg_decisions", "match_decisions", "match_unforced", "match_close_cube")
"""Counts kept beside :data:`_COUNTS`: the decisions XG counts, and the decisions of match play."""
_SUMS = (
    "checker_error",
    "cube_error",
    "luck_total",
    "xg_error",
    "checker_mwc",
    "cube_mwc",
    "checker_loss",
    "cube_loss",
)
"""The sums of a group: EMG errors, luck, the errors XG counts, MWC errors, errors x gnubg's rating factors."""


def skill_rows(
    decisions: Iterable[Mapping[str, Any]],
    *,
    by_match: bool = False,
    by_game: bool = False,
    thresholds: Sequence[float] = SKILL_THRESHOLDS,
) -> list[dict[str, Any]]:
    """The statistics of :data:`STAT_COLUMNS`, one row per player (or per match, or game, and player).

    Plain Python: ``tabla analyze`` writes its tables without pandas.

    Args:
        decisions: decision rows (:func:`decision_row`, or the rows of a
            decisions frame), missing values None or NaN.
        by_match: one row per match and player (a ``match`` value first).
        by_game: one row per game and player (``match`` and ``game`` first);
            a game's results and Snowie error rate are the game's own.
        thresholds: doubtful, bad and very bad error bounds (normalised).

    Returns:
        One dict a player (keyed by :func:`stat_columns`), in order of first
        appearance; rows without a player count for nobody.
    """
    doubtful, bad, very_bad = thresholds
    checker_kind, double_kind, take_kind = (
        k.value for k in (DecisionKind.CHECKER, DecisionKind.DOUBLE, DecisionKind.TAKE)
    )
    no_double, double, take, drop = (
        a.value for a in (CubeAction.NO_DOUBLE, CubeAction.DOUBLE, CubeAction.TAKE, CubeAction.PASS)
    )
    by_match = by_match or by_game
    rows = [row for row in decisions if _known(row["player"]) and (not by_match or _known(row["match"]))]
    groups: dict[tuple[str, ...], dict[str, Any]] = {}
    units: dict[tuple[str, ...], set[tuple[str, ...]]] = {}
    moves: dict[tuple[str, ...], int] = {}
    for row in rows:
        unit = _unit(row, by_game)
        key: tuple[str, ...] = (*unit, str(row["player"])) if by_match else (str(row["player"]),)
        group = groups.get(key)
        if group is None:
            group = groups[key] = dict.fromkeys(_COUNTS + _TALLIES, 0)
            group.update((name, _Sum()) for name in _SUMS)
        kind, error, analysed = row["kind"], _number(row["error"]), _known(row["error"])
        checker = kind == checker_kind
        cube_row = (kind == double_kind or kind == take_kind) and analysed
        unforced = checker and analysed and not row["forced"]
        close = cube_row and bool(row["close"])
        action, best = row["action"] or "", row["best"] or ""
        wrong = cube_row and error > 0 and action != best
        skill = row["skill"] if _known(row["skill"]) else _mark(error, doubtful, bad, very_bad)
        group["checker_decisions"] += checker
        group["unforced"] += unforced
        group["cube_decisions"] += cube_row
        group["close_cube"] += close
        group["checker_error"].add(error if unforced else 0.0)
        group["cube_error"].add(error if cube_row else 0.0)
        if checker and analysed:
            group["doubtful"] += skill == "doubtful"
            group["errors"] += skill == "bad"
            group["blunders"] += skill == "very bad"
        if wrong and kind == double_kind:
            group["missed_doubles"] += action == no_double
            group["wrong_doubles"] += action == double
        if wrong and kind == take_kind:
            group["wrong_takes"] += action == take
            group["wrong_passes"] += action == drop
        if checker and _known(row["luck"]):
            group["luck_total"].add(float(row["luck"]))
            group["lucky_rolls"] += 1
        if _known(row["xg_decision"]):
            xg = bool(row["xg_decision"]) and analysed
            group["xg_decisions"] += xg
            group["xg_error"].add(error if xg else 0.0)
        else:  # nothing to apply XG's filter to: gnubg's count, and every error, as error_rate has them
            group["xg_decisions"] += unforced or close
            group["xg_error"].add(error if unforced or cube_row else 0.0)
        units.setdefault(key, set()).add(unit)
        moves[unit] = moves.get(unit, 0) + checker
        length, scale = _match_facts(row["match_id"])
        group.setdefault("length", length or None)
        if length and (unforced or cube_row):
            mwc = float(row["error_mwc"]) if _known(row["error_mwc"]) else error * scale
            group["checker_mwc" if unforced else "cube_mwc"].add(mwc)
            group["match_decisions"] += unforced or close
            group["match_unforced"] += unforced
            group["match_close_cube"] += close
            if unforced:
                group["checker_loss"].add(error * checker_rating_factor(length))
            else:
                group["cube_loss"].add(error * cube_rating_factor(length))
    results = _results(rows, by_match, by_game)
    out = []
    for key, group in groups.items():
        checker_error, cube_error = group["checker_error"].value(), group["cube_error"].value()
        luck_total = group["luck_total"].value(min_count=1)
        decisions_count = group["unforced"] + group["close_cube"]
        error_total = checker_error + cube_error
        error_rate = _rate(error_total, decisions_count, 1000)
        luck_rate = _rate(luck_total, group["lucky_rolls"], 1000)
        actual, adjusted = results.get(key, (math.nan, math.nan))
        both_moves = sum(moves[unit] for unit in units.get(key, ()))
        stats = {
            **({"match": key[0]} if by_match else {}),
            **({"game": int(key[1])} if by_game else {}),
            "player": key[-1],
            **{name: group[name] for name in _COUNTS},
            "decisions": decisions_count,
            "checker_error": checker_error,
            "cube_error": cube_error,
            "error_total": error_total,
            "error_rate": error_rate,
            "checker_error_rate": _rate(checker_error, group["unforced"], 1000),
            "cube_error_rate": _rate(cube_error, group["close_cube"], 1000),
            "xg_decisions": group["xg_decisions"],
            "pr": _rate(group["xg_error"].value(), group["xg_decisions"], 500),
            "luck_total": luck_total,
            "luck_rate": luck_rate,
            # A missing rate gives a missing word (null, an empty cell), as for a player with no analysis at all.
            "rating": None if math.isnan(error_rate) else rating_word(error_rate),
            "luck_rating": None if math.isnan(luck_rate) else _luck_word(luck_rate),
            "actual_result": actual,
            "luck_adjusted_result": adjusted,
            "luck_fibs_rating_diff": _luck_rating_diff(adjusted, group["length"]) if by_match else math.nan,
            "snowie_error_rate": _rate(error_total, both_moves, 1000),
            **_match_play(group),
        }
        out.append(stats)
    return out


def luck_fibs_rating_diff(luck_adjusted_result: float, length: int) -> float:
    """gnubg's "Luck based FIBS rating diff." of one match (or game): the FIBS rating difference at which the
    luck-adjusted result would be the expected one (``relativeFibsRating``), NaN when it is not a chance.

    ``0.5 + luck_adjusted_result`` (MWC) is taken as the chance to win a ``length``-point match, and FIBS's
    formula, P = 1 / (1 + 10^(-D sqrt(N) / 2000)), solved for D (at least -2100, as gnubg has it).

    >>> round(luck_fibs_rating_diff(0.1, 7), 1), abs(luck_fibs_rating_diff(0.0, 7)), luck_fibs_rating_diff(0.6, 7)
    (133.1, 0.0, nan)
    """
    chance = 0.5 + luck_adjusted_result
    if not 0.0 < chance < 1.0 or not length:
        return math.nan
    return max(-2100.0, -2000.0 / math.sqrt(length) * math.log10(1.0 / chance - 1.0))


def _luck_rating_diff(adjusted: float, length: int | None) -> float:
    return math.nan if length is None or math.isnan(adjusted) else luck_fibs_rating_diff(adjusted, length)


def _unit(row: Mapping[str, Any], by_game: bool) -> tuple[str, ...]:
    """What a row's results and Snowie rate are counted over: its match, or its match and game."""
    return (str(row["match"]), str(row["game"])) if by_game else (str(row["match"]),)


def _match_play(group: Mapping[str, Any]) -> dict[str, float]:
    """The MWC errors and gnubg's error-based FIBS rating of a group (NaN without match-play decisions).

    gnubg's rating loss is the error per decision times a factor of the match
    length; over matches of several lengths each decision's error is taken
    with its own match's factor (for one length, exactly gnubg's figure).
    """
    count = group["match_decisions"]
    if not count:
        return dict.fromkeys(
            ("checker_error_mwc", "cube_error_mwc", "error_total_mwc", "error_rate_mwc")
            + ("fibs_rating", "checker_rating_loss", "cube_rating_loss"),
            math.nan,
        )
    checker, cube = 100 * group["checker_mwc"].value(), 100 * group["cube_mwc"].value()
    checker_loss = _rate(group["checker_loss"].value(), group["match_unforced"], 1)
    cube_loss = _rate(group["cube_loss"].value(), group["match_close_cube"], 1)
    return {
        "checker_error_mwc": checker,
        "cube_error_mwc": cube,
        "error_total_mwc": checker + cube,
        "error_rate_mwc": (checker + cube) / count,
        "fibs_rating": FIBS_RATING_OFFSET
        - (0.0 if math.isnan(checker_loss) else checker_loss)
        - (0.0 if math.isnan(cube_loss) else cube_loss),
        "checker_rating_loss": checker_loss,
        "cube_rating_loss": cube_loss,
    }


def _known(value: Any) -> bool:
    return value is not None and not (isinstance(value, float) and math.isnan(value))


def _number(value: Any) -> float:
    """A float cell: 0.0 when missing (an unanalysed decision costs nothing)."""
    return float(value) if _known(value) else 0.0


def _rate(count: float, total: int, scale: float) -> float:
    """``scale * count / total``; NaN where ``total`` is 0 (a rate over nothing), as :func:`rate` computes it."""
    return scale * count / total if total > 0 else math.nan


def _mark(error: float, doubtful: float, bad: float, very_bad: float) -> str:
    """The mark of a checker play's error: above each bound, the next word."""
    if error > very_bad:
        return "very bad"
    if error > bad:
        return "bad"
    if error > doubtful:
        return "doubtful"
    return "none"


def _results(
    rows: list[Mapping[str, Any]], by_match: bool, by_game: bool = False
) -> dict[tuple[str, ...], tuple[float, float]]:
    """``actual_result`` and ``luck_adjusted_result`` per key (player, or match and player, or match, game
    and player), summed from each match's (or game's) two sides.

    A game's result is read from any row of the game (the two sides' results
    are opposite); a roll's luck counts in the result's unit: times the cube
    in money play, times ``(W - L) / 2`` at its score and cube in match play
    (from the row's Match ID). Per match and side: actual - own luck +
    opponent's luck, as gnubg's ``updateStatcontext`` adds it up.
    """
    checker_kind = DecisionKind.CHECKER.value
    games: dict[tuple[tuple[str, ...], Any], float] = {}
    lucky: dict[tuple[tuple[str, ...], int], _Sum] = {}
    sides: dict[tuple[tuple[str, ...], int], str] = {}
    for row in rows:
        match, side = _unit(row, by_game), int(row["side"])
        sides.setdefault((match, side), str(row["player"]))
        if _known(row["game_result"]):
            result = float(row["game_result"])
            games.setdefault((match, row["game"]), result if side == 0 else -result)
        if row["kind"] == checker_kind and _known(row["luck"]):
            lucky.setdefault((match, side), _Sum()).add(float(row["luck"]) * _luck_unit(row["match_id"]))
    actual0: dict[tuple[str, ...], _Sum] = {}
    for (match, _), result in games.items():
        actual0.setdefault(match, _Sum()).add(result)
    totals: dict[tuple[str, ...], tuple[_Sum, _Sum]] = {}
    for (match, side), player in sides.items():
        result = actual0[match].value() if match in actual0 else math.nan
        result = result if side == 0 else -result
        own, theirs = lucky.get((match, side)), lucky.get((match, 1 - side))
        own_luck, their_luck = (s.value() if s is not None and s.count else None for s in (own, theirs))
        adjusted = (
            math.nan if own_luck is None and their_luck is None else result - (own_luck or 0.0) + (their_luck or 0.0)
        )
        actual_sum, adjusted_sum = totals.setdefault((*match, player) if by_match else (player,), (_Sum(), _Sum()))
        actual_sum.add(result)
        adjusted_sum.add(adjusted)
    return {key: (actual.value(min_count=1), adjusted.value(min_count=1)) for key, (actual, adjusted) in totals.items()}


def error_in_mwc(error: object, match_id: object) -> float | None:
    """A decision's error in match-winning chances: ``error`` (EMG) times (W - L) / 2 at the score and cube of
    its Match ID, as gnubg converts it (``eq2mwc(error) - eq2mwc(0)``); None in money play or without an ID.

    >>> error_in_mwc(0.1, "cAkAAAAAAAAA") is None  # money play
    True
    >>> round(error_in_mwc(0.1, "cIjuAAAAAAAE"), 5)  # 7-point match at 0-0, cube 1
    0.00626
    """
    length, scale = _match_facts(match_id)
    if not length or not _known(error) or math.isnan(scale):
        return None
    return float(error) * scale  # type: ignore[arg-type]


def _match_facts(match_id: object) -> tuple[int, float]:
    """The match length and the MWC worth of one unit of normalised equity, from a row's Match ID ((0, NaN):
    money play, or no ID)."""
    if not isinstance(match_id, str) or not match_id:
        return 0, math.nan
    return _facts(match_id)


@functools.cache
def _facts(match_id: str) -> tuple[int, float]:
    from tabla_cli.errors import TablaError
    from tabla_cli.ids import decode_match_id

    try:
        length = decode_match_id(match_id, strict=False).length
    except TablaError:
        return 0, math.nan
    return (length, _scale(match_id)) if length else (0, math.nan)


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
        away(state.length, state.score, roller),
        away(state.length, state.score, roller.other),
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
