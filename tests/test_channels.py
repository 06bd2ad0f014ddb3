"""Every command with its standard streams closed, full or a broken pipe (real processes).

Whatever the state of standard input, output and error, a command ends with
no traceback; when output it had to write was lost it says so in one line on
standard error (a broken pipe: silently, as Unix tools stop when nobody reads
on) and exits 1, never 0. A command that writes nothing to a stream does not
care about its state. A closed or unreadable standard input given as ``-``
is an unreadable input, reported like an unreadable file. The runner
(:mod:`fuzz.channels`) is shared with the fuzz batch.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fuzz.channels import MATCH, Run, run

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


_BASELINES: dict[str, Run] = {}


def baseline(command: str) -> Run:
    """The command's run with every stream in order (run once)."""
    if command not in _BASELINES:
        _BASELINES[command] = run(COMMANDS[command])
        assert "Traceback" not in _BASELINES[command].err
    return _BASELINES[command]


def _one_line_lost(err: str) -> bool:
    return sum("output lost" in line for line in err.splitlines()) == 1


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("state", ["closed", "full", "broken"])
def test_standard_output_closed_full_or_broken(command: str, state: str) -> None:
    normal = baseline(command)
    got = run(COMMANDS[command], stdout=state)
    assert "Traceback" not in got.err, got.err
    if not normal.out:  # nothing to lose
        assert got.code == normal.code, got.err
        return
    assert got.code == 1, got.err
    if state == "broken":
        assert "output lost" not in got.err and "Broken pipe" not in got.err, got.err
    else:
        assert _one_line_lost(got.err), got.err
        assert ("closed" if state == "closed" else "No space left") in got.err


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("state", ["closed", "full", "broken"])
def test_standard_error_closed_full_or_broken(command: str, state: str) -> None:
    normal = baseline(command)
    got = run(COMMANDS[command], stderr=state)
    if normal.err.strip():  # diagnostics were lost: not a success, whatever the command found
        assert got.code == 1
    else:
        assert got.code == normal.code
        assert got.out == normal.out


@pytest.mark.parametrize("command", FROM_STDIN)
@pytest.mark.parametrize("state", ["closed", "write-only"])
def test_standard_input_closed_or_unreadable(command: str, state: str, tmp_path: Path) -> None:
    got = run(FROM_STDIN[command], stdin=state, tmp=tmp_path)
    assert got.code == 1
    assert "Traceback" not in got.err, got.err
    said = got.err + got.out.decode("utf-8", "replace")
    assert "<stdin>" in said and "cannot read standard input" in said, said


def test_standard_input_in_order_is_read() -> None:
    got = run(FROM_STDIN["check"])
    assert got.code == 0 and "1 match" in got.err, got.err


@pytest.mark.parametrize("args", [["--help"], ["check", "--help"], ["--version"]], ids=" ".join)
def test_help_to_a_closed_standard_output_is_not_a_success(args: list[str]) -> None:
    got = run(args, stdout="closed")
    assert got.code == 1 and "Traceback" not in got.err and _one_line_lost(got.err), got.err
