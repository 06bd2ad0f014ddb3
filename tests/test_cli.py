from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from tabla_cli.cli import main
from tabla_cli.errors import TablaError

from helpers import CORPUS, DATA, EXAMPLES, run

BAD = " 3 point match\n\n Game 1\n Ann : 0                        Bob : 0\n  1) 31: 8/5 6/4\n"


@pytest.mark.parametrize("command", [[], ["check"], ["show"], ["plays"], ["cube"]])
def test_every_command_has_help(command: list[str]) -> None:
    code, out, err = run(*command, "--help")
    assert code == 0 and "Usage:" in out and err == ""


def test_check_examples_is_clean() -> None:
    code, out, err = run("check", str(EXAMPLES), "--jobs", "1")
    assert code == 0
    assert out == ""
    files = len(list(EXAMPLES.glob("*.mat")))
    assert f"checked {files} files, {files} matches" in err


def test_check_reports_an_illegal_play_like_a_compiler(tmp_path: Path) -> None:
    path = tmp_path / "bad.mat"
    path.write_text(BAD, encoding="utf-8")
    code, out, err = run("check", str(path))
    assert code == 1 and out == ""
    first = err.splitlines()[0]
    assert first.startswith(f"{path}:5:6: error[illegal-play]: game 1 move 1, Ann rolls 3-1: ")
    assert "legal: " in first
    assert "errors: 1 (illegal-play 1)" in err


def test_check_jsonl_and_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.mat"
    path.write_text(BAD, encoding="utf-8")
    code, out, err = run("check", str(path), "--format", "jsonl", "--quiet")
    assert code == 1 and err == ""
    (row,) = [r for r in map(json.loads, out.splitlines()) if r["severity"] == "error"]
    assert row["code"] == "illegal-play" and row["severity"] == "error"
    assert (row["line"], row["column"], row["game"], row["move"], row["player"]) == (5, 6, 1, 1, "Ann")
    assert row["dice"] == "31" and row["play"] == "8/5 6/4"
    assert row["position_id"] == "4HPwATDgc/ABMA" and row["match_id"]
    assert 0 < len(row["legal"]) <= 11
    code, out, _ = run("check", str(path), "--format", "json", "--quiet")
    assert code == 1 and json.loads(out)[0]["code"] == "illegal-play"


def test_check_reads_stdin() -> None:
    code, out, err = run("check", "-", "--quiet", input=BAD)
    assert code == 1 and "<stdin>:5:6: error[illegal-play]" in err and out == ""


def test_one_bad_file_does_not_stop_the_rest(tmp_path: Path) -> None:
    (tmp_path / "a.mat").write_text("this is not a match\n", encoding="utf-8")
    shutil.copy(EXAMPLES / "three-point-match.mat", tmp_path / "b.mat")
    (tmp_path / "c.mat").write_bytes(b"\xff\xfe\x00garbage")
    code, out, err = run("check", str(tmp_path), str(tmp_path / "missing.mat"), "--jobs", "2")
    assert code == 1
    assert "a.mat: error[unreadable-file]" in err
    assert "missing.mat: error[unreadable-file]" in err
    assert "checked 4 files, 1 match, 4 games" in err


def test_warnings_fail_only_with_strict(tmp_path: Path) -> None:
    path = tmp_path / "w.mat"
    path.write_text(BAD.replace("6/4", "6/5*"), encoding="utf-8")
    code, _, err = run("check", str(path))
    assert code == 0 and "warning[extra-hit-marker]" in err
    code, _, _ = run("check", str(path), "--strict")
    assert code == 1


def test_check_usage_errors_exit_2() -> None:
    assert run("check")[0] == 2
    assert run("check", "x", "--format", "yaml")[0] == 2
    assert run("check", "x", "--bogus")[0] == 2


def test_check_corpus_in_parallel_keeps_input_order() -> None:
    corpus = CORPUS / "mat"
    code1, out1, _ = run("check", str(corpus), "--format", "jsonl", "--jobs", "1", "--quiet")
    code2, out2, _ = run("check", str(corpus), "--format", "jsonl", "--jobs", "2", "--quiet")
    assert code1 == code2 == 1
    assert out1 == out2
    errors = [json.loads(line) for line in out1.splitlines() if '"error"' in line]
    assert {(Path(e["path"]).name, e["line"]) for e in errors} == {
        ("gammonview-5nqfGw9bWG3deTaU.mat", 25),
        ("bglab-lasse-MrPurple_-_Lasse_3pt_Backgammon_Studio_2024_05_11_20_10_33.txt", 58),
    }


def test_show_text_and_json() -> None:
    code, out, err = run("show", "4HPwATDgc/ABMA:cAkAAAAAAAAA")
    assert code == 0 and err == ""
    assert "Position ID: 4HPwATDgc/ABMA   Match ID: cAkAAAAAAAAA" in out
    assert "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:1:0:10" in out
    assert " +13-14-15-16-17-18------19-20-21-22-23-24-+" in out
    assert "Pip count" in out and "167" in out
    code, out, _ = run("show", "XGID=aa----EACA--dCa--c-e----B-:2:-1:-1:00:3:2:0:7:10", "--format", "json")
    data = json.loads(out)
    assert code == 0
    assert (data["position_id"], data["match_id"]) == ("4OvCATDgc+QBUA", "AgHgACAAGAAE")
    assert (data["cube"], data["cube_owner"], data["length"], data["score"]) == (4, 0, 7, [2, 3])
    assert data["on_roll"]["bar"] == 1


def test_show_bad_id_exits_1() -> None:
    code, out, err = run("show", "4HPwATDgc/AB!A")
    assert code == 1 and out == "" and "Error:" in err and "Traceback" not in err


def test_traceback_raises_the_error_and_the_old_group_verbose_says_it_is_deprecated() -> None:
    runner = CliRunner()
    plain = runner.invoke(main, ["show", "4HPwATDgc/AB!A"])
    assert plain.exit_code == 1 and isinstance(plain.exception, SystemExit)
    traced = runner.invoke(main, ["--traceback", "show", "4HPwATDgc/AB!A"])
    assert isinstance(traced.exception, TablaError) and traced.stderr == ""
    for flag in ("-v", "--verbose"):
        old = runner.invoke(main, [flag, "show", "4HPwATDgc/AB!A"])
        assert isinstance(old.exception, TablaError)
        assert old.stderr == "tabla: -v/--verbose before the command is deprecated: use --traceback\n"


def test_a_flag_means_one_thing_in_every_command() -> None:
    """``-v`` is 'more findings' on check; before the command it is only the deprecated --traceback."""
    code, out, _ = run("--help")
    assert code == 0 and "--traceback" in out and "Deprecated spelling of --traceback" in out
    code, out, _ = run("check", "--help")
    assert code == 0 and "-v, --verbose" in out and "the same as --notes" in out


@pytest.mark.parametrize("dice", [["64"], ["6-4"], ["6", "4"]])
def test_plays_lists_every_legal_play(dice: list[str]) -> None:
    code, out, err = run("plays", "4HPwATDgc/ABMA", *dice)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 14 and "24/14" in lines and "8/2 6/2" in lines


def test_plays_json_and_forced_moves() -> None:
    code, out, _ = run("plays", "4HN8ABj/PwAEAA", "65", "--format", "json")
    assert code == 0
    assert [(r["play"], r["dice_used"]) for r in json.loads(out)] == [("13/7", 1)]
    code, out, _ = run("plays", "27Y5AADgc/ADQA", "65")
    assert (code, out) == (0, "(no legal play)\n")


@pytest.mark.parametrize(
    ("args", "code"), [(["XXX", "64"], 1), (["4HPwATDgc/ABMA", "74"], 1), (["4HPwATDgc/ABMA"], 2), ([], 2)]
)
def test_plays_bad_input(args: list[str], code: int) -> None:
    got, out, err = run("plays", *args)
    assert got == code and out == "" and "Traceback" not in err


def test_a_garbage_line_costs_only_its_game(tmp_path: Path) -> None:
    text = (EXAMPLES / "three-point-match.mat").read_text(encoding="utf-8")
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if "Game 2" in line) + 3
    lines.insert(at, "  3) ?? this line is garbage")
    path = tmp_path / "g.mat"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = run("check", str(path), "--quiet")
    assert code == 1
    assert f"{path}:{at + 1}:" in err and "error[syntax-error]" in err
    assert "checked" not in err


def test_the_summary_writes_every_number_with_one_thousands_separator() -> None:
    code, _, err = run("check", str(DATA / "gbf"))
    summary = next(line for line in err.splitlines() if line.startswith("checked "))
    assert code == 0 and "1,002 plays" in summary
    assert re.findall(r"(?<![\d,.])\d{4,}", summary) == []
