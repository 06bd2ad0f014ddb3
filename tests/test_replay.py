from __future__ import annotations

import csv
import dataclasses
import random

import pytest

from tabla_cli.board import BAR, OFF, Player, Position, apply_segments, legal_plays
from tabla_cli.findings import CODES, Severity
from tabla_cli.formats.mat import parse_matches
from tabla_cli.model import Action, ActionKind, Match
from tabla_cli.reader import read_match, read_path_matches
from tabla_cli.replay import replay_match

import helpers
from helpers import CORPUS, EXAMPLES, corpus_files, replayed_decisions

MAT_FILES = corpus_files("mat")


def errors(match: Match) -> list[tuple[int, str]]:
    return [(f.location.line, f.code) for f in replay_match(match).findings if f.severity is Severity.ERROR]


def test_examples_check_clean() -> None:
    for path in sorted(EXAMPLES.glob("*.mat")):
        result = replay_match(read_match(path))
        assert [f.render() for f in result.findings] == []


def test_spec_three_point_match_results() -> None:
    result = replay_match(read_match(EXAMPLES / "three-point-match.mat"))
    games = [(g.score, g.crawford, g.winner, g.points, g.ended_by) for g in result.games]
    assert games == [
        ((0, 0), False, Player.ZERO, 1, "drop"),
        ((1, 0), False, Player.ZERO, 1, "drop"),
        ((2, 0), True, Player.ONE, 1, "resign"),
        ((2, 1), False, Player.ZERO, 2, "resign"),
    ]
    assert result.final_score == (4, 1)
    assert result.games[3].cube == 2 and result.games[3].cube_owner == Player.ZERO


def test_spec_money_session_beaver() -> None:
    result = replay_match(read_match(EXAMPLES / "money-session.mat"))
    first, second = result.games
    assert (first.cube, first.cube_owner, first.winner, first.points) == (4, Player.ZERO, Player.ZERO, 4)
    assert (second.winner, second.points, second.ended_by) == (Player.ONE, 1, "drop")


def test_corpus_errors_are_exactly_the_expected_findings() -> None:
    corpus = CORPUS / "mat"
    with open(CORPUS / "EXPECTED-FINDINGS.csv", newline="", encoding="utf-8") as handle:
        expected = sorted(
            (row["file"], int(row["line"])) for row in csv.DictReader(handle) if row["severity"] == "error"
        )
    found = []
    for path in sorted(corpus.iterdir()):
        for match in read_path_matches(path):
            for finding in replay_match(match).findings:
                if finding.severity is Severity.ERROR:
                    found.append((f"mat/{path.name}", finding.location.line))
    assert sorted(found) == expected


def test_the_corpus_illegal_play_is_explained() -> None:
    path = CORPUS / "mat" / "gammonview-5nqfGw9bWG3deTaU.mat"
    (finding,) = [f for f in replay_match(read_match(path)).findings if f.severity is Severity.ERROR]
    assert finding.code == "illegal-play"
    assert (finding.location.line, finding.game, finding.move, finding.dice) == (25, 1, 11, (1, 3))
    assert "'14/10 13/12' moves 4 + 1 = 5 pips, but a 1-3 moves 4 (1 and 3)" in finding.message
    # the nearest legal plays first: one checker moved differently from what is written
    assert finding.legal[:2] == ("14/10", "14/11 13/12")
    assert finding.position_id and finding.match_id and finding.legal
    assert Position.from_id(finding.position_id).mover[14] >= 1


def test_every_code_is_documented_in_the_findings_page() -> None:
    page = (helpers.ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
    for code, (severity, meaning) in CODES.items():
        assert f"| `{code}` | {severity.value} | {meaning} |" in page


# --- small transcripts --------------------------------------------------------

HEAD = " 3 point match\n\n Game 1\n Ann : 0                        Bob : 0\n"


def check(body: str, head: str = HEAD) -> list[tuple[int, str]]:
    (match,) = parse_matches(head + body, path="t.mat")
    return errors(match)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("  1) 33: 8/5 8/5 6/3 6/3\n", [(5, "opening-double")]),
        ("  1) 31: 8/5 6/5\n  2) 42: 8/4 6/4\n", [(6, "wrong-turn")]),
        (
            "  1) 31: 8/5 6/5                 Doubles => 2\n  2)  Takes                      42: 8/4 6/4\n"
            "  3) 31: 13/10 6/5               Doubles => 4\n",
            [(7, "illegal-double")],
        ),
        (
            "  1) 31: 8/5 6/5                 Doubles => 4\n  2)  Drops\n                                 Wins 1 point\n",
            [(5, "cube-value")],
        ),
        ("  1) 31: 8/5 6/5                 Takes\n", [(5, "unexpected-answer")]),
        (
            "  1) 31: 8/5 6/5                 Doubles => 2\n  2)  Drops\n                                 Wins 2 points\n",
            [(7, "result-mismatch")],
        ),
        ("  1) 31: 8/5 6/5                 Doubles => 2\n  2)  Drops\n      Wins 1 point\n", [(7, "wrong-winner")]),
        ("  1) 31: 8/5 6/5                 Beavers => 4\n", [(5, "unexpected-answer")]),
        ("  1) 31: 8/5 6/5                 42: 8/4\n", [(5, "illegal-play")]),
        ("  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2) 21:\n", [(6, "illegal-play")]),
        ("  1) 31: 8/5 6/5                 42: 8/4 6/4\n      Wins 1 point\n", []),
    ],
)
def test_rule_violations(body: str, expected: list[tuple[int, str]]) -> None:
    assert check(body) == expected


def test_crawford_double_and_score_lines() -> None:
    text = (
        " 3 point match\n\n Game 1\n Ann : 0                        Bob : 0\n"
        "  1) 31: 8/5 6/5                 Doubles => 2\n  2)  Drops\n      Wins 1 point\n\n"
        " Game 2\n Ann : 1                        Bob : 0\n"
        "  1) 31: 8/5 6/5                 Doubles => 2\n  2)  Drops\n      Wins 1 point\n\n"
        " Game 3\n Ann : 2                        Bob : 0\n"
        "  1) 31: 8/5 6/5                 Doubles => 2\n  2)  Drops\n      Wins 1 point\n\n"
        " Game 4\n Ann : 3                        Bob : 1\n"
        "  1) 31: 8/5 6/5\n"
    )
    (match,) = parse_matches(text, path="t.mat")
    result = replay_match(match)
    codes = [(f.location.line, f.code) for f in result.findings]
    assert (17, "crawford-double") in codes
    assert (21, "score-mismatch") in codes
    assert any(c == "game-after-match" for _, c in codes)


def test_a_dance_followed_by_the_opponents_win_is_a_resignation() -> None:
    body = "  1) 31: 8/5 6/5                 42:\n      Wins 1 point\n"
    assert check(body) == []


# --- mutations of legal corpus games -----------------------------------------


def _clean_matches() -> list[Match]:
    out = []
    for path in MAT_FILES:
        for match in read_path_matches(path):
            if not any(f.severity is not Severity.NOTE for f in replay_match(match).findings):
                out.append(match)
    return out


def _mutations(position: Position, dice: tuple[int, int], play: tuple) -> list[tuple[str, tuple]]:
    """Illegal variants of a legal play: (kind, segments)."""
    me, opp = position.mover, position.opponent
    steps = [(s.src, s.dst, False) for s in play]
    pool = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    out: list[tuple[str, tuple]] = []
    if steps and steps[0][1] > 1:
        src, dst, _ = steps[0]
        out.append(("wrong die", ((src, dst - 1, False), *steps[1:])))
    empty = [p for p in range(24, 0, -1) if not me[p] and not opp[25 - p] and p - pool[0] > 0]
    if empty and steps:
        out.append(("wrong point", ((empty[0], empty[0] - pool[0], False), *steps[1:])))
    theirs = [p for p in range(24, 0, -1) if opp[25 - p] and p - pool[0] > 0]
    if theirs and steps:
        out.append(("wrong side", ((theirs[0], theirs[0] - pool[0], False), *steps[1:])))
    if len(steps) == len(pool):
        out.append(("under-play", tuple(steps[:-1])))
        last = steps[-1]
        if last[1] - pool[-1] > 0:
            out.append(("over-play", (*steps, (last[1], last[1] - pool[-1], False))))
    outside = any(me[7:BAR])
    for i, (src, dst, _) in enumerate(steps):
        die = src - dst
        if outside and die <= 6 and me[die] and src != BAR:
            out.append(("bear-off outside home", (*steps[:i], (die, OFF, False), *steps[i + 1 :])))
            break
    if me[BAR] and steps and steps[0][0] == BAR:
        die = BAR - steps[0][1]
        movable = [p for p in range(24, 0, -1) if me[p] and p - die > 0 and opp[25 - (p - die)] < 2]
        if movable:
            out.append(("move while on the bar", ((movable[0], movable[0] - die, False), *steps[1:])))
    legal = legal_plays(position, dice)

    def is_legal_somehow(segs: tuple) -> bool:
        ordered = tuple(sorted(segs, key=lambda s: -s[0]))
        return apply_segments(position, segs) in legal or apply_segments(position, ordered) in legal

    return [(kind, segs) for kind, segs in out if not is_legal_somehow(segs)]


def _truncated(match: Match, game_index: int, action_index: int, action: Action) -> Match:
    """The match with one action replaced and the rest of that game's play cut, results kept."""
    games = list(match.games)
    game = games[game_index]
    kept = (
        game.actions[:action_index]
        + [action]
        + [a for a in game.actions[action_index + 1 :] if a.kind in (ActionKind.WIN, ActionKind.LOSS)]
    )
    games[game_index] = dataclasses.replace(game, actions=kept)
    return dataclasses.replace(match, games=games)


def _format(segments: tuple) -> str:
    return " ".join(f"{s}/{d}" for s, d, _ in segments)


@pytest.mark.slow
def test_mutated_plays_are_caught_at_their_line() -> None:
    rng = random.Random(7)
    kinds: dict[str, int] = {}
    for match in _clean_matches():
        _, games = replayed_decisions(match)
        for gi, (game, replayed) in enumerate(zip(match.games, games)):
            later_cube = [
                i
                for i, a in enumerate(game.actions)
                if a.kind in (ActionKind.TAKE, ActionKind.BEAVER, ActionKind.RACCOON)
            ]
            decisions = [d for d in replayed if d.play]
            rng.shuffle(decisions)
            for decision in decisions[:3]:
                ai = game.actions.index(decision.action)
                if later_cube and max(later_cube) > ai:
                    continue
                assert decision.action.dice is not None
                for kind, segments in _mutations(decision.position, decision.action.dice, decision.play):
                    mutated = dataclasses.replace(decision.action, play_text=_format(segments))
                    found = replay_match(_truncated(match, gi, ai, mutated)).findings
                    in_game = [f for f in found if f.game == game.number and f.severity is not Severity.NOTE]
                    assert [(f.location, f.code) for f in in_game] == [(decision.action.location, "illegal-play")], (
                        kind,
                        match.path,
                        decision.action,
                        mutated.play_text,
                    )
                    kinds[kind] = kinds.get(kind, 0) + 1
    assert set(kinds) == {
        "wrong die",
        "wrong point",
        "wrong side",
        "under-play",
        "over-play",
        "bear-off outside home",
        "move while on the bar",
    }, kinds
    assert sum(kinds.values()) > 300


@pytest.mark.slow
def test_mutated_cube_and_result_lines_are_caught() -> None:
    checked = 0
    for match in _clean_matches()[:40]:
        for gi, game in enumerate(match.games):
            for ai, action in enumerate(game.actions):
                if action.kind is ActionKind.WIN:
                    bad = dataclasses.replace(action, value=(action.value or 1) + 997)
                    code = "result-mismatch"
                elif action.kind is ActionKind.DOUBLE:
                    bad = dataclasses.replace(action, value=(action.value or 2) * 3)
                    code = "cube-value"
                else:
                    continue
                actions = game.actions[:ai] + [bad] + game.actions[ai + 1 :]
                games = list(match.games)
                games[gi] = dataclasses.replace(game, actions=actions)
                found = replay_match(dataclasses.replace(match, games=games)).findings
                in_game = [
                    (f.location, f.code) for f in found if f.game == game.number and f.severity is Severity.ERROR
                ]
                assert in_game == [(action.location, code)], (match.path, action)
                checked += 1
    assert checked > 50


def test_dice_out_of_range_are_reported() -> None:
    (match,) = parse_matches(HEAD + "  1) 31: 8/5 6/5                 42: 8/4 6/4\n", path="t.mat")
    game = match.games[0]
    bad = dataclasses.replace(game.actions[1], dice=(7, 2))
    game.actions[1] = bad
    codes = [(f.code, f.location.line) for f in replay_match(match).findings]
    assert ("invalid-dice", 5) in codes and ("unchecked", 5) in codes


@pytest.mark.parametrize(
    ("header", "points", "expected"),
    [
        ("", 1, []),
        ("", 2, []),
        ('; [Jacoby "On"]\n', 2, [(13, "result-mismatch")]),
        ('; [Jacoby "Off"]\n', 1, [(13, "result-mismatch")]),
    ],
)
def test_money_gammons_and_the_jacoby_rule(header: str, points: int, expected: list[tuple[int, str]]) -> None:
    # Player 0 bears off the last checkers with the opponent having none off: a gammon.
    head = header + " 0 point match\n\n Game 1\n Ann : 0                        Bob : 0\n"
    (match,) = parse_matches(head + "  1) 31: 8/5 6/5\n", path="t.mat")
    game = match.games[0]
    game.start = Position.from_points({1: 1}, {6: 5, 8: 5, 13: 5})
    game.actions[0] = dataclasses.replace(game.actions[0], dice=(2, 1), play_text="1/0")
    line = game.actions[0].location.line
    game.actions.append(Action(ActionKind.WIN, Player.ZERO, game.actions[0].location._replace(line=13), value=points))
    found = [(f.location.line, f.code) for f in replay_match(match).findings if f.severity is Severity.ERROR]
    assert found == expected, line


def test_after_an_unplayable_record_the_rest_of_the_game_is_skipped_quietly() -> None:
    body = (
        "  1) 31: 8/5 6/5                 42: 7/3 6/4\n"
        "  2) 42: 8/4 6/4                 31: 8/5 6/5\n"
        "  3) 64: 24/18 13/9              Doubles => 2\n"
        "  4)  Takes                      52: 13/8 13/11\n"
        "                                 Wins 2 points\n"
    )
    (match,) = parse_matches(HEAD + body, path="t.mat")
    codes = [(f.location.line, f.code) for f in replay_match(match).findings if f.severity is not Severity.NOTE]
    assert codes == [(5, "illegal-play")]
    notes = [(f.location.line, f.code) for f in replay_match(match).findings if f.code == "unchecked"]
    assert notes == [(5, "unchecked")]


def test_a_money_score_past_the_match_id_field_keeps_the_findings_without_a_match_id() -> None:
    """gnubg's Match ID holds scores up to 32,767: past that a finding has no Match ID, and the match is read."""
    from tabla_cli.check import check_text

    text = """ 0 point match

 Game 1
 Ann : 40000                         Bob : 0
  1) 31: 8/5 6/5                     42: 8/4 6/4
  2) 66: 24/12 24/18
"""
    report = check_text(text, "big.mat")
    codes = sorted(f.code for f in report.findings)
    assert "unreadable-file" not in codes and "illegal-play" in codes
    illegal = next(f for f in report.findings if f.code == "illegal-play")
    assert illegal.position_id and illegal.match_id is None
