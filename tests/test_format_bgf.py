"""BGBlitz ``.bgf`` files: the Smile decoder, the reader, its analysis, and bad files.

The eight files of ``tests/data/bgf/`` are the same matches as the
``gammonview-*.mat`` files of ``tests/data/corpus/mat/`` (see
``tests/data/SOURCES.md``): every decision read from a ``.bgf`` must equal
the one read from its twin.
"""

from __future__ import annotations

import copy
import gzip
import os
import random
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_cli_imports import loaded_by

from tabla_cli.analysis.decisions import AnalysisOptions
from tabla_cli.analysis.file_analysis import analyse_source
from tabla_cli.board import Dice, Play, Position
from tabla_cli.check import check_file
from tabla_cli.cli import main
from tabla_cli.errors import InflatesTooLargeError, InputError, TablaError, TranscriptSyntaxError
from tabla_cli.findings import Code
from tabla_cli.formats import detect_binary, get
from tabla_cli.formats._smile import SmileError, decode
from tabla_cli.formats.bgf import read_document, read_matches
from tabla_cli.model import Action, ActionKind, Match
from tabla_cli.pipeline import ReadOptions
from tabla_cli.reader import read_path_matches
from tabla_cli.replay import replay
from tabla_cli.source import Source
from tabla_cli.visitor import BaseVisitor, DecisionState, Wants

from helpers import CORPUS, DATA
from smile_writer import bgf_file, encode, vint

BGF = sorted((DATA / "bgf").glob("*.bgf"))
LIMIT = 1 << 28


def twin(path: Path) -> Path:
    return CORPUS / "mat" / f"{path.stem}.mat"


def document(path: Path) -> Any:
    return read_document(path.read_bytes(), path=str(path), max_size=LIMIT)


def read(data: bytes, path: str = "m.bgf") -> list[Match]:
    return list(read_matches(data, path=path, max_size=LIMIT))


class Decisions(BaseVisitor[list[tuple[Any, ...]]]):
    """(game, kind, Position ID, Match ID, dice, position after) of every roll and cube action."""

    wants = Wants.ROLL | Wants.CUBE

    wants = Wants.ROLL | Wants.CUBE

    def __init__(self) -> None:
        self.rows: list[tuple[Any, ...]] = []

    def visit_roll(self, state: DecisionState, action: Action, play: Play | None, after: Position | None) -> None:
        dice: Dice | None = action.dice
        assert dice is not None
        self.rows.append(
            (
                state.game,
                "roll",
                state.position_id(),
                state.match_id(dice),
                tuple(sorted(dice)),
                None if after is None else after.position_id(),
            )
        )

    def visit_cube(
        self, state: DecisionState, action: Action, cube_before: int, cube_after: int, owner: object
    ) -> None:
        self.rows.append((state.game, action.kind.value, state.position_id(), state.match_id(), None, None))

    def result(self) -> list[tuple[Any, ...]]:
        return self.rows


def decisions(match: Match) -> list[tuple[Any, ...]]:
    return replay(match, Decisions())


# --- the Smile decoder ---------------------------------------------------------------------


def test_decoder_reads_spec_vectors() -> None:
    # header with shared names; {"a": 1, "b": [null, true, false, ""], "a2": -3}; written by hand from the spec
    data = b":)\n\x01\xfa\x80a\xc2\x80b\xf8\x21\x23\x22\x20\xf9\x81a2\xc5\xfb"
    assert decode(data) == {"a": 1, "b": [None, True, False, ""], "a2": -3}
    # a key repeated by a short shared-name reference (index 0)
    assert decode(b":)\n\x01\xf8\xfa\x80a\xc0\xfb\xfa\x40\xc2\xfb\xf9") == [{"a": 0}, {"a": 1}]
    # 32-bit int 1000 (zigzag 2000: 31 << 6 | 16), 32-bit float 1.5, then the end-of-content marker
    assert decode(b":)\n\x00\xf8\x24\x1f\x90\x28\x03\x7e\x00\x00\x00\xf9\xff") == [1000, 1.5]
    # a shared value reference (index 0) and a long ASCII string
    assert decode(b":)\n\x02\xf8\x42abc\x01\xe0long text\xfc\xf9") == ["abc", "abc", "long text"]
    # a big decimal: scale 2 (zigzag 4), one byte of magnitude 7 (7 bits left-aligned: 0x03 0x40)
    assert decode(b":)\n\x00\x2a\x84\x81\x03\x40") == 0.07
    # tiny Unicode "é" (2 bytes)
    assert decode(b":)\n\x00\x80\xc3\xa9") == "é"


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"{}", "no ':)' header"),
        (b":)\n\x10\x21", "version 1"),
        (b":)\n\x00", "ends early"),
        (b":)\n\x00\xfa\x80a", "ends early"),
        (b":)\n\x00\x01", "shared string 0, which is not defined"),
        (b":)\n\x02\x05", "shared string 4, which is not defined"),
        (b":)\n\x01\xfa\x45\x21\xfb", "shared name 5, which is not defined"),
        (b":)\n\x00\xe8\x0f\x7f\x7f\x7f\x7f\xbf", "runs past the end"),
        (b":)\n\x00\xfd\x0f\x7f\x7f\x7f\xbf", "runs past the end"),
        (b":)\n\x00\x5f" + b"x" * 5, "runs past the end"),
        (b":)\n\x00\xe0no end", "no end marker"),
        (b":)\n\x00\x24" + b"\x01" * 11, "runs over 5 bytes"),
        (b":)\n\x00\x24\xc0", "last byte is out of range"),
        (b":)\n\x00\x26\x0f\x7f\x7f\xbf", "longer than 1024"),
        (b":)\n\x00\x41\xff\xfe", "not valid UTF-8"),
        (b":)\n\x00\x2a\x1f\x7f\x7f\x7f\xbf\x81\x07", "scale -2147483648 is beyond 10000"),
        (b":)\n\x00\x2c", "unexpected byte 0x2C"),
        (b":)\n\x00\xfa\x10\x21\xfb", "where a property name should be"),
        (b":)\n\x00\x21\x21", "bytes follow the end"),
        (b":)\n\x00" + b"\xf8" * 100_000, "nest deeper than 64"),
        (b":)\n\x00" + b"\xfa\x80a" * 100, "nest deeper than 64"),
    ],
)
def test_decoder_refuses_malformed_input(data: bytes, reason: str) -> None:
    with pytest.raises(SmileError, match=re.escape(reason)):
        decode(data)


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=80)
    | st.binary(max_size=40),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=70), inner, max_size=5),
    max_leaves=30,
)


@settings(max_examples=150, deadline=None)
@given(value=_JSON, share=st.booleans())
def test_decoder_round_trips_what_the_spec_encodes(value: Any, share: bool) -> None:
    assert decode(encode(value, share_names=share, share_values=share)) == value


_TOKENS = st.one_of(
    st.integers(0, 255).map(lambda b: bytes([b])),
    st.sampled_from(
        [
            b"\xfa",
            b"\xfb",
            b"\xf8",
            b"\xf9",
            b"\x80a",
            b"\x40",
            b"\x30\x41",
            b"\x34",
            b"\xfc",
            b"\x01",
            b"\xec\x20",
            b"\xe0",
            b"\xe4",
            b"\x24",
            b"\x25",
            b"\x26",
            b"\x28",
            b"\x29",
            b"\x2a",
            b"\xe8",
            b"\xfd",
            b"\xff",
        ]
    ),
    st.builds(
        lambda token, number: bytes([token]) + vint(number),
        st.sampled_from([0x24, 0x25, 0x26, 0x2A, 0xE8, 0xFD]),
        st.integers(0, 2**64),
    ),
    st.integers(0, 2**40).map(vint),
)


def _decodes_or_refuses(data: bytes) -> None:
    try:
        decode(data)
    except SmileError:
        pass


@settings(max_examples=400, deadline=None)
@given(flags=st.integers(0, 15), tokens=st.lists(_TOKENS, max_size=40))
def test_any_token_soup_decodes_or_is_refused(flags: int, tokens: list[bytes]) -> None:
    _decodes_or_refuses(b":)\n" + bytes([flags]) + b"".join(tokens))


@pytest.mark.slow
@settings(max_examples=50_000 if os.environ.get("HYPOTHESIS_PROFILE") == "long" else 4_000, deadline=None)
@given(flags=st.integers(0, 15), tokens=st.lists(_TOKENS, max_size=80))
def test_any_token_soup_decodes_or_is_refused_long(flags: int, tokens: list[bytes]) -> None:
    _decodes_or_refuses(b":)\n" + bytes([flags]) + b"".join(tokens))


def test_shared_tables_are_cleared_when_full() -> None:
    words = [f"w{i}" for i in range(1100)]
    value = {"values": words + words[1030:], "objects": [{name: 1} for name in words] + [{"w1050": 2}]}
    assert decode(encode(value)) == value


# --- the reader on the corpus --------------------------------------------------------------


def test_detected_by_content(tmp_path: Path) -> None:
    path = tmp_path / "match.data"
    path.write_bytes(BGF[0].read_bytes())
    fmt = detect_binary(path.read_bytes())
    assert fmt is not None and fmt is get("bgf")
    assert [m.format for m in read_path_matches(path)] == ["bgf"]


@pytest.mark.parametrize("path", BGF, ids=lambda p: p.stem)
def test_decisions_equal_the_mat_twin(path: Path) -> None:
    (bgf,) = read(path.read_bytes(), str(path))
    (mat,) = list(read_path_matches(twin(path)))
    assert bgf.length == mat.length
    assert [g.score for g in bgf.games] == [g.score for g in mat.games]
    got, want = decisions(bgf), decisions(mat)
    assert len(got) == len(want) > 0
    assert got == want


@pytest.mark.parametrize("path", BGF, ids=lambda p: p.stem)
def test_findings_equal_the_mat_twin(path: Path) -> None:
    def where(findings: list[Any]) -> list[tuple[str, int | None, int | None]]:
        return sorted((f.code, f.game, f.move) for f in findings)

    got, want = check_file(str(path)), check_file(str(twin(path)))
    assert where(got.findings) == where(want.findings)


def test_the_illegal_play_is_found_at_the_twins_game_and_move() -> None:
    report = check_file(str(DATA / "bgf" / "gammonview-5nqfGw9bWG3deTaU.bgf"))
    (finding,) = [f for f in report.findings if f.code == Code.ILLEGAL_PLAY]
    assert (finding.game, finding.move, finding.play) == (1, 11, "14/10 13/12")
    assert finding.render().startswith(
        f"{DATA / 'bgf' / 'gammonview-5nqfGw9bWG3deTaU.bgf'}: error[illegal-play]: "
        "game 1 move 11, Marion_Castlebury rolls 3-1"
    )


def test_match_fields() -> None:
    (match,) = read((DATA / "bgf" / "gammonview-B4_SrGcsKAQmoTyHlgJCbM.bgf").read_bytes())
    assert match.players == ("Fox", "Bluepoint02")
    assert (match.length, match.format) == (0, "bgf")
    assert (match.rules.crawford, match.rules.jacoby, match.rules.beaver, match.rules.cube_limit) == (
        True,
        False,
        False,
        64,
    )
    assert match.header("Site") == "SampleServer"
    assert match.header("EventDate") == "2026.01.04"
    assert match.header("Match ID") == "B4_SrGcsKAQmoTyHlgJCbM"
    assert match.header("BGBlitz errors Green", "").startswith("cubeError=-0.11505879 checkerError=-0.54211611")
    assert "mode=Money" in (match.header("BGBlitz luck") or "")
    (seven,) = read((DATA / "bgf" / "gammonview-3WNK_g1Z-PLsh_HyvQ5j4a.bgf").read_bytes())
    assert seven.length == 7
    assert [g.crawford for g in seven.games] == [False, False, False, False, False, True, False]
    kinds = [a.kind for g in seven.games for a in g.actions]
    assert {ActionKind.ROLL, ActionKind.DOUBLE, ActionKind.TAKE, ActionKind.DROP, ActionKind.WIN} <= set(kinds)


def test_resignations_are_read() -> None:
    (match,) = read((DATA / "bgf" / "gammonview-5nqfGw9bWG3deTaU.bgf").read_bytes())
    resigned = [(g.number, a.player) for g in match.games for a in g.actions if a.kind is ActionKind.RESIGN]
    assert resigned == [(4, 0), (6, 0)]


def _file_figures(doc: dict[str, Any], key: str) -> tuple[float, float, int, int]:
    figures = doc[key]
    return (-float(figures["checkerError"]), -float(figures["cubeError"]), figures["checkerCnt"], figures["cubeCnt"])


@pytest.mark.parametrize("path", BGF, ids=lambda p: p.stem)
def test_error_sums_are_the_files_own_figures(path: Path) -> None:
    doc = document(path)
    analysis = analyse_source(str(path), AnalysisOptions(cache=False))
    sums: dict[int, list[float]] = defaultdict(lambda: [0.0, 0.0, 0, 0])
    for row in analysis.rows:
        assert row["source"] is None or row["source"].startswith("recorded BGBlitz ")
        if row["error"] is None or row["forced"]:
            continue
        checker = row["kind"] == "checker"
        sums[row["side"]][0 if checker else 1] += row["error"]
        sums[row["side"]][2 if checker else 3] += 1
    for side, key in ((0, "prGreen"), (1, "prRed")):
        checker, cube, checkers, cubes = _file_figures(doc, key)
        assert sums[side][0] == pytest.approx(checker, abs=1e-6)
        assert sums[side][1] == pytest.approx(cube, abs=1e-6)
        assert (sums[side][2], sums[side][3]) == (checkers, cubes)


def test_luck_of_each_roll_is_kept() -> None:
    path = DATA / "bgf" / "gammonview-B4_SrGcsKAQmoTyHlgJCbM.bgf"
    doc = document(path)
    want = defaultdict(float)
    for game in doc["games"]:
        for record in game["moves"]:
            if record.get("luck"):
                want[0 if record["player"] == -1 else 1] += float(record["luck"]["luckPlain"])
    rows = analyse_source(str(path), AnalysisOptions(cache=False)).rows
    got = defaultdict(float)
    for row in rows:
        if row["kind"] == "checker" and row["luck"] is not None:
            got[row["side"]] += row["luck"]
    assert got[0] == pytest.approx(want[0]) and got[1] == pytest.approx(want[1])


def test_candidates_and_cube_equities_are_kept() -> None:
    (match,) = read((DATA / "bgf" / "gammonview-B4_SrGcsKAQmoTyHlgJCbM.bgf").read_bytes())
    first = match.games[0].actions[0]
    assert first.analysis is not None
    assert first.analysis.level == "BGBlitz 3-ply"
    assert first.analysis.candidates[0].play == "13/8 24/20"
    assert first.analysis.played == 0 and len(first.analysis.candidates) == 8
    assert first.analysis.candidates[0].probabilities == pytest.approx(
        (0.5062251, 0.13558827, 0.00225435, 0.4937749, 0.12860413, 0.00187333)
    )
    drop = next(a for a in match.games[1].actions if a.kind is ActionKind.DROP)
    assert drop.analysis is not None and drop.analysis.cube_evaluation is not None
    cube = drop.analysis.cube_evaluation
    assert cube.error == pytest.approx(0.11505879)
    assert (cube.best, cube.rank) == ("take", 2)
    assert cube.cube_equities is not None and cube.cube_equities[2] == pytest.approx(1.0)


# --- every command ---------------------------------------------------------------------------


def test_convert_to_mat_reads_back_to_the_same_decisions(tmp_path: Path) -> None:
    for path in BGF:
        out = tmp_path / f"{path.stem}.mat"
        result = CliRunner().invoke(main, ["convert", str(path), "-o", str(out), "--no-check", "-q"])
        assert result.exit_code == 0, result.stderr
        (back,) = list(read_path_matches(out))
        (bgf,) = read(path.read_bytes(), str(path))
        assert decisions(back) == decisions(bgf)


@pytest.mark.parametrize("to", ["mat", "sgf", "json", "positions", "txt"])
def test_convert_to_every_format(tmp_path: Path, to: str) -> None:
    path = DATA / "bgf" / "gammonview-B4_SrGcsKAQmoTyHlgJCbM.bgf"
    result = CliRunner().invoke(main, ["convert", str(path), "--to", to, "--out-dir", str(tmp_path), "-q"])
    assert result.exit_code == 0, result.stderr
    (written,) = list(tmp_path.iterdir())
    assert written.stat().st_size > 1000
    if to in ("mat", "sgf", "json"):
        (back,) = list(read_path_matches(written))
        assert decisions(back) == decisions(read(path.read_bytes())[0])


def test_report_and_show_on_a_decisions_position(tmp_path: Path) -> None:
    path = DATA / "bgf" / "gammonview-B4_SrGcsKAQmoTyHlgJCbM.bgf"
    result = CliRunner().invoke(main, ["report", str(path), "--format", "csv", "-q"])
    assert result.exit_code == 0, result.stderr
    assert "Bluepoint02" in result.stdout
    (match,) = read(path.read_bytes())
    _, _, position_id, match_id, dice, after = decisions(match)[5]
    shown = CliRunner().invoke(main, ["show", f"{position_id}:{match_id}"])
    assert shown.exit_code == 0, shown.stderr
    assert position_id in shown.stdout
    plays = CliRunner().invoke(main, ["plays", "--format", "json", position_id, f"{dice[0]}{dice[1]}"])
    assert plays.exit_code == 0, plays.stderr
    assert after in plays.stdout  # the play made is one of the legal plays listed


def test_check_reads_standard_input() -> None:
    data = (DATA / "bgf" / "gammonview-B4_SrGcsKAQmoTyHlgJCbM.bgf").read_bytes()
    result = CliRunner().invoke(main, ["check", "-"], input=data)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert "checked 1 file, 1 match, 3 games" in result.stderr


def test_a_directory_mixing_formats(tmp_path: Path) -> None:
    source = DATA / "bgf" / "gammonview-MYdvw1qGuyaRUH_.bgf"
    (tmp_path / "a.bgf").write_bytes(source.read_bytes())
    (tmp_path / "b.mat").write_bytes((CORPUS / "mat" / "gammonview-UL-CV6F9jMM-E1Pu.mat").read_bytes())
    (tmp_path / "c.bin").write_bytes((DATA / "bgf" / "gammonview-XCu3RJ0UvDg_Tldl.bgf").read_bytes())
    result = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert result.exit_code == 0, result.stderr
    assert "checked 3 files, 3 matches" in result.stderr


# --- bad files ---------------------------------------------------------------------------------


def small_document() -> dict[str, Any]:
    """The first game of a corpus money session, with two candidates a roll: a small seed for the bad-file tests."""
    doc = copy.deepcopy(document(DATA / "bgf" / "gammonview-B4_SrGcsKAQmoTyHlgJCbM.bgf"))
    doc["games"] = doc["games"][:1]
    for record in doc["games"][0]["moves"]:
        if record.get("moveAnalysis"):
            record["moveAnalysis"] = record["moveAnalysis"][:2]
    doc["finalGreen"], doc["finalRed"] = 1, 0
    return doc


SMALL = small_document()
SHORT = {**SMALL, "games": [{**SMALL["games"][0], "moves": SMALL["games"][0]["moves"][:3]}]}
LONG = os.environ.get("HYPOTHESIS_PROFILE") == "long"
"""The long fuzz run (``HYPOTHESIS_PROFILE=long``, see ``docs/fuzzing.md``)."""


def codes(data: bytes, max_size: int = LIMIT) -> list[tuple[str, int | None, int | None]]:
    report = check_file(Source("bad.bgf", data=data), ReadOptions(max_size=max_size))
    return [(f.code, f.game, f.move) for f in report.findings]


def test_the_small_seed_checks_cleanly() -> None:
    assert codes(bgf_file(SMALL)) == []
    assert codes(bgf_file(SMALL, compress=False)) == []
    assert codes(bgf_file(SMALL, smile=False)) == []


@pytest.mark.parametrize(
    ("data", "code", "text"),
    [
        (b'{"format":"BGF",\n', Code.UNREADABLE_FILE, "header line is not JSON"),
        (b'{"format":"BGF"} no newline', Code.UNREADABLE_FILE, 'no {"format":"BGF"'),
        (b'{"format":"BGF","compress":true}\n\x1f\x8b\x08garbage', Code.UNREADABLE_FILE, "damaged"),
        (b'{"format":"BGF","compress":false}\n:)\n\x00\xfa\x80', Code.UNREADABLE_FILE, "Smile document is malformed"),
        (b'{"format":"BGF","compress":false,"useSmile":false}\n{"games": [', Code.UNREADABLE_FILE, "JSON document"),
        (b'{"format":"BGF","compress":false}\n:)\n\x00\xf8\xf9', Code.UNREADABLE_FILE, "not an object"),
    ],
)
def test_damaged_files_are_findings(data: bytes, code: Code, text: str) -> None:
    report = check_file(Source("bad.bgf", data=data))
    assert [f.code for f in report.findings] == [code], report.findings
    assert text in report.findings[0].message


def test_truncated_gzip_is_a_finding() -> None:
    data = bgf_file(SMALL)
    assert codes(data[:-30]) == [(Code.UNREADABLE_FILE, None, None)]


def test_a_bomb_is_refused_before_it_fills_memory() -> None:
    bomb = b'{"format":"BGF","compress":true,"useSmile":true}\n' + gzip.compress(b":)\n\x00\xe0" + b"a" * 50_000_000)
    assert len(bomb) < 100_000
    assert codes(bomb, max_size=1_000_000) == [(Code.FILE_TOO_LARGE, None, None)]
    with pytest.raises(InflatesTooLargeError):
        read_document(bomb, path="b.bgf", max_size=1_000_000)


def test_a_bad_record_is_located_by_game_and_move() -> None:
    doc = copy.deepcopy(SMALL)
    doc["games"][0]["moves"][6]["green"] = 7
    doc["games"][0]["moves"][6]["red"] = 8
    report = check_file(Source("bad.bgf", data=bgf_file(doc)))
    (finding,) = [f for f in report.findings if f.code == Code.SYNTAX_ERROR]
    assert (finding.game, finding.move) == (1, 3)
    assert (
        finding.render() == "bad.bgf: error[syntax-error]: game 1 move 3: record 7: an action of unknown code 8 "
        "(red=8, green=7)"
    )
    with pytest.raises(TranscriptSyntaxError):
        read(bgf_file(doc))


@pytest.mark.parametrize(
    ("change", "text"),
    [
        ({"type": "bmove"}, "unknown type 'bmove'"),
        ({"player": 0}, "player 0 is neither"),
        ({"red": 0}, "dice 0-4 are not two values"),
        ({"from": [13, 30, -1, -1]}, "moves from 30 to 20"),
        ({"from": [13]}, "same number of checkers"),
        ({"to": "x"}, "'to' is str, not list"),
    ],
)
def test_malformed_records_are_findings(change: dict[str, Any], text: str) -> None:
    doc = copy.deepcopy(SMALL)
    doc["games"][0]["moves"][0].update(change)
    report = check_file(Source("bad.bgf", data=bgf_file(doc)))
    assert [f.code for f in report.findings] == [Code.SYNTAX_ERROR]
    assert text in report.findings[0].message


def test_comments_and_fields_with_no_place_are_kept() -> None:
    doc = copy.deepcopy(SMALL)
    doc["games"][0]["comment"] = ["a quiet game", 3]
    doc["games"][0]["moves"][2]["comment"] = "why not 8/2 6/2?"
    doc["games"][0]["lostOnTime"] = True
    doc["ratingRed"] = 1712
    (match,) = read(bgf_file(doc))
    assert match.comments == ["game 1: a quiet game", "game 1 move 2: why not 8/2 6/2?"]
    assert match.header("BGBlitz game 1") == "lost on time"
    assert match.header("BGBlitz rating Red") == "1712"


def test_huge_numbers_are_refused() -> None:
    doc = copy.deepcopy(SMALL)
    doc["matchlen"] = 10**40
    report = check_file(Source("bad.bgf", data=bgf_file(doc)))
    assert [f.code for f in report.findings] == [Code.UNREADABLE_FILE]
    assert "'matchlen' is 1" in report.findings[0].message and "out of range" in report.findings[0].message


def test_checking_loads_no_heavy_package() -> None:
    status, loaded, _ = loaded_by("check", "--jobs", "1", str(DATA / "bgf" / "gammonview-B4_SrGcsKAQmoTyHlgJCbM.bgf"))
    assert (status, loaded) == (0, [])


def test_a_set_up_start_is_refused_in_words() -> None:
    doc = copy.deepcopy(SMALL)
    doc["games"][0]["initial"]["points"][0] = 3
    report = check_file(Source("bad.bgf", data=bgf_file(doc)))
    assert [f.code for f in report.findings] == [Code.SYNTAX_ERROR]
    assert "set-up position" in report.findings[0].message


def test_a_position_that_does_not_follow_is_an_illegal_play() -> None:
    doc = copy.deepcopy(SMALL)
    doc["games"][0]["moves"][2]["from"] = [3, 14, -1, -1]  # no checker of Green's on its 3-point
    report = check_file(Source("bad.bgf", data=bgf_file(doc)))
    found = [(f.code, f.game, f.move) for f in report.findings]
    assert found[0] == (Code.ILLEGAL_PLAY, 1, 2)
    assert {code for code, _, _ in found} <= {Code.ILLEGAL_PLAY, Code.UNCHECKED}


# --- fuzzing ---------------------------------------------------------------------------------------


def reads_cleanly(data: bytes) -> None:
    """Reading ``data`` raises nothing but TablaError."""
    try:
        read(data)
    except TablaError:
        pass


def checks_cleanly(data: bytes) -> None:
    """Checking ``data`` gives a report whose findings are all known and none an internal error."""
    report = check_file(Source("fuzz.bgf", data=data), ReadOptions(max_size=4_000_000))
    assert all(f.code != Code.INTERNAL_ERROR for f in report.findings), [f.render() for f in report.findings]


def _seed_files() -> list[bytes]:
    return [bgf_file(SMALL), bgf_file(SMALL, compress=False)]


def test_truncation_at_every_offset() -> None:
    data = bgf_file(SMALL)
    for end in range(len(data)):
        reads_cleanly(data[:end])
    body = encode(SHORT)
    for end in range(len(body)):
        with pytest.raises(SmileError):
            decode(body[:end])


@pytest.mark.slow
def test_truncation_at_every_offset_checked() -> None:
    compressed, plain = bgf_file(SMALL), bgf_file(SMALL, compress=False)
    for end in range(len(compressed)):
        checks_cleanly(compressed[:end])
    for end in range(0, len(plain), 1 if LONG else 13):
        checks_cleanly(plain[:end])


def _flip(data: bytes, rng: random.Random, flips: int) -> bytes:
    mutable = bytearray(data)
    for _ in range(flips):
        mutable[rng.randrange(len(mutable))] ^= 1 << rng.randrange(8)
    return bytes(mutable)


def _lie(body: bytes, rng: random.Random) -> bytes:
    """The Smile body with a length, a reference or a nesting token swapped for a lying one."""
    at = rng.randrange(4, len(body))
    token = rng.choice(
        [
            b"\xe8\x0f\x7f\x7f\x7f\xbf",
            b"\xfd\x7f\x7f\xbf",
            b"\x7f",
            b"\xbf",
            b"\x1f",
            b"\xef\xff",
            b"\x33\xff",
            b"\x7f",
            b"\xe0",
            b"\xf8" * 200,
            b"\xfa" * 200,
            b"\x26\x7f\x7f\xbf",
            b"\x29" + b"\x7f" * 10,
            b"\x2a\x81\x7f\xbf",
        ]
    )
    return body[:at] + token + body[at + rng.randrange(0, 3) :]


def _mutants(count: int, seed: int) -> None:
    rng = random.Random(seed)
    body = encode(SMALL)
    header = b'{"format":"BGF","version":"1.0","compress":true,"useSmile":true}\n'
    for _ in range(count):
        kind = rng.randrange(3)
        if kind == 0:
            mutant = _flip(body, rng, rng.randint(1, 4))
        elif kind == 1:
            mutant = _lie(body, rng)
        else:
            mutant = body[: rng.randrange(len(body))] + body[rng.randrange(len(body)) :]
        try:
            decode(mutant)
        except SmileError:
            pass
        checks_cleanly(header + gzip.compress(mutant, mtime=0))


def test_mutants_check_cleanly() -> None:
    _mutants(150, seed=24)


@pytest.mark.slow
def test_mutants_check_cleanly_long() -> None:
    _mutants(20_000 if LONG else 1_500, seed=2024)


_FIELDS = st.sampled_from(["red", "green", "player", "from", "to", "type", "moveAnalysis", "pr", "equity", "luck"])
_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**40), 2**40),
    st.floats(allow_nan=True),
    st.text(max_size=5),
    st.lists(st.integers(-2, 30), max_size=6),
    st.just({}),
    st.just([]),
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 22), field=_FIELDS, value=_VALUES)
def test_any_record_value_checks_cleanly(index: int, field: str, value: Any) -> None:
    doc = copy.deepcopy(SMALL)
    doc["games"][0]["moves"][index][field] = value
    checks_cleanly(bgf_file(doc))


_GAME_FIELDS = st.sampled_from(["initial", "scoreGreen", "scoreRed", "isCrawford", "moves", "lostOnTime"])
_MATCH_FIELDS = st.sampled_from(
    [
        "games",
        "matchlen",
        "nameGreen",
        "cubeLimit",
        "useCrawford",
        "finalGreen",
        "luck",
        "prGreen",
        "event",
        "ratingRed",
    ]
)
_NESTED = _VALUES | st.dictionaries(st.sampled_from(["points", "cube", "cubeOwner", "x"]), _VALUES, max_size=3)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_field=_GAME_FIELDS, match_field=_MATCH_FIELDS, value=_NESTED, where=st.booleans())
def test_any_game_or_match_value_checks_cleanly(game_field: str, match_field: str, value: Any, where: bool) -> None:
    doc = copy.deepcopy(SMALL)
    if where:
        doc["games"][0][game_field] = value
    else:
        doc[match_field] = value
    checks_cleanly(bgf_file(doc))


def test_a_json_body_reads_like_smile() -> None:
    assert decisions(read(bgf_file(SMALL, smile=False))[0]) == decisions(read(bgf_file(SMALL))[0])


def test_input_errors_are_input_errors() -> None:
    with pytest.raises(InputError):
        read(b'{"format":"BGF"}\n')
