"""Make bearoffs.csv: two-sided bear-offs with GNU Backgammon's exact cubeless equity (run once, by hand).

Each side has 2 to 6 checkers, all on its own six home points, so that
gnubg's two-sided bear-off database (gnubg_ts0.bd: six points, up to six
checkers a side, shipped with the ``gnubg`` Python package, GPL) holds the
exact answer; gnubg's 0-ply evaluation reads it from there (position class
4, CLASS_BEAROFF2). The equity is the cubeless equity before the roll of
the side on roll (no gammons are possible: each side has borne off at least
nine checkers). Positions are drawn with a fixed seed; ``gnubg`` is used
here only, never by the tests::

    python tests/data/rollout/make_bearoffs.py > tests/data/rollout/bearoffs.csv
"""

from __future__ import annotations

import random
import sys

import gnubg  # type: ignore[import-not-found]

COUNT = 100
BEAROFF2 = 4


def side(rng: random.Random) -> list[int]:
    points = [0] * 25
    for _ in range(rng.randint(2, 6)):
        points[rng.randint(0, 5)] += 1
    return points


def main() -> None:
    rng = random.Random(20261204)
    seen: set[str] = set()
    out = sys.stdout
    out.write(f"# made by make_bearoffs.py with gnubg {gnubg.version} (gnubg_ts0.bd), exact cubeless equity\n")
    out.write("position_id,equity\n")
    while len(seen) < COUNT:
        opponent, on_roll = side(rng), side(rng)
        board = (opponent, on_roll)
        position_id = gnubg.positionid(board)
        if position_id in seen or gnubg.classify(board) != BEAROFF2:
            continue
        seen.add(position_id)
        equity = gnubg.evaluate(board, gnubg.cubeinfo(), gnubg.evalcontext(0, 0, 1, 0, 0))[5]
        out.write(f"{position_id},{equity:.6f}\n")


if __name__ == "__main__":
    main()
