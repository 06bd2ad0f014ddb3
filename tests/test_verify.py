"""``tabla analyze --verify``: the decisions its rules choose are rolled out and judged by the rollout,
with its standard error; XG's own rollouts (``temp.xgr``) are rolled-out verdicts too."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

import pytest

from tabla_cli.analysis.verify import CHECKER_ERROR, CUBE_WINDOW, MIN_TRIALS, VerifyOptions, deciding, reason
from tabla_cli.board import Player, Position
from tabla_cli.errors import TablaError
from tabla_cli.evaluation.types import CubeAction, DecisionInput, DecisionKind, Evaluation

from helpers import DATA, tabla_command

SPEC = str(DATA / "mat" / "spec-3pt-gnubg.mat")
XG_ROLLED = str(DATA / "xg" / "gammonview-B4_SrGcsKAQmoTyHlgJCbM.xg")

# A cheap rollout: 8 batches, truncated after 2 half-moves (after 1 every batch would be the same:
# each batch's 36 first rolls are the same 36), only the largest checker errors and the cube decisions
# that decide the match.
CHEAP = ("--verify-trials", "288", "--verify-truncate", "2", "--verify-checker-error", "0.3")
CHEAP_WINDOW = ("--verify-cube-window", "0.05")
LEVEL = ("--level", "1ply", "--by", "decision", "--format", "json", "-q")

analyze = tabla_command("analyze")
report = tabla_command("report")


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("TABLA_CACHE_DIR", str(folder))
    return folder


def _key(row: dict[str, Any]) -> tuple[int, int, str, str]:
    return (row["game"], row["move"], row["player"], row["kind"])


AWAY = {1: (3, 3), 2: (2, 3), 3: (1, 3), 4: (1, 2)}
"""What Petar and Maria need before each game of the 3-point spec match (1-0, 2-0, then 2-1)."""


def _chosen_by_the_rules(row: dict[str, Any]) -> bool:
    """docs/rollout.md's rules with CHEAP's thresholds, on a plain 1ply row: a checker error of 0.3 or more,
    or a double made or answered whose doubled cube covers what both need. (Its near-the-point rule needs
    the three cube equities, which the rows do not show: with a window of 0.05 it chooses none here.)"""
    if row["error"] is None or row["forced"]:
        return False
    if row["kind"] == "checker":
        return bool(row["error"] >= 0.3)
    return row["action"] in ("double", "take", "pass") and 2 * row["cube"] >= max(AWAY[row["game"]])


@pytest.fixture(scope="module")
def verified(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict[str, Any]], str, Path]:
    """The spec match at 1ply, plain and with --verify (its rows, its output and its --out-dir)."""
    home = tmp_path_factory.mktemp("verify")
    env = {"TABLA_CACHE_DIR": str(home / "cache")}
    code, plain, err = analyze(SPEC, *LEVEL, env=env)
    assert code == 0, err
    out_dir = home / "out"
    code, out, err = analyze(
        SPEC, *LEVEL, "--verify", *CHEAP, *CHEAP_WINDOW, "--out-dir", str(out_dir), "--no-cache", env=env
    )
    assert code == 0, err
    return json.loads(plain), out, out_dir


def test_verify_rolls_out_what_its_rules_choose(verified: tuple[list[dict[str, Any]], str, Path]) -> None:
    plain, out, _ = verified
    rows = json.loads(out)
    assert [_key(r) for r in rows] == [_key(r) for r in plain]
    expected = {_key(r) for r in plain if _chosen_by_the_rules(r)}
    assert expected == {(1, 3, "Petar", "checker"), (4, 1, "Maria", "double"), (4, 2, "Petar", "take")}
    assert {_key(r) for r in rows if r["rolled_out"]} == expected
    before = {_key(r): r for r in plain}
    for row in rows:
        if not row["rolled_out"]:
            assert row == before[_key(row)]
            assert row["rollout_se"] is None and row["rollout_trials"] is None and row["level_error"] is None
            continue
        assert row["source"] == "bgsage rollout"
        assert row["rollout_trials"] == 288
        assert row["rollout_se"] > 0
        assert row["level_error"] == before[_key(row)]["error"]
        assert row["error"] >= 0 and (row["rank"] == 1) == (row["error"] == 0)
        assert row["equity"] == pytest.approx(row["best_equity"] - row["error"])


def test_verify_gives_the_same_output_twice_and_from_its_cache(
    verified: tuple[list[dict[str, Any]], str, Path], cache_dir: Path
) -> None:
    _, first, _ = verified
    code, again, err = analyze(SPEC, *LEVEL, "--verify", *CHEAP, *CHEAP_WINDOW)
    assert code == 0, err
    assert again == first
    assert (cache_dir / "rollout.sqlite").exists()
    code, cached, err = analyze(SPEC, *LEVEL, "--verify", *CHEAP, *CHEAP_WINDOW)
    assert code == 0, err
    assert cached == first


def test_the_analysed_json_keeps_the_rollouts(verified: tuple[list[dict[str, Any]], str, Path]) -> None:
    _, out, out_dir = verified
    [document] = out_dir.glob("*.json")
    code, again, err = analyze(str(document), "--by", "decision", "--format", "json", "-q")
    assert code == 0, err
    columns = ("rolled_out", "rollout_se", "rollout_trials", "level_error", "error", "best", "source")
    assert [{c: r[c] for c in columns} for r in json.loads(again)] == [
        {c: r[c] for c in columns} for r in json.loads(out)
    ]


def test_xg_rollouts_are_rolled_out_verdicts_with_their_error() -> None:
    code, out, err = analyze(XG_ROLLED, "--by", "decision", "--format", "json", "-q")
    assert code == 0, err
    rows = json.loads(out)
    [rolled] = [r for r in rows if r["rolled_out"]]
    # XG rolled out the best play (95% CI +-0.01414) and the play made (+-0.01337), 500 games each.
    assert (rolled["game"], rolled["move"], rolled["player"], rolled["dice"]) == (1, 6, "Fox", "62")
    assert rolled["source"] == "recorded XG rollout" and rolled["rollout_trials"] == 500
    assert rolled["rollout_se"] == pytest.approx(math.hypot(0.0141415, 0.0133722) / 1.959964, rel=1e-4)
    assert rolled["error"] == pytest.approx(0.404058, abs=1e-6) and rolled["level_error"] is None
    assert all(r["rollout_se"] is None and r["rollout_trials"] is None for r in rows if not r["rolled_out"])


def test_the_players_page_marks_the_rolled_out_decisions(tmp_path: Path) -> None:
    page = tmp_path / "fox.html"
    code, _, err = report(XG_ROLLED, "--player", "Fox", "--format", "html", "-o", str(page), "-q")
    assert code == 0, err
    text = page.read_text(encoding="utf-8")
    assert text.count("rolled out, ±0.010, 500 trials") == 1  # the decision's row in its match's table
    assert "lost 0.404 ±0.010 (recorded XG rollout, 500 trials;" in text  # its board's caption
    code, _, err = report(XG_ROLLED, "--player", "Bluepoint02", "--format", "html", "-o", str(page), "--force")
    assert code == 0, err
    assert "rolled out" not in page.read_text(encoding="utf-8")


def test_a_rolled_out_decision_is_not_rolled_out_again() -> None:
    d = DecisionInput(
        DecisionKind.DOUBLE, Position.start(), Player.ZERO, Player.ZERO, 1, None, (0, 0), cube_action=CubeAction.DOUBLE
    )
    close = Evaluation(0.5, 0.52, "double", 0.02, "bgsage 2ply", cube_equities=(0.5, 0.52, 1.0))
    assert reason(DecisionKind.DOUBLE, close, d, VerifyOptions()) == "near the double point"
    judged = dataclasses.replace(close, rollout_se=0.004, rollout_trials=324)
    assert reason(DecisionKind.DOUBLE, judged, d, VerifyOptions()) is None
    assert reason(DecisionKind.DOUBLE, dataclasses.replace(close, forced=True), d, VerifyOptions()) is None
    assert reason(DecisionKind.DOUBLE, close, dataclasses.replace(d, variant="hypergammon"), VerifyOptions()) is None
    far = dataclasses.replace(close, cube_equities=(0.2, -0.1, 1.0))
    assert reason(DecisionKind.DOUBLE, far, d, VerifyOptions()) is None


def test_the_match_decided() -> None:
    double = DecisionInput(
        DecisionKind.DOUBLE, Position.start(), Player.ZERO, Player.ZERO, 2, Player.ZERO, (3, 4),
        cube_action=CubeAction.DOUBLE,
    )  # fmt: skip
    assert deciding(double)
    assert not deciding(dataclasses.replace(double, cube_action=CubeAction.NO_DOUBLE))
    assert not deciding(dataclasses.replace(double, away=(0, 0)))
    far = Evaluation(0.3, 0.9, "double", 0.6, "bgsage 1ply", cube_equities=(0.3, 0.9, 1.0))
    assert reason(DecisionKind.DOUBLE, far, double, VerifyOptions()) == "the match decided"


def test_settings_are_checked() -> None:
    with pytest.raises(TablaError, match="288"):
        VerifyOptions(trials=MIN_TRIALS - 1)
    with pytest.raises(TablaError):
        VerifyOptions(level="4ply")
    assert VerifyOptions().settings().batches == 9


@pytest.mark.parametrize(
    "args",
    [
        ("--verify-trials", "324"),
        ("--verify", "--verify-trials", "100"),
        ("--verify", "--verify-level", "4ply"),
    ],
)
def test_usage_errors(args: tuple[str, ...]) -> None:
    code, _, err = analyze(SPEC, *args)
    assert code == 2, err


def test_report_verify_needs_analyze() -> None:
    code, _, err = report(SPEC, "--verify")
    assert code == 2 and "--verify needs --analyze" in err


def test_report_analyze_verify_rolls_out_what_analyze_verify_does(
    verified: tuple[list[dict[str, Any]], str, Path],
) -> None:
    """``report --analyze --verify`` hands its settings to the same analysis: the same decisions rolled out."""
    _, out, _ = verified
    code, reported, err = report(
        SPEC, "--analyze", "1ply", "--verify", *CHEAP, *CHEAP_WINDOW, "--by", "decisions", "--format", "json", "-q"
    )
    assert code == 0, err
    columns = ("game", "move", "player", "kind", "rolled_out", "rollout_trials", "level_error", "source")
    rolled = [{c: r[c] for c in columns} for r in json.loads(reported) if r["rolled_out"]]
    assert len(rolled) == 3
    assert rolled == [{c: r[c] for c in columns} for r in json.loads(out) if r["rolled_out"]]


def test_the_help_gives_the_defaults_the_library_has() -> None:
    code, out, _ = analyze("--help")
    text = " ".join(out.split())
    defaults = VerifyOptions()
    assert f"(default {defaults.trials})" in text
    assert f"(default {defaults.truncate};" in text
    assert f"(default {defaults.level})" in text
    assert f"(default {defaults.seed})" in text
    assert f"(default {CHECKER_ERROR}," in text and defaults.checker_error == CHECKER_ERROR
    assert f"(default {CUBE_WINDOW})" in text and defaults.cube_window == CUBE_WINDOW
