"""What the tabla variants share: positions without gnubg IDs, the search, written plays.

Every variant here is a :class:`~tabla_cli.variant.Backgammon` subclass whose
hooks run on a small mutable *board* (one per family: pinning or parallel)
through one depth-first search. The board knows the single steps of one die
in the current state of the turn; the search knows the dice: the order they
are played in, the maximal-use rules of rules.md §2.4 and Gulbara's owed dice.

A turn is a :class:`TurnPlan`: one or two *orders* of dice (``(a, b)`` and
``(b, a)`` for a non-double; one fixed order for a double or a Gulbara
progression), of which the first ``split`` dice may be *owed* (dice the
opponent could not play, rules.md §7.2 (a)). Plays are scored
``(owed dice used, own dice used)`` and only the highest score is legal
(owed dice first: they are played before the player's own roll); the larger
die rule applies to the player's own non-double.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields, replace
from typing import Any, ClassVar, Protocol, TypeVar

from tabla_cli.board import OFF, BAR, Dice, Play, Position, Resolution, Segment, Step
from tabla_cli.errors import InvalidIdError
from tabla_cli.variant import Backgammon

PathStep = tuple[int, int, bool, int, bool]
"""One step of a search path: ``(src, dst, flag, die, own)``; ``flag`` = a pin was made."""

NO_IDS = (
    "GNU Backgammon Position IDs and XGIDs exist only for standard backgammon, nackgammon and "
    "hypergammon"
)


@dataclass(frozen=True, slots=True, repr=False)
class VariantPosition(Position):
    """A position of a variant that gnubg cannot encode (no bar, other geometry).

    Same surface as :class:`~tabla_cli.board.Position` (``mover``,
    ``opponent``, ``flip()``, ``pips()``); :meth:`position_id` raises.
    Subclasses add the state their rules need.
    """

    def flip(self) -> VariantPosition:
        return type(self)(self.opponent, self.mover)

    def position_id(self) -> str:
        raise InvalidIdError(f"{NO_IDS}; this is a {type(self).__name__}")

    def text(self) -> str:
        """The position in our text format (see :mod:`tabla_cli.variants.position_text`)."""
        from tabla_cli.variants.position_text import format_position

        return format_position(self)

    @classmethod
    def from_text(cls, text: str) -> VariantPosition:
        """Read a position written by :meth:`text`."""
        from tabla_cli.variants.position_text import parse_position

        return parse_position(cls, text)

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_text({self.text()!r})"

    @classmethod
    def opposite(cls, point: int) -> int:
        """The opponent's number for the mover's ``point`` (1..24)."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class VariantResolution(Resolution):
    """A :class:`~tabla_cli.board.Resolution` with the finding code of its error."""

    code: str = "illegal-play"


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


@dataclass(slots=True)
class SearchResult:
    """Distinct results (snapshot -> path) of the best score, and that score."""

    found: dict[object, tuple[PathStep, ...]]
    best: tuple[int, int]


def search(board: Board, plan: TurnPlan, *, stop_at_full: bool = False, cap: int = 0,
           target: object = None) -> SearchResult:
    """Every distinct result of the highest-scoring plays (rules.md §2.4).

    With ``stop_at_full`` the search stops at the first play that uses every
    die (used to learn the best score cheaply; when no play uses every die
    the search is complete anyway). With ``cap`` it stops once ``cap``
    results that use every die are found (for listing some plays of a turn
    with a million of them: Gulbara's 1-1 progression). With ``target`` (a
    snapshot) only plays reaching it count, and states that can no longer
    reach it are cut (checkers never move back).
    """
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
            break
    if plan.pair is not None and best[0][1] == 1:
        high = max(plan.pair)
        kept = {k: p for k, p in found.items() if _own_die(p) == high}
        if kept:
            found = kept
    return SearchResult(found, best[0])


def _own_die(path: tuple[PathStep, ...]) -> int:
    for step in path:
        if step[4]:
            return step[3]
    return 0


_STEPS = {(s, d, h): Step(s, d, h) for s in range(26) for d in range(26) for h in (False, True)}


def to_play(path: tuple[PathStep, ...]) -> Play:
    """The :class:`Step` tuple of a search path."""
    return tuple(_STEPS[s[0], s[1], s[2]] for s in path)


# --- options ------------------------------------------------------------------

O = TypeVar("O")


def with_changes(options: O, changes: dict[str, Any]) -> O:
    """``options`` with ``changes`` applied; unknown names raise ValueError."""
    known = {f.name for f in fields(options)}  # type: ignore[arg-type]
    unknown = sorted(set(changes) - known)
    if unknown:
        raise ValueError(f"unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    return replace(options, **changes)  # type: ignore[type-var]


# --- the variant base class ---------------------------------------------------------

V = TypeVar("V", bound="TablaVariant")


class TablaVariant(Backgammon):
    """Base of the variants that are not standard backgammon (no gnubg IDs, no bar).

    Subclasses set :attr:`position_class`, :attr:`options` and implement
    :meth:`board`, :meth:`plan`, :meth:`explain_play` hooks as needed.
    """

    has_gnubg_ids: ClassVar[bool] = False
    backgammons: ClassVar[bool] = False
    position_class: ClassVar[type[VariantPosition]] = VariantPosition
    options: ClassVar[Any] = None
    start_points: ClassVar[dict[int, int]] = {24: 15}
    tradition: ClassVar[str] = "greek"
    """``greek``, ``bulgarian`` or ``russian``: whose practice the defaults follow."""

    # --- construction -------------------------------------------------------------

    @classmethod
    def with_options(cls: type[V], **changes: Any) -> type[V]:
        """A variant like this one with some options changed.

        >>> from tabla_cli.variants import Plakoto
        >>> Plakoto.with_options(mother_checker=False).options.mother_checker
        False
        """
        options = with_changes(cls.options, changes)
        return type(cls.__name__, (cls,), {"options": options, "__doc__": cls.__doc__})

    @classmethod
    def start_position(cls) -> Position:
        side = [0] * 26
        for point, n in cls.start_points.items():
            side[point] = n
        side[OFF] = cls.checkers - sum(side)
        return cls.position_class(tuple(side), tuple(side))

    @classmethod
    def position_from(cls, position: Position) -> Position:
        """``position`` as this variant's position class (a standard one gets no pins)."""
        if isinstance(position, cls.position_class):
            return position
        if position.mover[BAR] or position.opponent[BAR]:
            raise InvalidIdError(f"{cls.name} has no bar, but the position has checkers on it")
        return cls.position_class(position.mover, position.opponent)

    # --- hooks for subclasses ---------------------------------------------------------

    @classmethod
    def board(cls, position: Position, plan: TurnPlan) -> Board:
        raise NotImplementedError

    @classmethod
    def plan(cls, position: Position, dice: Dice) -> TurnPlan:
        return plain_plan(dice)

    @classmethod
    def make_result(cls, position: Position, snapshot: object, plan: TurnPlan, best: tuple[int, int]) -> Position:
        raise NotImplementedError

    @classmethod
    def filter_results(cls, position: Position, results: dict[Position, Play]) -> dict[Position, Play]:
        """Rules that judge whole plays (Fevga's trapping prime); default none."""
        return results

    @classmethod
    def filter_reason(cls, position: Position) -> tuple[str, str]:
        return ("illegal-play", "is not one of the legal plays")

    @classmethod
    def finish_play(cls, position: Position, result: Position, path: tuple[PathStep, ...]) -> Play:
        """The :class:`Step` tuple of a search path that leads from ``position`` to ``result``."""
        return to_play(path)

    @classmethod
    def snapshot_of(cls, position: Position) -> object:
        """What a search's ``snapshot()`` would be for this result position."""
        return position.mover

    @classmethod
    def judges_plays(cls, position: Position) -> bool:
        """True when :meth:`filter_results` may reject plays in ``position``."""
        return False

    # --- generation -----------------------------------------------------------------

    @classmethod
    def _search(cls, position: Position, dice: Dice, *, stop_at_full: bool = False) -> tuple[TurnPlan, SearchResult]:
        plan = cls.plan(position, dice)
        result = search(cls.board(position, plan), plan, stop_at_full=stop_at_full)
        return plan, result

    @classmethod
    def legal_plays(cls, position: Position, dice: Dice) -> dict[Position, Play]:
        """Every legal play, keyed by the resulting position (seen from the side that moved)."""
        position = cls.position_from(position)
        plan, result = cls._search(position, dice)
        out: dict[Position, Play] = {}
        for snap, path in result.found.items():
            after = cls.make_result(position, snap, plan, result.best)
            out[after] = cls.finish_play(position, after, path)
        return cls.filter_results(position, out)

    @classmethod
    def some_plays(cls, position: Position, dice: Dice, limit: int) -> tuple[list[Play], int]:
        """Up to ``limit`` legal plays, and how many there are (-1: not counted, more than shown)."""
        position = cls.position_from(position)
        if cls.judges_plays(position):
            legal = cls.legal_plays(position, dice)
            return list(legal.values())[:limit], len(legal)
        plan = cls.plan(position, dice)
        result = search(cls.board(position, plan), plan, cap=limit + 1)
        plays = [cls.finish_play(position, cls.make_result(position, snap, plan, result.best), path)
                 for snap, path in result.found.items()]
        if len(plays) > limit:
            return plays[:limit], -1
        return plays, len(plays)

    @classmethod
    def random_play(cls, position: Position, dice: Dice, rng: Any) -> tuple[Position, Play]:
        """One legal play picked at random (not uniformly) without listing them all.

        ``rng`` is a :class:`random.Random`. For self-play: a Gulbara 1-1
        progression can have over a million distinct plays.
        """
        position = cls.position_from(position)
        plan = cls.plan(position, dice)
        if cls.judges_plays(position):
            legal = cls.legal_plays(position, dice)
            after = rng.choice(list(legal))
            return after, legal[after]
        board = cls.board(position, plan)
        full = (plan.split, plan.size - plan.split)
        searched = search(board, plan, stop_at_full=True)
        if searched.best != full:  # the search was complete
            snap = rng.choice(list(searched.found))
            after = cls.make_result(position, snap, plan, searched.best)
            return after, cls.finish_play(position, after, searched.found[snap])
        orders = list(plan.orders)
        rng.shuffle(orders)
        for order in orders:
            walk = _RandomWalk(board, order, plan.split, rng)
            path = walk.run(0)
            if path is not None:
                for step in path:
                    board.push(step[0], step[1], step[2])
                snap = board.snapshot()
                for _ in path:
                    board.pop()
                after = cls.make_result(position, snap, plan, full)
                return after, cls.finish_play(position, after, path)
        raise AssertionError("a full play was found but cannot be found again")  # pragma: no cover

    @classmethod
    def max_dice_playable(cls, position: Position, dice: Dice) -> int:
        """How many dice (owed and own) the best play uses."""
        position = cls.position_from(position)
        _, result = cls._search(position, dice, stop_at_full=True)
        return sum(result.best)

    @classmethod
    def is_legal(cls, position: Position, dice: Dice, play: Play) -> bool:
        """True if ``play`` is a complete legal play of ``dice``."""
        segments = tuple((s.src, s.dst, s.hit) for s in play)
        return cls.resolve_play(position, dice, segments).error is None

    # --- written plays --------------------------------------------------------------------

    @classmethod
    def resolve_play(cls, position: Position, dice: Dice, segments: tuple[Segment, ...]) -> Resolution:
        """Match a written play against the rules (see :func:`resolve`)."""
        return resolve(cls, cls.position_from(position), dice, segments)

    @classmethod
    def apply_written(cls, position: Position, segments: tuple[Segment, ...]) -> Position | None:
        raise NotImplementedError

    @classmethod
    def format_play(cls, position: Position, play: Play) -> str:
        return format_steps(play)

    @classmethod
    def allows_opening_double(cls, game_number: int) -> bool:
        """``opening_reroll`` (Greek, Russian): the opening winner rolls both dice again; later
        games are opened by the previous winner rolling both dice."""
        return bool(getattr(cls.options, "opening_reroll", True)) or game_number > 1

    # --- end of game ---------------------------------------------------------------------

    @classmethod
    def outcome(cls, position: Position) -> int:
        """1 or 2 (the loser has borne off none) for the side that bore off all."""
        return 1 if position.opponent[OFF] else 2


# --- written plays ----------------------------------------------------------------------


@dataclass(slots=True)
class _RandomWalk:
    """A random depth-first search for one play that uses every die of ``order``."""

    board: Board
    order: tuple[int, ...]
    split: int
    rng: Any
    path: list[PathStep] = field(default_factory=list)
    seen: set[object] = field(default_factory=set)

    def run(self, i: int) -> tuple[PathStep, ...] | None:
        if i == len(self.order):
            return tuple(self.path)
        die = self.order[i]
        moves = self.board.steps(die)
        self.rng.shuffle(moves)
        for src, dst, flag in moves:
            self.board.push(src, dst, flag)
            key = (i, self.board.key())
            if key not in self.seen:
                self.seen.add(key)
                self.path.append((src, dst, flag, die, i >= self.split))
                got = self.run(i + 1)
                if got is not None:
                    self.board.pop()
                    return got
                self.path.pop()
            self.board.pop()
        return None


@dataclass(slots=True)
class _Walk:
    """The search for one way to play a written play with the dice, in order."""

    board: Board
    order: tuple[int, ...]
    split: int
    path: list[PathStep] = field(default_factory=list)
    seen: set[object] = field(default_factory=set)
    failure: tuple[int, str, str] | None = None
    lows: list[int] = field(default_factory=list)
    sums: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        # After die i: the smallest die and the pips left (to cut dead ends early).
        order = self.order
        self.lows = [min(order[i + 1:], default=99) for i in range(len(order))]
        self.sums = [sum(order[i + 1:]) for i in range(len(order))]

    def dead(self, i: int, rest: tuple[tuple[int, int], ...]) -> bool:
        """No way to finish ``rest`` with the dice after die ``i`` (a move's distance is exact unless it bears off)."""
        low = self.lows[i]
        total = 0
        for src, dst in rest:
            if dst != OFF:
                left = src - dst
                if left < low:
                    return True
                total += left
        return total > self.sums[i]

    def run(self, i: int, owed: int, todo: tuple[tuple[int, int], ...]) -> tuple[PathStep, ...] | None:
        if not todo:
            return tuple(self.path)
        if i >= len(self.order):
            return None
        die = self.order[i]
        own = i >= self.split
        flags = {(s, d): f for s, d, f in self.board.steps(die)}
        tried: set[tuple[int, int]] = set()
        for n, (src, dst) in enumerate(todo):
            if (src, dst) in tried:
                continue
            tried.add((src, dst))
            to = src - die
            if dst != OFF and to < dst:
                continue
            if to <= OFF:
                to = OFF
                if dst != OFF:
                    continue
            if (src, to) not in flags:
                depth = len(self.path)
                if self.failure is None or depth > self.failure[0]:
                    code, message = self.board.explain(src, die)
                    self.failure = (depth, code, message)
                continue
            rest = todo[:n] + todo[n + 1:]
            if to != dst:
                rest = rest + ((to, dst),)
            rest = tuple(sorted(rest, reverse=True))
            if rest and self.dead(i, rest):
                continue
            flag = flags[src, to]
            self.board.push(src, to, flag)
            key = (i, owed, self.board.key(), rest)
            if key not in self.seen:
                self.seen.add(key)
                self.path.append((src, to, flag, die, own))
                got = self.run(i + 1, owed if own else owed + 1, rest)
                if got is not None:
                    self.board.pop()
                    return got
                self.path.pop()
            self.board.pop()
        if i < self.split:
            return self.run(self.split, owed, todo)  # owed dice may go unplayed
        return None


def _step_name(src: int, dst: int) -> str:
    return f"{src}/{'off' if dst == OFF else dst}"


def resolve(cls: type[TablaVariant], position: Position, dice: Dice, segments: tuple[Segment, ...]) -> Resolution:
    """Match a written play against a variant's rules.

    The written moves are walked with the dice in playing order (each move
    may take several dice; moves may be played in any order); a walk that
    uses every die is legal at once, otherwise the result must be one of
    the legal plays (the maximal-use rules). Errors carry a finding code.
    """
    a, b = dice
    if not (1 <= a <= 6 and 1 <= b <= 6):
        return VariantResolution(None, None, f"dice {a}-{b} are not two values from 1 to 6")
    for src, dst, _ in segments:
        name = _step_name(src, dst)
        if src == BAR:
            return VariantResolution(None, None, f"'{name}': {cls.name} has no bar")
        if src <= dst or dst < OFF:
            return VariantResolution(None, None, f"'{name}' does not move towards home")
    plan = cls.plan(position, dice)
    if not segments:
        searched = search(cls.board(position, plan), plan, stop_at_full=True)
        if sum(searched.best) == 0:
            snap = next(iter(searched.found))
            return VariantResolution((), cls.make_result(position, snap, plan, searched.best), None)
        return VariantResolution(None, None, "no move written, but the roll can be played")
    todo = tuple(sorted(((s, d) for s, d, _ in segments), reverse=True))
    walked: tuple[PathStep, ...] | None = None
    failure: tuple[int, str, str] | None = None
    full = (plan.split, plan.size - plan.split)
    board = cls.board(position, plan)
    for order in plan.orders:
        walk = _Walk(board, order, plan.split)
        walked = walk.run(0, 0, todo)
        if walked is not None:
            break
        if walk.failure is not None and (failure is None or walk.failure[0] > failure[0]):
            failure = walk.failure
    if walked is not None:
        owed_used = sum(1 for s in walked if not s[4])
        if (owed_used, len(walked) - owed_used) == full and not cls.judges_plays(position):
            for step in walked:
                board.push(step[0], step[1], step[2])
            snapshot = board.snapshot()
            for _ in walked:
                board.pop()
            done = cls.make_result(position, snapshot, plan, full)
            return VariantResolution(cls.finish_play(position, done, walked), done, None)
    # The written moves as a result; legal if some legal play reaches it.
    written = cls.apply_written(position, segments)
    found: tuple[PathStep, ...] | None = None
    reach = (-1, -1)
    target: object = None
    if written is not None:
        target = cls.snapshot_of(written)
        reached = search(cls.board(position, plan), plan, target=target)
        if reached.found:
            found, reach = reached.found[target], reached.best
    if found is None and walked is not None:
        # The written moves can be played but stop short: no legal play ends there.
        found = walked
        reach = (sum(1 for s in walked if not s[4]), sum(1 for s in walked if s[4]))
        board = cls.board(position, plan)
        for step in walked:
            board.push(step[0], step[1], step[2])
        target = board.snapshot()
    if found is None:
        if failure is not None:
            return VariantResolution(None, None, failure[2], code=failure[1])
        text = " ".join(_step_name(s, d) for s, d, _ in segments)
        return VariantResolution(None, None, f"'{text}' cannot be made of the dice {a}-{b}"
                                 + (f" as {cls.name} plays them" if plan.size > 4 or plan.split else ""))
    every = search(cls.board(position, plan), plan, stop_at_full=True)
    best = every.best
    result = cls.make_result(position, target, plan, best)
    play = cls.finish_play(position, result, found)
    if reach < best:
        used, need = sum(reach), sum(best)
        if plan.progression or plan.split:
            return VariantResolution(play, result, f"plays {used} of the {need} moves that can be played "
                                     f"({_describe_plan(plan)})", code="doubles-progression")
        if need == 2 and a != b:
            return VariantResolution(play, result, "plays one die but both can be played")
        return VariantResolution(play, result, f"plays {used} of the {need} dice that can be played")
    if best != full and target not in every.found:
        if plan.pair is not None and best[1] == 1:
            return VariantResolution(play, result, f"plays the smaller die but the {max(plan.pair)} can be played")
        return VariantResolution(play, result, "is not one of the legal plays")
    if cls.judges_plays(position) and result not in cls.legal_plays(position, dice):
        code, message = cls.filter_reason(position)
        return VariantResolution(play, result, message, code=code)
    return VariantResolution(play, result, None)


def _describe_plan(plan: TurnPlan) -> str:
    parts = []
    if plan.split:
        parts.append("owed " + ",".join(map(str, plan.orders[0][: plan.split])))
    own = plan.own
    if plan.progression:
        parts.append(f"the double {own[0]}-{own[0]} runs {own[0]} to 6, four moves each")
    else:
        parts.append("own roll " + "-".join(map(str, sorted(set(own), reverse=True))))
    return "; ".join(parts)


# --- written form ------------------------------------------------------------------------


def format_steps(play: Play) -> str:
    """Write a play as GNU Backgammon's compact form, ``*`` marking a pin.

    >>> format_steps((Step(24, 18), Step(18, 13), Step(24, 20, True)))
    '24/20* 24/13'
    """
    if not play:
        return ""
    ordered = sorted(play, key=lambda s: (-s.src, -s.dst))
    chains: list[list[Step]] = []
    for step in ordered:
        for chain in chains:
            if chain[-1].dst == step.src and step.src != OFF:
                chain.append(step)
                break
        else:
            chains.append([step])
    words: list[str] = []
    counts: dict[str, int] = {}
    for chain in chains:
        points = [str(chain[0].src)]
        for n, step in enumerate(chain):
            last = n == len(chain) - 1
            name = "off" if step.dst == OFF else str(step.dst)
            if step.hit:
                points.append(name + "*")
            elif last:
                points.append(name)
        word = "/".join(points)
        if word in counts:
            counts[word] += 1
        else:
            counts[word] = 1
            words.append(word)
    out: list[str] = []
    for word in words:
        n = counts[word]
        while n > 0:
            take = min(n, 4)
            out.append(word + (f"({take})" if take > 1 else ""))
            n -= take
    return " ".join(out)


_NO_MOVE = re.compile(r"^(?:cannot\s+move|can't\s+move|no\s+move)$", re.IGNORECASE)


def parse_long_play(text: str) -> tuple[Segment, ...]:
    """Read a play of any length (a Gulbara progression has up to 24 moves).

    Each blank-separated word is read by :func:`tabla_cli.notation.parse_play`.

    Raises:
        InvalidPlayError: a word is not a move.
    """
    from tabla_cli.notation import parse_play

    body = text.strip()
    if not body or _NO_MOVE.match(body):
        return ()
    body = re.sub(r"(?<!\s)\s+\(", "(", body)
    segments: list[Segment] = []
    for part in re.split(r"[\s,]+", body):
        if part:
            segments.extend(parse_play(part))
    return tuple(segments)


def iter_bits(mask: int) -> Iterator[int]:
    """The set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


Explain = Callable[[int, int], tuple[str, str]]
