"""What compiling the engine's hot modules with mypyc would give ``tabla check`` (a scratch build; nothing installed).

    python benchmarks/bench_mypyc.py [--modules tabla_cli/board.py ...] [--repeat N] [--keep DIR] [DIR ...]

It copies this checkout's ``tabla_cli`` (and ``grammars``) into a scratch folder, compiles the
modules named with mypyc there (``pip install mypy`` gives mypyc; a C
compiler and Python's headers are needed), and times the check in one
process (``bench_check.py --cpu``: least and median CPU time) over each
folder (default: ``tests/data/corpus/mat``) with the pure-Python package and
with the compiled one, in turn. The package itself is not changed: tabla
ships pure Python, and this measures what a compiled build would be worth.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOT = ["tabla_cli/board.py"]
"""The modules compiled by default: the play resolution every roll goes through."""


def build(scratch: Path, modules: list[str]) -> float:
    """Copy the package into ``scratch`` and compile ``modules`` there; the seconds it took."""
    for part in ("tabla_cli", "grammars"):
        shutil.copytree(ROOT / part, scratch / part)
    start = time.perf_counter()
    # In a folder without pyproject.toml: mypyc's setuptools build reads only the modules named.
    subprocess.run(["mypyc", *modules], cwd=scratch, check=True, capture_output=True)
    return time.perf_counter() - start


def cpu(tree: Path, folder: Path, repeat: int) -> list[float]:
    """CPU seconds of ``repeat`` in-process checks of ``folder`` with the tabla_cli of ``tree``."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_check.py"), "--cpu", "--json", "--repeat", str(repeat)]
        + [str(folder)],
        env={**os.environ, "PYTHONPATH": str(tree)},
        cwd=tree,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return list(json.loads(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--modules", nargs="+", default=HOT, help="the modules to compile (paths from the root)")
    parser.add_argument("--repeat", type=int, default=5, help="checks per run")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each build, in turn")
    parser.add_argument("--keep", type=Path, help="build in this (new) folder and keep it")
    args = parser.parse_args()
    folders = [f.resolve() for f in args.folders] or [ROOT / "tests" / "data" / "corpus" / "mat"]
    scratch = args.keep.resolve() if args.keep else Path(tempfile.mkdtemp(prefix="tabla-mypyc-"))
    try:
        seconds = build(scratch, args.modules)
        print(f"compiled {' '.join(args.modules)} in {seconds:.0f} s")
        for folder in folders:
            times: dict[str, list[float]] = {"pure Python": [], "mypyc": []}
            for _ in range(args.rounds):
                times["pure Python"] += cpu(ROOT, folder, args.repeat)
                times["mypyc"] += cpu(scratch, folder, args.repeat)
            print(f"{folder}: check in one process, {args.rounds} x {args.repeat} runs each, in turn")
            for name, values in times.items():
                print(f"  {name:11}: CPU min {min(values):.3f} s, median {statistics.median(values):.3f} s")
    finally:
        if args.keep is None:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
