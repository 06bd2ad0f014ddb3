"""Read tabla's own JSON (schema ``tabla-match/1``, ``docs/json-schema.md``) into the match model.

:mod:`tabla_cli.writers.json` writes it. The reader takes every field of the
model and nothing else: a game's ``outcome`` and a roll's ``steps`` are
computed by the replay and only read when a roll has no ``play`` (then the
steps are the play). Locations, and ``Match.format``, are those of the
transcript the document was made from (its ``source``), so that JSON read
and written again is the same document; a document without a ``source``
gets the JSON file's name and the format ``json``. ``Match.path`` is the
JSON file.

Errors: text that is not JSON raises :class:`TranscriptSyntaxError` at the
line and column where it stops being JSON; a document of another schema
version raises :class:`UnsupportedFormatError`; a field of the wrong type
raises :class:`TranscriptSyntaxError` naming it
(``matches[0].games[2].actions[5].dice``). With ``on_error``, an error
inside a game is handed to it and that game keeps the actions before it.

Example:
    >>> text = '''{"schema": "tabla-match/1", "matches": [{"players": ["Ann", "Bob"], "length": 3,
    ...   "games": [{"number": 1, "score": [0, 0], "actions": [
    ...     {"kind": "roll", "player": 1, "dice": [5, 2], "play": "13/8 13/11"},
    ...     {"kind": "double", "player": 0, "value": 2}, {"kind": "drop", "player": 1},
    ...     {"kind": "win", "player": 0, "value": 1}]}]}]}'''
    >>> match = next(parse_matches(text, path="m.json"))
    >>> match.players, match.length, match.format, match.path
    (('Ann', 'Bob'), 3, 'json', 'm.json')
    >>> [(a.kind.value, int(a.player), a.dice, a.play_text, a.value) for a in match.games[0].actions]
    [('roll', 1, (5, 2), '13/8 13/11', None), ('double', 0, None, None, 2), ('drop', 1, None, None, None), ('win', 0, None, None, 1)]
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, TextIO, TypeVar

from tabla_cli.board import Player, Position
from tabla_cli.errors import Location, TranscriptSyntaxError, UnsupportedFormatError
from tabla_cli.evaluation.recorded import RecordedAnalysis
from tabla_cli.evaluation.types import Evaluation
from tabla_cli.formats import Format
from tabla_cli.formats._syntax import ErrorHandler, read_handle
from tabla_cli.formats.mat_headers import said
from tabla_cli.model import Action, ActionKind, Game, Match, RuleSet, SetUp

__all__ = ["SCHEMA", "SCHEMA_NAME", "looks_like_json", "parse_matches", "read_matches"]

SCHEMA_NAME = "tabla-match"
SCHEMA = f"{SCHEMA_NAME}/1"
"""The schema (and version) this module reads."""

_SIGNATURE = re.compile(r'"schema"\s*:\s*"tabla-match/')
MAX_INT = 999_999_999
"""The largest integer a document may hold (the text formats read at most nine digits)."""
_KINDS = {kind.value: kind for kind in ActionKind}
_T = TypeVar("_T")


def looks_like_json(text: str) -> bool:
    """Whether ``text`` is a tabla JSON document (a JSON object naming the ``tabla-match`` schema).

    >>> looks_like_json('{\\n "schema": "tabla-match/1", "matches": []}')
    True
    >>> looks_like_json('[{"file": "x"}]'), looks_like_json(" 3 point match")
    (False, False)
    """
    head = text[:65536].lstrip("\ufeff \t\r\n")
    return head.startswith("{") and _SIGNATURE.search(head) is not None


def read_matches(handle: TextIO, *, path: str = "<stdin>", on_error: ErrorHandler | None = None) -> Iterator[Match]:
    """Every match of the document in ``handle``; see :func:`parse_matches`.

    Raises:
        InputError: the stream cannot be decoded.
    """
    text = read_handle(handle, path)
    return parse_matches(text, path=path, on_error=on_error)


def parse_matches(text: str, *, path: str = "<string>", on_error: ErrorHandler | None = None) -> Iterator[Match]:
    """Every match of the ``tabla-match/1`` document ``text``, in order.

    Raises:
        TranscriptSyntaxError: not JSON, or a field is missing or of the
            wrong type (inside a game only without ``on_error``).
        UnsupportedFormatError: the document names another schema or version.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        lines = text.split("\n")
        context = lines[exc.lineno - 1] if 0 < exc.lineno <= len(lines) else ""
        raise TranscriptSyntaxError(
            f"not valid JSON: {exc.msg}", Location(path, exc.lineno, exc.colno), context.rstrip()
        ) from None
    except RecursionError:
        raise TranscriptSyntaxError("not valid JSON: nested too deeply", Location(path)) from None
    except ValueError:  # an integer of more digits than int() converts
        raise TranscriptSyntaxError(
            f"a number has more digits than tabla reads (at most {len(str(MAX_INT))})", Location(path)
        ) from None
    reader = _Reader(path, on_error)
    if not isinstance(document, dict):
        raise reader.error("the document", "must be an object")
    schema = document.get("schema")
    if not isinstance(schema, str) or not schema.startswith(SCHEMA_NAME + "/"):
        raise UnsupportedFormatError(f"not a {SCHEMA_NAME} document (schema {schema!r})")
    if schema != SCHEMA:
        raise UnsupportedFormatError(f"schema {schema!r} is not one this version of tabla reads ({SCHEMA})")
    matches = reader.field(document, "matches", list, "document")
    return (reader.match(item, f"matches[{i}]") for i, item in enumerate(matches))


class _Reader:
    def __init__(self, path: str, on_error: ErrorHandler | None) -> None:
        self.path = path
        self.on_error = on_error
        self.source = path

    def error(self, where: str, problem: str) -> TranscriptSyntaxError:
        return TranscriptSyntaxError(f"{where} {problem}", Location(self.path))

    def field(self, obj: dict[str, Any], key: str, kind: type[_T], where: str, default: Any = ...) -> _T:
        """``obj[key]``, checked to be a ``kind`` (``None`` allowed only as a default)."""
        if key not in obj or (obj[key] is None and default is not ...):
            if default is ...:
                raise self.error(f"{where}.{key}", "is missing")
            return default  # type: ignore[no-any-return]
        value = obj[key]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise self.error(f"{where}.{key}", f"must be an integer, not {json.dumps(value)[:40]}")
        if kind is int and not 0 <= value <= MAX_INT:
            raise self.error(f"{where}.{key}", f"must be a whole number from 0 to {MAX_INT}, not {_number(value)}")
        if not isinstance(value, kind):
            raise self.error(
                f"{where}.{key}", f"must be {_NAMES.get(kind, kind.__name__)}, not {json.dumps(value)[:40]}"
            )
        return value

    def location(self, obj: dict[str, Any], where: str) -> Location:
        value = obj.get("location")
        if value is None:
            return Location(self.source)
        if (
            not isinstance(value, list)
            or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_INT for v in value)
        ):
            raise self.error(f"{where}.location", "must be [line, column]")
        return Location(self.source, value[0], value[1])

    def pair(self, obj: dict[str, Any], key: str, where: str, kind: type[_T], default: Any = ...) -> tuple[_T, _T]:
        """A list of two ``kind`` values (``null`` allowed in it only when there is a default)."""
        value = self.field(obj, key, list, where, default)
        if value is default:
            return value  # type: ignore[no-any-return]
        nullable = default is not ...
        if len(value) != 2 or not all((nullable and v is None) or isinstance(v, kind) for v in value):
            raise self.error(f"{where}.{key}", f"must be a list of two {_NAMES.get(kind, kind.__name__)} values")
        if kind is int and any(isinstance(v, bool) or not isinstance(v, int) for v in value):
            raise self.error(f"{where}.{key}", "must be a list of two integers")
        if kind is int and not all(0 <= v <= MAX_INT for v in value):
            raise self.error(f"{where}.{key}", f"must be two whole numbers from 0 to {MAX_INT}")
        return value[0], value[1]

    def match(self, data: Any, where: str) -> Match:
        if not isinstance(data, dict):
            raise self.error(where, "must be an object")
        source = self.field(data, "source", dict, where, {})
        self.source = self.field(source, "path", str, f"{where}.source", self.path)
        players = self.pair(data, "players", where, str)
        ratings = self.pair(data, "ratings", where, str, (None, None))
        headers = []
        for i, item in enumerate(self.field(data, "headers", list, where, [])):
            if not isinstance(item, list) or len(item) != 2 or not all(isinstance(v, str) for v in item):
                raise self.error(f"{where}.headers[{i}]", 'must be a ["key", "value"] pair')
            headers.append((item[0], item[1]))
        comments = self.field(data, "comments", list, where, [])
        if not all(isinstance(c, str) for c in comments):
            raise self.error(f"{where}.comments", "must be a list of strings")
        match = Match(
            players=players,
            length=self.field(data, "length", int, where),
            headers=headers,
            comments=list(comments),
            ratings=ratings,
            rules=said(self.rules(self.field(data, "rules", dict, where, {}), f"{where}.rules"), headers),
            variant=self.field(data, "variant", str, where, ""),
            path=self.path,
            format=self.field(source, "format", str, f"{where}.source", "json"),
            location=self.location(source, f"{where}.source"),
        )
        for i, game in enumerate(self.field(data, "games", list, where, [])):
            match.games.append(self.game(game, f"{where}.games[{i}]"))
        return match

    def rules(self, data: dict[str, Any], where: str) -> RuleSet:
        default = RuleSet()
        return RuleSet(
            crawford=self.field(data, "crawford", bool, where, default.crawford),
            jacoby=self.field(data, "jacoby", bool, where, default.jacoby),
            beaver=self.field(data, "beaver", bool, where, default.beaver),
            cube_limit=self.field(data, "cube_limit", int, where, default.cube_limit),
            cube=self.field(data, "cube", bool, where, default.cube),
            scoring=self.field(data, "scoring", str, where, default.scoring),  # as written: the replay resolves it
        )

    def game(self, data: Any, where: str) -> Game:
        if not isinstance(data, dict):
            raise self.error(where, "must be an object")
        game = Game(
            number=self.field(data, "number", int, where),
            score=self.pair(data, "score", where, int),
            location=self.location(data, where),
            crawford=self.field(data, "crawford", bool, where, None),
            variant=self.field(data, "variant", str, where, None),
        )
        start = self.field(data, "start", dict, where, None)
        if start is not None:
            game.start = self.position(start, f"{where}.start")
        cube = self.field(data, "start_cube", dict, where, None)
        if cube is not None:
            owner = self.field(cube, "owner", int, f"{where}.start_cube", None)
            if owner not in (None, 0, 1):
                raise self.error(f"{where}.start_cube.owner", "must be 0, 1 or null")
            game.start_cube = (
                self.field(cube, "value", int, f"{where}.start_cube"),
                None if owner is None else Player(owner),
            )
        actions = self.field(data, "actions", list, where, [])
        for i, item in enumerate(actions):
            try:
                game.actions.append(self.action(item, f"{where}.actions[{i}]"))
            except TranscriptSyntaxError as exc:
                if self.on_error is None:
                    raise
                self.on_error(exc)
                break
        return game

    def position(self, data: dict[str, Any], where: str) -> Position:
        sides = []
        for key in ("player0", "player1"):
            side = self.field(data, key, list, where)
            if len(side) != 26 or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in side):
                raise self.error(f"{where}.{key}", "must be 26 checker counts (0 = off, 1-24, 25 = bar)")
            sides.append(tuple(side))
        return Position(sides[0], sides[1])

    def action(self, data: Any, where: str) -> Action:
        if not isinstance(data, dict):
            raise self.error(where, "must be an object")
        name = self.field(data, "kind", str, where)
        kind = _KINDS.get(name)
        if kind is None:
            raise self.error(f"{where}.kind", f"must be one of {', '.join(_KINDS)}, not {name!r}")
        player = self.field(data, "player", int, where)
        if player not in (0, 1):
            raise self.error(f"{where}.player", "must be 0 or 1")
        location = self.location(data, where)
        move = self.field(data, "move", int, where, None)
        analysis = self.analysis(data, where, kind)
        comment = self.field(data, "comment", str, where, None) or None
        flagged = self.field(data, "flagged", bool, where, False)
        if kind is ActionKind.ROLL:
            dice = self.pair(data, "dice", where, int)
            if not all(1 <= d <= 6 for d in dice):
                raise self.error(f"{where}.dice", "must be two values from 1 to 6")
            play = self.field(data, "play", str, where, None)
            if play is None:
                play = self.steps(data, where)
            return Action(
                kind,
                Player(player),
                location,
                move,
                dice,
                play,
                resigned=self.field(data, "resigned", bool, where, False),
                analysis=analysis,
                comment=comment,
                flagged=flagged,
            )
        if kind is ActionKind.SETUP:
            return Action(kind, Player(player), location, move, setup=self.setup(data, where))
        value = self.field(data, "value", int, where, None)
        won = self.field(data, "match_won", bool, where, False)
        return Action(
            kind,
            Player(player),
            location,
            move,
            value=value,
            match_won=won,
            analysis=analysis,
            comment=comment,
            flagged=flagged,
        )

    def setup(self, data: dict[str, Any], where: str) -> SetUp:
        """What a ``setup`` action sets: ``position``, ``cube``, ``cube_owner`` (each optional)."""
        position = self.field(data, "position", dict, where, None)
        cube = self.field(data, "cube", int, where, None)
        if cube is not None and (cube < 1 or cube & (cube - 1)):
            raise self.error(f"{where}.cube", "must be a power of two")
        owner_set = "cube_owner" in data
        owner = self.field(data, "cube_owner", int, where, None)
        if owner not in (None, 0, 1):
            raise self.error(f"{where}.cube_owner", "must be 0, 1 or null")
        return SetUp(
            None if position is None else self.position(position, f"{where}.position"),
            cube,
            None if owner is None else Player(owner),
            owner_set,
        )

    def analysis(self, data: dict[str, Any], where: str, kind: ActionKind) -> RecordedAnalysis | None:
        """The action's stored ``analysis`` (``checker`` on rolls, ``cube``), None when it has none."""
        stored = self.field(data, "analysis", dict, where, None)
        if stored is None:
            return None
        where = f"{where}.analysis"
        checker = self.field(stored, "checker", dict, where, None)
        if checker is not None and kind is not ActionKind.ROLL:
            raise self.error(f"{where}.checker", "is only allowed on a roll")
        cube = self.field(stored, "cube", dict, where, None)
        if checker is None and cube is None:
            return None
        return RecordedAnalysis(
            checker_evaluation=None if checker is None else self.evaluation(checker, f"{where}.checker"),
            cube_evaluation=None if cube is None else self.evaluation(cube, f"{where}.cube"),
            undecided=self.field(stored, "undecided", bool, where, False),
        )

    def evaluation(self, data: dict[str, Any], where: str) -> Evaluation:
        listed = self.field(data, "cube_equities", list, where, None)
        equities = None
        if listed is not None:
            if len(listed) != 3 or not all(_is_number(v) for v in listed):
                raise self.error(f"{where}.cube_equities", "must be a list of three numbers")
            first, second, third = (self.as_float(v, f"{where}.cube_equities") for v in listed)
            equities = (first, second, third)
        rank = self.field(data, "rank", int, where, None)
        return Evaluation(
            equity=self.number(data, "equity", where, None),
            best_equity=self.number(data, "best_equity", where),
            best=self.field(data, "best", str, where),
            error=self.number(data, "error", where, None),
            source=self.field(data, "source", str, where),
            error_mwc=self.number(data, "error_mwc", where, None),
            rank=rank,
            options=self.field(data, "options", int, where, 1),
            forced=self.field(data, "forced", bool, where, False),
            luck=self.number(data, "luck", where, None),
            close=self.field(data, "close", bool, where, True),
            skill=self.field(data, "skill", str, where, None),
            cube_equities=equities,
            spread=self.number(data, "spread", where, None),
            rollout_se=self.number(data, "rollout_se", where, None),
            rollout_trials=self.field(data, "rollout_trials", int, where, None),
            level_error=self.number(data, "level_error", where, None),
        )

    def number(self, obj: dict[str, Any], key: str, where: str, default: Any = ...) -> Any:
        """``obj[key]`` as a float (an integer is taken as one); ``null`` or absent only with a default."""
        if key not in obj or (obj[key] is None and default is not ...):
            if default is ...:
                raise self.error(f"{where}.{key}", "is missing")
            return default
        value = obj[key]
        if not _is_number(value):
            raise self.error(f"{where}.{key}", f"must be a number, not {json.dumps(value)[:40]}")
        return self.as_float(value, f"{where}.{key}")

    def as_float(self, value: int | float, where: str) -> float:
        try:
            return float(value)
        except OverflowError:
            raise self.error(where, "is out of range") from None

    def steps(self, data: dict[str, Any], where: str) -> str:
        """A roll without ``play``: its ``steps`` written as a plain play."""
        steps = self.field(data, "steps", list, where, [])
        out = []
        for i, step in enumerate(steps):
            if (
                not isinstance(step, list)
                or len(step) != 3
                or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 25 for v in step[:2])
                or not isinstance(step[2], bool)
            ):
                raise self.error(f"{where}.steps[{i}]", "must be [from, to, hit]")
            out.append(f"{step[0]}/{step[1]}{'*' if step[2] else ''}")
        return " ".join(out)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _number(value: int) -> str:
    """``value`` for a message, shortened when it is long."""
    text = str(value)
    return text if len(text) <= 20 else f"{text[:12]}... ({len(text)} digits)"


_NAMES: dict[type, str] = {str: "a string", int: "an integer", bool: "true or false", list: "a list", dict: "an object"}


FORMAT = Format("json", (".json",), looks_like_json, read_matches, title="tabla JSON")
"""This reader in the format registry (:mod:`tabla_cli.formats`)."""
