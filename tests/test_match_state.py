"""The match's state between games (score, Crawford, post-Crawford, over, winner, away), as the replay drives it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tabla_cli.match_state import MatchScore, away


def test_money_play_has_no_away_no_crawford_and_no_winner() -> None:
    state = MatchScore(length=0)
    state.award(0, 64)
    assert (state.away(0), state.away(1), state.begin_game(None), state.over, state.winner) == (
        0,
        0,
        (False, False),
        False,
        None,
    )


def test_a_written_crawford_word_overrides_the_rule() -> None:
    state = MatchScore(length=5, crawford_rule=True, score=(4, 2))
    assert state.begin_game(False) == (False, True)  # the transcript says this 1-away game is not the Crawford game
    assert state.begin_game(None) == (False, True)
    assert MatchScore(length=5, crawford_rule=False, score=(4, 2)).begin_game(None) == (False, False)
    assert MatchScore(length=5, crawford_rule=False, score=(4, 2)).begin_game(True) == (True, False)


def test_a_score_line_at_the_length_ends_the_match() -> None:
    state = MatchScore(length=3)
    state.score = (3, 1)
    assert state.over and not state.finished and state.winner == 0


@given(st.integers(1, 25), st.lists(st.tuples(st.integers(0, 1), st.integers(1, 6)), max_size=30))
def test_only_one_crawford_game_and_away_counts_down(length: int, games: list[tuple[int, int]]) -> None:
    state = MatchScore(length=length)
    crawfords = 0
    for winner, points in games:
        if state.over:
            break
        crawford, post = state.begin_game(None)
        crawfords += crawford
        assert not (crawford and post)
        before = state.away(winner)
        state.award(winner, points)
        assert state.away(winner) == before - points == away(length, state.score, winner)
    assert crawfords <= 1
    assert (state.winner is not None) == state.over
