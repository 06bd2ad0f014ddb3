"""The one way in: decoding bytes, walking paths, the format registry."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from tabla_cli.formats import MODULES, detect, formats, get
from tabla_cli.reader import read_match
from tabla_cli.source import collect_paths, decode_bytes, map_in_order

from helpers import EXAMPLES

TEXT = (EXAMPLES / "three-point-match.mat").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("data", "encoding"),
    [
        (TEXT.encode("utf-8"), "utf-8"),
        (codecs.BOM_UTF8 + TEXT.encode("utf-8"), "utf-8-sig"),
        (TEXT.encode("utf-16"), "utf-16"),
        (codecs.BOM_UTF16_BE + TEXT.encode("utf-16-be"), "utf-16"),
        (TEXT.encode("utf-16-le"), "utf-16-le"),
        (TEXT.encode("utf-16-be"), "utf-16-be"),
        ("Jörg : 0".encode("latin-1"), "cp1252"),
    ],
)
def test_decode_bytes(data: bytes, encoding: str) -> None:
    decoded = decode_bytes(data)
    assert decoded.encoding == encoding
    assert decoded.guessed == (encoding == "cp1252")
    assert decoded.text == ("Jörg : 0" if encoding == "cp1252" else TEXT)


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_read_match_reads_utf16(tmp_path: Path, codec: str) -> None:
    path = tmp_path / "m.mat"
    path.write_bytes(TEXT.encode(codec))
    assert read_match(path).players == read_match(EXAMPLES / "three-point-match.mat").players


def test_collect_paths_is_sorted_and_skips_hidden(tmp_path: Path) -> None:
    for name in ("b/2.mat", "b/1.mat", "a.mat", ".hidden/x.mat", "c/.x.mat"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    found = [Path(p).relative_to(tmp_path).as_posix() for p in collect_paths([str(tmp_path)])]
    assert found == ["a.mat", "b/1.mat", "b/2.mat"]


def test_map_in_order_keeps_input_order() -> None:
    assert list(map_in_order(abs, [-3, 2, -1, 0, -5], jobs=2)) == [3, 2, 1, 0, 5]


def test_registry_lists_every_reader_in_detection_order() -> None:
    names = [f.name for f in formats()]
    assert len(names) == len(MODULES) == len(set(names))
    assert names == ["xg", "bgf", "ogxm", "gva", "json", "sgf", "gnubg-text", "position-text", "fibs", "mat"]
    assert [f.name for f in formats() if f.binary] == ["xg", "bgf", "ogxm"]
    assert get("mat").suffixes[0] == ".mat"
    fmt = detect(TEXT)
    assert fmt is not None and fmt.name == "mat"
    assert detect("hello") is None
    with pytest.raises(KeyError):
        get("xgp")
