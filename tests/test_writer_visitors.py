"""Every writer is a visitor of the replay: it writes from the replay's steps alone.

The golden files under ``tests/data/writers`` were written by the writers as they were before they became
visitors (when they walked ``game.actions`` themselves); ``events.mat`` has the steps a plain transcript
lacks: a beaver and a raccoon, a resignation, a second ``Wins``, ``Losses`` lines (a forfeit and a
repeat), ``????``, and a game the replay stops following after a play it cannot apply.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tabla_cli.board import Play, Player, Position
from tabla_cli.convert import format_matches
from tabla_cli.formats import mat
from tabla_cli.model import Action, ActionKind, Game, Match
from tabla_cli.replay import GameResult, MatchResult, replay
from tabla_cli.visitor import BaseVisitor, DecisionState, Skip, Tee, Wants
from tabla_cli.writers import WRITERS, get
from tabla_cli.writers.positions import PositionsVisitor

import helpers

DATA = helpers.DATA
GOLDEN = DATA / "writers"
CASES = {
    "events": GOLDEN / "events.mat",
    "spec-3pt-gnubg": DATA / "mat" / "spec-3pt-gnubg.mat",
    "spec-money-xg": DATA / "mat" / "spec-money-xg.mat",
}
TEXT_WRITERS = [w.name for w in WRITERS if w.name != "ogxm"]
"""The writers of text (OGXM's bytes are checked by ``tests/test_format_ogxm.py``, blind too)."""
FIXED = {"sgf": {"application": "tabla:test"}, "json": {"generator": "tabla"}}
"""The arguments that keep a version number out of the golden files."""


def _writer(name: str) -> BaseVisitor[str]:
    writer = get(name)
    kwargs = FIXED.get(name, {})
    if not kwargs:
        return writer.visitor()
    module = importlib.import_module(f"tabla_cli.writers.{writer.module}")
    made: BaseVisitor[str] = getattr(module, writer.visitor_class)(**kwargs)
    return made


def _read(case: str) -> Match:
    """The case's match, read as from ``CASE.mat`` (the JSON document says where it was read from)."""
    return next(mat.parse_matches(CASES[case].read_text(encoding="utf-8"), path=f"{case}.mat"))


def _golden_path(case: str, name: str) -> Path:
    return GOLDEN / f"{case}.expected{get(name).suffix}"


def _golden(case: str, name: str) -> str:
    return _golden_path(case, name).read_text(encoding="utf-8")


class _Blind(BaseVisitor[str]):
    """Hands every step to ``writer``, but shows it the match without its games and each game without its
    actions: what it writes then comes from the steps alone."""

    wants = Wants.ROLL | Wants.CUBE | Wants.RESIGN | Wants.RESULT | Wants.RESULT_LINE | Wants.UNCHECKED

    def __init__(self, writer: BaseVisitor[str]) -> None:
        self.writer = writer
        self.wants = writer.wants

    def begin_match(self, match: Match) -> None:
        self.writer.begin_match(dataclasses.replace(match, games=[]))

    def begin_game(self, game: Game, state: DecisionState) -> Skip | None:
        return self.writer.begin_game(dataclasses.replace(game, actions=[]), state)

    def visit_roll(self, state: DecisionState, action: Action, play: Play | None, after: Position | None) -> None:
        self.writer.visit_roll(state, action, play, after)

    def visit_cube(
        self, state: DecisionState, action: Action, cube_before: int, cube_after: int, owner: Player | None
    ) -> None:
        self.writer.visit_cube(state, action, cube_before, cube_after, owner)

    def visit_resign(self, state: DecisionState, action: Action) -> None:
        self.writer.visit_resign(state, action)

    def visit_result(self, state: DecisionState, action: Action, game_result: GameResult) -> None:
        self.writer.visit_result(state, action, game_result)

    def visit_result_line(self, state: DecisionState, action: Action, game_result: GameResult) -> None:
        self.writer.visit_result_line(state, action, game_result)

    def visit_unchecked(self, action: Action) -> None:
        self.writer.visit_unchecked(action)

    def end_game(self, game_result: GameResult) -> None:
        self.writer.end_game(game_result)

    def end_match(self, match_result: MatchResult) -> None:
        self.writer.end_match(match_result)

    def result(self) -> str:
        return self.writer.result()


@pytest.mark.parametrize("name", TEXT_WRITERS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_writer_as_visitor_writes_the_golden_text(case: str, name: str, golden: Callable[[Path, str], None]) -> None:
    """Replayed beside another visitor (as ``tabla convert`` does), each writer writes what it wrote before."""
    match = _read(case)
    writer = _writer(name)
    replay(match, Tee(PositionsVisitor(), writer))
    golden(_golden_path(case, name), writer.result())


@pytest.mark.parametrize("name", TEXT_WRITERS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_writer_does_not_read_the_actions(case: str, name: str) -> None:
    """A writer shown no games and no actions, only the replay's steps, writes the same text."""
    match = _read(case)
    assert replay(match, _Blind(_writer(name))) == _golden(case, name)


@pytest.mark.parametrize("name", ["positions", "txt"])
def test_format_matches_writes_every_decision_without_a_replay_given(name: str) -> None:
    """``format_matches`` with no result beside a match still writes its decisions, not only the headers."""
    match = _read("spec-3pt-gnubg")
    assert format_matches(name, [(match, None)]) == _golden("spec-3pt-gnubg", name)


def test_every_action_is_visited_once_in_order() -> None:
    """With ``visit_result_line``, the steps of a game are its actions, each once, in order."""

    class Seen(BaseVisitor[list[Any]]):
        wants = Wants.ROLL | Wants.CUBE | Wants.RESIGN | Wants.RESULT | Wants.RESULT_LINE | Wants.UNCHECKED

        def __init__(self) -> None:
            self.seen: list[Any] = []

        def visit_roll(self, state: DecisionState, action: Action, play: Play | None, after: Position | None) -> None:
            self.seen.append(action)

        def visit_cube(
            self, state: DecisionState, action: Action, cube_before: int, cube_after: int, owner: Player | None
        ) -> None:
            self.seen.append(action)

        def visit_resign(self, state: DecisionState, action: Action) -> None:
            self.seen.append(action)

        def visit_result(self, state: DecisionState, action: Action, game_result: GameResult) -> None:
            self.seen.append(action)

        def visit_result_line(self, state: DecisionState, action: Action, game_result: GameResult) -> None:
            self.seen.append(action)

        def visit_unchecked(self, action: Action) -> None:
            self.seen.append(action)

        def result(self) -> list[Any]:
            return self.seen

    match = _read("events")
    seen = replay(match, Seen())
    assert [id(a) for a in seen] == [id(a) for game in match.games for a in game.actions]


class _Retold(_Blind):
    """Hands ``writer`` the steps with what the replay judged changed: every game won with the match."""

    def visit_result(self, state: DecisionState, action: Action, game_result: GameResult) -> None:
        self.writer.visit_result(state, action, dataclasses.replace(game_result, match_won=True))


@pytest.mark.parametrize("name", ["mat", "txt"])
def test_and_the_match_is_where_the_replay_says_the_match_is_won(name: str) -> None:
    """The writers do not add points to the score themselves: a replay that said every game won the match would
    have ``and the match`` on every result."""
    match = _read("spec-3pt-gnubg")
    games = len(match.games)
    assert _golden("spec-3pt-gnubg", name).count(" and the match") == 1
    assert replay(match, _Retold(_writer(name))).count(" and the match") == games


def test_a_double_without_a_value_gets_the_replays_when_the_replay_follows_it_else_its_cube_doubled() -> None:
    """The .mat writer's values of a double: the replay's where it follows the double; where it does not
    (after a play it cannot apply), what a double offers on the cube the replay last reported."""
    match = _read("events")
    cube = (ActionKind.DOUBLE, ActionKind.BEAVER, ActionKind.RACCOON)
    valueless = [
        dataclasses.replace(
            game, actions=[dataclasses.replace(a, value=None) if a.kind in cube else a for a in game.actions]
        )
        for game in match.games
    ]
    stripped = dataclasses.replace(match, games=valueless)
    assert format_matches("mat", [(stripped, None)]) == _golden("events", "mat")
