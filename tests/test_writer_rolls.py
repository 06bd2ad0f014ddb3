"""The rolls the writers draw on: one entry per roll of each game, in order, whatever the replay made of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabla_cli.formats.mat import parse_matches
from tabla_cli.model import ActionKind
from tabla_cli.reader import read_path_matches
from tabla_cli.writers.rolls import replay_rolls

from helpers import corpus_files


@pytest.mark.parametrize("path", corpus_files("mat") + corpus_files("sgf"), ids=lambda p: p.name)
def test_one_entry_per_roll_in_order(path: Path) -> None:
    for match in read_path_matches(path):
        result, rolls = replay_rolls(match)
        assert len(rolls) == len(match.games) == len(result.games)
        for game, decisions in zip(match.games, rolls):
            actions = [a for a in game.actions if a.kind is ActionKind.ROLL]
            assert len(decisions) == len(actions)
            for action, decision in zip(actions, decisions):
                assert decision is None or decision.action is action


def test_resigned_and_unchecked_rolls_have_no_decision() -> None:
    text = """3 point match
Game 1
Ann : 0   Bob : 0
1) 31: 8/5 6/5             42: 8/4 6/4
2) 11: 2/1                 53: 13/8 13/10
3) 64: 24/18 13/9          66: ????
   Wins 1 point

Game 2
Ann : 1   Bob : 0
1) 31: 8/5 6/5             42: ????
   Wins 1 point
"""
    result, rolls = replay_rolls(next(parse_matches(text)))
    first, second = rolls
    # 11: 2/1 is illegal and cannot be applied: the replay follows no roll after it
    assert [d is not None for d in first] == [True, True, True, False, False, False]
    assert first[2].play is None
    assert [d is not None for d in second] == [True, False]  # 42: ???? resigned
    assert second[0] is not None and second[0].play is not None
