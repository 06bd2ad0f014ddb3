"""Data safety of every command that writes files (tabla_cli.output).

No output ever replaces an input (any spelling, any link, --force or not);
without --force a target that appears while the output is written is kept;
temporaries are recognisable and a later run removes stale ones; a full disk
is a one-line error that leaves no folder behind.
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from tabla_cli import output
from tabla_cli.output import (
    TEMP_PREFIX,
    Inputs,
    OutputExistsError,
    OutputIsInputError,
    clean_stale,
    staged_folder,
    write_atomic,
)

import helpers
from helpers import invoke

DATA = helpers.DATA
SPEC = DATA / "mat" / "spec-3pt-gnubg.mat"
ROOT = helpers.ROOT


run = invoke


def no_traceback(result: Result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "in" / "m.mat"
    path.parent.mkdir()
    shutil.copy(SPEC, path)
    return path


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob(f"{TEMP_PREFIX}*"))


# --- never over an input --------------------------------------------------------------------------------


def spellings(source: Path) -> list[Path]:
    link = source.parent / "link.csv"
    link.symlink_to(source)
    hard = source.parent / "hard.csv"
    os.link(source, hard)
    return [source, source.parent / ".." / "in" / source.name, link, hard]


def test_report_never_writes_over_an_input(source: Path) -> None:
    before = source.read_bytes()
    for target in spellings(source):
        for force in ([], ["--force"]):
            result = run("report", str(source), "-o", str(target), "--format", "csv", "-q", *force)
            assert result.exit_code == 1 and "it is an input" in result.stderr, (target, force)
            no_traceback(result)
    assert source.read_bytes() == before


def test_report_never_writes_over_its_alias_file(source: Path) -> None:
    aliases = source.parent / "alias.csv"
    aliases.write_text("alias,player\nx,y\n")
    result = run("report", str(source), "--alias", str(aliases), "-o", str(aliases), "--force", "-q")
    assert result.exit_code == 1 and "it is an input" in result.stderr
    assert aliases.read_text() == "alias,player\nx,y\n"


def test_report_frames_never_write_over_an_input(tmp_path: Path) -> None:
    folder = tmp_path / "frames"
    folder.mkdir()
    shutil.copy(SPEC, folder / "games.parquet")  # a transcript that happens to have that name
    before = (folder / "games.parquet").read_bytes()
    result = run("report", str(folder / "games.parquet"), "--frames", str(folder), "--force", "-q")
    assert result.exit_code == 1 and "it is an input" in result.stderr
    assert (folder / "games.parquet").read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == ["games.parquet"]


def test_convert_refuses_an_input_through_a_hard_link(source: Path) -> None:
    hard = source.parent / "hard.mat"
    os.link(source, hard)
    before = source.read_bytes()
    result = run("convert", str(source), "-o", str(hard), "--force", "-q")
    assert result.exit_code == 1 and "is an input" in result.stderr
    assert source.read_bytes() == before


def test_inputs_compare_by_inode(source: Path) -> None:
    inputs = Inputs([source, source.parent / "missing.mat"])
    assert inputs.holds(source.parent / ".." / "in" / "m.mat")
    assert not inputs.holds(source.parent / "missing.mat")
    with pytest.raises(OutputIsInputError):
        write_atomic(source, "x", force=True, inputs=inputs)


# --- publishing without --force -------------------------------------------------------------------------


def test_a_target_that_appears_while_writing_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "out.csv"
    real = output._permissions

    def other_process_writes_first(path: Path) -> None:
        real(path)
        target.write_text("theirs")

    monkeypatch.setattr(output, "_permissions", other_process_writes_first)
    with pytest.raises(OutputExistsError, match="appeared while it was being written"):
        write_atomic(target, "ours", force=False)
    assert target.read_text() == "theirs"
    assert temporaries(tmp_path) == []
    write_atomic(target, "ours", force=True)
    assert target.read_text() == "ours"


def test_report_without_force_keeps_an_existing_output(source: Path, tmp_path: Path) -> None:
    target = tmp_path / "r.csv"
    target.write_text("keep")
    result = run("report", str(source), "-o", str(target), "-q")
    assert result.exit_code == 1 and "--force" in result.stderr and target.read_text() == "keep"
    assert run("report", str(source), "-o", str(target), "-q", "--force").exit_code == 0
    assert target.read_text() != "keep" and temporaries(tmp_path) == []


def test_show_output_goes_through_the_same_guard(tmp_path: Path) -> None:
    target = tmp_path / "board.txt"
    target.write_text("keep")
    assert run("show", "start", "-o", str(target)).exit_code == 1 and target.read_text() == "keep"
    assert run("show", "start", "-o", str(target), "--force").exit_code == 0
    assert "Position ID: 4HPwATDgc/ABMA" in target.read_text() and temporaries(tmp_path) == []


# --- temporaries ----------------------------------------------------------------------------------------


def test_stale_temporaries_are_removed_and_live_ones_kept(tmp_path: Path) -> None:
    gone = dead_pid()
    stale_file = tmp_path / f"{TEMP_PREFIX}{gone}-0123abcd.m.sgf"
    stale_file.write_text("")
    stale_folder = tmp_path / f"{TEMP_PREFIX}{gone}-89abcdef.frames"
    stale_folder.mkdir()
    (stale_folder / "games.parquet").write_bytes(b"partial")
    reused = tmp_path / f"{TEMP_PREFIX}1-00000000.x"  # pid 1 runs, but started after this was made
    reused.write_text("")
    os.utime(reused, (0, 0))
    mine = tmp_path / f"{TEMP_PREFIX}{os.getpid()}-00000000.x"
    mine.write_text("")
    other = tmp_path / ".tabla-tmp-notapid"
    other.write_text("")
    removed = clean_stale(tmp_path)
    assert sorted(p.name for p in removed) == sorted([stale_file.name, stale_folder.name, reused.name])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([mine.name, other.name])


def test_convert_cleans_stale_temporaries_in_its_target_folder(source: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    stale = out / f"{TEMP_PREFIX}{dead_pid()}-0123abcd.m.sgf"
    stale.write_text("")
    assert run("convert", str(source), "-o", str(out / "m.sgf"), "-q").exit_code == 0
    assert sorted(p.name for p in out.iterdir()) == ["m.sgf"]


def test_report_frames_killed_midway_leave_only_a_temporary_the_next_run_removes(tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    command = [
        sys.executable,
        "-c",
        "from tabla_cli.cli import main; main()",
        "report",
        str(DATA / "corpus" / "mat"),
        "--frames",
        str(frames),
        "--jobs",
        "1",
        "-q",
    ]
    child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while not temporaries(tmp_path) and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    child.send_signal(signal.SIGKILL)
    child.wait()
    left = [p.name for p in tmp_path.iterdir()]
    assert len(left) == 1 and left[0].startswith(TEMP_PREFIX) and not frames.exists()
    result = run("report", str(SPEC), "--frames", str(frames), "-q")
    assert result.exit_code == 0
    assert [p.name for p in tmp_path.iterdir()] == ["frames"] and temporaries(frames) == []


# --- a full disk ----------------------------------------------------------------------------------------


def full_disk(*args: Any, **kwargs: Any) -> Any:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_full_disk_while_writing_frames(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tabla_cli.reports.frames as frames_module

    monkeypatch.setattr(frames_module.pq, "ParquetWriter", full_disk)
    target = tmp_path / "new" / "frames"
    result = run("report", str(SPEC), "--frames", str(target), "-q")
    assert result.exit_code == 1 and "No space left on device" in result.stderr
    no_traceback(result)
    assert list(tmp_path.iterdir()) == []


def test_full_disk_while_writing_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: Path) -> None:
    class Full:
        def __init__(self, *args: Any) -> None:
            pass

        def __enter__(self) -> Full:
            return self

        def __exit__(self, *args: Any) -> None:
            pass

        write = full_disk

    monkeypatch.setattr(output, "open", Full, raising=False)
    out = tmp_path / "out"
    for args in (
        ["report", str(source), "-o", str(out / "r.csv")],
        ["report", str(source), "--plots", str(out / "a" / "plots")],
        ["convert", str(source), "-o", str(out / "a" / "b" / "m.sgf")],
        ["show", "start", "-o", str(out / "board.txt")],
    ):
        out.mkdir(exist_ok=True)
        result = run(*args, "-q") if args[0] != "show" else run(*args)
        assert result.exit_code == 1 and "No space left on device" in result.stderr, args
        no_traceback(result)
        assert list(out.iterdir()) == [], args
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in", "out"]


def test_staged_folder_leaves_nothing_on_failure(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b"
    with pytest.raises(OSError):
        with staged_folder(target, ["x.bin"]) as folder:
            (folder / "x.bin").write_bytes(b"1")
            full_disk()
    assert list(tmp_path.iterdir()) == []
    with staged_folder(target, ["x.bin"]) as folder:
        (folder / "x.bin").write_bytes(b"1")
    assert [p.name for p in target.iterdir()] == ["x.bin"]
    with pytest.raises(OutputExistsError):
        with staged_folder(target, ["x.bin"], force=False):
            pass
