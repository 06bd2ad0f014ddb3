"""Tests of the player reports: filters, completed matches apart, opponents, periods, dice, the personal page.

tests/data/players holds four real transcripts of one account (bglab, MIT;
see tests/data/SOURCES.md): a 5-point match lost 0-5 (dated), a 5-point
match won 5-0 (no date), a Galaxy one-game "16 point match" session, and a
Backgammon Studio 5-point match won 5-4 under the name "Lasse". The
expected numbers below were counted by hand from the transcripts' score,
``Wins``, ``Doubles``, ``Takes`` and ``Drops`` lines.
"""

from __future__ import annotations

import io
import math
import re
from pathlib import Path

import pandas as pd
import pytest

from tabla_cli.analysis.stats import decision_row, decisions_frame
from tabla_cli.evaluation.types import DecisionKind
from tabla_cli.reports import Frames, build_frames
from tabla_cli.reports.dice import EXPECTED_PIPS, ROLLS, dice_summary, roll_probabilities
from tabla_cli.reports.filters import ReportFilter, filter_frames, fold_case
from tabla_cli.reports.html import limit_rows
from tabla_cli.reports.plots import plot_dice, plot_trend
from tabla_cli.reports.rows import match_date, parse_date, parse_rating
from tabla_cli.reports.summaries import (
    SUMMARY_COLUMNS,
    opponent_summary,
    period_of,
    period_summary,
    player_summary,
    session_kinds,
)

import helpers
from helpers import CORPUS, tabla_command

DATA = helpers.DATA / "players"
LOST = DATA / "bglab-lasse-match10014006.txt"
UNDATED = DATA / "bglab-lasse-match1070651.txt"
SESSION = DATA / "bglab-lasse-match8055573.txt"
STUDIO = DATA / "bglab-lasse-Magic_-_Lasse_5pt_Backgammon_Studio_2024_04_22_19_06_30.txt"
REPORT_MATCHES = helpers.DATA / "report" / "matches"


@pytest.fixture(scope="module")
def frames() -> Frames:
    return build_frames([DATA])


@pytest.fixture(scope="module")
def folded(frames: Frames) -> Frames:
    return fold_case(frames, ["lasse"])


run = tabla_command("report")


def typed_like(table: pd.DataFrame, by: str) -> None:
    columns = SUMMARY_COLUMNS[by]
    assert list(table.columns)[: len(columns)] == [c.name for c in columns]
    for c in columns:
        assert table[c.name].dtype == c.pandas_dtype, c.name


# --- frames: dates, sites, ratings, kinds ------------------------------------------------


def test_dates_sites_and_ratings_from_the_headers(frames: Frames) -> None:
    m = frames.matches.set_index(frames.matches["file"].map(lambda p: Path(p).name))
    assert m.loc[LOST.name, "date"] == "2024-08-04" and m.loc[STUDIO.name, "date"] == "2024-04-22"
    assert pd.isna(m.loc[UNDATED.name, "date"])
    assert m.loc[STUDIO.name, "site"] == "Backgammon Studio" and m.loc[LOST.name, "site"] == "BackgammonGalaxy"
    # Backgammon Galaxy's 'Player N Elo' header holds the final match score (16 and 0 here), not a rating
    assert pd.isna(m.loc[SESSION.name, "rating0"]) and pd.isna(m.loc[SESSION.name, "rating1"])
    assert pd.isna(m.loc[STUDIO.name, "rating0"])


def test_an_elo_header_is_a_rating_where_the_site_writes_one() -> None:
    from tabla_cli.model import Match
    from tabla_cli.reports.rows import match_ratings

    headers = [("Player 1 Elo", "1623,40/1210"), ("Player 2 Elo", "5,00/0")]
    assert match_ratings(Match(("a", "b"), 5, headers=[("Site", "Some Club"), *headers])) == (1623.4, 5.0)
    assert match_ratings(Match(("a", "b"), 5, headers=[("Site", "Backgammon Galaxy"), *headers])) == (None, None)
    galaxy = Match(("a", "b"), 5, headers=[("Site", "BackgammonGalaxy"), *headers], ratings=("1780", None))
    assert match_ratings(galaxy) == (1780.0, None)


def test_date_and_rating_parsing() -> None:
    assert parse_date("2024.13.01") is None and parse_date("") is None and parse_date(None) is None
    assert parse_date("DT 1999/12/31") == "1999-12-31"
    assert parse_rating("1712.5") == 1712.5 and parse_rating(None) is None
    from tabla_cli.model import Match

    named = Match(("a", "b"), 5, path="x/a - b 5pt Backgammon Studio 2023_08_09 18_11_07.txt")
    assert match_date(named) == "2023-08-09"
    assert match_date(Match(("a", "b"), 5, path="match10014006.txt")) is None
    headed = Match(("a", "b"), 5, headers=[("Date", "2020-02-29")], path="2023_08_09.txt")
    assert match_date(headed) == "2020-02-29"


def test_session_kinds(frames: Frames) -> None:
    kinds = dict(zip(frames.matches["file"].map(lambda p: Path(p).name), session_kinds(frames.matches)))
    assert kinds == {
        LOST.name: "completed",
        UNDATED.name: "completed",
        SESSION.name: "one-game",
        STUDIO.name: "completed",
    }
    report = build_frames([REPORT_MATCHES])
    assert session_kinds(report.matches).tolist() == ["completed", "completed", "money"]


def test_plays_frame_marks_openings_and_bar_entries(frames: Frames) -> None:
    plays = frames.plays
    firsts = plays.groupby(["match", "game"]).head(1)
    assert firsts["opening"].all() and plays["opening"].sum() == len(frames.games)
    assert not (plays.loc[plays["opening"], "die1"] == plays.loc[plays["opening"], "die2"]).any()
    bar = plays[plays["on_bar"].fillna(0) > 0]
    assert bar["entered"].notna().all() and plays.loc[plays["on_bar"].eq(0), "entered"].isna().all()
    assert (bar["dance"] == ~bar["entered"].astype(bool)).all()
    assert plays["closed"].dropna().between(0, 6).all()


# --- hand counts ------------------------------------------------------------------------


def test_player_row_by_hand(folded: Frames) -> None:
    row = player_summary(folded, ("lasse",)).iloc[0]
    expected = {
        "matches": 4,
        "matches_completed": 3,
        "match_wins": 2,
        "matches_unfinished": 0,
        "one_game_sessions": 1,
        "money_sessions": 0,
        "games": 14,
        "game_wins": 7,
        "game_losses": 7,
        "points_won": 10,
        "points_lost": 9,
        "money_points_won": 16,
        "money_points_lost": 0,
        "gammons_won": 2,
        "backgammons_won": 0,
        "gammons_lost": 0,
        "doubles": 3,
        "redoubles": 2,
        "doubles_received": 8,
        "takes": 4,
        "drops": 4,
        "doubles_dropped": 2,
        "max_cube": 16,
    }
    assert {k: int(row[k]) for k in expected} == expected
    assert row["match_win_rate"] == pytest.approx(2 / 3)
    assert row["gammon_rate_won"] == pytest.approx(2 / 7)


def test_case_is_kept_apart_without_ignore_case(frames: Frames) -> None:
    table = player_summary(frames, ("lasse", "Lasse"))
    assert table["player"].tolist() == ["Lasse", "lasse"]
    assert table["matches"].tolist() == [1, 3]


def test_opponents_by_hand(folded: Frames) -> None:
    table = opponent_summary(folded, ("lasse",))
    typed_like(table, "opponent")
    rows = table.set_index("opponent")
    assert sorted(rows.index) == ["Magic", "bohunk1419", "leon77", "yeah"]
    leon = rows.loc["leon77"]
    assert (leon["matches"], leon["match_wins"], leon["games"], leon["game_losses"], leon["points_lost"]) == (
        1,
        0,
        3,
        3,
        5,
    )
    assert (leon["takes"], leon["opponent_doubles"], leon["opponent_takes"]) == (2, 2, 0)
    magic = rows.loc["Magic"]
    assert (magic["drops"], magic["opponent_drops"], magic["doubles"], magic["opponent_doubles"]) == (4, 2, 2, 4)
    assert (magic["gammons_won"], magic["points_won"], magic["points_lost"]) == (1, 5, 4)
    assert rows.loc["yeah", "one_game_sessions"] == 1 and pd.isna(rows.loc["yeah", "match_win_rate"])
    assert rows["matches"].sum() == player_summary(folded, ("lasse",))["matches"].iloc[0]


def test_periods_by_hand(folded: Frames) -> None:
    table = period_summary(folded, ("lasse",), "month")
    typed_like(table, "period")
    assert table["period"].tolist() == ["2024-04", "2024-05", "2024-08", "undated"]
    assert table["matches"].tolist() == [1, 1, 1, 1]
    assert table["rating"].isna().all()  # Galaxy's Elo headers hold scores, Studio writes no rating
    august = table[table["period"] == "2024-08"].iloc[0]
    assert august["points_per_game"] == pytest.approx(-5 / 3)
    yearly = period_summary(folded, ("lasse",), "year")
    assert yearly["period"].tolist() == ["2024", "undated"] and yearly["matches"].tolist() == [3, 1]


def test_period_labels() -> None:
    dates = pd.Series(["2024-12-30", "2021-01-03", None], dtype="string")
    assert period_of(dates, "week").tolist() == ["2025-W01", "2020-W53", "undated"]
    assert period_of(dates, "year").tolist() == ["2024", "2021", "undated"]
    with pytest.raises(ValueError, match="unknown period"):
        period_of(dates, "day")


# --- filters ------------------------------------------------------------------------------


def test_filters_choose_matches_in_every_frame(folded: Frames) -> None:
    def kept(**kwargs: object) -> list[str]:
        chosen = filter_frames(folded, ReportFilter(**kwargs))  # type: ignore[arg-type]
        for name, df in chosen.frames.items():
            if name != "findings":
                assert set(df["match"]) <= set(chosen.frames.matches["match"]), name
        m = chosen.frames.matches
        return sorted((set(m["player0"]) | set(m["player1"])) - {"lasse"})

    assert kept() == ["Magic", "bohunk1419", "leon77", "yeah"]
    assert kept(opponents=("leon77",)) == ["leon77"]
    assert kept(players=("lasse",), opponents=("yeah", "Magic")) == ["Magic", "yeah"]
    assert kept(since="2024-05-01") == ["leon77", "yeah"]
    assert kept(since="2024-05-01", keep_undated=True) == ["bohunk1419", "leon77", "yeah"]
    assert kept(until="2024-05-01") == ["Magic"]
    assert kept(until="2024-05-01", keep_undated=True) == ["Magic", "bohunk1419"]
    assert kept(site="backgammon studio") == ["Magic"]
    assert kept(length=16) == ["yeah"]
    assert kept(money=True) == []
    dated = filter_frames(folded, ReportFilter(since="2024-05-01"))
    assert (dated.matches, dated.kept, dated.undated) == (4, 2, 1)
    assert filter_frames(folded, ReportFilter(opponents=("Magic",), since="2024-05-01")).undated == 0
    games = filter_frames(folded, ReportFilter(opponents=("leon77",))).frames.games
    assert games["points"].sum() == 5


def test_fold_case_prefers_the_given_spelling(frames: Frames) -> None:
    assert set(fold_case(frames, ["LASSE"]).matches["player0"]) >= {"LASSE"}
    merged = fold_case(frames)
    assert "Lasse" not in set(merged.matches["player1"]) and "lasse" in set(merged.matches["player0"])


# --- dice -----------------------------------------------------------------------------------

_ROLL = re.compile(r"(?<![\d/])([1-6])([1-6]):")


def regex_roll_counts(paths: list[Path]) -> dict[tuple[str, str], int]:
    """Count the rolls of .mat transcripts with a regular expression, per player and roll.

    A roll ``dd:`` belongs to the left player when it starts before the
    column where the right player's name starts on the game's score line.
    """
    counts: dict[tuple[str, str], int] = {}
    for path in paths:
        split = 0
        names = ("", "")
        for line in path.read_text(encoding="utf-8-sig").splitlines():
            score = re.match(r"^\s*(\S.*?)\s*:\s*\d+\s+(\S.*?)\s*:\s*\d+\s*$", line)
            if score and ")" not in line:
                names = (score.group(1), score.group(2))
                split = line.index(score.group(2), score.end(1) + 1)
                continue
            if not re.match(r"^\s*\d+\)", line):
                continue
            for found in _ROLL.finditer(line):
                player = names[0] if found.start() < split else names[1]
                roll = max(found.group(1), found.group(2)) + min(found.group(1), found.group(2))
                counts[player, roll] = counts.get((player, roll), 0) + 1
    return counts


def test_dice_counts_equal_a_regex_count_of_the_transcripts() -> None:
    paths = sorted((CORPUS / "mat").glob("bglab-*"))
    assert len(paths) > 100
    table = dice_summary(build_frames(paths, jobs=2, include=["matches", "plays"]))
    expected = regex_roll_counts(paths)
    actual = {
        (p, r): int(n) for p, row in table.set_index("player").iterrows() for r in ROLLS if (n := row[f"roll_{r}"])
    }
    assert actual == expected
    assert sum(expected.values()) > 10000


def test_dice_statistics(folded: Frames) -> None:
    table = dice_summary(folded, ("lasse",))
    typed_like(table, "dice")
    row = table.iloc[0]
    rolls = folded.plays[folded.plays["player"] == "lasse"]
    tested = rolls[~rolls["opening"]]
    n = len(tested)
    assert (row["rolls"], row["tested_rolls"], row["opening_rolls"]) == (len(rolls), n, rolls["opening"].sum())
    doubles = int((tested["die1"] == tested["die2"]).sum())
    assert row["doubles"] == doubles and row["doubles_rate"] == pytest.approx(doubles / n)
    pips = (tested["die1"] + tested["die2"]).where(tested["die1"] != tested["die2"], 4 * tested["die1"])
    assert row["pips_mean"] == pytest.approx(pips.mean())
    assert row["doubles_rate_se"] == pytest.approx(math.sqrt(5 / 36 / n))
    bar = tested[tested["on_bar"].fillna(0) > 0]
    assert row["bar_rolls"] == len(bar) and row["bar_entries"] == int(bar["entered"].sum())
    assert row["bar_entries_expected"] == pytest.approx(sum(1 - (k / 6) ** 2 for k in bar["closed"]))
    observed = tested.assign(roll=[f"{max(a, b)}{min(a, b)}" for a, b in zip(tested["die1"], tested["die2"])])
    counts = observed["roll"].value_counts()
    chi2 = sum((counts.get(r, 0) - p * n) ** 2 / (p * n) for r, p in roll_probabilities().items())
    assert row["chi2_statistic"] == pytest.approx(chi2) and row["chi2_dof"] == 20
    assert 0 <= row["chi2_p_value"] <= 1 and row["chi2_min_expected"] == pytest.approx(n / 36)


def test_fair_dice_constants() -> None:
    probabilities = roll_probabilities()
    assert len(ROLLS) == 21 and sum(probabilities.values()) == pytest.approx(1)
    assert EXPECTED_PIPS == pytest.approx(8.1667, abs=1e-4)
    assert sum(
        p * (4 * int(r[0]) if r[0] == r[1] else int(r[0]) + int(r[1])) for r, p in probabilities.items()
    ) == pytest.approx(EXPECTED_PIPS)


# --- skill from a decisions frame -----------------------------------------------------------


def test_skill_columns_from_decisions() -> None:
    base = build_frames([REPORT_MATCHES / "ann-bob.mat"])
    key = "the first match"
    rows = [
        decision_row(key, 1, 1, "Ann", 0, DecisionKind.CHECKER, error=0.0),
        decision_row(key, 1, 3, "Ann", 0, DecisionKind.CHECKER, error=0.02),
        decision_row(key, 1, 5, "Ann", 0, DecisionKind.CHECKER, error=0.0, forced=True),
        decision_row(key, 1, 2, "Bob", 1, DecisionKind.CHECKER, error=0.03),
    ]
    frames = base.replace(decisions=decisions_frame(rows).assign(match=0))
    players = player_summary(frames).set_index("player")
    assert players.loc["Ann", "decisions"] == 2 and players.loc["Ann", "error_rate"] == pytest.approx(10.0)
    assert players.loc["Bob", "pr"] == pytest.approx(15.0)
    opponents = opponent_summary(frames, ("Ann",)).iloc[0]
    assert opponents["error_rate"] == pytest.approx(10.0) and opponents["opponent_error_rate"] == pytest.approx(30)
    assert opponents["opponent_pr"] == pytest.approx(15.0)
    periods = period_summary(frames, ("Bob",))
    assert periods["error_rate"].tolist() == pytest.approx([30.0])
    assert "error_rate" not in player_summary(base).columns


# --- rendering and the command ----------------------------------------------------------------


def test_limit_rows() -> None:
    df = pd.DataFrame({"player": list("abcd"), "games": [1, 4, 2, 3]})
    top, note = limit_rows(df, 2, "players")
    assert top["player"].tolist() == ["b", "d"] and note.startswith("top 2 of 4 players by games")
    assert limit_rows(df, 4) == (df, "")


def test_trend_and_dice_plots_are_pngs(folded: Frames) -> None:
    periods = period_summary(folded, ("lasse",))
    for png in (
        plot_trend(periods),
        plot_trend(periods.iloc[:0]),
        plot_dice(folded.plays, ["lasse"]),
        plot_dice(folded.plays.iloc[:0]),
    ):
        assert png.startswith(b"\x89PNG")


def test_cli_player_row_counts_every_match() -> None:
    code, out, err = run(str(DATA), "--player", "lasse", "--ignore-case", "--format", "csv")
    assert code == 0, err
    table = pd.read_csv(io.StringIO(out))
    assert table["player"].tolist() == ["lasse"] and table.loc[0, "matches"] == 4
    assert "player lasse: 4 of 4 matches" in err


def test_cli_opponent_period_and_dice_tables() -> None:
    code, out, _ = run(str(DATA), "--player", "lasse", "--by", "opponent", "--format", "csv")
    assert code == 0 and pd.read_csv(io.StringIO(out))["opponent"].tolist() == ["Magic", "bohunk1419", "leon77", "yeah"]
    code, out, err = run(
        str(DATA),
        "--player",
        "lasse",
        "--ignore-case",
        "--by",
        "period",
        "--every",
        "year",
        "--since",
        "2024-05-01",
        "--format",
        "csv",
    )
    assert code == 0 and pd.read_csv(io.StringIO(out))["period"].tolist() == [2024]
    assert "since 2024-05-01: 2 of 4 matches; 1 undated match left out (--keep-undated keeps them)" in err
    code, out, err = run(
        str(DATA),
        "--player",
        "lasse",
        "--by",
        "period",
        "--every",
        "year",
        "--since",
        "2024-05-01",
        "--keep-undated",
        "--format",
        "csv",
    )
    assert code == 0 and pd.read_csv(io.StringIO(out))["period"].tolist() == ["2024", "undated"]
    assert "since 2024-05-01: 3 of 4 matches (1 undated, kept)" in err
    code, out, _ = run(str(DATA), "--by", "dice", "--format", "json")
    assert code == 0 and '"roll_66"' in out and '"chi2_p_value"' in out


@pytest.mark.parametrize(
    "args, message",
    [
        (["--by", "opponent"], "--by opponent needs --player"),
        (["--by", "period"], "--by period needs --player"),
        (["--length", "5", "--money"], "exclude each other"),
        (["--since", "2024-31-01"], "--since"),
        (["--keep-undated"], "--keep-undated needs --since or --until"),
    ],
)
def test_cli_usage_errors(args: list[str], message: str) -> None:
    code, out, err = run(str(DATA), *args)
    assert code == 2 and out == "" and message in err


def test_cli_filtered_frames(tmp_path: Path) -> None:
    from tabla_cli.reports.frames import read_frames

    code, _, err = run(str(DATA), "--opponent", "leon77", "--frames", str(tmp_path), "--format", "csv")
    assert code == 0, err
    back = read_frames(tmp_path)
    assert back.matches["player1"].tolist() == ["leon77"] and len(back.games) == 3
    assert set(back.plays["match"]) == set(back.matches["match"])


def test_cli_personal_html_sections(tmp_path: Path) -> None:
    out = tmp_path / "me.html"
    code, _, err = run(str(DATA), "--player", "lasse", "-o", str(out))
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    headings = re.findall(r"<h2>(.*?)</h2>", page)
    assert headings == ["Headline", "Matches", "Opponents", "Over time", "Dice", "Gammons and cube", "Findings by code"]
    # trend, dice, endings, cube values, answers by score: each with two things or more to compare
    assert page.count("<img ") == 5 and "tabla report: lasse" in page
    headline = page.split('id="headline"', 1)[1].split("</section>", 1)[0]
    assert '<div class="big">2–1</div>' in headline and '<div class="big">7–7</div>' in headline
    assert "66.7% of 3 completed matches" in headline and "5 points" in headline
    # no snake_case headers, no 1-2-4-8 columns for files scored the standard way, rates as percentages
    headers = re.findall(r"<th[^>]*>(.*?)</th>", page)
    assert not [h for h in headers if "_" in h] and not [h for h in headers if "8-point" in h or "4-point" in h]
    assert "<td>gammons won %</td><td>28.6%</td>" in page


def test_personal_page_draws_galaxy_resignations_apart_and_counts_them(tmp_path: Path) -> None:
    from tabla_cli.reports.personal import headline_cards
    from tabla_cli.reports.plots import _ending

    frames = build_frames([CORPUS / "mat" / "bglab-lasse-match2836579.txt"])
    assert _ending(frames.games).tolist() == ["gammon", "forfeit"]
    card = headline_cards(player_summary(frames, ("lasse",)).iloc[0])
    assert "100.0% / –" in card and "1 game won by the opponent&#x27;s resignation" in card
    assert "forfeit" not in card


def test_readable_tables() -> None:
    from tabla_cli.reports.personal import readable

    df = pd.DataFrame(
        {
            "player": ["a", "b"],
            "match_win_rate": [0.574, None],
            "gammons_bar_won": [0, 0],
            "drops": [0, 0],
            "games": [3, 1],
        }
    )
    out = readable(df, keep=("drops",))
    assert list(out.columns) == ["player", "match wins %", "drops", "games"]
    assert out["match wins %"].tolist() == ["57.4%", ""]


def test_cli_html_without_player_is_limited(tmp_path: Path) -> None:
    out = tmp_path / "all.html"
    code, _, err = run(str(CORPUS / "mat"), "--top", "5", "-o", str(out), "--jobs", "2")
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    assert "top 5 of" in page and "rows by games" in page
    table = page.split("<tbody>")[1].split("</tbody>")[0]
    assert table.count("<tr>") == 5


def test_cli_player_names_ignore_case_unless_asked() -> None:
    code, out, err = run(str(DATA), "--player", "LASSE", "--format", "csv")
    assert code == 0, err
    table = pd.read_csv(io.StringIO(out))
    assert table["player"].tolist() == ["lasse"] and table.loc[0, "matches"] == 4  # as the files spell it most
    code, out, err = run(str(DATA), "--player", "Lasse", "--exact-case", "--format", "csv")
    assert code == 0, err
    assert pd.read_csv(io.StringIO(out)).loc[0, "matches"] == 1


@pytest.mark.parametrize(
    "args, message",
    [
        (["--player", "lase"], "report: no match has a player named 'lase'; did you mean 'lasse'?"),
        (["--player", "LASSE", "--exact-case"], "did you mean 'Lasse' or 'lasse'?"),
        (["--player", "lasse", "--opponent", "nobody-at-all"], "no match has a player named 'nobody-at-all'\n"),
    ],
)
def test_cli_a_name_in_no_match_is_an_error_with_the_nearest_names(args: list[str], message: str) -> None:
    code, out, err = run(str(DATA), *args, "--format", "csv")
    assert (code, out) == (1, "")
    assert message in err


@pytest.mark.parametrize("analyse", [[], ["--analyze", "1ply"]])
def test_cli_a_name_in_no_match_writes_no_frames_folder(tmp_path: Path, analyse: list[str]) -> None:
    frames_dir = tmp_path / "frames"
    code, out, err = run(str(DATA), "--player", "lase", "--frames", str(frames_dir), *analyse, "--format", "csv")
    assert (code, out) == (1, "")
    assert "did you mean 'lasse'?" in err
    assert list(tmp_path.iterdir()) == []


def test_gammon_rates_count_only_games_with_a_final_position() -> None:
    # lasse wins both games: a gammon by bear-off, then a forfeit (no final position, no level)
    frames = build_frames([CORPUS / "mat" / "bglab-lasse-match2836579.txt"])
    row = player_summary(frames, ("lasse",)).iloc[0]
    assert (row["game_wins"], row["gammons_won"], row["forfeits_won"], row["resignations_won"]) == (2, 1, 1, 0)
    assert row["gammon_rate_won"] == 1.0 and row["backgammon_rate_won"] == 0.0
    other = player_summary(frames).set_index("player").drop("lasse").iloc[0]
    assert (other["game_losses"], other["forfeits_lost"], other["gammon_rate_lost"]) == (2, 1, 1.0)


def test_answers_by_score_leave_one_game_sessions_out(frames: Frames) -> None:
    from tabla_cli.reports.plots import match_play

    one_game = frames.matches.loc[frames.matches["length"].eq(16) & frames.matches["games"].eq(1), "match"]
    assert len(one_game) == 1 and frames.cube["match"].isin(one_game).any()
    kept = match_play(frames.cube, frames)
    assert not kept["match"].isin(one_game).any() and len(kept) > 0
    assert not kept["away_player"].eq(16).any()


def test_result_types_give_forfeits_a_bar_and_colour_of_their_own() -> None:
    from matplotlib import image

    from tabla_cli.reports.plots import plot_result_types

    games = build_frames([CORPUS / "mat" / "bglab-lasse-match2836579.txt"]).games
    pixels = image.imread(io.BytesIO(plot_result_types(games)))
    magenta = (abs(pixels[..., 0] - 0xC2 / 255) < 0.02) & (abs(pixels[..., 1] - 0x18 / 255) < 0.02)
    assert magenta.sum() > 500  # the forfeit bar (and its legend patch)
