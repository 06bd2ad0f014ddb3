"""Rollouts: settle a checker play or a cube decision by playing it out many times, on one machine or a Dask cluster.

A rollout here is a fixed list of **batches** of :data:`BATCH` trials (a
multiple of 36, so the first roll of each batch is stratified: each of the 36
rolls once). How many batches a rollout has depends only on ``--trials``
(rounded up to a multiple of :data:`BATCH`, at least two batches), never on
where it runs. Batch ``i`` of a rollout with seed ``s`` is one call of
bgsage's rollout engine (variance reduction, stratified dice, cubeful trials)
seeded with :func:`batch_seed` ``(s, i)``: so any machine, thread count or
worker that runs it gives the same numbers, and a batch lost with its worker
is run again with the same result.

**Pooling.** All batches have the same number of trials, so the mean over
all trials is the mean of the batch means, taken in batch order (the same
sum whatever the order the batches finished in). The standard error is that
of the batch means (their spread divided by the square root of their
number; from :data:`SPREAD_BATCHES` batches on, see :func:`pool`), not
bgsage's own per-trial figure: within a stratified batch the
first roll's luck sums to zero, but bgsage's per-trial standard error still
counts it, and so overstates the error (docs/rollout.md compares the two
with the spread over many seeds). The batches are independent, so their spread is an honest
measure whatever the stratification and variance reduction do inside a
batch. Every candidate play of a position is rolled out on the same batch
seeds (the same dice), so the error of a difference between two plays is
taken from the batch-by-batch differences, which is smaller than either
play's error when the dice favour both alike.

**Cache.** Each batch's figures are kept in ``rollout.sqlite`` next to the
analysis cache (:func:`tabla_cli.analysis.cache.cache_path`), keyed by the
engine version, the position and the line rolled out, the settings and the
batch's seed: the same rollout again is answered from it at once, and a
longer one (more ``--trials``, same seed) runs only the batches it lacks.
"""

from __future__ import annotations

import hashlib
import json
import math
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import bgbot_cpp  # type: ignore[import-not-found]
import bgsage  # type: ignore[import-untyped]

from tabla_cli.analysis.bgsage_batch import CubeValues, State, _bearoff_db
from tabla_cli.analysis.cache import cache_path
from tabla_cli.analysis.cube import CubeNotAvailableError, not_available, verdict
from tabla_cli.analysis.engine import engine_version, rank_plays, to_board
from tabla_cli.errors import TablaError
from tabla_cli.evaluation.types import ANALYSABLE_VARIANTS, DecisionInput, DecisionKind

BATCH = 36
"""Trials in one batch: a multiple of 36, so each batch's first roll is stratified."""

WAVE = 4
"""Batches between two checks of ``target_se``: the rollout stops at the first such check that meets it."""

LEVELS = ("1ply", "2ply", "3ply")
"""The depth of the plays (and cube decisions) made during the trials."""

CANDIDATE_LEVEL = "2ply"
"""The level that ranks a roll's plays before the best of them are rolled out."""

CANDIDATE_WINDOW = 0.32
"""A play is a candidate only if its equity at :data:`CANDIDATE_LEVEL` is this close to the best (the
first two are candidates whatever their distance, so that a rollout always compares)."""

SPREAD_BATCHES = 8
"""From this many batches on, a standard error is measured by the spread of the batch means (see :func:`pool`)."""

APART = 2.0
"""Two plays are statistically apart when their difference exceeds this many standard errors of it."""

ROLLOUT_REVISION = 1
"""How this module rolls out with the engine; raised whenever a batch's figures would change."""

PROBABILITIES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
"""bgsage's five chances, in its order (gammons include backgammons)."""

FIELDS: dict[str, tuple[str, ...]] = {
    "play": ("equity", "cubeless_equity", *PROBABILITIES),
    "cube": ("no_double", "double_take", "cubeless_equity", *PROBABILITIES),
    "cubeless": ("cubeless_equity", *PROBABILITIES),
}
"""What one batch gives, by the kind of rollout: the figures from the side that moved (a play) or is on roll."""


class RolloutError(TablaError):
    """A rollout that cannot be run: bad settings, a position with nothing to roll out."""


@dataclass(frozen=True, slots=True)
class Settings:
    """How a rollout is run (everything its numbers depend on, besides the position).

    Attributes:
        trials: trials wanted; rounded up to whole batches, at least two.
        truncate: half-moves after which a trial stops and the position is
            evaluated at ``level`` (0: play every trial to the end).
        level: ``1ply``, ``2ply`` or ``3ply``: the plays and cube decisions
            made during the trials, and the evaluation at truncation.
        seed: the rollout's seed; each batch's seed is derived from it.
        target_se: stop (at a multiple of :data:`WAVE` batches) once every
            line's standard error is below this (0: run every trial).
        bearoff_db: trials read exact one-sided bear-off odds from bgsage's
            database once both sides are home (False: the net plays and
            judges bear-offs too).
    """

    trials: int = 1296
    truncate: int = 0
    level: str = "1ply"
    seed: int = 1
    target_se: float = 0.0
    bearoff_db: bool = True

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise RolloutError(f"unknown level {self.level!r} for the trials; choose one of {', '.join(LEVELS)}")
        if self.trials < 1:
            raise RolloutError("a rollout needs at least one trial")
        if self.truncate < 0:
            raise RolloutError("--truncate is a number of half-moves, 0 or more")
        if self.target_se < 0:
            raise RolloutError("--target-se is a standard error, 0 or more")

    @property
    def batches(self) -> int:
        """How many batches the rollout has (at most, with ``target_se``).

        >>> Settings(trials=1296).batches, Settings(trials=100).batches, Settings(trials=1).batches
        (36, 3, 2)
        """
        return max(2, -(-self.trials // BATCH))

    @property
    def ply(self) -> int:
        return int(self.level[0])


def batch_seed(seed: int, index: int) -> int:
    """The seed of batch ``index`` of a rollout seeded ``seed`` (a 31-bit number, the same everywhere).

    >>> batch_seed(1, 0) == batch_seed(1, 0) != batch_seed(1, 1)
    True
    """
    digest = hashlib.sha256(f"tabla-rollout:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


# --- the question -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Line:
    """One thing rolled out: a candidate play (``board`` after it, ``before`` the position it is played
    from) or the position before the roll (``board`` = ``before``)."""

    name: str
    board: tuple[int, ...]
    before: tuple[int, ...]
    position_id: str


@dataclass(frozen=True, slots=True)
class Job:
    """One position's rollout question.

    Attributes:
        text: the position as given (with its dice, if any).
        kind: ``play``, ``cube`` or ``cubeless`` (see :data:`FIELDS`).
        decision: the decision as the engine sees it.
        state: the match state from the side on roll.
        lines: what is rolled out: the candidate plays, best first at
            :data:`CANDIDATE_LEVEL`, or the position itself.
        position_id: the position's gnubg Position ID.
        match_id: its Match ID.
    """

    text: str
    kind: str
    decision: DecisionInput
    state: State
    lines: tuple[Line, ...]
    position_id: str
    match_id: str


def prepare(text: str, decision: DecisionInput, match_id: str, *, cubeless: bool = False, candidates: int = 5) -> Job:
    """The rollout question of ``decision`` (the position ``text`` as read, with its Match ID).

    A checker decision (dice set): the best ``candidates`` plays at
    :data:`CANDIDATE_LEVEL` within :data:`CANDIDATE_WINDOW` of the best (and
    the second best whatever). A cube decision: the decision before the roll,
    or with ``cubeless`` the cubeless equity before the roll (then any
    decision's position will do).

    Raises:
        TablaError: not backgammon or nackgammon, or (a cube rollout) the side
            on roll may not double (:class:`CubeNotAvailableError`).
    """
    if candidates < 1:
        raise RolloutError("--candidates must be 1 or more")
    if decision.variant not in ANALYSABLE_VARIANTS:
        raise RolloutError(f"the engine rolls out backgammon and nackgammon, not {decision.variant}")
    position = decision.position
    ids = (position.position_id(), match_id)
    board = tuple(to_board(position))
    state = State.of(decision)
    if decision.kind is DecisionKind.CHECKER and decision.dice is not None and not cubeless:
        ranked = rank_plays(decision, CANDIDATE_LEVEL)
        best = ranked[0].equity
        kept = [r for i, r in enumerate(ranked) if i < 2 or best - r.equity <= CANDIDATE_WINDOW][:candidates]
        lines = tuple(
            Line(r.text or "(no legal play)", tuple(to_board(r.position)), board, r.position.position_id())
            for r in kept
        )
        return Job(text, "play", decision, state, lines, *ids)
    if not cubeless:
        reason = not_available(state)
        if reason is not None:
            raise CubeNotAvailableError(f"no cube decision: {reason} (--cubeless rolls out the position)")
    line = Line("cubeless" if cubeless else "cube", board, board, ids[0])
    return Job(text, "cubeless" if cubeless else "cube", decision, state, (line,), *ids)


# --- one batch ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Task:
    """One batch of one line: everything a worker needs, picklable. ``threads`` does not change the numbers."""

    kind: str
    board: tuple[int, ...]
    before: tuple[int, ...]
    state: State
    truncate: int
    ply: int
    bearoff_db: bool
    seed: int
    threads: int = 1

    def key(self) -> str:
        """The cache key: everything the batch's figures depend on."""
        s = self.state
        return "|".join(
            (
                engine_version(),
                f"rollout r{ROLLOUT_REVISION}",
                self.kind,
                ",".join(map(str, self.board)),
                ",".join(map(str, self.before)),
                f"{s.cube}{s.owner[0]}{s.away1}/{s.away2}{'C' if s.crawford else ''}{'J' if s.jacoby else ''}"
                f"{'B' if s.beavers else ''}",
                f"t{self.truncate}p{self.ply}{'' if self.bearoff_db else 'n'}",
                str(BATCH),
                str(self.seed),
            )
        )


_STRATEGIES: dict[tuple[Any, ...], Any] = {}
_STRATEGIES_LOCK = threading.Lock()


def _strategy(truncate: int, ply: int, bearoff_db: bool, threads: int) -> Any:
    """bgsage's rollout engine for these settings, one per thread of a process (built when first asked)."""
    key = (truncate, ply, bearoff_db, threads, threading.get_ident())
    with _STRATEGIES_LOCK:
        found = _STRATEGIES.get(key)
    if found is not None:
        return found
    weights = _weights()
    strategy = bgbot_cpp.create_rollout(
        weights.strategy_type,
        weights.weight_paths_list,
        weights.hidden_sizes_list,
        n_trials=BATCH,
        truncation_depth=truncate,
        decision_ply=ply,
        n_threads=max(1, threads),
        seed=0,
        parallelize_trials=True,
        ultra_late_threshold=9999,
        cubeful_trial_moves=True,
    )
    if bearoff_db:
        bgbot_cpp.rollout_set_bearoff_db(strategy, _bearoff_db())
    with _STRATEGIES_LOCK:
        _STRATEGIES[key] = strategy
    return strategy


@cache
def _weights() -> Any:
    return bgsage.default_weights()


def cancel_running() -> None:
    """Ask every rollout running in this process to stop (it raises :class:`Cancelled`)."""
    with _STRATEGIES_LOCK:
        strategies = list(_STRATEGIES.values())
    for strategy in strategies:
        strategy.cancel()


class Cancelled(Exception):
    """A batch was stopped by :func:`cancel_running` before it finished."""


def run_batch(task: Task) -> tuple[float, ...]:
    """The figures of one batch: the means of :data:`FIELDS` of ``task.kind`` (from the side that moved
    or is on roll), then bgsage's per-trial standard error of each, in the same order."""
    strategy = _strategy(task.truncate, task.ply, task.bearoff_db, task.threads)
    strategy.reset_cancel()
    strategy.set_seed(task.seed)
    s = task.state
    match = {} if s.money else {"away1": s.away1, "away2": s.away2, "is_crawford": s.crawford}
    try:
        if task.kind == "play":
            r = strategy.cubeful_evaluate_board(
                list(task.board),
                list(task.before),
                cube_value=s.cube,
                owner=s.owner_code(),
                jacoby=s.jacoby,
                beaver=s.beavers,
                **match,
            )
            means = [r["cubeful_equity"], r["equity"], *r["probs"]]
            errors = [r["cubeful_se"], r["std_error"], *r["prob_std_errors"]]
        elif task.kind == "cube":
            r = strategy.cube_decision(
                list(task.board), s.cube, s.owner_code(), jacoby=s.jacoby, beaver=s.beavers, **match
            )
            means = [r["equity_nd"], r["equity_dt"], r["cubeless_equity"], *r["probs"]]
            errors = [r["equity_nd_se"], r["equity_dt_se"], r["cubeless_se"], *r["prob_std_errors"]]
        else:
            flipped = bgbot_cpp.flip_board(list(task.board))
            r = strategy.evaluate_board(flipped, flipped)
            w, gw, bw, gl, bl = r["probs"]
            e = r["prob_std_errors"]
            means = [-r["equity"], 1.0 - w, gl, bl, gw, bw]
            errors = [r["std_error"], e[0], e[3], e[4], e[1], e[2]]
    except bgbot_cpp.RolloutCancelled as exc:
        raise Cancelled() from exc
    return tuple(float(v) for v in (*means, *errors))


# --- pooling ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Figure:
    """A rolled-out figure: the mean over all trials and its standard error."""

    mean: float
    se: float


def pool(values: Sequence[float], errors: Sequence[float] | None = None) -> Figure:
    """The mean of equal batches' means (in order) and its standard error.

    With :data:`SPREAD_BATCHES` batches or more the error comes from the
    spread of the batch means. With fewer that spread says too little, and
    the error is the one over all trials pooled from bgsage's per-batch
    figures (``errors``, each batch's per-trial standard error): larger
    than the actual one (see the module's docstring), never smaller.

    >>> pool([0.1, 0.3] * 4)
    Figure(mean=0.2, se=0.03779644730092272)
    >>> round(pool([0.1, 0.3], [0.0, 0.0]).se, 4)  # sqrt(0.1 ** 2 / 72): two trial means 0.1 from their mean
    0.0118
    """
    k = len(values)
    mean = math.fsum(values) / k
    if k >= SPREAD_BATCHES or errors is None:
        if k < 2:
            return Figure(mean, math.nan)
        spread = math.fsum((v - mean) ** 2 for v in values) / (k - 1)
        return Figure(mean, math.sqrt(spread / k))
    squares = math.fsum(BATCH * se * se + m * m for m, se in zip(values, errors)) / k
    return Figure(mean, math.sqrt(max(0.0, squares - mean * mean) / (k * BATCH)))


@dataclass(frozen=True, slots=True)
class LineResult:
    """One line's pooled figures (:data:`FIELDS` of its kind) and, for a play, its difference to the best."""

    line: Line
    figures: dict[str, Figure]
    diff: Figure | None = None
    apart: bool = False


@dataclass(frozen=True, slots=True)
class RolloutResult:
    """A position's rollout.

    Attributes:
        job: the question.
        settings: how it was run.
        trials: trials each line got (the batches every line completed, in order from the first).
        lines: the lines, a play's candidates best first by cubeful equity.
        partial: stopped (Ctrl-C) before the trials asked for.
        cached: batches read from the cache (the rest were run).
    """

    job: Job
    settings: Settings
    trials: int
    lines: tuple[LineResult, ...]
    partial: bool
    cached: int = 0


def _pooled(
    job: Job, settings: Settings, done: list[list[tuple[float, ...]]], partial: bool, cached: int
) -> RolloutResult:
    """Pool the first ``n`` batches every line of ``job`` has (``done[line][batch]``)."""
    n = min(len(batches) for batches in done)
    names = FIELDS[job.kind]
    width = len(names)
    results = []
    for line, batches in zip(job.lines, done):
        columns = list(zip(*batches[:n]))
        figures = {name: Figure(math.nan, math.nan) for name in names}
        if n:
            figures = {name: pool(columns[i], columns[width + i]) for i, name in enumerate(names)}
        results.append((line, figures))
    lines: list[LineResult]
    if job.kind == "play" and n:
        order = sorted(range(len(results)), key=lambda i: (-results[i][1]["equity"].mean, i))
        best = order[0]
        lines = []
        for i in order:
            diff = Figure(0.0, 0.0)
            if i != best:
                diff = pool([a[0] - b[0] for a, b in zip(done[i][:n], done[best][:n])])
                if n < SPREAD_BATCHES:
                    own, top = results[i][1]["equity"].se, results[best][1]["equity"].se
                    diff = Figure(diff.mean, math.hypot(own, top))
            lines.append(LineResult(results[i][0], results[i][1], diff, abs(diff.mean) > APART * diff.se))
    else:
        lines = [LineResult(line, figures) for line, figures in results]
    return RolloutResult(job, settings, n * BATCH, tuple(lines), partial, cached)


# --- the cache ----------------------------------------------------------------

_SCHEMA = "CREATE TABLE IF NOT EXISTS batches (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID"


def rollout_cache_path() -> Path:
    """``rollout.sqlite``, next to the analysis cache."""
    return cache_path().parent / "rollout.sqlite"


class _Cache:
    """The batches kept from earlier rollouts; a cache that cannot be opened is no cache (the rollout still runs)."""

    def __init__(self, path: Path | None) -> None:
        self.db: sqlite3.Connection | None = None
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(path, timeout=30.0)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(_SCHEMA)
            self.db = db
        except (sqlite3.Error, OSError):
            self.db = None

    def read(self, keys: list[str]) -> dict[str, tuple[float, ...]]:
        found: dict[str, tuple[float, ...]] = {}
        if self.db is None:
            return found
        try:
            for start in range(0, len(keys), 500):
                chunk = keys[start : start + 500]
                rows = self.db.execute(
                    f"SELECT key, value FROM batches WHERE key IN ({','.join('?' * len(chunk))})", chunk
                )
                found.update((key, tuple(json.loads(value))) for key, value in rows)
        except sqlite3.Error:
            return {}
        return found

    def write(self, rows: dict[str, tuple[float, ...]]) -> None:
        if self.db is None or not rows:
            return
        try:
            with self.db:
                self.db.executemany(
                    "INSERT OR REPLACE INTO batches (key, value) VALUES (?, ?)",
                    [(key, json.dumps(value)) for key, value in rows.items()],
                )
        except sqlite3.Error:
            return

    def close(self) -> None:
        if self.db is not None:
            self.db.close()


# --- running ------------------------------------------------------------------

Progress = Callable[[int, int, int], None]
"""Called as batches finish with the trials done (all lines), the trials planned, and the trials run
(not read from the cache)."""


@dataclass(slots=True)
class _Slot:
    job: int
    line: int
    index: int
    task: Task
    key: str


@dataclass(slots=True)
class _Run:
    jobs: Sequence[Job]
    settings: Settings
    done: list[list[dict[int, tuple[float, ...]]]] = field(default_factory=list)
    stopped: set[int] = field(default_factory=set)

    def slots(self, indices: range, threads: int) -> list[_Slot]:
        s = self.settings
        out = []
        for j, job in enumerate(self.jobs):
            if j in self.stopped:
                continue
            for i in indices:
                seed = batch_seed(s.seed, i)
                for n, line in enumerate(job.lines):
                    task = Task(
                        job.kind, line.board, line.before, job.state, s.truncate, s.ply, s.bearoff_db, seed, threads
                    )
                    out.append(_Slot(j, n, i, task, task.key()))
        return out

    def prefix(self, j: int) -> list[list[tuple[float, ...]]]:
        """Each line's batches of job ``j`` from the first, as far as every line has them."""
        out = []
        for batches in self.done[j]:
            run: list[tuple[float, ...]] = []
            while len(run) in batches:
                run.append(batches[len(run)])
            out.append(run)
        return out


def rollout(
    jobs: Sequence[Job],
    settings: Settings,
    *,
    threads: int = 1,
    scheduler: str | None = None,
    use_cache: bool = True,
    path: Path | None = None,
    progress: Progress | None = None,
) -> list[RolloutResult]:
    """Roll out every job's lines with ``settings``; one result per job, in order.

    The batches run here, one after the other (each over ``threads`` of
    bgsage's C++ core), or on the Dask cluster at ``scheduler`` (every
    batch of every job a task of its own, so all workers stay busy). The
    numbers are the same either way. Ctrl-C (``KeyboardInterrupt``) stops
    the run: the batches done so far are pooled and the results are marked
    ``partial``.

    Args:
        jobs: from :func:`prepare`.
        settings: trials, truncation, level, seed, target error.
        threads: threads of the engine per batch (0 = every core); the
            numbers do not depend on it.
        scheduler: a Dask address (see :func:`tabla_cli.cluster.check_scheduler`), or None to run here.
        use_cache: read and write the rollout cache.
        path: the cache file (default :func:`rollout_cache_path`).
        progress: see :data:`Progress`.

    Raises:
        ClusterError: the cluster cannot be reached or a batch failed on it.
    """
    run = _Run(jobs, settings, [[{} for _ in job.lines] for job in jobs])
    store = _Cache((path or rollout_cache_path()) if use_cache else None)
    total = settings.batches * BATCH * sum(len(job.lines) for job in jobs)
    count = [0, 0, 0]  # trials done, trials run, batches cached
    waves = [range(settings.batches)]
    if settings.target_se > 0:
        waves = [range(i, min(i + WAVE, settings.batches)) for i in range(0, settings.batches, WAVE)]
    partial = False
    try:
        for wave in waves:
            slots = run.slots(wave, threads)
            found = store.read([slot.key for slot in slots])
            todo = []
            for slot in slots:
                if slot.key in found:
                    run.done[slot.job][slot.line][slot.index] = found[slot.key]
                    count[0] += BATCH
                    count[2] += 1
                else:
                    todo.append(slot)
            if progress is not None and count[0]:
                progress(count[0], total, count[1])
            fresh: dict[str, tuple[float, ...]] = {}
            try:
                for slot, values in zip(todo, _execute([s.task for s in todo], scheduler)):
                    run.done[slot.job][slot.line][slot.index] = values
                    fresh[slot.key] = values
                    count[0] += BATCH
                    count[1] += BATCH
                    if progress is not None:
                        progress(count[0], total, count[1])
            finally:
                store.write(fresh)
            for j, job in enumerate(jobs):
                if settings.target_se > 0 and j not in run.stopped and _met(job, settings, run.prefix(j)):
                    run.stopped.add(j)
            if len(run.stopped) == len(jobs):
                break
    except (KeyboardInterrupt, Cancelled):
        partial = True
    finally:
        store.close()
    return [_pooled(job, settings, run.prefix(j), partial, count[2]) for j, job in enumerate(jobs)]


def _met(job: Job, settings: Settings, done: list[list[tuple[float, ...]]]) -> bool:
    """Every line's standard error of its main figure below ``target_se``."""
    result = _pooled(job, settings, done, False, 0)
    main = FIELDS[job.kind][0]
    return all(line.figures[main].se < settings.target_se for line in result.lines)


def _execute(tasks: list[Task], scheduler: str | None) -> Iterator[tuple[float, ...]]:
    """Each task's figures, in order: here (Ctrl-C cancels the batch running) or on the cluster."""
    if not tasks:
        return
    if scheduler is not None:
        from tabla_cli.cluster import map_on_cluster

        yield from map_on_cluster(run_batch, tasks, scheduler, per_worker=1, max_chunk=1)
        return
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="tabla-rollout") as pool_:
        for task in tasks:
            running: Future[tuple[float, ...]] = pool_.submit(run_batch, task)
            try:
                while True:
                    try:
                        values = running.result(timeout=0.25)
                        break
                    except TimeoutError:
                        continue
            except KeyboardInterrupt:
                cancel_running()
                try:
                    running.result()
                except Cancelled:
                    pass
                raise
            yield values


# --- as data ------------------------------------------------------------------


def _round(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 6)


def _chances(figures: dict[str, Figure]) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for name in PROBABILITIES:
        out[name] = _round(figures[name].mean)
        out[f"{name}_se"] = _round(figures[name].se)
    out["lose"] = _round(1.0 - figures["win"].mean)
    out["lose_se"] = out["win_se"]
    return out


def as_data(result: RolloutResult) -> dict[str, Any]:
    """The result as JSON-ready data (docs/json-schema.md describes every field)."""
    job, s = result.job, result.settings
    data: dict[str, Any] = {
        "position": job.text,
        "position_id": job.position_id,
        "match_id": job.match_id,
        "kind": job.kind,
        "trials": result.trials,
        "trials_asked": s.batches * BATCH,
        "batches": result.trials // BATCH,
        "batch_trials": BATCH,
        "partial": result.partial,
        "settings": {
            "truncate": s.truncate,
            "level": s.level,
            "seed": s.seed,
            "target_se": s.target_se,
            "bearoff_db": s.bearoff_db,
        },
    }
    if job.kind == "play":
        dice = job.decision.dice
        data["dice"] = [dice[0], dice[1]] if dice else None
        candidates = []
        for rank, line in enumerate(result.lines, 1):
            f = line.figures
            diff = line.diff or Figure(math.nan, math.nan)
            candidates.append(
                {
                    "rank": rank,
                    "play": line.line.name,
                    "position_id": line.line.position_id,
                    "equity": _round(f["equity"].mean),
                    "equity_se": _round(f["equity"].se),
                    "cubeless_equity": _round(f["cubeless_equity"].mean),
                    "cubeless_se": _round(f["cubeless_equity"].se),
                    **_chances(f),
                    "diff": _round(diff.mean),
                    "diff_se": _round(diff.se),
                    "apart": line.apart,
                }
            )
        data["candidates"] = candidates
        return data
    f = result.lines[0].figures
    data["cubeless_equity"] = _round(f["cubeless_equity"].mean)
    data["cubeless_se"] = _round(f["cubeless_equity"].se)
    data.update(_chances(f))
    if job.kind == "cube":
        nd, dt = f["no_double"], f["double_take"]
        data.update(
            no_double=_round(nd.mean),
            no_double_se=_round(nd.se),
            double_take=_round(dt.mean),
            double_take_se=_round(dt.se),
            double_pass=1.0,
            double_pass_se=0.0,
        )
        if result.trials:
            values = CubeValues(nd.mean, dt.mean, 1.0, f["win_gammon"].mean)
            v = verdict(values, "rollout", redouble=job.state.cube > 1, beavers=job.state.beavers)
            data.update(proper_action=v.proper, double=v.double, take=v.take)
            data["costs"] = {action: round(cost, 6) for action, cost in v.costs.items()}
        else:
            data.update(proper_action=None, double=None, take=None, costs={})
    return data


__all__ = [
    "BATCH",
    "LEVELS",
    "Cancelled",
    "Figure",
    "Job",
    "Line",
    "LineResult",
    "RolloutError",
    "RolloutResult",
    "Settings",
    "Task",
    "as_data",
    "batch_seed",
    "pool",
    "prepare",
    "rollout",
    "run_batch",
]
