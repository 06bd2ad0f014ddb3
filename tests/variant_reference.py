"""A plain reference move generator for the variants: slow, obvious, separate code.

It shares nothing with the fast search but the variant's options: the board
is 24 physical points, each a stack of checkers (``"A"`` = the side on roll,
``"B"`` = the other, bottom first); each side has a track of physical points
for its own points 24 -> 1; a checker moves by walking its track. Every rule
is a direct test of the physical board, written as rules.md states it. All
sequences of single steps are tried, one die after the other, merging equal
states after each step; then the maximal-use rules pick the plays.

Used by the tests (fast generator == reference on random reachable
positions) and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass

from tabla_cli.board import OFF, Dice, Position
from tabla_cli.variants.common import TablaVariant
from tabla_cli.variants.parallel import GulbaraPosition, ParallelGame, ParallelOptions, ParallelPosition
from tabla_cli.variants.plakoto import Plakoto, PlakotoPosition

Stacks = tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class State:
    """A physical board during a turn (hashable, so equal states merge)."""

    stacks: Stacks
    off_a: int
    off_b: int
    left_start: int  # checkers of A that left A's starting point this turn


class Reference:
    """The reference rules of one variant."""

    def __init__(self, variant: type[TablaVariant]) -> None:
        self.variant = variant
        self.pinning = issubclass(variant, Plakoto)
        self.options = variant.options
        self.tracks = {side: [-1] + [self.track(side, point) for point in range(1, 25)] for side in "AB"}
        self.points = {side: {index: point for point, index in enumerate(self.tracks[side]) if point} for side in "AB"}

    # --- geometry -------------------------------------------------------------

    def track(self, side: str, point: int) -> int:
        """Physical index (0..23) of ``side``'s own ``point`` (1..24)."""
        if side == "A":
            return point - 1
        if self.pinning:
            return 24 - point  # opposite directions: B's point p is A's 25 - p
        return (point - 1 + 12) % 24  # same direction, starting diagonally opposite

    def where(self, side: str, point: int) -> int:
        return self.tracks[side][point]

    def point_of(self, side: str, index: int) -> int:
        return self.points[side][index]

    def points_of(self, state: State, side: str) -> list[int]:
        """The own point of every checker of ``side`` on the board."""
        out = []
        for index, stack in enumerate(state.stacks):
            for who in stack:
                if who == side:
                    out.append(self.point_of(side, index))
        return out

    def stack(self, state: State, side: str, point: int) -> tuple[str, ...]:
        return state.stacks[self.where(side, point)]

    # --- conversion -------------------------------------------------------------

    def state_of(self, position: Position) -> State:
        stacks: list[list[str]] = [[] for _ in range(24)]
        pinned_a = getattr(position, "mover_pins", 0)
        pinned_b = getattr(position, "opponent_pins", 0)
        for point in range(1, 25):
            for _ in range(position.mover[point]):
                stacks[self.where("A", point)].append("A")
        for point in range(1, 25):
            index = self.where("B", point)
            count = position.opponent[point]
            if (pinned_b >> point) & 1:
                stacks[index] = ["B"] * count + stacks[index]
            else:
                stacks[index] = stacks[index] + ["B"] * count
        for point in range(1, 25):
            if (pinned_a >> point) & 1:
                index = self.where("A", point)
                stacks[index] = ["A"] + [w for w in stacks[index] if w != "A"]
        return State(tuple(tuple(s) for s in stacks), position.mover[OFF], position.opponent[OFF], 0)

    def side_of(self, state: State, side: str) -> tuple[tuple[int, ...], int]:
        counts = [0] * 26
        pins = 0
        for point in range(1, 25):
            stack = self.stack(state, side, point)
            counts[point] = stack.count(side)
            if stack and stack[0] == side and any(w != side for w in stack):
                pins |= 1 << point
        counts[OFF] = state.off_a if side == "A" else state.off_b
        return tuple(counts), pins

    # --- the rules ------------------------------------------------------------------

    def pinned_somewhere(self, state: State, side: str) -> bool:
        return any(s and s[0] == side and any(w != side for w in s) for s in state.stacks)

    def all_home(self, state: State) -> bool:
        return all(p <= 6 for p in self.points_of(state, "A"))

    def block_problem(self, state: State) -> bool:
        """A forbidden block or prime after a step."""
        options = self.options
        if not isinstance(options, ParallelOptions):
            return False
        held = {p for p in range(1, 25) if "A" in self.stack(state, "A", p)}
        if options.start_quarter_block in ("own", "both") and all(p in held for p in range(19, 25)):
            return True
        if options.start_quarter_block == "both" and all(p in held for p in range(7, 13)):
            return True
        if options.prime_rule == "no_prime_in_front_of_all":
            theirs = self.points_of(state, "B")
            for x in range(1, 20):  # B's points x .. x+5, all held by A
                if all("A" in self.stack(state, "B", y) for y in range(x, x + 6)):
                    if not any(p < x for p in theirs):
                        return True
        return False

    def trapping(self, state: State) -> bool:
        theirs = self.points_of(state, "B")
        if not theirs:
            return False
        for x in range(1, 20):
            if all("A" in self.stack(state, "B", y) for y in range(x, x + 6)):
                if all(p > x + 5 for p in theirs):
                    return True
        return False

    def may_leave_start(self, state: State, limit: int) -> bool:
        options = self.options
        if not isinstance(options, ParallelOptions):
            return True
        if options.start_exit == "first_checker_must_pass":
            mine = self.points_of(state, "A")
            if not (all(p == 24 for p in mine) or any(p <= 12 for p in mine)):
                return False
        if options.start_exit == "one_per_turn" and state.left_start >= limit:
            return False
        return True

    def moves(self, state: State, die: int, limit: int) -> list[State]:
        """Every state one step of ``die`` can lead to."""
        out = []
        for point in range(1, 25):
            stack = self.stack(state, "A", point)
            if not stack or stack[-1] != "A":
                continue  # no checker of ours on top (none, or ours is pinned)
            if point == 24 and not self.may_leave_start(state, limit):
                continue
            target = point - die
            stacks = [list(s) for s in state.stacks]
            stacks[self.where("A", point)].pop()
            off_a = state.off_a
            if target >= 1:
                there = self.stack(state, "A", target)
                if self.pinning:
                    ok = not there or there[-1] == "A" or there == ("B",)
                else:
                    ok = all(w == "A" for w in there)
                if not ok:
                    continue
                stacks[self.where("A", target)].append("A")
            else:
                if not self.all_home(state) or (self.pinning and self.pinned_somewhere(state, "A")):
                    continue
                if target < 0 and any(point < p <= 6 for p in self.points_of(state, "A")):
                    continue
                off_a += 1
            new = State(tuple(tuple(s) for s in stacks), off_a, state.off_b, state.left_start + (point == 24))
            if self.block_problem(new):
                continue
            out.append(new)
        return out

    # --- the turn ----------------------------------------------------------------------

    def dice_orders(self, position: Position, dice: Dice) -> tuple[list[tuple[int, ...]], int, bool]:
        """The orders to try, how many leading dice are owed, and whether the roll progresses."""
        a, b = dice
        owed: tuple[int, ...] = ()
        progress = False
        if a == b:
            own: tuple[int, ...] = (a, a, a, a)
            options = self.options
            if isinstance(options, ParallelOptions) and options.doubles == "progression":
                rolls = position.mover_rolls if isinstance(position, GulbaraPosition) else 99
                if rolls >= options.progression_after:
                    progress = True
                    own = tuple(v for v in range(a, 7) for _ in range(4))
            orders = [own]
        else:
            orders = [(a, b), (b, a)]
        if isinstance(position, GulbaraPosition):
            owed = position.mover_owed
        return [owed + order for order in orders], len(owed), progress

    def head_limit(self, position: Position, dice: Dice) -> int:
        options = self.options
        if not isinstance(options, ParallelOptions) or options.start_exit != "one_per_turn":
            return 99
        a, b = dice
        if a == b and a in options.first_roll_head_doubles and position.mover[24] == 15:
            return 2
        return 1

    def plays(self, position: Position, dice: Dice) -> set[Position]:
        """The distinct results of every legal play (seen from the side that moved)."""
        orders, split, progress = self.dice_orders(position, dice)
        limit = self.head_limit(position, dice)
        start = self.state_of(position)
        ends: dict[tuple[tuple[int, int], int], set[State]] = {}  # (score, first own die) -> states
        for order in orders:
            # (index in order, owed dice played, first own die) -> states
            layer: dict[tuple[int, int, int], set[State]] = {(0, 0, 0): {start}}
            while layer:
                nxt: dict[tuple[int, int, int], set[State]] = {}
                for (i, owed, first), states in layer.items():
                    for state in states:
                        if i == len(order):
                            ends.setdefault(((owed, i - split), first), set()).add(state)
                            continue
                        die = order[i]
                        moved = self.moves(state, die, limit)
                        if moved:
                            own = i >= split
                            key = (i + 1, owed + (not own), first or (die if own else 0))
                            nxt.setdefault(key, set()).update(moved)
                        elif i < split:
                            nxt.setdefault((split, owed, first), set()).add(state)  # the rest of the owed are lost
                        else:
                            ends.setdefault(((owed, i - split), first), set()).add(state)
                layer = nxt
        best = max(score for score, _ in ends)
        kept = {first: states for (score, first), states in ends.items() if score == best}
        if dice[0] != dice[1] and best[1] == 1 and max(dice) in kept:
            kept = {max(dice): kept[max(dice)]}
        finals: set[State] = set().union(*kept.values())
        options = self.options
        if (
            isinstance(options, ParallelOptions)
            and options.prime_rule == "must_open_trapping_prime"
            and self.trapping(start)
        ):
            opened = {s for s in finals if not self.trapping(s)}
            if opened:
                finals = opened
        remainder: tuple[int, ...] = ()
        if progress and isinstance(options, ParallelOptions) and options.unplayable_progression == "opponent_plays":
            remainder = orders[0][split + best[1] :]
        return {self.position_of(position, state, remainder) for state in finals}

    def position_of(self, before: Position, state: State, remainder: tuple[int, ...]) -> Position:
        mover, mine = self.side_of(state, "A")
        opponent, theirs = self.side_of(state, "B")
        if self.pinning:
            return PlakotoPosition(mover, opponent, mine, theirs)
        if isinstance(before, GulbaraPosition):
            assert isinstance(self.options, ParallelOptions)
            rolls = min(before.mover_rolls + 1, self.options.progression_after)
            return GulbaraPosition(mover, opponent, rolls, before.opponent_rolls, (), remainder)
        return ParallelPosition(mover, opponent)


def reference_plays(variant: type[TablaVariant], position: Position, dice: Dice) -> set[Position]:
    """The reference set of legal results for ``dice`` in ``position``."""
    if not issubclass(variant, (Plakoto, ParallelGame)):
        raise ValueError(f"no reference rules for {variant.name}")
    return Reference(variant).plays(variant.position_from(position), dice)
