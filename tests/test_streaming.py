"""Files are read match by match: the streamed reading gives what reading the whole text gives."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from tabla_cli import source
from tabla_cli.check import check_file, check_text
from tabla_cli.formats import mat
from tabla_cli.source import open_stream

DATA = Path(__file__).parent / "data"
CORPUS = sorted((DATA / "corpus" / "mat").iterdir())[:12]


def joined() -> str:
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in CORPUS]
    return "\n".join(t for t in texts if mat.looks_like_mat(t))


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_streamed_matches_equal_whole_text_matches(newline: str) -> None:
    text = joined().replace("\r\n", "\n").replace("\n", newline)
    whole = list(mat.parse_matches(text, path="j.mat"))
    streamed = list(mat.read_matches(io.StringIO(text, newline=""), path="j.mat"))
    assert len(whole) > 5 and streamed == whole
    assert [m.location for m in streamed] == [m.location for m in whole]


@pytest.fixture
def small_streams(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files over 1,000 bytes are streamed (the real threshold is megabytes)."""
    monkeypatch.setattr(source, "STREAM_SIZE", 1000)


def test_only_large_regular_files_are_streamed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "j.mat"
    path.write_text(joined(), encoding="utf-8")
    assert open_stream(path) is None
    monkeypatch.setattr(source, "STREAM_SIZE", 1000)
    stream = open_stream(path)
    assert stream is not None and (stream.encoding, stream.guessed) == ("utf-8", False)
    stream.handle.close()
    assert open_stream(path, max_size=1500) is None  # too large: read whole, which reports it
    path.write_bytes("\ufeff".encode("utf-16-le") + joined().encode("utf-16-le"))
    assert open_stream(path) is None  # UTF-16 is decoded whole


def test_findings_of_a_later_match_keep_their_file_lines(tmp_path: Path, small_streams: None) -> None:
    text = joined()
    lines = text.split("\n")
    last = max(i for i, line in enumerate(lines) if line.strip().startswith("Game 1"))
    lines.insert(last + 3, "  1) 31: 8/5 6/5 bogus")
    text = "\n".join(lines)
    path = tmp_path / "j.mat"
    path.write_text(text, encoding="utf-8")
    streamed = check_file(str(path))
    whole = check_text(text, str(path))
    assert streamed.findings == whole.findings and streamed.matches == whole.matches
    assert any(f.location.line == last + 4 for f in streamed.findings)


def test_a_legacy_file_streams_with_a_guessed_code_page(tmp_path: Path, small_streams: None) -> None:
    path = tmp_path / "l.mat"
    text = CORPUS[0].read_text(encoding="utf-8")
    path.write_bytes(("; [Place \"Köln\"]\n" + text).encode("cp1252", errors="replace"))
    stream = open_stream(path)
    assert stream is not None and stream.guessed
    with stream.handle as handle:
        assert handle.readline() == '; [Place "Köln"]\n'
    report = check_file(str(path))
    assert [f.code for f in report.findings if f.code == "guessed-encoding"] == ["guessed-encoding"]
    assert report.findings[0].location.path == str(path)
