"""An output that is not a regular file is never replaced (issue 37, item 1).

A device or a FIFO is written to as a stream, as the shell's ``>`` does, with
or without ``--force``; a symbolic link keeps pointing where it pointed and
the file it leads to is the one replaced (atomically, and only with
``--force`` when it exists). Every node is made in a temporary folder: never
the machine's own ``/dev/null``.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tabla_cli.output import replaces, staged_folder, write_atomic

from helpers import DATA, EXAMPLES, run

SPEC = DATA / "mat" / "spec-3pt-gnubg.mat"


@contextmanager
def reading(fifo: Path) -> Iterator[list[bytes]]:
    """A reader of ``fifo`` in a thread; the list holds what it read once the block ends."""
    got: list[bytes] = []

    def read() -> None:
        with open(fifo, "rb") as handle:
            got.append(handle.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        yield got
    finally:
        reader.join(timeout=30)
    assert not reader.is_alive(), "nothing was written to the FIFO"


def _null_device(folder: Path) -> Path | None:
    """A character device like /dev/null made in ``folder`` (needs root); None where it cannot be made."""
    node = folder / "fakenull"
    try:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, OSError):
        return None
    return node


def test_replaces_tells_regular_files_from_streams(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "file").write_text("x")
    (tmp_path / "to-file").symlink_to(tmp_path / "file")
    (tmp_path / "to-pipe").symlink_to(tmp_path / "pipe")
    (tmp_path / "dangling").symlink_to(tmp_path / "absent")
    found = {name: replaces(tmp_path / name) for name in ("pipe", "file", "to-file", "to-pipe", "dangling", "absent")}
    assert found == {"pipe": False, "file": True, "to-file": True, "to-pipe": False, "dangling": False, "absent": False}


@pytest.mark.parametrize("force", [False, True])
def test_a_fifo_is_written_to_not_replaced(tmp_path: Path, force: bool) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with reading(fifo) as got:
        code, _, err = run("convert", str(SPEC), "-o", str(fifo), *(["--force"] if force else []), "-q")
    assert code == 0, err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert json.loads(got[0])["schema"] == "tabla-match/1"
    assert [p.name for p in tmp_path.iterdir()] == ["pipe.json"]  # no temporary left


def test_a_device_is_written_to_not_replaced(tmp_path: Path) -> None:
    """The reproducer out-device-replaced-by-force.sh: convert, report and analyze -o a device, with --force."""
    device = _null_device(tmp_path)
    if device is None:
        pytest.skip("making a device node needs root")
    before = os.lstat(device)
    for args in (
        ("convert", str(SPEC), "--to", "json", "-o", str(device), "--force"),
        ("report", str(SPEC), "-o", str(device), "--format", "csv", "--force"),
        ("convert", str(SPEC), "--to", "json", "-o", str(device)),
    ):
        code, _, err = run(*args)
        assert code == 0, (args, err)
        after = os.lstat(device)
        assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev and after.st_ino == before.st_ino


def test_analyze_writes_its_table_to_a_fifo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLA_CACHE_DIR", str(tmp_path / "cache"))
    fifo = tmp_path / "table.csv"
    os.mkfifo(fifo)
    with reading(fifo) as got:
        code, _, err = run(
            "analyze", str(EXAMPLES / "three-point-match.mat"), "--level", "1ply", "-o", str(fifo), "--force", "-q"
        )
    assert code == 0, err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and got[0].startswith(b"file,")


def test_a_symlink_keeps_pointing_and_its_target_is_replaced(tmp_path: Path) -> None:
    target = tmp_path / "real" / "m.json"
    target.parent.mkdir()
    target.write_text("old")
    link = tmp_path / "m.json"
    link.symlink_to(Path("real") / "m.json")
    code, _, err = run("convert", str(SPEC), "-o", str(link), "-q")
    assert code == 1 and "exists" in err and target.read_text() == "old"
    code, _, err = run("convert", str(SPEC), "-o", str(link), "--force", "-q")
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == str(Path("real") / "m.json")
    assert json.loads(target.read_text())["schema"] == "tabla-match/1"
    assert sorted(p.name for p in target.parent.iterdir()) == ["m.json"]


def test_a_dangling_symlink_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "m.json"
    link.symlink_to(tmp_path / "new.json")
    code, _, err = run("convert", str(SPEC), "-o", str(link), "-q")
    assert code == 0, err
    assert link.is_symlink() and json.loads((tmp_path / "new.json").read_text())["schema"] == "tabla-match/1"


def test_a_symlink_to_a_stream_is_written_through(tmp_path: Path) -> None:
    """As ``-o /dev/stdout`` is: the link leads to a FIFO here."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "out.json"
    link.symlink_to(fifo)
    with reading(fifo) as got:
        code, _, err = run("convert", str(SPEC), "-o", str(link), "--force", "-q")
    assert code == 0, err
    assert link.is_symlink() and stat.S_ISFIFO(os.stat(link).st_mode)
    assert json.loads(got[0])["schema"] == "tabla-match/1"


def test_a_fifo_in_an_output_folder_is_written_to(tmp_path: Path) -> None:
    """``--out-dir`` and the staged folders (``report --frames``) publish file by file the same way."""
    inputs = tmp_path / "in"
    inputs.mkdir()
    shutil.copy(SPEC, inputs / "m.mat")
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / "m.json")
    with reading(out / "m.json") as got:
        code, _, err = run("convert", str(inputs / "m.mat"), "--out-dir", str(out), "--to", "json", "-q")
    assert code == 0, err
    assert stat.S_ISFIFO(os.lstat(out / "m.json").st_mode) and json.loads(got[0])["schema"] == "tabla-match/1"
    os.mkfifo(out / "b.txt")
    with reading(out / "b.txt") as got, staged_folder(out, ["a.txt", "b.txt"], force=False) as tmp:
        (tmp / "a.txt").write_text("a")
        (tmp / "b.txt").write_text("b")
    assert got == [b"b"] and (out / "a.txt").read_text() == "a" and stat.S_ISFIFO(os.lstat(out / "b.txt").st_mode)


def test_write_atomic_streams_to_a_fifo_without_force(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with reading(fifo) as got:
        write_atomic(fifo, "hello", force=False)
    assert got == [b"hello"] and stat.S_ISFIFO(os.lstat(fifo).st_mode)
