"""How often ``tabla cube`` agrees with GNU Backgammon, and what it costs, at each level.

Over ``tests/data/cube/gnubg_2ply_exports.csv`` (the 40 cube decisions gnubg
analysed at 2-ply in the bglab text exports; see tests/data/SOURCES.md): for
each level, how many verdicts say what gnubg says (double or not, take or
pass), which ones differ, how far its cubeless chances are from gnubg's
printout (mean and largest absolute difference over the five), and the CPU seconds of the 40 verdicts (one thread,
the engine's caches cleared before each, as one ``tabla cube`` call judges them).

    PYTHONPATH=$PWD python benchmarks/bench_cube_levels.py [--levels 1ply,2ply,3ply]
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

from tabla_cli.analysis.cube import cube_verdict
from tabla_cli.evaluation.types import DecisionKind
from tabla_cli.pasted import parse_ids
from tabla_cli.show import decision_input

CHANCES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
ORACLE = Path(__file__).parent.parent / "tests" / "data" / "cube" / "gnubg_2ply_exports.csv"


def gnubg_says(words: str) -> tuple[bool, bool]:
    return words.startswith(("Double", "Redouble", "Optional")), "take" in words


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="1ply,2ply,3ply")
    args = parser.parse_args()
    rows = list(csv.DictReader(ORACLE.open(encoding="utf-8")))
    for level in args.levels.split(","):
        agree, differ, gaps = 0, [], []
        start = time.process_time()
        for row in rows:
            position, state = parse_ids(f"{row['position_id']}:{row['match_id']}")
            assert state is not None
            verdict = cube_verdict(decision_input(DecisionKind.DOUBLE, position, state), level)
            theirs = [float(row[name]) for name in CHANCES]
            gaps.extend(abs(mine - gnubg) for mine, gnubg in zip(verdict.chances, theirs))
            if (verdict.double, verdict.take) == gnubg_says(row["proper"]):
                agree += 1
            else:
                differ.append(
                    f"  {row['position_id']}:{row['match_id']}  gnubg {row['proper']!r}, tabla {verdict.proper!r}"
                )
        cpu = time.process_time() - start
        print(
            f"{level}: agrees on {agree} of {len(rows)}; {cpu:.2f} s CPU ({1000 * cpu / len(rows):.0f} ms a position)"
        )
        print(f"  chances: mean |difference| {sum(gaps) / len(gaps):.4f}, largest {max(gaps):.4f}")
        print("\n".join(differ))


if __name__ == "__main__":
    main()
