"""Tests for tabla_cli.writers.sgf: a match written as GNU Backgammon writes SGF.

The central property: read -> write SGF -> read gives an equal match model in
everything SGF carries, for every corpus .mat and .sgf file and for random
legal games (hypothesis).
"""

from __future__ import annotations

import dataclasses
import io
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabla_cli.board import OFF, Player, Position, legal_plays
from tabla_cli.errors import InvalidPlayError, Location
from tabla_cli.formats import mat, sgf
from tabla_cli.model import Action, ActionKind, Game, Match, RuleSet
from tabla_cli.notation import format_play_plain
from tabla_cli.reader import read_path_matches
from tabla_cli.variant import Backgammon
from tabla_cli.writers.sgf import format_sgf, write_sgf

from helpers import DATA, corpus_files
from match_compare import Carried, match_differences

ZERO, ONE = Player.ZERO, Player.ONE
APP = "tabla:test"

SGF_CARRIES = Carried(
    headers=("Site", "Event", "Round", "Transcriber", "EventDate"),
    rules=("crawford", "jacoby", "cube"),
    skip_kinds=frozenset({ActionKind.LOSS, ActionKind.RESIGN}),
    resigned=False,
)
"""What SGF carries: see docs/formats.md, "What each format carries", for what it loses."""


def round_trip(match: Match) -> Match:
    text = format_sgf(match, application=APP)
    matches = list(sgf.parse_matches(text, path="written.sgf"))
    assert len(matches) == 1, text[:500]
    return matches[0]


def read_sgf(text: str) -> Match:
    matches = list(sgf.parse_matches(text, path="t.sgf"))
    assert len(matches) == 1
    return matches[0]


# --- layout ------------------------------------------------------------------------


SPEC_GAMES = """(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.1.0a16]MI[length:3][game:0][ws:0][bs:0]PW[Petar]PB[Maria]DT[2025-03-14]EV[Club night]PC[Kafene Sofia]AN[specs]RU[Crawford]RE[W+1]GS[...]
;W[31hefe]
;B[62agln]
;W[64mimg]
;B[55]
;W[42iege]
;B[64ydlr]
;W[double]
;B[drop])
(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.1.0a16]MI[length:3][game:1][ws:1][bs:0]PW[Petar]PB[Maria]RU[Crawford]RE[W+1]
;B[52lqln]
;W[65xrrm]
;B[double]
;W[drop])
(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.1.0a16]MI[length:3][game:2][ws:2][bs:0]PW[Petar]PB[Maria]RU[Crawford:CrawfordGame]RE[B+1R]
;W[21mkfe]
;B[43lplo])
"""


def test_layout_is_gnubgs() -> None:
    """The spec's games (§8) come back as gnubg wrote them (less GS and AP)."""
    written = format_sgf(read_sgf(SPEC_GAMES), application="GNU Backgammon:1.1.0a16")
    assert written == SPEC_GAMES.replace("GS[...]", "")


def test_write_sgf_writes_format_sgf() -> None:
    match = read_sgf(SPEC_GAMES)
    handle = io.StringIO()
    write_sgf(match, handle, application=APP)
    assert handle.getvalue() == format_sgf(match, application=APP)


def test_writing_twice_gives_the_same_text() -> None:
    first = format_sgf(read_sgf(SPEC_GAMES), application=APP)
    assert format_sgf(read_sgf(first), application=APP) == first


def _match(actions: list[Action], **game_fields: object) -> Match:
    game = Game(1, (0, 0), actions, **game_fields)  # type: ignore[arg-type]
    return Match(("Ann", "Bob"), 0, [game], rules=RuleSet(jacoby=True, beaver=True))  # SGF money allows beavers


def _roll(player: Player, dice: tuple[int, int], text: str, **extra: object) -> Action:
    return Action(ActionKind.ROLL, player, Location("m"), dice=dice, play_text=text, **extra)  # type: ignore[arg-type]


def test_setup_position_and_cube() -> None:
    start = Position.from_points({1: 2, 2: 2, 6: 1}, {1: 1, 25: 1})
    match = _match([_roll(ONE, (6, 1), "25/19 1/0")], start=start, start_cube=(2, ONE))
    text = format_sgf(match, application=APP)
    assert "\n;PL[B]AE[a:y]AW[f][b][b][a][a]AB[y][x]CV[2]CP[b]\n;B[61yfxz]" in text
    back = round_trip(match)
    assert back.games[0].start == start and back.games[0].start_cube == (2, ONE)
    assert match_differences(match, back) == []


def test_owned_cube_without_set_up_position() -> None:
    match = _match([_roll(ZERO, (3, 1), "8/5 6/5")], start_cube=(4, ZERO))
    assert "RU[Jacoby]\n;PL[W]CV[4]CP[w]\n;W[31hefe]" in format_sgf(match, application=APP)
    back = round_trip(match)
    assert back.games[0].start is None and back.games[0].start_cube == (4, ZERO)
    assert match_differences(match, back) == []


def test_automatic_double_is_root_cv() -> None:
    match = _match([_roll(ZERO, (3, 1), "8/5 6/5")], start_cube=(2, None))
    assert "RU[Jacoby]CV[2]\n;W[31hefe]" in format_sgf(match, application=APP)
    assert match_differences(match, round_trip(match)) == []


def test_beaver_and_raccoon_round_trip() -> None:
    loc = Location("m")
    actions = [
        _roll(ZERO, (3, 1), "8/5 6/5"),
        Action(ActionKind.DOUBLE, ONE, loc, value=2),
        Action(ActionKind.BEAVER, ZERO, loc, value=4),
        Action(ActionKind.RACCOON, ONE, loc, value=8),
        _roll(ONE, (6, 2), "24/18 13/11"),
    ]
    match = _match(actions)
    text = format_sgf(match, application=APP)
    assert ";B[double]\n;W[double]\n;B[double]\n;W[take]\n;B[62agln]" in text
    assert match_differences(match, round_trip(match)) == []


def test_resigned_roll_and_resignation() -> None:
    loc = Location("m")
    match = _match(
        [
            _roll(ZERO, (3, 1), "8/5 6/5"),
            _roll(ONE, (6, 2), "", resigned=True),
            Action(ActionKind.WIN, ZERO, loc, value=1),
        ]
    )
    text = format_sgf(match, application=APP)
    assert "RE[W+1R]" in text and text.endswith(";B[62])\n")
    back = round_trip(match)
    assert match_differences(match, back, SGF_CARRIES) == []
    assert [a.kind for a in back.games[0].actions] == [ActionKind.ROLL, ActionKind.ROLL, ActionKind.WIN]


def test_metadata() -> None:
    match = _match([_roll(ZERO, (3, 1), "8/5 6/5")])
    match.headers = [("EventDate", "2024.4.2"), ("Site", "Club ] room"), ("ClockType", "x"), ("Round", "2")]
    match.ratings = ("1600", None)
    match.comments = ["line one", "line two"]
    match.variant = "nackgammon"
    match.games[0].actions = [_roll(ZERO, (3, 1), "8/5 6/5")]
    text = format_sgf(match, application=APP)
    assert "WR[1600]DT[2024-04-02]RO[2]PC[Club \\] room]GC[line one\nline two]RU[Jacoby:Nackgammon]" in text
    back = round_trip(match)
    assert back.headers == [("EventDate", "2024.04.02"), ("Round", "2"), ("Site", "Club ] room")]
    assert back.comments == match.comments and back.ratings == match.ratings
    assert back.variant == "nackgammon"


def test_illegal_play_is_written_as_written() -> None:
    match = _match([_roll(ZERO, (3, 1), "13/7")])  # 6 pips with a 3-1
    text = format_sgf(match, application=APP)
    assert ";W[31mg]" in text
    back = round_trip(match)
    assert back.games[0].actions[0].play_text == "13/7"
    assert match_differences(match, back) == []


def test_unreadable_play_cannot_be_written() -> None:
    match = _match([_roll(ZERO, (3, 1), "8/5 6/5"), _roll(ONE, (6, 2), "hello")])
    with pytest.raises(InvalidPlayError) as info:
        format_sgf(match)
    assert info.value.location == Location("m")


# --- round trips over the corpus ------------------------------------------------------------


@pytest.mark.parametrize("path", corpus_files("mat"), ids=lambda p: p.name)
def test_corpus_mat_round_trip(path: Path) -> None:
    for match in mat.parse_matches(mat.read_text(path), path=str(path)):
        assert match_differences(match, round_trip(match), SGF_CARRIES) == []


@pytest.mark.parametrize("path", corpus_files("sgf", pattern="*.sgf"), ids=lambda p: p.name)
def test_corpus_sgf_round_trip(path: Path) -> None:
    match = read_sgf(path.read_text(encoding="utf-8"))
    # SGF to SGF loses nothing the model holds.
    assert match_differences(match, round_trip(match)) == []


# --- random legal games ---------------------------------------------------------------------


def random_match(seed: int, length: int, games: int) -> Match:
    """Legal games with random plays, doubles, takes, drops, beavers and results."""
    rng = random.Random(seed)
    loc = Location("random")
    match = Match(("Ann", "Bob"), length, rules=RuleSet(jacoby=rng.random() < 0.5, beaver=not length))
    score = [0, 0]
    for number in range(1, games + 1):
        actions: list[Action] = []
        position = Backgammon.start_position()
        player = Player(rng.randrange(2))
        cube, owner, first = 1, None, True
        result: tuple[Player, int] | None = None
        for _ in range(rng.randrange(1, 70)):
            if not first and (owner is None or owner == player) and rng.random() < 0.08:
                actions.append(Action(ActionKind.DOUBLE, player, loc, value=cube * 2))
                answer = rng.random()
                if answer < 0.3:
                    actions.append(Action(ActionKind.DROP, player.other, loc))
                    result = (player, cube)
                    break
                if not length and answer < 0.45:
                    actions.append(Action(ActionKind.BEAVER, player.other, loc, value=cube * 4))
                    cube *= 4
                else:
                    actions.append(Action(ActionKind.TAKE, player.other, loc))
                    cube *= 2
                owner = player.other
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            while first and dice[0] == dice[1]:
                dice = (rng.randint(1, 6), rng.randint(1, 6))
            first = False
            plays = list(legal_plays(position, dice).items())
            after, play = plays[rng.randrange(len(plays))]
            actions.append(Action(ActionKind.ROLL, player, loc, dice=dice, play_text=format_play_plain(play)))
            if after.mover[OFF] == 15:
                result = (player, cube * Backgammon.outcome(after))
                break
            position = after.flip()
            player = player.other
        if result is None and rng.random() < 0.7:
            result = (Player(rng.randrange(2)), cube)  # a resignation
        if result is not None:
            actions.append(Action(ActionKind.WIN, result[0], loc, value=result[1]))
        match.games.append(Game(number, (score[0], score[1]), actions))
        if result is None:
            break
        score[result[0]] += result[1]
        if length and max(score) >= length:
            break
    return match


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([0, 1, 3, 5, 7]), st.integers(1, 4))
def test_random_legal_matches_round_trip(seed: int, length: int, games: int) -> None:
    match = random_match(seed, length, games)
    back = round_trip(match)
    assert match_differences(match, back) == []


def test_a_doubles_analysis_is_at_the_replays_cube_not_at_half_the_value_written() -> None:
    """``DA`` in match play depends on the cube before the double: the replay's, whatever value the transcript
    writes on the double (a wrong one is the check's finding, not the analysis's cube)."""
    path = DATA / "corpus" / "txt" / "bglab-lasse-2-ply-match967143.txt"
    match = next(read_path_matches(path))
    game = match.games[0]
    double = next(i for i, a in enumerate(game.actions) if a.kind is ActionKind.DOUBLE)
    assert game.actions[double].value == 2 and match.length == 7
    written = format_sgf(match, application=APP)
    assert written.count("DA[") >= 2  # the double's and the answer's
    wrong = dataclasses.replace(game.actions[double], value=16)
    misvalued = dataclasses.replace(
        match, games=[dataclasses.replace(game, actions=[*game.actions[:double], wrong, *game.actions[double + 1 :]])]
    )
    assert format_sgf(misvalued, application=APP) == written
