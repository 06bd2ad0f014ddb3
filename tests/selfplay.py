"""Random legal plays for self-play in the tabla variants (tests, example generators, benchmarks).

Picks one legal play without listing them all: a Gulbara 1-1 progression can
have over a million distinct plays.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from tabla_cli.board import Dice, Play, Position
from tabla_cli.variants.common import TablaVariant
from tabla_cli.variants.search import Board, PathStep, search, snapshot_after


def random_play(
    variant: type[TablaVariant], position: Position, dice: Dice, rng: random.Random
) -> tuple[Position, Play]:
    """One legal play of ``variant`` picked at random (not uniformly), and the position it leads to."""
    position = variant.position_from(position)
    plan = variant.plan(position, dice)
    if variant.judges_plays(position):
        legal = variant.legal_plays(position, dice)
        after = rng.choice(list(legal))
        return after, legal[after]
    board = variant.board(position, plan)
    full = (plan.split, plan.size - plan.split)
    searched = search(board, plan, stop_at_full=True)
    if searched.best != full:  # the search was complete
        snap = rng.choice(list(searched.found))
        after = variant.make_result(position, snap, plan, searched.best)
        return after, variant.finish_play(position, after, searched.found[snap])
    orders = list(plan.orders)
    rng.shuffle(orders)
    for order in orders:
        path = _RandomWalk(board, order, plan.split, rng).run(0)
        if path is not None:
            after = variant.make_result(position, snapshot_after(board, path), plan, full)
            return after, variant.finish_play(position, after, path)
    raise AssertionError("a full play was found but cannot be found again")


@dataclass(slots=True)
class _RandomWalk:
    """A random depth-first search for one play that uses every die of ``order``."""

    board: Board
    order: tuple[int, ...]
    split: int
    rng: random.Random
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
