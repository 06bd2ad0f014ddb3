"""`tabla check` benchmark: parse-only and full strict check, one process and --jobs 2.

    python benchmarks/bench_check.py [DIR ...]
    python benchmarks/bench_check.py --cpu [--repeat N] [DIR ...]
    python benchmarks/bench_check.py --against OTHER_CHECKOUT [--rounds R] [--repeat N] [DIR ...]
    python benchmarks/bench_check.py --instructions [--against OTHER_CHECKOUT] [DIR ...]

The machine may be shared: compare the CPU time of ``--jobs 1`` over a few
runs back to back rather than the rates.

``--cpu`` measures only the CPU time of checking the files in this process
(``check_paths`` with one job, after one run to warm up), ``--repeat`` times
(default 9), and prints the least and the median. ``--against`` compares
this checkout with another one (a ``git worktree add`` of an older commit,
say): ``--rounds`` times, each checkout in turn runs ``--cpu`` in a process
of its own, so that both meet the same load on a shared machine; the least
and the median over all runs of each are printed.

``--instructions`` counts, under valgrind's callgrind, the instructions of
one check after the warm-up (a process that checks twice less one that
checks once, with a fixed ``PYTHONHASHSEED``), for this checkout and, with
``--against``, the other one: a figure that load on the machine does not
move. Each count takes a few minutes (valgrind must be installed).

Without arguments it measures tests/data/corpus/mat and, when present, the
generated 7-point matches in bench-data/ (make them with
../shared/tools/gen_matches.py, see benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tabla_cli.check import check_paths, collect_paths
from tabla_cli.formats import mat
from tabla_cli.reader import decode
from tabla_cli.replay import replay_match

ROOT = Path(__file__).resolve().parents[1]


def measure(folder: Path) -> None:
    texts = [(p, decode(Path(p).read_bytes())) for p in collect_paths([str(folder)])]
    texts = [(p, t) for p, t in texts if mat.looks_like_mat(t)]
    paths = [p for p, _ in texts]
    parse = replay = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        matches = [m for p, t in texts for m in mat.parse_matches(t, path=p)]
        parse = min(parse, time.perf_counter() - t0)
        t0 = time.perf_counter()
        plays = sum(replay_match(m).plays for m in matches)
        replay = min(replay, time.perf_counter() - t0)
    n = len(matches)
    print(f"{folder}: {len(paths)} files, {n} matches, {plays} plays (best of 3)")
    print(f"  parse only (1 process):      {n / parse:8.0f} matches/s {plays / parse:9.0f} plays/s")
    full = parse + replay
    print(f"  full check (1 process):      {n / full:8.0f} matches/s {plays / full:9.0f} plays/s")
    for jobs in (1, 2):
        t0, c0 = time.perf_counter(), time.process_time()
        reports = list(check_paths(paths, jobs))
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
        played = sum(r.plays for r in reports)
        # CPU time of this process: the figure to compare on a shared machine (--jobs 1 only: with
        # --jobs 2 the work is done in the worker processes).
        busy = f"  CPU {cpu:.2f} s" if jobs == 1 else ""
        print(f"  tabla check files, --jobs {jobs}: {n / dt:8.0f} matches/s {played / dt:9.0f} plays/s{busy}")


def cpu_times(folder: Path, repeat: int) -> list[float]:
    """CPU seconds of each of ``repeat`` checks of the files below ``folder`` (one process, one job)."""
    paths = list(collect_paths([str(folder)]))
    list(check_paths(paths, 1))  # imports, the parser, caches
    times = []
    for _ in range(repeat):
        c0 = time.process_time()
        list(check_paths(paths, 1))
        times.append(time.process_time() - c0)
    return times


def summary(times: list[float]) -> str:
    return f"CPU min {min(times):.3f} s, median {statistics.median(times):.3f} s over {len(times)} runs"


def against(folder: Path, other: Path, rounds: int, repeat: int) -> None:
    """Alternate ``--cpu`` runs of this checkout and of ``other`` over ``folder``; print both summaries."""
    trees = {"this checkout": ROOT, str(other): other.resolve()}
    times: dict[str, list[float]] = {name: [] for name in trees}
    for _ in range(rounds):
        for name, tree in trees.items():
            env = {**os.environ, "PYTHONPATH": str(tree)}
            out = subprocess.run(
                [sys.executable, __file__, "--cpu", "--json", "--repeat", str(repeat), str(folder)],
                env=env,
                check=True,
                capture_output=True,
                text=True,
                cwd=tree,
            ).stdout
            times[name] += json.loads(out)
    print(f"{folder}: {rounds} rounds of {repeat} runs, in turn")
    for name, values in times.items():
        print(f"  {name}: {summary(values)}")


def instructions(folder: Path, tree: Path) -> int:
    """Instructions of one check of ``folder`` with the tabla_cli of ``tree`` after the warm-up (valgrind's count)."""
    counts = []
    for repeat in (0, 1):  # the warm-up check alone, then with one more
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "callgrind.out"
            env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
            subprocess.run(
                [
                    "valgrind",
                    "--tool=callgrind",
                    f"--callgrind-out-file={out}",
                    sys.executable,
                    __file__,
                    "--cpu",
                    "--json",
                    "--repeat",
                    str(repeat),
                    str(folder),
                ],
                env=env,
                check=True,
                capture_output=True,
                cwd=tree,
            )
            totals = [line for line in out.read_text().splitlines() if line.startswith(("summary:", "totals:"))]
            counts.append(int(totals[0].split()[1]))
    return counts[1] - counts[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--cpu", action="store_true", help="only the CPU time of check_paths, one job")
    parser.add_argument("--repeat", type=int, default=9, help="runs per measure with --cpu or --against")
    parser.add_argument("--against", type=Path, metavar="CHECKOUT", help="compare with the tabla_cli of CHECKOUT")
    parser.add_argument("--rounds", type=int, default=5, help="turns of each checkout with --against")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count the instructions of one check under valgrind (with --against: of both)",
    )
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # --cpu's times for --against
    args = parser.parse_args()
    folders = [f.resolve() for f in args.folders] or [ROOT / "tests" / "data" / "corpus" / "mat", ROOT / "bench-data"]
    for folder in folders:
        if not folder.is_dir():
            continue
        if args.instructions:
            for tree in [ROOT] + ([args.against.resolve()] if args.against is not None else []):
                print(f"{folder}, {tree}: {instructions(folder, tree) / 1e6:,.0f} M instructions per check")
        elif args.against is not None:
            against(folder, args.against, args.rounds, args.repeat)
        elif args.cpu:
            times = cpu_times(folder, args.repeat)
            print(json.dumps(times) if args.json else f"{folder}: {summary(times)}")
        else:
            measure(folder)


if __name__ == "__main__":
    main()
