"""Tests of tabla_cli.reports: frames, summaries and renderers.

The small matches in tests/data/report/matches were written for these tests;
the expected tables beside them (``*.expected.csv``) were computed by hand
from the transcripts (points, gammons, cube actions, pip counts). Rewrite them
only with ``pytest --update-golden``
and review the diff.
"""

from __future__ import annotations

import io
import json
import os
import shutil
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pandas.testing import assert_frame_equal

from tabla_cli.check import collect_paths
from tabla_cli.columns import records
from tabla_cli.errors import InputError
from tabla_cli.reports import (
    COLUMNS,
    FRAME_NAMES,
    SUMMARY_COLUMNS,
    Column,
    FrameBuilder,
    Frames,
    apply_aliases,
    build_frames,
    empty_frame,
    file_rows,
    findings_by_code,
    frames_from_text,
    iter_file_rows,
    player_summary,
    read_aliases,
    summarize,
)
from tabla_cli.reports import rows as rows_module
from tabla_cli.reports.cells import Grid
from tabla_cli.reports.frames import read_frames, write_frames
from tabla_cli.reports.options import format_for_path
from tabla_cli.reports.plots import make_plots
from tabla_cli.reports.render import (
    render_csv,
    render_json,
    render_jsonl,
    render_markdown,
    render_table,
)
from tabla_cli.reports.skill import OPPONENT_SKILL_COLUMNS, SKILL_COLUMNS

import helpers
from helpers import CORPUS

DATA = helpers.DATA / "report"
MATCHES = DATA / "matches"


# --- helpers ----------------------------------------------------------------------


def read_golden(path: Path, columns: tuple[Column, ...]) -> pd.DataFrame:
    """A hand-written expected CSV with the documented dtypes (empty cell = missing)."""
    raw = pd.read_csv(path, dtype=str, keep_default_na=False)
    out = {}
    for c in columns:
        cells = raw[c.name]
        if c.dtype in ("int64", "Int64"):
            out[c.name] = pd.to_numeric(cells.replace("", None)).astype(c.dtype)
        elif c.dtype in ("float64", "Float64"):
            out[c.name] = pd.to_numeric(cells.replace("", None)).astype(c.dtype)
        elif c.dtype == "bool":
            out[c.name] = cells.map({"True": True, "False": False}).astype(bool)
        else:
            out[c.name] = cells.replace("", None).astype(c.pandas_dtype)
    return pd.DataFrame(out)


def check_golden(request: pytest.FixtureRequest, actual: pd.DataFrame, name: str, columns: tuple[Column, ...]) -> None:
    path = DATA / name
    if request.config.getoption("--update-golden"):
        path.write_text(render_csv(Grid.of(actual)), encoding="utf-8")
    expected = read_golden(path, columns)
    assert_frame_equal(actual.reset_index(drop=True), expected, check_exact=False, rtol=1e-5)


def basenames(df: pd.DataFrame) -> pd.DataFrame:
    return df.assign(file=df["file"].map(lambda p: os.path.basename(p)).astype("string"))


@pytest.fixture(scope="module")
def frames() -> Frames:
    return build_frames([MATCHES])


@pytest.fixture(scope="module")
def corpus_frames() -> Frames:
    return build_frames([CORPUS / "mat"], jobs=2)


# --- frames ----------------------------------------------------------------------------


def test_frames_have_the_documented_columns_and_dtypes(frames: Frames) -> None:
    for name, df in frames.items():
        assert list(df.columns) == [c.name for c in COLUMNS[name]], name
        for c in COLUMNS[name]:
            assert df[c.name].dtype == c.pandas_dtype, (name, c.name, df[c.name].dtype)
        assert_frame_equal(df.iloc[:0], empty_frame(name))
        assert len(df) > 0 or name == "decisions", name
    assert frames.decisions.empty  # no analysis in .mat files


def test_every_column_is_documented() -> None:
    for table in (*COLUMNS.values(), *SUMMARY_COLUMNS.values()):
        names = [c.name for c in table]
        assert len(names) == len(set(names))
        for c in table:
            assert c.doc and c.name == c.name.lower() and " " not in c.name
            assert c.dtype in ("int64", "Int64", "float64", "Float64", "bool", "boolean", "string", "category")
            assert (c.dtype == "category") == bool(c.categories)


DOC_TABLES: tuple[tuple[str, tuple[Column, ...]], ...] = (
    *((f"--by {by}", SUMMARY_COLUMNS[by]) for by in ("player", "opponent", "period")),
    ("skill columns", (*SKILL_COLUMNS, *OPPONENT_SKILL_COLUMNS)),
    *((f"--by {by}", SUMMARY_COLUMNS[by]) for by in ("dice", "match", "findings")),
    *((f"{name} frame", COLUMNS[name]) for name in FRAME_NAMES),
)
"""The column tables of docs/columns.md, in the order it gives them."""


def test_columns_page_tables_are_the_schema() -> None:
    """Each ``| Column | dtype | Meaning |`` table of docs/columns.md lists its table's columns exactly."""
    head = "| Column | dtype | Meaning |\n|---|---|---|\n"
    text = (helpers.ROOT / "docs" / "columns.md").read_text(encoding="utf-8")
    tables = [part.split("\n\n", 1)[0].rstrip("\n").split("\n") for part in text.split(head)[1:]]
    assert len(tables) == len(DOC_TABLES)
    for (label, columns), rows in zip(DOC_TABLES, tables, strict=True):
        assert rows == [f"| `{c.name}` | {c.dtype} | {c.doc} |" for c in columns], label


def test_player_summary_golden(request: pytest.FixtureRequest, frames: Frames) -> None:
    check_golden(request, player_summary(frames), "players.expected.csv", SUMMARY_COLUMNS["player"])


def test_player_summary_with_aliases_golden(request: pytest.FixtureRequest, frames: Frames) -> None:
    aliases = read_aliases(DATA / "alias.csv")
    assert aliases == {"Annie": "Ann"}
    merged = player_summary(apply_aliases(frames, aliases))
    check_golden(request, merged, "players-alias.expected.csv", SUMMARY_COLUMNS["player"])
    streamed = player_summary(build_frames([MATCHES], aliases=aliases))
    assert_frame_equal(streamed, merged)


def test_match_summary_golden(request: pytest.FixtureRequest, frames: Frames) -> None:
    check_golden(request, basenames(summarize(frames, "match")), "matches.expected.csv", SUMMARY_COLUMNS["match"])


def test_game_table_golden(request: pytest.FixtureRequest, frames: Frames) -> None:
    check_golden(request, basenames(summarize(frames, "game")), "games.expected.csv", SUMMARY_COLUMNS["game"])


def test_cube_table_golden(request: pytest.FixtureRequest, frames: Frames) -> None:
    check_golden(request, basenames(summarize(frames, "cube")), "cube.expected.csv", SUMMARY_COLUMNS["cube"])


def test_findings_by_code_golden(request: pytest.FixtureRequest, frames: Frames) -> None:
    check_golden(request, summarize(frames, "findings"), "codes.expected.csv", SUMMARY_COLUMNS["findings"])


def test_errors_frame_locates_findings(frames: Frames) -> None:
    row = frames.findings[frames.findings["code"] == "illegal-play"].iloc[0]
    assert os.path.basename(row["file"]) == "flawed.mat"
    assert (row["line"], row["match"], row["game"], row["move"]) == (8, 1, 1, 1)
    assert (row["player"], row["severity"], row["dice"], row["play"]) == ("Eve", "error", "62", "24/18 13/12")
    assert isinstance(row["position_id"], str) and len(row["position_id"]) == 14


def test_plays_frame_pips_hits_and_dances() -> None:
    text = (helpers.ROOT / "examples" / "three-point-match.mat").read_text()
    plays = frames_from_text(text, "three.mat").plays
    assert len(plays) == 16
    first = plays.iloc[0]
    assert (first["dice"], first["play"], first["pips_before"], first["pips_after"]) == ("31", "8/5 6/5", 167, 163)
    hit = plays.iloc[2]  # Petar 64: 13/7* 13/9 hits Maria's blot on his 7-point (her 18)
    assert (hit["play"], hit["hits"], hit["opponent_pips_before"], hit["opponent_pips_after"]) == (
        "13/9 13/7*",
        1,
        159,
        166,
    )
    dance = plays.iloc[3]  # Maria 55 cannot enter
    assert bool(dance["dance"]) and dance["play"] == "" and dance["pips_after"] == dance["pips_before"]
    assert plays["dance"].sum() == 1
    assert plays["legal"].all()
    bar = plays.iloc[5]
    assert (bar["written"], bar["play"]) == ("25/21 13/7", "bar/21 13/7")


def test_bearoff_game_ends_with_all_pips_gone(frames: Frames) -> None:
    plays = frames.plays[(frames.plays["match"] == 0) & (frames.plays["game"] == 1)]
    last = plays.iloc[-1]
    assert (last["player"], last["written"], last["pips_after"]) == ("Ann", "1/0", 0)
    assert (plays["pips_before"] - plays["pips_after"] >= 0).all()


def test_jobs_do_not_change_the_frames(frames: Frames) -> None:
    parallel = build_frames([MATCHES], jobs=2)
    for name, df in frames.items():
        assert_frame_equal(parallel[name], df)


def test_rows_packed_as_they_come_give_the_same_frames(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A long file's rows become Arrow batches during its replay; keys, copies and aliases survive it."""
    for path in MATCHES.iterdir():
        shutil.copy(path, tmp_path / path.name)
    twice = (MATCHES / "ann-bob.mat").read_text(encoding="utf-8")
    (tmp_path / "twice.mat").write_text(twice + "\n\n" + twice, encoding="utf-8")
    aliases = read_aliases(DATA / "alias.csv")
    whole = build_frames([tmp_path], aliases=aliases)
    monkeypatch.setattr(rows_module, "BATCH_ROWS", 2)
    packed = build_frames([tmp_path], aliases=aliases)
    assert file_rows(str(tmp_path / "money.mat")).batches["games"]
    assert whole.matches["file"].str.endswith("twice.mat").sum() == 0
    for name, df in whole.items():
        assert_frame_equal(packed[name], df)


def test_keep_and_sink_stream_frames_to_parquet(tmp_path: Path, frames: Frames) -> None:
    builder = FrameBuilder(keep=("matches",), sink=tmp_path)
    for rows in iter_file_rows(collect_paths([str(MATCHES)])):
        builder.add(rows)
    kept = builder.frames()
    assert_frame_equal(kept.matches, frames.matches)
    assert kept.plays.empty and list(kept.plays.columns) == [c.name for c in COLUMNS["plays"]]
    back = read_frames(tmp_path)
    for name in FRAME_NAMES:
        assert_frame_equal(back[name], frames[name])


def test_write_frames_round_trip(tmp_path: Path, frames: Frames) -> None:
    paths = write_frames(frames, tmp_path)
    assert sorted(p.name for p in paths) == sorted(f"{n}.parquet" for n in FRAME_NAMES)
    back = read_frames(tmp_path)
    for name in FRAME_NAMES:
        assert_frame_equal(back[name], frames[name])


def test_unreadable_file_is_an_errors_row(tmp_path: Path) -> None:
    frames = build_frames([DATA / "unreadable" / "notes.txt", tmp_path / "missing.mat"])
    assert frames.matches.empty
    assert list(frames.findings["code"]) == ["unreadable-file", "unreadable-file"]
    assert frames.findings["match"].isna().all()
    assert frames.files == 2


SYNTAX = """ 3 point match

 Game 1
 Ann : 0                        Bob : 0
  1) 31: 8/5 6/5                 62: 24/18 13/11
this line is junk
      Wins 1 point

 Game 2
 Ann : 1                        Bob : 0
  1) 31: 8/5 6/5                 62: 24/18 13/11
                                  Wins 2 points
"""


def test_syntax_error_inside_a_game_keeps_the_match() -> None:
    frames = frames_from_text(SYNTAX, "junk.mat")
    assert frames.matches[["games", "findings", "error_findings"]].values.tolist() == [
        [2, 2, 1]
    ]  # one error per mistake
    first = frames.findings.iloc[0]
    assert (first["code"], first["line"], first["match"]) == ("syntax-error", 6, 0)
    assert len(frames.games) == 2 and len(frames.plays) == 4


def test_include_leaves_other_frames_empty() -> None:
    frames = build_frames([MATCHES], include=("matches", "games"))
    assert len(frames.games) == 7 and frames.cube.empty and frames.plays.empty and frames.findings.empty


def test_summaries_of_no_data() -> None:
    empty = FrameBuilder().frames()
    for by in SUMMARY_COLUMNS:
        table = summarize(empty, by, players=("Ann",))
        assert table.empty
        assert list(table.columns) == [c.name for c in SUMMARY_COLUMNS[by]]
    assert make_plots(empty, player_summary(empty)).keys() == {
        "gammon_rates",
        "cube_values",
        "result_types",
        "take_drop_by_score",
    }


def test_unknown_table() -> None:
    with pytest.raises(ValueError, match="unknown table"):
        summarize(FrameBuilder().frames(), "plays")


# --- aliases ----------------------------------------------------------------------------


def test_alias_file_needs_its_header(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_text("Annie,Ann\n")
    with pytest.raises(InputError, match="alias,player"):
        read_aliases(path)


def test_alias_given_twice(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_text("alias,player\nAnnie,Ann\n\nAnnie, Anna\n")
    with pytest.raises(InputError, match="'Annie' is given to both 'Ann' and 'Anna'") as info:
        read_aliases(path)
    assert info.value.location is not None and info.value.location.line == 4


def test_missing_alias_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read the alias file"):
        read_aliases(tmp_path / "nope.csv")


NAMES = ["Ann", "Annie", "Bob", "Cy", "Dee", "Eve", "Zed"]


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(st.dictionaries(st.sampled_from(NAMES), st.sampled_from(NAMES), max_size=4))
def test_aliases_keep_the_totals(frames: Frames, aliases: dict[str, str]) -> None:
    merged = player_summary(apply_aliases(frames, aliases))
    plain = player_summary(frames)
    for column in ("games", "game_wins", "points_won", "points_lost", "takes", "drops", "doubles_received"):
        assert merged[column].sum() == plain[column].sum(), column
    assert set(merged["player"]) == {aliases.get(p, p) for p in plain["player"]}


# --- renderers --------------------------------------------------------------------------


def test_records_are_plain_json(frames: Frames) -> None:
    rows = records(player_summary(frames))
    dee = next(r for r in rows if r["player"] == "Dee")
    assert dee["gammon_rate_lost"] is None and dee["max_cube"] == 1 and type(dee["games"]) is int
    assert json.loads(render_json(Grid.of(player_summary(frames)))) == rows
    assert [json.loads(line) for line in render_jsonl(Grid.of(player_summary(frames))).splitlines()] == rows


def test_csv_reads_back(frames: Frames) -> None:
    table = player_summary(frames)
    back = pd.read_csv(io.StringIO(render_csv(Grid.of(table))))
    assert list(back.columns) == list(table.columns)
    assert back["points_won"].tolist() == table["points_won"].tolist()


def test_markdown_and_table_text(frames: Frames) -> None:
    table = player_summary(frames)
    md = render_markdown(Grid.of(table)).splitlines()
    assert md[0].startswith("| player | matches |") and md[1].startswith("|:--|--:|")
    assert len(md) == 2 + len(table)
    text = render_table(Grid.of(table))
    assert "gammons_won_taken_cube" in text and "Annie" in text
    narrow = render_table(Grid.of(table), width=80)
    assert max(len(line) for line in narrow.splitlines()) <= 80
    assert narrow.count("player") >= 2  # split into column groups, each repeating the player


def test_format_for_path() -> None:
    assert format_for_path("a/b.JSONL") == "jsonl"
    assert format_for_path("b.md") == "markdown"
    assert format_for_path("b.xlsx") is None
    assert format_for_path("noext") is None


# --- properties over the corpus ---------------------------------------------------------


def _clean(frames: Frames, codes: tuple[str, ...]) -> pd.Series:
    bad = frames.findings.loc[frames.findings["code"].isin(codes), "match"].dropna().unique()
    return ~frames.matches["match"].isin(bad)


def test_corpus_game_points_add_up_to_the_final_score(corpus_frames: Frames) -> None:
    m = corpus_frames.matches
    clean = m[_clean(corpus_frames, ("score-mismatch",))]
    assert len(clean) >= 0.9 * len(m) and len(m) >= 100
    g = corpus_frames.games.dropna(subset=["winner_side"])
    points = g.groupby(["match", "winner_side"])["points_written"].sum().unstack(fill_value=0)
    points = points.reindex(index=clean["match"], columns=[0, 1], fill_value=0)
    assert points[0].tolist() == clean["score0"].tolist()
    assert points[1].tolist() == clean["score1"].tolist()


def test_corpus_rates_lie_in_unit_interval(corpus_frames: Frames) -> None:
    players = player_summary(corpus_frames)
    rates = [c.name for c in SUMMARY_COLUMNS["player"] if c.name.endswith("_rate") or "_rate_" in c.name]
    assert len(rates) == 11
    for column in rates:
        values = players[column].dropna()
        assert ((values >= 0) & (values <= 1)).all(), column
    assert (players["take_rate"] + players["drop_rate"]).dropna().le(1 + 1e-9).all()
    assert (players["game_wins"] + players["game_losses"] <= players["games"]).all()


def test_corpus_every_double_is_answered(corpus_frames: Frames) -> None:
    clean = _clean(corpus_frames, ("unanswered-double", "unexpected-answer", "action-after-end"))
    matches = corpus_frames.matches.loc[clean, "match"]
    cube = corpus_frames.cube[corpus_frames.cube["match"].isin(matches)]
    counts = cube.groupby(["match", "game", "action"], observed=False).size().unstack("action", fill_value=0)
    offered = counts["double"] + counts["redouble"]
    answered = counts["take"] + counts["drop"] + counts["beaver"]
    assert offered.sum() > 400
    assert (offered == answered).all()


def test_corpus_cube_values_and_pips_are_consistent(corpus_frames: Frames) -> None:
    cube = corpus_frames.cube
    assert (cube["cube_after"] >= cube["cube_before"]).all()
    assert set(cube["action"].dropna().unique()) <= set(COLUMNS["cube"][5].categories)
    known = cube.dropna(subset=["pips_player"])
    assert len(known) >= 0.95 * len(cube)
    assert known["pips_player"].between(1, 375).all()
    plays = corpus_frames.plays[corpus_frames.plays["legal"]]
    assert (plays["pips_after"] <= plays["pips_before"]).all()
    assert (plays["opponent_pips_after"] >= plays["opponent_pips_before"]).all()
    assert ((plays["opponent_pips_after"] > plays["opponent_pips_before"]) == (plays["hits"] > 0)).all()


def test_corpus_cube_actions_agree_with_the_replay(corpus_frames: Frames) -> None:
    cube = corpus_frames.cube
    taken = cube[cube["action"].isin(("take", "beaver", "raccoon"))]
    last = taken.groupby(["match", "game"])["cube_after"].last()
    final = corpus_frames.games.set_index(["match", "game"])["cube"]
    assert len(last) > 200
    assert (final.loc[last.index] == last).all()
    dropped = corpus_frames.games[corpus_frames.games["ended_by"] == "drop"]
    drops = cube[cube["action"] == "drop"].groupby(["match", "game"]).size()
    assert len(drops) == len(dropped)


def test_corpus_summaries_agree_with_frames(corpus_frames: Frames) -> None:
    players = player_summary(corpus_frames)
    games = corpus_frames.games
    assert players["game_wins"].sum() == games["winner"].notna().sum()
    assert players["matches"].sum() == 2 * len(corpus_frames.matches)
    codes = findings_by_code(corpus_frames)
    assert codes["findings"].sum() == len(corpus_frames.findings)
