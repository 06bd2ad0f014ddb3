"""Read and write speed of the SGF, gnubg text and FIBS formats (matches per second).

Run from the repository root::

    .venv/bin/python benchmarks/bench_formats.py [--repeat 3]

It reads the corpus (``tests/data/corpus``), the FIBS test files and, when
present, the generated ``bench-data/`` (gnubg's own .mat/.sgf/.txt triples
made with ``shared/tools/gen_matches.py``). Parsers are built before timing.
Each figure is the best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from tabla_cli.formats import fibs, gnubg_text, mat, sgf
from tabla_cli.model import Match
from tabla_cli.replay import replay_match
from tabla_cli.writers.sgf import format_sgf

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "data" / "corpus"
BENCH = ROOT / "bench-data"


def best(repeat: int, run: Callable[[], int]) -> tuple[float, int]:
    """(seconds, items) of the fastest of ``repeat`` runs."""
    times = []
    items = 0
    for _ in range(repeat):
        start = time.perf_counter()
        items = run()
        times.append(time.perf_counter() - start)
    return min(times), items


def report(name: str, seconds: float, items: int, unit: str = "matches") -> None:
    rate = items / seconds if seconds else float("inf")
    print(f"{name:<44} {items:5d} {unit:<8} {seconds * 1000:9.1f} ms  {rate:8.1f} {unit}/s")


def texts(paths: list[Path]) -> list[tuple[str, str]]:
    return [(str(p), mat.read_text(p)) for p in paths]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    repeat = args.repeat

    # Build every parser once, outside the timings.
    for build in (sgf._parser, gnubg_text._parser, fibs._parser, mat._parser):
        build()

    def read_all(reader: Callable[..., Iterable[Match]], items: list[tuple[str, str]]) -> Callable[[], int]:
        def run() -> int:
            count = 0
            for path, text in items:
                for _ in reader(text, path=path):
                    count += 1
            return count

        return run

    sgf_corpus = texts(sorted((CORPUS / "sgf").glob("*.sgf")))
    report("read sgf (corpus, 2 analysed gnubg files)", *best(repeat, read_all(sgf.parse_matches, sgf_corpus)))
    txt_corpus = texts(sorted((CORPUS / "txt").glob("*.txt")))
    report("read gnubg text (corpus, 1 game per file)", *best(repeat, read_all(gnubg_text.parse_matches, txt_corpus)))
    fibs_files = texts(sorted((ROOT / "tests" / "data" / "fibs").glob("*.txt"))) * 50
    report("read fibs oldmoves (test files x50)", *best(repeat, read_all(fibs.parse_matches, fibs_files)))
    if BENCH.is_dir():
        bench_sgf = texts(sorted(BENCH.glob("*.sgf")))
        report("read sgf (bench-data, gnubg 1.1.0a16)", *best(repeat, read_all(sgf.parse_matches, bench_sgf)))
        bench_txt = texts(sorted(BENCH.glob("*.txt")))
        report("read gnubg text (bench-data files)", *best(repeat, read_all(gnubg_text.parse_matches, bench_txt)))

    # Writing: mat -> replay with the SGF writer as its visitor, against a plain check.
    mat_paths = sorted((CORPUS / "mat").iterdir()) if (CORPUS / "mat").is_dir() else []
    if BENCH.is_dir():
        mat_paths += sorted(BENCH.glob("*.mat"))
    matches: list[Match] = []
    for path in mat_paths:
        matches.extend(mat.parse_matches(mat.read_text(path), path=str(path)))

    def check() -> int:
        for match in matches:
            replay_match(match)
        return len(matches)

    def convert() -> int:
        for match in matches:
            format_sgf(match)
        return len(matches)

    def round_trip() -> int:
        for match in matches:
            list(sgf.parse_matches(format_sgf(match)))
        return len(matches)

    mats = "corpus mat" + (" + bench-data" if BENCH.is_dir() else "")
    report(f"check: replay ({mats})", *best(repeat, check))
    report("mat model -> sgf (replay with the writer)", *best(repeat, convert))
    report("mat model -> sgf -> model (round trip)", *best(repeat, round_trip))


if __name__ == "__main__":
    main()
