"""Batched calls to the bgsage engine behind a small typed wrapper, and the rescoring above 1ply.

:class:`State` is the match state from the side on roll, as the engine takes
it; :func:`checker_batch` and :func:`best_equities` score every legal play of
many positions at 1ply in one call, :func:`cube_batch` gives no double,
double/take and double/pass of many positions at any level, and
:class:`Rescorer` rescores the move filter's survivors above 1ply. The
conventions (board, cube owner, equities) are those of
:mod:`tabla_cli.analysis.engine`, which alone calls this module.
"""

from __future__ import annotations

import gc
import os
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple, TypeVar

import bgbot_cpp  # type: ignore[import-not-found]
import bgsage  # type: ignore[import-untyped]

from tabla_cli.board import Dice
from tabla_cli.errors import TablaError
from tabla_cli.evaluation.types import DecisionInput

_T = TypeVar("_T")
_R = TypeVar("_R")
_FILTER_MAX_MOVES = 5
_FILTER_THRESHOLD = 0.08
_DEEP_FILTER_MAX_MOVES = 2
_DEEP_FILTER_THRESHOLD = 0.04
_OWNERS = {name: bgbot_cpp.CubeOwner(code) for code, name in enumerate(("centered", "player", "opponent"))}
_FLIP_OWNER = {"centered": "centered", "player": "opponent", "opponent": "player"}


@dataclass(frozen=True, slots=True)
class State:
    """What the engine needs besides the board, from the side on roll."""

    cube: int
    owner: str
    away1: int
    away2: int
    crawford: bool
    jacoby: bool
    beavers: bool = False

    @classmethod
    def of(cls, d: DecisionInput) -> State:
        if d.cube_owner is None:
            owner = "centered"
        else:
            owner = "player" if d.cube_owner is d.on_roll else "opponent"
        return cls(
            cube=d.cube,
            owner=owner,
            away1=d.away[d.on_roll],
            away2=d.away[d.on_roll.other],
            crawford=d.crawford,
            jacoby=d.money and d.jacoby,
            beavers=d.money and d.beavers,
        )

    @property
    def money(self) -> bool:
        return self.away1 == 0 and self.away2 == 0

    def flipped(self) -> State:
        return State(
            self.cube, _FLIP_OWNER[self.owner], self.away2, self.away1, self.crawford, self.jacoby, self.beavers
        )

    def owner_code(self) -> Any:
        return _OWNERS[self.owner]

    def checker_input(self, board: Sequence[int], dice: Dice) -> dict[str, Any]:
        item: dict[str, Any] = {
            "board": list(board),
            "die1": dice[0],
            "die2": dice[1],
            "cube_value": self.cube,
            "cube_owner": self.owner_code(),
        }
        if not self.money:
            item.update(away1=self.away1, away2=self.away2, is_crawford=self.crawford)
        return item

    def cube_input(self, board: Sequence[int]) -> tuple[Any, ...]:
        if self.money:
            return (list(board), self.cube, self.owner_code())
        return (list(board), self.cube, self.owner_code(), self.away1, self.away2, self.crawford)

    def can_double(self) -> bool:
        """gnubg's rule: own or centred cube, and in a match no Crawford game or dead cube."""
        if self.owner == "opponent":
            return False
        return self.money or (not self.crawford and self.cube < self.away1)

    def before_roll(self, nd: float, dt: float, dp: float) -> float:
        """The side on roll's equity before rolling: it doubles when that is better and it may.

        >>> State(1, "centered", 0, 0, False, False).before_roll(0.6, 1.2, 1.0)
        1.0
        >>> State(1, "opponent", 0, 0, False, False).before_roll(0.6, 1.2, 1.0)
        0.6
        """
        if not self.can_double():
            return nd
        return max(nd, min(dt, dp, 2 * dt) if self.beavers else min(dt, dp))

    def mwc(self, equity: float) -> float:
        return float(bgbot_cpp.eq2mwc(equity, self.away1, self.away2, self.cube, self.crawford))


@cache
def _bearoff_db() -> Any:
    """bgsage's one-sided bear-off database (exact race odds once both sides are home; loaded once)."""
    path = bgsage.weights.bearoff_db_path()
    database = bgbot_cpp.BearoffDB()
    if path is None or not database.load(path):
        raise TablaError(f"bgsage's bear-off database is missing or unreadable ({path}): reinstall bgsage")
    return database


@cache
def _net() -> Any:
    """The 1ply net, built once per process when first asked; every search above 1ply looks ahead with it.

    It reads exact figures from the bear-off database where that covers the
    position (every checker of both sides in its home board), as bgsage's
    own analyser does: the nets misjudge the last rolls of a bear-off, where
    a redouble often decides a match.
    """
    weights = bgsage.default_weights()
    kind, paths, hiddens = weights.strategy_type, weights.weight_paths_list, weights.hidden_sizes_list
    return bgbot_cpp.BearoffStrategy(bgbot_cpp.create_strategy(kind, paths, hiddens), _bearoff_db())


AUTO = "auto"
"""The level that looks only as deep as a decision needs (see :func:`stages`)."""

AUTO_DEEPEST_ERROR = 0.12
"""At ``auto``, the error at 2ply above which a checker play is looked at at 3ply: gnubg's bound
for a blunder ("very bad")."""


def stages(level: str) -> list[tuple[str, float | None]]:
    """The levels a checker play goes through above 1ply, each with the error the play made must
    exceed at the level before for the decision to go on (None: every decision goes on).

    At ``auto`` a decision whose play made is the best at 1ply keeps its 1ply
    figures (its error is 0), one with an error goes on to 2ply, and one whose
    error at 2ply exceeds :data:`AUTO_DEEPEST_ERROR` on to 3ply. Against
    eXtreme Gammon's own analysis this is closer than 3ply everywhere
    (docs/analysis-accuracy.md): a deeper look at a play the net already
    agrees with mostly adds small errors XG does not see, and 2ply
    overstates the errors it keeps, most of all the large ones.

    >>> stages("3ply")
    [('2ply', None), ('3ply', None)]
    >>> stages("auto")
    [('2ply', 0.0), ('3ply', 0.12)]
    """
    if level == AUTO:
        return [("2ply", 0.0), ("3ply", AUTO_DEEPEST_ERROR)]
    return [(f"{ply}ply", None) for ply in range(2, int(level[0]) + 1)]


Move = tuple[tuple[int, ...], float, float]
"""A play scored at 1ply: resulting board, cubeful equity, cubeless equity (to break ties)."""


_BEST: dict[tuple[Any, ...], float] = {}
"""The 1ply equity of the best play of each checker input scored since the last :func:`clear_caches`,
by :func:`_best_key`.

Luck asks the 21 rolls of every pre-roll position, the roll made among them
was scored with its checker play, and at 2ply a cube decision's no double
asks the same rolls of the same position with the same cube again
(:func:`_no_double`): each is scored once.
"""


def _best_key(item: dict[str, Any], jacoby: bool) -> tuple[Any, ...]:
    """Everything the engine's 1ply scoring of a checker input depends on, the dice low first
    (the plays of a roll, and their equities, do not depend on which die is named first)."""
    low, high = sorted((item["die1"], item["die2"]))
    match = (item.get("away1"), item.get("away2"), item.get("is_crawford"))
    return (jacoby, tuple(item["board"]), low, high, item["cube_value"], item["cube_owner"], *match)


def checker_batch(items: list[dict[str, Any]], threads: int, jacoby: bool) -> list[list[Move]]:
    """Score every legal play of every item at 1ply (one engine call); each list best first."""
    if not items:
        return []
    raw = bgbot_cpp.batch_checker_play(items, _net(), _FILTER_MAX_MOVES, _FILTER_THRESHOLD, threads, jacoby=jacoby)
    scored = [[(tuple(m["board"]), float(m["equity"]), float(m["cubeless_equity"])) for m in r["moves"]] for r in raw]
    _BEST.update((_best_key(item, jacoby), moves[0][1]) for item, moves in zip(items, scored))
    return scored


def best_equities(items: list[dict[str, Any]], threads: int, jacoby: bool) -> list[float]:
    """The 1ply equity of each item's best play (all that luck needs), each distinct item scored once
    until :func:`clear_caches` (:data:`_BEST`)."""
    keys = [_best_key(item, jacoby) for item in items]
    missing = {key: item for key, item in zip(keys, items) if key not in _BEST}
    if missing:
        raw = bgbot_cpp.batch_checker_play(
            list(missing.values()), _net(), _FILTER_MAX_MOVES, _FILTER_THRESHOLD, threads, jacoby=jacoby
        )
        _BEST.update(zip(missing, (float(r["moves"][0]["equity"]) for r in raw)))
    return [_BEST[key] for key in keys]


_Play = tuple[tuple[int, ...], State]
"""A play to rescore: its resulting board and the match state of the side that moved."""


class Rescorer:
    """Rescores checker plays above 1ply, in batches over all decisions, each distinct play once per level.

    A play is worth minus the opponent's cubeful equity before his roll, with
    his cube decision (he doubles when that is better for him and he may):
    bgsage's cubeful search at each level (:func:`_search`).
    """

    def __init__(self, level: str, threads: int) -> None:
        self.level = level
        self.threads = threads
        self.memo: dict[str, dict[_Play, float]] = defaultdict(dict)
        self.chances: dict[str, dict[_Play, Probabilities]] = defaultdict(dict)
        """The cubeless chances of the side that moved after each play searched, by level."""
        self.stages = stages(level)

    def evaluate(self, wanted: Sequence[_Play], level: str) -> None:
        """Score the plays of ``wanted`` not scored yet at ``level``."""
        memo = self.memo[level]
        plies = int(level[0])
        todo = [play for play in dict.fromkeys(wanted) if play not in memo]

        def search(play: _Play, threads: int) -> tuple[float, Probabilities]:
            board, state = play
            item = state.flipped().cube_input(bgbot_cpp.flip_board(list(board)))
            found = _search(item, item[1], item[2], plies, threads, state.jacoby)
            return -float(found["equity"]), invert(tuple(float(p) for p in found["probs"]))

        for play, (equity, chances) in zip(todo, in_parallel(search, todo, self.threads)):
            memo[play] = equity
            self.chances[level][play] = chances

    def score(
        self, decisions: Sequence[tuple[list[Move], State, tuple[int, ...] | None]]
    ) -> list[dict[tuple[int, ...], tuple[float, str]]]:
        """Each play's equity and the level it comes from, best first, for each decision.

        Args:
            decisions: for each decision its plays scored at 1ply, the match
                state and the play made (None when unknown).

        The plays go one ply deeper at a time, each stage through a move
        filter over the stage before's ranking, always with the play made: at
        2ply the best :data:`_FILTER_MAX_MOVES` within :data:`_FILTER_THRESHOLD`
        of the best 1ply equity; at 3ply the best :data:`_DEEP_FILTER_MAX_MOVES`
        within :data:`_DEEP_FILTER_THRESHOLD` of the best 2ply equity. A stage
        whose filter leaves only the play made is skipped (its error is 0 at
        any depth). While one of the first two of a stage's ranking holds a
        lower level's figure it is rescored too (at 3ply with the play made
        known, only the first). At ``auto`` a stage also skips a decision whose
        play made errs by no more than the stage's bound (:func:`stages`). Ties
        rank by cubeless 1ply equity, then by board; a play that ends the game
        keeps its exact 1ply value. Why these filters: docs/analysis-accuracy.md.
        """
        reached: list[dict[tuple[int, ...], str]] = [
            {board: "1ply" for board, _, _ in moves} for moves, _, _ in decisions
        ]
        for stage, (level, gate) in enumerate(self.stages):
            most, threshold = (
                (_FILTER_MAX_MOVES, _FILTER_THRESHOLD)
                if not stage
                else (_DEEP_FILTER_MAX_MOVES, _DEEP_FILTER_THRESHOLD)
            )
            chosen = []
            for (moves, state, played), at in zip(decisions, reached):
                entries = self._entries(moves, state, at)
                boards = self._filter(entries, played, most, threshold)
                settled = boards == {played} or (gate is not None and _error(entries, played) <= gate)
                chosen.append(set() if settled else boards)
            for boards, at in zip(chosen, reached):
                at.update(dict.fromkeys(boards, level))
            wanted = [play for (_, state, _), boards in zip(decisions, chosen) for play in self._wanted(boards, state)]
            while wanted:
                self.evaluate(wanted, level)
                wanted = []
                for (moves, state, played), boards, at in zip(decisions, chosen, reached):
                    if boards:
                        promoted = 1 if stage and played is not None else 2
                        first = sorted(self._entries(moves, state, at), key=_order)[:promoted]
                        stale = {board for board, _, _ in first if at[board] != level}
                        at.update(dict.fromkeys(stale, level))
                        wanted.extend(self._wanted(stale, state))
        return [
            {board: (equity, at[board]) for board, equity, _ in sorted(self._entries(moves, state, at), key=_order)}
            for (moves, state, _), at in zip(decisions, reached)
        ]

    @staticmethod
    def _filter(moves: list[Move], played: tuple[int, ...] | None, most: int, threshold: float) -> set[tuple[int, ...]]:
        """The best ``most`` plays of ``moves`` within ``threshold`` of the best, and the play made."""
        ranking = sorted(moves, key=_order)
        chosen = {board for board, equity, _ in ranking[:most] if ranking[0][1] - equity < threshold}
        if played is not None and any(board == played for board, _, _ in moves):
            chosen.add(played)
        return chosen

    def _wanted(self, boards: set[tuple[int, ...]], state: State) -> list[_Play]:
        return [(board, state) for board in sorted(boards) if not bgbot_cpp.check_game_over(list(board))]

    def _entries(self, moves: list[Move], state: State, at: dict[tuple[int, ...], str]) -> list[Move]:
        return [
            (board, self.memo[at[board]].get((board, state), equity) if at[board] != "1ply" else equity, cubeless)
            for board, equity, cubeless in moves
        ]


def chances_after(plays: Sequence[_Play], threads: int) -> list[Probabilities]:
    """The 1ply net's cubeless chances of the side that moved, after each play."""
    if not plays:
        return []
    positions = [(list(board), state.owner_code()) for board, state in plays]
    raw = bgbot_cpp.batch_evaluate_post_move(positions, _net(), threads, jacoby=plays[0][1].jacoby)
    return [tuple(float(p) for p in r["probs"]) for r in raw]


def _error(moves: list[Move], played: tuple[int, ...] | None) -> float:
    """The play made's error among ``moves`` (infinite when it is unknown or not among them)."""
    made = next((equity for board, equity, _ in moves if board == played), None)
    return float("inf") if made is None else max(equity for _, equity, _ in moves) - made


def _order(move: Move) -> tuple[float, float, tuple[int, ...]]:
    """bgsage's ranking of plays: equity, then cubeless equity, then board."""
    return (-move[1], -move[2], move[0])


Probabilities = tuple[float, ...]
"""Cubeless chances of one side, as gnubg orders them: win, win a gammon, win a backgammon,
lose a gammon, lose a backgammon (the gammons include the backgammons)."""


def invert(probs: Probabilities) -> Probabilities:
    """The same chances from the other side."""
    return (1.0 - probs[0], probs[3], probs[4], probs[1], probs[2])


class CubeValues(NamedTuple):
    """A pre-roll position's cube figures from the side on roll: no double, double/take,
    double/pass (cubeful, normalised), the cubeless chance of winning a gammon or more, and
    the cubeless chances as the engine gives them (:data:`Probabilities`; empty when not asked)."""

    nd: float
    dt: float
    dp: float
    gammon: float
    probs: Probabilities = ()


_CUBE_MEMO: dict[str, dict[tuple[Any, ...], CubeValues]] = defaultdict(dict)
"""The :class:`CubeValues` found since the last :func:`clear_caches`, by level and position.

A double and its take share their position, and a cube decision's no double
asks the 21 rolls of positions that other cube decisions may ask again.
Above 1ply each costs a look-ahead.
"""


def cube_batch(items: list[tuple[Any, ...]], level: str, threads: int, jacoby: bool) -> list[CubeValues]:
    """The :class:`CubeValues` of each pre-roll position (each distinct one evaluated once until
    :func:`clear_caches`).

    At 1ply the net's chances become cubeful by Janowski's interpolation.
    Above it the look-ahead is cubeful, as gnubg's is: double/take is bgsage's
    cubeful search with the cube turned (:func:`_double_take`), no double the
    average of the best plays of the 21 rolls one ply less deep
    (:func:`_no_double`). Interpolation alone misjudges a cube one side can no
    longer use (at 2-away, a double to the match) by up to a third of a point.
    """
    memo = _CUBE_MEMO[level]
    keys = [(jacoby, tuple(item[0]), *item[1:]) for item in items]
    missing = {key: item for key, item in zip(keys, items) if key not in memo}
    if missing:
        memo.update(zip(missing, _cube_values(list(missing.values()), level, threads, jacoby)))
    return [memo[key] for key in keys]


def _cube_values(items: list[tuple[Any, ...]], level: str, threads: int, jacoby: bool) -> list[CubeValues]:
    if level == "1ply":
        raw = bgbot_cpp.batch_evaluate_positions(items, _net(), threads, jacoby=jacoby, beaver=False)
        return [
            CubeValues(
                float(r["equity_nd"]),
                float(r["equity_dt"]),
                float(r["equity_dp"]),
                float(r["probs"][1]),
                tuple(float(p) for p in r["probs"]),
            )
            for r in raw
        ]
    plies = int(level[0])
    turned = in_parallel(lambda item, each: _double_take(item, plies, each, jacoby), items, threads)
    no_double = _no_double(items, level, threads, jacoby)
    return [CubeValues(nd, dt, 1.0, probs[1], probs) for nd, (dt, probs) in zip(no_double, turned)]


_ROLLS: tuple[Dice, ...] = tuple((a, b) for a in range(1, 7) for b in range(a, 7))


def _no_double(items: list[tuple[Any, ...]], level: str, threads: int, jacoby: bool) -> list[float]:
    """The no double of each position: the average over the 21 rolls of the equity, one ply less
    deep, of the play the 1ply net picks for the roll, the cube left as it is.

    gnubg's look-ahead picks each roll's play the same way, with its quickest
    evaluation, before it looks deeper at that one play. At 2ply this is the
    best 1ply play of each roll; at 3ply one 2ply search of that play a roll
    (why not the best of the move filter's few: docs/analysis-accuracy.md).
    """
    if not items:
        return []
    states = [_state_of(item, jacoby) for item in items]
    inputs = [state.checker_input(item[0], roll) for item, state in zip(items, states) for roll in _ROLLS]
    below = f"{int(level[0]) - 1}ply"
    if below == "1ply":  # the best 1ply plays' equities, which luck asks too
        best = best_equities(inputs, threads, jacoby)
    else:
        picked = [min(moves, key=_order) for moves in checker_batch(inputs, threads, jacoby)]
        each = [state for state in states for _ in _ROLLS]
        rescorer = Rescorer(below, threads)
        plays = [(board, state) for (board, _, _), state in zip(picked, each)]
        rescorer.evaluate([play for play in plays if not bgbot_cpp.check_game_over(list(play[0]))], below)
        best = [rescorer.memo[below].get(play, equity) for play, (_, equity, _) in zip(plays, picked)]
    weights = [1 if a == b else 2 for a, b in _ROLLS]
    return [
        sum(w * e for w, e in zip(weights, best[k * len(_ROLLS) : (k + 1) * len(_ROLLS)])) / 36
        for k in range(len(items))
    ]


def _state_of(item: tuple[Any, ...], jacoby: bool) -> State:
    """The :class:`State` that :meth:`State.cube_input` made ``item`` from (beavers aside)."""
    _, cube, owner, *match = item
    away1, away2, crawford = match if match else (0, 0, False)
    name = next(name for name, code in _OWNERS.items() if code == owner)
    return State(cube, name, away1, away2, crawford, jacoby)


def _search(item: tuple[Any, ...], cube: int, owner: Any, plies: int, threads: int, jacoby: bool) -> dict[str, Any]:
    """bgsage's cubeful ``plies``-ply search of ``item``'s board with the cube ``cube`` held by ``owner``:
    the side on roll's equity before its roll (its cube decision included, in
    units of ``cube``) and its cubeless chances."""
    board, _, _, *match = item
    away1, away2, crawford = match if match else (0, 0, False)
    return dict(
        bgbot_cpp.cubeful_probs_and_equity_nply(
            board,
            owner,
            _net(),
            plies,
            _FILTER_MAX_MOVES,
            _FILTER_THRESHOLD,
            threads,
            cube,
            away1,
            away2,
            crawford,
            jacoby,
            False,
            _bearoff_db(),
        )
    )


def _double_take(item: tuple[Any, ...], plies: int, threads: int, jacoby: bool) -> tuple[float, Probabilities]:
    """Double/take of one position by bgsage's cubeful ``plies``-ply search, and its cubeless chances.

    Double/take is the side on roll's cubeful equity before the roll with the
    cube turned: twice the value, the opponent's. The search gives it in units
    of the cube it was given; it is brought back to the current cube's units
    (in a match, through match-winning chances).
    """
    _, cube, _, *match = item
    away1, away2, crawford = match if match else (0, 0, False)
    turned = _search(item, 2 * cube, _OWNERS["opponent"], plies, threads, jacoby)
    equity, probs = float(turned["equity"]), tuple(float(p) for p in turned["probs"])
    if away1 == 0 and away2 == 0:
        return 2 * equity, probs
    win = float(bgbot_cpp.eq2mwc(1.0, away1, away2, cube, crawford))
    lose = float(bgbot_cpp.eq2mwc(-1.0, away1, away2, cube, crawford))
    chances = float(bgbot_cpp.eq2mwc(equity, away1, away2, 2 * cube, crawford))
    return (2 * chances - (win + lose)) / (win - lose), probs


def in_parallel(work: Callable[[_T, int], _R], items: Sequence[_T], threads: int) -> list[_R]:
    """``work(item, engine threads)`` for each item, in order, ``threads`` searches at a time.

    One search spreads badly over threads (its 21 rolls are few and
    uneven), but the engine lets go of Python's lock while it searches, so
    separate searches run side by side, each on one thread. The figures do
    not depend on the order. ``threads`` 0 means every core.
    """
    workers = threads or os.cpu_count() or 1
    if workers == 1 or len(items) < 2:
        return [work(item, max(threads, 1)) for item in items]
    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(lambda item: work(item, 1), items))


def clear_caches() -> None:
    """Forget the figures kept since the last call: :data:`_CUBE_MEMO` (of every level: a 3ply run
    rescores at 2ply on the way) and :data:`_BEST`."""
    _CUBE_MEMO.clear()
    _BEST.clear()


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while the engine runs.

    A batch returns a dict and lists for every legal play of every roll
    (thousands for the luck of a match); their allocation triggers
    collections that scan them all again. They hold no cycles, so nothing is lost by collecting after the batch.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
