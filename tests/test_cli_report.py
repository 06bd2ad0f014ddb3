"""CLI tests of ``tabla report``: one per format, outputs, exit codes.

stdout and stderr are asserted apart (click >= 8.2 keeps them separate).
"""

from __future__ import annotations

import base64
import io
import json
from html.parser import HTMLParser
from pathlib import Path

import click
import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner, Result
from matplotlib import image
from pandas.testing import assert_frame_equal

from tabla_cli.cli.report import report
from tabla_cli.reports import FRAME_NAMES, build_frames, player_summary, summarize
from tabla_cli.reports.build import ReportOptions, build_report
from tabla_cli.reports.filters import ReportFilter
from tabla_cli.reports.frames import read_frames
from tabla_cli.reports.plots import PLOTS
from tabla_cli.source import collect_sources

import helpers

DATA = helpers.DATA / "report"
MATCHES = str(DATA / "matches")
SUMMARY = "report: 3 files, 3 matches, 7 games, 12 cube actions, 2 findings in "
PLAYERS = ["Ann", "Annie", "Bob", "Cy", "Dee", "Eve"]


@click.group()
@click.option("-v", "--verbose", is_flag=True)
def tabla(verbose: bool) -> None:
    """A stand-in for the tabla group."""


tabla.add_command(report)


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(tabla, ["report", *args], input=input)


@pytest.fixture(scope="module")
def players() -> pd.DataFrame:
    return player_summary(build_frames([MATCHES]))


def assert_summary_only(result: Result) -> None:
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(SUMMARY), result.stderr


def decode_png(data: bytes) -> np.ndarray:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    pixels = image.imread(io.BytesIO(data), format="png")
    assert pixels.ndim == 3 and pixels.shape[0] >= 200 and pixels.shape[1] >= 400
    colours = np.unique(pixels.reshape(-1, pixels.shape[2]), axis=0)
    assert len(colours) > 20  # text, axes and bars, not a blank canvas
    return pixels


# --- one test per format -------------------------------------------------------------


def test_table(players: pd.DataFrame) -> None:
    result = run(MATCHES, "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split()[:4] == ["player", "matches", "matches_completed", "match_wins"]
    assert [line.split()[0] for line in lines[2:]] == PLAYERS
    assert lines[2].split()[:8] == ["Ann", "1", "1", "1", "1.000", "0", "3", "2"]  # all-zero columns left out
    assert "matches_unfinished" not in lines[0] and "gammons_bar_won" not in lines[0]
    assert "0.500" in lines[2]
    assert_summary_only(result)


def test_csv(players: pd.DataFrame) -> None:
    result = run(MATCHES, "--format", "csv")
    assert result.exit_code == 0, result.stderr
    back = pd.read_csv(io.StringIO(result.stdout))
    assert list(back.columns) == list(players.columns)
    assert back["player"].tolist() == PLAYERS
    assert back["gammon_rate_won"].tolist()[:4] == [0.5, 1.0, 0.0, 0.5]
    assert_summary_only(result)


def test_json(players: pd.DataFrame) -> None:
    result = run(MATCHES, "--format", "json", "--by", "match")
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)
    assert isinstance(rows, list) and len(rows) == 3
    assert rows[2]["player0"] == "Annie" and rows[2]["winner"] is None and rows[2]["beavers"] == 1
    assert rows[0]["crawford_game"] == 2 and rows[1]["crawford_game"] is None
    assert_summary_only(result)


def test_jsonl() -> None:
    result = run(MATCHES, "--format", "jsonl", "--by", "cube")
    assert result.exit_code == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(rows) == 12
    assert rows[0] == {**rows[0], "action": "double", "player": "Ann", "pips_player": 163, "pips_opponent": 164}
    assert rows[7]["action"] == "beaver" and rows[7]["away_player"] is None
    assert_summary_only(result)


def test_markdown() -> None:
    result = run(MATCHES, "--format", "markdown", "--by", "findings")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "| code | severity | findings | files | matches | description |"
    assert lines[1] == "|:--|:--|--:|--:|--:|:--|"
    assert lines[2].startswith("| illegal-play | error | 1 | 1 | 1 |")
    assert len(lines) == 4
    assert_summary_only(result)


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.open: list[str] = []
        self.headings: list[str] = []
        self.header_cells: list[str] = []
        self.cells: list[str] = []
        self.images: list[dict[str, str | None]] = []
        self.fetched: list[str] = []
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.fetched += [
            f"{tag} {name}={value}"
            for name, value in attrs
            if name in ("src", "href") and tag != "img" and not (value or "").startswith("#")
        ]
        if tag == "img":
            self.images.append(dict(attrs))
            return
        if tag not in ("meta", "br"):
            self.open.append(tag)
        self._text = []

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, (tag, self.open[-3:])
        self.open.pop()
        text = "".join(self._text).strip()
        if tag == "h2":
            self.headings.append(text)
        elif tag == "th":
            self.header_cells.append(text)
        elif tag == "td":
            self.cells.append(text)

    def handle_data(self, data: str) -> None:
        self._text.append(data)


def test_html() -> None:
    result = run(MATCHES, "--format", "html")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("<!DOCTYPE html>")
    page = _Page()
    page.feed(result.stdout)
    page.close()
    assert page.open == []
    assert page.headings == ["Players", "Findings by code", "Plots"]
    assert page.header_cells[:3] == ["player", "matches", "matches_completed"]
    assert "Annie" in page.cells and "illegal-play" in page.cells
    assert page.tags.count("script") == 1 and "link" not in page.tags  # self-contained: one inlined script
    assert page.fetched == []
    assert [img["alt"] for img in page.images] == [
        t for n, t in PLOTS.items() if n not in ("trend", "dice", "endings", "error_rates")
    ]
    for img in page.images:
        src = img["src"] or ""
        prefix = "data:image/png;base64,"
        assert src.startswith(prefix)
        decode_png(base64.b64decode(src[len(prefix) :], validate=True))
    assert_summary_only(result)


def test_parquet(tmp_path: Path, players: pd.DataFrame) -> None:
    out = tmp_path / "players.parquet"
    result = run(MATCHES, "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert_frame_equal(pd.read_parquet(out), players)
    assert_summary_only(result)
    assert [p.name for p in tmp_path.iterdir()] == ["players.parquet"]  # no temporary file left


# --- outputs ------------------------------------------------------------------------------


def test_format_from_suffix(tmp_path: Path) -> None:
    out = tmp_path / "r.md"
    result = run(MATCHES, "-o", str(out), "--quiet")
    assert result.exit_code == 0 and result.stdout == "" and result.stderr == ""
    assert out.read_text().startswith("| player |")


def test_explicit_format_beats_suffix(tmp_path: Path) -> None:
    out = tmp_path / "r.txt"
    result = run(MATCHES, "-o", str(out), "--format", "csv", "-q")
    assert result.exit_code == 0
    assert out.read_text().startswith("player,matches,")


def test_unknown_suffix_is_a_usage_error(tmp_path: Path) -> None:
    result = run(MATCHES, "-o", str(tmp_path / "r.xlsx"))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "suffix .xlsx" in result.stderr and "--format" in result.stderr
    assert not (tmp_path / "r.xlsx").exists()


def test_parquet_needs_an_output_file() -> None:
    result = run(MATCHES, "--format", "parquet")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "needs -o" in result.stderr or "give -o FILE" in result.stderr


def test_unknown_format_and_table_are_usage_errors() -> None:
    assert run(MATCHES, "--format", "xlsx").exit_code == 2
    assert run(MATCHES, "--by", "plays").exit_code == 2
    result = run()
    assert result.exit_code == 2 and "PATHS" in result.stderr


def test_existing_output_is_kept_unless_force(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    out.write_text("keep me\n")
    result = run(MATCHES, "-o", str(out))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "not overwriting" in result.stderr and "--force" in result.stderr
    assert out.read_text() == "keep me\n"
    result = run(MATCHES, "-o", str(out), "--force", "-q")
    assert result.exit_code == 0 and result.stderr == ""
    assert out.read_text().startswith("player,")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv"]


def test_plots_and_frames(tmp_path: Path) -> None:
    result = run(
        MATCHES,
        "--plots",
        str(tmp_path / "plots"),
        "--frames",
        str(tmp_path / "frames"),
        "--format",
        "csv",
        "--jobs",
        "2",
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("player,")
    assert_summary_only(result)
    for name in PLOTS.keys() - {"trend", "dice", "endings", "error_rates"}:
        decode_png((tmp_path / "plots" / f"{name}.png").read_bytes())
    assert not (tmp_path / "plots" / "trend.png").exists()
    assert not (tmp_path / "plots" / "error_rates.png").exists()
    assert sorted(p.name for p in (tmp_path / "frames").iterdir()) == sorted(f"{n}.parquet" for n in FRAME_NAMES)
    back = read_frames(tmp_path / "frames")
    expected = build_frames([MATCHES])
    for name in FRAME_NAMES:
        assert_frame_equal(back[name], expected[name])
    again = run(MATCHES, "--plots", str(tmp_path / "plots"))
    assert again.exit_code == 1 and "not overwriting" in again.stderr and again.stdout == ""


def test_alias(players: pd.DataFrame) -> None:
    result = run(MATCHES, "--alias", str(DATA / "alias.csv"), "--format", "csv")
    assert result.exit_code == 0, result.stderr
    back = pd.read_csv(io.StringIO(result.stdout))
    assert back["player"].tolist() == ["Ann", "Bob", "Cy", "Dee", "Eve"]
    assert back.loc[0, "points_won"] == 6 and back.loc[0, "money_points_won"] == 12
    assert back.loc[0, "games"] == 6 and back.loc[0, "money_sessions"] == 1


def test_bad_alias_file_exits_1(tmp_path: Path) -> None:
    bad = tmp_path / "alias.csv"
    bad.write_text("name,who\nA,B\n")
    result = run(MATCHES, "--alias", str(bad))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "alias,player" in result.stderr


def test_unreadable_file_exits_1_after_the_report() -> None:
    notes = str(DATA / "unreadable" / "notes.txt")
    result = run(MATCHES, notes, "--format", "csv", "-q")
    assert result.exit_code == 1
    assert result.stdout.startswith("player,") and "Annie" in result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"{notes}: error[unreadable-file]: not a recognised match transcript")


def test_stdin() -> None:
    text = (DATA / "matches" / "money.mat").read_text()
    result = run("-", "--format", "json", "--by", "match", "-q", input=text)
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)
    assert [(r["file"], r["player0"], r["score0"], r["score1"]) for r in rows] == [("<stdin>", "Annie", 12, 5)]
    assert result.stderr == ""


def test_game_table_csv() -> None:
    result = run(MATCHES, "--by", "game", "--format", "csv", "-q")
    assert result.exit_code == 0
    back = pd.read_csv(io.StringIO(result.stdout))
    assert back["result"].tolist() == ["gammon", "single", "single", "single", "backgammon", "gammon", "single"]
    assert back["ended_by"].tolist()[0] == "bearoff"


def test_help() -> None:
    result = run("--help")
    assert result.exit_code == 0
    for option in ("--by", "--format", "--output", "--frames", "--plots", "--alias", "--force", "--jobs", "--quiet"):
        assert option in result.stdout
    assert result.stderr == ""


def test_same_table_as_the_library(players: pd.DataFrame) -> None:
    frames = build_frames([MATCHES])
    for by in ("player", "match", "game", "cube", "findings", "decisions"):
        result = run(MATCHES, "--by", by, "--format", "json", "-q")
        assert result.exit_code == 0
        expected = json.loads(summarize(frames, by).to_json(orient="records"))
        assert json.loads(result.stdout) == expected, by


def test_the_command_and_a_python_caller_build_the_same_report(tmp_path: Path) -> None:
    """``tabla report`` is :func:`build_report` with its options: a filtered report, frames and all."""
    flt = ReportFilter(players=("Ann",), since="2024-01-01")
    built = build_report(collect_sources([MATCHES]), ReportOptions(filter=flt, plays=True))
    result = run(
        MATCHES,
        "--player",
        "Ann",
        "--since",
        "2024-01-01",
        "--by",
        "match",
        "--format",
        "json",
        "--frames",
        str(tmp_path / "frames"),
        "--jobs",
        "2",
    )
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == json.loads(summarize(built.frames, "match").to_json(orient="records"))
    assert result.stderr.splitlines()[-1] == f"report: {built.describe()}"
    assert built.describe().startswith("player Ann, since 2024-01-01: ")
    back = read_frames(tmp_path / "frames")
    for name in FRAME_NAMES:
        assert_frame_equal(back[name], built.frames[name])
    assert len(built.frames.matches) < len(built.everything.matches)
