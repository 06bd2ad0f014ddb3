"""Write what every command prints for tests/data and examples/ into a folder, to compare two trees byte for byte.

Runs, in this process (click's CliRunner, one job, from the repository root): ``check`` (text with
``-v``, and JSON), ``convert`` to every output format, ``report`` as CSV and JSON ``--by`` every
table that needs no engine, and a few ``show`` and ``plays``. Each run leaves
``NAME.stdout``, ``NAME.stderr`` and ``NAME.rc`` in OUT (converted files under ``NAME/``);
timings in the summary lines are replaced by ``T``. Compare two snapshots with ``diff -r``.

    PYTHONPATH=$PWD python benchmarks/snapshot_outputs.py OUT [--only check,convert,...]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from click.testing import CliRunner

from tabla_cli.cli import main

ROOT = Path(__file__).resolve().parent.parent
INPUTS = ("tests/data", "examples")
CONVERT_TO = ("mat", "sgf", "json", "positions", "txt")
REPORT_BY = ("player", "opponent", "period", "dice", "match", "game", "cube", "findings", "decisions")
REPORT_FORMATS = ("csv", "json")
SHOW = (
    ("start",),
    ("4HPwATDgc/ABMA",),
    ("4HPwATDgc/ABMA:cAkAAAAAAAAA",),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10",),
    ("--format", "json", "4HPwATDgc/ABMA:cAkAAAAAAAAA"),
    ("--variant", "plakoto", "start"),
)
PLAYS = (
    ("start", "31"),
    ("start", "66"),
    ("--format", "json", "4HPwATDgc/ABMA", "6-4"),
    ("--variant", "tapa", "start", "5", "2"),
)
_TIMING = re.compile(r" in \d+(\.\d+)? ?m?s( \([^)]*/s[^)]*\))?")


def _run(out: Path, name: str, args: Sequence[str]) -> None:
    result = CliRunner().invoke(main, list(args), catch_exceptions=True)
    (out / f"{name}.stdout").write_bytes(result.stdout_bytes)
    (out / f"{name}.stderr").write_text(_TIMING.sub(" in T", result.stderr))
    rc = str(result.exit_code)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        rc += f" {type(result.exception).__name__}: {result.exception}"
    (out / f"{name}.rc").write_text(rc + "\n")


def snapshot(out: Path, only: set[str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for root in INPUTS:
        tag = root.replace("/", "_")
        if "check" in only:
            _run(out, f"check-text-{tag}", ["check", "-j", "1", "-v", root])
            _run(out, f"check-json-{tag}", ["check", "-j", "1", "--format", "json", root])
        if "convert" in only:
            for to in CONVERT_TO:
                name = f"convert-{to}-{tag}"
                target = out / name
                shutil.rmtree(target, ignore_errors=True)
                _run(out, name, ["convert", "--to", to, "--out-dir", str(target), root])
                # The output folder's own path appears in the summary; keep the snapshot independent of OUT.
                err = out / f"{name}.stderr"
                err.write_text(err.read_text().replace(str(target), "OUT"))
        if "report" in only:
            for by in REPORT_BY:
                for fmt in REPORT_FORMATS:
                    _run(out, f"report-{by}-{fmt}-{tag}", ["report", "-j", "1", "--by", by, "--format", fmt, root])
    if "show" in only:
        for i, args in enumerate(SHOW):
            _run(out, f"show-{i}", ["show", *args])
        for i, args in enumerate(PLAYS):
            _run(out, f"plays-{i}", ["plays", *args])


def main_(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the folder to write into (created)")
    parser.add_argument(
        "--only", default="check,convert,report,show", help="commands to run, comma-separated (default: all)"
    )
    args = parser.parse_args(argv)

    os.chdir(ROOT)
    snapshot(args.out.resolve(), set(args.only.split(",")))
    return 0


if __name__ == "__main__":
    sys.exit(main_())
