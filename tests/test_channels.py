"""Every command with its standard streams closed, full or a broken pipe (real processes).

Whatever the state of standard input, output and error, a command ends with
no traceback; when output it had to write was lost it says so in one line on
standard error (a broken pipe: silently, as Unix tools stop when nobody reads
on) and exits 1, never 0. A command that writes nothing to a stream does not
care about its state. A closed or unreadable standard input given as ``-``
is an unreadable input, reported like an unreadable file. The child runs this
checkout's code (``python -c``, this folder first on ``PYTHONPATH``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
MATCH = "examples/three-point-match.mat"
FINDINGS = "tests/data/fuzz/mat-superscript-digit.mat"

COMMANDS = {
    "check": ["check", FINDINGS],
    "check-json": ["check", "--format", "json", MATCH],
    "show": ["show", "start"],
    "plays": ["plays", "start", "31"],
    "convert": ["convert", MATCH, "--to", "json", "-o", "-"],
    "report": ["report", MATCH],
    "analyze": ["analyze", "examples/hypergammon.mat", "--level", "1ply", "--no-luck", "--no-cache"],
}
"""Each command once, reading a file (``check`` a damaged one: its findings go to standard error)."""

FROM_STDIN = {
    "check": ["check", "-"],
    "report": ["report", "-"],
    "convert": ["convert", "-", "--to", "json", "-o", "-"],
}
"""The commands that read ``-`` as standard input (analyze reads files only)."""


@dataclass(frozen=True)
class Run:
    code: int
    out: bytes
    err: str


def _run(args: list[str], *, stdin: str = "file", stdout: str = "pipe", stderr: str = "pipe",
         tmp: Path | None = None) -> Run:
    """Run ``tabla args`` with each stream ``pipe`` (captured), ``closed``, ``full`` (/dev/full) or
    ``broken`` (a pipe nobody reads); standard input ``file`` (the match), ``closed`` or ``write-only``."""
    closing: list[int] = []
    opened: list[IO[Any]] = []
    streams: dict[str, Any] = {}
    for name, state, fd in (("stdout", stdout, 1), ("stderr", stderr, 2)):
        if state == "pipe":
            streams[name] = subprocess.PIPE
        elif state == "closed":
            streams[name] = subprocess.DEVNULL
            closing.append(fd)
        elif state == "full":
            opened.append(open("/dev/full", "wb"))  # noqa: SIM115 - closed below
            streams[name] = opened[-1]
        else:
            read, write = os.pipe()
            os.close(read)
            streams[name] = write
    if stdin == "closed":
        streams["stdin"] = subprocess.DEVNULL
        closing.append(0)
    elif stdin == "write-only":
        assert tmp is not None
        opened.append(open(tmp / "write-only", "wb"))  # noqa: SIM115 - closed below
        streams["stdin"] = opened[-1]
    else:
        opened.append(open(ROOT / MATCH, "rb"))  # noqa: SIM115 - closed below
        streams["stdin"] = opened[-1]

    def close_them() -> None:
        for fd in closing:
            os.close(fd)

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    try:
        proc = subprocess.run([sys.executable, "-c", "from tabla_cli.cli import main; main()", *args], cwd=ROOT,
                              env=env, preexec_fn=close_them if closing else None,  # noqa: PLW1509
                              timeout=300, **streams)
    finally:
        for handle in opened:
            handle.close()
        for name in ("stdout", "stderr"):
            if isinstance(streams[name], int) and streams[name] > 2:
                os.close(streams[name])
    return Run(proc.returncode, proc.stdout or b"", (proc.stderr or b"").decode("utf-8", "replace"))


_BASELINES: dict[str, Run] = {}


def baseline(command: str) -> Run:
    """The command's run with every stream in order (run once)."""
    if command not in _BASELINES:
        _BASELINES[command] = _run(COMMANDS[command])
        assert "Traceback" not in _BASELINES[command].err
    return _BASELINES[command]


def _one_line_lost(err: str) -> bool:
    return sum("output lost" in line for line in err.splitlines()) == 1


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("state", ["closed", "full", "broken"])
def test_standard_output_closed_full_or_broken(command: str, state: str) -> None:
    normal = baseline(command)
    run = _run(COMMANDS[command], stdout=state)
    assert "Traceback" not in run.err, run.err
    if not normal.out:  # nothing to lose
        assert run.code == normal.code, run.err
        return
    assert run.code == 1, run.err
    if state == "broken":
        assert "output lost" not in run.err and "Broken pipe" not in run.err, run.err
    else:
        assert _one_line_lost(run.err), run.err
        assert ("closed" if state == "closed" else "No space left") in run.err


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("state", ["closed", "full", "broken"])
def test_standard_error_closed_full_or_broken(command: str, state: str) -> None:
    normal = baseline(command)
    run = _run(COMMANDS[command], stderr=state)
    if normal.err.strip():  # diagnostics were lost: not a success, whatever the command found
        assert run.code == 1
    else:
        assert run.code == normal.code
        assert run.out == normal.out


@pytest.mark.parametrize("command", FROM_STDIN)
@pytest.mark.parametrize("state", ["closed", "write-only"])
def test_standard_input_closed_or_unreadable(command: str, state: str, tmp_path: Path) -> None:
    run = _run(FROM_STDIN[command], stdin=state, tmp=tmp_path)
    assert run.code == 1
    assert "Traceback" not in run.err, run.err
    said = run.err + run.out.decode("utf-8", "replace")
    assert "<stdin>" in said and "cannot read standard input" in said, said


def test_standard_input_in_order_is_read() -> None:
    run = _run(FROM_STDIN["check"])
    assert run.code == 0 and "1 matches" in run.err, run.err


@pytest.mark.parametrize("args", [["--help"], ["check", "--help"], ["--version"]], ids=" ".join)
def test_help_to_a_closed_standard_output_is_not_a_success(args: list[str]) -> None:
    run = _run(args, stdout="closed")
    assert run.code == 1 and "Traceback" not in run.err and _one_line_lost(run.err), run.err
