"""Read BGBlitz match files (``.bgf``) into the match model, with the analysis they carry.

A ``.bgf`` file is one line of JSON (``{"format":"BGF","version":"1.0",
"compress":true,"useSmile":true}``), then the match as one document:
Smile-encoded (:mod:`tabla_cli.formats._smile`) when ``useSmile``, else
JSON text, and gzip-compressed when ``compress``. Decompression stops at
``max_size`` bytes: a file that inflates past it is refused before it
fills memory, and at :func:`max_inflated` bytes for a small file (BGBlitz's
bodies inflate to about four times their size; a bomb to a thousand). What
the bytes become is bounded too (a few bytes of Smile or JSON make a value,
so a small compressed file could make millions): a document may hold
:func:`max_values` values, more for a larger file or a larger
``--max-size``; nesting is bounded by the decoders.

The document (as BGBlitz 6 writes it) holds the match fields (``nameGreen``,
``nameRed``, ``matchlen`` (0 = money), ``useCrawford``, ``useJacoby``,
``useBeaver``, ``useCube``, ``cubeLimit``, ``event``, ``site``, ``date``...)
and ``games``; each game its score before it (``scoreGreen``,
``scoreRed``), ``isCrawford``, its start (``initial``) and ``moves``. Every
entry of ``moves`` is an ``amove`` record of one player (``player``: -1 is
Green, the first player here; 1 is Red): a roll (``red``/``green`` are the
dice, ``from``/``to`` the checkers moved, -1 unused, 25 the bar, 0 off),
or, with ``green`` = 7, an action coded in ``red``: 1 double, 2 take, 3
pass, 4 wins the game, 5 rolls and cannot move (the dice in ``from[0]`` and
``to[0]``), 9 resigns. The reader says what the records say; the replay
checks plays, cube and scores. A game's points are the score the next game
(or the match's final score) gives the winner over this game's.

The analysis BGBlitz stores with each record is kept as recorded analysis
(:class:`~tabla_cli.evaluation.recorded.RecordedAnalysis`): the ranked
candidate plays (``moveAnalysis``: the play made is marked ``played``),
the cube equities (``equity.cubeDecision``: no double, double/take,
double/pass, and BGBlitz's ``close`` flag) and BGBlitz's own error of the
record's decisions (``pr.checkerError``, ``pr.cubeError``; -99 = not
counted) and the luck of the roll (``luck.luckPlain``). A roll's
``cubeError`` is the roller's decision not to double before rolling; a
double's, take's or pass's is that cube decision. The errors tabla reports
are BGBlitz's figures, so a player's sums are the file's own
``prGreen``/``prRed`` totals. Equities are normalised (EMG): BGBlitz's
``emg`` in match play, its cubeful equity in money play; cube equities,
which BGBlitz gives in match-winning chances in match play, are normalised
with tabla's match equity table at the file's score and cube. The source
column names the program and level (``BGBlitz 3-ply``).

Match fields the model has no place for (ratings, ranks, the board number,
BGBlitz's match-level luck and error totals, a game lost on time or
forfeited) are kept as headers named ``BGBlitz ...``, and the comments of
games and records as the match's comments (``game 2 move 7: ...``): the
JSON output shows both. A game that starts from a set-up position is
refused with a finding (no sample file shows how BGBlitz lays one out).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tabla_cli.board import Dice, Player, Step
from tabla_cli.errors import InflatesTooLargeError, InputError, Location, TranscriptSyntaxError
from tabla_cli.evaluation.recorded import Candidate, RecordedAnalysis
from tabla_cli.evaluation.types import CubeAction, Evaluation
from tabla_cli.files import MAX_SIZE
from tabla_cli.formats import Format, never
from tabla_cli.formats._binary import GZIP, inflate
from tabla_cli.formats._smile import SmileError, SmileLimitError, decode
from tabla_cli.formats._syntax import ErrorHandler
from tabla_cli.formats.mat_headers import said
from tabla_cli.model import Action, ActionKind, Game, Match, RuleSet
from tabla_cli.notation import format_play_plain

__all__ = [
    "FORMAT",
    "MAGIC",
    "looks_like_bgf",
    "match_from_document",
    "max_inflated",
    "max_values",
    "read_document",
    "read_matches",
]

MAGIC = b'{"format":"BGF"'
"""How every ``.bgf`` file starts."""

MAX_HEADER = 4096
"""The longest header line read."""

MAX_INT = 999_999_999
"""The largest number a field may hold (scores, match length, cube limit; as the text formats read)."""

VALUES_PER_BYTE = 4
"""Values a document may hold per byte of its file (BGBlitz's own files hold fewer than one)."""

BYTES_PER_VALUE = 2048
"""Of ``--max-size``: a document may hold one value per this many bytes of the limit, whatever its file's size."""

INFLATES_PER_BYTE = 64
"""How many times its file's size a body may inflate to (above a sixteenth of ``--max-size``)."""

_GREEN, _RED = -1, 1
_PLAYERS = {_GREEN: Player.ZERO, _RED: Player.ONE}
_CODE_DIE = 7
_DOUBLE, _TAKE, _PASS, _WIN, _DANCE, _RESIGN = 1, 2, 3, 4, 5, 9
_NOT_COUNTED = -99.0
_STANDARD_START = (2, 0, 0, 0, 0, -5, 0, -3, 0, 0, 0, 5, -5, 0, 0, 0, 3, 0, 5, 0, 0, 0, 0, -2, 0, 0, 0, 0)
_EXTRA_FIELDS = (
    ("ratingGreen", "rating Green"),
    ("ratingRed", "rating Red"),
    ("rankGreen", "rank Green"),
    ("rankRed", "rank Red"),
    ("boardno", "board"),
    ("gameMode", "game mode"),
    ("flags", "flags"),
)
_HEADER_FIELDS = (
    ("event", "Event"),
    ("site", "Site"),
    ("location", "Place"),
    ("round", "Round"),
    ("date", "EventDate"),
    ("extMatchID", "Match ID"),
    ("comment", "Comment"),
)


class BgfError(ValueError):
    """A ``.bgf`` document that cannot be read.

    Attributes:
        message: what is wrong, with the record it is in (``record 5: 'player' is missing``).
        move: the move number (as a ``.mat`` prints it) of the last record read before it, 0 if none.
    """

    def __init__(self, message: str, where: str = "") -> None:
        self.message = f"{where}: {message}" if where else message
        super().__init__(self.message)
        self.move = 0


def looks_like_bgf(head: bytes) -> bool:
    """Whether ``head`` (the first bytes of a file) starts a BGBlitz match file.

    >>> looks_like_bgf(b'{"format":"BGF","version":"1.0","compress":true}\\n\\x1f\\x8b'), looks_like_bgf(b"{}")
    (True, False)
    """
    return head.lstrip(b"\xef\xbb\xbf").startswith(MAGIC)


def max_values(size: int, max_size: int) -> int:
    """How many values the document of a ``.bgf`` file of ``size`` bytes may hold, under ``--max-size`` ``max_size``.

    >>> max_values(10_000, MAX_SIZE), max_values(1_000_000, MAX_SIZE)
    (131072, 4000000)
    """
    return max(max_size // BYTES_PER_VALUE, VALUES_PER_BYTE * size)


def max_inflated(size: int, max_size: int) -> int:
    """How many bytes the body of a ``.bgf`` file of ``size`` bytes may inflate to, under ``--max-size`` ``max_size``.

    >>> max_inflated(100_000, MAX_SIZE), max_inflated(1_000_000, MAX_SIZE), max_inflated(10**7, MAX_SIZE) == MAX_SIZE
    (16777216, 64000000, True)
    """
    return min(max_size, max(max_size // 16, INFLATES_PER_BYTE * size))


def _too_many(limit: int, size: int, where: Location) -> InflatesTooLargeError:
    return InflatesTooLargeError(
        f"the match document holds more than {limit:,} values, the limit for a file of {size:,} bytes "
        f"({VALUES_PER_BYTE} a byte, at least one per {BYTES_PER_VALUE} bytes of --max-size; "
        "a larger --max-size raises it); not read",
        where,
    )


def _json_values(body: bytes) -> int:
    """At most how many values the JSON text ``body`` holds (each is a container or follows a comma)."""
    return body.count(b",") + body.count(b"[") + body.count(b"{") + 1


def read_document(data: bytes, *, path: str, max_size: int) -> Any:
    """The match document of the ``.bgf`` file ``data``: header line, then the (inflated) Smile or JSON body.

    Raises:
        InflatesTooLargeError: the body inflates past ``max_size`` bytes (nothing more is inflated),
            or holds more than :func:`max_values` values.
        InputError: a wrong or unreadable header, a damaged or cut gzip stream,
            malformed Smile or JSON.
    """
    where = Location(path)
    end = data.find(b"\n", 0, MAX_HEADER)
    if not looks_like_bgf(data) or end < 0:
        raise InputError('not a BGBlitz match file (no {"format":"BGF",...} header line)', where)
    try:
        header = json.loads(data[:end].decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise InputError("the BGBlitz header line is not JSON", where) from None
    if not isinstance(header, dict) or header.get("format") != "BGF":
        raise InputError('the BGBlitz header line does not say "format":"BGF"', where)
    body = data[end + 1 :]
    if header.get("compress") is True:
        most = max_inflated(len(data), max_size)
        what = "the gzip-compressed match"
        try:
            body = inflate(body, max_size=most, location=where, wbits=GZIP, what=what)
        except InflatesTooLargeError as exc:
            if most == max_size:
                raise
            raise InflatesTooLargeError(
                f"{what} inflates past {most:,} bytes, the limit for a file of {len(data):,} bytes "
                f"({INFLATES_PER_BYTE} times its size, at least a sixteenth of --max-size; "
                "a larger --max-size raises it); not read",
                where,
            ) from exc
    elif len(body) > max_size:
        raise InflatesTooLargeError(f"the match is larger than the size limit of {max_size} bytes (--max-size)", where)
    limit = max_values(len(data), max_size)
    if header.get("useSmile", True) is True:
        try:
            return decode(body, max_values=limit)
        except SmileLimitError:
            raise _too_many(limit, len(data), where) from None
        except SmileError as exc:
            raise TranscriptSyntaxError(f"the Smile document is malformed at {exc}", where) from None
    if _json_values(body) > limit:
        raise _too_many(limit, len(data), where)
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise TranscriptSyntaxError(f"the JSON document is malformed ({exc})", where) from None


# --- reading values -------------------------------------------------------------------


def _field(obj: Any, key: str, kind: type | tuple[type, ...], where: str, default: Any = None) -> Any:
    """``obj[key]`` checked to be of ``kind`` (``default`` when absent and a default is given)."""
    if not isinstance(obj, dict):
        raise BgfError("an object is expected here", where)
    if key not in obj or obj[key] is None:
        if default is not None:
            return default
        raise BgfError(f"'{key}' is missing", where)
    value = obj[key]
    if isinstance(value, bool) and kind is int or not isinstance(value, kind):
        raise BgfError(f"'{key}' is {type(value).__name__}, not {_kind_name(kind)}", where)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT:
        raise BgfError(f"'{key}' is {value}, out of range", where)
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(k.__name__ for k in kinds)


class _OutOfRange(Exception):
    """A figure that is a number past the range of a float (a record's error says which)."""


def _number(obj: Any, key: str) -> float | None:
    """``obj[key]`` as a float (BGBlitz writes figures as decimal strings); None when absent or not a number.

    Raises:
        _OutOfRange: it is a number past the range of a float (a huge integer).
    """
    value = obj.get(key) if isinstance(obj, dict) else None
    if isinstance(value, bool) or value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    except OverflowError:
        raise _OutOfRange(f"'{key}' is a number past the range of a float") from None
    return number if number == number and abs(number) != float("inf") else None


def _counted(value: float | None) -> float | None:
    """A BGBlitz error as tabla's (>= 0); None when BGBlitz did not count it (-99)."""
    if value is None or value == _NOT_COUNTED:
        return None
    return 0.0 - value


# --- the document as a match ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Context:
    """What a record needs from its game: the match length and the score before the game."""

    length: int
    score: tuple[int, int]


def match_from_document(doc: Any, path: str, on_error: ErrorHandler | None = None) -> Match:
    """The match of a decoded ``.bgf`` document.

    Args:
        doc: the document (:func:`read_document`).
        path: the file's name, for locations.
        on_error: called with an error in a game (a record that cannot be
            read), which keeps the records before it; without it the error
            is raised.

    Raises:
        TranscriptSyntaxError: the document is not a BGBlitz match, or (without
            ``on_error``) a game has a record that cannot be read.
    """
    try:
        match = _match_fields(doc, path)
        games = _field(doc, "games", list, "")
        final = (_field(doc, "finalGreen", int, "", 0), _field(doc, "finalRed", int, "", 0))
    except BgfError as exc:
        raise TranscriptSyntaxError(str(exc), Location(path)) from None
    for index, raw in enumerate(games):
        game = Game(index + 1, (0, 0), location=Location(path))
        match.games.append(game)
        try:
            following = games[index + 1] if index + 1 < len(games) else None
            _read_game(raw, following, final, match, game)
        except BgfError as exc:
            error = TranscriptSyntaxError(exc.message, Location(path, game=game.number, move=exc.move))
            if on_error is None:
                raise error from None
            on_error(error)
    return match


def _flatten(figures: dict[str, Any], prefix: str = "") -> Iterator[str]:
    """``key=value`` for each figure of a (nested) object, keys of nested objects joined by dots.

    >>> list(_flatten({"cubeError": "-0.1", "map": {"OK": 2}}))
    ['cubeError=-0.1', 'map.OK=2']
    """
    for key, value in figures.items():
        if isinstance(value, dict):
            yield from _flatten(value, f"{prefix}{key}.")
        elif isinstance(value, (str, int, float)) and '"' not in str(value):
            yield f"{prefix}{key}={value}"


def _match_fields(doc: Any, path: str) -> Match:
    if not isinstance(doc, dict):
        raise BgfError("the document is not a BGBlitz match (not an object)")
    names = (_field(doc, "nameGreen", str, "", ""), _field(doc, "nameRed", str, "", ""))
    limit = _field(doc, "cubeLimit", int, "", 0)
    rules = RuleSet(
        crawford=_field(doc, "useCrawford", bool, "", True),
        jacoby=_field(doc, "useJacoby", bool, "", False),
        beaver=_field(doc, "useBeaver", bool, "", False),
        cube_limit=limit if limit > 0 else RuleSet().cube_limit,
        cube=_field(doc, "useCube", bool, "", True),
    )
    headers: list[tuple[str, str]] = []
    for key, name in _HEADER_FIELDS:
        value = doc.get(key)
        if isinstance(value, str) and value.strip():
            headers.append((name, value.strip()))
    headers += [("Player 1", names[0]), ("Player 2", names[1])]
    for key, name in _EXTRA_FIELDS:
        value = doc.get(key)
        if isinstance(value, (int, float, str)) and not isinstance(value, bool) and value not in (0, ""):
            headers.append((f"BGBlitz {name}", str(value)))
    for key, name in (("luck", "luck"), ("prGreen", "errors Green"), ("prRed", "errors Red")):
        if isinstance(doc.get(key), dict):
            headers.append((f"BGBlitz {name}", " ".join(_flatten(doc[key]))))
    length = _field(doc, "matchlen", int, "", 0)
    if length < 0:
        raise BgfError(f"the match length {length} is negative")
    rules = said(rules, headers)
    return Match(names, length, headers=headers, rules=rules, path=path, format="bgf", location=Location(path))


def _read_game(raw: Any, following: Any, final: tuple[int, int], match: Match, game: Game) -> None:
    score = (_field(raw, "scoreGreen", int, "", 0), _field(raw, "scoreRed", int, "", 0))
    game.score = score
    crawford = _field(raw, "isCrawford", bool, "", False)
    game.crawford = crawford if match.length else None
    initial = _field(raw, "initial", dict, "", {})
    points = _field(initial, "points", list, "", list(_STANDARD_START))
    if tuple(points) != _STANDARD_START or initial.get("cube", 1) != 1 or initial.get("cubeOwner", 0) != 0:
        raise BgfError("the game starts from a set-up position, which this reader does not read")
    for flag, what in (("lostOnTime", "lost on time"), ("wasForfeit", "forfeited")):
        if raw.get(flag) is True:
            match.headers.append((f"BGBlitz game {game.number}", what))
    after = final
    if isinstance(following, dict):
        after = (_field(following, "scoreGreen", int, "", 0), _field(following, "scoreRed", int, "", 0))
    context = _Context(match.length, score)
    lines = _Lines()
    notes = raw.get("comment")
    for note in notes if isinstance(notes, list) else []:
        if isinstance(note, str) and note.strip():
            match.comments.append(f"game {game.number}: {note.strip()}")
    for index, record in enumerate(_field(raw, "moves", list, "")):
        try:
            game.actions.append(_record(record, context, after, lines, match.path, f"record {index + 1}"))
        except BgfError as exc:
            exc.move = lines.number
            raise
        note = record.get("comment")
        if isinstance(note, str) and note.strip():
            match.comments.append(f"game {game.number} move {lines.number}: {note.strip()}")


class _Lines:
    """Move numbers as a ``.mat`` transcript prints them: Green's action on the left of a line, Red's on the right."""

    def __init__(self) -> None:
        self.number = 0
        self.left = self.right = True

    def place(self, player: Player) -> int:
        if player is Player.ZERO:
            if self.left or self.right:
                self.number, self.left, self.right = self.number + 1, True, False
            else:
                self.left = True
        else:
            if self.right:
                self.number, self.left = self.number + 1, False
            self.right = True
        return self.number


def _record(record: Any, context: _Context, after: tuple[int, int], lines: _Lines, path: str, where: str) -> Action:
    try:
        return _action(record, context, after, lines, path, where)
    except _OutOfRange as exc:
        raise BgfError(str(exc), where) from None


def _action(record: Any, context: _Context, after: tuple[int, int], lines: _Lines, path: str, where: str) -> Action:
    kind = _field(record, "type", str, where)
    if kind != "amove":
        raise BgfError(f"a record of unknown type {kind!r}", where)
    side = _field(record, "player", int, where)
    if side not in _PLAYERS:
        raise BgfError(f"player {side} is neither -1 (Green) nor 1 (Red)", where)
    player = _PLAYERS[side]
    red, green = _field(record, "red", int, where), _field(record, "green", int, where)
    location = Location(path)
    if green == _CODE_DIE:
        return _coded(record, red, player, context, after, lines, location, where)
    if not (1 <= red <= 6 and 1 <= green <= 6):
        raise BgfError(f"dice {red}-{green} are not two values from 1 to 6", where)
    dice: Dice = (red, green)
    play = format_play_plain(_steps(record, where))
    number = lines.place(player)
    return Action(
        ActionKind.ROLL, player, location, number, dice, play, analysis=_roll_analysis(record, context, where)
    )


def _steps(record: Any, where: str) -> tuple[Step, ...]:
    sources, targets = _field(record, "from", list, where), _field(record, "to", list, where)
    if len(sources) != len(targets) or len(sources) > 4:
        raise BgfError("'from' and 'to' do not list the same number of checkers (at most 4)", where)
    steps = []
    for src, dst in zip(sources, targets, strict=True):
        if not isinstance(src, int) or not isinstance(dst, int) or isinstance(src, bool) or isinstance(dst, bool):
            raise BgfError("a checker's 'from' or 'to' is not a number", where)
        if src == -1 and dst == -1:
            continue
        if not (1 <= src <= 25 and 0 <= dst <= 24):
            raise BgfError(f"a checker moves from {src} to {dst}, not from 1-25 (25: the bar) to 0-24 (0: off)", where)
        steps.append(Step(src, dst))
    return tuple(steps)


def _coded(
    record: Any,
    code: int,
    player: Player,
    context: _Context,
    after: tuple[int, int],
    lines: _Lines,
    location: Location,
    where: str,
) -> Action:
    if code == _DANCE:
        sources, targets = _field(record, "from", list, where), _field(record, "to", list, where)
        dice = (sources[0], targets[0]) if sources and targets else (0, 0)
        if not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice):
            raise BgfError("a roll that cannot be played does not give its dice", where)
        cube = _cube_evaluation(record, context, CubeAction.NO_DOUBLE)
        recorded = RecordedAnalysis(
            level=_level(record),
            forced=True,
            luck=_luck(record),
            cube_action=None if cube is None else CubeAction.NO_DOUBLE,
            cube_evaluation=cube,
        )
        return Action(ActionKind.ROLL, player, location, lines.place(player), (dice[0], dice[1]), "", analysis=recorded)
    if code in (_DOUBLE, _TAKE, _PASS):
        kind, made = {
            _DOUBLE: (ActionKind.DOUBLE, CubeAction.DOUBLE),
            _TAKE: (ActionKind.TAKE, CubeAction.TAKE),
            _PASS: (ActionKind.DROP, CubeAction.PASS),
        }[code]
        evaluation = _cube_evaluation(record, context, made)
        analysis = (
            None
            if evaluation is None
            else RecordedAnalysis(
                level=evaluation.source.removeprefix("recorded "), cube_action=made, cube_evaluation=evaluation
            )
        )
        return Action(kind, player, location, lines.place(player), analysis=analysis)
    if code == _WIN:
        index = int(player)
        before = context.score[index]
        points = after[index] - before
        return Action(ActionKind.WIN, player, location, value=points if points > 0 else None)
    if code == _RESIGN:
        return Action(ActionKind.RESIGN, player, location, lines.place(player))
    raise BgfError(f"an action of unknown code {code} (red={code}, green=7)", where)


# --- analysis ----------------------------------------------------------------------------


def _level(record: Any) -> str:
    ply = record.get("ply") if isinstance(record, dict) else None
    return f"BGBlitz {ply}-ply" if isinstance(ply, int) and not isinstance(ply, bool) else "BGBlitz"


def _luck(record: Any) -> float | None:
    return _number(record.get("luck"), "luckPlain") if isinstance(record, dict) else None


def _candidate_equity(evaluation: Any) -> float | None:
    """A candidate's normalised equity: BGBlitz's EMG in match play, its cubeful equity in money play."""
    if not isinstance(evaluation, dict):
        return None
    if evaluation.get("hasEMG") is True:
        return _number(evaluation, "emg")
    decision = evaluation.get("cubeDecision")
    cubeful = _number(decision, "eqCubeFul") if isinstance(decision, dict) else None
    return cubeful if cubeful is not None else _number(evaluation, "equity")


def _probabilities(evaluation: dict[str, Any]) -> tuple[float, ...] | None:
    keys = ("myWins", "myGammon", "myBackGammon", "oppWins", "oppGammon", "oppBackGammon")
    values = [_number(evaluation, key) for key in keys]
    return None if None in values else tuple(v for v in values if v is not None)


def _roll_analysis(record: Any, context: _Context, where: str) -> RecordedAnalysis | None:
    level = _level(record)
    candidates: list[Candidate] = []
    played: int | None = None
    listed = record.get("moveAnalysis")
    for item in listed if isinstance(listed, list) else []:
        if not isinstance(item, dict) or not isinstance(item.get("move"), dict):
            continue
        equity = _candidate_equity(item.get("eq"))
        if equity is None:
            continue
        try:
            play = format_play_plain(_steps(item["move"], where))
        except BgfError:
            continue
        ply = item.get("ply")
        if item.get("played") is True and played is None:
            played = len(candidates)
        candidates.append(
            Candidate(
                len(candidates) + 1,
                play,
                equity,
                0.0,
                _probabilities(item["eq"]),
                f"{ply}-ply" if isinstance(ply, int) else "",
            )
        )
    if candidates:
        best = candidates[0].equity
        candidates = [c._replace(error=max(0.0, best - c.equity)) for c in candidates]
    pr = record.get("pr")
    cube = _cube_evaluation(record, context, CubeAction.NO_DOUBLE)
    checker = None
    if candidates:
        error = _counted(_number(pr, "checkerError"))
        made = candidates[played] if played is not None else None
        checker = Evaluation(
            equity=None if made is None else made.equity,
            best_equity=candidates[0].equity,
            best=candidates[0].play,
            error=error if made is not None else None,
            source=f"recorded {level}",
            rank=None if made is None else made.rank,
            options=len(candidates),
            forced=len(candidates) == 1,
            luck=_luck(record),
        )
    if checker is None and cube is None:
        return None
    return RecordedAnalysis(
        candidates=tuple(candidates),
        played=played,
        level=level,
        forced=len(candidates) == 1,
        luck=_luck(record),
        cube_action=CubeAction.NO_DOUBLE if cube is not None else None,
        checker_evaluation=checker,
        cube_evaluation=cube,
    )


def _cube_evaluation(record: Any, context: _Context, made: CubeAction) -> Evaluation | None:
    """The evaluation of the record's cube decision (``made``), when BGBlitz counted it.

    The error is BGBlitz's. In money play the three cube equities are normalised
    money equities and are kept (from the doubler's side); in match play they
    are match-winning chances at a cube value the record does not give, so
    only their difference is kept, as the error in MWC.
    """
    pr = record.get("pr")
    error = _counted(_number(pr, "cubeError"))
    equity = record.get("equity")
    decision = equity.get("cubeDecision") if isinstance(equity, dict) else None
    if error is None or not isinstance(decision, dict):
        return None
    answering = made in (CubeAction.TAKE, CubeAction.PASS)
    if answering:
        best = CubeAction.TAKE if decision.get("stateOther") == "ACCEPT" else CubeAction.PASS
    else:
        best = CubeAction.DOUBLE if decision.get("stateOnMove") in ("DOUBLE", "RE_DOUBLE") else CubeAction.NO_DOUBLE
    figures = [_number(decision, key) for key in ("eqNoDouble", "eqDoubleTake", "eqDoublePass")]
    options = None if None in figures else tuple(f for f in figures if f is not None)
    best_equity: float | None = None
    error_mwc = None
    cube_equities = None
    if options is not None:
        nd, dt, dp = options
        if answering:  # the record gives the taker's side: the taker's equity of taking and passing
            outcomes = {CubeAction.TAKE: dt, CubeAction.PASS: dp}
        else:
            outcomes = {CubeAction.NO_DOUBLE: nd, CubeAction.DOUBLE: min(dt, dp)}
        best_value = max(outcomes.values())
        if context.length:
            error_mwc = max(0.0, best_value - outcomes[made])
        else:
            best_equity = best_value
            sign = -1.0 if answering else 1.0
            cube_equities = (sign * nd, sign * dt, sign * dp)
    return Evaluation(
        equity=None if best_equity is None else best_equity - error,
        best_equity=0.0 if best_equity is None else best_equity,
        best=best.value,
        error=error,
        error_mwc=error_mwc,
        source=f"recorded {_level(record)}",
        rank=1 if best is made else 2,
        options=2,
        close=made is not CubeAction.NO_DOUBLE or decision.get("close") is True,
        cube_equities=cube_equities,
    )


def read_matches(
    data: bytes, *, path: str, on_error: ErrorHandler | None = None, max_size: int = MAX_SIZE
) -> Iterator[Match]:
    """The match of the ``.bgf`` file ``data`` (a file holds one match).

    Raises:
        InputError: the file cannot be read (see :func:`read_document`).
        TranscriptSyntaxError: (without ``on_error``) a game has a record that cannot be read.
    """
    yield match_from_document(read_document(data, path=path, max_size=max_size), path, on_error)


FORMAT = Format("bgf", (".bgf",), never, read_matches, magic=(MAGIC,), title="BGBlitz .bgf")
"""This reader in the format registry (:mod:`tabla_cli.formats`)."""
