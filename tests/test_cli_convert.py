"""Tests for ``tabla convert`` (tabla_cli.cli.convert) and the library under it (tabla_cli.convert).

stdout carries only converted data (with ``-o -``); every message goes to
stderr. Exit 0: every input converted; 1: any input not converted (bad
input, error found by the replay, output exists, output is an input); 2:
usage errors.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_writer_mat import mat_view
from test_writer_sgf import SGF_CARRIES

from tabla_cli.convert import FORMATS, convert_text, format_for_path, format_matches
from tabla_cli.formats import mat
from tabla_cli.model import Match
from tabla_cli.reader import decode, read_text_matches

from helpers import DATA, corpus_files, run
from match_compare import EVERYTHING, Carried, match_differences

SPEC = DATA / "mat" / "spec-3pt-gnubg.mat"
MONEY = DATA / "mat" / "spec-money-xg.mat"
BAD = " 3 point match\n\n Game 1\n Ann : 0                        Bob : 0\n  1) 31: 8/5 6/4\n"
TRANSCRIPTS = [p for folder in ("mat", "sgf", "txt") for p in corpus_files(folder)]


def read_back(text: str) -> list[Match]:
    return list(read_text_matches(text, "back"))


def test_help() -> None:
    code, out, err = run("convert", "--help")
    assert code == 0 and " convert [OPTIONS] INPUT..." in out and err == ""
    for word in ("--out-dir", "--to", "--force", "--no-check", "positions"):
        assert word in out


# --- formats from suffixes -------------------------------------------------------------------


@pytest.mark.parametrize(
    "suffix, fmt, start",
    [
        (".sgf", "sgf", "(;FF[4]GM[6]"),
        (".SGF", "sgf", "(;FF[4]GM[6]"),
        (".json", "json", '{\n  "schema": "tabla-match/1"'),
        (".csv", "positions", "match,game,move,player,side,action"),
        (".mat", "mat", '; [Site "Kafene Sofia"]'),
    ],
)
def test_format_from_suffix(tmp_path: Path, suffix: str, fmt: str, start: str) -> None:
    target = tmp_path / f"out{suffix}"
    code, out, err = run("convert", str(SPEC), "-o", str(target))
    assert code == 0 and out == ""
    assert err.startswith(f"converted 1 of 1 input (1 match) to {fmt} in ")
    text = target.read_text(encoding="utf-8")
    assert text.startswith(start)
    assert format_for_path(target) == fmt
    assert [p.name for p in tmp_path.iterdir()] == [target.name]  # no temporary file left


def test_txt_needs_to(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    code, out, err = run("convert", str(SPEC), "-o", str(target))
    assert code == 2 and out == "" and "give --to mat or --to txt" in err and not target.exists()
    code, _, _ = run("convert", str(SPEC), "-o", str(target), "--to", "mat", "-q")
    assert code == 0 and target.read_text(encoding="utf-8").startswith('; [Site "Kafene Sofia"]')
    code, _, _ = run("convert", str(SPEC), "-o", str(target), "--to", "txt", "-q", "--force")
    assert code == 0 and target.read_text(encoding="utf-8").startswith("Petar (O) - Maria (X), 3-point match")


@pytest.mark.parametrize(
    "args, message",
    [
        (["-o", "x.xlsx"], "cannot tell the format of -o 'x.xlsx'"),
        (["-o", "noext"], "suffix (none)"),
        (["-o", "x.sgf", "--to", "json"], "has the suffix of sgf, but --to says json"),
        (["-o", "x.sgf", "--out-dir", "d"], "not both"),
        ([], "give -o OUTPUT"),
        (["--out-dir", "d"], "--out-dir needs --to"),
        (["-o", "-"], "-o - (stdout) needs --to"),
        (["--to", "xml", "-o", "x.xml"], "Invalid value for '--to'"),
    ],
)
def test_usage_errors(tmp_path: Path, args: list[str], message: str) -> None:
    code, out, err = run("convert", str(SPEC), *args)
    assert code == 2 and out == "" and message in err


def test_usage_errors_about_inputs(tmp_path: Path) -> None:
    code, out, err = run("convert", str(SPEC), str(MONEY), "-o", str(tmp_path / "x.sgf"))
    assert code == 2 and out == "" and "2 inputs: -o takes one" in err
    code, out, err = run("convert", "-", "--out-dir", str(tmp_path), "--to", "sgf", input="x")
    assert code == 2 and out == "" and "stdin ('-') has no file name" in err
    code, out, err = run("convert", "-o", "x.sgf")
    assert code == 2 and "Missing argument 'INPUT...'" in err


# --- stdin and stdout ------------------------------------------------------------------------


def test_stdin_to_stdout() -> None:
    code, out, err = run("convert", "-", "-o", "-", "--to", "json", input=SPEC.read_text(encoding="utf-8"))
    assert code == 0 and err.startswith("converted 1 of 1 input (1 match) to json")
    (back,) = read_back(out)
    assert match_differences(mat.read_match(SPEC), back) == []
    code, out, err = run(
        "convert",
        "-",
        "-o",
        "-",
        "--to",
        "positions",
        "-q",
        input=BAD,
    )
    assert code == 1 and out == ""
    assert err.splitlines()[0].startswith("<stdin>:5:6: error[illegal-play]: game 1 move 1, Ann rolls 3-1: ")
    assert err.splitlines()[1] == "<stdin>: not converted: 1 error (--no-check converts it anyway)"


def test_no_check_converts_anyway() -> None:
    code, out, err = run("convert", "-", "-o", "-", "--to", "mat", "-q", "--no-check", input=BAD)
    assert code == 0 and err == ""
    assert out.splitlines()[-2] == "  1) 31: 8/5 6/4"
    unreadable = BAD.replace("8/5 6/4", "8/5 six/4")
    code, out, err = run("convert", "-", "-o", "-", "--to", "mat", "-q", "--no-check", input=unreadable)
    assert code == 0 and out.splitlines()[-2] == "  1) 31: 8/5 six/4"
    code, out, err = run("convert", "-", "-o", "-", "--to", "sgf", "-q", "--no-check", input=unreadable)
    assert code == 1 and out == ""
    assert err.startswith("<stdin>:5:6: error[invalid-play]: cannot write the play '8/5 six/4' as SGF")


# --- files and directories ---------------------------------------------------------------------


def test_force_and_never_over_an_input(tmp_path: Path) -> None:
    target = tmp_path / "out.sgf"
    target.write_text("keep me", encoding="utf-8")
    code, out, err = run("convert", str(SPEC), "-o", str(target))
    assert code == 1 and out == ""
    assert f"{target}: error: exists; use --force to replace it" in err
    assert target.read_text(encoding="utf-8") == "keep me"
    code, _, _ = run("convert", str(SPEC), "-o", str(target), "--force")
    assert code == 0 and target.read_text(encoding="utf-8").startswith("(;FF[4]")

    source = tmp_path / "m.mat"
    source.write_text(SPEC.read_text(encoding="utf-8"), encoding="utf-8")
    before = source.read_bytes()
    for args in (
        ["-o", str(source), "--force"],
        ["-o", str(tmp_path / ".." / tmp_path.name / "m.mat"), "--force"],
        ["--out-dir", str(tmp_path), "--to", "mat", "--force"],
    ):
        code, out, err = run("convert", str(source), *args)
        assert code == 1 and out == "" and "error: is an input; not writing over it" in err
        assert source.read_bytes() == before


def test_out_dir_mirrors_directories_and_skips_bad_inputs(tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    (inputs / "club").mkdir(parents=True)
    (inputs / "club" / "a.txt").write_text(SPEC.read_text(encoding="utf-8"), encoding="utf-8")
    (inputs / "b.mat").write_text(MONEY.read_text(encoding="utf-8"), encoding="utf-8")
    (inputs / "bad.mat").write_text(BAD, encoding="utf-8")
    (inputs / "notes.md").write_text("hello\n", encoding="utf-8")
    out_dir = tmp_path / "out"
    code, out, err = run(
        "convert", str(inputs), str(tmp_path / "missing.mat"), "--out-dir", str(out_dir), "--to", "json"
    )
    assert code == 1 and out == ""
    written = sorted(str(p.relative_to(out_dir)) for p in out_dir.rglob("*") if p.is_file())
    assert written == ["b.json", "club/a.json"]
    lines = err.splitlines()
    assert f"{inputs / 'bad.mat'}: not converted: 1 error (--no-check converts it anyway)" in lines
    assert "skipped 1 file that is not a match transcript" in lines
    assert f"{tmp_path / 'missing.mat'}: error[unreadable-file]: No such file or directory" in lines
    assert lines[-1].startswith("converted 2 of 4 inputs (2 matches) to json in ") and lines[-1].endswith(
        "; 2 not converted"
    )
    (back,) = read_back((out_dir / "club" / "a.json").read_text(encoding="utf-8"))
    assert match_differences(mat.read_match(SPEC), back) == []


def test_same_name_twice_in_one_run_gets_two_names(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    for folder, source in ((first, SPEC), (second, MONEY)):
        folder.mkdir()
        (folder / "m.mat").write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    code, _, err = run(
        "convert",
        str(first / "m.mat"),
        str(second / "m.mat"),
        "--out-dir",
        str(tmp_path / "o"),
        "--to",
        "sgf",
        "--force",
        "-q",
    )
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "o").iterdir()) == ["m.mat-2.sgf", "m.mat.sgf"]


def test_syntax_error_is_reported_like_check(tmp_path: Path) -> None:
    broken = tmp_path / "broken.mat"
    broken.write_text(" 3 point match\n Game 1\n Ann : 0   Bob : 0\n  1) 31: 8/5 6/5  Takes 4\n", encoding="utf-8")
    code, out, err = run("convert", str(broken), "-o", str(tmp_path / "x.sgf"), "-q")
    assert code == 1 and out == ""
    assert err.startswith(f"{broken}:4:") and "error[syntax-error]" in err
    assert not (tmp_path / "x.sgf").exists()


# --- lossless, proven --------------------------------------------------------------------------


CARRIES: dict[str, Carried] = {
    "json": EVERYTHING,
    "sgf": SGF_CARRIES,
}
"""What each format carries of a model (see docs/formats.md): JSON and .mat everything, SGF less."""


@pytest.mark.parametrize("fmt", ["mat", "sgf", "json"])
@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_corpus_conversion_is_lossless(path: Path, fmt: str) -> None:
    """read -> convert to fmt -> read: an equal model in everything fmt carries."""
    text = decode(path.read_bytes())
    done = convert_text(text, str(path), fmt, check=False)
    assert done.output is not None
    originals = read_back(text)
    converted = read_back(done.output)
    assert len(converted) == len(originals) == done.matches
    for original, back in zip(originals, converted):
        if fmt == "mat":
            expected, carried = (original, EVERYTHING) if path.parent.name == "mat" else mat_view(original)
        else:
            expected, carried = original, CARRIES[fmt]
        assert match_differences(expected, back, carried) == []


def test_positions_and_text_from_the_library() -> None:
    text = SPEC.read_text(encoding="utf-8")
    for fmt in FORMATS:
        done = convert_text(text, "spec.mat", fmt)
        assert done.output and done.errors == 0 and done.matches == 1 and done.games == 4
    refused = convert_text(BAD, "bad.mat", "json")
    assert refused.output is None and refused.errors == 1
    assert json.loads(convert_text(BAD, "bad.mat", "json", check=False).output or "")["schema"] == "tabla-match/1"
    with pytest.raises(ValueError):
        format_matches("xml", [])


# --- a file that starts after the Crawford game --------------------------------------------------


@pytest.mark.parametrize("to", ["mat", "sgf", "json"])
def test_a_file_that_starts_after_the_crawford_game(tmp_path: Path, to: str) -> None:
    """A lone game saved after the Crawford game, in which the trailer doubles: no finding in the file,
    and none in what convert writes of it (each format says it its own way; a .mat turns the rule off)."""
    from test_format_sgf import AFTER_CRAWFORD

    source = tmp_path / "after-crawford.sgf"
    source.write_text(AFTER_CRAWFORD, encoding="utf-8")
    code, out, err = run("check", str(source))
    assert code == 0 and "crawford" not in out + err, out + err
    code, out, err = run("convert", str(source), "--to", to, "-o", "-", "-q")
    assert code == 0 and err == ""
    [match] = read_back(out)
    from tabla_cli.replay import replay_match

    result = replay_match(match)
    assert [f.code for f in result.findings if f.code != "match-incomplete"] == []
    assert not result.games[0].crawford and result.final_score == (6, 4)
    target = tmp_path / f"after-crawford.{to}"
    target.write_text(out, encoding="utf-8")
    code, out, err = run("check", str(target))
    assert code == 0 and "crawford" not in out + err, out + err
