"""`tabla check` benchmark: parse-only and full strict check, one process and --jobs 2.

    python benchmarks/bench_check.py [DIR ...]

The machine may be shared: compare the CPU time of ``--jobs 1`` over a few
runs back to back rather than the rates.

Without arguments it measures tests/data/corpus/mat and, when present, the
generated 7-point matches in bench-data/ (make them with
../shared/tools/gen_matches.py, see benchmarks/README.md).
"""

from __future__ import annotations

import sys
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


def main() -> None:
    folders = [Path(a) for a in sys.argv[1:]] or [
        ROOT / "tests" / "data" / "corpus" / "mat",
        ROOT / "bench-data",
    ]
    for folder in folders:
        if folder.is_dir():
            measure(folder)


if __name__ == "__main__":
    main()
