"""Variant benchmark: legal-play generation and is_legal per variant, and checking the examples.

Positions come from seeded random legal self-play from each variant's start
(the same kind the tests compare with the reference generator); every
position is tried with each of the 21 rolls, and ``is_legal`` is timed on
one legal play per (position, roll).

    python benchmarks/bench_variants.py [--positions 300] [--repeat 3]

Gulbara's progressions of 1-1 to 4-4 (12 to 24 moves, up to a million
distinct plays) are timed apart: "long" lists only ``some_plays`` (the first
10 plays, what a finding shows) and ``is_legal`` of one play.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tabla_cli.board import Position, is_legal, legal_plays
from tabla_cli.check import check_paths, collect_paths
from tabla_cli.variant import Backgammon, Variant
from tabla_cli.variants import Fevga, Gulbara, LongNardy, Plakoto, Tapa

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from selfplay import random_play  # noqa: E402  (tests/selfplay.py: self-play is test code)


def self_play(variant: Any, count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    position = variant.start_position()
    out: list[Position] = []
    turns = 0
    while len(out) < count:
        out.append(position)
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        if variant is Backgammon:
            legal = legal_plays(position, roll)
            after = rng.choice(list(legal))
        else:
            after, _ = random_play(variant, position, roll, rng)
        turns += 1
        if variant.is_over(after) or turns > 400:
            position, turns = variant.start_position(), 0
        else:
            position = after.flip()
    return out


def timed(fn: Callable[..., object], items: list[tuple[Any, ...]], repeat: int) -> float:
    if not items:
        return float("nan")
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for item in items:
            fn(*item)
        best = min(best, time.perf_counter() - t0)
    return best / len(items) * 1e6


def bench(variant: Any, positions: int, repeat: int) -> None:
    rng = random.Random(7)
    pool = self_play(variant, positions, 1)
    singles, doubles, long, recorded = [], [], [], []
    for position in pool:
        for roll in ROLLS:
            if variant is not Backgammon and variant.plan(position, roll).size > 8:
                long.append((position, roll))
            elif roll[0] == roll[1]:
                doubles.append((position, roll))
            else:
                singles.append((position, roll))
    generate: Callable[..., object] = legal_plays if variant is Backgammon else variant.legal_plays
    legal: Callable[..., object] = is_legal if variant is Backgammon else variant.is_legal
    for position, roll in singles[::7] + doubles[::3]:
        if variant is Backgammon:
            play = rng.choice(list(legal_plays(position, roll).values()))
        else:
            play = random_play(variant, position, roll, rng)[1]
        recorded.append((position, roll, play))
    line = (
        f"{variant.name:12} non-double {timed(generate, singles, repeat):8.1f} us/roll   "
        f"double {timed(generate, doubles, repeat):8.1f} us/roll   "
        f"is_legal {timed(legal, recorded, repeat):8.1f} us/play"
    )
    if long:
        sample = long[:: max(1, len(long) // 60)]
        listed = timed(lambda p, r: variant.some_plays(p, r, 10), sample, 1)
        plays = [(p, r, random_play(variant, p, r, rng)[1]) for p, r in sample]
        line += (
            f"\n{'':12} long progressions ({len(sample)}): first 10 plays {listed / 1000:7.1f} ms/roll   "
            f"is_legal {timed(legal, plays, 1) / 1000:7.1f} ms/play"
        )
    print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{args.positions} self-play positions per variant x 21 rolls (best of {args.repeat})")
    variants: list[Variant] = [Backgammon, Tapa, Plakoto, Fevga, Gulbara, LongNardy]
    for variant in variants:
        bench(variant, args.positions, args.repeat)
    paths = [p for p in collect_paths([str(ROOT / "examples")])]
    t0 = time.perf_counter()
    reports = list(check_paths(paths, 1))
    dt = time.perf_counter() - t0
    plays = sum(r.plays for r in reports)
    print(f"tabla check examples/ ({len(paths)} files, {plays} plays, --jobs 1): {plays / dt:8.0f} plays/s")


if __name__ == "__main__":
    main()
