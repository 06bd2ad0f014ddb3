"""eXtreme Gammon and BGBlitz position exports: the position, and its analysis as recorded decisions.

Every export of the corpus (seven positions, two programs, three languages)
is read; the decision rows of ``tabla analyze`` carry the best play or cube
action and its equity, and the same position gives the same rows in every
language.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tabla_cli.analysis.decisions import AnalysisOptions
from tabla_cli.analysis.file_analysis import analyse_file
from tabla_cli.analysis.stats import decisions_frame, player_stats
from tabla_cli.errors import TranscriptSyntaxError
from tabla_cli.evaluation.recorded import evaluation_from_recorded
from tabla_cli.evaluation.types import DecisionKind
from tabla_cli.formats import detect, position_text
from tabla_cli.ids import parse_xgid
from tabla_cli.writers.json import format_json

from helpers import CORPUS

IDS = CORPUS / "ids"
EXPORTS = sorted(IDS.glob("xg-0*.txt")) + sorted(IDS.glob("bgblitz-0*.txt"))
RECORDED = AnalysisOptions(cache=False)

# What each position's analysis says: the best play or the proper cube action,
# and the equities (best play; or no double, double/take, double/pass).
XG = {
    "01": ("19/18 14/12", (-0.491,)),
    "02": ("No double, take", (0.337, 0.215, 1.0)),
    "03": ("Double, take", (0.580, 0.689, 1.0)),
    "04": ("Double, pass", (0.735, 1.336, 1.0)),
    "05": ("No redouble, take", (0.485, -0.511, 1.0)),
    "06": ("Redouble, take", (0.797, 0.852, 1.0)),
    "07": ("Too good to redouble, pass", (1.027, 1.869, 1.0)),
}
BGBLITZ = {
    "01": ("19/18 14/12", (-0.492,)),
    "02": ("No double, take", (0.287, 0.164, 1.0)),
    "03": ("Double, take", (0.585, 0.625, 1.0)),
    "04": ("Double, pass", (0.767, 1.287, 1.0)),
    "05": ("No redouble, take", (0.518, -0.504, 1.0)),
    "06": ("Redouble, take", (0.685, 0.760, 1.0)),
    "07": ("Redouble, pass", (0.969, 1.680, 1.0)),
}


def expected(path: Path) -> tuple[str, tuple[float, ...]]:
    number = path.name.split("-")[1][:2]
    if path.name.startswith("xg-05") and path.name.endswith("_DE.txt"):
        return "No redouble, take", (0.483, -0.511, 1.0)  # XG 2.19's German file: another analysis
    return (XG if path.name.startswith("xg-") else BGBLITZ)[number]


def test_every_export_of_the_corpus_is_here() -> None:
    assert len(EXPORTS) == 42
    assert all(detect(p.read_text(encoding="utf-8")) is position_text.FORMAT for p in EXPORTS)


@pytest.mark.parametrize("path", EXPORTS, ids=lambda p: p.name)
def test_the_analysis_is_read(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    [match] = position_text.parse_matches(text, path=str(path))
    position, state = parse_xgid(re.search(r"XGID=\S+", text).group(0))  # type: ignore[union-attr]
    [game] = match.games
    assert (match.length, game.score) == (state.length, state.score)
    mover = state.dice_owner
    assert (game.start if mover == 0 else game.start.flip()) == position  # type: ignore[union-attr]
    best, equities = expected(path)
    first = game.actions[0]
    assert first.player == mover and first.analysis is not None and first.analysis.undecided
    if len(equities) == 1:
        [roll] = game.actions
        assert roll.dice == state.dice and roll.play_text == best
        candidates = first.analysis.candidates
        assert len(candidates) == 5 and candidates[0].equity == equities[0]
        assert [c.rank for c in candidates] == [1, 2, 3, 4, 5]
        assert all(c.error >= 0 for c in candidates) and candidates[1].error > 0
        assert candidates[0].probabilities is not None and sum(candidates[0].probabilities[::3]) == pytest.approx(1.0)
        level = "XG 4-ply" if path.name.startswith("xg-") else "BGBlitz"
        assert first.analysis.level == level
    else:
        double, take = game.actions
        assert (double.kind.value, take.kind.value, take.player) == ("double", "take", mover.other)
        cube = first.analysis.cube
        assert cube is not None
        assert (cube.no_double, cube.double_take, cube.double_pass) == equities
        assert cube.proper == best
        assert cube.level == ("XG Roller++" if path.name.startswith("xg-") else "BGBlitz")


@pytest.mark.parametrize("path", sorted(IDS.glob("xg-0[2-7]*_EN.txt")), ids=lambda p: p.name)
def test_the_proper_action_is_xgs(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    printed = re.search(r"^Best Cube action: (.*)$", text, re.MULTILINE).group(1)  # type: ignore[union-attr]
    [match] = position_text.parse_matches(text, path=str(path))
    cube = match.games[0].actions[0].analysis.cube  # type: ignore[union-attr]
    assert cube is not None and cube.proper.casefold() == printed.replace(" / ", ", ").casefold()


@pytest.mark.parametrize("number", sorted(XG))
def test_analyze_gives_the_same_rows_in_every_language(number: str) -> None:
    rows = {}
    for path in sorted(IDS.glob(f"xg-{number}_*.txt")) + sorted(IDS.glob(f"bgblitz-{number}_*.txt")):
        frame = decisions_frame(analyse_file(str(path), RECORDED).rows)
        rows[path.name] = (
            frame[
                [
                    "kind",
                    "dice",
                    "action",
                    "best",
                    "equity",
                    "best_equity",
                    "error",
                    "rank",
                    "source",
                    "position_id",
                    "match_id",
                ]
            ]
            .astype(str)
            .values.tolist()
        )
        assert frame["action"].isna().all() and frame["error"].isna().all()
        stats = player_stats(frame)
        assert (stats["decisions"] == 0).all()
    xg = [v for k, v in rows.items() if k.startswith("xg-") and not (k.startswith("xg-05") and "_DE" in k)]
    bgblitz = [v for k, v in rows.items() if k.startswith("bgblitz-")]
    assert len(xg) >= 2 and all(r == xg[0] for r in xg)
    assert len(bgblitz) == 3 and all(r == bgblitz[0] for r in bgblitz)
    # Both programs print the same position.
    assert [r[-2:] for r in xg[0]] == [r[-2:] for r in bgblitz[0]]


def test_the_decision_rows() -> None:
    frame = decisions_frame(analyse_file(str(IDS / "xg-07_RP_EN.txt"), RECORDED).rows)
    double, take = frame.itertuples()
    assert (double.kind, double.player, double.best, double.best_equity) == (
        "double",
        "プレーヤー 1",
        "no double",
        1.027,
    )
    assert (take.kind, take.player, take.best, take.best_equity) == ("take", "プレーヤー 2", "pass", -1.0)
    assert double.source == take.source == "recorded XG Roller++"
    frame = decisions_frame(analyse_file(str(IDS / "bgblitz-01_checkerPosition_FR.txt"), RECORDED).rows)
    [roll] = frame.itertuples()
    assert (roll.kind, roll.player, roll.dice, roll.best, roll.best_equity) == (
        "checker",
        "Rouge",
        "21",
        "19/18 14/12",
        -0.492,
    )
    assert roll.source == "recorded BGBlitz" and roll.options == 5


@pytest.mark.parametrize("path", EXPORTS, ids=lambda p: p.name)
def test_tabla_json_keeps_the_undecided_analysis(path: Path, tmp_path: Path) -> None:
    """Converted to tabla JSON, a position export gives the same decision rows (no play or action made)."""
    columns = ["kind", "dice", "action", "best", "equity", "best_equity", "error", "source", "position_id"]
    [match] = position_text.parse_matches(path.read_text(encoding="utf-8"), path=str(path))
    copy = tmp_path / "copy.json"
    copy.write_text(format_json([(match, None)]), encoding="utf-8")
    before = decisions_frame(analyse_file(str(path), RECORDED).rows)[columns]
    after = decisions_frame(analyse_file(str(copy), RECORDED).rows)[columns]
    assert len(before) and after.astype(str).values.tolist() == before.astype(str).values.tolist()


def test_a_double_the_xgid_says_was_made_is_evaluated() -> None:
    text = (IDS / "xg-03_DT_EN.txt").read_text(encoding="utf-8").replace(":0:0:1:00:2:4:", ":0:0:1:D:2:4:")
    [match] = position_text.parse_matches(text, path="d.txt")
    double, take = match.games[0].actions
    assert double.analysis is not None and not double.analysis.undecided
    evaluation = evaluation_from_recorded(double.analysis, DecisionKind.DOUBLE)
    assert evaluation is not None and evaluation.error == 0.0 and evaluation.best == "double"
    assert take.analysis is not None and take.analysis.undecided
    answer = evaluation_from_recorded(take.analysis, DecisionKind.TAKE)
    assert answer is not None and answer.error is None and answer.best == "take"


def test_a_bad_xgid_is_a_syntax_error_with_its_location() -> None:
    text = "\n\nXGID=-b----E-C---eE---c-e----B-:0:0:1:77:0:0:0:0:10\neXtreme Gammon Version: 2.10\n"
    with pytest.raises(TranscriptSyntaxError) as caught:
        list(position_text.parse_matches(text, path="bad.txt"))
    assert str(caught.value.location) == "bad.txt:3:1" and "dice" in caught.value.message


def test_a_position_without_analysis_has_no_decision() -> None:
    text = (IDS / "xg-02_NDT_EN.txt").read_text(encoding="utf-8")
    [match] = position_text.parse_matches(text[: text.index("Analyzed")], path="bare.txt")
    assert match.games[0].actions == [] and match.players == ("Player 2", "Player 1")
