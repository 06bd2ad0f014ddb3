"""``tabla analyze --verify``: roll out the decisions whose verdict decides a player's numbers.

An analysis at a fixed depth misjudges some decisions, and a few of those
misjudgements move a player's figures: near a double or take point a small
misjudgement turns the right action into an error of the whole difference (or
an error into none), a checker play called a large error adds as much to the
error rate and PR as dozens of small ones, and a double that decides the
match is worth the match. :func:`reason` picks these decisions by the rules
below, on the analysis's own figures (normalised equity), and :func:`verify`
rolls each out (:func:`tabla_cli.analysis.rollout.rollout`: seeded batches of
36 trials, truncated by default, the rollout cache) and gives it a new
evaluation: its error is the rollout's difference between the action made
and the best one, with the standard error of that difference
(:attr:`~tabla_cli.evaluation.types.Evaluation.rollout_se`), and the
analysis's own error kept as
:attr:`~tabla_cli.evaluation.types.Evaluation.level_error`.

The rules:

* **a large checker error**: an unforced play whose error is
  :attr:`VerifyOptions.checker_error` or more;
* **near the double point**: the doubler's decision (a double, or no double
  before a roll) whose no double and doubled cube (double/take, or
  double/pass where that is lower) are within :attr:`VerifyOptions.cube_window`
  of each other; where double/pass is the lower, that is the too-good point;
* **near the take point**: the answer to a double whose double/take and
  double/pass are within ``cube_window``;
* **the match decided**: in match play, a double made (or redouble) and its
  answer when the doubled cube is worth what both sides still need: a take
  plays the game for the match.

Never rolled out: a forced play, a decision whose action made is unknown,
one a rollout already judged (a rollout the file records, an earlier
``--verify`` kept in tabla JSON), a variant the engine does not play, a cube
decision the rules do not offer (the Crawford game, a dead cube).

What is rolled out: for a checker play, the play made and the best
:attr:`VerifyOptions.candidates` plays at
:data:`~tabla_cli.analysis.rollout.CANDIDATE_LEVEL`, all on the same dice,
so that each difference's error comes from the batch-by-batch differences;
for a cube decision, no double and double/take on the same dice (double/pass
is +1). A double and its answer are one rollout.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

from tabla_cli.analysis.bgsage_batch import State
from tabla_cli.analysis.cube import not_available
from tabla_cli.analysis.engine import CLOSE_CUBE_THRESHOLD, rank_plays, to_board
from tabla_cli.analysis.rollout import (
    BATCH,
    CANDIDATE_LEVEL,
    SPREAD_BATCHES,
    Job,
    Line,
    RolloutError,
    RolloutResult,
    Settings,
    pool,
    rollout,
)
from tabla_cli.board import Position
from tabla_cli.errors import TablaError
from tabla_cli.evaluation.types import ANALYSABLE_VARIANTS, CubeAction, DecisionInput, DecisionKind, Evaluation

__all__ = [
    "CHECKER_ERROR",
    "CUBE_WINDOW",
    "MIN_TRIALS",
    "SOURCE",
    "VerifyOptions",
    "reason",
    "verify",
]

CHECKER_ERROR = 0.06
"""A checker play is rolled out when its error at the analysis level is this or more: gnubg's "bad" (an error)."""

CUBE_WINDOW = 0.08
"""A cube decision is rolled out when the two actions its verdict chooses between are this close (normalised)."""

MIN_TRIALS = SPREAD_BATCHES * BATCH
"""The fewest trials ``--verify`` takes: the error of a difference is measured by the spread of this many
batches or more (with fewer, the rollout's error of a difference is a bound, not a measure)."""

SOURCE = "bgsage rollout"
"""The ``source`` of a decision ``--verify`` judged."""

_DECIDED_ANSWERS = frozenset({CubeAction.TAKE, CubeAction.PASS, CubeAction.BEAVER})


@dataclasses.dataclass(frozen=True, slots=True)
class VerifyOptions:
    """How ``--verify`` chooses and rolls out decisions.

    Attributes:
        trials: trials of each line (rounded up to whole batches of 36), at
            least :data:`MIN_TRIALS`.
        truncate: half-moves after which a trial stops and is evaluated at
            ``level`` (0: every trial to the end).
        level: the depth of the plays during the trials and of the
            evaluation at truncation.
        seed: the rollout's seed (the same seed, the same figures).
        checker_error: see :data:`CHECKER_ERROR`.
        cube_window: see :data:`CUBE_WINDOW`.
        candidates: the best plays at :data:`~tabla_cli.analysis.rollout.CANDIDATE_LEVEL` rolled out beside
            the play made.
    """

    trials: int = 324
    truncate: int = 7
    level: str = "1ply"
    seed: int = 1
    checker_error: float = CHECKER_ERROR
    cube_window: float = CUBE_WINDOW
    candidates: int = 2

    def __post_init__(self) -> None:
        if self.trials < MIN_TRIALS:
            raise RolloutError(f"--verify-trials must be {MIN_TRIALS} or more (8 batches of 36)")
        if self.candidates < 1:
            raise RolloutError("--verify-candidates must be 1 or more")
        if self.checker_error < 0 or self.cube_window < 0:
            raise RolloutError("--verify's thresholds are equities, 0 or more")
        self.settings()

    def settings(self) -> Settings:
        """The rollout's settings."""
        return Settings(trials=self.trials, truncate=self.truncate, level=self.level, seed=self.seed)


def deciding(decision: DecisionInput) -> bool:
    """A double made in match play, or its answer, whose doubled cube is worth what both sides still need.

    >>> from tabla_cli.board import Player
    >>> d = DecisionInput(DecisionKind.TAKE, Position.start(), Player.ZERO, Player.ONE, 2, Player.ONE, (3, 4),
    ...                   cube_action=CubeAction.TAKE)
    >>> deciding(d), deciding(dataclasses.replace(d, away=(3, 5)))
    (True, False)
    """
    if decision.money:
        return False
    if decision.kind is DecisionKind.DOUBLE and decision.cube_action is not CubeAction.DOUBLE:
        return False
    if decision.kind is DecisionKind.TAKE and decision.cube_action not in _DECIDED_ANSWERS:
        return False
    return 2 * decision.cube >= max(decision.away)


def reason(
    kind: DecisionKind, evaluation: Evaluation | None, decision: DecisionInput | None, options: VerifyOptions
) -> str | None:
    """Why the decision is rolled out (the module's rules), or None when it is not.

    >>> from tabla_cli.board import Player
    >>> d = DecisionInput(DecisionKind.TAKE, Position.start(), Player.ZERO, Player.ONE, 1, None, (0, 0),
    ...                   cube_action=CubeAction.TAKE)
    >>> take = Evaluation(-0.95, -0.95, "take", 0.0, "bgsage 2ply", cube_equities=(0.8, 0.95, 1.0))
    >>> reason(DecisionKind.TAKE, take, d, VerifyOptions())
    'near the take point'
    >>> reason(DecisionKind.TAKE, dataclasses.replace(take, cube_equities=(0.5, 0.6, 1.0)), d, VerifyOptions())
    """
    if evaluation is None or evaluation.error is None or evaluation.forced or evaluation.rollout_se is not None:
        return None
    if decision is None or decision.variant not in ANALYSABLE_VARIANTS:
        return None
    if kind is DecisionKind.CHECKER:
        if decision.dice is None or decision.played is None:
            return None
        return "a large checker error" if evaluation.error >= options.checker_error else None
    if not_available(State.of(decision)) is not None:
        return None
    if deciding(decision):
        return "the match decided"
    if evaluation.cube_equities is None:
        return None
    no_double, double_take, double_pass = evaluation.cube_equities
    if kind is DecisionKind.DOUBLE:
        near = abs(no_double - min(double_take, double_pass)) < options.cube_window
        return "near the double point" if near else None
    return "near the take point" if abs(double_take - double_pass) < options.cube_window else None


def _job(kind: DecisionKind, decision: DecisionInput, options: VerifyOptions, threads: int) -> Job | None:
    """The rollout of one decision; None for a play the engine does not list (or the only one)."""
    state = State.of(decision)
    board = tuple(to_board(decision.position))
    position_id = decision.position.position_id()
    if kind is not DecisionKind.CHECKER:
        return Job(position_id, "cube", decision, state, (Line("cube", board, board, position_id),), position_id, "")
    assert decision.played is not None
    played = tuple(to_board(decision.played))
    ranked = rank_plays(decision, CANDIDATE_LEVEL, threads)
    made = [r for r in ranked if tuple(to_board(r.position)) == played]
    if not made or len(ranked) < 2:
        return None
    kept = ranked[: options.candidates]
    if made[0] not in kept:
        kept.append(made[0])
    if len(kept) < 2:
        kept = ranked[:2]
    lines = tuple(
        Line(r.text or "(no legal play)", tuple(to_board(r.position)), board, r.position.position_id()) for r in kept
    )
    return Job(position_id, "play", decision, state, lines, position_id, "")


def _checker(evaluation: Evaluation, decision: DecisionInput, result: RolloutResult) -> Evaluation:
    """The play's evaluation from its rollout: the lines are best first, each with its difference to the best."""
    assert decision.played is not None
    played = tuple(to_board(decision.played))
    lines = result.lines
    index = next(i for i, line in enumerate(lines) if line.line.board == played)
    rival = lines[1] if index == 0 else lines[index]
    assert rival.diff is not None
    best_equity = lines[0].figures["equity"].mean
    made = lines[index].figures["equity"].mean
    state = State.of(decision)
    return dataclasses.replace(
        evaluation,
        equity=made,
        best_equity=best_equity,
        best=lines[0].line.name,
        error=max(0.0, best_equity - made),
        error_mwc=None if state.money else max(0.0, state.mwc(best_equity) - state.mwc(made)),
        rank=1 + sum(1 for line in lines if line.figures["equity"].mean > made),
        source=SOURCE,
        skill=None,
        rollout_se=rival.diff.se,
        rollout_trials=result.trials,
        level_error=evaluation.error,
    )


def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values)


def _cube(
    evaluation: Evaluation, kind: DecisionKind, decision: DecisionInput, result: RolloutResult
) -> Evaluation | None:
    """The cube decision's evaluation from its rollout, as the engine judges one from its three equities.

    Each action's equity is taken batch by batch, so that the error of the difference between two actions
    is the spread of the batches' differences (no double and double/take meet the same dice). None for an
    action the rules do not offer there (a beaver without beavers).
    """
    batches = result.lines[0].batches
    no_double = [b[0] for b in batches]
    double_take = [b[1] for b in batches]
    double_pass = [1.0] * len(batches)
    state = State.of(decision)
    beaver = decision.beavers and state.money
    actions: dict[CubeAction, list[float]]
    if kind is DecisionKind.DOUBLE:
        answers = [double_take, double_pass] + ([[2 * v for v in double_take]] if beaver else [])
        actions = {CubeAction.NO_DOUBLE: no_double, CubeAction.DOUBLE: min(answers, key=_mean)}
    else:
        actions = {CubeAction.TAKE: [-v for v in double_take], CubeAction.PASS: [-1.0] * len(batches)}
        if beaver:
            actions[CubeAction.BEAVER] = [-2 * v for v in double_take]
    means = {action: _mean(values) for action, values in actions.items()}
    best = max(means, key=lambda a: means[a])
    made = decision.cube_action
    if made not in means:
        return None
    rival = made if made is not best else max((a for a in means if a is not best), key=lambda a: means[a])
    difference = pool([a - b for a, b in zip(actions[best], actions[rival])])
    nd, dt = _mean(no_double), _mean(double_take)
    close = True
    if kind is DecisionKind.DOUBLE:
        optimal = max(nd, min(dt, 1.0))
        close = made is CubeAction.DOUBLE or (
            optimal - min(dt, 1.0) < CLOSE_CUBE_THRESHOLD and decision.position != Position.start()
        )
    return dataclasses.replace(
        evaluation,
        equity=means[made],
        best_equity=means[best],
        best=best.value,
        error=max(0.0, means[best] - means[made]),
        error_mwc=None if state.money else abs(state.mwc(means[best]) - state.mwc(means[made])),
        rank=1 + sum(1 for v in means.values() if v > means[made]),
        options=len(means),
        close=close,
        source=SOURCE,
        skill=None,
        cube_equities=(nd, dt, 1.0),
        rollout_se=difference.se,
        rollout_trials=result.trials,
        level_error=evaluation.error,
    )


def verify(
    decisions: Sequence[tuple[DecisionKind, Evaluation | None, DecisionInput | None]],
    options: VerifyOptions,
    *,
    threads: int = 1,
    use_cache: bool = True,
    notices: list[str] | None = None,
) -> list[Evaluation | None]:
    """Roll out the decisions the rules choose; for each decision, its new evaluation (None: not rolled out).

    ``decisions``: each decision's kind, its evaluation at the analysis level and the decision as the
    engine sees it. All the rollouts run here, one batch after another over ``threads`` of the engine,
    with the rollout cache unless ``use_cache`` is False. A decision that cannot be rolled out keeps its
    evaluation, and ``notices`` says why.

    Raises:
        KeyboardInterrupt: Ctrl-C stopped the rollouts (the decisions keep no partial verdict).
    """
    jobs: list[Job] = []
    where: dict[tuple[object, ...], int] = {}
    chosen: list[tuple[int, int]] = []
    for index, (kind, evaluation, decision) in enumerate(decisions):
        if decision is None or reason(kind, evaluation, decision, options) is None:
            continue
        try:
            job = _job(kind, decision, options, threads)
        except TablaError as exc:
            if notices is not None:
                notices.append(f"--verify could not roll out a decision at {decision.position.position_id()}: {exc}")
            continue
        if job is None:
            continue
        key = (job.kind, job.state, tuple(line.board for line in job.lines))
        if key not in where:
            where[key] = len(jobs)
            jobs.append(job)
        chosen.append((index, where[key]))
    out: list[Evaluation | None] = [None] * len(decisions)
    if not jobs:
        return out
    results = rollout(jobs, options.settings(), threads=threads, use_cache=use_cache)
    if any(result.partial for result in results):
        raise KeyboardInterrupt
    for index, at in chosen:
        kind, evaluation, decision = decisions[index]
        assert evaluation is not None and decision is not None
        result = results[at]
        if kind is DecisionKind.CHECKER:
            out[index] = _checker(evaluation, decision, result)
        else:
            out[index] = _cube(evaluation, kind, decision, result)
    return out
