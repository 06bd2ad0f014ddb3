"""Evaluate checker plays and cube decisions with the bgsage engine.

bgsage (PyPI ``bgsage``, MPL-2.0) is a neural-net backgammon engine with a C++
core. Its levels follow eXtreme Gammon's numbering: ``1ply`` is the raw net
(GNU Backgammon's "0-ply"), ``2ply`` looks one roll ahead (gnubg's "1-ply"),
``3ply`` two rolls (gnubg's "2-ply"); ``auto``, the default, goes only as deep
as each decision needs (see **Auto** below). Every call here is a batch: all checker
plays of the input go to the engine in one call (one per Jacoby setting, which
the engine takes per call), the luck of all rolls in a second, the plays to
rescore above 1ply and all cube decisions in a few more, and the C++ core
spreads each batch over ``threads``.

**Board.** The engine's board is 26 ints from the side on roll: index 1..24
hold the points in the mover's numbering, positive for the mover's checkers and
negative for the opponent's; index 25 is the mover's bar and index 0 the
opponent's bar (both counts >= 0). Cube ownership is relative to the side on
roll: ``centered``, ``player`` (the side on roll owns it) or ``opponent``.

**Equity.** All equities are cubeful and normalised to money (EMG), as GNU
Backgammon normalises them; bgsage reports them so already (double/pass is
+1.0 in money and in match play). In match play, for the side on roll needing
``a`` points against ``b`` with cube value ``c``::

    W = MWC(a - c, b)        # match-winning chances after winning c points
    L = MWC(a, b - c)        # ... after losing c points
    EMG = (2 * mwc - (W + L)) / (W - L)
    mwc = L + (EMG + 1) / 2 * (W - L)

which is gnubg's ``mwc2eq``/``eq2mwc`` at the current cube. ``error_mwc`` is
``mwc(best) - mwc(made)`` = ``error * (W - L) / 2``, gnubg's "cost" of the
error. Money equities are per unit of the current cube (gnubg's normalised
figures); the error rate in mEMG adds these up unscaled.

**Checker plays.** The engine scores every legal play at 1ply; above 1ply
the plays go one ply deeper at a time through a move filter (see
:meth:`~tabla_cli.analysis.bgsage_batch.Rescorer.score`): to 2ply the best
5 plays within 0.08 of the best 1ply equity (bgsage's default filter), to
3ply the best 2 within 0.04 of the best 2ply equity; each stage with the play
made (as gnubg scores it at full depth) and, as long as one of the first two
of the ranking holds a figure from a lower level, that play too (bgsage's own
rule; at 3ply, with the play made known, only the first: an error needs no
more). A stage where the filter leaves only the play made is skipped: it is
the best and no other play comes within reach, so its error is 0 at any
depth. A play is worth minus the opponent's cubeful equity before his roll,
his cube decision included (he doubles when that is better for him and he
may), from bgsage's cubeful search at the level. A
play a filter left keeps the figure of the stage before (it counts for the
rank only). ``options`` counts the distinct legal results from tabla's own
generator; a play with one option (a forced play or a dance) is not sent to
the engine.

**Cube decisions.** The engine gives no double (ND), double/take (DT) and
double/pass (DP) from the doubler: at 1ply by Janowski's interpolation of the
net's chances, above it from a cubeful look-ahead as gnubg's (the cube's use
at each node of the search; see :func:`tabla_cli.analysis.bgsage_batch.cube_batch`).
A beaver (money, beavers allowed) is
worth ``2 * DT`` to the doubler: the taker owns a cube twice as high. The
doubler's double is worth ``min(DT, DP[, 2 * DT])``; the taker chooses the
largest of ``-DT``, ``-DP`` and ``-2 * DT``. A no-double counts in the
statistics (``close``) as gnubg's ``isCloseCubedecision`` counts it: when
``optimal - min(DT, 1) < 0.16``, with ``optimal = max(ND, min(DT, DP))``;
doubles, takes, passes and beavers always count. Above 1ply every cube
decision is scored at 1ply first, and a no-double whose 1ply figures put it
twice that bound or more from doubling (:data:`CUBE_FILTER_MARGIN`) keeps
them: it is not a decision that counts, and a deeper look would not make it
one.

**Auto.** Every decision is scored at 1ply first. A checker play that is
the best at 1ply keeps its 1ply figures (error 0); one that is not goes to
2ply through the move filter, and one whose error at 2ply is still above
:data:`~tabla_cli.analysis.bgsage_batch.AUTO_DEEPEST_ERROR` on to 3ply
(:func:`~tabla_cli.analysis.bgsage_batch.stages`). A cube decision whose
action made is not the best at 1ply goes straight to 3ply
(:data:`AUTO_CUBE_LEVEL`): 2ply's cube figures stray further from 3ply's than
1ply's do. Each decision's ``source`` names the level its figures come from.
Measured against eXtreme Gammon's own analysis of real matches this is closer
than any single depth, 3ply included, at a fraction of 3ply's time
(docs/analysis-accuracy.md).

**Bear-offs.** Where every checker of both sides is in its home board, the
engine reads exact cubeless chances from bgsage's one-sided bear-off database
instead of the net, at every level and at every leaf of the look-ahead (see
:mod:`tabla_cli.analysis.bgsage_batch`); :mod:`tabla_cli.analysis.cube` states
the verdict on one cube decision in gnubg's words.

**Luck** is gnubg's: the equity of the best play of the roll made minus the
average of the best plays of all 36 rolls, from the roller's view, always at
1ply whatever the level (gnubg's default luck analysis is its 0-ply, our
1ply). The roll made is the checker decision's own 1ply batch; the 20 others
are one more batch over all positions, whose figures the no double of a cube
decision at 2ply takes again (the same rolls of the same position and cube):
each roll of a position is scored once a run. On the opening position with a
non-double, the average runs over the 30 rolls either side could open with.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import bgbot_cpp  # type: ignore[import-not-found]
import bgsage  # type: ignore[import-untyped]

from tabla_cli.analysis.bgsage_batch import (
    AUTO,
    CubeValues,
    Move,
    Probabilities,
    Rescorer,
    State,
    best_equities,
    chances_after,
    checker_batch,
    clear_caches,
    collector_paused,
    cube_batch,
)
from tabla_cli.board import BAR, Dice, Play, Position, legal_plays
from tabla_cli.errors import TablaError
from tabla_cli.evaluation.types import ANALYSABLE_VARIANTS, CubeAction, DecisionInput, DecisionKind, Evaluation
from tabla_cli.notation import format_play

LEVELS: tuple[str, ...] = ("1ply", "2ply", "3ply", AUTO)
"""The evaluation levels :func:`analyse` accepts, fastest first."""

CLOSE_CUBE_THRESHOLD = 0.16
"""gnubg's ``isCloseCubedecision``: a no-double this close to doubling counts."""

CUBE_FILTER_MARGIN = 2 * CLOSE_CUBE_THRESHOLD
"""Above 1ply, a no-double this far from doubling at 1ply keeps its 1ply figures."""

AUTO_CUBE_LEVEL = "3ply"
"""At ``auto``, the level of a cube decision whose action made is not the best at 1ply."""

ONE_POSITION_LEVEL = "3ply"
"""At ``auto``, the level of one position judged on its own (``tabla cube``, ``tabla plays --level``):
the depth that agrees with gnubg's 2-ply verdicts most at an interactive cost (docs/analyze.md)."""


def one_position_level(level: str) -> str:
    """``level`` for one position judged on its own: ``auto`` is :data:`ONE_POSITION_LEVEL`.

    >>> one_position_level("auto"), one_position_level("1ply")
    ('3ply', '1ply')
    """
    return ONE_POSITION_LEVEL if check_level(level) == AUTO else level


_ROLLS: tuple[Dice, ...] = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
_NON_DOUBLES: tuple[Dice, ...] = tuple(r for r in _ROLLS if r[0] != r[1])


class UnknownLevelError(TablaError, ValueError):
    """An evaluation level the engine does not offer (see :data:`LEVELS`)."""


SCORING_REVISION = 8
"""How this module scores with the engine; raised whenever its numbers change
(2: plays above 1ply rescored as the cube decisions are, with the cube value;
3: exact bear-off figures from bgsage's one-sided database;
4: a move filter at each ply above 1ply that skips a play no other comes near, and cube
decisions far from doubling at 1ply kept at 1ply;
5: above 1ply, cube decisions and plays from bgsage's cubeful search, not interpolation;
6: at 3ply, no double looks at 2ply at the play the 1ply net picks for each roll only;
7: at 3ply, with the play made known, only the first play of the ranking is rescored when it
holds a 2ply figure, not the first two;
8: each checker evaluation keeps the spread of its plays' equities, for eXtreme Gammon's count of
decisions, so a cached evaluation without it is not reused)."""


def engine_version() -> str:
    """The engine, network and scoring revision that produce the numbers, for cache keys and reports.

    >>> engine_version().startswith("bgsage ")
    True
    """
    from importlib.metadata import version  # only the cache and reports ask: not loaded for a run without them

    return f"bgsage {version('bgsage')} {bgsage.PRODUCTION_MODEL} r{SCORING_REVISION}"


def check_level(level: str) -> str:
    """Return ``level`` if the engine offers it.

    Raises:
        UnknownLevelError: not one of :data:`LEVELS`.
    """
    if level not in LEVELS:
        raise UnknownLevelError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    return level


def not_analysable(variant: str) -> Evaluation:
    """The value for a decision the engine cannot evaluate (another game's rules).

    >>> not_analysable("plakoto").error is None
    True
    """
    return Evaluation(
        equity=None,
        best_equity=0.0,
        best="",
        error=None,
        source=f"not analysable ({variant})",
        options=0,
    )


def to_board(position: Position) -> list[int]:
    """``position`` as bgsage's 26-int board, seen from the side on roll.

    >>> to_board(Position.start())[:7]
    [0, -2, 0, 0, 0, 0, 5]
    """
    me, opp = position.mover, position.opponent
    board = [0] * 26
    for point in range(1, 25):
        board[point] = me[point] - opp[25 - point]
    board[25] = me[BAR]
    board[0] = opp[BAR]
    return board


# --- analysis -----------------------------------------------------------------


def analyse(
    decisions: Sequence[DecisionInput],
    level: str = "auto",
    threads: int = 1,
    *,
    luck: bool = True,
) -> list[Evaluation]:
    """Evaluate ``decisions`` with bgsage at ``level``, one result per input, in order.

    Args:
        decisions: checker plays and cube decisions, from any number of games.
        level: ``1ply``, ``2ply``, ``3ply`` or ``auto`` (see :data:`LEVELS`).
        threads: threads of the engine's C++ core (0 = every core).
        luck: also compute the luck of each roll (21 more 1ply checker
            evaluations a roll, batched).

    Returns:
        An :class:`Evaluation` per decision. Decisions of other variants get
        :func:`not_analysable`; a checker play whose result is not a legal play
        (or unknown) gets the best play but no ``equity`` or ``error``.

    Raises:
        UnknownLevelError: ``level`` is not offered.
    """
    check_level(level)
    job = _Job(level, threads, f"bgsage {level}")
    out: list[Evaluation | None] = [None] * len(decisions)
    for i, d in enumerate(decisions):
        if d.variant not in ANALYSABLE_VARIANTS:
            out[i] = not_analysable(d.variant)
        elif d.kind is DecisionKind.CHECKER:
            job.add_checker(i, d, luck)
        else:
            job.add_cube(i, d)
    with collector_paused():
        job.run(out)
    result: list[Evaluation] = []
    for evaluation in out:
        assert evaluation is not None
        result.append(evaluation)
    return result


@dataclass(frozen=True, slots=True)
class RankedPlay:
    """One legal play with its equity, as :func:`rank_plays` returns it.

    Attributes:
        play: the play (its moves).
        text: the play in GNU Backgammon notation.
        position: the position after the play, seen from the side that moved.
        equity: cubeful equity after the play, from the side that moved,
            normalised like :attr:`Evaluation.equity`.
        level: the level the equity comes from: the one asked for, or
            ``1ply`` for a play the move filter left at the raw net (as
            gnubg's hint shows such plays at 0-ply).
        chances: the cubeless chances of the side that moved after the play,
            at ``level`` (win, win gammon, win backgammon, lose gammon, lose
            backgammon: :data:`~tabla_cli.analysis.bgsage_batch.Probabilities`).
    """

    play: Play
    text: str
    position: Position
    equity: float
    level: str
    chances: Probabilities = ()


def rank_plays(decision: DecisionInput, level: str = AUTO, threads: int = 1) -> list[RankedPlay]:
    """Every legal play of one checker decision with its equity, best first.

    The plays are scored as :func:`analyse` scores a checker decision (all at
    1ply, the best few again at ``level``; a play the filter dropped is
    rescored at ``level`` when its 1ply figure would put it first). Ties keep
    the engine's order.

    Args:
        decision: a checker decision (``dice`` set; ``played`` is ignored).
        level: ``1ply``, ``2ply``, ``3ply`` or ``auto`` (:func:`one_position_level`).
        threads: threads of the engine's C++ core (0 = every core).

    Returns:
        One :class:`RankedPlay` per distinct legal result; a roll that cannot
        be played gives the one empty play.

    Raises:
        UnknownLevelError: ``level`` is not offered.
        TablaError: the decision has no dice or is of a variant the engine
            cannot evaluate.
    """
    level = one_position_level(level)
    if decision.variant not in ANALYSABLE_VARIANTS:
        raise TablaError(f"the engine evaluates backgammon and nackgammon, not {decision.variant}")
    if decision.dice is None:
        raise TablaError("a checker play needs dice")
    state = State.of(decision)
    plays = {
        tuple(to_board(after)): (after, play) for after, play in legal_plays(decision.position, decision.dice).items()
    }
    (moves,) = checker_batch([state.checker_input(to_board(decision.position), decision.dice)], threads, state.jacoby)
    rescorer = Rescorer(level, threads)
    (scored,) = rescorer.score([(moves, state, None)])
    shallow = [
        (board, state)
        for board in plays
        if board in scored and (board, state) not in rescorer.chances[scored[board][1]]
    ]
    chances = dict(zip(shallow, chances_after(shallow, threads)))
    clear_caches()
    ranked = [
        RankedPlay(
            play,
            format_play(decision.position, play),
            after,
            *scored[board],
            rescorer.chances[scored[board][1]].get((board, state)) or chances[board, state],
        )
        for board, (after, play) in plays.items()
        if board in scored
    ]
    ranked.sort(key=lambda r: -r.equity)
    return ranked


@dataclass(slots=True)
class _Checker:
    index: int
    decision: DecisionInput
    state: State
    board: tuple[int, ...]
    plays: dict[tuple[int, ...], tuple[Position, Play]]
    played: tuple[int, ...] | None


class _Job:
    """Collects one :func:`analyse` call's decisions into batches and reads the results."""

    def __init__(self, level: str, threads: int, source: str) -> None:
        self.level = level
        self.threads = threads
        self.source = source
        self.checkers: dict[bool, list[_Checker]] = defaultdict(list)
        self.forced: list[_Checker] = []
        self.cubes: dict[bool, list[tuple[int, DecisionInput, State]]] = defaultdict(list)
        self.luck: dict[bool, dict[tuple[Any, ...], dict[str, Any]]] = defaultdict(dict)
        self.luck_of: dict[int, tuple[bool, tuple[Any, ...], Dice, bool]] = {}
        self.direct: dict[int, Evaluation] = {}
        self.cube_levels: dict[int, str] = {}

    # -- collecting

    def add_checker(self, index: int, d: DecisionInput, with_luck: bool) -> None:
        state = State.of(d)
        if d.dice is None:
            self.direct[index] = Evaluation(
                equity=None, best_equity=0.0, best="", error=None, source=f"{self.source}: no dice", options=0
            )
            return
        plays = {tuple(to_board(result)): (result, play) for result, play in legal_plays(d.position, d.dice).items()}
        played = tuple(to_board(d.played)) if d.played is not None else None
        board = tuple(to_board(d.position))
        item = _Checker(index, d, state, board, plays, played)
        if len(plays) == 1:
            self.forced.append(item)
        else:
            self.checkers[state.jacoby].append(item)
        if with_luck:
            self._want_luck(index, d.position, board, state, d.dice)

    def _want_luck(self, index: int, position: Position, board: tuple[int, ...], state: State, dice: Dice) -> None:
        opening = position == Position.start() and dice[0] != dice[1]
        group = self.luck[state.jacoby]
        key = (board, state)
        group.setdefault(key, {"board": board, "state": state, "opening": opening})
        group[key]["opening"] |= opening
        self.luck_of[index] = (state.jacoby, key, dice, opening)

    def add_cube(self, index: int, d: DecisionInput) -> None:
        self.cubes[State.of(d).jacoby].append((index, d, State.of(d)))

    # -- running

    def run(self, out: list[Evaluation | None]) -> None:
        for index, evaluation in self.direct.items():
            out[index] = evaluation
        scored: list[tuple[_Checker, list[Move]]] = []
        for jacoby, items in self.checkers.items():
            inputs = [it.state.checker_input(it.board, _dice(it.decision)) for it in items]
            scored.extend(zip(items, checker_batch(inputs, self.threads, jacoby)))
        luck = self._luck()
        for item in self.forced:
            out[item.index] = self._forced(item, luck.get(item.index))
        ranked = Rescorer(self.level, self.threads).score([(moves, item.state, item.played) for item, moves in scored])
        for (item, _), plays in zip(scored, ranked):
            out[item.index] = self._checker(item, plays, luck.get(item.index))
        for jacoby, cubes in self.cubes.items():
            wanted = [(i, d, s) for i, d, s in cubes if s.can_double() or d.kind is DecisionKind.TAKE]
            by_index = self._cube_values(wanted, jacoby)
            for i, d, s in cubes:
                out[i] = self._cube(d, s, by_index.get(i), self.cube_levels.get(i, "1ply"))
        clear_caches()

    def _cube_values(self, wanted: list[tuple[int, DecisionInput, State]], jacoby: bool) -> dict[int, CubeValues]:
        """The cube figures of each decision: at 1ply, then at the level for those the 1ply figures call close.

        A no-double whose 1ply figures put doubling :data:`CUBE_FILTER_MARGIN`
        or more away from the best action (``optimal - min(DT, 1)``, the
        measure of gnubg's "close") keeps its 1ply figures: no deeper look
        makes it a decision that counts. Doubles, takes and passes always go
        to the level.
        """
        boards = {i: s.cube_input(to_board(d.position)) for i, d, s in wanted}
        values = dict(zip(boards, cube_batch(list(boards.values()), "1ply", self.threads, jacoby)))
        if self.level == "1ply":
            return values
        if self.level == AUTO:
            deep = [i for i, d, s in wanted if (self._cube(d, s, values[i]).error or 0.0) > 0.0]
            values.update(zip(deep, cube_batch([boards[i] for i in deep], AUTO_CUBE_LEVEL, self.threads, jacoby)))
            self.cube_levels.update(dict.fromkeys(deep, AUTO_CUBE_LEVEL))
            return values
        deep = [
            i
            for i, d, _ in wanted
            if d.kind is DecisionKind.TAKE
            or d.cube_action is CubeAction.DOUBLE
            or max(values[i].nd, min(values[i].dt, values[i].dp)) - min(values[i].dt, 1.0) < CUBE_FILTER_MARGIN
        ]
        values.update(zip(deep, cube_batch([boards[i] for i in deep], self.level, self.threads, jacoby)))
        return values

    def _luck(self) -> dict[int, float]:
        """Luck of each checker decision's roll (1ply, batched over all positions).

        The rolls made were scored with the checker plays: :func:`best_equities`
        does not ask the engine for them again (nor, at 2ply, for the rolls a
        no double asks later).
        """
        luck: dict[int, float] = {}
        for jacoby, group in self.luck.items():
            inputs: list[dict[str, Any]] = []
            slots: list[tuple[tuple[Any, ...], Dice, bool]] = []
            for key, entry in group.items():
                state: State = entry["state"]
                inputs += [state.checker_input(entry["board"], roll) for roll in _ROLLS]
                slots += [(key, roll, False) for roll in _ROLLS]
                if entry["opening"]:
                    flipped = bgbot_cpp.flip_board(list(entry["board"]))
                    inputs += [state.flipped().checker_input(flipped, roll) for roll in _NON_DOUBLES]
                    slots += [(key, roll, True) for roll in _NON_DOUBLES]
            best = dict(zip(slots, best_equities(inputs, self.threads, jacoby)))
            averages: dict[tuple[tuple[Any, ...], bool], float] = {}
            for index, (group_jacoby, key, dice, opening) in self.luck_of.items():
                if group_jacoby is not jacoby:
                    continue
                if (key, opening) not in averages:
                    averages[key, opening] = _average_roll(best, key, opening)
                luck[index] = best[key, _roll(dice), False] - averages[key, opening]
        return luck

    def _source(self, reached: str) -> str:
        """The source of a decision's figures: the level asked for, or at ``auto`` the level reached."""
        return f"bgsage {reached}" if self.level == AUTO else self.source

    def _forced(self, item: _Checker, luck: float | None) -> Evaluation:
        ((_, play),) = item.plays.values()
        legal = item.played is None or item.played in item.plays
        return Evaluation(
            equity=None,
            best_equity=0.0,
            best=format_play(item.decision.position, play),
            error=0.0 if legal and item.played is not None else None,
            source=self._source("1ply"),
            error_mwc=None if item.state.money or not legal else 0.0,
            rank=1 if legal and item.played is not None else None,
            options=1,
            forced=True,
            close=False,
            luck=luck,
        )

    def _checker(
        self, item: _Checker, scored: dict[tuple[int, ...], tuple[float, str]], luck: float | None
    ) -> Evaluation:
        equities = {board: equity for board, (equity, _) in scored.items()}
        best_board = max(equities, key=lambda b: equities[b])
        best_equity = equities[best_board]
        best_play = item.plays[best_board][1] if best_board in item.plays else ()
        made = equities.get(item.played) if item.played is not None else None
        reached = (
            scored[item.played][1]
            if item.played is not None and item.played in scored
            else max(level for _, level in scored.values())
        )
        error = error_mwc = None
        rank = None
        if made is not None:
            error = max(0.0, best_equity - made)
            rank = 1 + sum(1 for e in equities.values() if e > made)
            if not item.state.money:
                error_mwc = max(0.0, item.state.mwc(best_equity) - item.state.mwc(made))
        return Evaluation(
            equity=made,
            best_equity=best_equity,
            best=format_play(item.decision.position, best_play),
            error=error,
            source=self._source(reached),
            error_mwc=error_mwc,
            rank=rank,
            options=len(item.plays),
            forced=False,
            luck=luck,
            spread=best_equity - min(equities.values()),
        )

    def _cube(self, d: DecisionInput, state: State, values: CubeValues | None, reached: str = "1ply") -> Evaluation:
        if values is None:
            legal = d.cube_action in (None, CubeAction.NO_DOUBLE)
            return Evaluation(
                equity=None,
                best_equity=0.0,
                best=CubeAction.NO_DOUBLE.value,
                error=0.0 if legal else None,
                source=self._source(reached),
                options=1,
                forced=True,
                close=False,
            )
        nd, dt, dp = values.nd, values.dt, values.dp
        beaver = d.beavers and state.money
        if d.kind is DecisionKind.DOUBLE:
            response = min(dt, dp, 2 * dt) if beaver else min(dt, dp)
            options = {CubeAction.NO_DOUBLE: nd, CubeAction.DOUBLE: response}
            optimal = max(nd, min(dt, dp))
            close = d.cube_action is CubeAction.DOUBLE or (
                optimal - min(dt, 1.0) < CLOSE_CUBE_THRESHOLD and d.position != Position.start()
            )
        else:
            options = {CubeAction.TAKE: -dt, CubeAction.PASS: -dp}
            if beaver:
                options[CubeAction.BEAVER] = -2 * dt
            close = True
        best = max(options, key=lambda a: options[a])
        made = options.get(d.cube_action) if d.cube_action is not None else None
        error = error_mwc = None
        rank = None
        if made is not None:
            error = max(0.0, options[best] - made)
            rank = 1 + sum(1 for v in options.values() if v > made)
            if not state.money:
                error_mwc = abs(state.mwc(options[best]) - state.mwc(made))
        return Evaluation(
            equity=made,
            best_equity=options[best],
            best=best.value,
            error=error,
            source=self._source(reached),
            error_mwc=error_mwc,
            rank=rank,
            options=len(options),
            close=close,
            cube_equities=(nd, dt, dp),
        )


def _average_roll(best: dict[tuple[tuple[Any, ...], Dice, bool], float], key: tuple[Any, ...], opening: bool) -> float:
    """The average of the best plays' equities over the rolls of a position, from the roller's view.

    ``best`` holds the best 1ply equity of each roll of the position ``key``
    (``False``) and, for an opening roll, of each of the opponent's
    non-doubles (``True``): the average then runs over the 30 non-doubles
    either side could open with. Otherwise each non-double counts twice
    among the 36 rolls, as in bgsage's ``luck_from_equities``.
    """
    if opening:
        mine = sum(best[key, r, False] for r in _NON_DOUBLES)
        theirs = sum(best[key, r, True] for r in _NON_DOUBLES)
        return (mine - theirs) / 30.0
    return sum(best[key, r, False] * (1 if r[0] == r[1] else 2) for r in _ROLLS) / 36


def _roll(dice: Dice) -> Dice:
    """``dice`` low die first, as :data:`_ROLLS` lists them."""
    return (min(dice), max(dice))


def _dice(d: DecisionInput) -> Dice:
    assert d.dice is not None
    return d.dice
