"""``tabla index`` and ``tabla positions``: build time per 1,000 matches, the second (unchanged) run, one changed
file, query latency and database size, SQLite next to PostgreSQL.

    PYTHONPATH=$PWD python benchmarks/bench_index.py DIR [--jobs 2] [--scale 1777] [--no-postgres]

DIR holds the archive (e.g. ``bench-data/plain`` from ``gen_matches.py``). The
queries are timed on the index as built and, with ``--scale N``, on an index
whose decisions are copied until it holds as many as N matches of the archive
would (the copies only make the tables larger: the same rows under other paths).
PostgreSQL: ``$TABLA_TEST_POSTGRES``, else a throw-away server started as the tests
start one (``tests/pg_server.py``); ``--no-postgres`` leaves it out. Prints figures;
asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import shutil
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
