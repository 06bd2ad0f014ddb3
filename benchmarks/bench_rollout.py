"""Rollout benchmark: trials per CPU second (one thread) of tabla's rollouts beside GNU Backgammon's, and the wall
time of one 1,296-trial rollout on 1 and 2 local Dask workers.

    PYTHONPATH=$PWD python benchmarks/bench_rollout.py [--trials 72] [--wall-trials 1296] [--no-gnubg]

The position is the opening position before the roll, money, cube centred:
a cube rollout (no double and double/take played on the same dice, as
gnubg's cubeful rollout of a cube decision does). Each setting runs
``--trials`` trials with one thread: full games with the plays at 1ply
(gnubg's 0-ply), and trials truncated after 7 half-moves at 1ply and at
2ply (gnubg's 1-ply). gnubg (the ``gnubg`` PyPI package, GPL, test-only,
never imported by tabla_cli) runs the same rollouts with its own defaults
otherwise (variance reduction on, quasi-random dice). The wall-time part
runs ``tabla rollout start --cubeless`` truncated after 5 half-moves on
``local:1`` and ``local:2`` (``--no-cache``), and reports both.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from tabla_cli.analysis.rollout import Settings, rollout
from tabla_cli.show import rollout_question as prepare

ROOT = Path(__file__).resolve().parents[1]
START_CUBE = "4HPwATDgc/ABMA:cAkAAAAAAAAA"
SETTINGS = (("full, 1ply", 0, "1ply"), ("truncated 7, 1ply", 7, "1ply"), ("truncated 7, 2ply", 7, "2ply"))

GNUBG = """
import sys, time, gnubg
trials, truncate, plies = map(int, sys.argv[1:4])
for command in ("set threads 1", f"set rollout trials {trials}", "set sound enable off",
                f"set rollout chequerplay plies {plies}", f"set rollout cubedecision plies {plies}",
                "set rollout truncation enable " + ("on" if truncate else "off")):
    gnubg.command(command)
if truncate:
    gnubg.command(f"set rollout truncation plies {truncate}")
gnubg.command("new game")
gnubg.setgnubgid(sys.argv[4])
start = time.process_time()
gnubg.command("rollout")
print("CPU", time.process_time() - start)
"""


def tabla_cpu(trials: int, truncate: int, level: str) -> float:
    job = prepare(START_CUBE)
    start = time.process_time()
    rollout([job], Settings(trials=trials, truncate=truncate, level=level), use_cache=False)
    return time.process_time() - start


def gnubg_cpu(trials: int, truncate: int, level: str) -> float | None:
    plies = int(level[0]) - 1
    found = subprocess.run(
        [sys.executable, "-c", GNUBG, str(trials), str(truncate), str(plies), START_CUBE],
        capture_output=True,
        text=True,
        timeout=600,
    )
    lines = [line for line in found.stdout.splitlines() if line.startswith("CPU ")]
    return float(lines[-1].split()[1]) if lines else None


def wall(workers: int, trials: int) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", "from tabla_cli.cli import main; main()", "rollout", "start", "--cubeless"]
    command += ["--trials", str(trials), "--truncate", "5", "--no-cache", "-q", "--scheduler", f"local:{workers}"]
    start = time.perf_counter()
    subprocess.run(command, env=env, check=True, capture_output=True, timeout=600)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=72)
    parser.add_argument("--wall-trials", type=int, default=1296)
    parser.add_argument("--no-gnubg", action="store_true")
    args = parser.parse_args()
    print(f"cube rollout of {START_CUBE}, {args.trials} trials, one thread: trials per CPU second")
    for name, truncate, level in SETTINGS:
        ours = args.trials / tabla_cpu(args.trials, truncate, level)
        theirs = None if args.no_gnubg else gnubg_cpu(args.trials, truncate, level)
        shown = f"{args.trials / theirs:8.1f}" if theirs else "     n/a"
        print(f"  {name:<20} tabla {ours:8.1f}   gnubg {shown}")
    for workers in (1, 2):
        print(
            f"tabla rollout start --cubeless --trials {args.wall_trials} --truncate 5 on local:{workers}: "
            f"{wall(workers, args.wall_trials):.1f} s wall"
        )


if __name__ == "__main__":
    main()
