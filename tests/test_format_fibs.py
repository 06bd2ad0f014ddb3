"""Tests for tabla_cli.formats.fibs: FIBS ``oldmoves`` records.

No FIBS file was found for the corpus; the files in tests/data/fibs/ follow
the structure gnubg's importer reads (docs/formats.md, "FIBS oldmoves"), with
legal games made by our move generator.
"""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabla_cli.board import Player
from tabla_cli.errors import TablaError, TranscriptSyntaxError
from tabla_cli.formats import fibs
from tabla_cli.grammar import load_grammar
from tabla_cli.model import Match
from tabla_cli.replay import replay_match
from tabla_cli.writers.mat import write_mat
from tabla_cli.writers.rolls import replay_rolls

import helpers
from match_compare import match_differences

DATA = helpers.DATA / "fibs"
ZERO, ONE = Player.ZERO, Player.ONE


def read(name: str) -> list[Match]:
    path = DATA / name
    with path.open(encoding="utf-8") as handle:
        return list(fibs.read_matches(handle, path=str(path)))


def actions(match: Match, game: int) -> list[tuple[str, int, tuple[int, int] | None, str | None, int | None]]:
    return [(a.kind.value, int(a.player), a.dice, a.play_text, a.value) for a in match.games[game].actions]


def test_three_point_match() -> None:
    [match] = read("match3.txt")
    assert match.players == ("alice", "bob") and match.length == 3 and match.format == "fibs"
    assert [(g.number, g.score) for g in match.games] == [(1, (0, 0)), (2, (1, 0)), (3, (2, 0))]
    first = actions(match, 0)
    # alice is X: her moves are written upwards (19-23 17-22) and turned round.
    assert first[0] == ("roll", 0, (4, 5), "6/2 8/3", None)
    assert first[1] == ("roll", 1, (4, 5), "24/20 13/8", None)
    # FIBS writes no cube value: the double carries none, the replay's cube gives it.
    assert first[-3:] == [("double", 0, None, None, None), ("drop", 1, None, None, None), ("win", 0, None, None, 1)]
    # "wants to resign" + "rejects" is dropped; + "accepts" is a resignation.
    assert actions(match, 1)[-2:] == [("resign", 1, None, None, None), ("win", 0, None, None, 1)]
    result = replay_match(match)
    assert result.findings == []
    assert [(g.ended_by, g.crawford) for g in result.games] == [("drop", False), ("resign", False), ("bearoff", True)]
    assert result.final_score == (3, 0)
    assert match.games[2].actions[0].location.line == 39


def test_locations() -> None:
    [match] = read("match3.txt")
    action = match.games[0].actions[2]
    assert (action.location.line, action.location.column) == (5, 1)
    assert match.games[1].location.line == 19


def test_moves_written_in_the_movers_own_numbering() -> None:
    """A move list going downwards is taken as written: the same game either way."""
    [own] = read("own-numbering.txt")
    [match] = read("match3.txt")
    first_game = Match(match.players, match.length, match.games[:1])
    assert match_differences(first_game, own) == []


def test_money_game_with_cube() -> None:
    [match] = read("money.txt")
    assert match.players == ("carol", "dave") and match.length == 0
    kinds = [k[0] for k in actions(match, 0)]
    assert kinds[6:8] == ["double", "take"] and kinds[-1] == "win"
    result = replay_match(match)
    assert result.findings == []
    assert result.games[0].ended_by == "bearoff" and result.final_score == (2, 0)


def test_swapped_score_and_colours() -> None:
    """Colours change between games; the reader says the score as written, swapped in game 3, and the
    replay takes it swapped back (FIBS's score lines may be in either order), as every writer then does."""
    [match] = read("swapped-score.txt")
    assert match.players == ("alice", "bob")
    assert [g.score for g in match.games] == [(0, 0), (0, 1), (2, 0)]
    assert all(g.score_unordered for g in match.games)
    assert actions(match, 1)[0] == ("roll", 0, (6, 4), "24/18 13/9", None)  # alice is O in game 2
    result = replay_match(match)
    assert [f.code for f in result.findings] == ["match-incomplete"]
    assert [g.score for g in result.games] == [(0, 0), (0, 1), (0, 2)]
    out = io.StringIO()
    write_mat(match, out)
    assert [line.split() for line in out.getvalue().splitlines() if " : " in line][2] == [
        "alice",
        ":",
        "0",
        "bob",
        ":",
        "2",
    ]


def test_a_swapped_score_that_the_games_do_not_make_is_a_mismatch() -> None:
    """Only the order is free: a score line that is wrong either way is still a finding."""
    [match] = read("swapped-score.txt")
    match.games[2].score = (3, 0)
    assert "score-mismatch" in [f.code for f in replay_match(match).findings]


def test_new_players_start_a_new_match() -> None:
    text = (
        "Score is 0-0 in a 1 point match.\nann is X - bob is O\nX: (3 1) 17-20 19-20\n\n"
        "Score is 0-0 in a 1 point match.\ncarl is X - dan is O\nO: (3 1) 8-5 6-5\n"
    )
    matches = list(fibs.parse_matches(text))
    assert [m.players for m in matches] == [("ann", "bob"), ("carl", "dan")]


def test_entering_and_bearing_off_both_ways() -> None:
    text = "Score is 0-0\nann is X - bob is O\nX: (3 1) bar-3 20-off\nO: (6 5) bar-20 5-off\n"
    [match] = fibs.parse_matches(text)
    assert [a.play_text for a in match.games[0].actions] == ["25/22 5/0", "25/20 5/0"]


def test_other_lines_between_games_are_ignored() -> None:
    text = "oldmoves for ann\n\nScore is 0-0 in a 1 point match.\nann is X - bob is O\nO: (3 1) 8-5 6-5\n\nbye\n"
    [match] = fibs.parse_matches(text)
    assert len(match.games) == 1


def test_on_error_skips_the_rest_of_a_game_only() -> None:
    errors: list[TranscriptSyntaxError] = []
    text = (
        HEAD + "X: (3 1) 17-20 19-20\nO: (6 2) 24+18\nX: doubles\n\n"
        "Score is 0-1 in a 3 point match.\nann is X - bob is O\nO: (3 1) 8-5 6-5\n"
    )
    [match] = fibs.parse_matches(text, on_error=errors.append)
    assert len(errors) == 1 and errors[0].location is not None and errors[0].location.line == 4
    assert [len(g.actions) for g in match.games] == [1, 1]


def test_looks_like_fibs() -> None:
    assert fibs.looks_like_fibs((DATA / "match3.txt").read_text(encoding="utf-8"))
    assert not fibs.looks_like_fibs(" 3 point match\n Game 1\n")
    assert not fibs.looks_like_fibs("Score is 1-0\nhello\n")


# --- errors -----------------------------------------------------------------------------


@pytest.mark.parametrize("label", sorted(fibs.ERROR_EXAMPLES))
def test_error_examples_give_their_message(label: str) -> None:
    for example in fibs.ERROR_EXAMPLES[label]:
        with pytest.raises(TranscriptSyntaxError) as info:
            list(fibs.parse_matches(example, path="o.txt"))
        assert info.value.message.startswith(fibs._LABEL_MESSAGES[label]), (example, info.value.message)
        assert info.value.location is not None and info.value.location.line >= 1


HEAD = "Score is 0-0 in a 3 point match.\nann is X - bob is O\n"


@pytest.mark.parametrize(
    ("text", "message", "line", "column"),
    [
        ("", "no game found", 1, 1),
        ("hello\n", "no game found", 1, 1),
        ("Score is 0-0 in a 3 point match.\nann is X - bob is X\n", "one player X, the other O", 2, 1),
        ("Score is x\nann is X - bob is O\n", "cannot read the score line", 1, 1),
        (HEAD + "X: (7 1) 17-20\n", "cannot read the roll '(7 1) 17-20'", 3, 4),
        (HEAD + "X: (3 1) 17+20\n", "cannot read the move '17+20'", 3, 10),
        (HEAD + "X: (3 1) 17-20 8-7\n", "go in both directions", 3, 10),
        (HEAD + "X: (3 1) 30-20\n", "'30-20' is not a move", 3, 10),
        (HEAD + "X: hello\n", "cannot read 'hello'", 3, 4),
    ],
)
def test_errors_have_line_and_column(text: str, message: str, line: int, column: int) -> None:
    with pytest.raises(TranscriptSyntaxError) as info:
        list(fibs.parse_matches(text, path="o.txt"))
    error = info.value
    assert message in error.message, error.message
    assert error.location is not None
    assert (error.location.line, error.location.column) == (line, column), error


def test_grammar_builds_strictly() -> None:
    load_grammar(fibs.GRAMMAR, strict=True)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_raises_only_tabla_errors(text: str) -> None:
    try:
        list(fibs.read_matches(io.StringIO(text)))
    except TablaError:
        pass


LINES = st.sampled_from(
    [
        "Score is 0-0 in a 3 point match.",
        "Score is 1-2",
        "ann is X - bob is O",
        "bob is X - ann is O",
        "X: (3 1) 17-20 19-20",
        "O: (6 2) 24-18 13-11",
        "X: (6 6) can't move",
        "O: doubles",
        "X: accepts",
        "X: rejects",
        "O: wants to resign",
        "X: wins 2 points",
        "O: wins",
        "X: (3 1) bar-3 20-off",
        "",
        "junk",
    ]
)


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(st.lists(LINES, max_size=20).map("\n".join))
def test_oldmoves_like_text_raises_only_tabla_errors(text: str) -> None:
    try:
        for match in fibs.parse_matches(text):
            replay_rolls(match)
    except TablaError:
        pass
