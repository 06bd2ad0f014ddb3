"""`tabla show`, `tabla plays` and the group's help, version and completion, through click's runner."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tabla_cli.pasted import parse_ids
from tabla_cli.render import gnubg_board, gnubg_legend

from helpers import corpus_files, run

START_64 = [
    "24/20 24/18",
    "24/20 13/7",
    "24/18 13/9",
    "24/20 8/2",
    "24/18 8/4",
    "24/18 6/2",
    "24/14",
    "13/9 13/7",
    "13/9 8/2",
    "13/7 8/4",
    "13/7 6/2",
    "13/3",
    "8/4 8/2",
    "8/2 6/2",
]


def gnubg_boards() -> list[tuple[str, str, list[str], tuple[str, str]]]:
    """Every board of the corpus's gnubg text exports: IDs, the 13 lines, the names."""
    found = []
    for path in corpus_files("txt"):
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if "GNU Backgammon  Position ID:" in line:
                board = [row.rstrip() for row in lines[i + 2 : i + 15]]
                names = tuple(re.sub(r" \(Cube: \d+\)$", "", board[k][49:])[3:] for k in (0, 12))
                pid, mid = line.split(": ")[1].strip(), lines[i + 1].split(": ")[1].strip()
                found.append((pid, mid, board + [lines[i + 15]], (names[0], names[1])))
    return found


BOARDS = gnubg_boards()


def test_every_corpus_board_is_drawn_as_gnubg_draws_it() -> None:
    assert len(BOARDS) > 900
    for pid, mid, lines, names in BOARDS:
        position, state = parse_ids(f"{pid}:{mid}", strict=False)
        assert state is not None
        over = 15 in (position.mover[0], position.opponent[0])
        assert gnubg_board(position, state.dice_owner, gnubg_legend(state, names, over=over)) == lines[:13], pid


def _corpus(pid: str, mid: str) -> tuple[list[str], tuple[str, str]]:
    ((lines, names),) = [(lines, names) for p, m, lines, names in BOARDS if (p, m) == (pid, mid)]
    return lines, names


@pytest.mark.parametrize(
    ("pid", "mid", "score"),
    [
        (
            "4HPwATDgc/ABMA",
            "MACuAaAACAAE",
            "Score: O 10, X 1 in a 13-point match   Cube: 1, centred   On roll: O, dice 4-3",
        ),
        (
            "4PPgASHgc/ABBQ",
            "MIGlAaAACAAE",
            "Score: O 10, X 1 in a 13-point match   Cube: 1, centred   On roll: O, dice 3-1",
        ),
        (
            "4HPwAQXgc/ABMA",
            "cImyAaAACAAE",
            "Score: O 10, X 1 in a 13-point match   Cube: 1, centred   On roll: X, dice 5-4",
        ),
        (
            "DwAAwLYtCAEDAA",
            "QQm7AaAACAAE",
            "Score: O 10, X 1 in a 13-point match   Cube: 2, owned by O   On roll: X, dice 6-6",
        ),
    ],
)
def test_show_reads_as_gnubg_for_score_and_sides(pid: str, mid: str, score: str) -> None:
    lines, (o_name, x_name) = _corpus(pid, mid)
    code, out, err = run("show", f"{pid}:{mid}")
    assert code == 0 and err == ""
    shown = out.replace("O: player 0", f"O: {o_name}").replace("X: player 1", f"X: {x_name}").splitlines()
    at = shown.index(lines[0])
    assert shown[at : at + 14] == lines  # the board, its legend and gnubg's "Pip counts: O n, X n"
    assert score in shown


def test_show_start_labels_every_number_by_side() -> None:
    code, out, _ = run("show", "start")
    assert code == 0
    assert " +12-11-10--9--8--7-------6--5--4--3--2--1-+     O: player 0" in out
    assert "^|                  |BAR|                  |     (Cube: 1)" in out
    assert "Pip counts: O 167, X 167\nBorne off: O 0, X 0\nScore: money game" in out
    code, out, _ = run("show", "4HPwATDgc/ABMA:cAkAAAAAAAAA")
    assert "v|                  |BAR|" in out and "On roll: X, dice not rolled" in out


@pytest.mark.parametrize(
    ("text", "reason", "named"),
    [
        ("AAAAAAAAAAAAAA", "both sides have borne off all 15 checkers", "'AAAAAAAAAAAAAA'"),
        (
            "XGID=--------------------------:0:0:1:00:0:0:0:0:10",
            "both sides have borne off all 15 checkers",
            "'XGID=--------------------------:0:0:1:00:0:0:0:0:10'",
        ),
        (
            "XGID=aa----EACA--dCa--c-e----BB:2:-1:-1:00:3:2:0:7:10",
            "17 checkers, more than 15",
            "'aa----EACA--dCa--c-e----BB:2:-1:-1:00:3:2:0:7:10'",
        ),
        ("4HPwATDgc/ABMA:cImnAAAAAAAA", "a die shows 7", "Match ID 'cImnAAAAAAAA'"),
    ],
)
def test_ids_no_game_reaches_are_refused(text: str, reason: str, named: str) -> None:
    for command in (["show", text], ["plays", text, "31"]):
        code, out, err = run(*command)
        assert code == 1 and out == ""
        assert reason in err and named in err
        assert "<ids>" not in err and ":1:1:" not in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("variant", "lenient", "text", "reason"),
    [
        ("plakoto", "tapa", "24:1p 12:14 / 1:1 10:14", "already lost by the mother-checker rule"),
        (
            "long_nardy",
            "gulbara",
            "24:9 18:1 17:1 16:1 15:1 14:1 13:1 / 24:15",
            "six-point prime with no opposing checker past it",
        ),
    ],
)
def test_variant_positions_no_game_reaches_are_refused(variant: str, lenient: str, text: str, reason: str) -> None:
    for command in ("show", "plays"):
        code, out, err = run(command, "--variant", variant, text, *(["64"] if command == "plays" else []))
        assert code == 1 and out == "" and reason in err and repr(text) in err
    assert run("show", "--variant", lenient, text)[0] == 0


def test_a_finished_game_has_no_plays() -> None:
    code, out, err = run("plays", "AAAAQAAAAAAAAA", "31")
    assert run("show", "AAAAQAAAAAAAAA")[0] == 0
    assert code == 1 and out == "" and "the game is over" in err


def test_id_errors_name_the_id_and_not_a_synthetic_file() -> None:
    code, _, err = run("show", "Position ID: 4HPwATDgc/ABMA\nMatch ID: cImnAAAAAAAA")
    assert code == 1 and "Match ID 'cImnAAAAAAAA' is not valid: a die shows 7 (line 2 of the pasted text)" in err
    code, _, err = run("show", "4HPwATDgc/ABMA cAkAAAAAAAAA cAkAAAAAAAAA")
    assert code == 1 and "at column 29 of '4HPwATDgc/ABMA cAkAAAAAAAAA cAkAAAAAAAAA'" in err
    assert "<ids>" not in err


def test_plays_are_listed_in_gnubg_order() -> None:
    code, out, err = run("plays", "start", "64")
    assert code == 0 and err == "" and out.splitlines() == START_64
    code, out, _ = run("plays", "4HPwATDgc/ABMA", "11")
    lines = out.splitlines()
    assert lines.index("24/23(2) 6/5(2)") < lines.index("24/22 6/4") < lines.index("8/7(2) 6/5(2)")


def test_plays_ranked_by_equity() -> None:
    code, out, err = run("plays", "start", "64", "--level", "1ply", "--format", "json")
    assert code == 0 and err == ""
    rows = json.loads(out)
    assert sorted(row["play"] for row in rows) == sorted(START_64)
    assert [row["rank"] for row in rows] == list(range(1, 15))
    assert [row["equity"] for row in rows] == sorted((row["equity"] for row in rows), reverse=True)
    assert rows[0]["loss"] == 0 and all(
        row["loss"] == pytest.approx(rows[0]["equity"] - row["equity"], abs=1e-5) for row in rows
    )
    assert {row["level"] for row in rows} == {"1ply"}
    code, out, _ = run("plays", "start", "64", "--level", "1ply")
    first, chances, second = out.splitlines()[:3]
    assert re.fullmatch(r"      0\.\d{3} 0\.\d{3} 0\.\d{3} - 0\.\d{3} 0\.\d{3} 0\.\d{3}", chances)
    assert re.fullmatch(rf"   1\. 1ply  {re.escape(rows[0]['play'])} +Eq\.: [+-]\d\.\d{{3}}", first)
    assert re.fullmatch(rf"   2\. 1ply  {re.escape(rows[1]['play'])} +Eq\.: [+-]\d\.\d{{3}} \(-\d\.\d{{3}}\)", second)


def test_plays_level_needs_an_engine_game() -> None:
    code, out, err = run("plays", "--variant", "plakoto", "start", "64", "--level", "1ply")
    assert code == 2 and out == "" and "not plakoto" in err
    assert run("plays", "start", "64", "--level", "5ply")[0] == 2


def test_help_lists_every_summary_in_full() -> None:
    code, out, err = run("--help")
    assert code == 0 and err == ""
    commands = out.split("Commands:")[1]
    assert "..." not in commands.replace("INPUT...", "") and "…" not in commands
    flat = " ".join(commands.split())
    assert "List the legal plays for a roll, or rank them by equity (--level)." in flat
    assert "Convert the matches in INPUT... (files, directories, '-' for stdin) to another format." in flat
    for name in ("check", "convert", "plays", "report", "show"):
        assert f"  {name} " in commands


@pytest.mark.parametrize("flag", ["-V", "--version"])
def test_version(flag: str) -> None:
    code, out, _ = run(flag)
    assert code == 0 and out.startswith("tabla, version ")


@pytest.mark.parametrize(("shell", "marker"), [("bash", "complete -o"), ("zsh", "compdef"), ("fish", "complete")])
def test_shell_completion_scripts(shell: str, marker: str) -> None:
    code, out, _ = run(env={"_TABLA_COMPLETE": f"{shell}_source"})
    assert code == 0 and marker in out and "_TABLA_COMPLETE" in out


def test_report_of_an_unreadable_path_writes_nothing_on_stdout(tmp_path: Path) -> None:
    code, out, err = run("report", str(tmp_path / "missing.mat"))
    assert code == 1 and out == ""
    assert "error[unreadable-file]" in err
