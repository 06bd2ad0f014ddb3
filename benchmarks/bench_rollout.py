"""Rollout benchmark: trials per CPU second (one thread) of tabla's rollouts beside GNU Backgammon's, and the wall
time of one checker-play rollout on 1 and 2 local Dask workers.

    PYTHONPATH=$PWD python benchmarks/bench_rollout.py [--trials 72] [--wall-trials 1296] [--wall-candidates 3]
        [--no-gnubg]

The position is the opening position before the roll, money, cube centred:
a cube rollout (no double and double/take played on the same dice, as
gnubg's cubeful rollout of a cube decision does). Each setting runs
``--trials`` trials with one thread: full games with the plays at 1ply
(gnubg's 0-ply), and trials truncated after 7 half-moves at 1ply and at
2ply (gnubg's 1-ply). gnubg (the ``gnubg`` PyPI package, GPL, test-only,
never imported by tabla_cli) runs the same rollouts with its own defaults
otherwise (variance reduction on, quasi-random dice). The wall-time part
runs ``tabla rollout start 31 --candidates 3 --truncate 7 --trials 1296
--no-cache -q`` (the size: ``--wall-trials``, ``--wall-candidates``) as a
whole process on ``--scheduler local:1`` and ``local:2``, and reports each
one's wall and user CPU seconds (its own and its workers'), the ratio of the
two walls, and whether the two outputs are the same byte for byte. A rollout
this size keeps Dask's start-up (a few seconds) small beside the work.
"""

from __future__ import annotations

import argparse
import os
import resource
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


def wall(workers: int, trials: int, candidates: int) -> tuple[float, float, bytes]:
    """Wall and user CPU seconds (the process and its workers) of one checker rollout on ``local:workers``,
    and its output."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", "from tabla_cli.cli import main; main()", "rollout", "start", "31"]
    command += ["--candidates", str(candidates), "--truncate", "7", "--trials", str(trials), "--no-cache", "-q"]
    command += ["--scheduler", f"local:{workers}"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    start = time.perf_counter()
    done = subprocess.run(command, env=env, check=True, capture_output=True, timeout=1800)
    seconds = time.perf_counter() - start
    return seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=72)
    parser.add_argument("--wall-trials", type=int, default=1296)
    parser.add_argument("--wall-candidates", type=int, default=3)
    parser.add_argument("--no-gnubg", action="store_true")
    args = parser.parse_args()
    print(f"cube rollout of {START_CUBE}, {args.trials} trials, one thread: trials per CPU second")
    for name, truncate, level in SETTINGS:
        ours = args.trials / tabla_cpu(args.trials, truncate, level)
        theirs = None if args.no_gnubg else gnubg_cpu(args.trials, truncate, level)
        shown = f"{args.trials / theirs:8.1f}" if theirs else "     n/a"
        print(f"  {name:<20} tabla {ours:8.1f}   gnubg {shown}")
    shown = f"tabla rollout start 31 --candidates {args.wall_candidates} --truncate 7 --trials {args.wall_trials}"
    runs = {workers: wall(workers, args.wall_trials, args.wall_candidates) for workers in (1, 2)}
    for workers, (seconds, cpu, _) in runs.items():
        print(f"{shown} on local:{workers}: {seconds:.1f} s wall, {cpu:.1f} s user CPU")
    same = runs[1][2] == runs[2][2]
    print(f"local:2 / local:1 wall: {runs[2][0] / runs[1][0]:.3f}; outputs {'the same' if same else 'DIFFER'}")


if __name__ == "__main__":
    main()
