"""Speed of ``tabla analyze``'s engine analysis (bgsage), through the visitor path.

Run from the repository root:

    python benchmarks/bench_analysis.py [--levels 1ply,2ply,3ply] [--jobs 2]
        [--match PATH] [--gnubg PYTHON] [--no-cli]

Every figure analyses whole files with
:func:`tabla_cli.analysis.decisions.analyse_file` (the replay's visitor
stream, the engine in one batch per file, no cache, no recorded analysis),
as ``tabla analyze --no-cache --no-recorded`` does. The inputs are the
generated matches of ``tests/data/generated`` (GNU Backgammon self-play, see
tests/data/SOURCES.md): all of them at 1ply, the smallest two at 2ply and the
first moves of one at 3ply. Wall and CPU seconds are both printed: on a shared machine the CPU
time of a one-thread run is the steadier figure.

Then the CLI (a fresh process: imports and the nets' loading included) with
``--jobs 1`` and ``--jobs N``, and one 7-point match: at 1ply next to GNU
Backgammon's own analysis of it at its 0-ply (the raw net, with luck, as
gnubg analyses by default), and at 2ply on one core. ``--gnubg`` names a
Python that has the ``gnubg`` package (GPL, its own virtual environment,
never imported here); gnubg runs in a child process.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tabla_cli.analysis.decisions import AnalysisOptions, analyse_file, analyse_text  # noqa: E402

GENERATED = ROOT / "tests" / "data" / "generated"
SHARED = next((p for p in (ROOT.parent / "shared", ROOT.parent.parent / "shared") if p.is_dir()),
              ROOT.parent / "shared")
MATCH_7 = SHARED / "corpus" / "mat" / "bglab-Llabba-crayon_-_Llabba_7pt_Backgammon_Studio_2023_05_23_13_07_53.txt"
FILES_PER_LEVEL = {"1ply": 8, "2ply": 2}
OPENING_MOVES = 2
"""3ply runs on the first moves of the first game only (a whole match takes minutes)."""


def run_files(files: list[Path], level: str, luck: bool) -> tuple[int, float, float]:
    """Decisions, wall seconds and CPU seconds of analysing ``files`` in this process."""
    options = AnalysisOptions(level=level, recorded=False, cache=False, threads=1, luck=luck)
    wall, cpu = time.perf_counter(), time.process_time()
    decisions = sum(analyse_file(str(path), options).decisions for path in files)
    return decisions, time.perf_counter() - wall, time.process_time() - cpu


def run_opening(path: Path, level: str, luck: bool) -> tuple[int, float, float]:
    """As :func:`run_files` on the first :data:`OPENING_MOVES` move lines of ``path`` (a Jellyfish file)."""
    lines = path.read_text().splitlines()
    last = next(i for i, text in enumerate(lines) if text.strip().startswith(f"{OPENING_MOVES})"))
    text = "\n".join(lines[: last + 1]) + "\n"
    options = AnalysisOptions(level=level, recorded=False, cache=False, threads=1, luck=luck)
    wall, cpu = time.perf_counter(), time.process_time()
    decisions = analyse_text(text, str(path), options).decisions
    return decisions, time.perf_counter() - wall, time.process_time() - cpu


def line(label: str, decisions: int, wall: float, cpu: float) -> str:
    return (f"{label:<34} {decisions:5d} decisions  wall {wall:7.2f} s {decisions / wall:8.1f}/s  "
            f"cpu {cpu:7.2f} s {decisions / cpu:8.1f}/s")


def cli_seconds(files: list[Path], level: str, jobs: int, luck: bool) -> float:
    """Wall seconds of ``tabla analyze`` over ``files`` in a fresh process (output discarded)."""
    command = [sys.executable, "-c", "from tabla_cli.cli import main; main()", "analyze", "--level", level,
               "--no-cache", "--no-recorded", "--quiet", "--format", "csv", "--jobs", str(jobs)]
    if not luck:
        command.append("--no-luck")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    start = time.perf_counter()
    subprocess.run(command + [str(f) for f in files], check=True, env=env, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


GNUBG_SCRIPT = """
import sys, time, gnubg
for c in ("set threads 1", "set analysis chequerplay evaluation plies 0",
          "set analysis cubedecision evaluation plies 0", "set analysis luckanalysis plies 0"):
    gnubg.command(c)
gnubg.command('import mat "' + sys.argv[1] + '"')
wall, cpu = time.perf_counter(), time.process_time()
gnubg.command("analyse match")
print(time.perf_counter() - wall, time.process_time() - cpu, file=sys.stderr)
"""


def gnubg_seconds(python: str, match: Path) -> tuple[float, float] | None:
    """Wall and CPU seconds GNU Backgammon takes to analyse ``match`` at its 0-ply (child process)."""
    try:
        done = subprocess.run([python, "-c", GNUBG_SCRIPT, str(match)], capture_output=True, text=True,
                              timeout=900)
        wall, cpu = done.stderr.strip().splitlines()[-1].split()
        return float(wall), float(cpu)
    except (OSError, ValueError, IndexError, subprocess.TimeoutExpired):
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--levels", default="1ply,2ply,3ply")
    parser.add_argument("--jobs", type=int, default=2, help="processes for the CLI runs")
    parser.add_argument("--match", type=Path, default=MATCH_7, help="the 7-point match to time")
    parser.add_argument("--gnubg", help="a Python with the gnubg package, for the side-by-side")
    parser.add_argument("--no-cli", action="store_true", help="skip the CLI runs")
    args = parser.parse_args()
    os.environ["TABLA_CACHE_DIR"] = tempfile.mkdtemp(prefix="tabla-bench-")
    files = sorted(GENERATED.glob("*.mat"), key=lambda p: p.stat().st_size)
    run_files(files[:1], "1ply", True)  # load the nets once
    for level in args.levels.split(","):
        for luck in (False, True):
            if level in FILES_PER_LEVEL:
                decisions, wall, cpu = run_files(files[: FILES_PER_LEVEL[level]], level, luck)
            else:
                decisions, wall, cpu = run_opening(files[0], level, luck)
            print(line(f"{level} one process luck {'on' if luck else 'off'}", decisions, wall, cpu), flush=True)
    if not args.no_cli:
        decisions = sum(analyse_file(str(f), AnalysisOptions(level="1ply", recorded=False, luck=False)).decisions
                        for f in files)
        for jobs in sorted({1, args.jobs}):
            for luck in (False, True):
                wall = cli_seconds(files, "1ply", jobs, luck)
                print(f"{'1ply CLI --jobs ' + str(jobs) + ' luck ' + ('on' if luck else 'off'):<34} "
                      f"{decisions:5d} decisions  wall {wall:7.2f} s {decisions / wall:8.1f}/s", flush=True)
    match = args.match if args.match.is_file() else files[-1]
    print(f"match {match.name}")
    for level in ("1ply", "2ply"):
        decisions, wall, cpu = run_files([match], level, True)
        print(line(f"  tabla {level} luck on, one core", decisions, wall, cpu), flush=True)
    if args.gnubg:
        seconds = gnubg_seconds(args.gnubg, match)
        shown = "failed" if seconds is None else f"wall {seconds[0]:7.2f} s  cpu {seconds[1]:7.2f} s"
        print(f"  GNU Backgammon 0-ply analyse match (luck on): {shown}")


if __name__ == "__main__":
    main()
