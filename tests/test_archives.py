"""Real archives: unnamed players, glued lines, folders with other files, the same match twice."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from tabla_cli.check import FileReport, check_file, mark_duplicates
from tabla_cli.cli import main
from tabla_cli.digest import Duplicates, MatchKey
from tabla_cli.formats.mat import parse_matches
from tabla_cli.model import ActionKind
from tabla_cli.reports import build_frames
from tabla_cli.source import LeftOut, collect_paths, is_transcript

from helpers import CORPUS, DATA, run

GALAXY = CORPUS / "mat" / "bglab-lasse-match3423068.txt"
UNNAMED = DATA / "mat" / "galaxy-unnamed-player.mat"
BOTH_UNNAMED = DATA / "mat" / "galaxy-both-unnamed.mat"
GLUED = DATA / "mat" / "galaxy-glued-forfeit.mat"
MATCH = "bglab-lasse-match8640511"
SAME_MATCH = [
    CORPUS / "mat" / f"{MATCH}.txt",
    CORPUS / "mat" / f"gnubg-{MATCH}.mat",
    CORPUS / "sgf" / f"gnubg-{MATCH}.sgf",
    *sorted((DATA / "archive").glob(f"gnubg-{MATCH}*.txt")),
]
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"


def codes(report: FileReport) -> list[str]:
    return [f.code for f in report.findings]


# --- empty player names ---------------------------------------------------------


def test_an_empty_name_is_read_with_a_note_and_the_match_is_checked_as_before() -> None:
    match = next(parse_matches(UNNAMED.read_text(encoding="utf-8"), path=str(UNNAMED)))
    assert match.players == ("akab", "")
    assert [g.score for g in match.games] == [(0, 0), (1, 0)]
    report = check_file(str(UNNAMED))
    assert codes(report) == ["unnamed-player", "forfeit"]
    note = report.findings[0]
    assert (note.location.line, note.severity.value) == (17, "note")
    original = check_file(str(GALAXY))
    assert (report.games, report.plays) == (original.games, original.plays) == (2, 59)


def test_both_names_empty() -> None:
    match = next(parse_matches(BOTH_UNNAMED.read_text(encoding="utf-8"), path="m.mat"))
    assert match.players == ("", "")
    assert [f.message.split()[1] for f in match.findings] == ["1", "2"]


def test_unnamed_players_are_never_one_person_in_reports() -> None:
    frames = build_frames([UNNAMED, BOTH_UNNAMED, GALAXY])
    names = set(frames.matches["player0"]) | set(frames.matches["player1"])
    assert "" not in names
    unnamed = sorted(n for n in names if n.startswith("(unnamed"))
    assert len(unnamed) == 3
    assert all(str(path) in " ".join(unnamed) for path in (UNNAMED, BOTH_UNNAMED))
    assert set(frames.games["winner"]) == {"akab", f"(unnamed 1: {BOTH_UNNAMED} #1)"}
    assert "" not in set(frames.cube["player"])


# --- a forfeit glued to a move line ---------------------------------------------


def test_a_forfeit_glued_to_a_move_line_is_read_with_a_warning() -> None:
    match = next(parse_matches(GLUED.read_text(encoding="utf-8"), path=str(GLUED)))
    last = match.games[1].actions[-3:]
    assert [(a.kind, int(a.player), a.value) for a in last] == [
        (ActionKind.ROLL, 0, None),
        (ActionKind.LOSS, 1, 2),
        (ActionKind.WIN, 0, 2),
    ]
    assert last[0].play_text == "2/0 2/0"
    report = check_file(str(GLUED))
    assert codes(report) == ["glued-line", "forfeit-side", "forfeit"]
    warning = report.findings[0]
    assert (warning.location.line, warning.location.column, warning.move, warning.severity.value) == (
        53,
        34,
        27,
        "warning",
    )
    assert codes(check_file(str(GALAXY))) == ["forfeit"]


def test_a_second_move_number_followed_by_nothing_readable_stays_an_error() -> None:
    text = GALAXY.read_text(encoding="utf-8").replace(
        " 27) 54: 2/0 2/0                  Losses 2 point", " 27) 54: 2/0 2/0   27)  Lost it all"
    )
    errors: list[str] = []
    list(parse_matches(text, path="m.mat", on_error=lambda exc: errors.append(exc.message)))
    assert len(errors) == 1 and "27)" in errors[0]


# --- the same match twice -------------------------------------------------------


def test_one_match_in_every_format_has_one_digest() -> None:
    reports = list(mark_duplicates(check_file(str(p)) for p in SAME_MATCH))
    assert [len(r.keys) for r in reports] == [1] * len(SAME_MATCH)
    assert len({r.keys[0][0].digest for r in reports[:3]}) == 1
    assert "duplicate-match" not in codes(reports[0])
    for report in reports[1:]:
        notes = [f for f in report.findings if f.code == "duplicate-match"]
        assert len(notes) == 1 and str(SAME_MATCH[0]) in notes[0].message, report.path
    assert "the same match read first" in [f for f in reports[2].findings if f.code == "duplicate-match"][0].message
    assert "part of the match" in [f for f in reports[3].findings if f.code == "duplicate-match"][0].message


def test_different_matches_have_different_digests() -> None:
    keys = {check_file(str(p)).keys[0][0].digest for p in sorted((CORPUS / "mat").glob("bglab-lasse-match*.txt"))}
    assert len(keys) == len(list((CORPUS / "mat").glob("bglab-lasse-match*.txt")))
    assert check_file(str(GLUED)).keys[0][0] == check_file(str(GALAXY)).keys[0][0]
    assert check_file(str(UNNAMED)).keys[0][0] != check_file(str(GALAXY)).keys[0][0]


def test_a_match_without_moves_is_never_a_copy() -> None:
    seen = Duplicates()
    empty = MatchKey("d", (), 0)
    assert seen.first(empty, "a") is None and seen.first(empty, "b") is None
    key = MatchKey("m", ("g1", "g2"), 9)
    assert seen.first(key, "a") is None
    assert seen.first(key, "b") == ("a", True)
    assert seen.first(MatchKey("p", ("g2",), 4), "c") == ("a", False)
    assert seen.first(MatchKey("q", ("g2", "g3"), 8), "d") is None


def test_check_notes_copies_in_a_folder(tmp_path: Path) -> None:
    for path in SAME_MATCH:
        shutil.copy(path, tmp_path / path.name)
    code, _, err = run("check", "--jobs", "1", "--notes", str(tmp_path))
    assert code == 0
    assert err.count("note[duplicate-match]") == len(SAME_MATCH) - 1


def report_csv(*args: str) -> str:
    code, out, err = run("report", "--format", "csv", "--jobs", "1", *args)
    assert code == 0, err
    return out


def test_a_report_over_every_copy_equals_the_report_over_the_mat_files(tmp_path: Path) -> None:
    for path in [
        *SAME_MATCH,
        CORPUS / "mat" / "bglab-lasse-match8463624.txt",
        CORPUS / "sgf" / "gnubg-bglab-lasse-match8463624.sgf",
    ]:
        shutil.copy(path, tmp_path / path.name)
    only_mat = report_csv(str(SAME_MATCH[0]), str(CORPUS / "mat" / "bglab-lasse-match8463624.txt"))
    assert report_csv(str(tmp_path)) == only_mat
    assert report_csv("--by", "errors", str(tmp_path)) == report_csv(
        "--by", "errors", str(SAME_MATCH[0]), str(CORPUS / "mat" / "bglab-lasse-match8463624.txt")
    )
    every = report_csv("--keep-duplicates", "--by", "match", str(tmp_path))
    assert len(every.splitlines()) == 1 + len(SAME_MATCH) + 2
    code, _, err = run("report", "--jobs", "1", "--format", "csv", str(tmp_path))
    assert "left out 8 copies of matches read before" in err


# --- folders with other files ---------------------------------------------------


def archive_folder(root: Path) -> Path:
    root.mkdir()
    shutil.copy(GALAXY, root / "match3423068.txt")
    (root / "README.md").write_text("# My matches\n\nExported from Galaxy.\n", encoding="utf-8")
    (root / "board.png").write_bytes(PNG)
    (root / "settings.json").write_text(json.dumps({"theme": "dark", "matches": 3}), encoding="utf-8")
    (root / ".DS_Store").write_bytes(b"\x00\x00\x00\x01Bud1")
    return root


def test_a_folder_with_other_files_checks_clean(tmp_path: Path) -> None:
    folder = archive_folder(tmp_path / "archive")
    code, out, err = run("check", "--jobs", "1", str(folder))
    assert code == 0 and out == ""
    assert "skipped 4 files that are not match transcripts (-v names them)" in err
    assert "checked 1 file, 1 match" in err
    code, _, err = run("check", "--jobs", "1", "-v", str(folder))
    assert code == 0 and f"  skipped {folder / 'README.md'}" in err.splitlines()


def test_report_and_convert_skip_other_files_too(tmp_path: Path) -> None:
    folder = archive_folder(tmp_path / "archive")
    code, out, err = run("report", "--format", "csv", "--jobs", "1", str(folder))
    assert code == 0 and "skipped 4 files" in err and "akab" in out
    code, _, err = run("convert", str(folder), "--to", "json", "--out-dir", str(tmp_path / "out"))
    assert code == 0 and "skipped 4 files" in err
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["match3423068.json"]


def test_a_file_named_that_is_not_a_transcript_is_an_error(tmp_path: Path) -> None:
    folder = archive_folder(tmp_path / "archive")
    code, _, err = run("check", str(folder / "README.md"))
    assert code == 1 and "error[unreadable-file]" in err


def test_no_transcript_at_all_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("nothing here\n", encoding="utf-8")
    code, _, err = run("check", str(tmp_path))
    assert code == 1
    assert f"no match transcripts found under {tmp_path}" in err


def test_symlink_loops_and_unreadable_files_get_one_message_each(tmp_path: Path) -> None:
    folder = archive_folder(tmp_path / "archive")
    (folder / "sub").mkdir()
    os.symlink("..", folder / "sub" / "up")
    os.symlink("missing.mat", folder / "broken.mat")
    os.symlink("self.txt", folder / "self.txt")
    code, _, err = run("check", "--jobs", "1", str(folder))
    lines = err.splitlines()
    assert [line for line in lines if "not followed" in line] == [
        f"{folder / 'sub' / 'up'}: a symbolic link back to a directory already walked; not followed"
    ]
    assert sum("error[unreadable-file]" in line for line in lines) == 2
    assert "checked 3 files, 1 match" in err
    assert code == 1


def test_collect_paths_tells_what_it_left_out(tmp_path: Path) -> None:
    folder = archive_folder(tmp_path / "archive")
    left = LeftOut()
    assert collect_paths([str(folder)], left) == [str(folder / "match3423068.txt")]
    assert sorted(Path(p).name for p in left.skipped) == [".DS_Store", "README.md", "board.png", "settings.json"]
    assert left.messages() == ["skipped 4 files that are not match transcripts"]
    assert left.messages(verbose=False) == ["skipped 4 files that are not match transcripts (-v names them)"]
    named = left.messages(verbose=True)
    assert named[0] == "skipped 4 files that are not match transcripts"
    assert sorted(Path(line.removeprefix("  skipped ")).name for line in named[1:]) == sorted(
        Path(p).name for p in left.skipped
    )
    assert collect_paths([str(folder / "README.md")]) == [str(folder / "README.md")]


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("a.txt", GALAXY.read_bytes(), True),
        ("a.sgf", b"garbage", True),
        ("a.mat", b"", True),
        ("a.json", b'{"schema": "tabla-match/1", "matches": []}', True),
        ("a.json", b'{"schema": "other"}', False),
        ("a.txt", b"The score (after 0 games) is: Ann 0, Bob 0 (match to 3 points)\n", True),
        ("a.txt", "hello \u00e9\n".encode("utf-16"), False),
        ("a.png", PNG, False),
    ],
)
def test_is_transcript_sniffs_the_content(tmp_path: Path, name: str, content: bytes, expected: bool) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    assert is_transcript(path) is expected


# --- output people can read -----------------------------------------------------


def test_notes_are_counted_unless_asked_for(tmp_path: Path) -> None:
    shutil.copy(UNNAMED, tmp_path / "a.mat")
    code, _, err = run("check", str(tmp_path / "a.mat"))
    # The Galaxy game ends with 'Losses 2 point': a forfeit note besides the unnamed player's.
    assert code == 0 and "note[" not in err and "notes: 2 (forfeit 1, unnamed-player 1)" in err
    for flag in ("--notes", "-v", "--verbose"):
        assert "note[unnamed-player]" in run("check", flag, str(tmp_path / "a.mat"))[2]
    data = json.loads(run("check", "--format", "json", str(tmp_path / "a.mat"))[1])
    assert [d["code"] for d in data] == ["unnamed-player", "forfeit"]
    lines = run("check", "--format", "jsonl", str(tmp_path / "a.mat"))[1].splitlines()
    assert [json.loads(line)["code"] for line in lines] == ["unnamed-player", "forfeit"]


def test_the_summary_names_the_files_with_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mat"
    bad.write_text(" 1 point match\n\n Game 1\n Ann : 0     Bob : 0\n  1) 31: 8/5 6/4\n", encoding="utf-8")
    shutil.copy(GALAXY, tmp_path / "good.txt")
    code, _, err = run("check", "--jobs", "1", str(tmp_path))
    assert code == 1
    assert err.splitlines()[-1] == f"files with errors (1): {bad}"


def test_stdin_is_still_read() -> None:
    result = CliRunner().invoke(main, ["check", "-"], input=GALAXY.read_text(encoding="utf-8"))
    assert result.exit_code == 0 and "checked 1 file, 1 match" in result.stderr


# --- binary files named on the command line ------------------------------------------

BINARIES = {
    "shot.png": (PNG, "binary file (a PNG image), not a transcript; did you mean the match's transcript"),
    "match.pdf": (
        b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n",
        "binary file (a PDF document), not a transcript; did you mean the transcript it was made from",
    ),
    "matches.zip": (
        b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + bytes(range(256)),
        "binary file (a ZIP archive), not a transcript; did you mean the transcripts inside it",
    ),
    "blob.mat": (bytes(range(256)) * 4, "binary file, not a transcript"),
}


@pytest.mark.parametrize("name", sorted(BINARIES))
def test_a_binary_file_is_one_clear_finding_and_nothing_on_stdout(tmp_path: Path, name: str) -> None:
    content, message = BINARIES[name]
    path = tmp_path / name
    path.write_bytes(content)
    report = check_file(str(path))
    assert [(f.code, f.message.startswith(message)) for f in report.findings] == [("unreadable-file", True)]
    for command in (["check"], ["report"], ["report", "--format", "json"], ["convert", "--to", "json", "-o", "-"]):
        code, out, err = run(*command, str(path))
        assert (code, out) == (1, ""), command
        assert message in err and "guessed-encoding" not in err, command


def test_analyze_writes_nothing_on_stdout_for_a_file_it_cannot_read(tmp_path: Path) -> None:
    code, out, err = run("analyze", str(tmp_path / "missing.xg"))
    assert (code, out) == (1, "") and "No such file or directory" in err


def test_utf16_and_control_free_text_are_not_binary() -> None:
    from tabla_cli.source import binary_kind

    assert binary_kind(GALAXY.read_bytes()) is None
    assert binary_kind(GALAXY.read_text(encoding="utf-8").encode("utf-16")) is None
    assert binary_kind(GALAXY.read_text(encoding="utf-8").encode("utf-16-le")) is None
