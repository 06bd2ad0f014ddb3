"""Readers say only what is written; the replay's cube and the match's rules decide the rest.

FIBS and gnubg's text export write no value with a double's line: the readers
leave it unwritten (``None``) and the replay's cube gives each double, beaver
and raccoon its value. What a header means is in the match's
:class:`~tabla_cli.model.RuleSet`, set by the readers: the replay and the
results read no header.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from test_format_gnubg_text import record

from tabla_cli import replay as replay_module
from tabla_cli import results as results_module
from tabla_cli.board import Player
from tabla_cli.formats import fibs, gnubg_text
from tabla_cli.formats.json import parse_matches as parse_json
from tabla_cli.formats.mat import parse_matches as parse_mat
from tabla_cli.model import Action, ActionKind, Game, Match, RuleSet
from tabla_cli.replay import replay, replay_match
from tabla_cli.results import cube_in_play, session_kind
from tabla_cli.visitor import BaseVisitor, DecisionState, Wants
from tabla_cli.writers.json import format_json
from tabla_cli.writers.text import format_text

ZERO, ONE = Player.ZERO, Player.ONE
_CUBE_KINDS = (ActionKind.DOUBLE, ActionKind.BEAVER, ActionKind.RACCOON)

CubeStep = tuple[str, int, int, Player | None]


class Cubes(BaseVisitor[list[CubeStep]]):
    """Every cube action with the values the replay decided: ``(kind, before, after, owner)``."""

    wants = Wants.CUBE

    def __init__(self) -> None:
        self.steps: list[CubeStep] = []

    def visit_cube(
        self, state: DecisionState, action: Action, cube_before: int, cube_after: int, owner: Player | None
    ) -> None:
        self.steps.append((action.kind.value, cube_before, cube_after, owner))

    def result(self) -> list[CubeStep]:
        return self.steps


# --- FIBS ---------------------------------------------------------------------

FIBS_BEAVERS = """Score is 0-0
ann is X - bob is O
X: (3 1) 17-20 19-20
O: (6 2) 24-18 13-11
X: doubles
O: doubles
X: doubles
O: accepts
X: (6 4) 1-7 1-5
O: (5 2) 13-8 13-11
X: doubles
O: accepts
"""


def test_fibs_doubles_beavers_and_raccoons_carry_no_value() -> None:
    [match] = fibs.parse_matches(FIBS_BEAVERS)
    cube = [(a.kind.value, a.player, a.value) for a in match.games[0].actions if a.kind is not ActionKind.ROLL]
    # The 'accepts' of the raccoon is no action: the beaver was a take already.
    assert cube == [("double", ZERO, None), ("beaver", ONE, None), ("raccoon", ZERO, None)] + [
        ("double", ZERO, None),
        ("take", ONE, None),
    ]
    assert all(a.value is None for a in match.games[0].actions)
    steps = replay(match, Cubes())
    assert steps == [("double", 1, 2, None), ("beaver", 2, 4, ONE), ("raccoon", 4, 8, ZERO)] + [
        ("double", 8, 16, ZERO),
        ("take", 8, 16, ONE),
    ]
    codes = [f.code for f in replay_match(match).findings]
    assert "cube-value" not in codes and "unexpected-answer" not in codes
    # The text writer writes the values the replay gave them.
    done = [line for line in format_text([(match, None)]).splitlines() if line.startswith("* ") and "move" not in line]
    assert done == [
        "* ann doubles to 2",
        "* bob beavers to 4",
        "* ann raccoons to 8",
        "* ann doubles to 16",
        "* bob takes",
    ]


# --- gnubg text export ----------------------------------------------------------------

GNUBG_BEAVER = (
    "The score (after 0 games) is: Ann 0, Bob 0\n\n"
    + record(1, "Ann to play 31", "* Ann moves 8/5 6/5")
    + record(2, "Bob on roll, cube decision?", "* Bob doubles")
    + record(3, "Bob doubles to 2", "* Ann doubles")
    + record(4, "Ann doubles to 4", "* Bob doubles")
    + record(5, "Bob doubles to 8", "* Ann accepts")
)


def test_gnubg_text_values_are_the_ones_its_records_write() -> None:
    """A 'doubles' line writes no value; the next record's header 'Name doubles to V' does."""
    export = gnubg_text.parse_exports(GNUBG_BEAVER)[0]
    game = export.match.games[0]
    assert [(a.kind.value, a.value) for a in game.actions if a.kind in _CUBE_KINDS] == [
        ("double", 2),
        ("beaver", 4),
        ("raccoon", 8),
    ]
    # The records point at the actions the match holds, the values included ('accepts' of a raccoon is none).
    assert [p.action for p in export.positions] == [*game.actions, None]
    assert all(p.action is a for p, a in zip(export.positions, game.actions, strict=False))
    assert replay(export.match, Cubes()) == [("double", 1, 2, None), ("beaver", 2, 4, ZERO), ("raccoon", 4, 8, ONE)]


def test_gnubg_text_double_without_its_answer_record_is_unwritten() -> None:
    """A file that stops after a double (or a beaver) has no header writing its value: the replay decides it."""
    text = GNUBG_BEAVER[: GNUBG_BEAVER.index("Move number 3:")]
    game = gnubg_text.parse_exports(text)[0].match.games[0]
    assert [(a.kind.value, a.value) for a in game.actions if a.kind in _CUBE_KINDS] == [("double", None)]
    beaver = gnubg_text.parse_exports(GNUBG_BEAVER[: GNUBG_BEAVER.index("Move number 4:")])[0].match
    assert [(a.kind.value, a.value) for a in beaver.games[0].actions if a.kind in _CUBE_KINDS] == [
        ("double", 2),
        ("beaver", None),
    ]
    assert replay(beaver, Cubes()) == [("double", 1, 2, None), ("beaver", 2, 4, ZERO)]


def test_gnubg_text_resignation_level_is_read_at_the_printed_cube() -> None:
    """'resigns 4 points' is a gammon at the cube 2 the record's Match ID prints, a single at cube 4."""
    head = "The score (after 0 games) is: Ann 0, Bob 0 (match to 7 points)\n\n"
    first = record(1, "Ann to play 31", "* Ann moves 8/5 6/5")
    for match_id, level in (("AYDlAAAAAAAE", 2), ("EoDlAAAAAAAE", 1), ("MIDlAAAAAAAE", None)):
        text = head + first + record(2, "Bob resigns 4 points", "", mid=match_id)
        game = gnubg_text.parse_exports(text)[0].match.games[0]
        assert [(a.kind, a.value) for a in game.actions][-1] == (ActionKind.RESIGN, level), match_id


# --- the cube machine resolves what is unwritten: a property ---------------------------

Exchange = tuple[str, ...]
"""One cube exchange after a roll: ('take',), ('drop',), ('beaver',) or ('beaver', 'raccoon')."""

EXCHANGES = st.lists(st.sampled_from([("take",), ("beaver",), ("beaver", "raccoon")]), max_size=3).map(
    lambda xs: [*xs, ("drop",)]
)


def _money_game(exchanges: list[Exchange]) -> tuple[Match, list[CubeStep], int]:
    """A money game of cube exchanges (values unwritten), the cube steps they make, and the cube at the end.

    Between exchanges the players roll and dance (their plays are not what is checked here).
    """
    location = Game(1, (0, 0)).location
    actions = [Action(ActionKind.ROLL, ZERO, location, dice=(3, 1), play_text="8/5 6/5")]
    expected: list[CubeStep] = []
    cube, owner, turn = 1, None, ONE
    for exchange in exchanges:
        if owner is not None and owner != turn:
            actions.append(Action(ActionKind.ROLL, turn, location, dice=(1, 2), play_text=""))
            turn = turn.other
        doubler, taker = turn, turn.other
        actions.append(Action(ActionKind.DOUBLE, doubler, location))
        expected.append(("double", cube, 2 * cube, owner))
        if exchange == ("drop",):
            actions.append(Action(ActionKind.DROP, taker, location))
            expected.append(("drop", cube, cube, owner))
            actions.append(Action(ActionKind.WIN, doubler, location, value=cube))
            break
        if exchange == ("take",):
            actions.append(Action(ActionKind.TAKE, taker, location))
            expected.append(("take", cube, 2 * cube, taker))
            cube, owner = 2 * cube, taker
        else:
            actions.append(Action(ActionKind.BEAVER, taker, location))
            expected.append(("beaver", 2 * cube, 4 * cube, taker))
            cube, owner = 4 * cube, taker
            if "raccoon" in exchange:
                actions.append(Action(ActionKind.RACCOON, doubler, location))
                expected.append(("raccoon", cube, 2 * cube, doubler))
                cube, owner = 2 * cube, doubler
        actions.append(Action(ActionKind.ROLL, doubler, location, dice=(1, 2), play_text=""))
        turn = taker
    game = Game(1, (0, 0), actions)
    return Match(("Ann", "Bob"), 0, [game], rules=RuleSet(beaver=True)), expected, cube


@settings(max_examples=60, deadline=None)
@given(EXCHANGES)
def test_unwritten_values_are_the_ones_accepted(exchanges: list[Exchange]) -> None:
    match, expected, cube = _money_game(exchanges)
    assert replay(match, Cubes()) == expected
    result = replay_match(match)
    assert result.games[0].cube == cube
    assert not {"cube-value", "illegal-beaver", "unexpected-answer", "unanswered-double"} & {
        f.code for f in result.findings
    }
    # The same game with every value written as the replay decided it replays alike.
    offered = iter(after for kind, _, after, _ in expected if kind in ("double", "beaver", "raccoon"))
    written = [
        dataclasses.replace(a, value=next(offered)) if a.kind in _CUBE_KINDS else a for a in match.games[0].actions
    ]
    same = Match(match.players, 0, [Game(1, (0, 0), written)], rules=match.rules)
    assert replay(same, Cubes()) == expected
    assert [f.code for f in replay_match(same).findings] == [f.code for f in result.findings]


# --- headers: read once, by the readers ----------------------------------------------------


def test_the_replay_and_the_results_read_no_header() -> None:
    for module in (replay_module, results_module):
        source = Path(module.__file__ or "").read_text(encoding="utf-8")
        assert re.search(r"\.header\(", source) is None, module.__name__


def _one_game(headers: list[tuple[str, str]], rules: RuleSet, length: int = 16) -> Match:
    location = Game(1, (0, 0)).location
    actions = [Action(ActionKind.ROLL, ZERO, location, dice=(3, 1), play_text="8/5 6/5")]
    return Match(("Ann", "Bob"), length, [Game(1, (0, 0), actions)], headers=headers, rules=rules)


def test_the_rules_decide_not_the_headers() -> None:
    """A match whose headers and rules disagree is judged by its rules (the readers made them agree)."""
    galaxy = [("Site", "Backgammon Galaxy")]
    assert session_kind(_one_game(galaxy, RuleSet())) == "match"
    assert session_kind(_one_game([], RuleSet(galaxy=True))) == "one-game"
    assert not cube_in_play(_one_game([("Cube", "on")], RuleSet()))
    assert cube_in_play(_one_game([], RuleSet(cube_said=True)))
    codes = {f.code for f in replay_match(_one_game([("Scoring", "odd")], RuleSet(), length=3)).findings}
    assert "unknown-scoring" not in codes
    unknown = replay_match(_one_game([], RuleSet(scoring="odd"), length=3)).findings
    assert [f.message for f in unknown if f.code == "unknown-scoring"] == [
        "unknown scoring 'odd'; known: standard, 1-2-4-8; scored as standard"
    ]


MAT_HEADERS = """; [Site "Backgammon Galaxy"]
; [Jacoby "Off"]
; [CubeLimit "64"]
; [Scoring "odd"]

16 point match

 Game 1
 Ann : 0                        Bob : 0
  1) 31: 8/5 6/5
"""


def test_readers_put_what_headers_mean_into_the_rules() -> None:
    [match] = parse_mat(MAT_HEADERS)
    rules = match.rules
    assert (rules.galaxy, rules.jacoby_said, rules.cube_said, rules.scoring) == (True, True, True, "odd")
    assert session_kind(match) == "one-game"
    # JSON keeps the headers; reading it back says the same.
    [again] = parse_json(format_json([(match, None)], generator="t"))
    assert again.rules == rules
    # gnubg's text export names the site in its match information.
    text = (
        "The score (after 0 games) is: Ann 0, Bob 0 (match to 16 points)\n\nMatch Information:\n\n"
        "Place: Backgammon Galaxy\n\n" + record(1, "Ann to play 31", "* Ann moves 8/5 6/5")
    )
    export = gnubg_text.parse_exports(text)[0]
    assert export.match.rules.galaxy and session_kind(export.match) == "one-game"
    assert not fibs.parse_matches(FIBS_BEAVERS).__next__().rules.jacoby_said
