"""Speed of ``tabla analyze``'s engine analysis (bgsage), through the visitor path.

Run from the repository root:

    python benchmarks/bench_analysis.py [--levels 1ply,2ply,3ply] [--jobs 2] [--threads 2]
        [--match PATH] [--gnubg PROGRAM] [--no-cli]

Every figure analyses whole files with
:func:`tabla_cli.analysis.decisions.analyse_file` (the replay's visitor
stream, the engine in batches over the whole file, no cache, no recorded
analysis), as ``tabla analyze --no-cache --no-recorded`` does. The inputs are
the generated matches of ``tests/data/generated`` (GNU Backgammon self-play,
see tests/data/SOURCES.md): all of them at 1ply, the smallest two at 2ply and
the smallest at 3ply. Wall and CPU seconds are both printed: on a shared
machine the CPU time of a one-thread run is the steadier figure.

Then the CLI (a fresh process: imports and the nets' loading included) with
``--jobs 1`` and ``--jobs N``, and one 7-point match of the corpus
(``tests/data/corpus/mat``): at 1ply next to GNU Backgammon's own analysis of
it at its 0-ply (the raw net, with luck at 0-ply, as gnubg analyses by
default), both on one thread and both on ``--threads``, and at 2ply on one
core. ``--gnubg`` names GNU Backgammon: its program (Debian's
``/usr/games/gnubg``, run as ``gnubg -t -q -r -p SCRIPT``, the default when
installed) or a Python that has the ``gnubg`` PyPI package (GPL, its own
virtual environment, never imported here). gnubg runs in a child process and
times its own ``analyse match`` (the nets' loading left out, as here).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tabla_cli.analysis.decisions import AnalysisOptions  # noqa: E402
from tabla_cli.analysis.file_analysis import analyse_file  # noqa: E402

GENERATED = ROOT / "tests" / "data" / "generated"
MATCH_7 = (
    ROOT
    / "tests"
    / "data"
    / "corpus"
    / "mat"
    / ("bglab-Llabba-crayon_-_Llabba_7pt_Backgammon_Studio_2023_05_23_13_07_53.txt")
)
FILES_PER_LEVEL = {"1ply": 8, "2ply": 2, "3ply": 1}
GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if Path("/usr/games/gnubg").is_file() else None)


def run_files(files: list[Path], level: str, luck: bool, threads: int = 1) -> tuple[int, float, float]:
    """Decisions, wall seconds and CPU seconds of analysing ``files`` in this process."""
    options = AnalysisOptions(level=level, recorded=False, cache=False, threads=threads, luck=luck)
    wall, cpu = time.perf_counter(), time.process_time()
    decisions = sum(analyse_file(str(path), options).decisions for path in files)
    return decisions, time.perf_counter() - wall, time.process_time() - cpu


def line(label: str, decisions: int, wall: float, cpu: float) -> str:
    return (
        f"{label:<34} {decisions:5d} decisions  wall {wall:7.2f} s {decisions / wall:8.1f}/s  "
        f"cpu {cpu:7.2f} s {decisions / cpu:8.1f}/s"
    )


def cli_seconds(files: list[Path], level: str, jobs: int, luck: bool) -> float:
    """Wall seconds of ``tabla analyze`` over ``files`` in a fresh process (output discarded)."""
    command = [
        sys.executable,
        "-c",
        "from tabla_cli.cli import main; main()",
        "analyze",
        "--level",
        level,
        "--no-cache",
        "--no-recorded",
        "--quiet",
        "--format",
        "csv",
        "--jobs",
        str(jobs),
    ]
    if not luck:
        command.append("--no-luck")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    start = time.perf_counter()
    subprocess.run(command + [str(f) for f in files], check=True, env=env, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


GNUBG_SCRIPT = """
import sys, time, gnubg
for c in ("set threads {threads}", "set analysis chequerplay evaluation plies 0",
          "set analysis cubedecision evaluation plies 0", "set analysis luckanalysis plies 0",
          "set analysis luck {luck}"):
    gnubg.command(c)
gnubg.command('import mat "' + {match!r} + '"')
wall, cpu = time.perf_counter(), time.process_time()
gnubg.command("analyse match")
print("SECONDS", time.perf_counter() - wall, time.process_time() - cpu, file=sys.stderr)
"""


def gnubg_seconds(program: str, match: Path, threads: int, luck: bool = True) -> tuple[float, float] | None:
    """Wall and CPU seconds GNU Backgammon takes to analyse ``match`` at its 0-ply (child process).

    Args:
        program: the gnubg program, or a Python with the gnubg package.
        match: the match file (Jellyfish ``.mat`` text).
        threads: gnubg's ``set threads``.
        luck: gnubg's ``set analysis luck`` (on by default in gnubg).
    """
    script = GNUBG_SCRIPT.format(threads=threads, match=str(match.resolve()), luck="on" if luck else "off")
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as handle:
        handle.write(script)
    if "python" in Path(program).name:
        command = [program, handle.name]
    else:
        command = [program, "-t", "-q", "-r", "-p", handle.name]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=900, stdin=subprocess.DEVNULL)
        found = [text for text in (done.stdout + done.stderr).splitlines() if text.startswith("SECONDS ")]
        _, wall, cpu = found[-1].split()
        return float(wall), float(cpu)
    except (OSError, ValueError, IndexError, subprocess.TimeoutExpired):
        return None
    finally:
        os.unlink(handle.name)


def gnubg_line(label: str, seconds: tuple[float, float] | None, decisions: int) -> str:
    if seconds is None:
        return f"{label:<34} failed"
    wall, cpu = seconds
    return (
        f"{label:<34} {decisions:5d} decisions  wall {wall:7.2f} s {decisions / wall:8.1f}/s  "
        f"cpu {cpu:7.2f} s {decisions / cpu:8.1f}/s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--levels", default="1ply,2ply,3ply")
    parser.add_argument("--jobs", type=int, default=2, help="processes for the CLI runs")
    parser.add_argument("--threads", type=int, default=2, help="engine threads for the multi-thread match runs")
    parser.add_argument("--match", type=Path, default=MATCH_7, help="the 7-point match to time")
    parser.add_argument("--gnubg", default=GNUBG, help="gnubg program or a Python with the gnubg package")
    parser.add_argument("--no-cli", action="store_true", help="skip the CLI runs")
    args = parser.parse_args()
    os.environ["TABLA_CACHE_DIR"] = tempfile.mkdtemp(prefix="tabla-bench-")
    files = sorted(GENERATED.glob("*.mat"), key=lambda p: p.stat().st_size)
    run_files(files[:1], "1ply", True)  # load the nets once
    for level in args.levels.split(","):
        for luck in (False, True):
            decisions, wall, cpu = run_files(files[: FILES_PER_LEVEL[level]], level, luck)
            print(line(f"{level} one process luck {'on' if luck else 'off'}", decisions, wall, cpu), flush=True)
    if not args.no_cli:
        decisions = sum(
            analyse_file(str(f), AnalysisOptions(level="1ply", recorded=False, luck=False)).decisions for f in files
        )
        for jobs in sorted({1, args.jobs}):
            for luck in (False, True):
                wall = cli_seconds(files, "1ply", jobs, luck)
                print(
                    f"{'1ply CLI --jobs ' + str(jobs) + ' luck ' + ('on' if luck else 'off'):<34} "
                    f"{decisions:5d} decisions  wall {wall:7.2f} s {decisions / wall:8.1f}/s",
                    flush=True,
                )
    match = args.match
    print(f"match {match.name}")
    decisions, wall, cpu = run_files([match], "1ply", False)
    print(line("  tabla 1ply, no luck, 1 thread", decisions, wall, cpu), flush=True)
    if args.gnubg:
        print(gnubg_line("  gnubg 0-ply, no luck, 1 thread", gnubg_seconds(args.gnubg, match, 1, False), decisions))
    for threads in sorted({1, args.threads}):
        decisions, wall, cpu = run_files([match], "1ply", True, threads)
        print(line(f"  tabla 1ply, luck, {threads} thread(s)", decisions, wall, cpu), flush=True)
        if args.gnubg:
            print(
                gnubg_line(
                    f"  gnubg 0-ply, luck, {threads} thread(s)", gnubg_seconds(args.gnubg, match, threads), decisions
                ),
                flush=True,
            )
    decisions, wall, cpu = run_files([match], "2ply", True)
    print(line("  tabla 2ply, luck, one core", decisions, wall, cpu), flush=True)


if __name__ == "__main__":
    main()
