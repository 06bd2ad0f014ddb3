"""``tabla cube``: the engine's verdict on a cube decision, through click's CliRunner."""

from __future__ import annotations

import json

from helpers import tabla_command

REFERENCE = "BwAAcAEAAAAAAA:AQHgAEAAEAAE"
"""7-point match at 4-2, cube 2 owned by the side on roll: gnubg 1-ply says "Redouble, pass"."""


run = tabla_command("cube")


def test_text_gives_equities_words_and_costs_best_first() -> None:
    code, out, err = run(REFERENCE)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "Position ID: BwAAcAEAAAAAAA   Match ID: AQHgAEAAEAAE"
    assert lines[1] == "Cube analysis at 3ply (gnubg's 2-ply)"
    assert lines[2].startswith("Cubeless chances of the side on roll: 0.")
    assert lines[4].startswith("1. Redouble, pass      +1.000")
    assert lines[5].startswith("2. Redouble, take") and lines[6].startswith("3. No redouble")
    assert "Proper cube action: Redouble, pass" in lines
    assert lines[-1].startswith("Cost of each wrong action: no double ")


def test_json_at_any_level() -> None:
    for level in ("1ply", "2ply", "3ply"):
        code, out, err = run("--level", level, "--format", "json", REFERENCE)
        assert (code, err) == (0, "")
        data = json.loads(out)
        assert data["level"] == level and data["proper"] == "Redouble, pass"
        assert (data["double"], data["take"]) == (True, False)
        assert data["double_pass"] == 1.0
        assert data["costs"]["double"] == 0.0 and data["costs"]["pass"] == 0.0
        assert abs(data["costs"]["take"] - (data["double_take"] - data["double_pass"])) < 2e-6


def test_money_position_id_alone() -> None:
    code, out, _ = run("--format", "json", "--level", "1ply", "4HPwATDgc/ABMA")
    data = json.loads(out)
    assert code == 0 and data["match_id"] == "MAEAAAAAAAAE"
    assert data["proper"].startswith("No double, take (") and not data["double"]


def test_no_cube_decision_is_an_error_and_the_rest_still_judged() -> None:
    crawford = "BwAAcAEAAAAAAA:sAHgAGAAIAAE"  # 6-4 of 7, the Crawford game
    code, out, err = run("--format", "json", crawford, REFERENCE)
    assert code == 1
    assert "no cube decision" in err and crawford in err
    assert [d["proper"] for d in json.loads(out)] == ["Redouble, pass"]


def test_bad_id_and_bad_level() -> None:
    code, out, err = run("nonsense")
    assert code == 1 and out == "" and "nonsense" in err
    code, _, err = run("--level", "4ply", REFERENCE)
    assert code == 2 and "4ply" in err


def test_a_tie_is_ranked_printed_and_flagged_as_one_verdict() -> None:
    """Both sides one checker from home: no double and double/pass are both a sure win (issue 37)."""
    tie = "XGID=-A----------------------a-:0:0:1:00:0:0:0:0:10"
    code, out, err = run("--level", "1ply", tie)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert "Proper cube action: Double, pass" in lines
    assert lines[4].startswith("1. Double, pass")
    code, out, _ = run("--level", "1ply", "--format", "json", tie)
    data = json.loads(out)
    assert (data["proper"], data["double"], data["take"]) == ("Double, pass", True, False)
