"""Named pipes, sockets and devices are never opened, whatever their name; an output directory is never read.

The special files sit in a directory next to a transcript, under names that
look like transcripts or like nothing: every command that walks a directory
skips each with a note saying what it is, and one named on the command line
is an error saying what it is, never read. The commands run as real
processes with a time limit, so that a command that opens a named pipe
(which blocks until a writer comes) fails instead of hanging the suite.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tabla_cli.cli import main
from tabla_cli.source import collect_paths, is_transcript, read_source

import helpers

ROOT = helpers.ROOT
MATCH = ROOT / "examples" / "three-point-match.mat"
PIPES = ("notes.txt", "plain", "match.mat", "game.sgf", "export.json")


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    """A transcript, named pipes under several names, a socket and a link to a pipe."""
    shutil.copy(MATCH, tmp_path / "three-point-match.mat")
    for name in PIPES:
        os.mkfifo(tmp_path / name)
    (tmp_path / "link.txt").symlink_to(tmp_path / "plain")
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(tmp_path / "listen.sock"))
    try:
        yield tmp_path
    finally:
        server.close()


def _tabla(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [sys.executable, "-c", "from tabla_cli.cli import main; main()", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_sniffing_a_directory_opens_no_special_file(folder: Path) -> None:
    assert all(is_transcript(folder / name) for name in (*PIPES, "link.txt", "listen.sock"))  # kept to be reported
    with pytest.raises(OSError, match="a named pipe, not a regular file"):
        read_source(folder / "link.txt")
    with pytest.raises(OSError, match="a socket, not a regular file"):
        read_source(folder / "listen.sock")


@pytest.mark.parametrize(
    "command",
    [
        ["check"],
        ["report", "-q", "--format", "csv"],
        ["convert", "--to", "json", "--force", "--out-dir", "{out}"],
        ["analyze", "--level", "1ply", "--no-luck", "--no-cache", "-q"],
    ],
    ids=lambda command: command[0],
)
def test_every_command_skips_the_special_files_of_a_directory_with_a_note(
    folder: Path, tmp_path_factory: pytest.TempPathFactory, command: list[str]
) -> None:
    out = tmp_path_factory.mktemp("out")
    run = _tabla(*(part.replace("{out}", str(out)) for part in command), str(folder))
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    if command[0] in ("check", "convert"):  # the others say nothing with -q
        assert run.stderr.count("note[special-file]") + run.stderr.count("special-file 7") >= 1, run.stderr
    if command[0] == "convert":
        assert [path.name for path in out.iterdir()] == ["three-point-match.json"]
        assert "converted 1 of 8 inputs (1 match)" in run.stderr
        assert "; 7 skipped (not a regular file)" in run.stderr


def test_check_lists_what_each_special_file_is(folder: Path) -> None:
    run = _tabla("check", "--notes", str(folder))
    assert run.returncode == 0, run.stderr
    for name in (*PIPES, "link.txt"):
        assert f"{folder / name}: note[special-file]: a named pipe: skipped" in run.stderr, run.stderr
    assert f"{folder / 'listen.sock'}: note[special-file]: a socket: skipped" in run.stderr


@pytest.mark.parametrize("name", ["plain", "link.txt", "match.mat", "listen.sock"])
def test_a_special_file_named_is_an_error_saying_what_it_is(folder: Path, name: str) -> None:
    run = _tabla("check", str(folder / name))
    assert run.returncode == 1
    kind = "a socket" if name.endswith(".sock") else "a named pipe"
    assert f"error[unreadable-file]: {kind}, not a regular file: not read" in run.stderr, run.stderr


def test_a_device_named_is_not_read() -> None:
    run = _tabla("check", "/dev/zero")
    assert run.returncode == 1 and "a character device, not a regular file" in run.stderr, run.stderr


def test_an_alias_file_that_is_a_pipe_is_not_read(folder: Path) -> None:
    run = _tabla("report", "--alias", str(folder / "plain"), str(folder / "three-point-match.mat"))
    assert run.returncode == 1 and "a named pipe, not a regular file" in run.stderr, run.stderr


@pytest.mark.parametrize(
    "command",
    [["convert", "--to", "mat", "--force"], ["analyze", "--level", "1ply", "--no-luck", "--no-cache", "-q", "--force"]],
    ids=lambda command: command[0],
)
def test_an_output_directory_inside_the_input_is_never_read(tmp_path: Path, command: list[str]) -> None:
    shutil.copy(MATCH, tmp_path / "three-point-match.mat")
    out = tmp_path / "out"
    for _ in range(3):
        result = CliRunner().invoke(main, [*command, str(tmp_path), "--out-dir", str(out)])
        assert result.exit_code == 0, result.output
    written = sorted(path.relative_to(tmp_path).as_posix() for path in tmp_path.rglob("*") if path.is_file())
    suffix = ".mat" if command[0] == "convert" else ".json"
    assert written == [f"out/three-point-match{suffix}", "three-point-match.mat"]
    assert collect_paths([str(tmp_path)], outputs=[out]) == [str(tmp_path / "three-point-match.mat")]
    assert collect_paths([str(out)], outputs=[out]) == []
