"""Game results: scoring rule sets (1-2-4-8), forfeits, capped final wins, one-game sessions, verified points."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from click.testing import CliRunner

from tabla_cli.board import Player, Position
from tabla_cli.cli import main
from tabla_cli.errors import UnknownScoringError
from tabla_cli.findings import Severity
from tabla_cli.formats.mat import parse_matches
from tabla_cli.model import Action, ActionKind, Match
from tabla_cli.reader import read_match
from tabla_cli.replay import MatchResult, replay_match, session_kind
from tabla_cli.reports import frames_from_text, player_summary
from tabla_cli.scoring import apply_scoring, find_scoring
from tabla_cli.writers.json import format_json
from tabla_cli.writers.mat import format_mats

from helpers import CORPUS, EXAMPLES

EXAMPLE = EXAMPLES / "tabla-1248.mat"
GALAXY = CORPUS / "mat"


def codes(result: MatchResult, severity: Severity | None = None) -> list[str]:
    return [f.code for f in result.findings if severity is None or f.severity is severity]


def without_header(text: str, key: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True) if f"[{key} " not in line)


# --- 1-2-4-8 ----------------------------------------------------------------------------


def bear_off(
    loser: dict[int, int],
    points: int,
    header: str = '; [Scoring "1-2-4-8"]\n; [Jacoby "Off"]\n',
    cube: str = "",
    losses: bool = False,
) -> MatchResult:
    """A money game whose first roll bears off player 0's last checker against ``loser``'s checkers."""
    head = header + " 0 point match\n\n Game 1\n Ann : 0                        Bob : 0\n"
    (match,) = parse_matches(head + "  1) 21: 1/0\n", path="t.mat")
    game = match.games[0]
    game.start = Position.from_points({1: 1}, loser)
    if cube:
        game.start_cube = (int(cube), Player.ZERO)
    where = game.actions[0].location
    if losses:
        game.actions.append(Action(ActionKind.LOSS, Player.ONE, where, value=points))
    game.actions.append(Action(ActionKind.WIN, Player.ZERO, where._replace(line=where.line + 1), value=points))
    return replay_match(match)


@pytest.mark.parametrize(
    ("loser", "level", "name"),
    [
        ({6: 5, 5: 5, 4: 4}, 1, "single"),  # one checker off
        ({6: 5, 5: 5, 4: 5}, 2, "gammon"),  # all home, none off
        ({6: 5, 5: 5, 4: 4, 13: 1}, 4, "gammon-outside"),
        ({6: 5, 5: 5, 4: 4, 25: 1}, 8, "gammon-bar"),  # on the bar
        ({6: 5, 5: 5, 4: 4, 24: 1}, 4, "gammon-outside"),  # in the winner's home: still 4, not 8
    ],
)
def test_1248_levels_of_a_bear_off(loser: dict[int, int], level: int, name: str) -> None:
    result = bear_off(loser, level)
    assert codes(result) == []
    game = result.games[0]
    assert (game.multiplier, game.result, game.verified_points, result.scoring) == (level, name, level, "1-2-4-8")
    assert codes(bear_off(loser, level * 2, cube="2")) == []
    wrong = bear_off(loser, 3 if level != 3 else 2)
    assert codes(wrong, Severity.ERROR) == ["result-mismatch"]
    assert wrong.games[0].verified_points == level


def test_standard_scoring_without_the_header() -> None:
    result = bear_off({6: 5, 5: 5, 4: 4, 25: 1}, 8, header='; [Jacoby "Off"]\n')
    assert codes(result, Severity.ERROR) == ["result-mismatch"]
    assert (result.games[0].result, result.games[0].verified_points) == ("backgammon", 3)


def test_a_resignation_may_offer_any_1248_level() -> None:
    body = "  1) 31: 8/5 6/5                 42:\n      Wins {} points\n"
    for points, level in ((1, 1), (2, 2), (4, 4), (8, 8)):
        (match,) = parse_matches(
            '; [Scoring "1-2-4-8"]\n 0 point match\n\n Game 1\n'
            " Ann : 0                        Bob : 0\n" + body.format(points),
            path="t.mat",
        )
        result = replay_match(match)
        assert codes(result) == [] and result.games[0].multiplier == level
    (match,) = parse_matches(
        " 0 point match\n\n Game 1\n Ann : 0                        Bob : 0\n" + body.format(4), path="t.mat"
    )
    assert codes(replay_match(match), Severity.ERROR) == ["result-mismatch"]


def test_scoring_names_and_the_option_over_the_header() -> None:
    assert find_scoring(" 1248 ").name == "1-2-4-8" and find_scoring("STANDARD").name == "standard"
    with pytest.raises(UnknownScoringError, match="known: standard, 1-2-4-8"):
        find_scoring("1-2-3-4")
    (match,) = parse_matches('; [Scoring "1-2-4-8"]\n 1 point match\n\n Game 1\n Ann : 0   Bob : 0\n')
    assert match.rules.scoring == "1-2-4-8"
    assert apply_scoring(match, "standard").rules.scoring == "standard"
    assert apply_scoring(match, None).rules.scoring == "standard"


def test_an_unknown_scoring_header_is_a_warning() -> None:
    (match,) = parse_matches(
        '; [Scoring "2-4-6"]\n 0 point match\n\n Game 1\n Ann : 0   Bob : 0\n  1) 31: 8/5 6/5\n', path="t.mat"
    )
    assert codes(replay_match(match)) == ["unknown-scoring"]


def test_the_example_checks_clean_and_reports_the_four_levels() -> None:
    result = replay_match(read_match(EXAMPLE))
    assert codes(result) == []
    assert [g.result for g in result.games] == ["single", "gammon", "gammon-outside", "gammon-bar"]
    assert any(g.cube > 1 for g in result.games)
    frames = frames_from_text(EXAMPLE.read_text(encoding="utf-8"), str(EXAMPLE))
    assert frames.matches["scoring"].tolist() == ["1-2-4-8"]
    assert frames.games["result"].astype(str).tolist() == ["single", "gammon", "gammon-outside", "gammon-bar"]
    players = player_summary(frames).set_index("player")
    assert players[["gammons_outside_won", "gammons_bar_won"]].sum().tolist() == [1, 1]
    assert players["gammon_bar_rate_won"].notna().any()


def test_the_example_without_its_header_has_errors_at_4_and_8() -> None:
    text = without_header(EXAMPLE.read_text(encoding="utf-8"), "Scoring")
    (match,) = parse_matches(text, path="t.mat")
    result = replay_match(match)
    wrong = [f.game for f in result.findings if f.severity is Severity.ERROR]
    assert [f.code for f in result.findings if f.severity is Severity.ERROR] == ["result-mismatch"] * 2
    assert [result.games[n - 1].points for n in wrong] == [4, 16]
    assert "score-mismatch" not in codes(result)
    assert not codes(replay_match(apply_scoring(match, "1-2-4-8")))


@pytest.mark.parametrize("game", [1, 2, 3, 4])
def test_mutated_levels_of_the_example_are_errors(game: int) -> None:
    (match,) = parse_matches(EXAMPLE.read_text(encoding="utf-8"), path="t.mat")
    actions = match.games[game - 1].actions
    index = max(i for i, a in enumerate(actions) if a.kind is ActionKind.WIN)
    wrong = {1: 2, 2: 4, 4: 8, 8: 2}
    real = actions[index].value or 0
    cube = replay_match(match).games[game - 1].cube
    actions[index] = dataclasses.replace(actions[index], value=wrong[real // cube] * cube)
    found = [(f.game, f.code) for f in replay_match(match).findings if f.severity is Severity.ERROR]
    # the next score line then differs from the running score, which follows what is written
    assert [f for f in found if f[1] != "score-mismatch"] == [(game, "result-mismatch")]


def test_writers_keep_the_scoring_rule() -> None:
    match = read_match(EXAMPLE)
    for text, name in ((format_mats([(match, None)]), "m.mat"), (format_json([(match, None)]), "m.json")):
        (again,) = parse_matches(text, path=name) if name.endswith(".mat") else _json(text)
        assert again.rules.scoring == "1-2-4-8"
    (bare,) = parse_matches(without_header(EXAMPLE.read_text(encoding="utf-8"), "Scoring"), path="t.mat")
    written = format_mats([(apply_scoring(bare, "1-2-4-8"), None)])
    assert '; [Scoring "1-2-4-8"]' in written


def _json(text: str) -> list[Match]:
    from tabla_cli.formats.json import parse_matches as parse_json

    return list(parse_json(text, path="m.json"))


def test_the_scoring_option_on_the_commands(tmp_path: Path) -> None:
    bare = tmp_path / "bare.mat"
    bare.write_text(without_header(EXAMPLE.read_text(encoding="utf-8"), "Scoring"), encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(main, ["check", str(bare), "-j", "1"]).exit_code == 1
    assert runner.invoke(main, ["check", str(bare), "-j", "1", "--scoring", "1-2-4-8"]).exit_code == 0
    assert runner.invoke(main, ["check", str(EXAMPLE), "-j", "1", "--scoring", "standard"]).exit_code == 1
    unknown = runner.invoke(main, ["check", str(bare), "--scoring", "1-2-3-4"])
    assert unknown.exit_code == 2 and "unknown scoring" in unknown.stderr
    done = runner.invoke(main, ["convert", str(bare), "-o", "-", "--to", "json", "--scoring", "1248", "-q"])
    assert done.exit_code == 0 and '"scoring": "1-2-4-8"' in done.stdout
    report = runner.invoke(
        main, ["report", str(bare), "--by", "game", "--format", "csv", "-q", "-j", "1", "--scoring", "1-2-4-8"]
    )
    assert report.exit_code == 0 and "gammon-bar" in report.stdout
    assert runner.invoke(main, ["report", str(bare), "-q", "--scoring", "x"]).exit_code == 2


# --- the cube in the games traditionally played without one ----------------------------


TAPA = (
    " 0 point match\n\n Game 1\n Ann : 0                        Bob : 0\n  1) 64: 24/14                 Doubles => 2\n"
)


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ('; [Variation "Tapa"]\n', ["untraditional-cube"]),
        ('; [Variation "Gulbara"]\n', ["untraditional-cube"]),
        ('; [Variation "Tapa"]\n; [Cube "on"]\n', []),
        ('; [Variation "Tapa"]\n; [CubeLimit "64"]\n', []),
        ('; [Variation "Tapa"]\n; [Cube "off"]\n', ["illegal-double"]),
        ("", []),
    ],
)
def test_a_cube_in_tapa_is_a_warning(header: str, expected: list[str]) -> None:
    (match,) = parse_matches(header + TAPA, path="t.mat")
    found = [c for c in codes(replay_match(match)) if c not in ("unanswered-double", "missing-result")]
    assert found == expected


def test_a_cube_in_tapa_fails_check_only_with_strict(tmp_path: Path) -> None:
    path = tmp_path / "tapa.mat"
    path.write_text(
        '; [Variation "Tapa"]\n' + TAPA + "  2)  Takes                      31: 24/21 24/23\n", encoding="utf-8"
    )
    runner = CliRunner()
    plain = runner.invoke(main, ["check", str(path), "-j", "1"])
    assert plain.exit_code == 0 and "warning[untraditional-cube]" in plain.stderr
    assert runner.invoke(main, ["check", str(path), "-j", "1", "--strict"]).exit_code == 1


# --- what real sites write ------------------------------------------------------------


def galaxy(name: str) -> MatchResult:
    return replay_match(read_match(GALAXY / name))


def test_a_galaxy_losses_line_is_a_forfeit() -> None:
    result = galaxy("bglab-lasse-match2586873.txt")  # forfeited after one roll: 'Losses 3 point'
    game = result.games[0]
    assert (game.ended_by, game.result, game.points, game.verified_points) == ("forfeit", None, 3, 3)
    assert codes(result) == ["forfeit"]
    frames = frames_from_text((GALAXY / "bglab-lasse-match2586873.txt").read_text(encoding="utf-8"))
    assert frames.games["ended_by"].astype(str).tolist() == ["forfeit"]
    assert player_summary(frames)["backgammons_won"].sum() == 0


def test_a_losses_line_after_a_bear_off_only_repeats_the_result() -> None:
    result = bear_off({6: 5, 5: 5, 4: 4, 13: 1}, 4, losses=True)
    assert codes(result) == [] and (result.games[0].ended_by, result.games[0].result) == ("bearoff", "gammon-outside")


def test_a_forfeit_in_the_middle_of_a_match() -> None:
    text = (
        " 3 point match\n\n Game 1\n Ann : 0                        Bob : 0\n"
        "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
        "  2)  Losses 1 point              Wins 1 point\n"
    )
    (match,) = parse_matches(text, path="t.mat")
    result = replay_match(match)
    assert result.games[0].ended_by == "forfeit" and codes(result) == ["forfeit", "match-incomplete"]


def game_two(score: str, body: str, length: int = 3) -> MatchResult:
    head = (
        f" {length} point match\n\n Game 1\n Ann : 0                        Bob : 0\n"
        "  1) 31: 8/5 6/5                 Doubles => 2\n  2)  Drops\n                                 Wins 1 point\n\n"
        f" Game 2\n Ann : 0                        Bob : {score}\n"
    )
    (match,) = parse_matches(head + body, path="t.mat")
    return replay_match(match)


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        (2, []),
        (4, []),
        (6, []),
        (3, ["capped-win"]),
        (5, ["capped-win"]),
        (7, ["result-mismatch"]),
        (4016, ["result-mismatch"]),
    ],
)
def test_a_final_win_capped_at_the_match_length(points: int, expected: list[str]) -> None:
    # 0-1 in a 3-point match; Bob doubles, Ann takes and resigns on a 2-cube: Bob needs 2, the game is worth up to 6.
    body = (
        "  1) 31: 8/5 6/5                 Doubles => 2\n  2)  Takes                      42: 8/4 6/4\n"
        f"  3) 21:\n                                 Wins {points} points and the match\n"
    )
    result = game_two("1", body)
    assert codes(result) == expected
    game = result.games[1]
    assert game.verified_points == (points if expected != ["result-mismatch"] else None)


def test_garbage_points_are_never_summed() -> None:
    body = (
        "  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2) 21:\n"
        "                                 Wins 4016 points and the match\n"
    )  # a resignation at cube 1
    text = " 3 point match\n\n Game 1\n Ann : 0                        Bob : 0\n" + body
    frames = frames_from_text(text)
    assert frames.games["points_written"].tolist() == [4016]
    assert frames.games["points"].isna().all()
    assert player_summary(frames)["points_won"].sum() == 0
    assert frames.matches[["score0", "score1"]].values.tolist() == [[0, 4016]]


def test_one_game_sixteen_point_galaxy_files_are_sessions() -> None:
    files = [
        "bglab-lasse-match8061871.txt",
        "bglab-lasse-match8858177.txt",
        "bglab-lasse-match9809519.txt",
        "bglab-lasse-match8055573.txt",
    ]
    for name in files:
        result = galaxy(name)
        assert result.kind == "one-game" and codes(result) == [], name
    frames = frames_from_text((GALAXY / files[0]).read_text(encoding="utf-8"), files[0])
    assert frames.matches[["kind", "winner"]].values.tolist() == [["one-game", "lasse"]]
    assert galaxy("bglab-lasse-match8219631.txt").kind == "match"  # an 8-point match of one game stays one


def test_a_centred_gammon_in_a_one_game_session_may_score_one() -> None:
    text = (GALAXY / "bglab-lasse-match8061871.txt").read_text(encoding="utf-8")
    (match,) = parse_matches(text, path="t.mat")
    assert session_kind(match) == "one-game"
    game = match.games[0]
    cube = [i for i, a in enumerate(game.actions) if a.kind in (ActionKind.DOUBLE, ActionKind.TAKE)]
    for i in reversed(cube):
        del game.actions[i]
    win = max(i for i, a in enumerate(game.actions) if a.kind is ActionKind.WIN)
    for points in (1, 2):
        game.actions[win] = dataclasses.replace(game.actions[win], value=points)
        assert codes(replay_match(match), Severity.ERROR) == []
    game.actions[win] = dataclasses.replace(game.actions[win], value=3)
    assert codes(replay_match(match), Severity.ERROR) == ["result-mismatch"]


def test_a_game_of_a_match_exported_alone_is_not_an_incomplete_match() -> None:
    result = replay_match(read_match(CORPUS / "txt" / "bglab-lasse-1-ply-match1032699_002.txt"))
    assert "match-incomplete" not in codes(result)
    first = replay_match(read_match(CORPUS / "txt" / "bglab-lasse-0-ply-match1788245.txt"))
    assert codes(first) == ["match-incomplete"]
