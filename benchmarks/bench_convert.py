"""Conversion speed (matches per second) next to ``tabla check``'s.

Run from the repository root::

    .venv/bin/python benchmarks/bench_convert.py [--repeat 3] [DIR ...]

For the ``.mat`` transcripts of ``tests/data/corpus/mat`` and, when present,
``bench-data/`` (or the folders given), it times, in one process, with the
texts already in memory and the parsers built:

* ``check``: what ``tabla check`` does per file (read, replay, findings);
* ``mat -> sgf``, ``mat -> json`` (and ``mat -> mat``, ``mat -> positions``):
  what ``tabla convert`` does per file (read, replay with every decision
  kept, write), without the file writes.

Each figure is the best of ``--repeat`` runs; the last column is the time
relative to the check.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

from tabla_cli.check import check_text
from tabla_cli.convert import convert_text
from tabla_cli.formats import mat

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "data" / "corpus" / "mat"
BENCH = ROOT / "bench-data"
TARGETS = ("sgf", "json", "mat", "positions")


def best(repeat: int, run: Callable[[], int]) -> tuple[float, int]:
    """(seconds, matches) of the fastest of ``repeat`` runs."""
    times = []
    items = 0
    for _ in range(repeat):
        start = time.perf_counter()
        items = run()
        times.append(time.perf_counter() - start)
    return min(times), items


def transcripts(folder: Path) -> list[tuple[str, str]]:
    """The ``.mat`` transcripts of ``folder`` (by content, whatever their suffix), read into memory."""
    out = []
    for path in sorted(p for p in folder.iterdir() if p.is_file()):
        text = mat.read_text(path)
        if mat.looks_like_mat(text):
            out.append((str(path), text))
    return out


def bench(name: str, items: list[tuple[str, str]], repeat: int) -> None:
    def check() -> int:
        return sum(check_text(text, path).matches for path, text in items)

    def convert(to: str) -> Callable[[], int]:
        def run() -> int:
            return sum(convert_text(text, path, to, check=False).matches for path, text in items)

        return run

    plays = sum(check_text(text, path).plays for path, text in items)
    print(f"\n{name}: {len(items)} files, {plays} plays")
    base, matches = best(repeat, check)
    print(f"  {'check':<16} {matches:5d} matches {base * 1000:9.1f} ms {matches / base:9.1f} matches/s   1.00x")
    for to in TARGETS:
        seconds, count = best(repeat, convert(to))
        print(
            f"  {'mat -> ' + to:<16} {count:5d} matches {seconds * 1000:9.1f} ms {count / seconds:9.1f} matches/s"
            f"   {seconds / base:.2f}x"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("dirs", nargs="*", type=Path)
    args = parser.parse_args()
    folders = args.dirs or [p for p in (CORPUS, BENCH) if p.is_dir()]
    mat._parser()
    for folder in folders:
        bench(str(folder), transcripts(folder), args.repeat)


if __name__ == "__main__":
    main()
