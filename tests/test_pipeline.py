"""The one pipeline under check, report and convert: isolation, regular files only, size limit, encodings, writers."""

from __future__ import annotations

import dataclasses
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tabla_cli import replay as replay_module
from tabla_cli.check import check_file
from tabla_cli.cli import main
from tabla_cli.cli.options import parse_size
from tabla_cli.convert import convert_source
from tabla_cli.errors import UnsupportedFormatError
from tabla_cli.findings import CODES
from tabla_cli.formats import _registry as registry
from tabla_cli.formats import mat as mat_format
from tabla_cli.model import Match
from tabla_cli.pipeline import ReadOptions
from tabla_cli.reports.options import format_for_path as report_format
from tabla_cli.source import Source, decode_bytes
from tabla_cli.writers import FORMATS, SUFFIXES, WRITERS, format_for_path, get

import helpers
from helpers import DATA, EXAMPLES, corpus_files

THREE = (EXAMPLES / "three-point-match.mat").read_text(encoding="utf-8")
NAMES = re.search(r"^\s*(\S+) : \d+\s+(\S+) : \d+", THREE, re.MULTILINE)
assert NAMES is not None


def invoke(*args: str, input: bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def renamed(first: str, second: str) -> str:
    """The three-point example with its players renamed."""
    assert NAMES is not None
    return THREE.replace(NAMES.group(1), first).replace(NAMES.group(2), second)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Three good transcripts; ``b-bad.mat`` makes the reader raise (see ``broken_reader``)."""
    for name in ("a.mat", "b-bad.mat", "c.mat"):
        (tmp_path / "in" / name).parent.mkdir(exist_ok=True)
        (tmp_path / "in" / name).write_text(THREE, encoding="utf-8")
    return tmp_path / "in"


@pytest.fixture
def broken_reader(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The .mat reader raises an unexpected exception for any path containing 'bad' (also in forked workers)."""
    original = mat_format.FORMAT.read_matches

    def read(handle: Any, *, path: str, on_error: Any = None, **options: Any) -> Iterator[Match]:
        if "bad" in path:
            raise ZeroDivisionError("boom")
        return original(handle, path=path, on_error=on_error, **options)

    monkeypatch.setattr(mat_format, "FORMAT", dataclasses.replace(mat_format.FORMAT, read_matches=read))
    registry.cache_clear()  # the registry is built once per process: rebuild it with the broken reader
    yield
    monkeypatch.undo()
    registry.cache_clear()


# --- one bad file never stops a run ------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.usefixtures("broken_reader")
def test_check_isolates_a_crash(folder: Path, jobs: str) -> None:
    code, out, _ = invoke("check", str(folder), "--jobs", jobs, "--format", "json")
    findings = json.loads(out)
    assert code == 1
    # a.mat and c.mat hold the same match: c.mat's copy is noted as such.
    assert [(Path(f["path"]).name, f["code"]) for f in findings] == [
        ("b-bad.mat", "internal-error"),
        ("c.mat", "duplicate-match"),
    ]
    assert "ZeroDivisionError: boom" in findings[0]["message"] and "please report" in findings[0]["message"]
    code, _, err = invoke("check", str(folder), "--jobs", jobs)
    assert "checked 3 files, 2 matches" in err


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.usefixtures("broken_reader")
def test_report_isolates_a_crash(folder: Path, jobs: str) -> None:
    code, out, err = invoke(
        "report", str(folder), "--jobs", jobs, "--by", "match", "--format", "json", "--keep-duplicates"
    )
    assert code == 1
    assert len(json.loads(out)) == 2
    assert re.search(r"b-bad\.mat: error\[internal-error\]: ZeroDivisionError: boom", err)


@pytest.mark.usefixtures("broken_reader")
def test_convert_isolates_a_crash_and_a_link_loop(folder: Path, tmp_path: Path) -> None:
    (folder / "loop.mat").symlink_to(folder / "loop.mat")
    code, _, err = invoke("convert", str(folder), "--out-dir", str(tmp_path / "out"), "--to", "json")
    assert code == 1
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["a.json", "c.json"]
    assert "b-bad.mat: error[internal-error]: ZeroDivisionError: boom" in err
    assert re.search(r"loop\.mat: error\[unreadable-file\]: .*symbolic links", err)
    assert "converted 2 of 4 inputs" in err


def test_convert_positions_replays_each_match_once(monkeypatch: pytest.MonkeyPatch) -> None:
    runs = []
    original = replay_module._MatchReplay.run

    def counted(self: Any) -> Any:
        runs.append(self.match)
        return original(self)

    monkeypatch.setattr(replay_module._MatchReplay, "run", counted)
    for fmt in ("positions", "txt", "mat"):
        runs.clear()
        done = convert_source(str(EXAMPLES / "three-point-match.mat"), fmt)
        assert done.output and done.matches == 1
        assert len(runs) == 1, fmt


# --- only regular files, never more than --max-size --------------------------------


def test_named_pipes_are_never_opened(tmp_path: Path) -> None:
    (tmp_path / "a.mat").write_text(THREE, encoding="utf-8")
    os.mkfifo(tmp_path / "pipe.mat")
    code, out, _ = invoke("check", str(tmp_path), "--format", "json", "--jobs", "1")
    assert code == 0
    assert [(f["code"], f["severity"], f["message"]) for f in json.loads(out)] == [
        ("special-file", "note", "a named pipe: skipped")
    ]
    code, out, _ = invoke("check", str(tmp_path / "pipe.mat"), "--format", "json")
    assert code == 1 and json.loads(out)[0]["code"] == "unreadable-file"
    code, _, err = invoke("report", str(tmp_path / "pipe.mat"))
    assert code == 1 and "not a regular file" in err
    code, _, err = invoke("convert", str(tmp_path / "pipe.mat"), "-o", str(tmp_path / "x.json"))
    assert code == 1 and "a named pipe, not a regular file" in err and not (tmp_path / "x.json").exists()


def test_devices_are_not_read(tmp_path: Path) -> None:
    (tmp_path / "zero.mat").symlink_to("/dev/zero")
    report = check_file(str(tmp_path / "zero.mat"))
    assert [(f.code, f.message) for f in report.findings] == [
        ("unreadable-file", "a character device, not a regular file: not read")
    ]


def test_max_size(tmp_path: Path) -> None:
    path = tmp_path / "m.mat"
    path.write_text(THREE, encoding="utf-8")
    size = len(path.read_bytes())
    assert check_file(str(path), ReadOptions(max_size=size)).findings == []
    for command in (["check"], ["report"], ["convert", "--to", "json", "-o", "-"]):
        code, out, err = invoke(*command, str(path), "--max-size", str(size - 1))
        assert code == 1, command
        assert f"{size} bytes, more than the limit of {size - 1} bytes (--max-size); not read" in err + out
        assert "file-too-large" in err + out
    code, _, err = invoke("check", "-", "--max-size", "100", input=THREE.encode())
    assert code == 1 and "<stdin>: error[file-too-large]" in err
    assert invoke("check", str(path), "--max-size", "lots")[0] == 2
    assert parse_size("256M") == 256 * 1024 * 1024 and parse_size("1g") == 1 << 30


# --- encodings -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "codec"),
    [
        (("Müller", "Jörg"), "cp1252"),
        (("Пётр", "Фёдор"), "cp1251"),
        (("Пётр", "Ann"), "cp1251"),
        (("Иван", "Сергей"), "cp1251"),
        (("Łukasz", "Wójcik"), "cp1250"),
    ],
)
def test_legacy_code_pages_are_guessed(tmp_path: Path, names: tuple[str, str], codec: str) -> None:
    text = renamed(*names)
    decoded = decode_bytes(text.encode(codec))
    assert decoded.text == text and decoded.guessed
    path = tmp_path / "m.mat"
    path.write_bytes(text.encode(codec))
    code, out, err = invoke("convert", str(path), "--to", "json", "-o", "-")
    assert code == 0 and json.loads(out)["matches"][0]["players"] == list(names)
    assert f"m.mat: note[guessed-encoding]: neither UTF-8 nor UTF-16: read as {decoded.encoding}" in err
    code, out, _ = invoke("check", str(path), "--format", "json")
    assert code == 0 and [f["code"] for f in json.loads(out)] == ["guessed-encoding"]
    code, out, _ = invoke("report", str(path), "--by", "match", "--format", "json", "-q")
    assert code == 0 and json.loads(out)[0]["player0"] == names[0]


def test_encoding_option(tmp_path: Path) -> None:
    text = renamed("Пётр", "Фёдор")
    path = tmp_path / "m.mat"
    path.write_bytes(text.encode("koi8_r"))
    code, out, err = invoke("convert", str(path), "--to", "json", "-o", "-", "--encoding", "KOI8-R")
    assert code == 0 and "note" not in err and json.loads(out)["matches"][0]["players"] == ["Пётр", "Фёдор"]
    code, out, _ = invoke("check", str(path), "--encoding", "koi8-r", "--format", "json")
    assert code == 0 and json.loads(out) == []
    code, out, _ = invoke("check", str(path), "--encoding", "utf-8", "--format", "json")
    assert code == 1 and json.loads(out)[0]["message"].startswith("not utf-8 text: invalid")
    for command in (["check"], ["report"], ["convert", "--to", "json", "-o", "-"]):
        code, _, err = invoke(*command, str(path), "--encoding", "klingon")
        assert code == 2 and "unknown encoding 'klingon'" in err


def _json_text() -> str:
    done = convert_source(str(EXAMPLES / "three-point-match.mat"), "json")
    assert done.output is not None
    return done.output


SAMPLES = {
    "mat": lambda: THREE,
    "sgf": lambda: corpus_files("sgf")[0].read_text(encoding="utf-8"),
    "gnubg-text": lambda: corpus_files("txt")[0].read_text(encoding="utf-8"),
    "fibs": lambda: (DATA / "fibs" / "match3.txt").read_text(encoding="utf-8"),
    "json": _json_text,
}


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-16"])
@pytest.mark.parametrize("fmt", sorted(SAMPLES))
def test_every_reader_reads_utf16(tmp_path: Path, fmt: str, codec: str) -> None:
    text = SAMPLES[fmt]()
    plain = check_file(Source("s", data=text.encode("utf-8")))
    wide = check_file(Source("s", data=text.encode(codec)))
    assert plain.matches >= 1 and plain.plays > 0
    assert (wide.matches, wide.games, wide.plays, wide.findings) == (
        plain.matches,
        plain.games,
        plain.plays,
        plain.findings,
    )


# --- codes, writers ------------------------------------------------------------------


def test_findings_page_lists_exactly_the_codes() -> None:
    page = (helpers.ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
    table = page.split("| Code | Severity | Meaning |", 1)[1].split("\n\n", 1)[0]
    listed = re.findall(r"^\| `([a-z0-9-]+)` \|", table, re.MULTILINE)
    assert listed == list(CODES)


def test_writers_registry() -> None:
    assert FORMATS == ("mat", "sgf", "json", "positions", "txt", "ogxm") == tuple(w.name for w in WRITERS)
    assert SUFFIXES == {
        ".mat": "mat",
        ".sgf": "sgf",
        ".json": "json",
        ".csv": "positions",
        ".ogxm": "ogxm",
        ".ogxms": "ogxm",
    }
    assert get("positions").suffix == ".csv" and get("txt").suffix == ".txt"
    assert format_for_path("x/y.CSV") == "positions" and report_format("x/y.CSV") == "csv"
    assert format_for_path("m.txt") is None and report_format("m.txt") == "table"
    with pytest.raises(UnsupportedFormatError, match="unknown output format 'xml'"):
        get("xml")
