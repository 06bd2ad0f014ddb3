"""Reading GNU Backgammon text exports, with their recorded analysis: MB/s and records/s.

    python benchmarks/bench_gnubg_text.py [DIR]

Without an argument it reads tests/data/corpus/txt. CPU time (process time),
best of 9 runs, so that other processes on the machine count less.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from tabla_cli.formats import gnubg_text

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "tests" / "data" / "corpus" / "txt"
    texts = [(str(p), p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.txt"))]
    records = sum(len(e.positions) for p, t in texts for e in gnubg_text.parse_exports(t, path=p))
    best = float("inf")
    for _ in range(9):
        start = time.process_time()
        for path, text in texts:
            gnubg_text.parse_exports(text, path=path)
        best = min(best, time.process_time() - start)
    megabytes = sum(len(t) for _, t in texts) / 1e6
    print(f"{folder}: {len(texts)} files, {megabytes:.2f} MB, {records} records")
    print(f"  read with analysis: {best * 1000:7.1f} ms  {megabytes / best:6.2f} MB/s  {records / best:8.0f} records/s")


if __name__ == "__main__":
    main()
