"""Tests for tabla_cli.formats.mat: the Jellyfish ``.mat`` reader.

Expected values come from the files themselves (tests/data/corpus/mat) and
from two hand-checked transcripts in tests/data/mat/.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Lark

from tabla_cli.board import Player
from tabla_cli.errors import InputError, TablaError, TranscriptSyntaxError
from tabla_cli.formats import mat
from tabla_cli.model import Action, ActionKind, Match, RuleSet

import helpers
from helpers import CORPUS, corpus_files

REPO = helpers.ROOT
DATA = REPO / "tests" / "data" / "mat"
MAT_CORPUS = CORPUS / "mat"
ZERO, ONE = Player.ZERO, Player.ONE
ROLL, DOUBLE, TAKE, DROP = ActionKind.ROLL, ActionKind.DOUBLE, ActionKind.TAKE, ActionKind.DROP
BEAVER, RACCOON, RESIGN = ActionKind.BEAVER, ActionKind.RACCOON, ActionKind.RESIGN
WIN, LOSS = ActionKind.WIN, ActionKind.LOSS


def corpus_match(name: str) -> Match:
    return mat.read_match(MAT_CORPUS / name)


def parse(text: str, **kwargs: Any) -> list[Match]:
    return list(mat.parse_matches(text, path="t.mat", **kwargs))


def brief(action: Action) -> tuple[Any, ...]:
    """(kind, player, move number, dice, play, value), the usual fields."""
    return (
        action.kind,
        action.player,
        action.move_number,
        action.dice,
        action.play_text,
        action.value,
    )


def find(actions: list[Action], line: int) -> list[Action]:
    return [a for a in actions if a.location.line == line]


# --------------------------------------------------------------------------
# The grammar


def test_grammar_builds_strict() -> None:
    Lark.open(str(REPO / "grammars" / "mat.lark"), parser="lalr", strict=True)


def test_parser_is_built_once() -> None:
    assert mat._parser() is mat._parser()


@pytest.mark.parametrize("label", sorted(mat.ERROR_EXAMPLES))
def test_error_examples_are_labelled(label: str) -> None:
    for example in mat.ERROR_EXAMPLES[label]:
        with pytest.raises(TranscriptSyntaxError) as info:
            parse(example)
        assert info.value.message.startswith(mat._LABEL_MESSAGES[label]), (label, example)


# --------------------------------------------------------------------------
# The whole corpus


@pytest.mark.parametrize("path", corpus_files("mat"), ids=lambda p: p.name)
def test_corpus_file_reads(path: Path) -> None:
    matches = list(mat.read_matches(io.StringIO(mat.read_text(path)), path=str(path)))
    assert len(matches) == 1
    match = matches[0]
    assert match.format == "mat" and match.path == str(path)
    assert all(match.players) and match.games
    assert match.location.line >= 1
    for game in match.games:
        assert game.actions
        positions = [(a.location.line, a.location.column) for a in game.actions]
        assert positions == sorted(positions)
        assert all(a.location.path == str(path) and a.location.column >= 1 for a in game.actions)
        for action in game.actions:
            if action.kind is ROLL:
                assert action.dice is not None and action.play_text is not None
                assert action.play_text == action.play_text.strip()
            else:
                assert action.dice is None and action.play_text is None


def test_corpus_is_present() -> None:
    assert len(corpus_files("mat")) == 116


def test_corpus_looks_like_mat() -> None:
    for path in corpus_files("mat"):
        assert mat.looks_like_mat(mat.read_text(path)), path.name
    others = [p for folder in ("sgf", "txt", "ids") for p in sorted((CORPUS / folder).glob("*"))]
    for path in others:
        if path.is_file():
            assert not mat.looks_like_mat(mat.read_text(path)), path.name


# --------------------------------------------------------------------------
# Spot checks against the files


def test_galaxy_match() -> None:
    match = corpus_match("bglab-lasse-match10089897.txt")
    assert match.players == ("lasse", "euli")
    assert match.ratings == (None, None)
    assert match.length == 5
    assert [g.number for g in match.games] == [1, 2]
    assert [g.score for g in match.games] == [(0, 0), (2, 0)]
    assert match.headers[0] == ("Site", "BackgammonGalaxy")
    assert match.header("player 1 elo") == "5,00/0"
    assert match.rules == RuleSet(crawford=True, cube_limit=1024, cube_said=True, galaxy=True)
    assert match.variant == ""
    first, second = match.games
    assert str(first.location).endswith("bglab-lasse-match10089897.txt:16:2")
    # Player 1 won the opening roll: the left side of line 18 is empty.
    assert brief(first.actions[0]) == (ROLL, ONE, 1, (6, 2), "24/18 13/11", None)
    assert (first.actions[0].location.line, first.actions[0].location.column) == (18, 34)
    # A left play longer than its column, one space before the right roll.
    assert [brief(a) for a in find(first.actions, 20)] == [
        (ROLL, ZERO, 3, (2, 2), "24/22 22/20 20/18 18/16", None),
        (ROLL, ONE, 3, (4, 1), "25/24 13/9", None),
    ]
    # A dance: "44:" with nothing after it.
    assert brief(find(first.actions, 35)[1]) == (ROLL, ONE, 18, (4, 4), "", None)
    assert brief(first.actions[-1]) == (WIN, ZERO, None, None, None, 2)
    assert first.actions[-1].location.line == 47
    assert [brief(a) for a in find(second.actions, 73)] == [
        (ROLL, ZERO, 23, (2, 1), "9/7 7/6", None),
        (DOUBLE, ONE, 23, None, None, 8),
    ]
    # "Losses" in the loser's column, then the winner's line after a blank.
    assert [brief(a) for a in second.actions[-3:]] == [
        (ROLL, ZERO, 30, (1, 1), "1/0 1/0 1/0 1/0", None),
        (LOSS, ONE, 30, None, None, 3),
        (WIN, ZERO, None, None, None, 3),
    ]
    assert second.actions[-2].location.column == 35
    assert second.actions[-1].match_won and second.actions[-1].location.line == 82


def test_galaxy_losses_and_wins_on_one_line() -> None:
    match = corpus_match("bglab-lasse-match11017817.txt")
    last = match.games[-1].actions
    assert [brief(a) for a in find(last, 79)] == [
        (LOSS, ZERO, 31, None, None, 1),
        (WIN, ONE, 31, None, None, 1),
    ]
    assert last[-1].match_won


def test_gammonview_dropped_double_and_numbered_blank_line() -> None:
    match = corpus_match("gammonview-3WNK_g1Z-PLsh_HyvQ5j4a.mat")
    assert match.players == ("Iris09", "Jade1")  # "Iris09: 0": no space before ':'
    assert match.length == 7 and len(match.games) == 7
    assert match.rules == RuleSet(
        crawford=True, jacoby=False, beaver=False, cube_limit=64, jacoby_said=True, cube_said=True
    )
    game = match.games[0]
    assert brief(game.actions[0]) == (ROLL, ONE, 1, (5, 3), "6/3 8/3", None)
    # Dice written low first stay as written.
    assert brief(find(game.actions, 20)[0]) == (ROLL, ZERO, 4, (1, 2), "15/13 24/23", None)
    # Move numbers above 9 push the line right by one.
    assert [(a.player, a.move_number, a.location.column) for a in find(game.actions, 26)] == [
        (ZERO, 10, 7),
        (ONE, 10, 48),
    ]
    assert [brief(a) for a in game.actions[-3:]] == [
        (DOUBLE, ZERO, 14, None, None, 2),
        (DROP, ONE, 14, None, None, None),
        (WIN, ZERO, None, None, None, 1),  # "   Wins 1 points", after an empty "15)"
    ]
    last = match.games[-1].actions[-1]
    assert (last.kind, last.player, last.value, last.match_won) == (WIN, ONE, 1, True)


def test_gammonview_resigns() -> None:
    match = corpus_match("gammonview-5nqfGw9bWG3deTaU.mat")
    assert match.players == ("Marion Castlebury", "Rowan Pryce")
    assert match.header("Event") == "Sample Club Monthly"
    assert len(match.games) == 6
    actions = match.games[3].actions
    assert [brief(a) for a in find(actions, 114)] == [
        (RESIGN, ZERO, 21, None, None, None),
        (WIN, ONE, 21, None, None, 2),
    ]
    # A result on a numbered line, right column only.
    assert brief(match.games[0].actions[-1]) == (WIN, ONE, 25, None, None, 2)
    # ... and left column only.
    assert brief(find(match.games[1].actions, 55)[0]) == (WIN, ZERO, 13, None, None, 1)


def test_xg_crlf_bom_cannot_move_and_question_marks() -> None:
    raw = (MAT_CORPUS / "lazybg-match1.txt").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and b"\r\n" in raw
    match = mat.read_match(MAT_CORPUS / "lazybg-match1.txt")
    assert match.headers[0] == ("Site", "Aachen")
    assert match.header("Player 2") == "Kévin UNGER Nicolas HARMAND"
    # Column names come from the score line, not from the Player headers.
    assert match.players == ("Kévin UNGER Nicolas HARMAND", "Johan HUYCK Michael LARSEN")
    assert match.length == 7 and len(match.games) == 4
    game = match.games[0]
    assert [brief(a) for a in find(game.actions, 24)] == [
        (ROLL, ZERO, 4, (5, 1), "13/8 6/5*", None),
        (ROLL, ONE, 4, (6, 6), "", None),  # "66: Cannot Move"
    ]
    assert brief(find(game.actions, 26)[0])[4] == "24/20 6/4*(2)"
    resigned, won = find(game.actions, 47)
    assert brief(resigned) == (ROLL, ZERO, 27, (1, 1), "", None) and resigned.resigned
    assert brief(won) == (WIN, ONE, 27, None, None, 2) and won.location.column == 41
    final = match.games[-1].actions[-1]
    assert (final.kind, final.player, final.value, final.match_won) == (WIN, ONE, 1, True)


def test_money_session() -> None:
    match = corpus_match("gammonview-B4_SrGcsKAQmoTyHlgJCbM.mat")
    assert match.length == 0
    assert match.players == ("Fox", "Bluepoint02")
    assert [g.score for g in match.games] == [(0, 0), (1, 0), (1, 1)]
    assert match.rules.cube_limit == 64
    last = match.games[-1].actions[-1]
    assert brief(last) == (WIN, ZERO, None, None, None, 6) and last.match_won


def test_gnubg_trailing_blanks() -> None:
    match = corpus_match("gnubg-bglab-lasse-match8640511.mat")
    assert match.headers == [("Site", "BackgammonGalaxy"), ("EventDate", "2024.06.11")]
    assert match.rules == RuleSet(galaxy=True)
    assert brief(match.games[0].actions[0]) == (ROLL, ONE, 1, (2, 1), "13/11 6/5", None)
    assert [g.score for g in match.games] == [(0, 0), (2, 0), (2, 1), (4, 1), (4, 2)]


def test_studio_question_marks_then_win() -> None:
    match = corpus_match("bglab-lasse-MrPurple_-_Lasse_3pt_Backgammon_Studio_2024_05_11_20_10_33.txt")
    roll, win = match.games[-1].actions[-2:]
    assert brief(roll) == (ROLL, ZERO, 24, (3, 2), "", None) and roll.resigned
    assert brief(win) == (WIN, ONE, 24, None, None, 4016)


# --------------------------------------------------------------------------
# The two transcripts of mat-format.md §9


def test_spec_three_point_match() -> None:
    match = mat.read_match(DATA / "spec-3pt-gnubg.mat")
    assert match.players == ("Petar", "Maria")
    assert match.length == 3
    assert match.headers == [
        ("Site", "Kafene Sofia"),
        ("Event", "Club night"),
        ("EventDate", "2025.03.14"),
        ("Transcriber", "specs"),
    ]
    assert match.comments == [] and match.rules == RuleSet() and match.variant == ""
    assert [(g.number, g.score) for g in match.games] == [(1, (0, 0)), (2, (1, 0)), (3, (2, 0)), (4, (2, 1))]
    assert [[brief(a) for a in g.actions] for g in match.games] == [
        [
            (ROLL, ZERO, 1, (3, 1), "8/5 6/5", None),
            (ROLL, ONE, 1, (6, 2), "24/18 13/11", None),
            (ROLL, ZERO, 2, (6, 4), "13/7* 13/9", None),
            (ROLL, ONE, 2, (5, 5), "", None),
            (ROLL, ZERO, 3, (4, 2), "9/5 7/5", None),
            (ROLL, ONE, 3, (6, 4), "25/21 13/7", None),
            (DOUBLE, ZERO, 4, None, None, 2),
            (DROP, ONE, 4, None, None, None),
            (WIN, ZERO, None, None, None, 1),
        ],
        [
            (ROLL, ONE, 1, (5, 2), "13/8 13/11", None),
            (ROLL, ZERO, 2, (6, 5), "24/18 18/13", None),
            (ROLL, ONE, 2, (4, 4), "24/20 24/20 13/9 13/9", None),
            (DOUBLE, ZERO, 3, None, None, 2),
            (DROP, ONE, 3, None, None, None),
            (WIN, ZERO, None, None, None, 1),
        ],
        [
            (ROLL, ZERO, 1, (2, 1), "13/11 6/5", None),
            (ROLL, ONE, 1, (4, 3), "13/9 13/10", None),
            (ROLL, ZERO, 2, (6, 6), "24/18 24/18 13/7 13/7", None),
            (ROLL, ONE, 2, (5, 1), "13/8 6/5", None),
            (WIN, ONE, None, None, None, 1),
        ],
        [
            (ROLL, ZERO, 1, (3, 1), "8/5 6/5", None),
            (DOUBLE, ONE, 1, None, None, 2),
            (TAKE, ZERO, 2, None, None, None),
            (ROLL, ONE, 2, (6, 4), "24/18 13/9", None),
            (ROLL, ZERO, 3, (2, 2), "13/11 13/11 6/4 6/4", None),
            (WIN, ZERO, None, None, None, 2),
        ],
    ]
    assert [a.match_won for g in match.games for a in g.actions if a.kind is WIN] == [False] * 3 + [True]
    first = match.games[0].actions
    assert [(a.location.line, a.location.column) for a in first[:2]] == [(10, 6), (10, 34)]
    assert (first[6].location.line, first[6].location.column) == (13, 7)  # " Doubles"
    assert (first[-1].location.line, first[-1].location.column) == (14, 7)
    assert match.location.line == 1 and match.games[0].location.line == 8


def test_spec_money_session() -> None:
    match = mat.read_match(DATA / "spec-money-xg.mat")
    assert match.players == ("Ivan", "Elena")
    assert match.length == 0
    assert len(match.headers) == 11 and match.header("Match ID") == "0001"
    assert match.rules == RuleSet(
        crawford=True, jacoby=True, beaver=True, cube_limit=1024, jacoby_said=True, cube_said=True
    )
    assert match.variant == ""
    assert [[brief(a) for a in g.actions] for g in match.games] == [
        [
            (ROLL, ZERO, 1, (6, 2), "24/18 13/11", None),
            (ROLL, ONE, 1, (6, 4), "24/14*", None),
            (ROLL, ZERO, 2, (5, 5), "bar/15 13/8(2)", None),
            (DOUBLE, ONE, 2, None, None, 2),
            (BEAVER, ZERO, 3, None, None, 4),
            (ROLL, ONE, 3, (3, 1), "8/5 6/5", None),
            (ROLL, ZERO, 4, (4, 4), "15/11*/7 13/5", None),
            (ROLL, ONE, 4, (2, 1), "bar/23 24/23", None),
            (WIN, ZERO, None, None, None, 4),
        ],
        [
            (ROLL, ONE, 1, (4, 1), "24/23 13/9", None),
            (ROLL, ZERO, 2, (6, 2), "24/18 13/11", None),
            (ROLL, ONE, 2, (6, 3), "13/7* 9/6", None),
            (ROLL, ZERO, 3, (6, 6), "", None),
            (DOUBLE, ONE, 3, None, None, 2),
            (DROP, ZERO, 4, None, None, None),
            (WIN, ONE, 4, None, None, 1),
        ],
    ]
    assert [g.score for g in match.games] == [(0, 0), (4, 0)]


# --------------------------------------------------------------------------
# Dialect details on small texts

GAME = " Game 1\n Ann : 0                        Bob : 0\n"


def one_game(body: str, head: str = " 5 point match\n") -> list[Action]:
    (match,) = parse(head + GAME + body)
    return match.games[0].actions


def test_ratings_are_split_from_names() -> None:
    (match,) = parse(" 3 point match\n Game 1\n BlueNote,1780 : 1     Old Fox, Jr : 0\n")
    assert match.players == ("BlueNote", "Old Fox, Jr")
    assert match.ratings == ("1780", None)
    assert match.games[0].score == (1, 0)


def test_names_with_colons_and_no_blank_before_colon() -> None:
    (match,) = parse(" 3 point match\n Game 1\nTeam: A: 2   B:3\n")
    assert match.players == ("Team: A", "B") and match.games[0].score == (2, 3)


def test_beavers_raccoons_and_case() -> None:
    actions = one_game(
        "  1) 31: 8/5 6/5                 DOUBLES => 2\n"
        "  2)  Beavers => 4               Raccoons => 8\n"
        "  3) 52:13/8 13/11               wins 8 points AND THE MATCH\n"
    )
    assert [brief(a) for a in actions] == [
        (ROLL, ZERO, 1, (3, 1), "8/5 6/5", None),
        (DOUBLE, ONE, 1, None, None, 2),
        (BEAVER, ZERO, 2, None, None, 4),
        (RACCOON, ONE, 2, None, None, 8),
        (ROLL, ZERO, 3, (5, 2), "13/8 13/11", None),
        (WIN, ONE, 3, None, None, 8),
    ]
    assert actions[-1].match_won


def test_misaligned_and_long_move_numbers() -> None:
    actions = one_game(
        "10) 31: 8/5 6/5    42: 8/4 6/4\n"
        "  100) 62: 24/18 13/11                      Doubles => 2\n"
        "101)                                 Takes\n"
    )
    assert [(a.kind, a.player, a.move_number) for a in actions] == [
        (ROLL, ZERO, 10),
        (ROLL, ONE, 10),
        (ROLL, ZERO, 100),
        (DOUBLE, ONE, 100),
        (TAKE, ONE, 101),
    ]


def test_result_lines_by_indentation() -> None:
    actions = one_game("      Wins 1 point\n                                 Wins 2 points\n   Resigns\n")
    assert [(a.kind, a.player, a.move_number, a.location.column) for a in actions] == [
        (WIN, ZERO, None, 7),
        (WIN, ONE, None, 34),
        (RESIGN, ZERO, None, 4),
    ]


def test_crlf_bom_tabs_and_blank_lines() -> None:
    text = '\ufeff; [Site "X"]\r\n\r\n 3 point match  \r\n\r\n Game 1 (Crawford)\r\n A : 0\t\tB : 0 \r\n\r\n  1) 52: 13/8 13/11\t  41: 24/23 13/9   \r\n\r\n'
    (match,) = parse(text)
    assert match.headers == [("Site", "X")]
    assert [brief(a) for a in match.games[0].actions] == [
        (ROLL, ZERO, 1, (5, 2), "13/8 13/11", None),
        (ROLL, ONE, 1, (4, 1), "24/23 13/9", None),
    ]
    assert match.games[0].actions[1].location.line == 8


def test_headers_comments_set_pos_and_illegal_play() -> None:
    text = (
        '; [Site "Home"]\n'
        "; free text here\n"
        '# [Variation "HyperGammon (3)"]\n'
        '; [Crawford "Off"]\n'
        '; [cubelimit "64"]\n'
        '; [Jacoby "maybe"]\n'
        " 5 point match\n"
        " Game 1\n"
        " A : 0        B : 0\n"
        "; Set Pos=-a-B-BB-B---c-d-e---B-b--A/0\n"
        "  1) 52: Illegal play (xyz)          41: 24/23 13/9\n"
    )
    (match,) = parse(text)
    assert match.headers == [
        ("Site", "Home"),
        ("Variation", "HyperGammon (3)"),
        ("Crawford", "Off"),
        ("cubelimit", "64"),
        ("Jacoby", "maybe"),
    ]
    assert match.variant == "hypergammon"
    assert match.rules == RuleSet(crawford=False, cube_limit=64, jacoby_said=True, cube_said=True)
    assert match.comments == [
        "free text here",
        "Set Pos=-a-B-BB-B---c-d-e---B-b--A/0",
        "Illegal play (xyz)",
    ]
    assert [brief(a) for a in match.games[0].actions] == [
        (ROLL, ZERO, 1, (5, 2), "", None),
        (ROLL, ONE, 1, (4, 1), "24/23 13/9", None),
    ]


def test_concatenated_matches(tmp_path: Path) -> None:
    first = (DATA / "spec-3pt-gnubg.mat").read_text(encoding="utf-8")
    second = (DATA / "spec-money-xg.mat").read_text(encoding="utf-8")
    matches = list(mat.read_matches(io.StringIO(first + "\n" + second), path="two.mat"))
    assert [(m.length, len(m.games), m.players) for m in matches] == [
        (3, 4, ("Petar", "Maria")),
        (0, 2, ("Ivan", "Elena")),
    ]
    assert matches[0].header("Site") == "Kafene Sofia"
    assert matches[1].header("Site") == "Home" and len(matches[1].headers) == 11
    assert matches[1].location.line == first.count("\n") + 2
    path = tmp_path / "two.mat"
    path.write_text(first + second, encoding="utf-8")
    with pytest.raises(TranscriptSyntaxError, match="holds 2 matches"):
        mat.read_match(path)


# --------------------------------------------------------------------------
# Errors


@pytest.mark.parametrize(
    ("text", "line", "column", "fragment"),
    [
        ("", 1, 1, "no match found"),
        ("hello\n 3 point match\n", 1, 1, "match-length line"),
        (" 3 point match\n  1) 52: 13/8 13/11\n", 2, 1, "'Game N'"),
        (" 3 point match\n Game 1\n", 2, 1, "score line"),
        (" 3 point match\n Game 1\n Ann 0 Bob 0\n", 3, 2, "score line"),
        (" 3 point match\n" + GAME + "  1) 52: 13/8\n this is no move\n", 5, 2, "unexpected line"),
        (" 3 point match\n" + GAME + "  1) 72: 13/8\n", 4, 6, "'72: 13/8'"),
        (" 3 point match\n" + GAME + "  1) 52: 13/8  41: 13/9 Takes\n", 4, 25, "more than one action"),
        (" 3 point match\n" + GAME + "  1) Doubles => x\n", 4, 6, "'Doubles => x'"),
        (" 3 point match\n" + GAME + "\n\n  1) 52: 13/8  Wins one point\n", 6, 16, "'Wins one point'"),
        (" 3 point match\n" + GAME + "      Wins 1 point, sadly\n", 4, 19, "', sadly'"),
        ("99999999999 point match\n", 1, 1, "too large"),
    ],
)
def test_syntax_errors(text: str, line: int, column: int, fragment: str) -> None:
    with pytest.raises(TranscriptSyntaxError) as info:
        parse(text)
    error = info.value
    assert error.location is not None
    assert (error.location.path, error.location.line, error.location.column) == ("t.mat", line, column)
    assert fragment in error.message
    assert str(error).startswith(f"t.mat:{line}:{column}: ")


def test_error_context_is_the_line() -> None:
    with pytest.raises(TranscriptSyntaxError) as info:
        parse(" 3 point match\n" + GAME + "  1) 52: 13/8 ???x  Drops!\n")
    assert info.value.context == "  1) 52: 13/8 ???x  Drops!"


def test_on_error_reads_the_other_games() -> None:
    text = (
        " 3 point match\n"
        " Game 1\n A : 0     B : 0\n  1) 52: 13/8 13/11\n      Wins 1 point\n"
        " Game 2\n A : 1     B : 0\n  1) 52: 13/8 13/11\n  2) garbage here\n  3) 41: 24/23 13/9\n"
        " Game 3\n A : 2     B : 0\n  1) 31: 8/5 6/5\n      Wins 1 point and the match\n"
    )
    errors: list[TranscriptSyntaxError] = []
    (match,) = parse(text, on_error=errors.append)
    assert [(e.location.line, e.location.column) for e in errors if e.location] == [(9, 6)]
    assert [len(g.actions) for g in match.games] == [2, 1, 2]
    with pytest.raises(TranscriptSyntaxError):
        parse(text)


def test_read_matches_yields_before_a_later_error() -> None:
    good = " 1 point match\n" + GAME + "  1) 52: 13/8 13/11\n"
    bad = " 1 point match\n" + GAME + "  1) 52: 13/8 13/11 72:\n"
    matches = mat.read_matches(io.StringIO(good + bad), path="t.mat")
    assert next(matches).length == 1
    with pytest.raises(TranscriptSyntaxError):
        next(matches)


class _Undecodable(io.StringIO):
    def read(self, size: int | None = -1) -> str:
        raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")


def test_undecodable_stream() -> None:
    with pytest.raises(InputError, match="cannot decode"):
        list(mat.read_matches(_Undecodable(), path="x.mat"))


# --------------------------------------------------------------------------
# Decoding and detection


def test_read_text(tmp_path: Path) -> None:
    path = tmp_path / "a.mat"
    path.write_bytes(b'\xef\xbb\xbf; [Site "K\xc3\xa9"]\r\n')
    assert mat.read_text(path) == '; [Site "Ké"]\r\n'
    path.write_bytes(b'; [Site "K\xe9"]\n')
    assert mat.read_text(path) == '; [Site "Ké"]\n'
    path.write_bytes('; [Site "Ké"]\n'.encode("utf-16"))
    assert mat.read_text(path) == '; [Site "Ké"]\n'


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('\ufeff; [Site "x"]\r\n\r\n 7 point match\r\n', True),
        ("0 point match\n", True),
        ("# comment\n 13 Point Match\n", True),
        (" Game 1\n 7 point match\n", False),
        ("(;FF[4]GM[6]CA[UTF-8])", False),
        ("", False),
        ("; just comments\n", False),
    ],
)
def test_looks_like_mat(text: str, expected: bool) -> None:
    assert mat.looks_like_mat(text) is expected


# --------------------------------------------------------------------------
# Arbitrary input raises only TablaError

FRAGMENTS = [
    "",
    " ",
    '; [Site "x"]',
    "; comment",
    " 7 point match",
    "0 point match",
    "99999999999999999999 point match",
    " Game 1",
    " Game 2 (Crawford)",
    " Game 123456789012",
    " A : 0        B : 0",
    " A,17 : 3     B : 99999999999",
    "  1) 52: 13/8 13/11     41: 24/23 13/9",
    "  2)                     66:",
    "  3)  Doubles => 2        Takes",
    "  4)  Beavers => 4        Raccoons => 8",
    "  5) 11: ????             Wins 2 point",
    "  6) Resigns              Wins 3 points and the match",
    "  7) Losses 1 point",
    "      Wins 1 point",
    "                                   Wins 1 points",
    "  8) 71: x",
    "  9) 52: Illegal play (abc)",
    "12345678901234567890) 52:",
    "garbage",
    "\t\f\v",
    "\r",
]


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_arbitrary_text_raises_only_tabla_errors(text: str) -> None:
    try:
        list(mat.parse_matches(text, path="fuzz.mat"))
    except TablaError:
        pass


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(st.sampled_from(FRAGMENTS), st.text(alphabet=" \t:;#)0123456789DdWwTtBbRr?/*>=\r\n", max_size=30)),
        max_size=25,
    ),
    st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_mat_like_text_raises_only_tabla_errors(lines: list[str], newline: str) -> None:
    text = newline.join(lines)
    errors: list[TranscriptSyntaxError] = []
    try:
        for match in mat.parse_matches(text, path="fuzz.mat", on_error=errors.append):
            assert match.format == "mat"
    except TablaError:
        pass
    assert all(isinstance(e, TranscriptSyntaxError) and e.location for e in errors)
    mat.looks_like_mat(text)
