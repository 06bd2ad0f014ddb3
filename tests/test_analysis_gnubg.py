"""bgsage's error rates against GNU Backgammon's, on matches of players of known strength.

The matches in ``tests/data/generated`` were played by GNU Backgammon against
itself, each player with its own chequer-play noise (``manifest.json``), and
analysed by GNU Backgammon at its 2-ply (the text exports); see
tests/data/SOURCES.md. Here the ``.mat`` files are analysed by bgsage at 1ply
and the text exports are read for GNU Backgammon's own analysis; no gnubg is
needed.

The unit is a player in one match (16 of them). The bounds: with n = 16, a
Spearman correlation above 0.74 has a one-sided chance below 0.1 % if the two
rankings were unrelated, so 0.8 between the engines leaves no doubt that they
agree; what remains between them is a different net and depth (bgsage 1ply,
gnubg 2-ply) on 20 to 140 decisions a player. The noise spans 0.005 to 0.06
and raises the error rate about sevenfold over that range, so its ranking is
held to 0.75 (both engines measure about 0.9 on these files).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from scipy.stats import spearmanr

from tabla_cli.analysis.decisions import AnalysisOptions
from tabla_cli.analysis.file_analysis import analyse_file
from tabla_cli.analysis.stats import decisions_frame, player_stats

import helpers

DATA = helpers.DATA / "generated"
MANIFEST: list[dict[str, Any]] = json.loads((DATA / "manifest.json").read_text())
ENGINE = AnalysisOptions(level="1ply", recorded=False, cache=False, luck=False)
RECORDED = AnalysisOptions(level="1ply", recorded=True, cache=False, luck=False)


def _rows(paths: list[Path], options: AnalysisOptions, match: str) -> list[dict[str, Any]]:
    """The decisions of ``paths``, keyed by the manifest's match name (one text export per game)."""
    rows: list[dict[str, Any]] = []
    for path in paths:
        analysis = analyse_file(str(path), options)
        assert analysis.rows, f"no decisions in {path.name}"
        for row in analysis.rows:
            row["match"] = match
        rows.extend(analysis.rows)
    return rows


@pytest.fixture(scope="module")
def frames(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[pd.DataFrame, pd.DataFrame]]:
    """The decisions frames: bgsage 1ply on the .mat files, gnubg's recorded analysis of the same matches."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TABLA_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        engine: list[dict[str, Any]] = []
        recorded: list[dict[str, Any]] = []
        for match in MANIFEST:
            name = match["file"]
            engine += _rows([DATA / f"{name}.mat"], ENGINE, name)
            recorded += _rows(sorted(DATA.glob(f"{name}*.txt")), RECORDED, name)
        yield decisions_frame(engine), decisions_frame(recorded)


@pytest.fixture(scope="module")
def players(frames: tuple[pd.DataFrame, pd.DataFrame]) -> pd.DataFrame:
    """One row per match and player: the noise it played with and both engines' error rates."""
    engine, recorded = (player_stats(frame, by_match=True) for frame in frames)
    noise = pd.DataFrame(
        [
            {"match": m["file"], "player": player, "noise": level}
            for m in MANIFEST
            for player, level in zip(m["players"], m["noise"], strict=True)
        ]
    ).astype({"match": "string", "player": "string"})
    joined = noise.merge(engine, on=["match", "player"]).merge(
        recorded, on=["match", "player"], suffixes=("", "_gnubg")
    )
    assert len(joined) == 2 * len(MANIFEST)
    return joined.sort_values("noise", kind="stable").reset_index(drop=True)


def test_sources_are_what_they_say(frames: tuple[pd.DataFrame, pd.DataFrame]) -> None:
    # gnubg evaluates its short list at 2-ply; a noisy play outside it keeps a lower ply.
    engine, recorded = frames
    assert set(engine["source"].dropna()) == {"bgsage 1ply"}
    plies = {"recorded"} | {f"recorded gnubg {n}-ply" for n in range(3)}
    assert set(recorded["source"].dropna()) <= plies
    cube = recorded[recorded["kind"] != "checker"]
    assert set(cube["source"]) == {"recorded gnubg 2-ply"}


def test_same_unforced_checker_plays(players: pd.DataFrame) -> None:
    assert (players["unforced"] == players["unforced_gnubg"]).all()


def test_error_rates_rank_like_gnubg(players: pd.DataFrame) -> None:
    rho = spearmanr(players["error_rate"], players["error_rate_gnubg"]).statistic
    assert rho >= 0.8, players[["match", "player", "noise", "error_rate", "error_rate_gnubg"]]


@pytest.mark.parametrize("column", ["error_rate", "error_rate_gnubg"])
def test_error_rates_grow_with_noise(players: pd.DataFrame, column: str) -> None:
    half = len(players) // 2
    low, high = players[column].iloc[:half], players[column].iloc[half:]
    assert players["noise"].iloc[half - 1] < players["noise"].iloc[half]
    assert low.mean() < high.mean()
    assert spearmanr(players["noise"], players[column]).statistic >= 0.75


@pytest.mark.parametrize("which", [0, 1], ids=["bgsage", "gnubg"])
def test_decisions_are_consistent(frames: tuple[pd.DataFrame, pd.DataFrame], which: int) -> None:
    frame = frames[which]
    error = frame["error"]
    assert error.notna().sum() > 1000
    assert (error.dropna() >= 0).all()
    best = frame[frame["rank"] == 1]
    assert len(best) > 500
    assert (best["error"].dropna() == 0).all()
    worse = frame[frame["rank"].fillna(0) > 1]
    assert (worse["error"] > 0).any()
    forced = frame[frame["forced"]]
    assert len(forced) > 10
    assert (forced["kind"] == "checker").all()
    assert (forced["error"].fillna(0) == 0).all()
    counted = int(player_stats(frame)["unforced"].sum())
    assert counted == int(((frame["kind"] == "checker") & ~frame["forced"] & error.notna()).sum())


def test_forced_plays_have_one_option(frames: tuple[pd.DataFrame, pd.DataFrame]) -> None:
    engine = frames[0]
    checker = engine[engine["kind"] == "checker"]
    assert (checker["forced"] == (checker["options"] == 1)).all()
