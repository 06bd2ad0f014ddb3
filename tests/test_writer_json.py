"""Tests for tabla's JSON (schema tabla-match/1): tabla_cli.writers.json and tabla_cli.formats.json.

The central property: read -> write JSON -> read gives the *same* match
model, field for field (only the file a match was read from differs), for
every corpus transcript and for random legal matches, and the document
written again is the same text. The reader is found by content by every
command.
"""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from test_writer_sgf import random_match

from tabla_cli.board import Player, Position
from tabla_cli.cli import main
from tabla_cli.errors import Location, TablaError, TranscriptSyntaxError, UnsupportedFormatError
from tabla_cli.evaluation.recorded import RecordedAnalysis, evaluation_from_recorded
from tabla_cli.evaluation.types import DecisionKind, Evaluation
from tabla_cli.formats import json as json_format
from tabla_cli.formats import mat
from tabla_cli.model import Action, ActionKind, Game, Match
from tabla_cli.reader import detect_format, read_path_matches, read_text_matches
from tabla_cli.writers.json import SCHEMA, format_json, match_data, write_json

import helpers
from helpers import DATA, corpus_files, recorded_by_action
from match_compare import match_differences

ZERO, ONE = Player.ZERO, Player.ONE
TRANSCRIPTS = [p for folder in ("mat", "sgf", "txt") for p in corpus_files(folder)]
FIBS_DOUBLES = DATA / "fibs" / "match3.txt"


def unlocated(match: Match) -> Match:
    """``match`` without where it was read from (the one thing JSON does not keep)."""
    nowhere = Location("")
    games = [
        dataclasses.replace(g, location=nowhere, actions=[dataclasses.replace(a, location=nowhere) for a in g.actions])
        for g in match.games
    ]
    return dataclasses.replace(match, games=games, location=nowhere, path="")


def unvalued(match: Match) -> Match:
    """``match`` with its doubles', beavers' and raccoons' values left out: SGF writes none, and the
    JSON writes the value the replay gave each (a test below shows that)."""
    offers = (ActionKind.DOUBLE, ActionKind.BEAVER, ActionKind.RACCOON)
    games = [
        dataclasses.replace(
            g, actions=[dataclasses.replace(a, value=None) if a.kind in offers else a for a in g.actions]
        )
        for g in match.games
    ]
    return dataclasses.replace(match, games=games)


def round_trip(matches: list[Match]) -> tuple[str, list[Match]]:
    text = format_json([(m, None) for m in matches])
    return text, list(json_format.parse_matches(text, path="w.json"))


def test_document_layout() -> None:
    match = mat.read_match(DATA / "mat" / "spec-3pt-gnubg.mat")
    text = format_json([(match, None)], generator="test")
    document = json.loads(text)
    assert document["schema"] == SCHEMA == "tabla-match/1" and document["generator"] == "test"
    (data,) = document["matches"]
    assert data["players"] == ["Petar", "Maria"] and data["length"] == 3
    assert data["headers"][0] == ["Site", "Kafene Sofia"]
    assert data["source"]["format"] == "mat" and data["source"]["path"].endswith("spec-3pt-gnubg.mat")
    game = data["games"][0]
    assert game["outcome"] == {
        "winner": 0,
        "points": 1,
        "ended_by": "drop",
        "result": "single",
        "cube": 1,
        "cube_owner": None,
        "crawford": False,
    }
    first = game["actions"][0]
    assert first == {
        "kind": "roll",
        "player": 0,
        "move": 1,
        "dice": [3, 1],
        "play": "8/5 6/5",
        "steps": [[8, 5, False], [6, 5, False]],
        "location": first["location"],
    }
    hit = game["actions"][2]
    assert hit["play"] == "13/7* 13/9" and hit["steps"] == [[13, 9, False], [13, 7, True]]
    assert game["actions"][3] == {
        "kind": "roll",
        "player": 1,
        "move": 2,
        "dice": [5, 5],
        "play": "",
        "steps": [],
        "location": game["actions"][3]["location"],
    }
    assert data["games"][3]["actions"][-1]["match_won"] is True
    # One action per line.
    assert '\n            {"kind": "roll", "player": 0, "move": 1, "dice": [3, 1], "play": "8/5 6/5"' in text
    assert match_data(match)["games"] == data["games"]
    handle = io.StringIO()
    write_json([(match, None)], handle, generator="test")
    assert handle.getvalue() == text


def test_every_field_of_the_model() -> None:
    loc = Location("src.mat", 7, 3)
    start = Position.from_points({1: 2, 2: 2, 6: 1}, {1: 1, 25: 1})
    match = Match(
        ("Ann", "Bob"),
        0,
        headers=[("Site", "x"), ("Site", "y")],
        comments=["c"],
        ratings=("1700", None),
        variant="nackgammon",
        path="src.mat",
        format="mat",
        location=loc,
    )
    match.rules = dataclasses.replace(match.rules, jacoby=True, beaver=True, cube_limit=64, cube=True, crawford=False)
    match.games.append(
        Game(
            3,
            (2, 1),
            [
                Action(ActionKind.ROLL, ONE, loc, 1, (6, 1), "25/19 1/0"),
                Action(ActionKind.ROLL, ZERO, loc, 2, (5, 5), "", resigned=True),
                Action(ActionKind.LOSS, ZERO, loc, value=2),
                Action(ActionKind.WIN, ONE, loc, 2, value=2, match_won=True),
            ],
            location=loc,
            start=start,
            start_cube=(2, ONE),
            variant="hypergammon",
            crawford=False,
        )
    )
    match.games.append(
        Game(4, (2, 3), [Action(ActionKind.RESIGN, ZERO, Location("src.mat"))], location=Location("src.mat"))
    )
    text, (back,) = round_trip([match])
    assert back == dataclasses.replace(match, path="w.json")
    assert back.games[0].actions[0].location == loc
    assert format_json([(back, None)]) == text


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_corpus_round_trip_is_exact(path: Path) -> None:
    matches = list(read_path_matches(path))
    text, back = round_trip(matches)
    assert len(back) == len(matches)
    for a, b in zip(matches, back):
        assert unvalued(unlocated(a)) == unvalued(unlocated(b))
        assert match_differences(a, b) == []
        assert b.location == a.location and b.games[0].actions[0].location == a.games[0].actions[0].location
    assert format_json([(m, None) for m in back]) == text


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([0, 1, 3, 7]), st.integers(1, 3))
def test_random_legal_matches_round_trip(seed: int, length: int, games: int) -> None:
    match = random_match(seed, length, games)
    _, (back,) = round_trip([match])
    assert unlocated(back) == unlocated(dataclasses.replace(match, format="json"))


def test_steps_are_the_play_when_no_play_is_written() -> None:
    text = json.dumps(
        {
            "schema": SCHEMA,
            "matches": [
                {
                    "players": ["A", "B"],
                    "length": 1,
                    "games": [
                        {
                            "number": 1,
                            "score": [0, 0],
                            "actions": [
                                {"kind": "roll", "player": 0, "dice": [3, 1], "steps": [[8, 5, False], [6, 5, False]]}
                            ],
                        }
                    ],
                }
            ],
        }
    )
    (match,) = read_text_matches(text, "s.json")
    assert match.games[0].actions[0].play_text == "8/5 6/5"
    assert match.format == "json" and match.games[0].actions[0].location == Location("s.json")


# --- detection and errors ----------------------------------------------------------------


def test_detected_by_content() -> None:
    match = mat.read_match(DATA / "mat" / "spec-money-xg.mat")
    text = format_json([(match, None)])
    assert detect_format(text) == "json" and detect_format("\ufeff  " + text) == "json"
    assert json_format.looks_like_json(text)
    with pytest.raises(UnsupportedFormatError):
        detect_format('{"file": "gnubg_7pt_100000", "games": 5}')


def test_check_and_report_read_json(tmp_path: Path) -> None:
    source = DATA / "mat" / "spec-3pt-gnubg.mat"
    target = tmp_path / "m.json"
    target.write_text(format_json([(mat.read_match(source), None)]), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(target), "--jobs", "1"])
    assert result.exit_code == 0 and result.stdout == ""
    assert "checked 1 file, 1 match, 4 games" in result.stderr
    result = CliRunner().invoke(main, ["report", str(target), "--by", "match", "--format", "csv", "--quiet"])
    assert result.exit_code == 0 and "Petar,Maria,3,match,standard,2025-03-14,Kafene Sofia,Petar" in result.stdout


@pytest.mark.parametrize(
    "text, message, line",
    [
        ('{"schema": "tabla-match/1", "matches": [}', "not valid JSON", 1),
        ('{"schema": "tabla-match/1",\n "matches": 3}', "document.matches must be a list", 0),
        ('{"schema": "tabla-match/1", "matches": [{"length": 1}]}', "matches[0].players is missing", 0),
        (
            '{"schema": "tabla-match/1", "matches": [{"players": ["A", 1], "length": 1}]}',
            "matches[0].players must be a list of two a string values",
            0,
        ),
        (
            '{"schema": "tabla-match/1", "matches": [{"players": ["A", "B"], "length": true}]}',
            "matches[0].length must be an integer",
            0,
        ),
        (
            '{"schema": "tabla-match/1", "matches": [{"players": ["A", "B"], "length": 1, "games": [{"number": 1, '
            '"score": [0, 0], "actions": [{"kind": "jump", "player": 0}]}]}]}',
            "matches[0].games[0].actions[0].kind must be one of roll",
            0,
        ),
        (
            '{"schema": "tabla-match/1", "matches": [{"players": ["A", "B"], "length": 1, "games": [{"number": 1, '
            '"score": [0, 0], "actions": [{"kind": "roll", "player": 0, "dice": [7, 1]}]}]}]}',
            "matches[0].games[0].actions[0].dice must be two values from 1 to 6",
            0,
        ),
        (
            '{"schema": "tabla-match/1", "matches": [{"players": ["A", "B"], "length": 1, "games": [{"number": 1, '
            '"score": [0, 0], "actions": [{"kind": "double", "player": 0, "value": 2, "analysis": {"checker": {}}}]}]}]}',
            "actions[0].analysis.checker is only allowed on a roll",
            0,
        ),
        (
            '{"schema": "tabla-match/1", "matches": [{"players": ["A", "B"], "length": 1, "games": [{"number": 1, '
            '"score": [0, 0], "actions": [{"kind": "roll", "player": 0, "dice": [3, 1], "play": "8/5 6/5", '
            '"analysis": {"checker": {"source": "s", "best": "8/5 6/5", "best_equity": "0.1"}}}]}]}]}',
            "actions[0].analysis.checker.best_equity must be a number",
            0,
        ),
        (
            '{"schema": "tabla-match/1", "matches": [{"players": ["A", "B"], "length": 1, "games": [{"number": 1, '
            '"score": [0, 0], "actions": [{"kind": "take", "player": 0, "analysis": {"cube": {"source": "s", '
            '"best": "take", "best_equity": 1e999, "cube_equities": [1, 2]}}}]}]}]}',
            "actions[0].analysis.cube.cube_equities must be a list of three numbers",
            0,
        ),
    ],
)
def test_errors_name_the_field(text: str, message: str, line: int) -> None:
    with pytest.raises(TranscriptSyntaxError) as info:
        list(json_format.parse_matches(text, path="bad.json"))
    assert message in info.value.message
    assert info.value.location is not None and info.value.location.line == line


def test_other_schema_versions_are_refused() -> None:
    with pytest.raises(UnsupportedFormatError, match="tabla-match/2"):
        list(read_text_matches('{"schema": "tabla-match/2", "matches": []}', "v2.json"))


def test_error_inside_a_game_goes_to_on_error() -> None:
    text = json.dumps(
        {
            "schema": SCHEMA,
            "matches": [
                {
                    "players": ["A", "B"],
                    "length": 1,
                    "games": [
                        {
                            "number": 1,
                            "score": [0, 0],
                            "actions": [
                                {"kind": "roll", "player": 0, "dice": [3, 1], "play": "8/5 6/5"},
                                {"kind": "roll", "player": 3, "dice": [3, 1], "play": "8/5 6/5"},
                                {"kind": "roll", "player": 0, "dice": [3, 1], "play": "8/5 6/5"},
                            ],
                        },
                        {"number": 2, "score": [0, 0], "actions": []},
                    ],
                }
            ],
        }
    )
    errors: list[TranscriptSyntaxError] = []
    (match,) = read_text_matches(text, "e.json", errors.append)
    assert [len(g.actions) for g in match.games] == [1, 0]
    assert len(errors) == 1 and "actions[1].player must be 0 or 1" in errors[0].message


@settings(max_examples=100, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers(-3, 30) | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(
                st.sampled_from(
                    [
                        "players",
                        "length",
                        "games",
                        "actions",
                        "kind",
                        "player",
                        "dice",
                        "play",
                        "score",
                        "number",
                        "value",
                        "headers",
                        "rules",
                        "start",
                        "analysis",
                        "checker",
                        "cube",
                        "equity",
                        "best_equity",
                        "best",
                        "source",
                        "cube_equities",
                    ]
                ),
                inner,
                max_size=5,
            )
        ),
        max_leaves=20,
    )
)
def test_arbitrary_documents_raise_only_tabla_errors(body: object) -> None:
    text = json.dumps({"schema": SCHEMA, "matches": [body]})
    try:
        list(json_format.parse_matches(text, path="h.json"))
    except TablaError:
        pass


def test_schema_document_example_is_what_the_writer_writes(tmp_path: Path) -> None:
    """docs/json-schema.md: its example reads back and is written again byte for byte."""
    doc = (helpers.ROOT / "docs" / "json-schema.md").read_text(encoding="utf-8")
    example = doc.split("```json\n", 1)[1].split("```", 1)[0]
    (match,) = json_format.parse_matches(example, path="club.json")
    assert format_json([(match, None)], generator=json.loads(example)["generator"]) == example
    spec = mat.read_match(DATA / "mat" / "spec-3pt-gnubg.mat")
    spec.games = spec.games[:1]
    assert match_differences(spec, match) == []
    for member in (
        "schema",
        "generator",
        "matches",
        "players",
        "ratings",
        "length",
        "variant",
        "rules",
        "headers",
        "comments",
        "source",
        "games",
        "number",
        "score",
        "crawford",
        "start",
        "start_cube",
        "location",
        "outcome",
        "actions",
        "kind",
        "player",
        "move",
        "dice",
        "play",
        "steps",
        "resigned",
        "value",
        "match_won",
        "analysis",
        "checker",
        "cube",
        "equity",
        "best_equity",
        "best",
        "error",
        "error_mwc",
        "rank",
        "options",
        "forced",
        "close",
        "luck",
        "skill",
        "cube_equities",
    ):
        assert f"| `{member}` |" in doc, member


def _analysed(action: Action, checker: Evaluation | None, cube: Evaluation | None) -> Action:
    return dataclasses.replace(action, analysis=RecordedAnalysis(checker_evaluation=checker, cube_evaluation=cube))


def test_stored_analysis_round_trip_is_exact() -> None:
    match = mat.read_match(DATA / "mat" / "spec-3pt-gnubg.mat")
    checker = Evaluation(
        equity=0.1 + 0.2,
        best_equity=1 / 3,
        best="24/18 13/11",
        error=1 / 3 - 0.3,
        source="bgsage 2ply",
        error_mwc=1e-7,
        rank=4,
        options=17,
        luck=-0.123456789012345,
        skill="doubtful",
    )
    forced = Evaluation(
        equity=None, best_equity=0.0, best="", error=0.0, source="recorded gnubg 2-ply", rank=1, options=0, forced=True
    )
    cube = Evaluation(
        equity=0.5,
        best_equity=0.75,
        best="double",
        error=0.25,
        source="bgsage 2ply",
        rank=2,
        options=2,
        close=False,
        cube_equities=(0.5, 0.75, 1.0),
    )
    game = match.games[0]
    roll, other = game.actions[0], game.actions[1]
    assert roll.kind is ActionKind.ROLL and other.kind is ActionKind.ROLL
    game.actions[0] = _analysed(roll, checker, cube)
    game.actions[1] = _analysed(other, forced, None)
    text, (back,) = round_trip([match])
    actions = back.games[0].actions
    assert actions[0].analysis is not None and actions[1].analysis is not None
    assert evaluation_from_recorded(actions[0].analysis, DecisionKind.CHECKER) == checker
    assert evaluation_from_recorded(actions[0].analysis, DecisionKind.DOUBLE) == cube
    assert evaluation_from_recorded(actions[1].analysis, DecisionKind.CHECKER) == forced
    assert evaluation_from_recorded(actions[1].analysis, DecisionKind.DOUBLE) is None
    assert all(a.analysis is None for a in actions[2:])
    assert format_json([(back, None)]) == text
    first = json.loads(text)["matches"][0]["games"][0]["actions"][1]["analysis"]
    assert first == {
        "checker": {
            "source": "recorded gnubg 2-ply",
            "best": "",
            "equity": None,
            "best_equity": 0.0,
            "error": 0.0,
            "rank": 1,
            "options": 0,
            "forced": True,
        }
    }


@pytest.mark.parametrize(
    "path",
    [p for folder in ("txt", "sgf") for p in corpus_files(folder)[:3]],
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_recorded_gnubg_analysis_is_kept(path: Path) -> None:
    matches = list(read_path_matches(path))
    _, back = round_trip(matches)
    kinds = {
        ActionKind.ROLL: (DecisionKind.CHECKER, DecisionKind.DOUBLE),
        ActionKind.DOUBLE: (DecisionKind.DOUBLE,),
        ActionKind.TAKE: (DecisionKind.TAKE,),
        ActionKind.DROP: (DecisionKind.TAKE,),
    }
    compared = 0
    for a, b in zip(matches, back):
        read_a, read_b = recorded_by_action(a), recorded_by_action(b)
        for game_a, game_b in zip(a.games, b.games):
            for action_a, action_b in zip(game_a.actions, game_b.actions):
                recorded_a, recorded_b = read_a(action_a), read_b(action_b)
                for kind in kinds.get(action_a.kind, ()):
                    want = None if recorded_a is None else evaluation_from_recorded(recorded_a, kind)
                    got = None if recorded_b is None else evaluation_from_recorded(recorded_b, kind)
                    assert got == want
                    compared += want is not None
    assert compared > 0


def test_a_double_the_transcript_leaves_without_a_value_gets_the_replays() -> None:
    """FIBS and SGF write no cube value: the JSON says the value the replay gave, as the .mat writer does."""
    text = FIBS_DOUBLES.read_text(encoding="utf-8")
    (match,) = read_text_matches(text, str(FIBS_DOUBLES))
    assert [a.value for g in match.games for a in g.actions if a.kind is ActionKind.DOUBLE][:1] == [None]
    document = json.loads(format_json([(match, None)]))
    values = [
        a["value"] for m in document["matches"] for g in m["games"] for a in g["actions"] if a["kind"] == "double"
    ]
    assert values and all(isinstance(v, int) and v >= 2 for v in values)
