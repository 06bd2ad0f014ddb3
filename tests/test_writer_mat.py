"""Tests for tabla_cli.writers.mat: a match written as a .mat transcript in GNU Backgammon's layout.

The central properties: read -> write .mat -> read gives an equal model in
everything the .mat reader reads, for every corpus transcript (.mat, .sgf,
text exports) and for random legal matches; writing the written text again
gives the same bytes (the canonical form is a fixed point).
"""

from __future__ import annotations

import dataclasses
import io
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_writer_sgf import random_match

from tabla_cli.board import Player, Position, Step
from tabla_cli.errors import Location
from tabla_cli.formats import mat
from tabla_cli.model import Action, ActionKind, Game, Match, RuleSet
from tabla_cli.reader import read_path_matches, read_text_matches
from tabla_cli.replay import replay_match
from tabla_cli.writers.mat import canonical_play, format_mat, format_mats, plain_play, write_mat

from helpers import CORPUS, DATA, corpus_files
from match_compare import Carried, match_differences

ZERO, ONE = Player.ZERO, Player.ONE
ROLL, DOUBLE, TAKE, DROP, BEAVER, RACCOON, RESIGN, WIN, LOSS = (
    ActionKind.ROLL,
    ActionKind.DOUBLE,
    ActionKind.TAKE,
    ActionKind.DROP,
    ActionKind.BEAVER,
    ActionKind.RACCOON,
    ActionKind.RESIGN,
    ActionKind.WIN,
    ActionKind.LOSS,
)
SAME_MATCH = "gnubg-bglab-lasse-match8640511"
HEADER_LINE = re.compile(r'\[[ \t]*(?P<key>[^"\[\]]*[^"\[\] \t])[ \t]*"(?P<value>.*)"[ \t]*\]')
TRANSCRIPTS = [p for folder in ("mat", "sgf", "txt") for p in corpus_files(folder)]


def read_one(text: str, path: str = "w.mat") -> Match:
    matches = list(mat.parse_matches(text, path=path))
    assert len(matches) == 1
    return matches[0]


def mat_view(match: Match) -> tuple[Match, Carried]:
    """What reading ``match`` back from .mat gives, and what to compare.

    A comment line written ``[Key "value"]`` (the text export keeps gnubg's
    ``[ClockType ...]`` so) is read back as a header; headers the writer
    adds to say the rules come after the match's own. A set-up start is
    written as XG's ``Set Pos`` line, which the reader keeps as a comment.
    """
    headers = list(match.headers)
    comments = []
    for comment in match.comments:
        found = HEADER_LINE.fullmatch(comment)
        if found:
            headers.append((found["key"], found["value"]))
        else:
            comments.append(comment)
    expected = dataclasses.replace(match, headers=headers, comments=comments)
    carried = Carried(headers=[k for k, _ in headers], start=False)
    return expected, carried


# --- layout ------------------------------------------------------------------------


@pytest.mark.parametrize("case", ["spec-3pt-gnubg", "spec-money-xg"])
def test_golden(golden: Callable[[Path, str], None], case: str) -> None:
    """The spec's transcripts (mat-format.md §9) in the writer's canonical form."""
    match = mat.read_match(DATA / "mat" / f"{case}.mat")
    written = format_mat(match)
    golden(DATA / "mat" / f"{case}.expected.mat", written)
    assert match_differences(match, read_one(written)) == []


def test_layout_is_gnubgs() -> None:
    """The §9.1 game 1 as gnubg lays it out: columns 5 and 33, cube words indented by one."""
    text = (DATA / "mat" / "spec-3pt-gnubg.expected.mat").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[5:14] == [
        " 3 point match",
        "",
        " Game 1",
        " Petar : 0                      Maria : 0",
        "  1) 31: 8/5 6/5                 62: 24/18 13/11",
        "  2) 64: 13/9 13/7*              55:",
        "  3) 42: 9/5 7/5                 64: 25/21 13/7",
        "  4)  Doubles => 2                Drops",
        "      Wins 1 point",
    ]
    assert "                                  Wins 1 point" in lines
    assert lines[-2:] == ["      Wins 2 points and the match", ""] and text.endswith("\n\n")
    assert all(line == line.rstrip() for line in lines)


def test_write_mat_and_crlf() -> None:
    match = mat.read_match(DATA / "mat" / "spec-3pt-gnubg.mat")
    handle = io.StringIO()
    write_mat(match, handle)
    assert handle.getvalue() == format_mat(match)
    crlf = format_mat(match, newline="\r\n")
    assert crlf.replace("\r\n", "\n") == handle.getvalue()
    assert match_differences(match, read_one(crlf)) == []


def test_several_matches() -> None:
    first = mat.read_match(DATA / "mat" / "spec-3pt-gnubg.mat")
    second = mat.read_match(DATA / "mat" / "spec-money-xg.mat")
    text = format_mats([(first, None), (second, None)])
    back = list(mat.parse_matches(text, path="two.mat"))
    assert [match_differences(a, b) for a, b in zip([first, second], back)] == [[], []]


def test_long_names_keep_a_space() -> None:
    match = _match([_roll(ZERO, (3, 1), "8/5 6/5")])
    match.players = ("A" * 40, "B")
    text = format_mat(match)
    assert f" {'A' * 40} : 0 B : 0\n" in text
    assert read_one(text).players == match.players


# --- actions ------------------------------------------------------------------------


def _match(actions: list[Action], length: int = 0, **match_fields: object) -> Match:
    """A match of one game; a money session allows beavers, as a money .mat without a Beaver header does."""
    match_fields.setdefault("rules", RuleSet(beaver=not length))
    game = Game(1, (0, 0), actions)
    return Match(("Ann", "Bob"), length, [game], **match_fields)  # type: ignore[arg-type]


def _roll(player: Player, dice: tuple[int, int], text: str, **extra: object) -> Action:
    return Action(ROLL, player, Location("m"), dice=dice, play_text=text, **extra)  # type: ignore[arg-type]


def _act(kind: ActionKind, player: Player, value: int | None = None, **extra: object) -> Action:
    return Action(kind, player, Location("m"), value=value, **extra)  # type: ignore[arg-type]


def _body(match: Match) -> list[str]:
    """The move and result lines of the first game."""
    lines = format_mat(match).splitlines()
    return lines[lines.index(" Game 1") + 2 : -1]


def test_beaver_raccoon_resigned_roll_and_losses() -> None:
    match = _match(
        [
            _roll(ZERO, (3, 1), "8/5 6/5"),
            _act(DOUBLE, ONE, 2),
            _act(BEAVER, ZERO, 4),
            _act(RACCOON, ONE, 8),
            _roll(ONE, (6, 2), "24/18 13/11"),
            _roll(ZERO, (5, 5), "", resigned=True),
            _act(LOSS, ZERO, 8),
            _act(WIN, ONE, 8),
        ],
        rules=RuleSet(beaver=True),
    )
    assert _body(match) == [
        "  1) 31: 8/5 6/5                  Doubles => 2",
        "  2)  Beavers => 4                Raccoons => 8",
        "  3)                             62: 24/18 13/11",
        "  4) 55: ????",
        "      Losses 8 points             Wins 8 points",
    ]
    back = read_one(format_mat(match))
    assert match_differences(match, back, Carried(headers=[])) == []
    assert back.headers == [] and back.rules == match.rules  # a money .mat allows beavers unless it says not
    assert [(a.kind, a.player, a.value, a.resigned) for a in back.games[0].actions] == [
        (a.kind, a.player, a.value, a.resigned) for a in match.games[0].actions
    ]


def test_dance_resigns_and_the_match() -> None:
    match = _match(
        [
            _roll(ZERO, (6, 4), "24/18 13/9"),
            _roll(ONE, (6, 6), ""),
            _roll(ZERO, (2, 1), "13/11 6/5"),
            _act(RESIGN, ONE),
            _act(WIN, ZERO, 1),
        ],
        length=1,
    )
    assert _body(match) == [
        "  1) 64: 24/18 13/9              66:",
        "  2) 21: 13/11 6/5                Resigns",
        "      Wins 1 point and the match",
    ]
    assert match_differences(match, read_one(format_mat(match))) == []


def test_drop_by_the_left_player_puts_the_win_beside_it() -> None:
    match = _match([_roll(ONE, (5, 2), "13/8 13/11"), _act(DOUBLE, ZERO, 2), _act(DROP, ONE), _act(WIN, ZERO, 1)], 5)
    assert _body(match) == [
        "  1)                             52: 13/11 13/8",
        "  2)  Doubles => 2                Drops",
        "      Wins 1 point",
    ]
    match = _match([_roll(ZERO, (5, 2), "13/8 13/11"), _act(DOUBLE, ONE, 2), _act(DROP, ZERO), _act(WIN, ONE, 1)], 5)
    assert _body(match)[-1] == "  2)  Drops                       Wins 1 point"


def test_illegal_play_is_written_as_written() -> None:
    match = _match([_roll(ZERO, (3, 1), "13/7  8/7*"), _roll(ONE, (6, 2), "24/18 13/11")])
    assert _body(match)[0] == "  1) " + f"{'31: 13/7 8/7*':<27} 62: 24/18 13/11"
    back = read_one(format_mat(match))
    assert back.games[0].actions[0].play_text == "13/7 8/7*"
    assert match_differences(match, back) == []


def test_headers_say_the_rules_and_variant() -> None:
    match = _match(
        [_roll(ZERO, (3, 1), "8/5 6/5")],
        rules=RuleSet(crawford=False, jacoby=True, beaver=False, cube_limit=64),
        variant="nackgammon",
    )
    match.games[0].actions = [_roll(ZERO, (3, 1), "8/5 6/5")]
    match.headers = [("Site", "Club"), ("jacoby", "Off")]
    text = format_mat(match)
    assert text.startswith(
        '; [Site "Club"]\n; [jacoby "On"]\n; [Variation "NackGammon"]\n'
        '; [Crawford "Off"]\n; [Beaver "Off"]\n; [CubeLimit "64"]\n\n 0 point match\n'
    )
    back = read_one(text)
    # The headers written say the Jacoby rule and a cube limit: the rules read back say they were said.
    said = dataclasses.replace(match.rules, jacoby_said=True, cube_said=True)
    assert (back.rules, back.variant) == (said, match.variant)
    assert match_differences(match, back, Carried(headers=["Site"])) == []


@pytest.mark.parametrize("crawford_game", [False, True])
def test_a_transcript_that_starts_after_the_crawford_game_says_the_rule_is_off(crawford_game: bool) -> None:
    """A .mat names no Crawford game: one that starts after it (the replay says so) is written with the rule off,
    so the double the trailer makes stays legal when read back; a Crawford game keeps the rule."""
    cube = [_act(ActionKind.DOUBLE, ONE), _act(ActionKind.DROP, ZERO), _act(ActionKind.WIN, ONE, 1)]
    match = _match([_roll(ZERO, (3, 1), "8/5 6/5"), *cube], 7)
    match.games[0].number, match.games[0].score, match.games[0].crawford = 5, (6, 3), crawford_game
    text = format_mat(match)
    assert text.startswith(" 7 point match") if crawford_game else text.startswith('; [Crawford "Off"]\n\n')
    back = read_one(text)
    assert back.rules.crawford is crawford_game
    findings = replay_match(back).findings
    assert [f.code for f in findings] == (["crawford-double"] if crawford_game else [])


def test_ratings_and_comments() -> None:
    match = _match([_roll(ZERO, (3, 1), "8/5 6/5")], ratings=("1780", "1.5k"), comments=["one", "two\nthree"])
    text = format_mat(match)
    assert "; one\n; two\n; three\n" in text and " Ann,1780 : 0" in text
    back = read_one(text)
    assert back.ratings == ("1780", None)  # the score line holds digits only
    assert back.comments == ["one", "two", "three"]


def test_set_up_start_is_xgs_set_pos() -> None:
    start = Position.from_points({1: 2, 2: 2, 6: 1}, {1: 1, 25: 1})
    match = _match([_roll(ONE, (6, 1), "25/19 1/0")])
    match.games[0].start = start
    match.games[0].start_cube = (2, ONE)
    lines = format_mat(match).splitlines()
    assert lines[lines.index(" Game 1") + 2] == "; Set Pos=-A-----------------a---bbA/1"
    back = read_one(format_mat(match))
    # X (uppercase) is player 1, the right column: its checker on its 1-point and on the bar;
    # player 0's checkers on its 1, 2 and 6 points are X's 24, 23 and 19. Cube 2^1, player 1's.
    assert back.comments == ["Set Pos=-A-----------------a---bbA/1"]


def test_canonical_play() -> None:
    start = Position.start()
    played = (Step(6, 5), Step(8, 5))
    assert canonical_play(start, played) == (Step(8, 5), Step(6, 5))
    # The hit belongs to the checker that lands first in the written order.
    blot = Position.from_points({13: 5, 8: 3, 6: 5, 24: 2}, {18: 1, 19: 5, 17: 3, 12: 5, 1: 1})
    assert blot.opponent[18] == 1 and blot.mover[7] == 0
    play = (Step(8, 7, hit=True), Step(13, 7))
    assert canonical_play(blot, play) == (Step(13, 7, hit=True), Step(8, 7))
    assert plain_play(blot, play) == "13/7* 8/7"
    assert blot.apply(canonical_play(blot, play)) == blot.apply(play)


# --- the corpus ---------------------------------------------------------------------


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_corpus_round_trip_and_fixed_point(path: Path) -> None:
    for match in read_path_matches(path):
        first = format_mat(match)
        back = read_one(first)
        if path.parent.name == "mat":
            assert match_differences(match, back) == []
        else:
            expected, carried = mat_view(match)
            assert match_differences(expected, back, carried) == []
            assert back.headers[: len(expected.headers)] == expected.headers
        assert format_mat(back) == first
        codes = sorted(f.code for f in replay_match(match).findings)
        assert sorted(f.code for f in replay_match(back).findings) == codes


def test_corpus_is_present() -> None:
    assert len(TRANSCRIPTS) > 100


def test_same_match_from_mat_and_sgf() -> None:
    """The corpus match saved by gnubg as .mat and as .sgf: one model, one .mat text."""
    from_mat = mat.read_match(CORPUS / "mat" / f"{SAME_MATCH}.mat")
    (from_sgf,) = read_path_matches(CORPUS / "sgf" / f"{SAME_MATCH}.sgf")
    # gnubg writes the same headers in another order in each format.
    from_sgf = dataclasses.replace(from_sgf, headers=sorted(from_sgf.headers, key=from_mat.headers.index))
    assert match_differences(from_mat, from_sgf) == []
    assert format_mat(from_mat) == format_mat(from_sgf)


def test_layout_equals_gnubgs_own_export() -> None:
    """gnubg's .mat of the corpus match, up to what §10 changes: step order and 'and the match'."""
    path = CORPUS / "mat" / f"{SAME_MATCH}.mat"
    ours = format_mat(mat.read_match(path)).splitlines()
    theirs = [line.rstrip() for line in path.read_text(encoding="utf-8").splitlines()]

    def steps(line: str) -> list[str]:
        return sorted(re.sub(r"\*", "", line).split())

    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert a == b or steps(a.replace(" and the match", "")) == steps(b), (a, b)


# --- random legal matches -------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([0, 1, 3, 5, 7]), st.integers(1, 4))
def test_random_legal_matches_round_trip(seed: int, length: int, games: int) -> None:
    match = random_match(seed, length, games)
    text = format_mat(match)
    back = read_one(text)
    assert match_differences(match, back, Carried(headers=[])) == []
    assert format_mat(back) == text
    assert [f.code for f in replay_match(back).findings] == [f.code for f in replay_match(match).findings]


def test_reader_detects_written_mat() -> None:
    match = mat.read_match(DATA / "mat" / "spec-money-xg.mat")
    (back,) = read_text_matches(format_mat(match), "x")
    assert back.format == "mat" and match_differences(match, back) == []
