"""Written plays in the tabla variants: matching what a transcript says against the rules.

The written moves are walked with the dice in playing order (each move may
take several dice; moves may be played in any order); a walk that uses every
die is legal at once, otherwise the result must be one of the legal plays.
Errors carry a finding code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tabla_cli.board import BAR, OFF, Dice, Play, Position, Resolution, Segment, Step
from tabla_cli.findings import Code
from tabla_cli.variants.search import (
    SEARCH_LIMIT,
    Board,
    PathStep,
    SearchLimitError,
    TurnPlan,
    search,
    snapshot_after,
    step_name,
)

if TYPE_CHECKING:
    from tabla_cli.variants.common import TablaVariant


@dataclass(frozen=True, slots=True)
class VariantResolution(Resolution):
    """A :class:`~tabla_cli.board.Resolution` with the finding code of its error."""

    code: str = Code.ILLEGAL_PLAY


@dataclass(slots=True)
class _Walk:
    """The search for one way to play a written play with the dice, in order."""

    board: Board
    order: tuple[int, ...]
    split: int
    left: int
    """States it may still visit: a written play of many moves on a Gulbara progression has millions of orders."""
    path: list[PathStep] = field(default_factory=list)
    seen: set[object] = field(default_factory=set)
    failure: tuple[int, str, str] | None = None
    lows: list[int] = field(default_factory=list)
    sums: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        # After die i: the smallest die and the pips left (to cut dead ends early).
        order = self.order
        self.lows = [min(order[i + 1 :], default=99) for i in range(len(order))]
        self.sums = [sum(order[i + 1 :]) for i in range(len(order))]

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
            rest = todo[:n] + todo[n + 1 :]
            if to != dst:
                rest = rest + ((to, dst),)
            rest = tuple(sorted(rest, reverse=True))
            if rest and self.dead(i, rest):
                continue
            flag = flags[src, to]
            self.board.push(src, to, flag)
            key = (i, owed, self.board.key(), rest)
            if key not in self.seen and self.left > 0:
                self.seen.add(key)
                self.left -= 1
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
        name = step_name(src, dst)
        if src == BAR:
            return VariantResolution(None, None, f"'{name}': {cls.name} has no bar")
        if src <= dst or dst < OFF:
            return VariantResolution(None, None, f"'{name}' does not move towards home")
    plan = cls.plan(position, dice)
    if not segments:
        searched = search(cls.board(position, plan), plan, stop_at_full=True)
        if not searched.complete:
            return _too_large(plan)
        if sum(searched.best) == 0:
            snap = next(iter(searched.found))
            return VariantResolution((), cls.make_result(position, snap, plan, searched.best), None)
        return VariantResolution(None, None, "no move written, but the roll can be played")
    todo = tuple(sorted(((s, d) for s, d, _ in segments), reverse=True))
    walked: tuple[PathStep, ...] | None = None
    failure: tuple[int, str, str] | None = None
    full = (plan.split, plan.size - plan.split)
    board = cls.board(position, plan)
    for order in plan.orders if len(todo) <= plan.size else ():  # each written move takes a die at least
        walk = _Walk(board, order, plan.split, SEARCH_LIMIT)
        walked = walk.run(0, 0, todo)
        if walked is not None:
            break
        if walk.left == 0:
            return _too_large(plan)
        if walk.failure is not None and (failure is None or walk.failure[0] > failure[0]):
            failure = walk.failure
    if walked is not None:
        owed_used = sum(1 for s in walked if not s[4])
        if (owed_used, len(walked) - owed_used) == full and not cls.judges_plays(position):
            done = cls.make_result(position, snapshot_after(board, walked), plan, full)
            return VariantResolution(cls.finish_play(position, done, walked), done, None)
    # The written moves as a result; legal if some legal play reaches it.
    written = cls.apply_written(position, segments)
    found: tuple[PathStep, ...] | None = None
    reach = (-1, -1)
    target: object = None
    if written is not None:
        target = cls.snapshot_of(written)
        reached = search(cls.board(position, plan), plan, target=target)
        if not reached.complete:
            return _too_large(plan)
        if reached.found:
            found, reach = reached.found[target], reached.best
    if found is None and walked is not None:
        # The written moves can be played but stop short: no legal play ends there.
        found = walked
        reach = (sum(1 for s in walked if not s[4]), sum(1 for s in walked if s[4]))
        target = snapshot_after(cls.board(position, plan), walked)
    if found is None:
        if failure is not None:
            return VariantResolution(None, None, failure[2], code=failure[1])
        text = " ".join(step_name(s, d) for s, d, _ in segments)
        return VariantResolution(
            None,
            None,
            f"'{text}' cannot be made of the dice {a}-{b}"
            + (f" as {cls.name} plays them" if plan.size > 4 or plan.split else ""),
        )
    every = search(cls.board(position, plan), plan, stop_at_full=True)
    if not every.complete:
        return _too_large(plan)
    best = every.best
    result = cls.make_result(position, target, plan, best)
    play = cls.finish_play(position, result, found)
    if reach < best:
        used, need = sum(reach), sum(best)
        if plan.progression or plan.split:
            return VariantResolution(
                play,
                result,
                f"plays {used} of the {need} moves that can be played ({_describe_plan(plan)})",
                code=Code.DOUBLES_PROGRESSION,
            )
        if need == 2 and a != b:
            return VariantResolution(play, result, "plays one die but both can be played")
        return VariantResolution(play, result, f"plays {used} of the {need} dice that can be played")
    if best != full and target not in every.found:
        if plan.pair is not None and best[1] == 1:
            return VariantResolution(play, result, f"plays the smaller die but the {max(plan.pair)} can be played")
        return VariantResolution(play, result, "is not one of the legal plays")
    if cls.judges_plays(position):
        try:
            legal = cls.legal_plays(position, dice)
        except SearchLimitError:
            return _too_large(plan)
        if result not in legal:
            code, message = cls.filter_reason(position)
            return VariantResolution(play, result, message, code=code)
    return VariantResolution(play, result, None)


def _too_large(plan: TurnPlan) -> VariantResolution:
    """The resolution of a play the search gave up on (more than :data:`SEARCH_LIMIT` states)."""
    return VariantResolution(
        None,
        None,
        f"not checked: the legal plays of this roll ({_describe_plan(plan)}) "
        f"take more than {SEARCH_LIMIT:,} positions to search",
        code=Code.UNCHECKED,
    )


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
