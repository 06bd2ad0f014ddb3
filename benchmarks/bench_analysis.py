"""Speed of the engine analysis (bgsage): decisions/s per level, and whole matches.

Run from the repository root:

    python benchmarks/bench_analysis.py [--levels 1ply,2ply,3ply] [--threads 1,2]
        [--limit N] [--gnubg PYTHON]

Inputs come from replaying real matches (``tests/data`` and ``examples``): each
roll gives a checker decision and, where the roller may double, a no-double
cube decision on the same position. ``--gnubg`` names a Python that has the
``gnubg`` package (GPL, a separate virtual environment, never imported here):
the same 7-point match is then analysed by GNU Backgammon at its 0-ply in a
child process, for a side-by-side time.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tabla_cli.analysis import cache as analysis_cache  # noqa: E402
from tabla_cli.analysis.engine import analyse  # noqa: E402
from tabla_cli.analysis.types import CubeAction, DecisionInput, DecisionKind  # noqa: E402
from tabla_cli.model import Match  # noqa: E402
from tabla_cli.reader import read_path_matches  # noqa: E402
from tabla_cli.replay import replay_match  # noqa: E402

SHARED = next((p for p in (ROOT.parent / "shared", ROOT.parent.parent / "shared") if p.is_dir()),
              ROOT.parent / "shared")
CORPUS = SHARED / "corpus" / "mat"
MATCH_7 = CORPUS / "bglab-Llabba-crayon_-_Llabba_7pt_Backgammon_Studio_2023_05_23_13_07_53.txt"


def decisions_of(match: Match) -> list[DecisionInput]:
    """Checker decisions of every roll, and a no-double decision where the roller could double."""
    out: list[DecisionInput] = []
    result = replay_match(match, collect=True)
    money = match.length == 0
    for game in result.games:
        away = (0, 0) if money else (match.length - game.score[0], match.length - game.score[1])
        for d in game.decisions:
            player = d.action.player
            common = dict(
                position=d.position, on_roll=player, actor=player, cube=d.cube,
                cube_owner=d.cube_owner, away=away, crawford=game.crawford,
                jacoby=money and match.rules.jacoby, beavers=money and match.rules.beaver,
            )
            may_double = d.cube_owner in (None, player) and not game.crawford and (
                money or d.cube < away[player])
            if may_double and d.position.mover != d.position.opponent:
                out.append(DecisionInput(kind=DecisionKind.DOUBLE,
                                         cube_action=CubeAction.NO_DOUBLE, **common))  # type: ignore[arg-type]
            played = d.position.apply(d.play) if d.play is not None else None
            out.append(DecisionInput(kind=DecisionKind.CHECKER, dice=d.action.dice,
                                     played=played, **common))  # type: ignore[arg-type]
    return out


def corpus(limit: int) -> list[DecisionInput]:
    decisions: list[DecisionInput] = []
    for path in sorted(CORPUS.iterdir()):
        try:
            for match in read_path_matches(path):
                if not match.variant:
                    decisions.extend(decisions_of(match))
        except Exception:  # noqa: BLE001 - a benchmark skips unreadable files
            continue
        if len(decisions) >= limit:
            break
    return decisions[:limit]


def rate(decisions: list[DecisionInput], level: str, threads: int, luck: bool) -> tuple[float, float]:
    start = time.perf_counter()
    analyse(decisions, level, threads, luck=luck)
    seconds = time.perf_counter() - start
    return len(decisions) / seconds, seconds


def gnubg_time(python: str, mat: Path) -> float | None:
    """Seconds GNU Backgammon takes to analyse ``mat`` at 0-ply (in a child process)."""
    script = f"""
import time, gnubg
gnubg.command('set threads 1')
gnubg.command('set analysis chequerplay evaluation plies 0')
gnubg.command('set analysis cubedecision evaluation plies 0')
gnubg.command('set analysis luckanalysis plies 0')
gnubg.command('import mat {mat}')
t = time.perf_counter()
gnubg.command('analyse match')
print(time.perf_counter() - t)
"""
    try:
        done = subprocess.run([python, "-c", script], capture_output=True, text=True, timeout=600)
        return float(done.stdout.strip().splitlines()[-1])
    except (OSError, ValueError, IndexError, subprocess.TimeoutExpired):
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="1ply,2ply,3ply")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--limit", type=int, default=400, help="decisions per measurement")
    parser.add_argument("--match", type=Path, default=MATCH_7, help="the 7-point match to time")
    parser.add_argument("--gnubg", help="a Python with the gnubg package, for the side-by-side")
    args = parser.parse_args()
    levels = args.levels.split(",")
    threads = [int(t) for t in args.threads.split(",")]
    decisions = corpus(args.limit)
    checker = sum(1 for d in decisions if d.kind is DecisionKind.CHECKER)
    print(f"{len(decisions)} decisions ({checker} checker, {len(decisions) - checker} cube)")
    analyse(decisions[:4], "1ply")  # load the nets once
    for level in levels:
        sample = decisions if level != "3ply" else decisions[: max(20, args.limit // 10)]
        for n in threads:
            for luck in (False, True):
                per_s, seconds = rate(sample, level, n, luck)
                print(f"{level} threads={n} luck={'on ' if luck else 'off'}: "
                      f"{per_s:8.1f} decisions/s ({len(sample)} in {seconds:.2f} s)")
    match = next(iter(read_path_matches(args.match)))
    whole = decisions_of(match)
    print(f"7-point match {args.match.name}: {len(whole)} decisions")
    for level in ("1ply", "2ply"):
        for n in threads:
            per_s, seconds = rate(whole, level, n, True)
            print(f"  {level} threads={n}: {seconds:.2f} s ({per_s:.0f} decisions/s)")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["TABLA_CACHE_DIR"] = tmp
        start = time.perf_counter()
        analysis_cache.analyse_cached(whole, "1ply")
        cold = time.perf_counter() - start
        start = time.perf_counter()
        analysis_cache.analyse_cached(whole, "1ply")
        warm = time.perf_counter() - start
        print(f"  cache (1ply): cold {cold:.2f} s, warm {warm:.3f} s")
    if args.gnubg:
        seconds = gnubg_time(args.gnubg, args.match)
        shown = "failed" if seconds is None else f"{seconds:.2f} s"
        print(f"  GNU Backgammon 0-ply analysis of the same match: {shown}")
    print(json.dumps({"levels": levels, "threads": threads}))


if __name__ == "__main__":
    main()
