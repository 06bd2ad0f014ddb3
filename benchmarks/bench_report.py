"""Scale benchmark for ``tabla report``: time and peak memory as the input grows.

The .mat corpus is copied 20 times into a temporary directory (copy NN/ holds
every file once). Each run is a fresh process that invokes the ``report``
command (CSV to a file, --quiet) on 1, 5 and 20 copies with --jobs 1 and 2,
and prints wall time, files per second, CPU seconds of the main process and
of the workers together, and the peak RSS of the main process and of the
largest worker. The CPU split gives the parallel speed-up to expect where
the cores are real: about (CPU of the --jobs 1 run) / max(main, workers / jobs). ``--frames`` also streams all five DataFrames
(plays included) to Parquet.

    python benchmarks/bench_report.py [--corpus tests/data/corpus] [--copies 1 5 20] [--jobs 1 2]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

RUNNER = r"""
import json, resource, sys, time
t0 = time.perf_counter()
import pandas, pyarrow  # noqa: F401  (counted in the baseline)
from tabla_cli.cli.report import report
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t1 = time.perf_counter()
try:
    report.main(args=sys.argv[1:], standalone_mode=False)
except SystemExit as exc:
    if exc.code:
        raise
t2 = time.perf_counter()
me = resource.getrusage(resource.RUSAGE_SELF)
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({
    "main_cpu_s": me.ru_utime + me.ru_stime, "worker_cpu_s": kids.ru_utime + kids.ru_stime,
    "import_s": t1 - t0, "report_s": t2 - t1,
    "baseline_kb": base,
    "peak_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    "worker_peak_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
}))
"""


def copy_corpus(corpus: Path, target: Path, copies: int) -> list[Path]:
    files = sorted(p for p in (corpus / "mat").iterdir() if p.is_file())
    dirs = []
    for n in range(copies):
        d = target / f"{n:02d}"
        d.mkdir(parents=True)
        for f in files:
            shutil.copyfile(f, d / f.name)
        dirs.append(d)
    return dirs


def run(dirs: list[Path], jobs: int, out: Path, frames: Path | None) -> dict[str, float]:
    args = [sys.executable, "-c", RUNNER, *map(str, dirs), "--jobs", str(jobs), "--quiet", "--force", "-o", str(out)]
    if frames is not None:
        args += ["--frames", str(frames)]
    done = subprocess.run(args, capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--corpus", type=Path, default=Path(__file__).resolve().parents[1] / "tests" / "data" / "corpus"
    )
    parser.add_argument("--copies", type=int, nargs="+", default=[1, 5, 20])
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--frames", action="store_true", help="also write every frame (plays included) as Parquet")
    parser.add_argument("--repeat", type=int, default=1, help="runs per case; the fastest is shown")
    args = parser.parse_args()
    files = len([p for p in (args.corpus / "mat").iterdir() if p.is_file()])
    with tempfile.TemporaryDirectory(prefix="tabla-bench-") as tmp:
        root = Path(tmp)
        dirs = copy_corpus(args.corpus, root / "corpus", max(args.copies))
        print(f"corpus: {files} files x {max(args.copies)} copies in {root / 'corpus'}")
        print(
            "| copies | files | jobs | frames | time s | files/s | main CPU s | worker CPU s "
            "| baseline RSS MiB | peak RSS MiB | worker peak MiB |"
        )
        print("|--:|--:|--:|:--|--:|--:|--:|--:|--:|--:|--:|")
        for copies in args.copies:
            for jobs in args.jobs:
                runs = []
                for _ in range(args.repeat):
                    frames = root / "frames" if args.frames else None
                    runs.append(run(dirs[:copies], jobs, root / "out.csv", frames))
                best = min(runs, key=lambda r: r["report_s"])
                n = files * copies
                print(
                    f"| {copies} | {n} | {jobs} | {'yes' if args.frames else 'no'} | {best['report_s']:.2f} "
                    f"| {n / best['report_s']:.0f} | {best['main_cpu_s']:.2f} | {best['worker_cpu_s']:.2f} "
                    f"| {best['baseline_kb'] / 1024:.0f} "
                    f"| {best['peak_kb'] / 1024:.0f} | {best['worker_peak_kb'] / 1024:.0f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
