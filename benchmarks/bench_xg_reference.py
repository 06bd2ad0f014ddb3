"""Accuracy against a third engine: tabla's and GNU Backgammon's error totals next to eXtreme Gammon's.

Run from the repository root:

    python benchmarks/bench_xg_reference.py --xg ../shared/corpus/xg --mat ../shared/corpus/mat \
        [--levels 2ply] [--gnubg-python PYTHON] [--gnubg-plies 1] [--only NAME,...]

The inputs are real matches held twice: as eXtreme Gammon ``.xg`` files that
XG analysed (each decision carries XG's error) and as ``.mat`` transcripts of
the same games (``NAME.xg`` next to ``NAME.mat``). For every (match, player):

- XG's total error, read from the ``.xg`` file: the sum of the errors XG
  stored on each checker play (``ErrMove``), each cube decision of the side
  that may double (``ErrCube``) and each answer to a double (``ErrTake``),
  in EMG, from the published record layout (``temp.xg`` in the zlib archive,
  2,560-byte records; bgsage's :mod:`bgsage.xg_file` opens the archive);
- tabla's, from ``tabla analyze NAME.mat --level L --no-cache --by match``
  run as a whole process (start-up, nets and luck included): ``checker_error
  + cube_error``;
- GNU Backgammon's at ``--gnubg-plies`` (default 1, its one-roll look-ahead,
  tabla's 2ply), from ``analyse match`` then ``show statistics match`` in a
  child process of the Python that has the GPL ``gnubg`` package (never
  imported here): the overall "Error total EMG".

It prints one row per (match, player), then for each engine the mean
absolute difference from XG's total, the correlation with it, and the wall
and CPU (user + system) seconds of all its processes (and the load average, as the machine may be
shared); tabla_cli is byte-compiled first, as an installed package is. Both engines use every core by default (tabla's default for one
file; gnubg with ``set threads`` = the cores, as the gnubg package starts with
0 calculation threads, with which ``analyse match`` waits forever), or N
threads each with ``--threads N``. With ``--one-process`` it then also times
each engine over all the matches in one process (as an archive is analysed:
start-up paid once). Nothing is cached between runs.
"""

from __future__ import annotations

import argparse
import compileall
import json
import math
import os
import re
import resource
import struct
import subprocess
import sys
import time
from pathlib import Path

from bgsage import xg_file  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parent.parent
_NOT_ANALYSED = -999.0
# Offsets in a TSaveRec (XG_format.pas, Delphi alignment): the acting side, then the errors.
_CUBE_ACTIF, _CUBE_ERR_CUBE, _CUBE_ERR_TAKE = 12, 200, 216
_MOVE_ACTIF, _MOVE_ERR_MOVE = 64, 2312
_TS_CUBE, _TS_MOVE = 2, 3
_PLAYER = re.compile(r'^; \[Player ([12]) "(.*)"\]', re.M)

GNUBG_SCRIPT = """
import sys, gnubg
plies, threads = sys.argv[2], sys.argv[3]
for command in (f"set threads {threads}", f"set analysis chequerplay evaluation plies {plies}",
                f"set analysis cubedecision evaluation plies {plies}"):
    gnubg.command(command)
for path in sys.argv[1].split(","):
    jacoby = "off" if '[Jacoby "Off"]' in open(path, encoding="utf-8", errors="replace").read(4096) else "on"
    for command in (f"set jacoby {jacoby}", f"import mat {path}", "analyse match", "show statistics match"):
        gnubg.command(command)
"""


def timed(command: list[str], **kwargs: object) -> tuple[subprocess.CompletedProcess[str], float, float]:
    """Run ``command``; its result, wall seconds and CPU seconds (user + system of the child processes)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False, **kwargs)  # type: ignore[call-overload]
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return done, wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def xg_errors(path: Path) -> dict[int, float]:
    """XG's total error (EMG) of each side: 1 is the .mat's Player 1, -1 its Player 2."""
    data = xg_file.XgArchive.load(str(path)).get("temp.xg")
    total = {1: 0.0, -1: 0.0}

    def add(side: int, error: float) -> None:
        if error > _NOT_ANALYSED:
            total[side] += abs(error)

    for offset, kind in xg_file.iter_records(data):
        if kind == _TS_CUBE:
            actif = struct.unpack_from("<i", data, offset + _CUBE_ACTIF)[0]
            add(actif, struct.unpack_from("<d", data, offset + _CUBE_ERR_CUBE)[0])
            add(-actif, struct.unpack_from("<d", data, offset + _CUBE_ERR_TAKE)[0])
        elif kind == _TS_MOVE:
            actif = struct.unpack_from("<i", data, offset + _MOVE_ACTIF)[0]
            add(actif, struct.unpack_from("<d", data, offset + _MOVE_ERR_MOVE)[0])
    return total


def mat_players(path: Path) -> dict[int, str]:
    names = dict(_PLAYER.findall(path.read_text(encoding="utf-8", errors="replace")))
    return {1: names["1"], -1: names["2"]}


def threads_option(threads: int | None) -> list[str]:
    return [] if threads is None else ["--threads", str(threads)]


def tabla_analyze(paths: list[Path], level: str, threads: int | None) -> list[str]:
    """The command of one whole ``tabla analyze`` process over ``paths``: per match, JSON, no cache."""
    return [
        sys.executable,
        "-c",
        "from tabla_cli.cli import main; main()",
        "analyze",
        *map(str, paths),
        *("--level", level, "--no-cache", "--by", "match", "--format", "json", "-j", "1", "--quiet"),
        *threads_option(threads),
    ]


def tabla_errors(path: Path, level: str, threads: int | None) -> tuple[dict[str, float], tuple[float, float]]:
    """tabla's total error per player (EMG), and the wall and CPU seconds of its whole process."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), TABLA_CACHE_DIR=str(Path("/tmp") / "tabla-bench-xg-cache"))
    done, wall, cpu = timed(tabla_analyze([path], level, threads), env=env)
    rows = json.loads(done.stdout)
    return {row["player"]: float(row["checker_error"]) + float(row["cube_error"]) for row in rows}, (wall, cpu)


def gnubg_errors(path: Path, python: str, plies: int, threads: int) -> tuple[list[float], tuple[float, float]]:
    """GNU Backgammon's overall error total (EMG) of Player 1 and 2, and its process's wall and CPU seconds."""
    command = [python, "-c", GNUBG_SCRIPT, str(path), str(plies), str(threads)]
    done, wall, cpu = timed(command, stdin=subprocess.DEVNULL)
    overall = done.stdout[done.stdout.rindex("Overall statistics") :]
    found = re.search(r"^Error total EMG \(\w+\)\s+(-?[\d.]+) \([^)]*\)\s+(-?[\d.]+)", overall, re.M)
    if found is None:
        raise SystemExit(f"{path}: no error totals in gnubg's statistics:\n{done.stdout[-2000:]}{done.stderr}")
    return [abs(float(found.group(1))), abs(float(found.group(2)))], (wall, cpu)


def one_process(paths: list[Path], levels: list[str], python: str, plies: int, threads: int | None) -> dict[str, float]:
    """Wall seconds of each engine analysing all of ``paths`` in one process."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    took: dict[str, float] = {}
    for level in levels:
        start = time.perf_counter()
        subprocess.run(
            tabla_analyze(paths, level, threads),
            capture_output=True,
            env=env,
            check=False,
        )  # exit 1 = a file has findings
        took[f"tabla {level}"] = time.perf_counter() - start
    start = time.perf_counter()
    done = subprocess.run(
        [python, "-c", GNUBG_SCRIPT, ",".join(map(str, paths)), str(plies), str(threads or os.cpu_count())],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    if done.stdout.count("Overall statistics") != len(paths):
        raise SystemExit(f"gnubg analysed {done.stdout.count('Overall statistics')} of {len(paths)} matches")
    took[f"gnubg {plies}-ply"] = time.perf_counter() - start
    return took


def summary(label: str, mine: list[float], xg: list[float], seconds: list[float]) -> str:
    n = len(xg)
    mad = sum(abs(a - b) for a, b in zip(mine, xg)) / n
    mx, my = sum(mine) / n, sum(xg) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(mine, xg))
    sd = math.sqrt(sum((a - mx) ** 2 for a in mine) * sum((b - my) ** 2 for b in xg))
    bias = sum(a - b for a, b in zip(mine, xg)) / n
    return (
        f"{label:<14} mean |diff| {mad:.3f} EMG   bias {bias:+.3f}   r {cov / sd if sd else float('nan'):.3f}"
        f"   {seconds[0]:7.1f} s wall, {seconds[1]:7.1f} s CPU in all"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--xg", type=Path, required=True, help="folder of XG-analysed .xg files")
    parser.add_argument("--mat", type=Path, required=True, help="folder with NAME.mat for each NAME.xg")
    parser.add_argument("--levels", default="2ply", help="tabla levels, comma-separated (default 2ply)")
    parser.add_argument("--gnubg-python", default=sys.executable, help="a Python with the gnubg package")
    parser.add_argument("--gnubg-plies", type=int, default=1, help="gnubg's analysis depth (default 1)")
    parser.add_argument("--only", default="", help="match names (stems), comma-separated")
    parser.add_argument("--one-process", action="store_true", help="also time each engine over all matches at once")
    parser.add_argument("--time-only", action="store_true", help="only the --one-process timing")
    parser.add_argument("--threads", type=int, default=None, help="both engines' threads (default: every core)")
    args = parser.parse_args()
    levels = args.levels.split(",")
    only = set(filter(None, args.only.split(",")))
    pairs = [
        (xg, args.mat / f"{xg.stem}.mat")
        for xg in sorted(args.xg.glob("*.xg"))
        if (args.mat / f"{xg.stem}.mat").is_file() and (not only or xg.stem in only)
    ]
    gnubg_label = f"gnubg {args.gnubg_plies}-ply"
    # Byte-compiled first, as an installed package is (where PYTHONDONTWRITEBYTECODE is set, every
    # process would compile tabla_cli from source again).
    compileall.compile_dir(ROOT / "tabla_cli", quiet=1)
    if args.time_only:
        print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        times = one_process([mat for _, mat in pairs], levels, args.gnubg_python, args.gnubg_plies, args.threads)
        for label, took in times.items():
            print(f"{label:<14} {len(pairs)} matches in one process: {took:7.1f} s")
        print(f"load average at end: {os.getloadavg()[0]:.1f}")
        return
    columns = ["XG", *(f"tabla {level}" for level in levels), gnubg_label]
    values: dict[str, list[float]] = {c: [] for c in columns}
    seconds = {c: [0.0, 0.0] for c in columns}
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"threads: {'every core (tabla default)' if args.threads is None else args.threads} per engine")
    print(f"{'match':<34} {'player':<18}" + "".join(f"{c:>12}" for c in columns))
    for xg, mat in pairs:
        names = mat_players(mat)
        xg_total = xg_errors(xg)
        row: dict[str, list[float]] = {"XG": [xg_total[1], xg_total[-1]]}
        for level in levels:
            found, took = tabla_errors(mat, level, args.threads)
            row[f"tabla {level}"] = [found[names[1]], found[names[-1]]]
            seconds[f"tabla {level}"] = [a + b for a, b in zip(seconds[f"tabla {level}"], took)]
        row[gnubg_label], took = gnubg_errors(
            mat, args.gnubg_python, args.gnubg_plies, args.threads or os.cpu_count() or 1
        )
        seconds[gnubg_label] = [a + b for a, b in zip(seconds[gnubg_label], took)]
        for side, index in ((1, 0), (-1, 1)):
            print(f"{xg.stem[:34]:<34} {names[side][:18]:<18}" + "".join(f"{row[c][index]:12.3f}" for c in columns))
            for c in columns:
                values[c].append(row[c][index])
    print(
        f"\n{len(pairs)} matches, {len(values['XG'])} (match, player) totals; "
        f"load average at end: {os.getloadavg()[0]:.1f}"
    )
    for c in columns[1:]:
        print(summary(c, values[c], values["XG"], seconds[c]))
    if args.one_process:
        times = one_process([mat for _, mat in pairs], levels, args.gnubg_python, args.gnubg_plies, args.threads)
        for label, took in times.items():
            print(f"{label:<14} {len(pairs)} matches in one process: {took:7.1f} s")


if __name__ == "__main__":
    main()
