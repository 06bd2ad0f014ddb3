"""Action, Location and DecisionState: immutable values whose hand-written ``__init__`` must keep up with their fields."""

from __future__ import annotations

import dataclasses
import inspect
import pickle

import pytest

from tabla_cli.errors import Location
from tabla_cli.evaluation.recorded import RecordedAnalysis
from tabla_cli.model import Action, ActionKind
from tabla_cli.visitor import DecisionState


@pytest.mark.parametrize("cls", [Action, DecisionState])
def test_init_takes_every_field_in_order_with_its_default(cls: type) -> None:
    params = list(inspect.signature(cls).parameters.values())
    assert [(p.name, p.default) for p in params] == [
        (f.name, inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default)
        for f in dataclasses.fields(cls)
    ]


def test_location_is_a_frozen_value() -> None:
    where = Location("a.mat", 3, 7)
    assert (where.path, where.line, where.column) == ("a.mat", 3, 7)
    assert where == Location(path="a.mat", line=3, column=7) and hash(where) == hash(Location("a.mat", 3, 7))
    assert Location("a.mat") == Location("a.mat", 0, 0) != where
    assert pickle.loads(pickle.dumps(where)) == where
    with pytest.raises(AttributeError):
        where.line = 4  # type: ignore[misc]


def test_action_is_a_frozen_value_that_compares_without_its_analysis() -> None:
    where = Location("a.mat", 3, 7)
    roll = Action(ActionKind.ROLL, 1, where, 2, (6, 5), "24/13", resigned=False)
    assert (roll.kind, roll.player, roll.location, roll.move_number, roll.dice, roll.play_text) == (
        ActionKind.ROLL,
        1,
        where,
        2,
        (6, 5),
        "24/13",
    )
    assert (roll.value, roll.match_won, roll.resigned, roll.analysis) == (None, False, False, None)
    analysed = dataclasses.replace(roll, analysis=RecordedAnalysis(level="2-ply"))
    assert analysed.analysis == RecordedAnalysis(level="2-ply") and analysed == roll
    assert hash(analysed) == hash(roll)
    assert dataclasses.replace(roll, play_text="13/8") != roll
    win = Action(kind=ActionKind.WIN, player=0, location=where, value=2, match_won=True)
    assert (win.value, win.match_won, win.dice) == (2, True, None)
    assert pickle.loads(pickle.dumps(analysed)) == roll
    with pytest.raises(dataclasses.FrozenInstanceError):
        roll.dice = (1, 1)  # type: ignore[misc]
