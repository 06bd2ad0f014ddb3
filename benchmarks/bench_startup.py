"""CPU time of one whole ``tabla`` process per command: what start-up costs a user.

    python benchmarks/bench_startup.py [--repeat N] [--against CHECKOUT ...] [--check DIR] [--instructions]

Runs each command below in a fresh Python process (``python -c "from
tabla_cli.cli import main; main()" ARGS``, as the ``tabla`` script does) and
prints the least and the median CPU time (user + system, from the children's
``getrusage``) over ``--repeat`` runs, and which of pandas, pyarrow, numpy,
bgsage and matplotlib the command would load; ``python -c pass`` first, for the
interpreter's own share. Each checkout's package is byte-compiled first, as
an installed one is (whatever ``PYTHONDONTWRITEBYTECODE`` says).
``--against`` (repeatable) runs the same with other checkouts first (e.g.
an older commit exported with ``git archive``) for a side-by-side table. ``--check DIR`` also times ``tabla check --jobs 1 -q DIR``
as a whole process (CPU and wall, least and median of ``--repeat`` runs, the
checkouts in turn), e.g. over 200 generated 7-point matches (see README.md).
CPU time moves with the machine's load;
``--instructions`` also counts, under valgrind's callgrind, the instructions
of ``tabla --version`` (and of the check of DIR) of each checkout, which it
does not. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "three-point-match.mat"
HEAVY = ("pandas", "pyarrow", "numpy", "bgsage", "matplotlib")
COMMANDS: list[list[str]] = [
    ["--help"],
    ["--version"],
    ["check", "-q", str(EXAMPLE)],
    ["show", "start"],
    ["plays", "start", "31"],
    ["convert", "-q", str(EXAMPLE), "--to", "json", "-o", "-"],
    ["report", "--help"],
    ["report", "-q", str(EXAMPLE)],
    ["report", "-q", "--format", "csv", str(EXAMPLE)],
]
"""The commands timed; ``report`` needs pandas (which loads pyarrow and numpy)."""

_RUN = "from tabla_cli.cli import main; main()"
_LOADED = (
    "import sys\n"
    "from tabla_cli.cli import main\n"
    "try:\n"
    "    main(sys.argv[1:])\n"
    "except SystemExit:\n"
    "    pass\n"
    f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules) or '-', file=sys.stderr)\n"
)


def _cpu(command: list[str], checkout: Path) -> tuple[float, float]:
    """CPU seconds (user + system) and wall seconds of one child process running ``command``."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, env=env, cwd=checkout, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall


def _heavy(args: list[str], checkout: Path) -> str:
    """Which of :data:`HEAVY` the command loads."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run(
        [sys.executable, "-c", _LOADED, *args], env=env, cwd=checkout, capture_output=True, text=True, check=False
    )
    return done.stderr.strip().splitlines()[-1]


def instructions(args: list[str], checkout: Path) -> int:
    """Instructions of one whole ``tabla ARGS`` process (valgrind's callgrind count)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        env = {**os.environ, "PYTHONPATH": str(checkout), "PYTHONHASHSEED": "0"}
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c", _RUN, *args],
            env=env,
            cwd=checkout,
            capture_output=True,
            check=True,
        )
        totals = [line for line in out.read_text().splitlines() if line.startswith(("summary:", "totals:"))]
        return int(totals[0].split()[1])


def startup(checkout: Path, repeat: int) -> dict[str, tuple[float, float, str]]:
    """``' '.join(args)`` -> (least, median CPU seconds, heavy modules loaded) for every command."""
    figures = {}
    for args in COMMANDS:
        times = sorted(_cpu([sys.executable, "-c", _RUN, *args], checkout)[0] for _ in range(repeat))
        figures[" ".join(args).replace(str(ROOT) + "/", "")] = (
            times[0],
            statistics.median(times),
            _heavy(args, checkout),
        )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=10, help="runs per command (default 10)")
    parser.add_argument(
        "--against", type=Path, action="append", default=[], help="another checkout to time first (repeatable)"
    )
    parser.add_argument(
        "--check",
        type=Path,
        default=None,
        metavar="DIR",
        help="also time 'tabla check --jobs 1 -q DIR' as a whole process",
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="also count instructions (valgrind) of --version and the check of DIR",
    )
    args = parser.parse_args()
    checkouts = [path.resolve() for path in args.against] + [ROOT]
    for checkout in checkouts:  # as an installed package is: the time to compile is no start-up a user pays
        compileall.compile_dir(checkout / "tabla_cli", quiet=1)
    results = [startup(checkout, args.repeat) for checkout in checkouts]
    bare = sorted(_cpu([sys.executable, "-c", "pass"], ROOT)[0] for _ in range(args.repeat))
    print(f"CPU seconds (user+sys) of one process, least / median of {args.repeat}")
    print(f"\n  python -c pass{'':<42} {bare[0]:6.3f} / {statistics.median(bare):6.3f}")
    for checkout, figures in zip(checkouts, results):
        print(f"\n{checkout}")
        for name, (least, median, heavy) in figures.items():
            print(f"  tabla {name:<50} {least:6.3f} / {median:6.3f}   loads: {heavy}")
    if args.check is not None:
        entries = len(list(args.check.iterdir()))
        print(f"\ntabla check --jobs 1 -q {args.check} ({entries} entries), least / median of {args.repeat}, in turn")
        command = [sys.executable, "-c", _RUN, "check", "--jobs", "1", "-q", str(args.check.resolve())]
        runs: dict[Path, list[tuple[float, float]]] = {checkout: [] for checkout in checkouts}
        for _ in range(args.repeat):  # the checkouts in turn, so that all meet the same load
            for checkout in checkouts:
                runs[checkout].append(_cpu(command, checkout))
        for checkout, timed in runs.items():
            cpu, wall = sorted(c for c, _ in timed), sorted(w for _, w in timed)
            print(
                f"  {checkout}: CPU {cpu[0]:.3f} / {statistics.median(cpu):.3f} s,"
                f" wall {wall[0]:.3f} / {statistics.median(wall):.3f} s"
            )
    if args.instructions:
        print("\nInstructions of one whole process (valgrind callgrind)")
        commands = [["--version"]] + ([["check", "--jobs", "1", "-q", str(args.check.resolve())]] if args.check else [])
        for checkout in checkouts:
            for command in commands:
                print(f"  {checkout}: tabla {' '.join(command)}: {instructions(command, checkout) / 1e6:,.0f} M")


if __name__ == "__main__":
    main()
