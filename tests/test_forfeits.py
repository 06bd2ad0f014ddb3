"""Backgammon Galaxy's forfeits in every layout real files use: check, convert and report agree on every winner."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from tabla_cli.check import check_file
from tabla_cli.cli import main
from tabla_cli.formats.mat import parse_matches
from tabla_cli.model import ActionKind

from helpers import DATA, corpus_files

MAT = DATA / "mat"
# file -> (winner of the last game, points, whether the text named one side twice)
LAYOUTS = {
    "galaxy-glued-forfeit.mat": ("akab", 2, True),
    "galaxy-glued-forfeit-one-line.mat": ("lasse", 2, False),
    "galaxy-bare-forfeit.mat": ("akab", 2, True),
    "galaxy-bare-forfeit-right.mat": ("lasse", 2, False),
}


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def winners_by_command(path: Path, tmp_path: Path) -> dict[str, list[tuple[str, int]]]:
    """Every game's (winner, points) as check, convert and report read it."""
    code, out, err = invoke("check", "--format", "json", str(path))
    assert code == 0, out + err
    assert not [f for f in json.loads(out) if f["severity"] == "error"]
    code, out, err = invoke("convert", "-q", "--to", "json", "-o", "-", str(path))
    assert code == 0, err
    match = json.loads(out)["matches"][0]
    names = match["players"]
    converted = [(names[g["outcome"]["winner"]], g["outcome"]["points"]) for g in match["games"]]
    code, out, err = invoke("report", "-q", "--by", "game", "--format", "json", str(path))
    assert code == 0, err
    reported = [(row["winner"], row["points"]) for row in json.loads(out)]
    again = tmp_path / "again.mat"
    code, _, err = invoke("convert", "-q", "-o", str(again), str(path))
    assert code == 0, err
    code, out, err = invoke("report", "-q", "--by", "game", "--format", "json", str(again))
    assert code == 0, err
    rewritten = [(row["winner"], row["points"]) for row in json.loads(out)]
    return {"convert": converted, "report": reported, "convert-then-report": rewritten}


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_every_command_credits_the_forfeit_to_the_same_player(name: str, tmp_path: Path) -> None:
    winner, points, inferred = LAYOUTS[name]
    seen = winners_by_command(MAT / name, tmp_path)
    assert len({tuple(v) for v in seen.values()}) == 1, seen
    assert seen["report"][-1] == (winner, points)
    codes = [f.code for f in check_file(str(MAT / name)).findings]
    assert ("forfeit-side" in codes) is inferred
    assert "forfeit" in codes


def test_a_bare_losses_line_takes_the_side_the_score_allows() -> None:
    match = next(parse_matches((MAT / "galaxy-bare-forfeit.mat").read_text(encoding="utf-8"), path="m.mat"))
    last = match.games[-1].actions[-2:]
    assert [(a.kind, int(a.player), a.value) for a in last] == [(ActionKind.LOSS, 1, 2), (ActionKind.WIN, 0, 2)]
    [note] = [f for f in match.findings if f.code == "forfeit-side"]
    assert note.severity.value == "note"
    assert "read as lasse giving the game up to akab" in note.message
    assert "at 1-0 in a 3-point match only akab can win 2 points and the match" in note.message


def test_the_score_wins_over_the_column_of_the_wins_line() -> None:
    # Both lines at the left, as Galaxy writes them on lines of their own; lasse leads 0-1 and only
    # lasse can win 2 points and the match.
    text = (
        (MAT / "galaxy-bare-forfeit-right.mat")
        .read_text(encoding="utf-8")
        .replace("                                  Wins 2 point and the match", "      Wins 2 point and the match")
    )
    match = next(parse_matches(text, path="m.mat"))
    last = match.games[-1].actions[-2:]
    assert [(int(a.player), a.kind) for a in last] == [(0, ActionKind.LOSS), (1, ActionKind.WIN)]
    [note] = [f for f in match.findings if f.code == "forfeit-side"]
    assert "only lasse can win" in note.message


def test_when_the_score_does_not_tell_the_wins_line_does() -> None:
    # A forfeit in the first game of a 7-point match: either side could win 2 points without the match.
    text = (MAT / "galaxy-bare-forfeit.mat").read_text(encoding="utf-8").replace("3 point match", "7 point match")
    text = text.replace("Wins 2 point and the match", "Wins 2 point")
    match = next(parse_matches(text, path="m.mat"))
    last = match.games[-1].actions[-2:]
    assert [(int(a.player), a.kind) for a in last] == [(1, ActionKind.LOSS), (0, ActionKind.WIN)]
    [note] = [f for f in match.findings if f.code == "forfeit-side"]
    assert "the score does not tell which; read as the 'Wins' line says" in note.message


def test_a_glued_forfeit_line_counts_its_columns_from_its_move_number() -> None:
    match = next(parse_matches((MAT / "galaxy-glued-forfeit-one-line.mat").read_text(encoding="utf-8"), path="m.mat"))
    last = match.games[-1].actions[-3:]
    assert [(a.kind, int(a.player)) for a in last] == [(ActionKind.ROLL, 0), (ActionKind.LOSS, 0), (ActionKind.WIN, 1)]
    assert last[2].match_won
    assert [f.code for f in match.findings] == ["glued-line"]


def _game_results(path: Path) -> dict[str, list[tuple[str | None, int | None]]]:
    """Every game's (winner, points) by the library calls behind check, convert (JSON, then read back) and report."""
    from tabla_cli.convert import convert_source
    from tabla_cli.reader import read_path_matches
    from tabla_cli.replay import replay_match
    from tabla_cli.reports import build_frames

    checked = []
    for match in read_path_matches(path):
        result = replay_match(match)
        assert "wrong-winner" not in [f.code for f in result.findings], path
        checked += [(None if g.winner is None else match.players[g.winner], g.points) for g in result.games]
    conversion = convert_source(str(path), "json")
    assert conversion.output is not None, [f.render() for f in conversion.findings]
    converted = []
    for match in json.loads(conversion.output)["matches"]:
        converted += [
            (
                None if g["outcome"]["winner"] is None else match["players"][g["outcome"]["winner"]],
                g["outcome"]["points"],
            )
            for g in match["games"]
        ]
    games = build_frames([path]).games
    reported = [
        (None if w is pd.NA or w is None else str(w), None if p is pd.NA else int(p))
        for w, p in zip(games["winner"], games["points_written"])
    ]
    return {"check": checked, "convert": converted, "report": reported}


def test_every_corpus_forfeit_has_one_winner_in_every_command() -> None:
    files = [p for p in corpus_files("mat") if "Losses" in p.read_text(encoding="utf-8", errors="replace")]
    assert len(files) >= 30
    for path in files:
        seen = _game_results(path)
        assert seen["check"] == seen["convert"] == seen["report"], path
