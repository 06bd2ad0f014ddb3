"""eXtreme Gammon's analysis of a decision, from its ``.xg`` records, as tabla's recorded analysis.

A checker play's record lists XG's candidate plays (up to 32, best first,
each with its evaluation level and seven numbers: the six outcome chances
and the equity) and XG's own figures for the play: ``ErrMove``, the equity
lost, and ``ErrLuck``, the luck of the roll (from the roller, positive:
lucky). A cube record holds the equities of no double, double/take and
double/pass from the doubler, and ``ErrCube`` and ``ErrTake``, the equity the
doubler and the taker lost. -1000 means "not analysed". XG writes the
equity lost on a play or a take as a negative number and on a double as a
positive one: tabla's errors are the sizes, so each error here is the
figure's absolute value, and the statistics (:mod:`tabla_cli.analysis.stats`)
add up exactly XG's own figures. Equities are XG's: cubeful, normalised to
money equity in match play (double/pass is +1), like gnubg's.

The levels are XG's (``PLAYERLEVEL``): 1-ply to 7-ply, 3-ply red, XG Roller,
XG Roller+, XG Roller++, rollout, book.

A decision XG rolled out (its record names a rollout of ``temp.xgr``) is a
rolled-out verdict, as ``tabla analyze --verify`` makes one: its evaluation
carries the standard error of its error and the games rolled
(:attr:`~tabla_cli.evaluation.types.Evaluation.rollout_se`,
``rollout_trials``). XG gives each rolled-out equity's 95% confidence
interval, taken here as :data:`Z95` standard errors; the error is a
difference of two equities (the play made and the best, or the nearest other
when the play made is the best; no double and the doubled cube; double/take
and double/pass, the latter exact), and its error is the two equities' errors
added in quadrature, as for independent rollouts: XG rolls its candidates on
the same dice, so this is the larger side of the actual error.

>>> level_name(2), level_name(1001), level_name(100), level_name(55)
('3-ply', 'XG Roller+', 'rollout', 'level 55')
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence

from tabla_cli.evaluation.recorded import (
    Candidate,
    CubeAnalysis,
    RecordedAnalysis,
    evaluation_from_recorded,
    proper_cube_action,
)
from tabla_cli.evaluation.types import CubeAction, DecisionKind
from tabla_cli.evaluation.types import Evaluation as Verdict
from tabla_cli.formats.xg_records import CubeRecord, Evaluation, MoveRecord, Rollout

__all__ = [
    "NOT_ANALYSED",
    "Z95",
    "answer_analysis",
    "checker_analysis",
    "cube_analysis",
    "level_name",
    "rollout_name",
    "source",
]

NOT_ANALYSED = -1000.0
"""XG's error or luck figure of a decision it did not analyse."""

Z95 = 1.959964
"""Standard errors in the half-width of a 95% confidence interval (the normal distribution's)."""

_LEVELS = {
    0: "1-ply",
    1: "2-ply",
    2: "3-ply",
    3: "4-ply",
    4: "5-ply",
    5: "6-ply",
    6: "7-ply",
    12: "3-ply red",
    100: "rollout",
    998: "book",
    999: "book",
    1000: "XG Roller",
    1001: "XG Roller+",
    1002: "XG Roller++",
}


def level_name(level: int) -> str:
    """The name of XG's evaluation level ``level``."""
    return _LEVELS.get(level, f"level {level}")


def source(level: int) -> str:
    """The analysis's name in tabla's ``source`` column: the program and its level (``XG 3-ply``)."""
    name = level_name(level)
    return name if name.startswith("XG ") else f"XG {name}"


def _probabilities(evaluation: Evaluation) -> tuple[float, ...]:
    """tabla's six chances (win, win gammon, win backgammon, lose, lose gammon, lose backgammon) from XG's seven."""
    return evaluation[3], evaluation[4], evaluation[5], evaluation[2], evaluation[1], evaluation[0]


def _analysed(figure: float) -> bool:
    return figure != NOT_ANALYSED and math.isfinite(figure)


def rollout_name(rollout: Rollout, *, double: bool = False) -> str:
    """A rollout's level with its games and the 95% confidence interval of its equity.

    >>> rollout_name(Rollout(500, 0.01414, 0, 0.0))
    'rollout, 500 games, 95% CI +-0.014'
    """
    games, ci = (rollout.games_double, rollout.ci_double) if double else (rollout.games, rollout.ci)
    return f"rollout, {games} games, 95% CI +-{ci:.3f}"


def rollout_se(rollout: Rollout, *, double: bool = False) -> float | None:
    """The standard error of a rolled-out equity (no double or the play; ``double``: double/take), None
    when the rollout has no games for it.

    >>> round(rollout_se(Rollout(500, 0.0196, 0, 0.0)), 4), rollout_se(Rollout(500, 0.0196, 0, 0.0), double=True)
    (0.01, None)
    """
    games, ci = (rollout.games_double, rollout.ci_double) if double else (rollout.games, rollout.ci)
    return ci / Z95 if games > 0 and math.isfinite(ci) and ci >= 0 else None


def _rolled_out(evaluation: Verdict, errors: Sequence[float | None], games: int) -> Verdict:
    """``evaluation`` marked as a rollout's verdict whose error's standard error is that of ``errors``' sum
    (quadrature), unless one of them is unknown."""
    if any(e is None for e in errors):
        return evaluation
    se = math.sqrt(math.fsum(e * e for e in errors if e is not None))
    return dataclasses.replace(evaluation, rollout_se=se, rollout_trials=games)


def _rollout_of(move: MoveRecord, index: int, rollouts: Sequence[Rollout]) -> Rollout | None:
    """The rollout of ``move``'s candidate ``index``, None when XG did not roll it out."""
    at = move.rollouts[index] if index < len(move.rollouts) else -1
    return rollouts[at] if 0 <= at < len(rollouts) else None


def checker_analysis(
    move: MoveRecord, play_text: Callable[[tuple[int, ...]], str], rollouts: Sequence[Rollout] = ()
) -> RecordedAnalysis | None:
    """The analysis of a checker play, None when XG did not analyse it.

    ``play_text`` writes a candidate's ``(from, to)`` codes as a play; ``rollouts`` are ``temp.xgr``'s, which
    name the level of a candidate XG rolled out (its games and confidence interval).
    """
    if not _analysed(move.error_move) or move.analysed < 0:
        return None

    def level(index: int, code: int) -> str:
        rollout = _rollout_of(move, index, rollouts)
        return rollout_name(rollout) if rollout is not None else level_name(code)

    candidates = tuple(
        Candidate(
            rank, play_text(c.steps), c.evaluation[6], 0.0, _probabilities(c.evaluation), level(rank - 1, c.level)
        )
        for rank, c in enumerate(move.candidates, 1)
    )
    if candidates:
        best = candidates[0].equity
        candidates = tuple(c._replace(error=max(0.0, best - c.equity)) for c in candidates)
    played = next((i for i, c in enumerate(move.candidates) if c.position == move.position_end), None)
    recorded = RecordedAnalysis(
        candidates=candidates,
        played=played,
        level=source(move.analysed),
        luck=move.luck if _analysed(move.luck) else None,
        forced=len(candidates) <= 1,
    )
    evaluation = evaluation_from_recorded(recorded, DecisionKind.CHECKER)
    if evaluation is None:
        return recorded
    error = 0.0 if evaluation.forced else abs(move.error_move)
    evaluation = dataclasses.replace(evaluation, error=error)
    rival = 1 if played == 0 else played
    if not evaluation.forced and rival is not None and rival < len(candidates):
        top, other = _rollout_of(move, 0, rollouts), _rollout_of(move, rival, rollouts)
        if top is not None and other is not None:
            errors = [rollout_se(top), rollout_se(other)]
            evaluation = _rolled_out(evaluation, errors, min(top.games, other.games))
            if evaluation.rollout_se is not None:
                evaluation = dataclasses.replace(evaluation, source="recorded XG rollout")
    return dataclasses.replace(recorded, checker_evaluation=evaluation)


def _cube(record: CubeRecord, rollouts: Sequence[Rollout]) -> CubeAnalysis:
    no_double, double_take, double_pass = record.equities
    level = source(record.level)
    if 0 <= record.rollout < len(rollouts):
        rollout = rollouts[record.rollout]
        level = f"XG {rollout_name(rollout)}"
        if rollout.games_double:
            level += f"; double/take {rollout.games_double} games, 95% CI +-{rollout.ci_double:.3f}"
    cube = CubeAnalysis(
        no_double,
        double_take,
        double_pass,
        level=level,
        probabilities=_probabilities(record.no_double_eval),
    )
    return dataclasses.replace(cube, proper=proper_cube_action(cube, redouble=record.cube != 0))


def cube_analysis(record: CubeRecord, rollouts: Sequence[Rollout] = ()) -> RecordedAnalysis | None:
    """The doubler's decision (not doubling before a roll, or the double), None when XG did not analyse it
    (``rollouts``: ``temp.xgr``'s, which name the level of a decision XG rolled out)."""
    if record.double not in (0, 1) or record.analysed < 0 or not _analysed(record.error_cube):
        return None
    cube = _cube(record, rollouts)
    made = CubeAction.DOUBLE if record.double == 1 else CubeAction.NO_DOUBLE
    recorded = RecordedAnalysis(level=cube.level, cube=cube, cube_action=made)
    evaluation = evaluation_from_recorded(recorded, DecisionKind.DOUBLE)
    if evaluation is None:
        return recorded
    evaluation = dataclasses.replace(evaluation, error=abs(record.error_cube))
    if 0 <= record.rollout < len(rollouts):
        rollout = rollouts[record.rollout]
        errors = [rollout_se(rollout)]
        if cube.double_take < cube.double_pass:  # the doubled cube is double/take: no double against it
            errors.append(rollout_se(rollout, double=True))
        evaluation = _rolled_out(evaluation, errors, rollout.games)
    return dataclasses.replace(recorded, cube_evaluation=evaluation)


def answer_analysis(record: CubeRecord, made: CubeAction, rollouts: Sequence[Rollout] = ()) -> RecordedAnalysis | None:
    """The answer to the double of ``record`` (``made``: take, pass or beaver), None when XG did not analyse it."""
    if record.double != 1 or record.analysed < 0 or not _analysed(record.error_take):
        return None
    cube = _cube(record, rollouts)
    recorded = RecordedAnalysis(level=cube.level, cube=cube, cube_action=made)
    evaluation = evaluation_from_recorded(recorded, DecisionKind.TAKE)
    if evaluation is None:
        return recorded
    evaluation = dataclasses.replace(evaluation, error=abs(record.error_take))
    if 0 <= record.rollout < len(rollouts):
        rollout = rollouts[record.rollout]
        evaluation = _rolled_out(evaluation, [rollout_se(rollout, double=True)], rollout.games_double)
    return dataclasses.replace(recorded, cube_evaluation=evaluation)


def with_cube(checker: RecordedAnalysis | None, cube: RecordedAnalysis | None) -> RecordedAnalysis | None:
    """A roll's analysis: its checker play's, and the no-double decision before it."""
    if cube is None or checker is None:
        return checker or cube
    return dataclasses.replace(
        checker, cube=cube.cube, cube_action=cube.cube_action, cube_evaluation=cube.cube_evaluation
    )
