"""The eXtreme Gammon .xg reader: every corpus file against its .mat twin, XG's analysis, damaged files."""

from __future__ import annotations

import csv
import io
import struct
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tabla_cli.analysis.decisions import AnalysisOptions
from tabla_cli.analysis.file_analysis import analyse_file
from tabla_cli.analysis.stats import decisions_frame, player_stats
from tabla_cli.check import check_file
from tabla_cli.cli import main
from tabla_cli.findings import Code
from tabla_cli.formats import detect_binary
from tabla_cli.formats.xg import read_matches as read_xg
from tabla_cli.formats.xg_archive import SIDE_FILE_MIN, SIDE_FILE_RATIO, max_records, read_game_file
from tabla_cli.formats.xg_records import (
    RECORD_SIZE,
    CubeRecord,
    MoveRecord,
    parse_record,
)
from tabla_cli.model import ActionKind, Match
from tabla_cli.pipeline import ReadOptions
from tabla_cli.reader import read_path_matches
from tabla_cli.replay import replay_match
from tabla_cli.source import Source, collect_paths
from tabla_cli.writers.mat import format_mat
from tabla_cli.writers.positions import format_positions

from helpers import CORPUS, DATA, recorded_by_action
from xg_pack import SMALL, game_file, pack, with_record

XG_FILES = sorted((DATA / "xg").glob("gammonview-*.xg"))
LIVE_FILES = sorted((DATA / "xg").glob("gbf-*.xg"))
MYDVW = DATA / "xg" / "gammonview-MYdvw1qGuyaRUH_.xg"
NOT_ANALYSED = -1000.0
BIG = 1 << 30


def twin(path: Path) -> Path:
    return CORPUS / "mat" / path.with_suffix(".mat").name


def read(path: Path) -> Match:
    [match] = read_path_matches(path)
    return match


def decisions(match: Match) -> list[tuple[str, str, str, str, str, str]]:
    """Game, player, action, dice (either order), Position ID and Match ID of every decision."""
    rows = csv.DictReader(io.StringIO(format_positions([(match, replay_match(match))])))
    return [
        (r["game"], r["player"], r["action"], "".join(sorted(r["dice"])), r["position_id"], r["match_id"]) for r in rows
    ]


def records(path: Path) -> list[object]:
    data = read_game_file(path.read_bytes(), path=str(path), max_size=BIG)
    return [parse_record(data[at : at + RECORD_SIZE], 30) for at in range(0, len(data), RECORD_SIZE)]


def test_the_corpus_is_here() -> None:
    assert len(XG_FILES) == 8
    assert all(twin(path).is_file() for path in XG_FILES)


@pytest.mark.parametrize("path", XG_FILES, ids=lambda p: p.stem)
def test_decisions_equal_the_mat_twins(path: Path) -> None:
    xg, mat = read(path), read(twin(path))
    assert xg.format == "xg"
    assert xg.players == mat.players and xg.length == mat.length
    assert [g.score for g in xg.games] == [g.score for g in mat.games]
    got, want = decisions(xg), decisions(mat)
    assert len(got) == len(want) > 50
    assert got == want


@pytest.mark.parametrize("path", XG_FILES, ids=lambda p: p.stem)
def test_findings_equal_the_mat_twins(path: Path) -> None:
    def located(report_path: Path) -> list[tuple[str, int | None, int | None]]:
        report = check_file(str(report_path))
        return [(f.code, f.game, f.move) for f in report.findings if f.code != Code.MATCH_INCOMPLETE]

    assert located(path) == located(twin(path))


def test_the_illegal_play_of_the_twin_is_found_at_the_same_game_and_move() -> None:
    path = DATA / "xg" / "gammonview-5nqfGw9bWG3deTaU.xg"
    [finding] = [f for f in check_file(str(path)).findings if f.code == Code.ILLEGAL_PLAY]
    assert (finding.game, finding.move, finding.play) == (1, 11, "14/10 13/12")
    assert finding.render().startswith(f"{path}: error[illegal-play]: game 1 move 11, Marion Castlebury rolls 3-1")
    assert finding.location.line == 0


def sums_of_the_file(path: Path) -> dict[int, tuple[float, float, float]]:
    """Per XG player (1, -1): the sizes of ErrMove, of ErrCube and ErrTake, and the sum of ErrLuck."""
    move = {1: 0.0, -1: 0.0}
    cube = {1: 0.0, -1: 0.0}
    luck = {1: 0.0, -1: 0.0}
    for record in records(path):
        if isinstance(record, MoveRecord):
            move[record.actor] += abs(record.error_move) if record.error_move != NOT_ANALYSED else 0.0
            luck[record.actor] += record.luck if record.luck != NOT_ANALYSED else 0.0
        elif isinstance(record, CubeRecord) and record.double in (0, 1):
            cube[record.actor] += abs(record.error_cube) if record.error_cube != NOT_ANALYSED else 0.0
            if record.double == 1 and record.error_take != NOT_ANALYSED:
                cube[-record.actor] += abs(record.error_take)
    return {side: (move[side], cube[side], luck[side]) for side in (1, -1)}


@pytest.mark.parametrize("path", XG_FILES, ids=lambda p: p.stem)
def test_error_and_luck_sums_are_the_files_own(path: Path) -> None:
    analysis = analyse_file(str(path), AnalysisOptions())
    stats = player_stats(decisions_frame(analysis.rows)).set_index("player")
    match = read(path)
    for side, name in zip((1, -1), match.players, strict=True):
        move, cube, luck = sums_of_the_file(path)[side]
        row = stats.loc[name]
        assert float(row["checker_error"]) == pytest.approx(move, abs=1e-9)
        assert float(row["cube_error"]) == pytest.approx(cube, abs=1e-9)
        assert float(row["luck_total"]) == pytest.approx(luck, abs=1e-9)
    sources = {row["source"] for row in analysis.rows if row["source"]}
    assert sources and all(s.startswith("recorded XG ") for s in sources), sources


def test_the_analysis_a_roll_carries() -> None:
    match = read(MYDVW)
    first, second = match.games[0].actions[:2]
    assert first.analysis is not None and first.analysis.cube is None  # the opening roll: no cube decision
    recorded = second.analysis
    assert recorded is not None and recorded.level == "XG 2-ply"
    assert len(recorded.candidates) == 10 and recorded.played == 0
    best = recorded.candidates[0]
    assert best.probabilities is not None and sum(best.probabilities[:4]) > 0.9
    assert recorded.cube is not None and recorded.cube.double_pass == 1.0
    assert recorded.cube.no_double == pytest.approx(-0.0142008, abs=1e-6)
    assert recorded.checker_evaluation is not None and recorded.checker_evaluation.luck == pytest.approx(
        0.0655, abs=1e-4
    )


def test_match_fields() -> None:
    match = read(MYDVW)
    assert match.players == ("Jade1", "Kestrelcove1") and match.length == 5
    headers = dict(match.headers)
    assert headers["Site"] == "SampleServer" and headers["EventDate"] == "2026.01.06"
    assert headers["CubeLimit"] == "64" and headers["Crawford"] == "On"
    assert match.rules.cube_limit == 64 and match.rules.crawford and not match.rules.jacoby
    money = read(DATA / "xg" / "gammonview-B4_SrGcsKAQmoTyHlgJCbM.xg")
    assert money.length == 0
    last = money.games[-1].actions[-2:]
    assert [(a.kind, a.player, a.value) for a in last] == [(ActionKind.RESIGN, 1, 3), (ActionKind.WIN, 0, 6)]
    crawford = read(DATA / "xg" / "gammonview-3WNK_g1Z-PLsh_HyvQ5j4a.xg")
    assert [g.crawford for g in crawford.games] == [False] * 5 + [True, False]


def test_json_shows_the_fields_the_model_has_no_place_for(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    result = CliRunner().invoke(main, ["convert", str(MYDVW), "--to", "json", "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    text = out.read_text(encoding="utf-8")
    assert "EventTime" in text and "SampleServer" in text


@pytest.mark.parametrize("path", XG_FILES[:3], ids=lambda p: p.stem)
def test_convert_to_mat_reads_back_the_same_decisions(path: Path, tmp_path: Path) -> None:
    out = tmp_path / "m.mat"
    result = CliRunner().invoke(main, ["convert", str(path), "--no-check", "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    assert decisions(read(out)) == decisions(read(path))


def test_check_show_and_a_directory_mixing_formats(tmp_path: Path) -> None:
    (tmp_path / "a.mat").write_bytes(twin(MYDVW).read_bytes())
    (tmp_path / "b.bin").write_bytes(MYDVW.read_bytes())  # found by its content, not its name
    assert collect_paths([str(tmp_path)]) == [str(tmp_path / "a.mat"), str(tmp_path / "b.bin")]
    result = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert result.exit_code == 0, result.stderr
    assert "checked 2 files, 2 matches" in result.stderr
    assert "guessed" not in result.stderr


# --- damaged files -----------------------------------------------------------------


def archive(temp: bytes, **lies: Any) -> bytes:
    return pack(temp, **lies)


def temp_of(path: Path) -> bytes:
    return game_file(path)


def findings(data: bytes, max_size: int = 256 << 20) -> list[tuple[str, str]]:
    report = check_file(Source("bad.xg", data=data), ReadOptions(max_size=max_size))
    return [(f.code, f.render()) for f in report.findings]


def test_a_repacked_file_reads_as_the_original() -> None:
    assert findings(archive(temp_of(SMALL))) == findings(SMALL.read_bytes())


@pytest.mark.parametrize(
    ("make", "code", "says"),
    [
        (lambda raw: raw[:5000], Code.UNREADABLE_FILE, "truncated"),
        (lambda raw: archive(temp_of(SMALL), size=12345), Code.UNREADABLE_FILE, "says temp.xg holds 12345 bytes"),
        (lambda raw: archive(temp_of(SMALL), crc=7), Code.UNREADABLE_FILE, "checksum of temp.xg"),
        (lambda raw: archive(temp_of(SMALL), name=b"other"), Code.UNREADABLE_FILE, "holds no temp.xg"),
        (lambda raw: archive(b"\0" * RECORD_SIZE), Code.UNREADABLE_FILE, "not an eXtreme Gammon match header"),
    ],
)
def test_a_damaged_archive_is_a_finding(make: Callable[[bytes], bytes], code: str, says: str) -> None:
    [(found, text)] = findings(make(SMALL.read_bytes()))
    assert found == code and says in text, text


def test_a_bomb_is_refused_within_max_size() -> None:
    temp = temp_of(SMALL) + b"\0" * (50 * RECORD_SIZE)
    [(code, text)] = findings(archive(temp), max_size=len(temp) - 1)
    assert code == Code.FILE_TOO_LARGE and "--max-size" in text
    bomb = archive(b"\0" * (64 << 20), size=10)
    assert len(bomb) < 100_000
    [(code, text)] = findings(bomb, max_size=1 << 20)
    assert code == Code.FILE_TOO_LARGE and "inflates past the size limit" in text


def first(temp: bytes, kind: int) -> int:
    return next(i for i in range(len(temp) // RECORD_SIZE) if temp[i * RECORD_SIZE + 8] == kind)


def test_records_that_cannot_be_are_findings_at_their_game_and_move() -> None:
    temp = temp_of(SMALL)
    move = first(temp, 3)
    unknown = with_record(temp, move, lambda r: r.__setitem__(8, 9))
    assert (
        "syntax-error",
        "bad.xg: error[syntax-error]: game 1: record 4 has type 9, not one XG writes: skipped",
    ) in findings(archive(unknown))
    bad_point = with_record(temp, move, lambda r: struct.pack_into("<i", r, 68, 40))
    found = findings(archive(bad_point))
    assert found[0] == (
        "syntax-error",
        (
            "bad.xg: error[syntax-error]: game 1 move 1: a play moves from point code 40: "
            "not a point (0-23), the bar (24, from only) or off (below 0, to only)"
        ),
    )
    bad_player = with_record(temp, move, lambda r: struct.pack_into("<i", r, 64, 3))
    assert "names player 3" in findings(archive(bad_player))[0][1]
    lying_count = with_record(temp, move, lambda r: struct.pack_into("<i", r, 124 + 64, 1000))
    assert "counts 1000 candidate plays" in findings(archive(lying_count))[0][1]
    partial = archive(temp + b"\1" * 100)
    assert any("partial record of 100 bytes" in text for _, text in findings(partial))


def test_a_play_that_does_not_follow_is_found_by_the_replay() -> None:
    temp = temp_of(SMALL)
    move = first(temp, 3)
    moved = with_record(temp, move, lambda r: struct.pack_into("<8i", r, 68, 2, 0, -1, -1, -1, -1, -1, -1))
    codes = [code for code, _ in findings(archive(moved))]
    assert Code.ILLEGAL_PLAY in codes or Code.UNCHECKED in codes


def test_detected_by_magic_only() -> None:
    assert detect_binary(SMALL.read_bytes()) is not None
    assert detect_binary(b"RGMX" + SMALL.read_bytes()[4:]) is None
    [(code, _)] = findings(b"RGMH" + b"\0" * 100)
    assert code == Code.UNREADABLE_FILE


def test_a_position_that_does_not_follow_is_a_finding_unless_edited() -> None:
    temp = temp_of(SMALL)
    third = [i for i in range(len(temp) // RECORD_SIZE) if temp[i * RECORD_SIZE + 8] == 3][2]

    def moved_checker(record: bytearray) -> None:
        board = list(struct.unpack_from("<26b", record, 9))
        six = board.index(5)  # a point holding five of player 1's checkers
        board[six] -= 1
        board[six - 1] += 1
        struct.pack_into("<26b", record, 9, *board)

    changed = with_record(temp, third, moved_checker)
    found = [text for code, text in findings(archive(changed)) if code == Code.POSITION_MISMATCH]
    assert found == [
        "bad.xg: error[position-mismatch]: game 1 move 2: the position before this decision is not "
        "the one the last play left, and XG does not mark it edited"
    ]
    edited = with_record(changed, third, lambda r: r.__setitem__(2528, 1))
    assert not [code for code, _ in findings(archive(edited)) if code == Code.POSITION_MISMATCH]
    [match] = read_path_matches_of(archive(edited))
    assert ("XG Edited", "game 1 move 2") in match.headers


def read_path_matches_of(data: bytes) -> list[Match]:
    return list(read_xg(data, path="x.xg", on_error=lambda exc: None, max_size=BIG))


@pytest.mark.parametrize("path", [MYDVW, SMALL], ids=lambda p: p.stem)
def test_convert_to_sgf_keeps_the_analysis_as_gnubg_properties(path: Path, tmp_path: Path) -> None:
    out = tmp_path / "m.sgf"
    result = CliRunner().invoke(main, ["convert", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    text = out.read_text(encoding="utf-8")
    assert "A[0][" in text and "LU[" in text and "DA[E ver 3 " in text
    xg, sgf = read(path), read(out)
    assert decisions(sgf) == decisions(xg)
    read_back = recorded_by_action(sgf)
    compared = 0
    for game_xg, game_sgf in zip(xg.games, sgf.games, strict=True):
        kinds = (ActionKind.ROLL, ActionKind.DOUBLE, ActionKind.TAKE, ActionKind.DROP)
        pairs = zip(
            [a for a in game_xg.actions if a.kind in kinds],
            [a for a in game_sgf.actions if a.kind in kinds],
            strict=True,
        )
        for mine, back in pairs:
            if mine.analysis is None:
                continue
            got = read_back(back)
            assert got is not None, mine.location
            want = mine.analysis
            assert [c.equity for c in got.candidates] == pytest.approx([c.equity for c in want.candidates], abs=1e-6)
            assert [c.play for c in got.candidates] == [c.play for c in want.candidates]
            assert got.played == want.played
            assert (got.luck is None) == (want.luck is None)
            if want.luck is not None:
                assert got.luck == pytest.approx(want.luck, abs=1e-5)
            assert (got.cube is None) == (want.cube is None), mine.location
            if want.cube is not None and got.cube is not None:
                assert (got.cube.no_double, got.cube.double_take) == pytest.approx(
                    (want.cube.no_double, want.cube.double_take), abs=1e-5
                ), mine.location
            compared += 1
    assert compared > 50


def test_report_sums_the_files_own_figures() -> None:
    result = CliRunner().invoke(main, ["report", str(MYDVW), "--format", "csv"])
    assert result.exit_code == 0, result.stderr
    rows = {row["player"]: row for row in csv.DictReader(io.StringIO(result.stdout))}
    sums = sums_of_the_file(MYDVW)
    for side, name in zip((1, -1), read(MYDVW).players, strict=True):
        move, cube, luck = sums[side]
        assert float(rows[name]["checker_error"]) == pytest.approx(move, abs=1e-9)
        assert float(rows[name]["cube_error"]) == pytest.approx(cube, abs=1e-9)
        assert float(rows[name]["luck_total"]) == pytest.approx(luck, abs=1e-9)


def test_show_and_plays_on_a_decisions_position() -> None:
    game, player, action, dice, position_id, match_id = decisions(read(MYDVW))[5]
    assert action == "roll"
    shown = CliRunner().invoke(main, ["show", f"{position_id}:{match_id}"])
    assert shown.exit_code == 0, shown.stderr
    assert position_id in shown.stdout
    plays = CliRunner().invoke(main, ["plays", position_id, dice])
    assert plays.exit_code == 0, plays.stderr
    assert plays.stdout.strip()


def test_comment_and_missing_game_records_are_read() -> None:
    temp = temp_of(SMALL)
    footer = first(temp, 4)

    def missing(record: bytearray) -> None:
        record[:] = bytes(RECORD_SIZE)
        record[8] = 7
        struct.pack_into("<ii", record, 24, -1, 2)

    comment = temp[: (footer + 1) * RECORD_SIZE] + bytes(8) + b"\x06" + bytes(RECORD_SIZE - 9)
    with_missing = comment + with_record(bytes(RECORD_SIZE), 0, missing) + temp[(footer + 1) * RECORD_SIZE :]
    [match] = read_path_matches_of(archive(with_missing))
    assert ("XG Missing Game", "after game 1: player 2 won 2 points") in match.headers
    assert len(match.games) == 3
    assert findings(archive(with_missing)) == []  # the later scores here do not count the missing game


def test_a_beaver_and_raccoon_carry_no_value_the_replays_cube_gives_them() -> None:
    """XG writes only that the double was beavered (and raccooned): the values are the replay's cube's."""
    temp = with_record(temp_of(SMALL), 0, lambda r: r.__setitem__(102, 1))  # the match header: beavers allowed
    taken = [
        i
        for i in range(len(temp) // RECORD_SIZE)
        if temp[i * RECORD_SIZE + 8] == 2 and struct.unpack_from("<2i", temp, i * RECORD_SIZE + 16) == (1, 1)
    ][-1]
    # take 2 (beaver), beaver answer 2 (raccoon), raccoon answer 1 (take)
    temp = with_record(temp, taken, lambda r: struct.pack_into("<3i", r, 20, 2, 2, 1))
    [match] = read_path_matches_of(archive(temp))
    cube = [a for a in match.games[-1].actions if a.kind in (ActionKind.DOUBLE, ActionKind.BEAVER, ActionKind.RACCOON)]
    assert [(a.kind, a.value) for a in cube] == [
        (ActionKind.DOUBLE, 2),
        (ActionKind.BEAVER, None),
        (ActionKind.RACCOON, None),
    ]
    mat_text = format_mat(match)
    assert "Doubles => 2" in mat_text and "Beavers => 4" in mat_text and "Raccoons => 8" in mat_text


def decision_rows(data: bytes) -> list[tuple[str, str, str, str, str, str]]:
    [match] = read_xg(data, path="x.xg", max_size=BIG)
    return decisions(match)


@pytest.mark.parametrize(
    ("make", "says", "whole"),
    [
        (lambda raw: raw[:-100], "its archive trailer is missing or does not fit the file", True),
        (lambda raw: raw[:-36] + b"\xff" * 36, "its archive trailer is missing or does not fit the file", True),
        (lambda raw: raw[: len(raw) * 2 // 3], "the records stop short", False),
        (lambda raw: raw[:30000] + bytes([raw[30000] ^ 1]) + raw[30001:], "checksum does not match", False),
    ],
)
def test_a_damaged_container_is_read_with_a_warning(make: Callable[[bytes], bytes], says: str, whole: bool) -> None:
    raw = SMALL.read_bytes()
    damaged = make(raw)
    found = findings(damaged)
    assert found[0][0] == Code.DAMAGED_CONTAINER and says in found[0][1], found
    assert all(code != Code.UNREADABLE_FILE for code, _ in found)
    read, original = decision_rows(damaged), decision_rows(raw)
    assert read == original if whole else 0 < len(read) < len(original)


def test_an_archive_of_one_stream_without_directory_is_read() -> None:
    """An old XG's archive: temp.xg and temp.xgi in one zlib stream, no directory, no trailer."""
    raw = SMALL.read_bytes()
    temp = temp_of(SMALL)
    index = temp[:RECORD_SIZE] + temp[-RECORD_SIZE:]
    head = raw[: 8232 + struct.unpack_from("<I", raw, 20)[0]]
    old = head + zlib.compress(temp + index)
    [(code, text)] = findings(old)
    assert code == Code.DAMAGED_CONTAINER and "no directory" in text
    assert decision_rows(old) == decision_rows(raw)


def test_a_file_with_no_records_in_its_data_is_unreadable() -> None:
    raw = SMALL.read_bytes()
    [(code, text)] = findings(raw[:9000] + b"\xff" * 100)
    assert code == Code.UNREADABLE_FILE and "no match records were found" in text


def test_records_past_the_limit_are_refused_naming_the_option() -> None:
    temp = temp_of(SMALL)
    limit = max_records(1 << 22)
    many = temp[: 2 * RECORD_SIZE] + temp[2 * RECORD_SIZE : 3 * RECORD_SIZE] * (limit + 10)
    [(code, text)] = findings(archive(many), max_size=1 << 22)
    assert code == Code.FILE_TOO_LARGE and f"more than the limit of {limit} " in text and "--max-size raises it" in text
    [(code, text)] = findings(archive(many)[:-36], max_size=1 << 22)  # found without the directory too
    assert code == Code.FILE_TOO_LARGE and "--max-size" in text
    assert not findings(archive(temp), max_size=1 << 22)


def test_records_that_compress_far_better_than_xgs_are_a_bomb() -> None:
    temp = temp_of(SMALL)
    many = temp[: 2 * RECORD_SIZE] + temp[2 * RECORD_SIZE : 3 * RECORD_SIZE] * 3000
    data = archive(many)
    limit = max_records(256 << 20, len(data))
    assert limit == 2048 < max_records(256 << 20)
    [(code, text)] = findings(data)
    assert code == Code.FILE_TOO_LARGE and f"more than the limit of {limit} " in text and "compression bomb" in text


@pytest.mark.parametrize("name", [b"temp.xgc", b"temp.xgr"])
def test_comments_or_rollouts_far_larger_than_the_file_are_a_bomb(name: bytes) -> None:
    temp = temp_of(SMALL)
    assert findings(archive(temp, others={name: b"\0" * 4096})) == findings(archive(temp))
    data = archive(temp, others={name: b"\0" * (8 << 20)})
    limit = max(SIDE_FILE_MIN, SIDE_FILE_RATIO * len(data))
    assert limit < 8 << 20
    [(code, text)] = findings(data)
    assert code == Code.FILE_TOO_LARGE and f"{name.decode()} holds {8 << 20} bytes" in text
    assert f"more than the limit of {limit} " in text and "compression bomb" in text


@pytest.mark.parametrize("path", LIVE_FILES, ids=lambda p: p.stem)
def test_live_tournament_files_check_without_errors(path: Path) -> None:
    report = check_file(Source(str(path)), ReadOptions())
    assert [f.render() for f in report.findings if f.severity == "error"] == []
    match = read(path)
    plays = [a.play_text for game in match.games for a in game.actions if a.kind is ActionKind.ROLL]
    assert "1/1" not in plays


def test_a_roll_with_no_play_before_a_resignation_is_the_games_trailing_roll() -> None:
    match = read(DATA / "xg" / "gbf-1-Intermediate-Round1-Unger-Kozoman-11pt.xg")
    first, fifth = match.games[0], match.games[4]
    for game, dice in ((first, (3, 2)), (fifth, (5, 1))):
        assert game.trailing_roll is not None and game.trailing_roll.dice == dice
        assert game.trailing_roll.play_text == ""
        assert [a.kind for a in game.actions[-2:]] == [ActionKind.RESIGN, ActionKind.WIN]
    assert all(game.trailing_roll is None for game in match.games[1:4])


def test_a_game_header_without_a_start_starts_from_the_first_record() -> None:
    match = read(DATA / "xg" / "gbf-match_with_comment.xg")
    assert match.games[0].start is None  # the first record is at the usual start
    rows = decisions(match)
    assert rows[0][4] == "4HPwATDgc/ABMA"  # the opening position's Position ID


def test_a_roll_with_no_play_inside_a_game_is_a_roll_without_a_move() -> None:
    temp = temp_of(SMALL)
    at = first(temp, 3)

    def unplay(record: bytearray) -> None:
        struct.pack_into("<8i", record, 68, *([0] * 8))
        record[35:61] = bytes(26)

    [match] = read_xg(archive(with_record(temp, at, unplay)), path="x.xg", max_size=BIG)
    roll = next(a for a in match.games[0].actions if a.kind is ActionKind.ROLL)
    assert roll.play_text == ""
    assert match.games[0].trailing_roll is None


def test_comments_and_flags_are_kept_on_their_decision() -> None:
    match = read(DATA / "xg" / "gbf-match_with_comment.xg")
    commented = [(a.move_number, a.comment) for g in match.games for a in g.actions if a.comment]
    assert [text for _, text in commented] == [
        "coup assez difficile",
        "les double 66 sont toujpurs difficiles à trouver",
    ]
    temp = temp_of(SMALL)
    move, cube = first(temp, 3), first(temp, 2)

    def flag_move(record: bytearray) -> None:
        record[2520] = 1

    def flag_cube(record: bytearray) -> None:
        record[288] = 1

    flagged = with_record(with_record(temp, move, flag_move), cube, flag_cube)
    [match] = read_xg(archive(flagged), path="x.xg", max_size=BIG)
    rolls = [a for a in match.games[0].actions if a.kind is ActionKind.ROLL]
    assert rolls[0].flagged and not any(a.flagged for a in rolls[2:])


@pytest.mark.parametrize("target", ["sgf", "json"])
def test_comments_are_written_by_convert_and_read_back(target: str, tmp_path: Path) -> None:
    out = tmp_path / f"c.{target}"
    result = CliRunner().invoke(
        main, ["convert", str(DATA / "xg" / "gbf-match_with_comment.xg"), "--to", target, "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "comment" not in result.stdout
    [match] = read_path_matches(out)
    assert [a.comment for g in match.games for a in g.actions if a.comment] == [
        "coup assez difficile",
        "les double 66 sont toujpurs difficiles à trouver",
    ]


def test_plain_text_of_rtf() -> None:
    from tabla_cli.formats._rtf import plain_text

    assert plain_text(rb"{\rtf1\ansi{\fonttbl{\f0 Arial;}}{\*\generator X;}\pard a\par b\line c\tab d}") == "a\nb\nc\td"
    assert plain_text(rb"{\rtf1\uc1 caf\u233?!}") == "café!"
    assert plain_text(rb"{\rtf1\ansi\ansicpg1251 \'e4\'e0}") == "да"
    assert plain_text(b"just text ") == "just text"


def test_comments_become_mat_comment_lines_after_their_move_line(tmp_path: Path) -> None:
    out = tmp_path / "c.mat"
    result = CliRunner().invoke(
        main, ["convert", str(DATA / "xg" / "gbf-match_with_comment.xg"), "--to", "mat", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    lines = out.read_text(encoding="utf-8").splitlines()
    at = lines.index("; Comment: coup assez difficile")
    assert lines[at - 1].startswith("  2) 54: 18/14* 13/8")
    assert lines[at + 2] == "; Comment: les double 66 sont toujpurs difficiles à trouver"
    [match] = read_path_matches(out)
    assert "Comment: coup assez difficile" in match.comments


def position_file() -> tuple[bytes, tuple[str, str, str, str, str, str]]:
    """An .xgp built from the documented layout (no real one was found): SMALL's match header, its first game
    header set up at the position of the game's 7th roll, that roll's cube and move records; and the .xg's
    decision at that roll."""
    temp = temp_of(SMALL)
    moves = [i for i in range(len(temp) // RECORD_SIZE) if temp[i * RECORD_SIZE + 8] == 3]
    at = moves[6]
    header = bytearray(temp[RECORD_SIZE : 2 * RECORD_SIZE])
    move = parse_record(temp[at * RECORD_SIZE : (at + 1) * RECORD_SIZE], 30)
    assert isinstance(move, MoveRecord)
    struct.pack_into("<26b", header, 21, *move.position)
    body = temp[:RECORD_SIZE] + bytes(header) + temp[(at - 1) * RECORD_SIZE : (at + 1) * RECORD_SIZE]
    return pack(body, thumbnail=False), decisions(read(SMALL))[6]


def test_a_position_file_is_read_by_show_plays_and_cube(tmp_path: Path) -> None:
    data, decision = position_file()
    path = tmp_path / "p.xgp"
    path.write_bytes(data)
    runner = CliRunner()
    shown = runner.invoke(main, ["show", str(path), "--format", "json"])
    assert shown.exit_code == 0, shown.output
    assert '"position_id": "im8HAyDg88gTAA"' in shown.stdout and decision[4] == "im8HAyDg88gTAA"
    assert f'"match_id": "{decision[5]}"' in shown.stdout
    plays = runner.invoke(main, ["plays", str(path), "32"])
    assert plays.exit_code == 0 and "13/11 13/10" in plays.stdout.splitlines()
    cube = runner.invoke(main, ["cube", str(path)])
    assert cube.exit_code == 0 and "Proper cube action" in cube.stdout
    missing = runner.invoke(main, ["show", str(tmp_path / "none.xgp")])
    assert missing.exit_code == 1 and "cannot be read" in missing.stderr and not missing.stdout


def test_a_position_file_converts_to_positions(tmp_path: Path) -> None:
    data, decision = position_file()
    path = tmp_path / "p.xgp"
    path.write_bytes(data)
    [match] = read_path_matches(path)
    rows = decisions(match)
    assert [(r[1], r[3], r[4]) for r in rows] == [(decision[1], decision[3], decision[4])]


def test_xgs_rollouts_name_the_level_of_the_plays_it_rolled_out() -> None:
    match = read(SMALL)
    levels = [
        [c.level for c in a.analysis.candidates]
        for g in match.games
        for a in g.actions
        if a.analysis is not None and a.analysis.candidates and a.analysis.candidates[0].level.startswith("rollout")
    ]
    assert len(levels) == 1
    assert levels[0][:2] == ["rollout, 500 games, 95% CI +-0.014", "rollout, 500 games, 95% CI +-0.013"]
    assert all(not level.startswith("rollout") for level in levels[0][2:])


def test_analyze_by_decision_shows_comments_and_flags() -> None:
    result = CliRunner().invoke(
        main, ["analyze", "--by", "decision", "--format", "csv", str(DATA / "xg" / "gbf-match_with_comment.xg")]
    )
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert "comment" not in result.stderr
    commented = [(r["game"], r["move"], r["kind"], r["comment"]) for r in rows if r["comment"]]
    assert commented == [
        ("1", "2", "checker", "coup assez difficile"),
        ("1", "3", "checker", "les double 66 sont toujpurs difficiles à trouver"),
    ]
    assert {r["flagged"] for r in rows} == {"False"}


def test_the_players_page_lists_the_commented_and_flagged_decisions() -> None:
    from tabla_cli.analysis.stats import decision_row
    from tabla_cli.evaluation.types import DecisionKind
    from tabla_cli.reports.personal import noted_decisions

    rows = [decision_row("m", 1, n, "Ann", 0, DecisionKind.CHECKER, error=0.0) for n in (1, 2, 3)]
    rows[1]["comment"] = "a hard one"
    rows[2]["flagged"] = True
    noted = noted_decisions(decisions_frame(rows))
    assert list(noted["move"]) == [2, 3]
    assert list(noted["comment"].fillna("")) == ["a hard one", ""]
    assert list(noted.columns)[-2:] == ["flagged", "comment"]


def test_plain_text_of_rtf_joins_surrogate_pairs_and_replaces_lone_ones() -> None:
    from tabla_cli.formats._rtf import plain_text

    assert plain_text(rb"{\rtf1\uc1 a\u-10179?\u-8694?b}") == "a\U0001f60ab"
    assert plain_text(rb"{\rtf1\uc1 a\u-10179?b}") == "a\ufffdb"
