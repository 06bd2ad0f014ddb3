"""Run a batch of mutants through the checker (and optionally the CLI: check, report, convert, analyze).

Usage (from the repository root)::

    python tests/fuzz/run_batch.py --per-reader 2000 --cli 100 --channels 5 --jobs 4 --out /tmp/fuzz-crashes

Every reader is fuzzed: the text readers with :mod:`fuzz.mutations`, the
binary ones (``xg``, ``bgf``, ``ogxm``) with :mod:`fuzz.binary`. ``--jobs`` spreads
the in-process mutants over processes (the draw depends on ``--seed`` and
the reader only, not on the number of jobs). ``--channels N`` runs every
command on N mutants per reader with each standard stream closed, full or a
broken pipe (:mod:`fuzz.channels`).

Every mutant that fails :func:`fuzz.harness.assert_checks_cleanly` (an
exception, a finding without its location) or that takes longer than
``--slow`` seconds is written to ``--out`` as
``<reader>-<n>.<ext>`` with the traceback next to it; one line per reader
gives the count of inputs, crashes and the time. Exit 1 when anything was
found. Copy a reproducer worth keeping into ``tests/data/fuzz/`` as
``<reader>-<short-name>.<ext>``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from fuzz.binary import BINARY_READERS, binary_mutant  # noqa: E402
from fuzz.channels import STATES, channel_problem  # noqa: E402
from fuzz.harness import assert_checks_cleanly  # noqa: E402
from fuzz.mutations import READERS, random_mutant, seeds, suffix  # noqa: E402

ALL_READERS = READERS + BINARY_READERS
CHUNK = 250
"""Mutants per task of a pool: each chunk has its own random seed, so the draw does not depend on ``--jobs``."""


def _signature(exc: BaseException) -> str:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "tabla_cli" in f.filename]
    if not frames:  # the harness's own assertion: a finding without its location
        return f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
    return f"{type(exc).__name__} at {Path(frames[-1].filename).name}:{frames[-1].lineno}"


class Mutants:
    """The mutants of one reader, drawn with ``rng``."""

    def __init__(self, reader: str, rng: random.Random) -> None:
        self.reader, self.rng = reader, rng
        if reader not in BINARY_READERS:
            self.files = [p.read_bytes() for p in seeds(reader)]
            self.lines = [line for data in self.files for line in data.split(b"\n") if line.strip()]

    def draw(self) -> tuple[bytes, str]:
        """A mutant and what was done to it."""
        if self.reader in BINARY_READERS:
            return binary_mutant(self.reader, self.rng), "binary edits"
        data, edits, encoding = random_mutant(self.rng, self.rng.choice(self.files), self.lines)
        return data, f"edits: {edits}\nencoding: {encoding}"


def _suffix(reader: str) -> str:
    return f".{reader}" if reader in BINARY_READERS else suffix(reader)


def run_chunk(reader: str, seed: int, start: int, count: int, out: Path, slow: float) -> dict[str, int]:
    """Check mutants ``start`` to ``start + count`` of ``reader``; problems by kind (a few written to ``out``)."""
    mutants = Mutants(reader, random.Random(f"{seed}-{reader}-{start}"))
    problems: dict[str, int] = {}
    for n in range(start, start + count):
        data, how = mutants.draw()
        path = f"{reader}-{n}{_suffix(reader)}"
        began = time.perf_counter()
        problem = ""
        try:
            assert_checks_cleanly(data, path)
        except Exception as exc:  # noqa: BLE001 - this is what the batch looks for
            problem = _signature(exc) + "\n" + traceback.format_exc()
        took = time.perf_counter() - began
        if not problem and took > slow:
            problem = f"slow: {took:.1f} s"
        if problem:
            key = problem.splitlines()[0]
            problems[key] = problems.get(key, 0) + 1
            if problems[key] <= 3:
                (out / path).write_bytes(data)
                (out / f"{path}.why").write_text(f"{problem}\n{how}\n")
    return problems


def run_reader(
    reader: str, count: int, seed: int, out: Path, slow: float, jobs: int = 1
) -> tuple[int, dict[str, int], float]:
    """Check ``count`` mutants of ``reader`` over ``jobs`` processes; returns inputs, problems by kind, seconds."""
    start = time.perf_counter()
    chunks = [(reader, seed, first, min(CHUNK, count - first), out, slow) for first in range(0, count, CHUNK)]
    problems: dict[str, int] = {}
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            found = pool.starmap(run_chunk, chunks, chunksize=1)
    else:
        found = [run_chunk(*chunk) for chunk in chunks]
    for part in found:
        for key, n in part.items():
            problems[key] = problems.get(key, 0) + n
    return count, problems, time.perf_counter() - start


COMMANDS = {
    "check": ["check", "--jobs", "1"],
    "report": ["report", "--jobs", "1", "--format", "csv", "-q"],
    "convert": ["convert", "--to", "json", "--force", "--out-dir", "{out}"],
    "analyze": ["analyze", "--level", "1ply", "--no-luck", "--no-cache", "--jobs", "1", "-q"],
}
"""The CLI runs of a batch: each is given ten mutants at once (``{out}``: a scratch folder)."""


def run_cli(
    reader: str, count: int, rng: random.Random, out: Path, commands: list[str]
) -> tuple[int, dict[str, int], float]:
    """Run each of ``commands`` on ``count`` mutants; only exit 0 or 1 without a traceback passes."""
    mutants = Mutants(reader, rng)
    problems: dict[str, int] = {}
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        names = []
        for n in range(count):
            data, _ = mutants.draw()
            name = Path(tmp) / f"{reader}-cli-{n}{_suffix(reader)}"
            name.write_bytes(data)
            names.append(name)
        # Several files per run, so that one bad file must not stop the others.
        for group in range(0, len(names), 10):
            batch = names[group : group + 10]
            for command in commands:
                args = [a.replace("{out}", str(Path(tmp) / "converted")) for a in COMMANDS[command]]
                proc = subprocess.run(
                    [sys.executable, "-c", "from tabla_cli.cli import main; main()", *args, *map(str, batch)],
                    capture_output=True,
                    text=True,
                    cwd=ROOT,
                    timeout=600,
                )
                if proc.returncode not in (0, 1) or "Traceback" in proc.stderr:
                    key = f"{command}: exit {proc.returncode}" + (
                        " with a traceback" if "Traceback" in proc.stderr else ""
                    )
                    problems[key] = problems.get(key, 0) + 1
                    for name in batch:
                        (out / name.name).write_bytes(name.read_bytes())
                    (out / f"{batch[0].name}.{command}.why").write_text(proc.stderr[-4000:])
    return count, problems, time.perf_counter() - start


def run_channels(
    reader: str, count: int, rng: random.Random, out: Path, commands: list[str]
) -> tuple[int, dict[str, int], float]:
    """Run each of ``commands`` on ``count`` mutants with each standard stream closed, full or a broken pipe."""
    mutants = Mutants(reader, rng)
    problems: dict[str, int] = {}
    runs = 0
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(count):
            data, _ = mutants.draw()
            name = Path(tmp) / f"{reader}-channel-{n}{_suffix(reader)}"
            name.write_bytes(data)
            for command in commands:
                args = [a.replace("{out}", str(Path(tmp) / "converted")) for a in COMMANDS[command]] + [str(name)]
                for state in STATES:
                    runs += 1
                    problem = channel_problem(args, state, Path(tmp))
                    if problem:
                        key = f"{command} with {state}: {problem.splitlines()[0][:200]}"
                        problems[key] = problems.get(key, 0) + 1
                        (out / name.name).write_bytes(data)
                        (out / f"{name.name}.{command}.why").write_text(f"{state}\n{problem}")
    return runs, problems, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-reader", type=int, default=1000, help="mutants per reader through check_text")
    parser.add_argument("--cli", type=int, default=0, help="mutants per reader through the CLI")
    parser.add_argument(
        "--commands",
        default="check,report,convert,analyze",
        help=f"the CLI commands run on them, comma-separated (of {', '.join(COMMANDS)})",
    )
    parser.add_argument(
        "--channels",
        type=int,
        default=0,
        help="mutants per reader run by every command with each standard stream in a bad state",
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes for the in-process mutants")
    parser.add_argument("--reader", action="append", choices=ALL_READERS, help="only these readers")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--slow", type=float, default=5.0, help="seconds after which a mutant counts as a hang")
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "tabla-fuzz")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    found = False
    for reader in args.reader or ALL_READERS:
        if args.per_reader:
            inputs, problems, took = run_reader(reader, args.per_reader, args.seed, args.out, args.slow, args.jobs)
            print(f"{reader}: {inputs} mutants in-process, {sum(problems.values())} problems, {took:.1f} s")
            for key, n in sorted(problems.items(), key=lambda kv: -kv[1]):
                print(f"    {n:5d}  {key}")
            found = found or bool(problems)
        if args.cli:
            commands = args.commands.split(",")
            inputs, problems, took = run_cli(reader, args.cli, rng, args.out, commands)
            print(
                f"{reader}: {inputs} mutants through `tabla {'/'.join(commands)}`, {sum(problems.values())} bad "
                f"runs, {took:.1f} s"
            )
            for key, n in problems.items():
                print(f"    {n:5d}  {key}")
            found = found or bool(problems)
        if args.channels:
            runs, problems, took = run_channels(reader, args.channels, rng, args.out, args.commands.split(","))
            print(
                f"{reader}: {runs} command runs with a closed, full or broken stream, {sum(problems.values())} bad, "
                f"{took:.1f} s"
            )
            for key, n in problems.items():
                print(f"    {n:5d}  {key}")
            found = found or bool(problems)
        sys.stdout.flush()
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
