"""`--scheduler` benchmark: scheduling overhead per task, and check's throughput on a local 2-worker
Dask cluster versus `--jobs 2`.

    python benchmarks/bench_cluster.py [DIR ...] [--repeat N]

Starts a LocalCluster of two worker processes (one thread each) once, then
measures against its tcp:// address, as `tabla check --scheduler tcp://...`
does: each run connects a client, submits chunks, gathers in order. Without
DIR it measures tests/data/corpus/mat (each file listed --repeat times, 4 by
default, so that the run is long enough to time) and, when present,
bench-data/.
"""

from __future__ import annotations

import argparse
import logging
import time
from pathlib import Path

from distributed import Client, LocalCluster

from tabla_cli.check import check_paths, collect_paths
from tabla_cli.cluster import map_on_cluster

ROOT = Path(__file__).resolve().parents[1]


def best(runs: int, func: object) -> float:
    """The fastest of ``runs`` timings of ``func()``."""
    assert callable(func)
    out = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        func()
        out = min(out, time.perf_counter() - t0)
    return out


def overhead(address: str) -> None:
    """Per-task cost of the cluster path with work that costs nothing (``abs``)."""
    connect = best(3, lambda: Client(address, set_as_default=False).close())
    print(f"connect and close a client:          {connect * 1e3:8.1f} ms")
    for items in (200, 2000):
        one = best(3, lambda: list(map_on_cluster(abs, range(items), address, max_chunk=1)))
        chunked = best(3, lambda: list(map_on_cluster(abs, range(items), address)))
        print(
            f"{items:5d} items, one task each:          {one * 1e3:8.1f} ms "
            f"({(one - connect) / items * 1e3:6.2f} ms per task after connecting)"
        )
        print(
            f"{items:5d} items, chunked (16 per task):  {chunked * 1e3:8.1f} ms "
            f"({(chunked - connect) / items * 1e3:6.3f} ms per item)"
        )


def throughput(paths: list[str], address: str, label: str) -> None:
    """Files, matches and plays per second of check with --jobs 2 and on the cluster."""
    reports = list(check_paths(paths, 2))
    matches, plays = sum(r.matches for r in reports), sum(r.plays for r in reports)
    print(f"{label}: {len(paths)} files, {matches} matches, {plays} plays (best of 3)")
    for name, run in (
        ("--jobs 2", lambda: list(check_paths(paths, 2))),
        ("--scheduler (2 workers)", lambda: list(check_paths(paths, scheduler=address))),
    ):
        dt = best(3, run)
        print(
            f"  {name:24s} {dt:7.2f} s {len(paths) / dt:8.0f} files/s {matches / dt:8.0f} matches/s "
            f"{plays / dt:9.0f} plays/s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("dirs", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=4)
    args = parser.parse_args()
    folders = args.dirs or [ROOT / "tests" / "data" / "corpus" / "mat", ROOT / "bench-data"]
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR
    ) as cluster:
        address = cluster.scheduler_address
        overhead(address)
        for folder in folders:
            if folder.is_dir():
                throughput(collect_paths([str(folder)]) * args.repeat, address, f"{folder} x{args.repeat}")


if __name__ == "__main__":
    main()
