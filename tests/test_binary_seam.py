"""The seam binary readers plug into: detection by magic, bytes never decoded, the size limit on inflating,
locations by game and move. A toy format registered for these tests holds a zlib-compressed .mat."""

from __future__ import annotations

import dataclasses
import io
import sys
import types
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tabla_cli import formats
from tabla_cli.check import check_file
from tabla_cli.cli import main
from tabla_cli.errors import InputError, Location
from tabla_cli.findings import Code, Finding
from tabla_cli.formats import Format, detect, detect_binary, never
from tabla_cli.formats._binary import inflate
from tabla_cli.formats._syntax import ErrorHandler
from tabla_cli.formats.mat import read_matches as read_mat
from tabla_cli.model import Match
from tabla_cli.pipeline import ReadOptions
from tabla_cli.reader import read_path_matches
from tabla_cli.source import collect_paths, open_stream

from helpers import EXAMPLES

MAGIC = b"TOY\x00"
THREE = (EXAMPLES / "three-point-match.mat").read_bytes()


def read_toy(data: bytes, *, path: str, on_error: ErrorHandler | None = None, max_size: int) -> Iterator[Match]:
    """A toy binary format: the magic, then a .mat compressed with zlib; ``!`` after the magic: a damaged record."""
    if data[len(MAGIC) :].startswith(b"!"):
        raise InputError("a damaged record", Location(path, game=2, move=7))
    text = inflate(data[len(MAGIC) :], max_size=max_size, location=Location(path)).decode("utf-8")
    for match in read_mat(io.StringIO(text), path=path, on_error=on_error):
        yield dataclasses.replace(match, format="toy")


@pytest.fixture(autouse=True)
def toy_format(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy format registered first, as a reader module would be (one module, one line in MODULES)."""
    module = types.ModuleType("tabla_cli.formats.toy")
    module.FORMAT = Format("toy", (".toy",), never, read_toy, magic=(MAGIC,))  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tabla_cli.formats.toy", module)
    monkeypatch.setattr(formats, "MODULES", ("toy", *formats.MODULES))
    formats._registry.cache_clear()
    yield
    monkeypatch.undo()
    formats._registry.cache_clear()


def toy(text: bytes = THREE) -> bytes:
    return MAGIC + zlib.compress(text)


def test_detected_by_magic_never_by_text() -> None:
    assert detect_binary(toy()) is not None and detect_binary(toy()).name == "toy"  # type: ignore[union-attr]
    assert detect_binary(THREE) is None
    assert detect(THREE.decode()) is not None and detect(THREE.decode()).name == "mat"  # type: ignore[union-attr]


def test_check_reads_the_bytes_without_an_encoding_note(tmp_path: Path) -> None:
    path = tmp_path / "m.bin"
    path.write_bytes(toy())
    report = check_file(str(path))
    assert [f.code for f in report.findings if f.code != Code.MATCH_INCOMPLETE] == []
    assert report.matches == 1
    assert [m.format for m in read_path_matches(path)] == ["toy"]


def test_a_bomb_is_refused_within_max_size(tmp_path: Path) -> None:
    path = tmp_path / "bomb.bin"
    path.write_bytes(toy(THREE + b"\n" * 5_000_000))
    assert path.stat().st_size < 20_000
    report = check_file(str(path), ReadOptions(max_size=1_000_000))
    assert [f.code for f in report.findings] == [Code.FILE_TOO_LARGE]
    assert "inflates past the size limit of 1000000 bytes" in report.findings[0].message


def test_truncated_compressed_data_is_a_finding(tmp_path: Path) -> None:
    path = tmp_path / "cut.bin"
    path.write_bytes(toy()[:-20])
    report = check_file(str(path))
    assert [f.code for f in report.findings] == [Code.UNREADABLE_FILE]
    assert "ends early" in report.findings[0].message


def test_an_error_located_by_game_and_move(tmp_path: Path) -> None:
    path = tmp_path / "bad.bin"
    path.write_bytes(MAGIC + b"!")
    runner = CliRunner()
    result = runner.invoke(main, ["check", str(path)])
    assert result.exit_code == 1
    assert f"{path}: error[syntax-error]: game 2 move 7: a damaged record" in result.stderr
    assert "guessed" not in result.stdout + result.stderr
    report = check_file(str(path))
    assert (report.findings[0].game, report.findings[0].move) == (2, 7)


def test_finding_at_moves_game_and_move_from_the_location() -> None:
    finding = Finding.at(Code.SYNTAX_ERROR, "x", Location("a.xg", game=3, move=12))
    assert (finding.game, finding.move, finding.location) == (3, 12, Location("a.xg"))
    assert finding.to_dict()["game"] == 3
    assert str(Location("a.xg", game=3, move=12)) == "a.xg: game 3 move 12"
    assert Finding.at(Code.SYNTAX_ERROR, "x", Location("a.mat", 4, 2)).location == Location("a.mat", 4, 2)


def test_a_directory_mixing_formats(tmp_path: Path) -> None:
    (tmp_path / "a.mat").write_bytes(THREE)
    (tmp_path / "b.data").write_bytes(toy())
    (tmp_path / "c.data").write_bytes(b"\x00\x01 not a transcript")
    assert collect_paths([str(tmp_path)]) == [str(tmp_path / "a.mat"), str(tmp_path / "b.data")]
    result = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert result.exit_code == 0, result.stdout
    assert "guessed" not in result.stdout + result.stderr


def test_a_large_binary_file_is_not_streamed_as_text(tmp_path: Path) -> None:
    path = tmp_path / "big.bin"
    path.write_bytes(MAGIC + b"x" * (5 * 1024 * 1024))
    assert open_stream(path) is None
    report = check_file(str(path))
    assert [f.code for f in report.findings] == [Code.UNREADABLE_FILE]
