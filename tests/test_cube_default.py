"""The engine's default for one position (``tabla cube``, ``tabla plays --level``) against gnubg's 2-ply exports.

``tests/data/cube/gnubg_2ply_exports.csv`` holds the 40 cube decisions that
GNU Backgammon analysed at 2-ply in the bglab text exports of
``tests/data/corpus/txt`` (made by ``make_export_cubes.py`` beside it), with
the cubeless chances gnubg printed; tabla's ``3ply`` looks as far ahead.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tabla_cli.analysis.cube import cube_verdict
from tabla_cli.analysis.engine import ONE_POSITION_LEVEL
from tabla_cli.cli import main
from tabla_cli.cli.cube import CHANCES
from tabla_cli.evaluation.types import DecisionKind
from tabla_cli.pasted import parse_ids
from tabla_cli.show import decision_input

DATA = Path(__file__).parent / "data"
ROWS = list(csv.DictReader((DATA / "cube" / "gnubg_2ply_exports.csv").open(encoding="utf-8")))


def gnubg_says(words: str) -> tuple[bool, bool]:
    return words.startswith(("Double", "Redouble", "Optional")), "take" in words


def judge(row: dict[str, str], level: str) -> tuple[bool, bool, tuple[float, ...]]:
    position, state = parse_ids(f"{row['position_id']}:{row['match_id']}")
    assert state is not None
    verdict = cube_verdict(decision_input(DecisionKind.DOUBLE, position, state), level)
    return verdict.double, verdict.take, verdict.chances


def test_the_set_is_every_2ply_cube_analysis_of_the_exports() -> None:
    text = "".join(path.read_text(encoding="utf-8") for path in (DATA / "corpus" / "txt").glob("bglab-*-2-ply-*.txt"))
    assert text.count("\nCube analysis\n2-ply") == 42  # two positions analysed twice, kept once
    assert len({(row["position_id"], row["match_id"]) for row in ROWS}) == len(ROWS) == 40


def test_auto_judges_one_position_at_3ply() -> None:
    assert ONE_POSITION_LEVEL == "3ply"


def test_the_race_redouble_that_2ply_missed() -> None:
    """Issue 38: a 2-cube owned at 0-0 of 3; gnubg 2-ply says "Redouble, take", tabla 2ply did not."""
    result = CliRunner().invoke(main, ["cube", "--format", "json", "9xkAIPD3DQIAAA:AQFqAAAAAAAE"])
    assert (result.exit_code, result.stderr) == (0, "")
    data = json.loads(result.stdout)
    assert (data["level"], data["proper"], data["double"], data["take"]) == ("3ply", "Redouble, take", True, True)
    assert set(CHANCES) <= set(data)


@pytest.mark.parametrize("level", ["1ply", "2ply"])
def test_chances_near_gnubgs_printout(level: str) -> None:
    """The cubeless chances of the side on roll, against gnubg 2-ply's printout (three decimals)."""
    gaps = []
    for row in ROWS:
        *_, chances = judge(row, level)
        gaps.extend(abs(mine - float(row[name])) for name, mine in zip(CHANCES, chances, strict=True))
    assert sum(gaps) / len(gaps) < 0.01
    assert max(gaps) < 0.12


@pytest.mark.slow
def test_the_default_agrees_with_gnubg_2ply() -> None:
    """At least 37 of the 40 verdicts as gnubg's (measured: 39; docs/analyze.md), chances within 0.06."""
    agree, gaps = 0, []
    for row in ROWS:
        double, take, chances = judge(row, "auto")
        agree += (double, take) == gnubg_says(row["proper"])
        gaps.extend(abs(mine - float(row[name])) for name, mine in zip(CHANCES, chances, strict=True))
    assert agree >= 37
    assert max(gaps) < 0.06 and sum(gaps) / len(gaps) < 0.008


# gnubg 2-ply's hint in tests/data/corpus/txt/bglab-lasse-2-ply-match967143.txt, moves 2 and 3: the best
# play and its chances after the play, of the side that played.
PLAYS = [
    ("sGfwATDgc/ABMA:cAnmAAAAAAAE", "41", "24/23 13/9", (0.423, 0.111, 0.005, 0.188, 0.009)),
    ("4HPhASiwZ/ABMA:MAHmAAAAAAAE", "41", "6/2*/1*", (0.553, 0.200, 0.008, 0.120, 0.006)),
]


@pytest.mark.parametrize("ids, dice, best, gnubg", PLAYS, ids=[p[0] for p in PLAYS])
def test_plays_chances_after_the_play_as_gnubg_prints_them(
    ids: str, dice: str, best: str, gnubg: tuple[float, ...]
) -> None:
    result = CliRunner().invoke(main, ["plays", "--format", "json", ids, dice, "--level"])
    assert (result.exit_code, result.stderr) == (0, "")
    first = json.loads(result.stdout)[0]
    assert (first["play"], first["level"]) == (best, "3ply")
    for name, theirs in zip(CHANCES, gnubg, strict=True):
        assert first[name] == pytest.approx(theirs, abs=0.01), name


def test_plays_text_prints_the_chances_under_each_play() -> None:
    result = CliRunner().invoke(main, ["plays", "--level", "1ply", "4HPwATDgc/ABMA", "31"])
    lines = result.stdout.splitlines()
    assert lines[0].startswith("   1. 1ply  8/5 6/5")
    win, rest = lines[1].split(maxsplit=1)
    assert 0.5 < float(win) < 0.6 and " - " in rest
