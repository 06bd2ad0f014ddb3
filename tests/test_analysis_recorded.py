"""Recorded analysis: gnubg text exports and SGF read into evaluations and statistics.

The proof: for every analysed gnubg text export in tests/data/corpus/txt/, the
statistics computed from the recorded decisions equal the game statistics
gnubg printed at the end of the same file.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from tabla_cli.analysis.decisions import AnalysisOptions
from tabla_cli.analysis.file_analysis import analyse_text
from tabla_cli.analysis.stats import (
    DECISION_COLUMNS,
    FIBS_RATING_OFFSET,
    actual_result,
    checker_rating_factor,
    cube_rating_factor,
    decisions_frame,
    player_stats,
    skill_rows,
)
from tabla_cli.evaluation.met import cube_outcomes, match_equity
from tabla_cli.evaluation.recorded import (
    CubeAnalysis,
    RecordedAnalysis,
    evaluation_from_recorded,
    parse_gnubg_text_analysis,
    parse_sgf_cube_analysis,
)
from tabla_cli.evaluation.types import CubeAction, DecisionKind
from tabla_cli.formats import gnubg_text, sgf
from tabla_cli.model import ActionKind

from helpers import CORPUS

DATA = CORPUS / "txt"
EXPORTS = sorted(DATA.glob("*.txt"))
RECORDED = AnalysisOptions(cache=False)

COUNTS = {
    "Total moves": "checker_decisions",
    "Unforced moves": "unforced",
    "Moves marked doubtful": "doubtful",
    "Moves marked bad": "errors",
    "Moves marked very bad": "blunders",
    "Total cube decisions": "cube_decisions",
    "Close or actual cube decisions": "close_cube",
    "Wrong takes (EMG (MWC))": "wrong_takes",
    "Wrong passes (EMG (MWC))": "wrong_passes",
}
SUMMED = {
    "missed_doubles": ("Missed doubles below CP (EMG (MWC))", "Missed doubles above CP (EMG (MWC))"),
    "wrong_doubles": ("Wrong doubles below DP (EMG (MWC))", "Wrong doubles above TG (EMG (MWC))"),
}
RATES = {"Chequerplay": "checker_error_rate", "Cube": "cube_error_rate", "Overall": "error_rate"}


def printed_statistics(text: str) -> dict[str, tuple[float, float]]:
    """gnubg's 'Game statistics' block: each line's value for player 0 and player 1.

    Error rates are keyed ``rate <section>`` and made positive; the columns
    are gnubg's fixed ``%-40s %-23s %-23s``.
    """
    start = text.index("Game statistics for game")
    end = text.find("Match statistics", start)
    values: dict[str, tuple[float, float]] = {}
    section = ""
    for line in text[start : end if end > 0 else len(text)].split("\n"):
        if line.endswith(" statistics"):
            section = line.split()[0]
            continue
        name, first, second = line[:41].strip(), line[41:65].split(), line[65:].split()
        if not first or not second:
            continue
        if name == "Error rate mEMG (MWC)":
            values[f"rate {section}"] = (-float(first[0]), -float(second[0]))
        elif first[0].isdigit() and second[0].isdigit():
            values[name] = (float(first[0]), float(second[0]))
    return values


def test_every_export_prints_statistics() -> None:
    assert len(EXPORTS) == 21
    assert all("Error rate mEMG" in p.read_text() for p in EXPORTS)


@pytest.mark.parametrize("path", EXPORTS, ids=lambda p: p.name[:40])
def test_statistics_equal_what_gnubg_printed(path: Path) -> None:
    text = path.read_text()
    [export] = gnubg_text.parse_exports(text, path=str(path))
    match = export.match
    stats = player_stats(decisions_frame(analyse_text(text, str(path), RECORDED).rows)).set_index("player")
    printed = printed_statistics(text)
    for side, name in enumerate(match.players):
        row = stats.loc[name]
        for section, column in RATES.items():
            computed = 0.0 if row[column] != row[column] else float(row[column])
            assert computed == pytest.approx(printed[f"rate {section}"][side], abs=0.5), (name, section)
        for label, column in COUNTS.items():
            assert int(row[column]) == printed[label][side], (name, label)
        for column, labels in SUMMED.items():
            assert int(row[column]) == sum(printed[label][side] for label in labels), (name, column)


_FIGURE = re.compile(r"([+-]?[0-9]+\.[0-9]+)(?:\s*\(\s*([+-]?[0-9.]+)%\))?")


def printed_figures(text: str) -> dict[tuple[str, str], list[tuple[float, float | None] | None]]:
    """Every line of gnubg's 'Game statistics' block by (section, label): per player the figure and the
    MWC percentage beside it (None: ``n/a``)."""
    start = text.index("Game statistics for game")
    end = text.find("Match statistics", start)
    figures: dict[tuple[str, str], list[tuple[float, float | None] | None]] = {}
    section = ""
    for line in text[start : end if end > 0 else len(text)].split("\n"):
        if line.endswith(" statistics"):
            section = line.split()[0]
            continue
        found = [_FIGURE.match(column.strip()) for column in (line[41:65], line[65:])]
        figures[section, line[:41].strip()] = [
            None if f is None else (abs(float(f.group(1))), None if f.group(2) is None else abs(float(f.group(2))))
            for f in found
        ]
    return figures


@pytest.mark.parametrize("path", EXPORTS, ids=lambda p: p.name[:40])
def test_mwc_snowie_and_fibs_rating_equal_what_gnubg_printed(path: Path) -> None:
    """The MWC errors, the Snowie error rate and the error-based FIBS rating against gnubg's printout.

    The recorded errors have three decimals, so the sums stray by their
    rounding: within 0.07 % MWC, 0.1 mEMG (Snowie) and 1.5 rating points.
    """
    text = path.read_text()
    [export] = gnubg_text.parse_exports(text, path=str(path))
    rows = {r["player"]: r for r in skill_rows(analyse_text(text, str(path), RECORDED).rows)}
    printed = printed_figures(text)
    for side, name in enumerate(export.match.players):
        row = rows[name]
        for section, column in (("Chequerplay", "checker"), ("Cube", "cube"), ("Overall", "error")):
            figure = printed[section, "Error total EMG (MWC)"][side]
            assert figure is not None and figure[1] is not None
            total = "error_total_mwc" if column == "error" else f"{column}_error_mwc"
            assert row[total] == pytest.approx(figure[1], abs=0.07), (name, section)
        rate = printed["Overall", "Error rate mEMG (MWC)"][side]
        assert rate is not None and row["error_rate_mwc"] == pytest.approx(rate[1], abs=0.003)
        snowie = printed["Overall", "Snowie error rate"][side]
        assert snowie is not None and row["snowie_error_rate"] == pytest.approx(snowie[0], abs=0.1)
        for label, column in (
            ("Error based abs. FIBS rating", "fibs_rating"),
            ("Chequerplay errors rating loss", "checker_rating_loss"),
            ("Cube errors rating loss", "cube_rating_loss"),
        ):
            figure = printed["Overall", label][side]
            if figure is None:  # n/a: no decision of that kind
                assert row[column] != row[column], (name, label)
            else:
                assert row[column] == pytest.approx(figure[0], abs=1.5), (name, label)


@pytest.mark.parametrize("path", EXPORTS, ids=lambda p: p.name[:40])
def test_fibs_rating_formula_on_gnubgs_own_totals(path: Path) -> None:
    """gnubg's rating from gnubg's own printed totals and counts: the formula, apart from tabla's sums.

    The totals are printed to 0.0005, so the rating is known to that over the
    counts times the factors (plus the 0.05 of its own printing).
    """
    text = path.read_text()
    [export] = gnubg_text.parse_exports(text, path=str(path))
    printed, counts = printed_figures(text), printed_statistics(text)
    length = export.match.length
    for side in (0, 1):
        checker = printed["Chequerplay", "Error total EMG (MWC)"][side]
        cube = printed["Cube", "Error total EMG (MWC)"][side]
        rating = printed["Overall", "Error based abs. FIBS rating"][side]
        assert checker is not None and cube is not None and rating is not None
        unforced, close = counts["Unforced moves"][side], counts["Close or actual cube decisions"][side]
        loss = bound = 0.0
        if unforced:
            loss += checker[0] / unforced * checker_rating_factor(length)
            bound += 0.0005 / unforced * checker_rating_factor(length)
        if close:
            loss += cube[0] / close * cube_rating_factor(length)
            bound += 0.0005 / close * cube_rating_factor(length)
        assert FIBS_RATING_OFFSET - loss == pytest.approx(rating[0], abs=bound + 0.05), side


def test_the_reader_keeps_the_ranked_list_and_the_cube_block() -> None:
    path = DATA / "bglab-Llabba-4-ply-Llabba_-_Lucky_Lux_13pt_Backgammon_Studio_2023_01_23_20_22_56_003.txt"
    [export] = gnubg_text.parse_exports(path.read_text(), path=str(path))
    actions = export.match.games[0].actions
    roll = actions[1]  # move 2: Llabba 63, with the cube analysis before the roll
    assert roll.analysis is not None and roll.analysis.cube is not None
    assert roll.analysis.cube.no_double == pytest.approx(-0.064)
    assert roll.analysis.cube.proper == "No double, take (31.5%)"
    assert roll.analysis.cube_action is CubeAction.NO_DOUBLE
    assert roll.analysis.level == "gnubg 4-ply" and roll.analysis.played == 0
    assert roll.analysis.candidates[4].level == "2-ply"
    assert roll.analysis.candidates[0].probabilities == (0.473, 0.122, 0.006, 0.527, 0.187, 0.008)
    double, take = (a for a in actions if a.kind in (ActionKind.DOUBLE, ActionKind.TAKE) and a.move_number in (5, 6))
    assert double.analysis is not None and double.analysis.cube == CubeAnalysis(
        0.725, 0.856, 1.0, "Double, take", "gnubg 4-ply", (0.628, 0.312, 0.013, 0.372, 0.087, 0.004)
    )
    # The answer is printed from the taker's side; it is kept from the doubler's.
    assert take.analysis is not None and take.analysis.cube is not None
    assert take.analysis.cube.double_take == pytest.approx(0.856)
    evaluation = evaluation_from_recorded(take.analysis, DecisionKind.TAKE)
    assert evaluation is not None and evaluation.error == 0.0 and evaluation.best == "take"


def test_a_play_gnubg_did_not_rank() -> None:
    text = (
        "Rolled 21:\n"
        "     1. Cubeful 1-ply    6/3                          Eq.: -1.000\n"
        "       0.000 0.000 0.000 - 1.000 0.000 0.000\n"
        "     2. Cubeful 1-ply    6/4 3/2                      Eq.: -1.000 (-0.000)\n"
        "*   ??  Cubeful 1-ply    3/off                        Eq.: -1.000 (-0.000)\n"
    )
    recorded = parse_gnubg_text_analysis(text)
    assert recorded is not None and recorded.played == 2
    evaluation = evaluation_from_recorded(recorded, DecisionKind.CHECKER)
    assert evaluation is not None
    assert (evaluation.rank, evaluation.error, evaluation.forced) == (None, 0.0, False)


def test_no_move_is_forced() -> None:
    recorded = parse_gnubg_text_analysis("Rolled 43:\n*    Cannot move\n")
    assert recorded is not None and recorded.forced
    evaluation = evaluation_from_recorded(recorded, DecisionKind.CHECKER)
    assert evaluation is not None and evaluation.forced and evaluation.error == 0.0


@pytest.mark.parametrize(
    ("cube", "made", "kind", "error", "best", "close"),
    [
        # a take of a pass is a wrong take: the taker loses 1.2 - 1.0
        (CubeAnalysis(0.9, 1.2, 1.0), CubeAction.TAKE, DecisionKind.TAKE, 0.2, "pass", True),
        (CubeAnalysis(0.9, 1.2, 1.0), CubeAction.PASS, DecisionKind.TAKE, 0.0, "pass", True),
        # a pass of a take is a wrong pass
        (CubeAnalysis(0.5, 0.7, 1.0), CubeAction.PASS, DecisionKind.TAKE, 0.3, "take", True),
        # a missed double (double, take is best) is always close
        (CubeAnalysis(0.5, 0.7, 1.0), CubeAction.NO_DOUBLE, DecisionKind.DOUBLE, 0.2, "double", True),
        # a wrong double: the opponent takes, no double was better
        (CubeAnalysis(0.2, -0.1, 1.0), CubeAction.DOUBLE, DecisionKind.DOUBLE, 0.3, "no double", True),
        # far from doubling: not a close decision, never counted
        (CubeAnalysis(-0.2, -0.6, 1.0), CubeAction.NO_DOUBLE, DecisionKind.DOUBLE, 0.0, "no double", False),
        # too good: no double beats double, pass by more than 0.16, not close
        (CubeAnalysis(1.3, 1.8, 1.0), CubeAction.NO_DOUBLE, DecisionKind.DOUBLE, 0.0, "no double", False),
    ],
)
def test_cube_evaluations(
    cube: CubeAnalysis, made: CubeAction, kind: DecisionKind, error: float, best: str, close: bool
) -> None:
    evaluation = evaluation_from_recorded(RecordedAnalysis(cube=cube, cube_action=made), kind)
    assert evaluation is not None
    assert evaluation.error == pytest.approx(error)
    assert (evaluation.best, evaluation.close) == (best, close)
    assert evaluation.rank == (1 if error == 0 else 2)


def test_a_checker_play_has_no_cube_evaluation() -> None:
    recorded = parse_gnubg_text_analysis("Rolled 43:\n*    1. Cubeful 0-ply    24/20 13/10   Eq.: -0.057\n")
    assert recorded is not None and evaluation_from_recorded(recorded, DecisionKind.DOUBLE) is None


SGF = (
    "(;FF[4]GM[6]CA[UTF-8]AP[hand-made:1]MI[length:0][game:0][ws:0][bs:0]PW[Ann]PB[Bob]RU[]"
    ";W[31hefe]A[0][hefe E ver 3 0.521 0.158 0.008 0.138 0.007 0.088 2C 0 1 0.000000 1]"
    "[xwmj E ver 3 0.464 0.123 0.005 0.161 0.008 -0.154 2C 0 1 0.000000 1]LU[0.3125]"
    ";B[61ppab]A[1][lpqr E ver 3 0.500 0.130 0.006 0.130 0.006 -0.010 0C 0 1 0.000000 1]"
    "[ppab E ver 3 0.480 0.120 0.005 0.150 0.008 -0.075 0C 0 1 0.000000 1]LU[-inf])"
)


def test_sgf_move_analysis() -> None:
    [match] = list(sgf.parse_matches(SGF, path="hand.sgf"))
    first, second = match.games[0].actions[:2]
    assert first.analysis is not None and second.analysis is not None
    assert first.analysis.candidates[0].play == "8/5 6/5" and first.analysis.played == 0
    assert first.analysis.level == "gnubg 2-ply" and first.analysis.luck == 0.3125
    assert second.analysis.played == 1 and second.analysis.luck is None
    evaluation = evaluation_from_recorded(second.analysis, DecisionKind.CHECKER)
    assert evaluation is not None
    assert (evaluation.rank, evaluation.best, evaluation.source) == (2, "13/9 8/7", "recorded gnubg 0-ply")
    assert evaluation.error == pytest.approx(0.065)
    frame = decisions_frame(analyse_text(SGF, "hand.sgf", RECORDED).rows)
    assert [str(frame[c.name].dtype) for c in DECISION_COLUMNS] == [c.dtype for c in DECISION_COLUMNS]
    stats = player_stats(frame).set_index("player")
    assert stats.loc["Bob", "error_rate"] == pytest.approx(65.0)
    assert stats.loc["Bob", "pr"] == pytest.approx(32.5)
    assert stats.loc["Bob", "errors"] == 1 and stats.loc["Bob", "rating"] == "Awful!"
    assert stats.loc["Ann", "error_rate"] == 0.0 and stats.loc["Ann", "rating"] == "Supernatural"
    assert stats.loc["Ann", "luck_rate"] == pytest.approx(312.5)
    assert stats.loc["Ann", "luck_rating"] == "Go to Las Vegas"
    by_match = player_stats(frame, by_match=True)
    assert list(by_match.columns[:2]) == ["match", "player"] and set(by_match["match"]) == {"hand.sgf"}


# --------------------------------------------------------------------------
# SGF cube analysis (DA) against the statistics gnubg stored with each game

SGF_FILES = sorted((CORPUS / "sgf").glob("gnubg-*.sgf"))
GS_CUBE = re.compile(r"GS\[M:[^\]]*\]\[C:([^\]]*)\]")


def stored_cube_statistics(text: str) -> list[dict[str, tuple[float, ...]]]:
    """Each game's ``GS[...][C:...]``: gnubg's cube statistics, per player (sgf.c ``WriteStatContext``).

    Counts (total, doubles, takes, passes, missed doubles, wrong doubles,
    wrong takes, wrong passes) and errors (EMG, MWC) of the last four, the
    missed and wrong doubles summed over their two kinds.
    """
    games = []
    for found in GS_CUBE.finditer(text):
        values = found.group(1).split()
        counts, errors = [int(v) for v in values[:20]], [float(v) for v in values[20:44]]
        game = {}
        for side in (0, 1):
            kinds = [counts[8 + 2 * k + side] for k in range(6)]
            emg = [errors[12 * side + 2 * k] for k in range(6)]
            mwc = [errors[12 * side + 2 * k + 1] for k in range(6)]
            game[f"counts {side}"] = (
                counts[side],
                counts[2 + side],
                counts[4 + side],
                counts[6 + side],
                kinds[0] + kinds[1],
                kinds[2] + kinds[3],
                kinds[4],
                kinds[5],
            )
            game[f"emg {side}"] = (emg[0] + emg[1], emg[2] + emg[3], emg[4], emg[5])
            game[f"mwc {side}"] = (mwc[0] + mwc[1], mwc[2] + mwc[3], mwc[4], mwc[5])
        games.append(game)
    return games


@pytest.mark.parametrize("path", SGF_FILES, ids=lambda p: p.name)
def test_sgf_cube_analysis_gives_gnubgs_cube_statistics(path: Path) -> None:
    """Each game's cube counts and cube errors (EMG and MWC) equal gnubg's stored ones."""
    text = path.read_text()
    frame = decisions_frame(analyse_text(text, str(path), RECORDED).rows)
    cube = frame[frame["kind"].isin(["double", "take"]) & frame["error"].notna()]
    stored = stored_cube_statistics(text)
    assert len(stored) == frame["game"].max()
    errors_seen = 0
    for number, game in enumerate(stored, 1):
        for side in (0, 1):
            rows = cube[(cube["game"] == number) & (cube["side"] == side)]
            action, best = rows["action"], rows["best"]
            wrong = (rows["error"] > 0) & (action != best)
            kinds = [wrong & (action == made) for made in ("no double", "double", "take", "pass")]
            counts = (
                len(rows),
                *(int((action == made).sum()) for made in ("double", "take", "pass")),
                *(int(k.sum()) for k in kinds),
            )
            assert counts == game[f"counts {side}"], (number, side)
            emg = [float(rows["error"][k].sum()) for k in kinds]
            mwc = [float(rows["error_mwc"][k].sum()) for k in kinds]
            assert emg == pytest.approx(game[f"emg {side}"], abs=2e-5), (number, side)
            assert mwc == pytest.approx(game[f"mwc {side}"], abs=2e-5), (number, side)
            errors_seen += sum(counts[4:])
    assert errors_seen == (7 if "8640511" in path.name else 0)


def test_sgf_cube_analysis_by_hand() -> None:
    # Money: the cubeful equities are used as they are, double/pass is +1.
    value = "E ver 3 2C 1 0.000000 1 0.70 0.20 0.01 0.05 0.00 0.55 0.62 0.70 0.20 0.01 0.05 0.00 0.55 0.80"
    cube = parse_sgf_cube_analysis(value, None)
    assert cube is not None
    assert (cube.no_double, cube.double_take, cube.double_pass) == (0.62, 0.80, 1.0)
    assert (cube.level, cube.proper, cube.mwc_scale) == ("gnubg 2-ply", "Double, take", None)
    assert cube.probabilities == pytest.approx((0.70, 0.20, 0.01, 0.30, 0.05, 0.00))
    # 5-point match at 0-0: W = MET(4, 5), L = MET(5, 4); MWC 0.5 is equity 0.
    win, lose = cube_outcomes(5, 5, 1, crawford=False)
    assert win == pytest.approx(1 - lose) and win > 0.5
    value = value.replace("0.62", "0.5").replace("0.80", f"{win + 0.01:.6f}")
    cube = parse_sgf_cube_analysis(value, (5, 5, 1, False), redouble=True)
    assert cube is not None and cube.no_double == pytest.approx(0.0, abs=1e-6)
    assert cube.mwc_scale == pytest.approx((win - lose) / 2)
    assert cube.double_take == pytest.approx(1.0 + 0.01 / cube.mwc_scale, abs=1e-5)
    assert cube.proper == "Redouble, pass"
    assert parse_sgf_cube_analysis("E ver 2 0 0.5 0.5", None) is None
    # The side that needs 1 point wins the match with any win; post-Crawford, a loss is the trailer's MET.
    assert cube_outcomes(1, 3, 1, crawford=False) == (1.0, pytest.approx(1 - cube_outcomes(3, 1, 1, crawford=True)[0]))


GS_MOVES = re.compile(r"GS\[M:([^\]]*)\]")


@pytest.mark.parametrize("path", SGF_FILES, ids=lambda p: p.name)
def test_sgf_checker_errors_in_mwc_are_gnubgs(path: Path) -> None:
    """Each game's checker errors in EMG and in MWC equal gnubg's stored ones (``GS[M:...]``; each play's equities have 6 decimals).

    gnubg stores per game the unforced and total moves, the marks, then each
    player's checker error in EMG and in MWC; tabla's MWC error of a play is
    its EMG error times (W - L) / 2 at the play's score and cube.
    """
    text = path.read_text()
    rows = analyse_text(text, str(path), RECORDED).rows
    names = {int(r["side"]): str(r["player"]) for r in rows}
    stats = {(r["game"], r["player"]): r for r in skill_rows(rows, by_game=True)}
    stored = [[float(v) for v in found.group(1).split()] for found in GS_MOVES.finditer(text)]
    assert len(stored) == max(r["game"] for r in rows)
    for number, values in enumerate(stored, 1):
        for side in (0, 1):
            row = stats[number, names[side]]
            assert (row["unforced"], row["checker_decisions"]) == (values[side], values[2 + side])
            assert row["checker_error"] == pytest.approx(values[12 + 2 * side], abs=1e-5), (number, side)
            assert row["checker_error_mwc"] / 100 == pytest.approx(values[13 + 2 * side], abs=1e-5), (number, side)


# --------------------------------------------------------------------------
# Luck and the luck-adjusted result against gnubg's stored luck (GS[...][D:...])

GS_DICE = re.compile(r"\]\[D:([^\]]*)\]")


@pytest.mark.parametrize("path", SGF_FILES, ids=lambda p: p.name)
def test_luck_adjusted_result_is_gnubgs(path: Path) -> None:
    """Per game, each side's luck equals gnubg's; the match's luck-adjusted result is gnubg's.

    gnubg stores each game's luck per player in EMG and in MWC (``arLuck``);
    its "Luck adjusted result" of the match is the actual result (the match
    won, +0.5 MWC, or lost) minus the player's luck plus the opponent's, in
    MWC, printed to 0.01 %.
    """
    text = path.read_text()
    frame = decisions_frame(analyse_text(text, str(path), RECORDED).rows)
    rolls = frame[frame["kind"] == "checker"]
    stored = [[float(v) for v in found.group(1).split()[10:14]] for found in GS_DICE.finditer(text)]
    assert len(stored) == frame["game"].max()
    for number, luck in enumerate(stored, 1):
        game = rolls[rolls["game"] == number]
        for side in (0, 1):
            assert float(game[game["side"] == side]["luck"].sum()) == pytest.approx(luck[2 * side], abs=3e-4)
    stats = player_stats(frame).set_index("player")
    [match] = list(sgf.parse_matches(text, path=str(path)))
    winner = match.games[-1].actions[-1].player
    for side, name in enumerate(match.players):
        own, theirs = (sum(luck[2 * s + 1] for luck in stored) for s in (side, 1 - side))
        actual = 0.5 if side == winner else -0.5
        assert stats.loc[name, "actual_result"] == pytest.approx(actual, abs=1e-6)
        assert stats.loc[name, "luck_adjusted_result"] == pytest.approx(actual - own + theirs, abs=5e-5)
        assert stats.loc[name, "luck_total"] == pytest.approx(sum(luck[2 * side] for luck in stored), abs=1e-3)
        # gnubg's "Luck based FIBS rating diff." (relativeFibsRating) on gnubg's own luck, to its 0.01 printing
        chance = 0.5 + actual - own + theirs
        expected = -2000 / math.sqrt(match.length) * math.log10(1 / chance - 1)
        by_match = player_stats(frame, by_match=True).set_index("player")
        assert by_match.loc[name, "luck_fibs_rating_diff"] == pytest.approx(expected, abs=0.1), name
        assert math.isnan(stats.loc[name, "luck_fibs_rating_diff"])  # no one length over a player's matches


def test_the_statistics_need_nothing_beyond_the_frames_written(tmp_path: Path) -> None:
    """The luck-adjusted result read from ``tabla report --frames``'s Parquet equals the one made in memory:
    the statistics take the replay's score and Crawford flag from the decisions frame's Match IDs."""
    from pandas.testing import assert_frame_equal

    from tabla_cli.reports import build_frames, read_frames, write_frames

    frames = build_frames(SGF_FILES, include=("matches", "decisions"))
    write_frames(frames, tmp_path)
    made = player_stats(frames.decisions, by_match=True)
    assert made["luck_adjusted_result"].notna().all() and len(made) == 2 * len(SGF_FILES)
    assert_frame_equal(player_stats(read_frames(tmp_path).decisions, by_match=True), made)


def test_luck_adjusted_result_in_money_play() -> None:
    text = SGF.replace("RU[]", "RU[]RE[W+2R]").replace("LU[-inf]", "LU[-0.125]")
    stats = player_stats(decisions_frame(analyse_text(text, "hand.sgf", RECORDED).rows)).set_index("player")
    # Money: points won, minus own luck, plus the opponent's, luck times the cube (1).
    assert stats.loc["Ann", "actual_result"] == 2.0 and stats.loc["Bob", "actual_result"] == -2.0
    assert stats.loc["Ann", "luck_adjusted_result"] == pytest.approx(2.0 - 0.3125 - 0.125)
    assert stats.loc["Bob", "luck_adjusted_result"] == pytest.approx(-2.0 + 0.3125 + 0.125)
    no_luck = SGF.replace("RU[]", "RU[]RE[W+2R]").replace("LU[0.3125]", "")
    stats = player_stats(decisions_frame(analyse_text(no_luck, "hand.sgf", RECORDED).rows)).set_index("player")
    assert stats.loc["Ann", "actual_result"] == 2.0 and stats["luck_adjusted_result"].isna().all()


def test_a_game_result_in_match_play() -> None:
    # 3-point match at 0-0: winning one point moves the winner to MET(2-away, 3-away).
    won = actual_result(3, (0, 0), False, 1, 1)
    assert won is not None and won[1] == pytest.approx(match_equity(2, 3, crawford=False) - 0.5) and won[0] == -won[1]
    # At 2-away 1-away the trailer's chances are post-Crawford ones, or the Crawford game's.
    post, crawford = actual_result(3, (1, 2), False, 0, 2), actual_result(3, (1, 2), True, 0, 2)
    assert post is not None and post[0] == pytest.approx(1 - match_equity(2, 1, crawford=False))
    assert crawford is not None and crawford[0] == pytest.approx(1 - match_equity(2, 1, crawford=True))
    assert match_equity(2, 1, crawford=True) == pytest.approx(1 - match_equity(1, 2, crawford=True))
    assert match_equity(2, 1, crawford=True) < 0.4 < match_equity(2, 1, crawford=False)
    assert actual_result(0, (0, 0), False, None, None) is None


def test_every_match_play_error_has_its_mwc() -> None:
    """Decision rows carry the error in MWC beside EMG in match play, also where the source gives EMG only."""
    path = DATA / "bglab-lasse-4-ply-Magic_-_Lasse_5pt_Backgammon_Studio_2024_04_22_19_06_30.txt"
    rows = analyse_text(path.read_text(), str(path), RECORDED).rows
    analysed = [r for r in rows if r["error"] is not None]
    assert analysed and all(r["error_mwc"] is not None for r in analysed)
    scales = {round(r["error_mwc"] / r["error"], 9) for r in analysed if r["error"] > 0 and r["kind"] == "checker"}
    assert len(scales) >= 1 and all(0 < s < 1 for s in scales)
