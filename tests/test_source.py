"""The one way in: decoding bytes, walking paths, the format registry."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from tabla_cli.errors import UnsupportedFormatError
from tabla_cli.formats import MODULES, claimed_suffixes, detect, formats, get, titles
from tabla_cli.parallel import map_in_order
from tabla_cli.reader import detect_format, read_match
from tabla_cli.source import collect_paths, decode_bytes, is_transcript

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
    with pytest.raises(UnsupportedFormatError, match="unknown input format 'xgp'; tabla reads xg, bgf, ogxm"):
        get("xgp")


def test_what_tabla_reads_is_listed_from_the_registry() -> None:
    listed = titles()
    assert listed.split(", ") == [f.title or f.name for f in formats()]
    assert "BGBlitz .bgf" in listed and "eXtreme Gammon .xg" in listed
    with pytest.raises(UnsupportedFormatError) as caught:
        detect_format("hello")
    assert str(caught.value) == f"not a recognised match transcript ({listed})"


def test_claimed_suffixes_make_a_transcript_whatever_the_content(tmp_path: Path) -> None:
    assert claimed_suffixes() == {".mat", ".sgf"}
    for name in ("notes.mat", "notes.SGF", "notes.txt"):
        (tmp_path / name).write_text("hello\n", encoding="utf-8")
    assert [is_transcript(tmp_path / n) for n in ("notes.mat", "notes.SGF", "notes.txt")] == [True, True, False]


def test_each_formats_variant_names_are_one_table_read_both_ways() -> None:
    from tabla_cli.formats.mat_headers import VARIANT_NAMES, variant
    from tabla_cli.formats.sgf import RULE_WORDS, VARIANT_WORDS

    assert {name: variant(header) for name, header in VARIANT_NAMES.items()} == {n: n for n in VARIANT_NAMES}
    assert {name: RULE_WORDS[word] for name, word in VARIANT_WORDS.items()} == {n: n for n in VARIANT_WORDS}
