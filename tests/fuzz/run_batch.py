"""Run a batch of mutants through ``check_text`` (and optionally the CLI: check, report, convert, analyze).

Usage (from the repository root)::

    python tests/fuzz/run_batch.py --per-reader 2000 --cli 100 --out /tmp/fuzz-crashes

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
import random
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from fuzz.harness import assert_checks_cleanly  # noqa: E402
from fuzz.mutations import READERS, random_mutant, seeds, suffix  # noqa: E402


def _signature(exc: BaseException) -> str:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "tabla_cli" in f.filename]
    if not frames:  # the harness's own assertion: a finding without its location
        return f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
    return f"{type(exc).__name__} at {Path(frames[-1].filename).name}:{frames[-1].lineno}"


def run_reader(reader: str, count: int, rng: random.Random, out: Path, slow: float) -> tuple[int, dict[str, int], float]:
    """Check ``count`` mutants of ``reader``'s seeds; returns inputs, problems by kind, seconds."""
    files = [p.read_bytes() for p in seeds(reader)]
    lines = [line for data in files for line in data.split(b"\n") if line.strip()]
    problems: dict[str, int] = {}
    start = time.perf_counter()
    for n in range(count):
        data, edits, encoding = random_mutant(rng, rng.choice(files), lines)
        path = f"{reader}-{n}{suffix(reader)}"
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
                (out / f"{path}.why").write_text(f"{problem}\nedits: {edits}\nencoding: {encoding}\n")
    return count, problems, time.perf_counter() - start


COMMANDS = {
    "check": ["check", "--jobs", "1"],
    "report": ["report", "--jobs", "1", "--format", "csv", "-q"],
    "convert": ["convert", "--to", "json", "--force", "--out-dir", "{out}"],
    "analyze": ["analyze", "--level", "1ply", "--no-luck", "--no-cache", "--jobs", "1", "-q"],
}
"""The CLI runs of a batch: each is given ten mutants at once (``{out}``: a scratch folder)."""


def run_cli(reader: str, count: int, rng: random.Random, out: Path,
            commands: list[str]) -> tuple[int, dict[str, int], float]:
    """Run each of ``commands`` on ``count`` mutants; only exit 0 or 1 without a traceback passes."""
    files = [p.read_bytes() for p in seeds(reader)]
    lines = [line for data in files for line in data.split(b"\n") if line.strip()]
    problems: dict[str, int] = {}
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        names = []
        for n in range(count):
            data, _, _ = random_mutant(rng, rng.choice(files), lines)
            name = Path(tmp) / f"{reader}-cli-{n}{suffix(reader)}"
            name.write_bytes(data)
            names.append(name)
        # Several files per run, so that one bad file must not stop the others.
        for group in range(0, len(names), 10):
            batch = names[group:group + 10]
            for command in commands:
                args = [a.replace("{out}", str(Path(tmp) / "converted")) for a in COMMANDS[command]]
                proc = subprocess.run(
                    [sys.executable, "-c", "from tabla_cli.cli import main; main()", *args, *map(str, batch)],
                    capture_output=True, text=True, cwd=ROOT, timeout=600,
                )
                if proc.returncode not in (0, 1) or "Traceback" in proc.stderr:
                    key = (f"{command}: exit {proc.returncode}"
                           + (" with a traceback" if "Traceback" in proc.stderr else ""))
                    problems[key] = problems.get(key, 0) + 1
                    for name in batch:
                        (out / name.name).write_bytes(name.read_bytes())
                    (out / f"{batch[0].name}.{command}.why").write_text(proc.stderr[-4000:])
    return count, problems, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-reader", type=int, default=1000, help="mutants per reader through check_text")
    parser.add_argument("--cli", type=int, default=0, help="mutants per reader through the CLI")
    parser.add_argument("--commands", default="check,report,convert,analyze",
                        help=f"the CLI commands run on them, comma-separated (of {', '.join(COMMANDS)})")
    parser.add_argument("--reader", action="append", choices=READERS, help="only these readers")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--slow", type=float, default=5.0, help="seconds after which a mutant counts as a hang")
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "tabla-fuzz")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    found = False
    for reader in args.reader or READERS:
        if args.per_reader:
            inputs, problems, took = run_reader(reader, args.per_reader, rng, args.out, args.slow)
            print(f"{reader}: {inputs} mutants in-process, {sum(problems.values())} problems, {took:.1f} s")
            for key, n in sorted(problems.items(), key=lambda kv: -kv[1]):
                print(f"    {n:5d}  {key}")
            found = found or bool(problems)
        if args.cli:
            commands = args.commands.split(",")
            inputs, problems, took = run_cli(reader, args.cli, rng, args.out, commands)
            print(f"{reader}: {inputs} mutants through `tabla {'/'.join(commands)}`, {sum(problems.values())} bad "
                  f"runs, {took:.1f} s")
            for key, n in problems.items():
                print(f"    {n:5d}  {key}")
            found = found or bool(problems)
        sys.stdout.flush()
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
