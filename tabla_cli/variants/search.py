"""The one depth-first search every tabla variant's plays come from (rules.md §2.4).

Every variant runs its hooks on a small mutable *board* (one per family:
pinning or parallel). The board knows the single steps of one die in the
current state of the turn; the search knows the dice: the order they are
played in, the maximal-use rules and Gulbara's owed dice.

A turn is a :class:`TurnPlan`: one or two *orders* of dice (``(a, b)`` and
``(b, a)`` for a non-double; one fixed order for a double or a Gulbara
progression), of which the first ``split`` dice may be *owed* (dice the
opponent could not play, rules.md §7.2 (a)). Plays are scored
``(owed dice used, own dice used)`` and only the highest score is legal
(owed dice first: they are played before the player's own roll); the larger
die rule applies to the player's own non-double.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from tabla_cli.board import OFF, Dice, Play, Step
from tabla_cli.errors import InputError
from tabla_cli.findings import Code

PathStep = tuple[int, int, bool, int, bool]
"""One step of a search path: ``(src, dst, flag, die, own)``; ``flag`` = a pin was made."""


class Board(Protocol):
    """The mutable state of one turn that a variant's search walks."""

    def steps(self, die: int) -> list[tuple[int, int, bool]]:
        """Legal single steps ``(src, dst, pins)`` with ``die`` now."""

    def push(self, src: int, dst: int, flag: bool) -> None:
        """Make a step (one returned by :meth:`steps`)."""

    def pop(self) -> None:
        """Take back the last step."""

    def key(self) -> object:
        """The state including the turn's own counters (for pruning)."""

    def snapshot(self) -> object:
        """The checkers and pins: the result of a play."""

    def explain(self, src: int, die: int) -> tuple[str, str]:
        """``(code, message)``: why a checker on ``src`` cannot move ``die`` now."""

    def reaches(self, goal: tuple[int, ...]) -> bool:
        """Whether the mover's checkers can still end as ``goal`` (counts per point)."""


@dataclass(frozen=True, slots=True)
class TurnPlan:
    """The dice of one turn and how they may be played.

    Attributes:
        orders: the orders to try (each a sequence of dice values).
        split: how many dice at the start of each order are owed.
        pair: the player's own roll when it is a non-double (larger-die rule).
        own: the player's own dice in playing order (for what is passed on).
        progression: the own roll is a Gulbara progression.
    """

    orders: tuple[tuple[int, ...], ...]
    split: int = 0
    pair: tuple[int, int] | None = None
    own: tuple[int, ...] = ()
    progression: bool = False

    @property
    def size(self) -> int:
        return len(self.orders[0])


def plain_plan(dice: Dice) -> TurnPlan:
    """Two different dice in either order, or a double as four moves."""
    a, b = dice
    if a == b:
        return TurnPlan(((a, a, a, a),), own=(a, a, a, a))
    return TurnPlan(((a, b), (b, a)), pair=(a, b), own=(a, b))


SEARCH_LIMIT = 20_000
"""The most states (dice played, owed dice used, board) a bounded search visits.

Each state is visited once (the search memoises them), but a long Gulbara
progression (1-1 runs to 6-6: 24 moves) on a spread-out position has
millions; checking a transcript gives up on such a roll (an ``unchecked``
note, or no list of legal plays) rather than search for minutes. Far above
any ordinary turn: the largest in ``examples/`` and ``tests/data/variants``
visits about 700. Every search of a play is bounded by it (a bound per
roll, whatever the length of the transcript or of the written play).
"""


class SearchLimitError(InputError):
    """The legal plays of a roll take more than :data:`SEARCH_LIMIT` states to search."""


@dataclass(slots=True)
class SearchResult:
    """Distinct results (snapshot -> path) of the best score, and that score.

    ``complete`` is False when the search stopped at its ``limit``: then
    ``found`` and ``best`` are only what it saw so far. ``visited``: the
    states it visited.
    """

    found: dict[object, tuple[PathStep, ...]]
    best: tuple[int, int]
    complete: bool = True
    visited: int = 0


def search(
    board: Board,
    plan: TurnPlan,
    *,
    stop_at_full: bool = False,
    cap: int = 0,
    target: object = None,
    limit: int | None = None,
) -> SearchResult:
    """Every distinct result of the highest-scoring plays (rules.md §2.4).

    With ``stop_at_full`` the search stops at the first play that uses every
    die (used to learn the best score cheaply; when no play uses every die
    the search is complete anyway). With ``cap`` it stops once ``cap``
    results that use every die are found (for listing some plays of a turn
    with a million of them: Gulbara's 1-1 progression). With ``target`` (a
    snapshot) only plays reaching it count, and states that can no longer
    reach it are cut (checkers never move back). It stops after visiting
    ``limit`` states (:data:`SEARCH_LIMIT` unless given; at least one), and
    then says it is not ``complete``.
    """
    limit = max(1, SEARCH_LIMIT if limit is None else limit)
    goal: tuple[int, ...] | None = None
    if target is not None:
        goal = target[0] if isinstance(target, tuple) and isinstance(target[0], tuple) else target  # type: ignore[assignment]
        stop_at_full = True
    if cap:
        stop_at_full = False
    found: dict[object, tuple[PathStep, ...]] = {}
    best = [(-1, -1)]
    path: list[PathStep] = []
    split = plan.split
    full = (split, plan.size - split)
    done = [False]
    visited = [0]
    complete = True

    for order in plan.orders:
        size = len(order)
        seen: set[object] = set()

        def dfs(i: int, owed: int) -> None:
            if i < size:
                die = order[i]
                moves = board.steps(die)
                if moves:
                    own = i >= split
                    nxt = owed if own else owed + 1
                    for src, dst, flag in moves:
                        board.push(src, dst, flag)
                        key = (i, owed, board.key())
                        if key not in seen and (goal is None or board.reaches(goal)):
                            seen.add(key)
                            visited[0] += 1
                            if visited[0] == limit:
                                done[0] = True
                            path.append((src, dst, flag, die, own))
                            dfs(i + 1, nxt)
                            path.pop()
                        board.pop()
                        if done[0]:
                            return
                    return
                if i < split:
                    dfs(split, owed)  # the rest of the owed dice are lost
                    return
            score = (owed, i - split if i > split else 0)
            if score < best[0]:
                return
            if target is not None and board.snapshot() != target:
                return
            if score > best[0]:
                best[0] = score
                found.clear()
            snap = board.snapshot()
            if snap not in found:
                found[snap] = tuple(path)
            if score == full and (stop_at_full or (cap and len(found) >= cap)):
                done[0] = True

        dfs(0, 0)
        if done[0]:
            complete = visited[0] < limit
            break
    if plan.pair is not None and best[0][1] == 1:
        high = max(plan.pair)
        kept = {k: p for k, p in found.items() if _own_die(p) == high}
        if kept:
            found = kept
    return SearchResult(found, best[0], complete, visited[0])


def _own_die(path: tuple[PathStep, ...]) -> int:
    for step in path:
        if step[4]:
            return step[3]
    return 0


_STEPS = {(s, d, h): Step(s, d, h) for s in range(26) for d in range(26) for h in (False, True)}


def to_play(path: tuple[PathStep, ...]) -> Play:
    """The :class:`Step` tuple of a search path."""
    return tuple(_STEPS[s[0], s[1], s[2]] for s in path)


def snapshot_after(board: Board, path: tuple[PathStep, ...]) -> object:
    """The board's snapshot after playing ``path`` (the board is left as it was)."""
    for step in path:
        board.push(step[0], step[1], step[2])
    snapshot = board.snapshot()
    for _ in path:
        board.pop()
    return snapshot


# --- what the boards share ----------------------------------------------------------------


def step_name(src: int, dst: int) -> str:
    """A single move as written: ``24/18``, ``3/off``."""
    return f"{src}/{'off' if dst == OFF else dst}"


def reaches(me: Sequence[int], goal: tuple[int, ...]) -> bool:
    """Whether checkers ``me`` (counts per point) can still end as ``goal``: they never move back."""
    have = need = 0
    for point in range(24, 0, -1):
        have += me[point]
        need += goal[point]
        if have < need:
            return False
    return True


def no_checker(name: str, src: int) -> tuple[str, str]:
    """The finding for a move from a point where the mover has no checker."""
    return (Code.ILLEGAL_PLAY, f"'{name}' moves from the {src}-point, where the mover has no checker")


def bear_off_blocked(name: str, me: Sequence[int], die: int) -> tuple[str, str]:
    """The finding for a bear-off the checkers outside home or on higher points forbid."""
    if any(me[7:25]):
        return (Code.ILLEGAL_PLAY, f"'{name}' bears off while a checker is outside the home board")
    return (Code.ILLEGAL_PLAY, f"'{name}' bears off with a {die} while a checker stands on a higher point")


def lands_on_held(name: str, dst: int) -> tuple[str, str]:
    """The finding for a move onto a point the opponent holds."""
    return (Code.ILLEGAL_PLAY, f"'{name}' lands on the {dst}-point, which the opponent holds")
