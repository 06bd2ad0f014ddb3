"""Engine benchmark: legal-play generation and is_legal over real positions.

The fixed set is every Position ID in tests/data/corpus/txt (GNU Backgammon text
exports) with each of the 21 rolls, and every recorded play found there.

    python benchmarks/bench_engine.py [--corpus tests/data/corpus]
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

from tabla_cli.board import Position, is_legal, legal_plays, resolve_play
from tabla_cli.notation import parse_play

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
MOVE = re.compile(r"to play (\d)(\d)\n.*?Position ID: (\S+).*?\n\* .+? moves (.*?)\n", re.S)


def load(corpus: Path) -> tuple[list[Position], list[tuple[Position, tuple[int, int], object]]]:
    ids: set[str] = set()
    recorded = []
    for path in sorted((corpus / "txt").glob("*.txt")):
        text = path.read_text(encoding="utf-8", errors="replace")
        ids.update(re.findall(r"Position ID: (\S{14})", text))
        for block in text.split("Move number")[1:]:
            found = MOVE.search(block)
            if found is None:
                continue
            a, b, pid, play = found.groups()
            pos = Position.from_id(pid)
            dice = (int(a), int(b))
            res = resolve_play(pos, dice, parse_play(play.strip()))
            if res.error is None and res.play:
                recorded.append((pos, dice, res.play))
    return [Position.from_id(i) for i in sorted(ids)], recorded


def timed(fn, items, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for item in items:
            fn(*item)
        best = min(best, time.perf_counter() - t0)
    return best / len(items) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--corpus", type=Path, default=Path(__file__).resolve().parents[1] / "tests" / "data" / "corpus"
    )
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    positions, recorded = load(args.corpus)
    singles = [(p, r) for p in positions for r in ROLLS if r[0] != r[1]]
    doubles = [(p, r) for p in positions for r in ROLLS if r[0] == r[1]]
    print(
        f"{len(positions)} positions, {len(singles)} non-double and {len(doubles)} double cases, "
        f"{len(recorded)} recorded plays"
    )
    print(f"legal_plays, non-double: {timed(legal_plays, singles, args.repeat):8.1f} us/roll (target <= 50)")
    print(f"legal_plays, double:     {timed(legal_plays, doubles, args.repeat):8.1f} us/roll (target <= 300)")
    print(f"is_legal, recorded play: {timed(is_legal, recorded, args.repeat):8.1f} us/play (target <= 15)")


if __name__ == "__main__":
    main()
