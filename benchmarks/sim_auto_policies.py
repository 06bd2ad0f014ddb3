"""What a cheaper ``auto`` would give: accuracy against XG's totals for the deep work it spends.

Run from the repository root, on the per-decision file of ``bench_xg_decisions.py``:

    python benchmarks/bench_xg_decisions.py --xg ../shared/corpus/xg --mat ../shared/corpus/mat \
        --levels 1ply,2ply,3ply --csv decisions.csv
    python benchmarks/sim_auto_policies.py decisions.csv [--budget 2.0]

``auto`` scores every decision at 1ply and looks deeper only where the 1ply
figures call for it (``tabla_cli.analysis.bgsage_batch.stages``). This script
replays that choice, and variants of it, from the errors each depth gives
every decision, without running the engine:

- a checker play goes to 2ply when its 1ply error exceeds ``e2`` (``auto``:
  0), and on to 3ply when its 2ply error exceeds ``g3`` (``auto``: 0.12);
- a cube decision or answer goes to 3ply when its 1ply error exceeds ``cube``
  (``auto``: 0; "never" keeps it at 1ply).

For each policy it sums the errors per (match, player) as
``bench_xg_reference.py`` does, and prints the mean absolute difference from
XG's totals next to the deep work's cost: the decisions sent deeper times the
CPU seconds each costs in one process (``--cost-2ply``, ``--cost-3ply``,
``--cost-cube``; the defaults were measured on the 8 gammonview matches,
revision 7, one thread, by timing bgsage's searches inside ``tabla analyze``).
The frontier lists, cheapest first, each policy closer to XG than every
cheaper one. A simulation: it takes a decision's deeper figures from the
columns, which the real filter can differ from at the edges.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tabla_cli.ids.match import decode_match_id  # noqa: E402

NEVER = float("inf")
Key = tuple[str, int]
Totals = defaultdict[Key, float]


@dataclass(frozen=True)
class Policy:
    e2: float
    g3: float
    cube: float

    def __str__(self) -> str:
        def show(x: float) -> str:
            return "never" if x == NEVER else f"{x:g}"

        return f"2ply above {show(self.e2)}, 3ply above {show(self.g3)}, cube at 3ply above {show(self.cube)}"


@dataclass(frozen=True)
class Costs:
    two: float
    three: float
    cube: float


def error(row: dict[str, str], column: str) -> float:
    return float(row[column] or 0.0)


def simulate(rows: list[dict[str, str]], keys: list[Key], policy: Policy, costs: Costs) -> tuple[Totals, float]:
    """Each (match, player)'s total under ``policy`` (``keys``: each row's), and the deep work's CPU seconds."""
    totals: Totals = defaultdict(float)
    spent = 0.0
    for row, key in zip(rows, keys):
        value = error(row, "tabla 1ply")
        if row["kind"] == "checker":
            if value > policy.e2:
                value, spent = error(row, "tabla 2ply"), spent + costs.two
                if value > policy.g3:
                    value, spent = error(row, "tabla 3ply"), spent + costs.three
        elif value > policy.cube:
            value, spent = error(row, "tabla 3ply"), spent + costs.cube
        totals[key] += value
    return totals, spent


def key_of(row: dict[str, str]) -> Key:
    """The (match, player) a decision counts for: the match and the side on roll (from its Match ID)."""
    return row["match"], int(decode_match_id(row["match_id"], strict=False).turn)


def distance(totals: Totals, reference: Totals) -> float:
    return sum(abs(totals[key] - reference[key]) for key in reference) / len(reference)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csv", type=Path, help="bench_xg_decisions.py --csv output with 1ply, 2ply and 3ply")
    parser.add_argument("--cost-2ply", type=float, default=0.0076, help="CPU s of a checker play taken to 2ply")
    parser.add_argument("--cost-3ply", type=float, default=0.075, help="CPU s of a checker play taken on to 3ply")
    parser.add_argument("--cost-cube", type=float, default=0.060, help="CPU s of a cube decision taken to 3ply")
    parser.add_argument("--budget", type=float, help="also print the closest policy within this many deep seconds")
    args = parser.parse_args()
    with args.csv.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    missing = {"tabla 1ply", "tabla 2ply", "tabla 3ply"} - set(rows[0])
    if missing:
        raise SystemExit(f"{args.csv} lacks {', '.join(sorted(missing))}: run bench_xg_decisions.py with those levels")
    costs = Costs(args.cost_2ply, args.cost_3ply, args.cost_cube)
    xg: Totals = defaultdict(float)
    keys = [key_of(row) for row in rows]
    for row, key in zip(rows, keys):
        xg[key] += error(row, "XG")
    print(f"{len(rows)} decisions, {len(xg)} (match, player) totals; mean |diff| from XG's totals:")
    if "gnubg" in rows[0]:
        gnubg: Totals = defaultdict(float)
        for row, key in zip(rows, keys):
            gnubg[key] += error(row, "gnubg")
        print(f"  gnubg 1-ply (its own time): {distance(gnubg, xg):.3f}")
    results = []
    for e2, g3, cube in itertools.product(
        (0.0, 0.005, 0.01, 0.02, 0.04, 0.08, NEVER),
        (0.08, 0.12, 0.2, 0.3, NEVER),
        (0.0, 0.01, 0.02, 0.05, 0.1, NEVER),
    ):
        policy = Policy(e2, g3, cube)
        totals, spent = simulate(rows, keys, policy, costs)
        results.append((spent, distance(totals, xg), policy))
    results.sort(key=lambda result: (result[0], result[1]))
    auto = next(result for result in results if result[2] == Policy(0.0, 0.12, 0.0))
    print(f"  auto as it is: {auto[1]:.3f}, deep work {auto[0]:.2f} s")
    print(f"frontier of {len(results)} policies (deep CPU s, mean |diff|, policy):")
    best = NEVER
    for spent, mean, policy in results:
        if mean < best:
            best = mean
            print(f"  {spent:6.2f}  {mean:.3f}  {policy}")
    if args.budget is not None:
        within = [result for result in results if result[0] <= args.budget]
        spent, mean, policy = min(within, key=lambda result: result[1])
        print(f"closest within {args.budget:g} s: {mean:.3f} ({policy}, {spent:.2f} s)")


if __name__ == "__main__":
    main()
