"""Peak memory of ``tabla check`` and ``tabla report`` on one large ``.mat`` file.

    python benchmarks/bench_memory.py [--sizes 10,100] [--keep DIR]

Generates, for each size in MB, two single files: the matches of
``tests/data/corpus/mat`` joined one after another (``joined-<N>mb.mat``)
and one long money session made of their games, renumbered with a running
score (``money-<N>mb.mat``). Then runs ``tabla check`` and ``tabla report``
on each in a child process and prints its peak resident memory (``ru_maxrss``
from ``os.wait4``) and wall time. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "data" / "corpus" / "mat"
_GAME = re.compile(r"^ *Game \d+ *$")
_WINS = re.compile(r"Wins (\d+) points?")
_RIGHT = 30  # the column where a .mat transcript's right player starts


def _mat_texts() -> list[str]:
    texts = []
    for path in sorted(CORPUS.iterdir()):
        text = path.read_text(encoding="utf-8", errors="replace").lstrip("\ufeff")
        if re.search(r"^ *\d+ point match *$", text, re.M):
            texts.append(text.replace("\r\n", "\n").rstrip("\n") + "\n\n")
    return texts


def _games(text: str) -> list[list[str]]:
    """The move lines of each game of a transcript (without the Game and score lines)."""
    games: list[list[str]] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if _GAME.match(lines[i]):
            i += 2
            body: list[str] = []
            while i < len(lines) and not _GAME.match(lines[i]) and "point match" not in lines[i]:
                if lines[i].strip() and not lines[i].lstrip().startswith(";"):
                    body.append(lines[i])
                i += 1
            games.append([line.replace("*", "") for line in body])
        else:
            i += 1
    return games


def joined(size: int) -> str:
    """Corpus matches one after another, repeated to about ``size`` bytes."""
    texts = _mat_texts()
    out: list[str] = []
    total = 0
    while total < size:
        for text in texts:
            out.append(text)
            total += len(text)
            if total >= size:
                break
    return "".join(out)


def money(size: int) -> str:
    """One money session of about ``size`` bytes, made of the corpus's games."""
    # Not the games that end a match (capped wins) nor the corpus's one illegal play.
    games = [
        g for text in _mat_texts() for g in _games(text)[:-1] if g and not any("13: 14/10 13/12" in line for line in g)
    ]
    out = ['; [Player 1 "Ann"]\n; [Player 2 "Bob"]\n; [Jacoby "Off"]\n\n 0 point match\n']
    total = len(out[0])
    score = [0, 0]
    number = 0
    while total < size:
        for body in games:
            number += 1
            left = f" Ann : {score[0]}"
            chunk = f"\n Game {number}\n{left:<32}Bob : {score[1]}\n" + "\n".join(body) + "\n"
            for line in body:
                found = _WINS.search(line)
                if found:
                    score[found.start() >= _RIGHT] += int(found.group(1))
            out.append(chunk)
            total += len(chunk)
            if total >= size:
                break
    return "".join(out)


def measure(args: list[str]) -> tuple[float, float, int]:
    """Peak RSS (MB), seconds and exit status of ``tabla ARGS`` in a child process."""
    command = [sys.executable, "-c", "from tabla_cli.cli import main; main()", *args]
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_maxrss / 1024, seconds, child.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,100", help="file sizes in MB, comma-separated")
    parser.add_argument("--keep", default=None, help="write the files here and keep them")
    options = parser.parse_args()
    folder = Path(options.keep or tempfile.mkdtemp(prefix="tabla-bench-memory-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"{'file':<22}{'MB':>7}{'check MB':>10}{'s':>7}{'report MB':>11}{'s':>7}")
    for mb in (int(s) for s in options.sizes.split(",")):
        for name, make in (("joined", joined), ("money", money)):
            path = folder / f"{name}-{mb}mb.mat"
            if not path.exists():
                path.write_text(make(mb * 1_000_000), encoding="utf-8")
            size = path.stat().st_size / 1e6
            check = measure(["check", "-q", "--jobs", "1", str(path)])
            report = measure(["report", "-q", "--jobs", "1", "--by", "match", "--format", "csv", str(path)])
            print(
                f"{path.name:<22}{size:7.1f}{check[0]:10.0f}{check[1]:7.1f}{report[0]:11.0f}{report[1]:7.1f}"
                f"   (exit {check[2]}/{report[2]})",
                flush=True,
            )
            if options.keep is None:
                path.unlink()
    if options.keep is None:
        folder.rmdir()


if __name__ == "__main__":
    main()
