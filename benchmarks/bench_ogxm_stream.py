"""``tabla check`` on an OGXM stream of many matches against the same matches as one ``.mat`` file.

    python benchmarks/bench_ogxm_stream.py [--matches 10000] [--rolls 6] [--keep DIR]
    python benchmarks/bench_ogxm_stream.py --corpus 20 [--keep DIR]

Makes ``--matches`` short money games (``--rolls`` random legal rolls, then a
double and a pass; seeded, so every run makes the same matches) as match
models, writes them with tabla's own writers as one ``.ogxms`` stream
(:class:`~tabla_cli.writers.ogxm.OgxmWriter`), the same stream compressed
with zstandard, one ``.mat`` file (:class:`~tabla_cli.writers.mat.MatWriter`)
and a stream of a tenth of the matches, then runs ``tabla check --quiet`` on
each in a child process and prints its wall time, matches per second, CPU
time (user and system, which a loaded machine moves less than the wall time)
and peak resident memory (the child's ``VmHWM``: see :func:`run_check`). Short games keep the run
under two minutes while the number of matches is a month's dump; the replay
costs the same in both formats, so the difference is the reading. With
``--corpus N`` the matches are instead the seven legal ``gammonview-*.mat``
matches of ``tests/data/corpus/mat`` (7 and 5 points, about 150 rolls each),
N times over: full-length matches. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tabla_cli.board import Player  # noqa: E402
from tabla_cli.errors import Location  # noqa: E402
from tabla_cli.model import Action, ActionKind, Game, Match  # noqa: E402
from tabla_cli.replay import replay  # noqa: E402
from tabla_cli.variant import find_variant  # noqa: E402
from tabla_cli.writers.mat import MatWriter  # noqa: E402
from tabla_cli.writers.ogxm import OgxmWriter  # noqa: E402


def short_match(rng: random.Random, rolls: int, index: int) -> Match:
    """A money game of ``rolls`` random legal plays, then a double and a pass."""
    game_rules = find_variant("")
    position = game_rules.start_position()
    where = Location("bench.mat")
    actions = []
    player = Player(rng.randrange(2))
    for turn in range(rolls):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        while turn == 0 and dice[0] == dice[1]:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = list(game_rules.legal_plays(position, dice).items())
        after, play = rng.choice(plays) if plays else (position, ())
        actions.append(Action(ActionKind.ROLL, player, where, turn + 1, dice, game_rules.format_play(position, play)))
        position = after.flip()
        player = player.other
    actions.append(Action(ActionKind.DOUBLE, player, where, rolls + 1, value=2))
    actions.append(Action(ActionKind.DROP, player.other, where, rolls + 1))
    actions.append(Action(ActionKind.WIN, player, where, value=1))
    game = Game(1, (0, 0), actions, location=where)
    return Match((f"Player{index % 97}", f"Other{index % 89}"), 0, games=[game], path="bench.mat", location=where)


def write(matches: list[Match], writer: OgxmWriter | MatWriter) -> bytes:
    for match in matches:
        replay(match, writer)
    out = writer.result()
    return out if isinstance(out, bytes) else out.encode("utf-8")


CHILD = """
import sys
from tabla_cli.cli import main

path, report = sys.argv[1:3]
sys.argv = ["tabla", "check", "--quiet", path]
try:
    main()
finally:
    with open("/proc/self/status") as status, open(report, "w") as out:
        out.write(next((line.split()[1] for line in status if line.startswith("VmHWM:")), ""))
"""
"""The child: ``tabla check``, then its peak resident memory (kB) from ``/proc/self/status`` into a file."""


def run_check(path: Path) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system) and peak RSS (MiB) of ``tabla check --quiet PATH`` in a child
    process.

    The peak is the child's own ``VmHWM``, which starts afresh when it
    executes Python: ``ru_maxrss`` from ``os.wait4`` counts the pages the
    child shared with this process (which holds every match made) before it
    did, so it gives this process's size, whatever tabla's.
    """
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as report:
        start = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(path), report.name], env=env, stderr=subprocess.DEVNULL
        )
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        peak = report.read().strip()
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"tabla check failed on {path}")
    rss = int(peak) / 1024 if peak.isdigit() else usage.ru_maxrss / 1024
    return seconds, usage.ru_utime + usage.ru_stime, rss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--rolls", type=int, default=6)
    parser.add_argument("--corpus", type=int, default=0, metavar="N", help="the corpus's matches, N times over")
    parser.add_argument("--keep", type=Path, help="write the files here (kept) rather than in a temporary folder")
    args = parser.parse_args()
    import zstandard

    if args.corpus:
        from tabla_cli.reader import read_path_matches

        names = sorted((ROOT / "tests" / "data" / "corpus" / "mat").glob("gammonview-*.mat"))
        legal = [m for path in names if "5nqf" not in path.name for m in read_path_matches(path)]
        matches = legal * args.corpus
        args.matches = len(matches)
    else:
        rng = random.Random(2026)
        matches = [short_match(rng, args.rolls, i) for i in range(args.matches)]
    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench-ogxm-"))
    folder.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    stream = write(matches, OgxmWriter())
    written = time.perf_counter() - start
    files = {
        f"{args.matches} matches, .ogxms": (folder / "all.ogxms", stream),
        f"{args.matches} matches, .ogxms.zst": (folder / "all.ogxms.zst", zstandard.ZstdCompressor().compress(stream)),
        f"{args.matches} matches, .mat": (folder / "all.mat", write(matches, MatWriter())),
        f"{args.matches // 10} matches, .ogxms": (
            folder / "tenth.ogxms",
            write(matches[: args.matches // 10], OgxmWriter()),
        ),
    }
    print(
        f"wrote {args.matches} matches as OGXM in {written:.1f} s ({args.matches / written:.0f} matches/s)", flush=True
    )
    for path, data in files.values():
        path.write_bytes(data)
    for label, (path, data) in files.items():
        seconds, cpu, rss = run_check(path)
        count = args.matches // 10 if label.startswith(f"{args.matches // 10} ") else args.matches
        print(
            f"{label:32} {len(data) / 1e6:7.2f} MB  check {seconds:6.1f} s  {count / seconds:6.0f} matches/s  "
            f"CPU {cpu:6.1f} s  peak RSS {rss:6.0f} MiB",
            flush=True,
        )


if __name__ == "__main__":
    main()
