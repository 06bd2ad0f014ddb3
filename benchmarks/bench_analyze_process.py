"""Whole-process time of ``tabla analyze`` per match: start-up, nets, analysis, luck and output.

Run from the repository root:

    python benchmarks/bench_analyze_process.py [FILE_OR_DIR ...] [--level 2ply] [--threads 1,default]
        [--repeat 3] [--against CHECKOUT ...] [--no-luck] [--instructions]

Each input file is analysed by a fresh ``tabla analyze FILE --no-cache --by
match --format json --quiet`` process, as ``benchmarks/bench_xg_reference.py``
runs it, once per ``--threads`` setting (``default``: no ``--threads``, the
command's own choice) and per checkout: this one, then each ``--against``
(another tree of the project, e.g. ``git archive`` of an older commit
unpacked in /tmp), taking turns so that they share the machine's load. Each
process runs in its checkout's root: ``python -c`` puts the working
directory first on ``sys.path``, so a process started elsewhere in a
checkout would import that checkout's package whatever ``PYTHONPATH`` says. Each
figure is the least of ``--repeat`` runs: the wall seconds and the CPU
seconds (user + system of the process and its threads, from the children's
resource usage). The default input is the 7-point match of
``tests/data/corpus/mat`` that ``bench_analysis.py`` times.

Each checkout's package is byte-compiled first, as an installed package is:
where ``PYTHONDONTWRITEBYTECODE`` is set, every process would otherwise
compile it from source again (about a third of a second of CPU).

On a shared machine the CPU seconds are the steadier figure; the load
average is printed before and after. ``--instructions`` also counts, under
valgrind's callgrind, the instructions of one process per file and checkout
with one engine thread: unmoved by the load (and about 50 times slower).
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MATCH_7 = (
    ROOT
    / "tests"
    / "data"
    / "corpus"
    / "mat"
    / "bglab-Llabba-crayon_-_Llabba_7pt_Backgammon_Studio_2023_05_23_13_07_53.txt"
)


def analyse_once(checkout: Path, path: Path, level: str, threads: str, luck: bool) -> tuple[float, float]:
    """Wall and CPU seconds of one ``tabla analyze`` process of ``checkout`` over ``path``."""
    command = [sys.executable, "-c", "from tabla_cli.cli import main; main()", "analyze", str(path), "--level", level]
    command += ["--no-cache", "--by", "match", "--format", "json", "--quiet", "-j", "1"]
    command += [] if threads == "default" else ["--threads", threads]
    command += [] if luck else ["--no-luck"]
    env = dict(os.environ, PYTHONPATH=str(checkout))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=checkout, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if not done.stdout.startswith("["):
        raise SystemExit(f"{checkout}: analyze {path} wrote no table (exit {done.returncode}):\n{done.stderr[-2000:]}")
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def instructions(checkout: Path, path: Path, level: str, luck: bool) -> int:
    """Instructions of one whole ``tabla analyze --threads 1`` process (valgrind's callgrind count)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c"]
        command += ["from tabla_cli.cli import main; main()", "analyze", str(path), "--level", level, "--threads", "1"]
        command += ["--no-cache", "--by", "match", "--format", "json", "--quiet", "-j", "1"]
        command += [] if luck else ["--no-luck"]
        env = {**os.environ, "PYTHONPATH": str(checkout), "PYTHONHASHSEED": "0"}
        done = subprocess.run(command, env=env, cwd=checkout, capture_output=True, text=True, check=False)
        if not done.stdout.startswith("["):
            raise SystemExit(f"{checkout}: analyze {path} under valgrind wrote no table:\n{done.stderr[-2000:]}")
        totals = [line for line in out.read_text().splitlines() if line.startswith(("summary:", "totals:"))]
        return int(totals[-1].split()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("inputs", nargs="*", type=Path, help="files or folders (default: a 7-point match)")
    parser.add_argument("--level", default="2ply")
    parser.add_argument("--threads", default="1,default", help="comma-separated: numbers or 'default'")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--against", type=Path, action="append", default=[], help="another checkout to time")
    parser.add_argument("--no-luck", action="store_true")
    parser.add_argument("--instructions", action="store_true", help="also count instructions (valgrind)")
    args = parser.parse_args()
    files = sorted(
        f.resolve()
        for p in args.inputs or [MATCH_7]
        for f in (sorted(p.iterdir()) if p.is_dir() else [p])
        if f.is_file()
    )
    checkouts = [ROOT, *(checkout.resolve() for checkout in args.against)]
    for checkout in checkouts:
        compileall.compile_dir(checkout / "tabla_cli", quiet=1)
    settings = [(c, t) for t in args.threads.split(",") for c in checkouts]
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; level {args.level}")
    print(f"{'file':<40}" + "".join(f"{f'{c.name} t={t}':>26}" for c, t in settings))
    totals = {s: [0.0, 0.0] for s in settings}
    for path in files:
        best = {s: [float("inf"), float("inf")] for s in settings}
        for _ in range(args.repeat):
            for checkout, threads in settings:
                wall, cpu = analyse_once(checkout, path, args.level, threads, not args.no_luck)
                best[checkout, threads] = [min(best[checkout, threads][0], wall), min(best[checkout, threads][1], cpu)]
        for s in settings:
            totals[s][0] += best[s][0]
            totals[s][1] += best[s][1]
        print(f"{path.name[:40]:<40}" + "".join(f"{f'{w:.2f} s, CPU {c:.2f} s':>26}" for w, c in best.values()))
    print(
        f"{'all ' + str(len(files)) + ' files':<40}"
        + "".join(f"{f'{w:.2f} s, CPU {c:.2f} s':>26}" for w, c in totals.values())
    )
    print(f"load average at end: {os.getloadavg()[0]:.1f}")
    if args.instructions:
        print("\nInstructions of one whole process, one engine thread (valgrind callgrind)")
        print(f"{'file':<40}" + "".join(f"{c.name:>20}" for c in checkouts))
        for path in files:
            counts = [instructions(c, path, args.level, not args.no_luck) for c in checkouts]
            print(f"{path.name[:40]:<40}" + "".join(f"{n / 1e9:>18.3f} G" for n in counts))


if __name__ == "__main__":
    main()
