"""Write matches as tabla's own JSON (schema ``tabla-match/1``, see ``docs/json-schema.md``).

One document holds every match of an input::

    {"schema": "tabla-match/1", "generator": "tabla 0.1.0", "matches": [...]}

Each match carries everything the match model holds (players, ratings,
length, variant, rules, headers in order, comments, where it was read from)
and its games (number, score, Crawford flag, set-up start and cube, an
``outcome`` computed by the replay) with their actions (kind, player,
printed move number, dice, the play as written *and* the single-die steps
the replay resolved it to, cube values, results, ``????``, where each was
written), and the analysis an action carries (the evaluation of each of
its decisions, see :func:`evaluation_data`). :mod:`tabla_cli.formats.json`
reads it back into an equal model.

Small objects (an action, a score, the dice) stay on one line, so the
document diffs well and stays readable.

Example:
    >>> from tabla_cli.formats.mat import parse_matches
    >>> text = '''3 point match
    ... Game 1
    ... Ann : 0   Bob : 0
    ... 1) 31: 6/5 8/5   Doubles => 2
    ... 2) Drops
    ...                            Wins 1 point
    ... '''
    >>> match = next(parse_matches(text, path="m.mat"))
    >>> print(format_json([(match, None)], generator="tabla"), end="")
    {
      "schema": "tabla-match/1",
      "generator": "tabla",
      "matches": [
        {
          "players": ["Ann", "Bob"],
          "ratings": [null, null],
          "length": 3,
          "variant": "",
          "rules": {"crawford": true, "jacoby": false, "beaver": false, "cube_limit": 4096, "cube": true, "scoring": "standard"},
          "headers": [],
          "comments": [],
          "source": {"path": "m.mat", "format": "mat", "location": [1, 1]},
          "games": [
            {
              "number": 1,
              "score": [0, 0],
              "location": [2, 1],
              "outcome": {"winner": 1, "points": 1, "ended_by": "drop", "result": "single", "cube": 1, "cube_owner": null, "crawford": false},
              "actions": [
                {"kind": "roll", "player": 0, "move": 1, "dice": [3, 1], "play": "6/5 8/5", "steps": [[8, 5, false], [6, 5, false]], "location": [4, 4]},
                {"kind": "double", "player": 1, "move": 1, "value": 2, "location": [4, 18]},
                {"kind": "drop", "player": 0, "move": 2, "location": [5, 4]},
                {"kind": "win", "player": 1, "value": 1, "location": [6, 28]}
              ]
            }
          ]
        }
      ]
    }
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace
from typing import Any, TextIO

from tabla_cli import __version__
from tabla_cli.board import Play, Player, Position
from tabla_cli.errors import Location, TablaError
from tabla_cli.evaluation.recorded import RecordedAnalysis, evaluation_from_recorded
from tabla_cli.evaluation.types import DecisionKind, Evaluation
from tabla_cli.model import Action, ActionKind, Game, Match
from tabla_cli.replay import GameResult, MatchResult, replay
from tabla_cli.visitor import BaseVisitor, DecisionState, Wants, recorded_at, recorded_unread
from tabla_cli.writers.mat import canonical_play

__all__ = ["GENERATOR", "SCHEMA", "JsonWriter", "evaluation_data", "format_json", "match_data", "write_json"]

SCHEMA = "tabla-match/1"
"""The ``schema`` value of documents this module writes."""

GENERATOR = f"tabla {__version__}"
"""The default ``generator`` value."""

_VALUED = frozenset({ActionKind.DOUBLE, ActionKind.BEAVER, ActionKind.RACCOON, ActionKind.WIN, ActionKind.LOSS})
_INLINE_WIDTH = 100
_CUBE_DECISIONS = {
    ActionKind.ROLL: DecisionKind.DOUBLE,
    ActionKind.DOUBLE: DecisionKind.DOUBLE,
    ActionKind.TAKE: DecisionKind.TAKE,
    ActionKind.DROP: DecisionKind.TAKE,
    ActionKind.BEAVER: DecisionKind.TAKE,
}
"""The cube decision an action's ``analysis.cube`` evaluates (as the analysis counts decisions)."""
_EVALUATION_DEFAULTS: dict[str, Any] = {
    "error_mwc": None,
    "rank": None,
    "options": 1,
    "forced": False,
    "close": True,
    "luck": None,
    "skill": None,
    "cube_equities": None,
    "spread": None,
    "rollout_se": None,
    "rollout_trials": None,
    "level_error": None,
}
_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode


def write_json(
    matches: Iterable[tuple[Match, MatchResult | None]], handle: TextIO, *, generator: str = GENERATOR
) -> None:
    """Write one ``tabla-match/1`` document holding ``matches`` to ``handle``.

    Args:
        matches: each match (replayed here; the result beside it is not needed).
        handle: a text stream (UTF-8).
        generator: the ``generator`` value.
    """
    handle.write(format_json(matches, generator=generator))


def format_json(matches: Iterable[tuple[Match, MatchResult | None]], *, generator: str = GENERATOR) -> str:
    """The document text (ending in a newline); see :func:`write_json`."""
    writer = JsonWriter(generator)
    for match, _ in matches:
        replay(match, writer)
    return writer.result()


def match_data(match: Match) -> dict[str, Any]:
    """One match as plain data (the objects of the document's ``matches`` list)."""
    writer = JsonWriter()
    replay(match, writer)
    return writer.matches[0]


class JsonWriter(BaseVisitor[str]):
    """Builds the document of every match it visits from the replay's steps alone.

    Every action comes as one step, in order, with the play the replay
    resolved; a game's ``outcome`` is what the replay established.
    :meth:`result` is the document of the matches so far.

    Args:
        generator: the ``generator`` value.
    """

    wants = Wants.ROLL | Wants.CUBE | Wants.RESIGN | Wants.RESULT | Wants.RESULT_LINE | Wants.UNCHECKED | Wants.SETUP

    def __init__(self, generator: str = GENERATOR) -> None:
        self.generator = generator
        self.matches: list[dict[str, Any]] = []
        self.game: Game | None = None
        self.actions: list[dict[str, Any]] = []

    def begin_match(self, match: Match) -> None:
        self.matches.append(_match(match))

    def begin_game(self, game: Game, state: DecisionState) -> None:
        self.game = game
        self.actions = []

    def visit_roll(self, state: DecisionState, action: Action, play: Play | None, after: Position | None) -> None:
        if self.game is not None and action is self.game.trailing_roll:
            return  # a roll without moves after the record's last move: not one of the game's actions
        steps = None if play is None else canonical_play(state.position, play)
        self.actions.append(_action(action, steps, recorded_at(state, action)))

    def visit_resign(self, state: DecisionState, action: Action) -> None:
        self.actions.append(_action(action, None, recorded_at(state, action)))

    def visit_unchecked(self, action: Action) -> None:
        self.actions.append(_action(action, None, recorded_unread(action)))

    def visit_cube(
        self, state: DecisionState, action: Action, cube_before: int, cube_after: int, owner: Player | None
    ) -> None:
        recorded = recorded_at(state, action)
        if action.kind in _VALUED and action.value is None:
            action = replace(action, value=cube_after)  # the value the transcript left to the replay (FIBS, SGF)
        self.actions.append(_action(action, None, recorded))

    def visit_result(self, state: DecisionState, action: Action, game_result: GameResult) -> None:
        self.actions.append(_action(action, None, recorded_at(state, action)))

    def visit_result_line(self, state: DecisionState, action: Action, game_result: GameResult) -> None:
        self.actions.append(_action(action, None, recorded_at(state, action)))

    def visit_setup(self, state: DecisionState, action: Action) -> None:
        self.actions.append(_action(action, None, None))

    def end_game(self, game_result: GameResult) -> None:
        assert self.game is not None  # begin_game came first
        self.matches[-1]["games"].append(_game(self.game, game_result, self.actions))

    def result(self) -> str:
        document = {"schema": SCHEMA, "generator": self.generator, "matches": self.matches}
        return _dump(document, 0) + "\n"


def _match(match: Match) -> dict[str, Any]:
    """A match's own data, its games still to come."""
    rules = match.rules
    return {
        "players": list(match.players),
        "ratings": list(match.ratings),
        "length": match.length,
        "variant": match.variant,
        "rules": {
            "crawford": rules.crawford,
            "jacoby": rules.jacoby,
            "beaver": rules.beaver,
            "cube_limit": rules.cube_limit,
            "cube": rules.cube,
            "scoring": rules.scoring,
        },
        "headers": [[key, value] for key, value in match.headers],
        "comments": list(match.comments),
        "source": _source(match),
        "games": [],
    }


def _source(match: Match) -> dict[str, Any]:
    source: dict[str, Any] = {"path": match.location.path or match.path or None, "format": match.format or None}
    where = _where(match.location)
    if where is not None:
        source["location"] = where
    return source


def _where(location: Location) -> list[int] | None:
    if not location.line:
        return None
    return [location.line, location.column or 1]


def _position(position: Position) -> dict[str, Any]:
    """Every checker of ``position`` (player 0 as mover), with its gnubg Position ID where it has one."""
    data: dict[str, Any] = {"player0": list(position.mover), "player1": list(position.opponent)}
    try:
        data["position_id"] = position.position_id()
    except TablaError:  # a position gnubg's ID cannot hold
        pass
    return data


def _game(game: Game, result: GameResult, actions: list[dict[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {"number": game.number, "score": list(result.score)}
    if game.crawford is not None:
        data["crawford"] = game.crawford
    if game.variant is not None:
        data["variant"] = game.variant
    if game.start is not None:
        data["start"] = _position(game.start)
    if game.start_cube is not None:
        value, owner = game.start_cube
        data["start_cube"] = {"value": value, "owner": None if owner is None else int(owner)}
    where = _where(game.location)
    if where is not None:
        data["location"] = where
    data["outcome"] = {
        "winner": None if result.winner is None else int(result.winner),
        "points": result.points,
        "ended_by": result.ended_by,
        "result": result.result,
        "cube": result.cube,
        "cube_owner": None if result.cube_owner is None else int(result.cube_owner),
        "crawford": result.crawford,
    }
    data["actions"] = actions
    return data


def _action(action: Action, steps: Play | None, recorded: RecordedAnalysis | None) -> dict[str, Any]:
    """One action as plain data; ``steps``: a roll's play as the replay resolved it (None: not resolved);
    ``recorded``: its recorded analysis, read at its state (:func:`~tabla_cli.visitor.recorded_at`)."""
    kind = action.kind
    data: dict[str, Any] = {"kind": kind.value, "player": int(action.player)}
    if action.move_number is not None:
        data["move"] = action.move_number
    if kind is ActionKind.ROLL:
        data["dice"] = list(action.dice) if action.dice is not None else None
        data["play"] = action.play_text if action.play_text is not None else ""
        if action.resigned:
            data["resigned"] = True
        else:
            data["steps"] = None if steps is None else [[s.src, s.dst, s.hit] for s in steps]
    elif action.value is not None or kind in _VALUED:
        data["value"] = action.value
    if kind is ActionKind.WIN and action.match_won:
        data["match_won"] = True
    if action.setup is not None:
        setup = action.setup
        if setup.position is not None:
            data["position"] = _position(setup.position)
        if setup.cube is not None:
            data["cube"] = setup.cube
        if setup.owner_set:
            data["cube_owner"] = None if setup.owner is None else int(setup.owner)
    where = _where(action.location)
    if where is not None:
        data["location"] = where
    if recorded is not None:
        analysis = _analysis(recorded, kind)
        if analysis:
            data["analysis"] = analysis
    if action.comment:
        data["comment"] = action.comment
    if action.flagged:
        data["flagged"] = True
    return data


def _analysis(recorded: RecordedAnalysis, kind: ActionKind) -> dict[str, Any]:
    """The evaluations of an action's decisions (``checker``, ``cube``) as plain data."""
    data: dict[str, Any] = {}
    if kind is ActionKind.ROLL:
        checker = evaluation_from_recorded(recorded, DecisionKind.CHECKER)
        if checker is not None:
            data["checker"] = evaluation_data(checker)
    cube_kind = _CUBE_DECISIONS.get(kind)
    cube = None if cube_kind is None else evaluation_from_recorded(recorded, cube_kind)
    if cube is not None:
        data["cube"] = evaluation_data(cube)
    if data and recorded.undecided:
        data["undecided"] = True
    return data


def evaluation_data(evaluation: Evaluation) -> dict[str, Any]:
    """One decision's evaluation as the ``analysis.checker``/``analysis.cube`` object (defaults left out)."""
    data: dict[str, Any] = {
        "source": evaluation.source,
        "best": evaluation.best,
        "equity": evaluation.equity,
        "best_equity": evaluation.best_equity,
        "error": evaluation.error,
    }
    optional: dict[str, Any] = {
        "error_mwc": evaluation.error_mwc,
        "rank": evaluation.rank,
        "options": evaluation.options,
        "forced": evaluation.forced,
        "close": evaluation.close,
        "luck": evaluation.luck,
        "skill": evaluation.skill,
        "cube_equities": None if evaluation.cube_equities is None else list(evaluation.cube_equities),
        "spread": evaluation.spread,
        "rollout_se": evaluation.rollout_se,
        "rollout_trials": evaluation.rollout_trials,
        "level_error": evaluation.level_error,
    }
    data.update((key, value) for key, value in optional.items() if value != _EVALUATION_DEFAULTS[key])
    return data


def _dump(value: Any, level: int) -> str:
    """JSON text with two-space indents; short containers and every action on one line."""
    if not isinstance(value, (dict, list)) or not value or (isinstance(value, dict) and "kind" in value):
        return _ENCODE(value)
    if _flat(value):
        compact = _ENCODE(value)
        if len(compact) <= (_INLINE_WIDTH * 4 if isinstance(value, dict) else _INLINE_WIDTH):
            return compact
    pad = "  " * (level + 1)
    if isinstance(value, dict):
        items = [f"{pad}{_ENCODE(k)}: {_dump(v, level + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * level + "}"
    items = [pad + _dump(v, level + 1) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + "  " * level + "]"


def _flat(value: dict[str, Any] | list[Any]) -> bool:
    """No container inside ``value`` holds another container (a score, the dice, a header pair, ...)."""
    inner = value.values() if isinstance(value, dict) else value
    for item in inner:
        if isinstance(item, dict) and any(isinstance(v, (dict, list)) for v in item.values()):
            return False
        if isinstance(item, list) and any(isinstance(v, (dict, list)) for v in item):
            return False
    return True
