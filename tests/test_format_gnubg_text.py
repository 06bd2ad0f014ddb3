"""Tests for tabla_cli.formats.gnubg_text: GNU Backgammon's text export.

The corpus exports (gnubg 1.07, tests/data/corpus/txt) print a Position ID and a
Match ID before every action; they must equal the IDs of the positions our
replay reaches, and the games must equal the same games read from the .mat
transcripts they were made from.
"""

from __future__ import annotations

import dataclasses
import io
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabla_cli.board import Player
from tabla_cli.errors import TablaError, TranscriptSyntaxError
from tabla_cli.formats import gnubg_text, mat
from tabla_cli.grammar import load_grammar
from tabla_cli.ids import decode_match_id
from tabla_cli.model import Action, ActionKind, Game, Match
from tabla_cli.replay import replay_match
from tabla_cli.writers.rolls import replay_rolls

from helpers import CORPUS, corpus_files, replayed_decisions
from match_compare import Carried, match_differences

ZERO, ONE = Player.ZERO, Player.ONE


def export_of(path: Path) -> gnubg_text.TextExport:
    exports = gnubg_text.parse_exports(path.read_text(encoding="utf-8"), path=str(path))
    assert len(exports) == 1
    return exports[0]


RECORD = """Move number {n}:  {header}

 GNU Backgammon  Position ID: {pos}
                 Match ID   : {mid}
 +13-14-15-16-17-18------19-20-21-22-23-24-+     O: Ann
 | X           O    |   | O              X |     0 points
 +12-11-10--9--8--7-------6--5--4--3--2--1-+     X: Bob
Pip counts: O 167, X 167

{action}

Rolled 31:
*    1. Cubeful 2-ply    8/5 6/5                      Eq.: +0.219
       0.551 0.170 0.008 - 0.449 0.117 0.005

"""

HEAD = "The score (after 2 games) is: Ann 1, Bob 3 (match to 5 points)\n\nMatch Information:\n\nAnn's rating: 1700\nDate: 16/09/2023\nEvent: Club\nPlace: Home\nComments: first\nsecond\n\n"


def record(n: int, header: str, action: str, pos: str = "4HPwATDgc/ABMA", mid: str = "MIDlAAAAAAAE") -> str:
    return RECORD.format(n=n, header=header, action=action, pos=pos, mid=mid)


def test_hand_made_export() -> None:
    text = (
        HEAD
        + record(1, "Ann to play 31", "* Ann moves 8/5 6/5")
        + record(2, "Bob on roll, cube decision?", "* Bob doubles")
        + record(3, "Bob doubles to 2", "* Ann accepts")
        + record(4, "Bob to play 66", "* Bob cannot move")
        + record(5, "Ann to play 21", "")
        # The Match ID prints the cube Ann took at 2: 2 points are a single game's resignation.
        + record(6, "Ann resigns 2 points", "", mid="AYDlAAAAAAAE")
        + "Bob wins 2 points\n\nGame statistics for game 3\n\nPlayer  Ann  Bob\n"
    )
    export = gnubg_text.parse_exports(text, path="g.txt")[0]
    match = export.match
    assert match.players == ("Ann", "Bob") and match.length == 5 and match.format == "gnubg-text"
    assert match.ratings == ("1700", None)
    assert match.headers == [("Date", "16/09/2023"), ("Event", "Club"), ("Site", "Home")]
    assert match.comments == ["first", "second"]
    game = match.games[0]
    assert (game.number, game.score) == (3, (1, 3))
    assert [(a.kind.value, int(a.player), a.dice, a.play_text, a.value, a.move_number) for a in game.actions] == [
        ("roll", 0, (3, 1), "8/5 6/5", None, 1),
        ("double", 1, None, None, 2, 2),
        ("take", 0, None, None, None, 3),
        ("roll", 1, (6, 6), "", None, 4),
        ("roll", 0, (2, 1), "", None, 5),
        ("resign", 0, None, None, 1, 6),
        ("win", 1, None, None, 2, None),
    ]
    assert [(p.move, p.kind, int(p.player)) for p in export.positions] == [
        (1, "roll", 0),
        (2, "cube", 1),
        (3, "take", 1),
        (4, "roll", 1),
        (5, "roll", 0),
        (6, "resign", 0),
    ]
    assert export.positions[0].action is game.actions[0]
    assert export.positions[2].action is game.actions[2]
    assert str(export.positions[1].location) == f"g.txt:{HEAD.count(chr(10)) + 16}:1"
    assert str(game.actions[0].location) == f"g.txt:{HEAD.count(chr(10)) + 10}:1"


def test_money_session_and_set_up_start() -> None:
    text = "The score (after 0 games) is: Ann 0, Bob 0\n\n" + record(
        1, "Bob to play 61", "* Bob moves 6/off 1/off", pos="2xIAAAoBAAAAAA", mid="UQkAAAAAAAAA"
    )
    match = gnubg_text.parse_exports(text)[0].match
    assert match.length == 0 and match.rules.jacoby  # bit 66 clear: Jacoby on
    game = match.games[0]
    assert game.start_cube == (2, ONE)
    assert game.start is not None and game.start.flip().position_id() == "2xIAAAoBAAAAAA"


def test_lone_post_crawford_game() -> None:
    """gnubg says 'post-Crawford play': the reader records it (the rule stays on), the replay makes the game one
    after the Crawford game."""
    text = "The score (after 6 games) is: Ann 4, Bob 2 (match to 5 points), post-Crawford play\n\n" + record(
        1, "Ann to play 31", "* Ann moves 8/5 6/5", mid="MIGlAEAAEAAE"
    )
    export = gnubg_text.parse_exports(text)[0]
    assert export.post_crawford == [True] and export.crawford == [False]
    assert export.match.rules.crawford and export.match.games[0].crawford is False
    result = replay_match(export.match).games[0]
    assert not result.crawford and result.post_crawford
    crawford = gnubg_text.parse_exports(text.replace("post-Crawford play", "Crawford game"))[0]
    assert crawford.match.rules.crawford and crawford.match.games[0].crawford is True
    result = replay_match(crawford.match).games[0]
    assert result.crawford and not result.post_crawford
    unsaid = gnubg_text.parse_exports(text.replace(", post-Crawford play", ""))[0]
    assert unsaid.match.games[0].crawford is None  # the rule off, or a score away from match point


def test_beaver_records() -> None:
    text = (
        "The score (after 0 games) is: Ann 0, Bob 0\n\n"
        + record(1, "Ann to play 31", "* Ann moves 8/5 6/5")
        + record(2, "Bob on roll, cube decision?", "* Bob doubles")
        + record(3, "Bob doubles to 2", "* Ann doubles")
        + record(4, "Ann doubles to 4", "* Bob accepts")
        + record(5, "Bob to play 62", "* Bob moves 24/18 13/11")
    )
    game = gnubg_text.parse_exports(text)[0].match.games[0]
    assert [(a.kind.value, a.value) for a in game.actions] == [
        ("roll", None),
        ("double", 2),
        ("beaver", 4),
        ("roll", None),
    ]


def test_consecutive_games_form_one_match() -> None:
    game1 = (
        "The score (after 0 games) is: Ann 0, Bob 0 (match to 3 points)\n\n"
        + record(1, "Ann to play 31", "* Ann moves 8/5 6/5")
        + "Ann wins 1 point\n\n"
    )
    game2 = "The score (after 1 game) is: Ann 1, Bob 0 (match to 3 points)\n\n" + record(
        1, "Bob to play 31", "* Bob moves 8/5 6/5", mid="cAkAAAAAAAAA"
    )
    exports = gnubg_text.parse_exports(game1 + game2)
    assert len(exports) == 1
    assert [(g.number, g.score) for g in exports[0].match.games] == [(1, (0, 0)), (2, (1, 0))]
    other = game2.replace("Bob", "Carl")
    assert len(gnubg_text.parse_exports(game1 + other)) == 2


def test_on_error_skips_the_rest_of_a_game_only() -> None:
    errors: list[TranscriptSyntaxError] = []
    text = (
        "The score (after 0 games) is: Ann 0, Bob 0 (match to 3 points)\n\n"
        + record(1, "Ann to play 31", "* Ann moves 8/5 6/5")
        + record(2, "Bob to play 77", "")
        + record(3, "Ann to play 31", "")
        + "Ann wins 1 point\n\n"
        + "The score (after 1 game) is: Ann 1, Bob 0 (match to 3 points)\n\n"
        + record(1, "Bob to play 31", "* Bob moves 8/5 6/5", mid="cAkAAAAAAAAA")
    )
    [export] = gnubg_text.parse_exports(text, on_error=errors.append)
    assert len(errors) == 1 and "to play 77" in errors[0].message
    assert [len(g.actions) for g in export.match.games] == [1, 1]
    with pytest.raises(TranscriptSyntaxError):
        gnubg_text.parse_exports(text)


def test_read_matches_and_looks_like() -> None:
    text = "The score (after 0 games) is: Ann 0, Bob 0 (match to 1 point)\n" + record(
        1, "Ann to play 31", "* Ann moves 8/5 6/5"
    )
    assert gnubg_text.looks_like_gnubg_text(text)
    assert not gnubg_text.looks_like_gnubg_text(" 1 point match\n")
    matches = list(gnubg_text.read_matches(io.StringIO(text), path="x.txt"))
    assert len(matches) == 1 and matches[0].length == 1


# --- the corpus ------------------------------------------------------------------------


def test_corpus_exports_read_and_replay() -> None:
    """Each file is one game of a match; the only findings are the ones a lone game gives."""
    lone_game = {"game-number", "score-mismatch", "match-incomplete"}
    for path in corpus_files("txt", pattern="*.txt"):
        export = export_of(path)
        match = export.match
        assert len(match.games) == 1
        head = path.read_text(encoding="utf-8").split("\n", 1)[0]
        found = re.search(r"after (\d+) games?\) is: .* (\d+), .* (\d+) \(match to (\d+)", head)
        assert found is not None
        game = match.games[0]
        assert game.number == int(found.group(1)) + 1
        assert game.score == (int(found.group(2)), int(found.group(3)))
        assert match.length == int(found.group(4))
        assert export.crawford[0] == ("Crawford game" in head)
        result = replay_match(match)
        assert {f.code for f in result.findings} <= lone_game, (path, result.findings)
        assert result.games[0].winner is not None
        assert len(export.positions) == sum(1 for a in game.actions if a.kind is not ActionKind.WIN)


def test_corpus_ids_equal_the_replayed_positions() -> None:
    """Every 'to play' record: gnubg's Position ID and Match ID fields equal ours."""
    checked = 0
    for path in corpus_files("txt", pattern="*.txt"):
        export = export_of(path)
        result, games = replayed_decisions(export.match)
        decisions = {id(d.action): (d, g) for g, rolls in zip(result.games, games) for d in rolls}
        for printed in export.positions:
            if printed.kind != "roll":
                continue
            assert printed.action is not None and printed.dice is not None
            decision, game = decisions[id(printed.action)]
            state = decode_match_id(printed.match_id)
            where = f"{path.name} move {printed.move}"
            assert decision.position.position_id() == printed.position_id, where
            assert (state.cube, state.cube_owner) == (decision.cube, decision.cube_owner), where
            assert state.dice is not None and sorted(state.dice) == sorted(printed.dice), where
            assert (state.score, state.length) == (game.score, export.match.length), where
            assert state.crawford == game.crawford, where
            assert state.turn == state.dice_owner == printed.player, where
            checked += 1
    assert checked > 900


def _swapped(match: Match) -> Match:
    """The same match with player 0 and 1 exchanged."""

    def flip(action: Action) -> Action:
        return dataclasses.replace(action, player=action.player.other)

    games = [
        dataclasses.replace(
            g,
            score=(g.score[1], g.score[0]),
            actions=[flip(a) for a in g.actions],
            start=g.start.flip() if g.start else None,
        )
        for g in match.games
    ]
    return dataclasses.replace(match, players=(match.players[1], match.players[0]), games=games)


def test_corpus_exports_equal_their_mat_games() -> None:
    """A text export holds the same game as the .mat transcript it was made from."""
    compared = 0
    for path in corpus_files("txt", pattern="*.txt"):
        stem = re.sub(r"^bglab-(lasse|Llabba)-[0-9]-ply-", r"bglab-\1-", path.stem)
        number_suffix = re.search(r"_0([0-9]{2})$", stem)
        number = int(number_suffix.group(1)) if number_suffix else 1
        source = CORPUS / "mat" / (re.sub(r"_0[0-9]{2}$", "", stem) + ".txt")
        if not source.exists():
            continue
        whole = mat.read_match(source)
        # gnubg drops a '????' roll (the roller resigned without moving).
        game = dataclasses.replace(
            whole.games[number - 1], actions=[a for a in whole.games[number - 1].actions if not a.resigned]
        )
        expected = Match(whole.players, whole.length, [game], rules=whole.rules)
        exported = export_of(path).match
        if exported.players == whole.players[::-1]:
            exported = _swapped(exported)  # the Jaflo export lists the players the other way round
        actual = Match(exported.players, exported.length, exported.games, rules=whole.rules)
        carried = Carried(
            headers=(),
            comments=False,
            ratings=False,
            values=False,
            skip_kinds=frozenset({ActionKind.LOSS}),
            resigned=False,
        )
        assert match_differences(expected, actual, carried) == [], path.name
        doubles = [a.value for a in game.actions if a.kind is ActionKind.DOUBLE]
        assert doubles == [a.value for a in actual.games[0].actions if a.kind is ActionKind.DOUBLE]
        compared += 1
    assert compared >= 5


# --- errors -----------------------------------------------------------------------------


@pytest.mark.parametrize("label", sorted(gnubg_text.ERROR_EXAMPLES))
def test_error_examples_give_their_message(label: str) -> None:
    for example in gnubg_text.ERROR_EXAMPLES[label]:
        with pytest.raises(TranscriptSyntaxError) as info:
            gnubg_text.parse_exports(example, path="x.txt")
        assert info.value.message.startswith(gnubg_text._LABEL_MESSAGES[label]), (example, info.value.message)
        assert info.value.location is not None and info.value.location.line >= 1


def test_record_without_ids_is_reported_at_its_header() -> None:
    text = "The score (after 0 games) is: A 0, B 0\n\nMove number 1:  A to play 31\n\nhello\n"
    with pytest.raises(TranscriptSyntaxError) as info:
        gnubg_text.parse_exports(text, path="x.txt")
    assert info.value.location is not None and info.value.location.line == 3


SCORE = "The score (after 0 games) is: Ann 0, Bob 0 (match to 3 points)\n\n"


@pytest.mark.parametrize(
    ("text", "message", "line", "column"),
    [
        ("The score (after x games) is: Ann 0\n", "cannot read the score line", 1, 1),
        (SCORE + record(1, "Carl to play 31", "* Ann moves 8/5"), "'Carl' is not one of the players", 3, 17),
        (SCORE + record(1, "Ann to play 71", "* Ann moves 8/5"), "cannot read 'to play 71'", 3, 21),
        (SCORE + record(1, "Ann to play 31", "* Bob moves 8/5"), "the record is Ann's roll", 12, 3),
        (SCORE + record(1, "Ann to play 31", "* Ann doubles"), "expected 'Ann moves ...'", 12, 3),
        (SCORE + record(1, "Ann to play 31", "* Carl moves 8/5"), "'Carl' is not one of the players", 12, 3),
        (SCORE + record(1, "Ann to play 31", "", pos="4HPwATDgc/AB"), "Position ID must be 14", 5, 1),
        (SCORE + record(1, "Ann to play 31", "", mid="MIDlAAAA"), "Match ID must be 12", 6, 1),
        (SCORE + record(1, "Ann to play 31", "", pos="4HPwATDgc/AB!A"), "Position ID must be 14", 5, 1),
        (SCORE + record(1, "Ann to play 31", "", pos="AAAAAAAAAAAAA/"), "Position ID", 6, 1),
    ],
)
def test_errors_have_line_and_column(text: str, message: str, line: int, column: int) -> None:
    with pytest.raises(TranscriptSyntaxError) as info:
        gnubg_text.parse_exports(text, path="x.txt")
    error = info.value
    assert message in error.message, error.message
    assert error.location is not None
    assert (error.location.line, error.location.column) == (line, column), error


def test_grammar_builds_strictly() -> None:
    load_grammar(gnubg_text.GRAMMAR, strict=True)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_raises_only_tabla_errors(text: str) -> None:
    try:
        gnubg_text.parse_exports(text)
    except TablaError:
        pass


LINES = st.sampled_from(
    [
        "The score (after 0 games) is: Ann 0, Bob 0 (match to 3 points)",
        "Move number 1:  Ann to play 31",
        "Move number 2:  Bob doubles to 2",
        "Move number 3:  Bob on roll, cube decision?",
        " GNU Backgammon  Position ID: 4HPwATDgc/ABMA",
        "                 Match ID   : MIDlAAAAAAAE",
        " GNU Backgammon  Position ID: ////////////AA",
        "                 Match ID   : ////////////",
        "Pip counts: O 167, X 167",
        "* Ann moves 8/5 6/5",
        "* Bob doubles",
        "* Ann accepts",
        "* Bob rejects",
        "* Ann cannot move",
        "Ann wins 2 points",
        "",
        " | X   O |",
        "Match Information:",
        "Comments: x",
    ]
)


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(st.lists(LINES, max_size=25).map("\n".join))
def test_export_like_text_raises_only_tabla_errors(text: str) -> None:
    try:
        for export in gnubg_text.parse_exports(text):
            replay_rolls(export.match)
    except TablaError:
        pass


def test_game_model_fields() -> None:
    game = Game(1, (0, 0))
    assert game.start is None  # the reader sets it only for a set-up start
