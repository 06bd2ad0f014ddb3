"""``tabla index`` and ``tabla positions``: build time per 1,000 matches, the second (unchanged) run, one changed
file, query latency, a whole ``tabla positions`` process in each format, and database size, SQLite next to PostgreSQL.

    PYTHONPATH=$PWD python benchmarks/bench_index.py DIR [--jobs 2] [--scale 1777] [--no-postgres]

DIR holds the archive (e.g. ``bench-data/plain`` from ``gen_matches.py``). The
queries are timed on the index as built and, with ``--scale N``, on an index
whose decisions are copied until it holds as many as N matches of the archive
would (the copies only make the tables larger: the same rows under other paths).
Each query is timed in this process (:func:`find_positions`, best of 3); the
by-luck query of one player is also run as ``tabla positions`` processes, one
per format (wall time, and the process's CPU time: PostgreSQL's own is not in
it), the Anki deck and the quiz for its first :data:`DRAWN` decisions only
(they draw a board for each).
PostgreSQL: ``$TABLA_TEST_POSTGRES``, else a throw-away server started as the tests
start one (``tests/pg_server.py``); ``--no-postgres`` leaves it out. Prints figures;
asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from tabla_cli.study.index import IndexOptions, index_paths  # noqa: E402
from tabla_cli.study.query import PositionFilter, find_positions  # noqa: E402
from tabla_cli.study.store import Store, open_store  # noqa: E402

QUERIES: dict[str, PositionFilter] = {
    "worst 50 checker errors": PositionFilter(kind="checker", limit=50),
    "blunders (error > 0.12)": PositionFilter(rating="blunder"),
    "takes with an error >= 0.05": PositionFilter(kind="take", min_error=0.05),
    "middle game, missed hits, 64s, first 100": PositionFilter(tags=("middle", "missed-hit"), dice=("64",), limit=100),
    "one player's decisions, by luck": PositionFilter(players=("Lena",), sort="luck"),
    "everything, file order": PositionFilter(sort="order"),
}


CLI_QUERY = ("--player", "Lena", "--sort", "luck")
"""The by-luck query of :data:`QUERIES`, as ``tabla positions`` options."""

DRAWN = (100, 1000)
"""How many decisions the timed Anki decks and quiz pages hold."""

_ROOT = Path(__file__).resolve().parent.parent


def process(args: list[str], stdout: Path) -> tuple[float, float]:
    """Run ``tabla ARGS`` (its output into ``stdout``); its wall and CPU seconds (user and system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with stdout.open("wb") as out:
        command = [sys.executable, "-c", "from tabla_cli.cli import main; main()", *args]
        subprocess.run(command, stdout=out, cwd=_ROOT, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def processes(target: str, work: Path) -> None:
    """Time the by-luck query as ``tabla positions`` processes, in each format (best of 3 wall, its CPU)."""
    runs: list[tuple[str, list[str]]] = [(fmt, ["--format", fmt]) for fmt in ("table", "json", "csv", "xgid", "ids")]
    for count in DRAWN:
        for fmt, suffix in (("anki", "apkg"), ("html", "html")):
            out = str(work / f"deck.{suffix}")
            runs.append((f"{fmt}, first {count}", ["--limit", str(count), "-o", out, "--force"]))
    for label, extra in runs:
        times = [process(["positions", "--db", target, *CLI_QUERY, *extra, "-q"], work / "out") for _ in range(3)]
        wall, cpu = min(times)
        size = (work / "out").stat().st_size
        print(
            f"  tabla positions {' '.join(CLI_QUERY)}, {label:16s} {wall:6.2f} s wall, {cpu:5.2f} s CPU"
            + (f" ({size / 1e6:.1f} MB out)" if size else "")
        )


def timed(work: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def best_of(work: Callable[[], Any], repeat: int = 3) -> float:
    return min(timed(work)[0] for _ in range(repeat))


def matches_of(store: Store) -> int:
    return int(store.query("SELECT COUNT(*) FROM matches")[0][0])


def size_of(store: Store) -> int:
    if store.postgres:
        return int(store.query("SELECT pg_database_size(current_database())")[0][0])
    return sum(os.path.getsize(store.target + s) for s in ("", "-wal") if os.path.exists(store.target + s))


def inflate(store: Store, matches: int) -> int:
    """Copy the decisions (under other paths) until they stand for ``matches`` matches; the decisions now."""
    have = matches_of(store)
    decisions = int(store.query("SELECT COUNT(*) FROM decisions")[0][0])
    copies = max(0, -(-matches // max(have, 1)) - 1)
    first = store.query_dicts("SELECT * FROM decisions LIMIT 1")
    columns = list(first[0]) if first else []
    rest = ", ".join(f'"{c}"' for c in columns if c != "path")
    for copy in range(copies):
        with store.transaction() as cursor:
            cursor.execute(
                store.sql(
                    f"INSERT INTO decisions (path, {rest}) SELECT ? || path, {rest} FROM decisions WHERE path NOT LIKE ?"
                ),
                (f"copy{copy}/", "copy%"),
            )
    if store.postgres:
        store.connection.autocommit = True
        store.connection.execute("VACUUM ANALYZE decisions")
        store.connection.autocommit = False
    else:
        store.query("ANALYZE")
    return decisions * (copies + 1)


def run(label: str, target: str, archive: Path, jobs: int, scale: int | None) -> None:
    work = Path(tempfile.mkdtemp(prefix="bench-index-"))
    try:
        copy = work / "archive"
        shutil.copytree(archive, copy)
        options = IndexOptions()
        first, summary = timed(lambda: index_paths([str(copy)], target, options, jobs=jobs))
        with open_store(target, create=False) as store:
            matches = matches_of(store)
            size = size_of(store)
        second, again = timed(lambda: index_paths([str(copy)], target, options, jobs=jobs))
        changed = sorted(p for p in copy.rglob("*") if p.is_file())[0]
        changed.write_bytes(changed.read_bytes() + b"\n")
        third, one = timed(lambda: index_paths([str(copy)], target, options, jobs=jobs))
        print(f"\n{label}: {summary.files} files, {matches} matches, {summary.decisions} decisions, jobs {jobs}")
        print(f"  first index       {first:8.2f} s  ({first / matches * 1000:.1f} s per 1,000 matches)")
        print(f"  again, unchanged  {second:8.3f} s  ({second / first:.2%} of the first; {again.skipped} skipped)")
        print(f"  one file changed  {third:8.3f} s  ({one.indexed} read again)")
        print(f"  database size     {size / 1e6:8.1f} MB  ({size / matches / 1e3:.0f} kB per match)")
        with open_store(target, create=False) as store:
            for name, flt in QUERIES.items():
                seconds = best_of(lambda flt=flt: find_positions(store, flt))
                print(f"  query: {name:45s} {seconds * 1000:8.1f} ms ({len(find_positions(store, flt))} rows)")
            if scale:
                decisions = inflate(store, scale)
                print(f"  scaled to {scale} matches' decisions ({decisions} rows), size {size_of(store) / 1e6:.1f} MB:")
                for name, flt in QUERIES.items():
                    seconds = best_of(lambda flt=flt: find_positions(store, flt))
                    print(f"  query: {name:45s} {seconds * 1000:8.1f} ms ({len(find_positions(store, flt))} rows)")
        processes(target, work)
        print(f"  load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("archive", type=Path)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--scale", type=int, default=None, metavar="MATCHES")
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-index-db-"))
    try:
        run("SQLite", str(folder / "index.sqlite"), args.archive, args.jobs, args.scale)
        if not args.no_postgres:
            from pg_server import fresh_database, server

            with server() as url:
                run("PostgreSQL", fresh_database(url, "tabla_bench"), args.archive, args.jobs, args.scale)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
