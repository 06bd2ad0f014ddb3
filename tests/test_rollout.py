"""``tabla rollout``: short truncated rollouts (two to four batches) through the library and CliRunner.

The long checks (bear-offs against gnubg's exact database, the openings, the
honesty of the standard error, the Dask cluster) are in test_rollout_slow.py.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from tabla_cli.analysis.rollout import (
    BATCH,
    FIELDS,
    Settings,
    Task,
    as_data,
    batch_seed,
    pool,
    rollout,
    run_batch,
)
from tabla_cli.cli import main
from tabla_cli.show import rollout_question as prepare

QUICK = ["--trials", "72", "--truncate", "1", "--candidates", "2", "--no-cache", "-q"]
CUBE = "4HPwATDgc/ABMA:cAkAAAAAAAAA"
"""The opening position, money, cube centred, nobody has rolled: a cube decision."""
OPPONENT_OWNS = "4HPwATDgc/ABMA:QQkAAAAAAAAA"


def tabla(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["rollout", *args], input=stdin)


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TABLA_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_a_checker_play_rolls_out_its_best_candidates_with_every_figure() -> None:
    found = tabla("start", "31", *QUICK, "--format", "json")
    assert (found.exit_code, found.stderr) == (0, "")
    data = json.loads(found.stdout)
    assert data["kind"] == "play" and data["trials"] == 72 and data["batches"] == 2 and not data["partial"]
    plays = [c["play"] for c in data["candidates"]]
    assert len(plays) == 2 and plays[0] == "8/5 6/5"
    best, other = data["candidates"]
    for candidate in data["candidates"]:
        for name in ("equity", "cubeless_equity", "win", "win_gammon", "lose", "lose_gammon", "lose_backgammon"):
            assert isinstance(candidate[name], float)
        assert candidate["equity_se"] > 0 and candidate["cubeless_se"] > 0 and candidate["win_se"] > 0
        assert candidate["win"] + candidate["lose"] == pytest.approx(1.0)
        assert candidate["win_gammon"] >= candidate["win_backgammon"]
    assert (best["diff"], best["diff_se"], best["apart"]) == (0.0, 0.0, False)
    assert other["diff"] == pytest.approx(other["equity"] - best["equity"], abs=2e-6)
    assert other["diff"] < 0 and other["diff_se"] > 0
    assert other["apart"] == (abs(other["diff"]) > 2 * other["diff_se"])


def test_text_reads_as_a_rollout_table() -> None:
    found = tabla("start", "3-1", *QUICK)
    assert (found.exit_code, found.stderr) == (0, "")
    lines = found.stdout.splitlines()
    assert lines[0] == "Position ID: 4HPwATDgc/ABMA   Match ID: MAEAAAAAAAAE"
    assert lines[1].startswith(
        "Rollout of 3-1: 72 trials, 2 batches of 36, truncated after 1 half-moves, plays at 1ply"
    )
    assert lines[3].startswith("  1. 8/5 6/5 ") and lines[4].lstrip().startswith("Win ") and " L(bg) " in lines[4]
    assert lines[5].startswith("  2. ")
    assert lines[-1].startswith("* apart from the best")


def test_the_cube_decision_in_gnubgs_words() -> None:
    found = tabla(CUBE, *QUICK, "--format", "json")
    assert (found.exit_code, found.stderr) == (0, "")
    data = json.loads(found.stdout)
    assert data["kind"] == "cube" and data["trials"] == 72
    for name in ("no_double", "double_take", "double_pass", "cubeless_equity"):
        assert isinstance(data[name], float) and isinstance(
            data[f"{name}_se" if name != "cubeless_equity" else "cubeless_se"], float
        )
    assert data["double_pass"] == 1.0
    assert data["proper_action"].startswith("No double, take")
    assert data["double"] is False and data["take"] is True
    text = tabla(CUBE, *QUICK)
    assert "Proper cube action: No double, take" in text.stdout
    assert text.stdout.splitlines()[-5] == "Cubeful equities:"


def test_cubeless_gives_the_equity_before_the_roll() -> None:
    found = tabla("start", "--cubeless", *QUICK, "--format", "json")
    assert found.exit_code == 0
    data = json.loads(found.stdout)
    assert data["kind"] == "cubeless"
    assert 0.0 < data["cubeless_equity"] < 0.2 and data["cubeless_se"] > 0
    assert "no_double" not in data and "candidates" not in data


def test_same_seed_same_output_another_seed_other_dice() -> None:
    deeper = [*QUICK, "--truncate", "3", "--format", "json"]
    first = tabla("start", "42", *deeper)
    again = tabla("start", "42", *deeper)
    other = tabla("start", "42", *deeper, "--seed", "2")
    assert first.stdout == again.stdout
    assert json.loads(first.stdout)["candidates"][0]["equity"] != json.loads(other.stdout)["candidates"][0]["equity"]


def test_threads_do_not_change_the_numbers() -> None:
    one = tabla("start", "--cubeless", *QUICK, "--format", "json", "--threads", "1")
    two = tabla("start", "--cubeless", *QUICK, "--format", "json", "--threads", "2")
    assert one.stdout == two.stdout


def test_the_result_is_the_pool_of_its_batches_run_one_by_one() -> None:
    job = prepare(CUBE)
    settings = Settings(trials=72, truncate=1)
    (result,) = rollout([job], settings, use_cache=False)
    width = len(FIELDS["cube"])
    batches = [
        run_batch(Task("cube", job.lines[0].board, job.lines[0].board, job.state, 1, 1, True, batch_seed(1, i)))
        for i in range(2)
    ]
    columns = list(zip(*batches))
    for i, name in enumerate(FIELDS["cube"]):
        assert result.lines[0].figures[name] == pool(columns[i], columns[width + i])


def test_the_cache_answers_at_once_and_a_longer_rollout_runs_only_the_new_batches(own_cache: Path) -> None:
    job = prepare("start", (5, 2), candidates=2)
    runs: list[int] = []
    (short,) = rollout([job], Settings(trials=72, truncate=1), progress=lambda done, total, run: runs.append(run))
    assert runs[-1] == 2 * 72 and (own_cache / "rollout.sqlite").exists()
    runs.clear()
    (same,) = rollout([job], Settings(trials=72, truncate=1), progress=lambda done, total, run: runs.append(run))
    assert same.lines == short.lines and same.cached == 4 and runs == [0]
    runs.clear()
    (longer,) = rollout([job], Settings(trials=144, truncate=1), progress=lambda done, total, run: runs.append(run))
    assert runs[-1] == 2 * 72 and longer.cached == 4 and longer.trials == 144
    (fresh,) = rollout([job], Settings(trials=144, truncate=1), use_cache=False)
    assert as_data(fresh) == as_data(longer)


def test_an_interrupted_rollout_pools_the_batches_done_and_says_partial() -> None:
    job = prepare("start", cubeless=True)

    def interrupt(done: int, total: int, run: int) -> None:
        if done >= 3 * BATCH:
            raise KeyboardInterrupt

    (result,) = rollout([job], Settings(trials=144, truncate=1), use_cache=False, progress=interrupt)
    assert result.partial and result.trials == 3 * BATCH
    data = as_data(result)
    assert data["partial"] is True and data["trials"] == 108 and data["trials_asked"] == 144
    assert not math.isnan(result.lines[0].figures["cubeless_equity"].mean)


def test_a_trial_of_one_half_move_is_exact_whatever_the_seed() -> None:
    """Each batch's first roll is stratified: stopped after it, every batch gives the same figures.

    The spread of the batches says so (0); bgsage's per-trial error, which
    fewer than 8 batches fall back to, does not: it counts the first roll's luck.
    """
    job = prepare("start", cubeless=True)
    (one,) = rollout([job], Settings(trials=8 * BATCH, truncate=1, seed=1), use_cache=False)
    (two,) = rollout([job], Settings(trials=8 * BATCH, truncate=1, seed=2), use_cache=False)
    equity = one.lines[0].figures["cubeless_equity"]
    assert equity.mean == pytest.approx(two.lines[0].figures["cubeless_equity"].mean, abs=1e-12)
    assert equity.se == pytest.approx(0.0, abs=1e-9)
    (few,) = rollout([job], Settings(trials=2 * BATCH, truncate=1, seed=1), use_cache=False)
    assert few.lines[0].figures["cubeless_equity"].se > 0.005


def test_target_se_stops_at_the_first_wave_that_meets_it() -> None:
    job = prepare("start", cubeless=True)
    (loose,) = rollout([job], Settings(trials=360, truncate=1, target_se=1.0), use_cache=False)
    assert loose.trials == 4 * BATCH and not loose.partial
    (strict,) = rollout([job], Settings(trials=360, truncate=2, target_se=1e-9), use_cache=False)
    assert strict.trials == 10 * BATCH


def test_a_list_of_positions_on_stdin_one_bad_line_is_reported() -> None:
    listed = f"start 31\n# a comment\n{CUBE}\nnot-a-position\n{OPPONENT_OWNS}\n"
    found = tabla("-", *QUICK, "--format", "json", stdin=listed)
    assert found.exit_code == 1
    data = json.loads(found.stdout)
    assert [d["kind"] for d in data] == ["play", "cube"]
    assert "not-a-position" in found.stderr
    assert f"{OPPONENT_OWNS}: no cube decision: the opponent owns the cube" in found.stderr


def test_a_file_of_positions(tmp_path: Path) -> None:
    listing = tmp_path / "positions.txt"
    listing.write_text("start 6 5\nstart 6-1\n", encoding="utf-8")
    found = tabla(str(listing), *QUICK, "--format", "json")
    assert found.exit_code == 0
    assert [d["candidates"][0]["play"] for d in json.loads(found.stdout)] == ["24/13", "13/7 8/7"]


def test_progress_lines_on_stderr_off_a_terminal() -> None:
    found = tabla("start", "--cubeless", "--trials", "72", "--truncate", "1", "--no-cache")
    assert found.exit_code == 0
    assert found.stderr.splitlines()[-1].startswith("rolling out: 72/72 trials, ")
    assert "trials/s" in found.stderr


@pytest.mark.parametrize(
    ("args", "code", "said"),
    [
        (["start", "77"], 1, "dice"),
        ([OPPONENT_OWNS], 1, "the opponent owns the cube"),
        (["start", "31", "--level", "4ply"], 2, "--level"),
        (["start", "31", "--trials", "0"], 2, "--trials"),
        (["start", "31", "--scheduler", "nowhere"], 2, "--scheduler"),
    ],
)
def test_bad_input_is_a_message_not_a_traceback(args: list[str], code: int, said: str) -> None:
    found = tabla(*args, "--no-cache", "-q")
    assert found.exit_code == code
    assert said in found.stderr and "Traceback" not in found.stderr
    assert found.stdout == ""
