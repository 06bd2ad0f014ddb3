"""Tests for tabla_cli.formats.sgf: GNU Backgammon SGF (GM[6]) into the match model.

Examples are hand-written in GNU Backgammon's dialect; the corpus files
(tests/data/corpus/sgf) are GNU Backgammon 1.07 saves of two real matches.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from tabla_cli.board import Player, Position
from tabla_cli.cli import main
from tabla_cli.errors import Location, RuleError, TablaError, TranscriptSyntaxError, UnsupportedFormatError
from tabla_cli.formats import mat, sgf
from tabla_cli.formats.json import parse_matches as parse_json
from tabla_cli.grammar import load_grammar
from tabla_cli.model import Action, ActionKind, Match, SetUp
from tabla_cli.replay import replay, replay_match
from tabla_cli.visitor import BaseVisitor, DecisionState, Wants
from tabla_cli.writers.json import format_json
from tabla_cli.writers.positions import format_positions
from tabla_cli.writers.sgf import format_sgf

from helpers import CORPUS, DATA, corpus_files, recorded_by_action, replayed_decisions
from match_compare import Carried, match_differences

SAME_MATCH = "gnubg-bglab-lasse-match8640511"
EVERY_SGF = sorted(p for p in DATA.rglob("*.sgf") if ".expected." not in p.name)
"""Every SGF file of the test data (the corpus, the fuzz seeds, the long fuzz cases), golden files left out."""
ZERO, ONE = Player.ZERO, Player.ONE


def read(text: str, path: str = "t.sgf") -> list[Match]:
    return list(sgf.parse_matches(text, path=path))


def one(text: str) -> Match:
    matches = read(text)
    assert len(matches) == 1
    return matches[0]


def kinds(match: Match, game: int = 0) -> list[tuple[str, int, tuple[int, int] | None, str | None, int | None]]:
    return [(a.kind.value, int(a.player), a.dice, a.play_text, a.value) for a in match.games[game].actions]


SPEC_GAME_1 = """(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.1.0a16]MI[length:3][game:0][ws:0][bs:0]PW[Petar]PB[Maria]DT[2025-03-14]EV[Club night]PC[Kafene Sofia]AN[specs]RU[Crawford]RE[W+1]GS[M:1 2 3][C:0 0][D:0 0]
;W[31hefe]
;B[62agln]
;W[64mimg]
;B[55]
;W[42iege]
;B[64ydlr]
;W[double]
;B[drop])
"""

SPEC_SETUP = """(;FF[4]GM[6]CA[UTF-8]AP[specs-example:1]MI[length:0][game:0][ws:0][bs:0]PW[Wanda]PB[Boyan]RU[Jacoby]C[hand-made example]
;PL[B]AE[a:y]AW[a][a][b][b][c][c][d][f]AB[x][w][s]CV[2]CP[b]
;B[61szxz]
;W[54fbdz]
;B[double]
;W[take]
;B[21wz]
)"""


# --- coordinates ----------------------------------------------------------------


def test_letters_in_both_directions() -> None:
    for point in range(0, 26):
        for player in (ZERO, ONE):
            assert sgf.letter_point(sgf.point_letter(point, player), player) == point
    assert [sgf.point_letter(p, ZERO) for p in (1, 24)] == ["a", "x"]
    assert [sgf.point_letter(p, ONE) for p in (1, 24)] == ["x", "a"]


# --- the spec's examples ----------------------------------------------------------


def test_spec_match_game() -> None:
    match = one(SPEC_GAME_1)
    assert match.players == ("Petar", "Maria")
    assert match.length == 3 and match.format == "sgf"
    assert match.headers == [
        ("EventDate", "2025.03.14"),
        ("Event", "Club night"),
        ("Site", "Kafene Sofia"),
        ("Transcriber", "specs"),
    ]
    assert match.rules.crawford and not match.rules.jacoby
    assert kinds(match) == [
        ("roll", 0, (3, 1), "8/5 6/5", None),
        ("roll", 1, (6, 2), "24/18 13/11", None),
        ("roll", 0, (6, 4), "13/9 13/7", None),
        ("roll", 1, (5, 5), "", None),
        ("roll", 0, (4, 2), "9/5 7/5", None),
        ("roll", 1, (6, 4), "25/21 13/7", None),
        ("double", 0, None, None, None),
        ("drop", 1, None, None, None),
        ("win", 0, None, None, 1),
    ]
    result = replay_match(match)
    assert [f.code for f in result.findings] == ["match-incomplete"]
    assert result.games[0].winner == ZERO and result.games[0].ended_by == "drop"


def test_spec_setup_node_and_gnubg_ids() -> None:
    """§7: set-up node, cube owned by Black, redouble; the IDs gnubg 1.07 printed."""
    match = one(SPEC_SETUP)
    game = match.games[0]
    assert match.length == 0 and match.rules.jacoby
    assert game.start_cube == (2, ONE)
    assert game.start is not None
    assert game.start.flip().position_id() == "2xIAAAoBAAAAAA"  # Black on roll
    assert kinds(match) == [
        ("roll", 1, (6, 1), "6/0 1/0", None),
        ("roll", 0, (5, 4), "6/2 4/0", None),
        ("double", 1, None, None, None),
        ("take", 0, None, None, None),
        ("roll", 1, (2, 1), "2/0", None),
    ]
    result, games = replayed_decisions(match)
    assert [f.code for f in result.findings] == ["missing-result"]
    decisions = games[0]
    assert [d.position.position_id() for d in decisions] == [
        "2xIAAAoBAAAAAA",
        "AgAAbEsAAAAAAA",
        "uwEAAAIAAAAAAA",
    ]
    assert decisions[-1].cube == 4 and decisions[-1].cube_owner == ZERO
    assert result.games[0].multiplier == 1  # Black bore off its last checker: a single game


def test_root_properties() -> None:
    match = one(
        "(;GM[6]MI[length:5][game:2][ws:3][bs:1][extra:x]PW[Ann\\]e]PB[Bob]WR[1650]BR[1800]RO[Final]"
        "GC[first line\nsecond line]RU[Crawford:CrawfordGame:NoCube];W[31hefe])"
    )
    assert match.players == ("Ann]e", "Bob")
    assert match.ratings == ("1650", "1800")
    assert match.headers == [("Round", "Final")]
    assert match.comments == ["first line", "second line"]
    assert match.rules.crawford and not match.rules.cube
    game = match.games[0]
    assert (game.number, game.score) == (3, (3, 1))


def test_variant_and_money_defaults() -> None:
    match = one("(;GM[6]MI[length:0]PW[a]PB[b]RU[Nackgammon];W[31hefe])")
    assert match.variant == "nackgammon" and match.length == 0
    assert not match.rules.jacoby
    match = one("(;GM[6]MI[length:7]PW[a]PB[b];W[31hefe])")
    assert not match.rules.crawford  # gnubg writes RU[Crawford] when the rule is on


AFTER_CRAWFORD = "(;GM[6]MI[length:7][game:5][ws:6][bs:3]PW[a]PB[b]RU[Crawford]RE[B+1];W[31hefe];B[double];W[drop])"
"""A game saved alone at 6-3 in a 7-point match, not the Crawford game (gnubg names that one ``CrawfordGame``)."""


def test_lone_game_after_the_crawford_game() -> None:
    """The reader records what the root says (the rule, and that this game is not the Crawford game);
    the replay makes it a game after the Crawford game, where the trailer may double."""
    match = one(AFTER_CRAWFORD)
    assert match.rules.crawford and match.games[0].crawford is False
    result = replay_match(match)
    assert not result.games[0].crawford and result.games[0].post_crawford
    assert "crawford-double" not in {f.code for f in result.findings}
    crawford_game = one(AFTER_CRAWFORD.replace("RU[Crawford]", "RU[Crawford:CrawfordGame]"))
    assert crawford_game.rules.crawford and crawford_game.games[0].crawford is True
    result = replay_match(crawford_game)
    assert result.games[0].crawford and not result.games[0].post_crawford
    assert "crawford-double" in {f.code for f in result.findings}


@pytest.mark.parametrize("crawford", [False, True])
def test_the_decisions_of_a_lone_game_know_whether_it_is_the_crawford_game(crawford: bool) -> None:
    """The decisions visitor is told the replay's Crawford flag: in its question to the engine and its Match ID."""
    from tabla_cli.analysis.decisions import AnalysisOptions, DecisionsVisitor
    from tabla_cli.evaluation.types import DecisionKind
    from tabla_cli.ids import decode_match_id

    text = AFTER_CRAWFORD.replace("RU[Crawford]", "RU[Crawford:CrawfordGame]") if crawford else AFTER_CRAWFORD
    pending = replay(one(text), DecisionsVisitor("t.sgf", AnalysisOptions(recorded=False, cache=False)))
    assert [p.kind for p in pending] == [DecisionKind.CHECKER, DecisionKind.DOUBLE, DecisionKind.TAKE]
    for item in pending:
        assert item.decision is not None and item.decision.crawford is crawford
        assert decode_match_id(item.row["match_id"]).crawford is crawford


@pytest.mark.parametrize(
    "root, said",
    [
        ("MI[length:7][game:0][ws:0][bs:0]RU[Crawford]", None),  # the replay counts the games from the first
        ("MI[length:7][game:2][ws:2][bs:1]RU[Crawford]", False),
        ("MI[length:7][game:0][ws:6][bs:0]RU[Crawford:CrawfordGame]", True),
        ("MI[length:7][game:5][ws:6][bs:3]", None),  # no Crawford rule
        ("MI[length:0][game:3]RU[Crawford]", None),  # money play
    ],
)
def test_crawford_game_as_the_root_says(root: str, said: bool | None) -> None:
    """The root's word on the Crawford game is recorded where the file lacks the games before."""
    match = one(f"(;GM[6]{root}PW[a]PB[b];W[31hefe])")
    assert match.games[0].crawford is said


def test_value_escapes_and_soft_line_breaks() -> None:
    match = one("(;GM[6]PW[A\\\\B]PB[long\\\nname]EV[x \\] y];B[31])")
    assert match.players == ("A\\B", "longname")
    assert match.headers == [("Event", "x ] y")]


def test_results() -> None:
    base = "(;GM[6]MI[length:3]PW[a]PB[b]RE[{}];W[31hefe];B[double];W[drop])"
    assert kinds(one(base.format("B+1")))[-1] == ("win", 1, None, None, 1)
    assert kinds(one(base.format("W+2R")))[-1] == ("win", 0, None, None, 2)
    assert kinds(one(base.format("W+R")))[-1] == ("win", 0, None, None, None)
    assert kinds(one(base.format("?")))[-1][0] == "drop"
    with pytest.raises(TranscriptSyntaxError) as info:
        read(base.format("X+3"))
    assert info.value.location is not None
    assert (info.value.location.line, info.value.location.column) == (1, 32)


def cube_values(match: Match) -> list[tuple[str, int]]:
    """Each cube action the replay follows, with the cube's value after it."""
    return [(a.kind.value, after) for a, after in replay(match, _Cubes())]


class _Cubes(BaseVisitor[list[tuple[Action, int]]]):
    wants = Wants.CUBE

    def __init__(self) -> None:
        self.seen: list[tuple[Action, int]] = []

    def visit_cube(
        self, state: DecisionState, action: Action, cube_before: int, cube_after: int, owner: Player | None
    ) -> None:
        self.seen.append((action, cube_after))

    def result(self) -> list[tuple[Action, int]]:
        return self.seen


def test_beaver_and_raccoon_as_gnubg_writes_them() -> None:
    """gnubg imports a beaver as double / double / take; the take is implied, the values are the replay's."""
    match = one("(;GM[6]MI[length:0]PW[a]PB[b];W[31hefe];B[double];W[double];B[take];B[62agln])")
    assert kinds(match) == [
        ("roll", 0, (3, 1), "8/5 6/5", None),
        ("double", 1, None, None, None),
        ("beaver", 0, None, None, None),
        ("roll", 1, (6, 2), "24/18 13/11", None),
    ]
    assert cube_values(match) == [("double", 2), ("beaver", 4)]
    match = one("(;GM[6]MI[length:0]PW[a]PB[b];W[31hefe];B[double];W[double];B[double];W[take];B[62agln])")
    assert [k[0] for k in kinds(match)] == ["roll", "double", "beaver", "raccoon", "roll"]
    assert cube_values(match) == [("double", 2), ("beaver", 4), ("raccoon", 8)]
    assert replay_match(match).findings == []


def test_redouble_values_follow_the_cube() -> None:
    match = one("(;GM[6]MI[length:9]PW[a]PB[b]CV[2];W[31hefe];B[double];W[take];W[double];B[take])")
    assert match.games[0].start_cube == (2, None)
    assert cube_values(match) == [("double", 4), ("take", 4), ("double", 8), ("take", 8)]


def test_redouble_after_a_beaver_is_a_double() -> None:
    """The take that closes a beaver ends the exchange: the next double (after a roll) is a redouble."""
    match = one("(;GM[6]MI[length:0]PW[a]PB[b];W[31hefe];B[double];W[double];B[take];B[62agln];W[double];B[take])")
    assert [k[0] for k in kinds(match)] == ["roll", "double", "beaver", "roll", "double", "take"]
    assert cube_values(match) == [("double", 2), ("beaver", 4), ("double", 8), ("take", 8)]


@pytest.mark.parametrize("path", EVERY_SGF, ids=lambda p: p.name)
def test_the_reader_writes_down_no_cube_value_and_no_position(path: Path) -> None:
    """Readers say only what is written: SGF writes no cube value on a double, and the board is the replay's."""
    for match in read(path.read_text(encoding="utf-8"), str(path)):
        for game in match.games:
            assert [a for a in game.actions if a.kind is not ActionKind.WIN and a.value is not None] == []
            assert game.start is None  # none of these files has a set-up node


def test_final_placeholder_roll_is_left_out_after_the_end() -> None:
    """A roll with no moves after the game is decided is gnubg's placeholder: the replay leaves it out."""
    moves = ";W[31hefe];B[double];W[drop];B[55]"
    match = one(f"(;GM[6]MI[length:1]PW[a]PB[b]RE[B+1]{moves})")
    assert [k[0] for k in kinds(match)] == ["roll", "double", "drop", "win"]
    trailing = match.games[0].trailing_roll
    assert trailing is not None and trailing.dice == (5, 5)
    assert replay_match(match).findings == []
    # The same without a result: the drop ended the game (the cube machine says so); only the result is missing.
    match = one(f"(;GM[6]MI[length:1]PW[a]PB[b]{moves})")
    assert [f.code for f in replay_match(match).findings] == ["missing-result", "match-incomplete"]
    # After a bear-off.
    bear_off = ";PL[W]AE[a:y]AW[a]AB[x][w]"
    match = one(f"(;GM[6]MI[length:0]PW[a]PB[b]RE[W+1]{bear_off};W[21az];B[66])")
    assert [f.code for f in replay_match(match).findings] == []
    # A pending roll that could be played (no result: game in progress) is left out too.
    match = one("(;GM[6]MI[length:0]PW[a]PB[b];W[31hefe];B[62])")
    assert [k[0] for k in kinds(match)] == ["roll"]
    result, games = replayed_decisions(match)
    assert result.findings == [] and len(games[0]) == 1 and result.games[0].rolls == 1
    # A roll before a resignation is kept in the record.
    match = one("(;GM[6]MI[length:3]PW[a]PB[b]RE[W+1R];W[31hefe];B[62])")
    assert [k[0] for k in kinds(match)] == ["roll", "roll", "win"]
    assert match.games[0].trailing_roll is None
    assert replay_match(match).games[0].ended_by == "resign"


CLOSED_BOARD = ";PL[W]AE[a:y]AW[a][a][b][b][c][c][d][d][e][e][f][f][h][h][h]AB[y]" + "[x]" * 14
"""White has closed its home board; Black has a checker on the bar."""


def test_a_final_dance_is_a_roll_of_the_replay() -> None:
    """The final roll without moves is a dance where no play was possible: the replay counts it."""
    match = one(f"(;GM[6]MI[length:0]PW[a]PB[b]{CLOSED_BOARD};W[21hfhg];B[43])")
    game = match.games[0]
    assert [k[0] for k in kinds(match)] == ["roll"] and game.trailing_roll is not None
    result, games = replayed_decisions(match)
    assert result.findings == []
    assert [d.action.dice for d in games[0]] == [(2, 1), (4, 3)]
    assert result.games[0].rolls == 2
    # With a double waiting before it, the dance takes the double (as any roll does) and says so.
    match = one(f"(;GM[6]MI[length:0]PW[a]PB[b]{CLOSED_BOARD};W[21hfhg];B[double];B[43])")
    assert [f.code for f in replay_match(match).findings] == ["unanswered-double"]


def test_a_trailing_roll_survives_the_sgf_writer() -> None:
    text = f"(;GM[6]MI[length:0]PW[a]PB[b]{CLOSED_BOARD};W[21hfhg];B[43])"
    again = one(format_sgf(one(text), application="t"))
    assert again.games[0].trailing_roll is not None and again.games[0].trailing_roll.dice == (4, 3)


def test_variations_follow_the_main_line() -> None:
    match = one("(;GM[6]PW[a]PB[b];W[31hefe](;B[62agln])(;B[11xwxw]))")
    assert [k[2] for k in kinds(match)] == [(3, 1), (6, 2)]


def test_game_trees_of_another_match_start_a_new_match() -> None:
    text = "(;GM[6]MI[length:3]PW[a]PB[b];W[31hefe])(;GM[6]MI[length:5]PW[c]PB[d];W[31hefe])"
    assert [m.players for m in read(text)] == [("a", "b"), ("c", "d")]


def test_later_roots_without_names_belong_to_the_same_match() -> None:
    text = "(;GM[6]MI[length:3]PW[a]PB[b];W[31hefe])(;GM[6]MI[game:1][ws:1];B[31hefe])"
    [match] = read(text)
    assert [(g.number, g.score) for g in match.games] == [(1, (0, 0)), (2, (1, 0))]


def test_analysis_properties_are_skipped() -> None:
    big = "A[0]" + "[lpab E ver 3 0.49 0.14 0.006 0.13 0.005 -0.004 2C 0 1 0.0 1]" * 2000
    match = one(f"(;GM[6]PW[a]PB[b];B[41lpab]{big}DA[E ver 3]MR[]LU[-inf]C[a comment])")
    assert kinds(match) == [("roll", 1, (4, 1), "13/9 24/23", None)]


# --- the corpus ------------------------------------------------------------------------


CORPUS_SGF = {  # stem: players, each game's starting score
    SAME_MATCH: (("lasse", "barhozi"), [(0, 0), (2, 0), (2, 1), (4, 1), (4, 2)]),
    "gnubg-bglab-lasse-match8463624": (("tyoziro2023220", "lasse"), [(0, 0), (1, 0), (1, 4), (2, 4)]),
}


def test_corpus_files_read_and_replay_cleanly() -> None:
    paths = corpus_files("sgf", pattern="*.sgf")
    assert sorted(p.stem for p in paths) == sorted(CORPUS_SGF)
    for path in paths:
        with path.open(encoding="utf-8") as handle:
            matches = list(sgf.read_matches(handle, path=str(path)))
        assert len(matches) == 1
        match = matches[0]
        players, scores = CORPUS_SGF[path.stem]
        assert match.players == players and match.length == 5
        assert match.header("Site") == "BackgammonGalaxy" and match.header("EventDate") is not None
        assert [g.score for g in match.games] == scores
        assert [g.number for g in match.games] == list(range(1, len(scores) + 1))
        result = replay_match(match)
        assert result.findings == [], path
        assert max(result.final_score) >= 5
        assert all(a.location.line > 0 for g in match.games for a in g.actions)


def test_analysis_left_unread_changes_nothing_else() -> None:
    for path in corpus_files("sgf", pattern="*.sgf"):
        text = path.read_text(encoding="utf-8")
        (read,) = sgf.parse_matches(text, path=str(path))
        (bare,) = sgf.parse_matches(text, path=str(path), analysis=False)
        actions = [a for g in read.games for a in g.actions]
        assert sum(a.analysis is not None for a in actions) > 100, path
        assert [dataclasses.replace(a, analysis=None) for a in actions] == [a for g in bare.games for a in g.actions]
        assert replay_match(read).final_score == replay_match(bare).final_score


def test_the_check_leaves_the_analysis_unread_and_an_analysing_visitor_does_not() -> None:
    from tabla_cli.analysis.decisions import DecisionsVisitor
    from tabla_cli.check import FileReport, check_visitor
    from tabla_cli.pipeline import FileTee
    from tabla_cli.visitor import BaseVisitor

    checking = check_visitor(FileReport("x.sgf"))
    assert not checking.reads_analysis
    assert FileTee(checking, BaseVisitor()).reads_analysis
    assert DecisionsVisitor.reads_analysis


def test_corpus_files_equal_the_transcripts_gnubg_imported() -> None:
    """gnubg's save of a Galaxy .mat transcript holds the same games as the transcript."""
    for stem in CORPUS_SGF:
        (from_sgf,) = read((CORPUS / "sgf" / f"{stem}.sgf").read_text(encoding="utf-8"))
        original = mat.read_match(CORPUS / "mat" / (stem.removeprefix("gnubg-") + ".txt"))
        carried = Carried(headers=("Site", "EventDate"), rules=("crawford", "jacoby", "cube"))
        assert match_differences(original, from_sgf, carried) == [], stem


def test_same_match_as_mat_and_sgf() -> None:
    """The corpus match saved by gnubg both as .mat and as .sgf reads to the same model."""
    sgf_path = CORPUS / "sgf" / f"{SAME_MATCH}.sgf"
    mat_path = CORPUS / "mat" / f"{SAME_MATCH}.mat"
    with mat_path.open(encoding="utf-8") as handle:
        from_mat = list(mat.read_matches(handle, path=str(mat_path)))
    from_sgf = read(sgf_path.read_text(encoding="utf-8"), str(sgf_path))
    assert len(from_mat) == len(from_sgf) == 1
    # Everything: players, length, header values, rules, every game's number and
    # score, every action's kind, player, dice and value, plays as positions.
    # Only the order of the headers differs (gnubg writes DT[] before PC[]).
    assert sorted(from_mat[0].headers) == sorted(from_sgf[0].headers)
    carried = Carried(headers=[key for key, _ in from_mat[0].headers])
    assert match_differences(from_mat[0], from_sgf[0], carried) == []


# --- errors -----------------------------------------------------------------------------


@pytest.mark.parametrize("label", sorted(sgf.ERROR_EXAMPLES))
def test_error_examples_give_their_message(label: str) -> None:
    for example in sgf.ERROR_EXAMPLES[label]:
        with pytest.raises(TranscriptSyntaxError) as info:
            read(example)
        assert info.value.message.startswith(sgf._LABEL_MESSAGES[label]), (label, example, info.value.message)
        assert info.value.location is not None and info.value.location.line >= 1


@pytest.mark.parametrize(
    ("text", "message", "line", "column"),
    [
        ("(;GM[6]\n;B[31hefe\n)", "the value of property 'B' is not closed", 2, 2),
        ("(;GM[6];B)", "property 'B' has no value", 1, 9),
        ("(;GM[6];[31])", "a value '[...]' without a property name", 1, 9),
        ("(;GM[6];B[71hefe])", "cannot read the move B[71hefe]", 1, 10),
        ("(;GM[6];B[31hef])", "must have up to four pairs", 1, 10),
        ("(;GM[6];B[31zefe])", "'ze' in B[31zefe] is not a move", 1, 10),
        ("(;GM[6];B[31hy])", "'hy' in B[31hy] is not a move", 1, 10),
        ("(;GM[6]MI[length:7][game:x])", "MI[game:...] must be a whole number", 1, 20),
        ("(;GM[6]CV[3])", "must be a power of two", 1, 10),
        ("(;GM[6];B[31hefe]W[double])", "more than one move", 1, 18),
        ("(;GM[6];W[31hefe];AE[a:x])", "must empty the whole board first", 1, 19),
        ("(;GM[6];AW[1])", "AW[1] is not a point", 1, 11),
        ("FF[4]", "a property outside a node", 1, 1),
        ("(;FF[4])GM[6]", "a property outside a node", 1, 9),
        ("(;FF[4]\n;C[x\ny]B[31hy])", "'hy' in B[31hy] is not a move", 3, 4),
        ("(;FF[4]\n;C[x\ny]  B[31hefe]W[31])", "more than one move", 3, 14),
    ],
)
def test_errors_have_line_and_column(text: str, message: str, line: int, column: int) -> None:
    with pytest.raises(TranscriptSyntaxError) as info:
        read(text)
    error = info.value
    assert message in error.message
    assert error.location is not None
    assert (error.location.line, error.location.column) == (line, column), error


def test_on_error_skips_the_rest_of_a_game_only() -> None:
    errors: list[TranscriptSyntaxError] = []
    text = (
        "(;GM[6]MI[length:3]PW[a]PB[b]RE[W+1];W[31hefe];B[99];W[42iege])"
        "(;GM[6]MI[length:3][game:1][ws:1]PW[a]PB[b];B[31hefe])"
    )
    [match] = sgf.parse_matches(text, on_error=errors.append)
    assert [e.message.split(":")[0] for e in errors] == ["cannot read the move B[99]"]
    assert [len(g.actions) for g in match.games] == [1, 1]
    assert match.games[1].score == (1, 0)
    with pytest.raises(TranscriptSyntaxError):
        read(text)
    with pytest.raises(TranscriptSyntaxError):  # the tree structure: raised either way
        list(sgf.parse_matches("(;GM[6]", on_error=errors.append))


def test_not_backgammon() -> None:
    with pytest.raises(UnsupportedFormatError, match=r"GM\[1\]"):
        read("(;FF[4]GM[1]SZ[19];B[dd])")


def test_illegal_setups_are_rejected() -> None:
    with pytest.raises(RuleError, match="16 checkers"):
        read("(;GM[6];AE[a:y]AW" + "[a]" * 16 + ")")
    with pytest.raises(RuleError, match="both players"):
        read("(;GM[6];AE[a:y]AW[a]AB[a])")  # White's 1-point is Black's 24-point
    start = one("(;GM[6];AE[a:y]AW[a:c][y]AB[x])").games[0].start
    assert start == Position.from_points({1: 1, 2: 1, 3: 1, 25: 1}, {1: 1})


def test_looks_like_sgf() -> None:
    assert sgf.looks_like_sgf("(;FF[4]GM[6])")
    assert sgf.looks_like_sgf("\n ( ; GM[6])")
    assert not sgf.looks_like_sgf('; [Site "x"]\n 5 point match')
    assert not sgf.looks_like_sgf("(hello)")


def test_grammar_builds_strictly() -> None:
    load_grammar(sgf.GRAMMAR, strict=True)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_raises_only_tabla_errors(text: str) -> None:
    try:
        list(sgf.read_matches(io.StringIO(text), path="x.sgf"))
    except TablaError:
        pass


SGF_ALPHABET = st.sampled_from(
    [
        "(",
        ")",
        ";",
        "[",
        "]",
        "\\",
        "\n",
        "GM[6]",
        "B[",
        "W[",
        "31",
        "hefe",
        "double",
        "take",
        "drop",
        "MI[length:3]",
        "[game:1]",
        "RE[W+1]",
        "RE[B+2R]",
        "AE[a:y]",
        "AW[a]",
        "AB[x]",
        "CV[2]",
        "CP[b]",
        "PW[a]",
        "PB[b]",
        "RU[Crawford]",
        "yz",
        "A[0]",
        "x",
        ":",
        "55",
        "]",
    ]
)


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(st.lists(SGF_ALPHABET, max_size=30).map("".join))
def test_sgf_like_text_raises_only_tabla_errors(text: str) -> None:
    try:
        for match in sgf.parse_matches(text, path="x.sgf"):
            replay_match(match)
    except TablaError:
        pass


# --- every SGF file of the test data reads as before ----------------------------------------------

READS = {
    "corpus/sgf/gnubg-bglab-lasse-match8463624.sgf": "7263566fde46c213",
    "corpus/sgf/gnubg-bglab-lasse-match8640511.sgf": "e8f32a1925f49bf1",
    "fuzz/sgf-15000-unanswered-doubles.sgf": "0f34a95ff545c3ac",
    "fuzz-seeds/sgf-gnubg-bglab-match8463624-game1.sgf": "a8bd89a09f9e2187",
    "fuzz-seeds/sgf-three-point-match.sgf": "da52e70a580d4cfa",
    "gnubg-1.08/gnubgparser-charlot1-charlot2_7p_2025-11-08-2305.sgf": "858878a64d20db6a",  # taken when it came
    "gbf/test-moves.sgf": "b74eca4cd2bae6fb",  # taken when it came
}
"""A digest of what the reader makes of each file (:func:`_read_digest`), taken with the reader of commit
eeac4ac, before the reader stopped keeping its own cube and board: every field of the model, the recorded
analysis (the ``DA`` cube analyses, which the reader keeps as written, read here at the replay's state as
every consumer reads them) included, the values of cube actions left out (SGF writes none; the reader of
eeac4ac computed them)."""


_EEAC4AC_RULES = ("crawford", "jacoby", "beaver", "cube_limit", "cube", "scoring")


def _read_digest(text: str, path: str) -> str:
    out: list[object] = []
    for match in sgf.parse_matches(text, path=path):
        read = recorded_by_action(match)
        # The rules' fields of eeac4ac, in its repr (the fields added since say what the headers above say).
        rules = ", ".join(f"{name}={getattr(match.rules, name)!r}" for name in _EEAC4AC_RULES)
        out.append([match.players, match.length, match.headers, match.comments, match.ratings, f"RuleSet({rules})"])
        out.append(match.variant)
        for game in match.games:
            out.append([game.number, game.score, repr(game.start), game.start_cube, game.variant, game.crawford])
            for a in game.actions:
                rec = read(a)
                analysis = None
                if rec is not None:
                    made = None if rec.cube_action is None else rec.cube_action.value
                    analysis = [repr(rec.candidates), rec.played, rec.level, rec.luck, rec.forced, rec.skill]
                    analysis += [made, None if rec.cube is None else repr(rec.cube)]
                value = a.value if a.kind in (ActionKind.WIN, ActionKind.LOSS) else None
                out.append([a.kind.value, int(a.player), str(a.location), a.dice, a.play_text, value, analysis])
    return hashlib.sha256(json.dumps(out, default=str).encode()).hexdigest()[:16]


def test_every_sgf_file_reads_as_before() -> None:
    assert {str(p.relative_to(DATA)): _read_digest(p.read_text(encoding="utf-8"), p.name) for p in EVERY_SGF} == READS


# --- GNU Backgammon 1.08: its roll-only nodes -------------------------------------------------------

GNUBG_108 = DATA / "gnubg-1.08" / "gnubgparser-charlot1-charlot2_7p_2025-11-08-2305.sgf"


def _twin_decisions(text: str) -> tuple[list[tuple[str, ...]], tuple[int, int], list[str]]:
    """The decisions (positions writer rows, resignations aside), the final score and the finding codes."""
    [match] = sgf.parse_matches(text, path="m.sgf")
    result = replay_match(match)
    rows = format_positions([(match, result)]).splitlines()[1:]
    findings = [f.code for f in result.findings]
    return [tuple(r.split(",")[:10]) for r in rows if ",????," not in r], result.final_score, findings


def _with_nodes(text: str, nodes: dict[int, str]) -> str:
    """``text`` with ``nodes[i]`` written at the end of game tree ``i`` (0-based)."""
    trees = text.split("\n(;")
    for index, node in nodes.items():
        end = trees[index].rstrip().rfind(")")
        trees[index] = trees[index][:end] + node + trees[index][end:]
    return "\n(;".join(trees)


def test_gnubg_1_08_match_reads_as_its_mat_export() -> None:
    [match] = sgf.parse_matches(GNUBG_108.read_text(encoding="utf-8"), path=str(GNUBG_108))
    [mat_match] = mat.parse_matches(GNUBG_108.with_suffix(".mat").read_text(encoding="utf-8"), path="m.mat")
    result, mat_result = replay_match(match), replay_match(mat_match)
    assert result.findings == [] and mat_result.findings == []
    assert result.final_score == mat_result.final_score == (9, 2)
    assert [g.winner for g in result.games] == [g.winner for g in mat_result.games] == [ONE, ZERO, ZERO, ZERO]


def test_roll_only_nodes_are_rolls_with_no_play_recorded() -> None:
    """gnubg 1.08 ends a game with ``;PL[B]DI[33]LU[...]``: the roll after the last play, before a resignation
    or the end. The loser's roll before resigning is a resignation; the winner's, or one after a bear-off,
    is the game's trailing roll; a roll-only node before the same player's move is that move's roll."""
    text = GNUBG_108.read_text(encoding="utf-8")
    first_black_move = text.index("\n;B[", text.index("\n;W["))
    before_a_move = text[:first_black_move] + "\n;PL[B]DI[11]LU[0.01000]" + text[first_black_move:]
    ends = {0: "\n;PL[W]DI[33]LU[0.00000]", 1: "\n;PL[B]DI[21]LU[0.00000]", 3: "\n;PL[B]DI[65]LU[0.01000]"}
    changed = _with_nodes(before_a_move, ends)
    assert _twin_decisions(changed) == _twin_decisions(text)
    [match] = sgf.parse_matches(changed, path="m.sgf")
    games = match.games
    resigned = [g.actions[-2] for g in (games[0], games[3])]  # the last action is the result (RE)
    assert [(a.player, a.dice, a.play_text, a.resigned) for a in resigned] == [
        (ZERO, (3, 3), "", True),
        (ONE, (6, 5), "", True),
    ]
    assert resigned[0].analysis is not None and resigned[0].analysis.luck == 0.0
    trailing = games[1].trailing_roll
    assert trailing is not None and (trailing.player, trailing.dice) == (ONE, (2, 1))
    [original] = sgf.parse_matches(text, path="m.sgf")
    assert [len(g.actions) for g in games] == [len(g.actions) + (i in (0, 3)) for i, g in enumerate(original.games)]


@pytest.mark.parametrize(
    ("node", "message"),
    [
        (";DI[33]", "a roll DI[...] names no player"),
        (";PL[X]DI[33]", "PL[X] must be W or B"),
        (";PL[W]DI[37]", "cannot read the roll DI[37]"),
    ],
)
def test_a_roll_only_node_that_cannot_be_read_is_a_syntax_error(node: str, message: str) -> None:
    text = f"(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b]\n;W[31hefe]\n{node})"
    with pytest.raises(TranscriptSyntaxError, match=re.escape(message)) as caught:
        list(sgf.parse_matches(text, path="m.sgf"))
    assert caught.value.location is not None and caught.value.location.line == 3


# --- set-up nodes inside a game ----------------------------------------------------------------------


class _Afters(BaseVisitor[list[tuple[Action, Position | None]]]):
    """Each roll of the first game with the position after it, player 0 as mover."""

    wants = Wants.ROLL

    def __init__(self) -> None:
        self.rolls: list[tuple[Action, Position | None]] = []

    def visit_roll(self, state: DecisionState, action: Action, play: object, after: Position | None) -> None:
        if state.game == 1:
            self.rolls.append((action, None if after is None else after if state.on_roll is ZERO else after.flip()))

    def result(self) -> list[tuple[Action, Position | None]]:
        return self.rolls


def _with_setup(match: Match, roll: int, setup: SetUp) -> Match:
    """``match`` with a SETUP action after the ``roll``-th roll of its first game."""
    action = replay(match, _Afters())[roll][0]
    actions = match.games[0].actions
    at = next(i for i, a in enumerate(actions) if a is action) + 1
    copy = dataclasses.replace(match, games=list(match.games))
    copy.games[0] = dataclasses.replace(match.games[0], actions=[*actions[:at], _setup_action(setup), *actions[at:]])
    return copy


def _setup_action(setup: SetUp) -> Action:
    return Action(ActionKind.SETUP, ZERO, Location("m.sgf", 1, 1), setup=setup)


def test_a_set_up_node_inside_a_game_sets_the_next_position_and_is_a_note() -> None:
    text = GNUBG_108.read_text(encoding="utf-8")
    [match] = sgf.parse_matches(text, path="m.sgf")
    after = replay(match, _Afters())[5][1]
    assert after is not None
    written = format_sgf(_with_setup(match, 5, SetUp(after, None, None, owner_set=True)))
    assert ";AE[a:y]AW" in written and "CP[c]" in written
    [again] = sgf.parse_matches(written, path="w.sgf")
    [setup] = [a for a in again.games[0].actions if a.kind is ActionKind.SETUP]
    assert setup.setup == SetUp(after, None, None, owner_set=True)
    result = replay_match(again)
    [note] = result.findings
    assert (note.code, note.game, note.severity.value) == ("position-set", 1, "note")
    assert note.message == (
        f"set by hand: Position ID {after.position_id()} (charlot1 on roll) and the cube at 1, centred"
    )
    # The board and cube set are the ones the game had: every decision is as before.
    original = format_positions([(match, replay_match(match))])
    assert format_positions([(again, result)]) == original.replace("m.sgf", "w.sgf")


def test_a_set_up_node_sets_a_board_the_next_play_moves_on() -> None:
    # After 31 (8/5 6/5) and 62 (24/18 13/11), the board is set to a bear-off: one White checker on its
    # 1-point, one Black checker on its own 1-point; White's 21 bears off and wins.
    text = (
        "(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]PW[Ann]PB[Bob]RU[Crawford]RE[W+1]\n;W[31hefe]\n;B[62agln]\n"
        ";AE[a:y]AW[a]AB[x]\n;W[21az])"
    )
    [match] = sgf.parse_matches(text, path="m.sgf")
    result = replay_match(match)
    assert [f.code for f in result.findings] == ["position-set"]
    assert result.games[0].winner is ZERO and result.final_score == (1, 0)


@pytest.mark.parametrize(
    ("node", "message"),
    [
        (";AE[a:x]AW[a]", "must empty the whole board first (AE[a:y])"),
        (";AW[a]", "must empty the whole board first (AE[a:y])"),
        (";CV[3]", "the cube value CV[3] must be a power of two"),
    ],
)
def test_a_set_up_node_inside_a_game_that_cannot_be_read(node: str, message: str) -> None:
    text = f"(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b]\n;W[31hefe]\n{node}\n;B[62agln])"
    with pytest.raises(TranscriptSyntaxError, match=re.escape(message)):
        list(sgf.parse_matches(text, path="m.sgf"))


def test_a_set_up_inside_a_game_goes_through_json_and_is_refused_by_the_mat_writer(tmp_path: Path) -> None:
    [match] = sgf.parse_matches(GNUBG_108.read_text(encoding="utf-8"), path="m.sgf")
    after = replay(match, _Afters())[3][1]
    changed = _with_setup(match, 3, SetUp(after))
    [back] = parse_json(format_json([(changed, replay_match(changed))]))
    assert [a.setup for a in back.games[0].actions if a.kind is ActionKind.SETUP] == [SetUp(after)]
    path = tmp_path / "set.sgf"
    path.write_text(format_sgf(changed), encoding="utf-8")
    run = CliRunner().invoke(main, ["convert", "--to", "mat", "--out-dir", str(tmp_path / "out"), str(path)])
    assert run.exit_code == 1
    assert "error[unwritable]" in run.stderr and "no place for a position set inside a game" in run.stderr
    assert not (tmp_path / "out" / "set.mat").exists()
    text = CliRunner().invoke(main, ["convert", "--to", "txt", "--out-dir", str(tmp_path / "txt"), str(path)])
    assert text.exit_code == 0, text.stderr
    [drawn] = (tmp_path / "txt").rglob("*.txt")
    assert f"Set by hand: Position ID {after.position_id()}" in drawn.read_text(encoding="utf-8")
