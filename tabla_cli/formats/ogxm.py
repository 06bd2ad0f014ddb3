"""Read OGXM match files (``.ogxm``, GammonView's ``.gvab``) and streams (``.ogxms``, ``.ogxms.zst``).

The bytes are decoded by the ``ogxm`` package (the format's own codec,
``libogxm``): a file to its JSON projection (:func:`ogxm.binary_to_json`),
a stream cut into members by the package's framing. A stream member that
holds only a match's plies under a good checksum is read straight into the
same projection by :mod:`tabla_cli.formats._ogxm2`, what the package lacks
(its only v2 decoder goes through JSON and replays every ply, and its stream
reader validates every member in full, both many times the cost of tabla's
own reading); any other member is the package's, as is the rest of a stream
from its first damaged or cut member (:func:`_stream`). This module turns the
projection into the match model and says only what it holds; the replay
checks it. GammonView's JSON form (``.gva``) is the same projection as
text: :mod:`tabla_cli.formats.gva` reads it with :func:`match_from_document`.

The projection as read here: the match (``player_white``, ``player_black``,
``match_length`` (0: money), ``white_score_start``, ``black_score_start``,
``crawford``, ``jacoby``, ``beaver``, ``cube_limit``, ``event``, ``site``)
and its ``games``, each with its ``plies``, the ``winner`` (0 white, 1
black) and ``points_won``. White is tabla's first player; a ply's ``color``
is 1 for white, 0 for black. A ply's
``action_id`` says what it is: 0 to 20 a roll (``d1``, ``d2``, and the
checkers moved as ``{"from", "pips"}`` in black's numbering: black moves
from 24 down, 25 its bar; white from 1 up, 0 its bar), 21 a
double, 22 a take, 23 a pass, 24 and 26 the end of the game (26 after a
pass or the bear-off that wins the match, in GammonView's files),
27 and 28 a resignation by the colour of the ply (``resign_value``:
single, gammon, backgammon; 28 when it ends the match). A game's score is the starting score plus the
points of the games before it.

The analysis a ply carries (bgsage's, in GammonView's files) is kept as
recorded analysis: the ranked ``alternatives`` of a roll (the one played
``is_played``), the cube equities (``no_double_equity``,
``double_take_equity``, ``double_pass_equity``) of a roll's
``cube_decision`` and of a cube action, all normalised money equities from
the side that decides.

What the package lacks, written here: GammonView's ``.gvab`` files come in
two layouts of the v1 match header. The older one (GammonView 1) is OGXM
v1's; the later one (GammonView 2 and after) writes the cube limit where
OGXM v1 has white's starting score, so the codec reads a start of 64 and
adds it to white's final score (:func:`_gammonview_layout`, inferred from
the corpus's files against their ``.mat`` twins). Such a file is read with
the cube limit kept and the starting scores zero.

A stream is read member by member (one member in memory at a time); a
damaged member is a finding and the next member that verifies is read; a
cut tail is a finding after every complete member. A compressed stream
(zstandard) is inflated as it is read, never past ``max_size`` bytes.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

from tabla_cli.board import Player
from tabla_cli.errors import InflatesTooLargeError, InputError, Location, TranscriptSyntaxError
from tabla_cli.evaluation.recorded import Candidate, CubeAnalysis, RecordedAnalysis
from tabla_cli.evaluation.types import CubeAction
from tabla_cli.files import MAX_SIZE
from tabla_cli.formats import Format, never
from tabla_cli.formats._syntax import ErrorHandler
from tabla_cli.model import Action, ActionKind, Game, Match, RuleSet

__all__ = [
    "FORMAT",
    "MAGIC",
    "ZSTD_MAGIC",
    "OgxmDocumentError",
    "documents",
    "match_from_document",
    "read_matches",
    "read_stream",
]

MAGIC = b"OGXM"
"""How every OGXM file and stream member starts."""
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
"""How a zstandard-compressed file (``.ogxms.zst``) starts."""

MAX_INT = 999_999_999
"""The largest score, length or cube limit read (as the text formats read)."""

DOUBLE, TAKE, PASS = 21, 22, 23
END_GAME, END_PASS = 24, 26
RESIGN_ACCEPTED, RESIGN_WON = 27, 28
ROLLS = 21
"""Action ids 0..20 are the 21 rolls (1-1, 1-2, ..., 6-6)."""

RESIGN_VALUES = {"single": 1, "gammon": 2, "backgammon": 3}
_CUBE_ACTIONS = {
    "no_double": CubeAction.NO_DOUBLE,
    "double": CubeAction.DOUBLE,
    "take": CubeAction.TAKE,
    "pass": CubeAction.PASS,
    "beaver": CubeAction.BEAVER,
}
_OUTCOMES = ("win", "gammon_win", "bg_win", "gammon_loss", "bg_loss")
_READ = 1 << 16
_HEADER = 16
"""An OGXM v2 file's header: its last four bytes are the file's size."""


class OgxmDocumentError(ValueError):
    """A JSON projection that does not hold a match tabla can read (``where`` names the field)."""


def roll_action_id(dice: tuple[int, int]) -> int:
    """The action id of a roll (the index of the pair, smaller die first, among the 21 rolls).

    >>> roll_action_id((1, 1)), roll_action_id((5, 4)), roll_action_id((6, 6))
    (0, 16, 20)
    """
    low, high = sorted(dice)
    return sum(7 - d for d in range(1, low)) + high - low


_ROLL_IDS = {(a, b): roll_action_id((a, b)) for a in range(1, 7) for b in range(1, 7)}
_BY_COLOR = (Player.ONE, Player.ZERO)
"""Colour 0 is black (tabla's second player), 1 white."""


# --- the document as a match -------------------------------------------------------------------


def _int(obj: dict[str, Any], key: str, where: str, default: int | None = None, low: int = 0) -> int:
    value = obj.get(key)
    if value is None and default is not None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= MAX_INT:
        raise OgxmDocumentError(f"{where}{key} is {value!r}, not a number from {low} to {MAX_INT}")
    return value


def _text(obj: dict[str, Any], key: str) -> str:
    value = obj.get(key)
    return value.strip() if isinstance(value, str) else ""


def _number(obj: Any, key: str) -> float | None:
    value = obj.get(key) if isinstance(obj, dict) else None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    number = float(value)
    return number if abs(number) < 1e9 else None


def match_from_document(
    doc: Any,
    path: str,
    on_error: ErrorHandler | None = None,
    *,
    cube_limit: int | None = None,
    where: Location | None = None,
) -> Match:
    """The match of an OGXM JSON projection (a decoded file, or a ``.gva`` document).

    Args:
        doc: the projection.
        path: the file's name, for locations.
        on_error: called with an error inside a game (which keeps the plies
            before it); without it the error is raised.
        cube_limit: the cube limit that layout writes (its starting scores are zero).
        where: the location of the match (a stream's member), default the file.

    Raises:
        TranscriptSyntaxError: the projection is not a match (or, without
            ``on_error``, a game cannot be read).
    """
    location = where or Location(path)
    try:
        match = _match_fields(doc, path, location, cube_limit)
        games = doc.get("games")
        if not isinstance(games, list):
            raise OgxmDocumentError("games is not a list")
        starts = (
            (0, 0)
            if cube_limit is not None
            else (
                _int(doc, "white_score_start", "", 0),
                _int(doc, "black_score_start", "", 0),
            )
        )
    except OgxmDocumentError as exc:
        raise TranscriptSyntaxError(str(exc), location) from None
    score = list(starts)
    for index, raw in enumerate(games):
        game = Game(index + 1, (score[0], score[1]), location=Location(path, game=index + 1))
        match.games.append(game)
        try:
            won = _read_game(raw, match, game, f"games[{index}].")
        except OgxmDocumentError as exc:
            error = TranscriptSyntaxError(str(exc), Location(path, game=index + 1))
            if on_error is None:
                raise error from None
            on_error(error)
            break
        if won is not None:
            score[int(won[0])] = min(MAX_INT, score[int(won[0])] + won[1])
    return match


def _match_fields(doc: Any, path: str, location: Location, cube_limit: int | None) -> Match:
    if not isinstance(doc, dict):
        raise OgxmDocumentError("the document is not an OGXM match (not an object)")
    variant = doc.get("variant", "backgammon")
    if variant not in (None, "backgammon"):
        raise OgxmDocumentError(f"the variant {variant!r} is not read (only backgammon)")
    names = (_text(doc, "player_white"), _text(doc, "player_black"))
    limit = cube_limit if cube_limit is not None else _int(doc, "cube_limit", "", 0)
    rules = RuleSet(
        crawford=doc.get("crawford", True) is not False,
        jacoby=doc.get("jacoby") is True,
        beaver=doc.get("beaver") is True,
        cube_limit=limit if limit > 1 else RuleSet().cube_limit,
    )
    headers: list[tuple[str, str]] = []
    for key, name in (("event", "Event"), ("site", "Site"), ("round", "Round")):
        if _text(doc, key):
            headers.append((name, _text(doc, key)))
    if limit > 1:
        headers.append(("Cubelimit", str(limit)))
    headers += [("Player 1", names[0]), ("Player 2", names[1])]
    length = _int(doc, "match_length", "", 0)
    return Match(names, length, headers=headers, rules=rules, path=path, format="ogxm", location=location)


def _read_game(raw: Any, match: Match, game: Game, where: str) -> tuple[Player, int] | None:
    """Read one game's plies into ``game``; the winner and points it gives, None when it gives none."""
    if not isinstance(raw, dict):
        raise OgxmDocumentError(f"{where[:-1]} is not an object")
    if raw.get("is_default_board") is False:
        raise OgxmDocumentError(f"{where}the game starts from a set-up position, which this reader does not read")
    game.crawford = (raw.get("is_crawford") is True) if match.length else None
    plies = raw.get("plies")
    if not isinstance(plies, list):
        raise OgxmDocumentError(f"{where}plies is not a list")
    winner_raw = raw.get("winner")
    winner = Player(winner_raw) if winner_raw in (0, 1) and not isinstance(winner_raw, bool) else None
    points = _int(raw, "points_won", where, 0)
    number = 0
    path = match.path
    for index, ply in enumerate(plies):
        if not isinstance(ply, dict):
            raise OgxmDocumentError(f"{where}plies[{index}] is not an object")
        try:
            number = _read_ply(ply, game, path, number)
        except OgxmDocumentError as exc:  # named here, not for every ply read
            raise OgxmDocumentError(f"{where}plies[{index}].{exc}") from None
    if winner is None or points == 0:
        return None
    game.actions.append(Action(ActionKind.WIN, winner, Location(match.path, game=game.number), value=points))
    return winner, points


def _read_ply(ply: dict[str, Any], game: Game, path: str, number: int) -> int:
    """Read one ply into ``game``; the move number after it. An error names the field from the ply."""
    action_id = _int(ply, "action_id", "")
    if action_id in (END_GAME, END_PASS):
        return number
    color = ply.get("color")
    if color not in (0, 1) or isinstance(color, bool):
        raise OgxmDocumentError(f"color is {color!r}, neither 0 nor 1")
    player = _BY_COLOR[color]
    if player is Player.ZERO or number == 0:  # move numbers as a .mat prints them: white on the left
        number += 1
    location = Location(path, game=game.number, move=number)
    if action_id < ROLLS:
        game.actions.append(_roll(ply, player, location, number, action_id))
    elif action_id in (DOUBLE, TAKE, PASS):
        kind = {DOUBLE: ActionKind.DOUBLE, TAKE: ActionKind.TAKE, PASS: ActionKind.DROP}[action_id]
        game.actions.append(Action(kind, player, location, number, analysis=_cube_ply_analysis(ply)))
    elif action_id in (RESIGN_ACCEPTED, RESIGN_WON):
        level = RESIGN_VALUES.get(str(ply.get("resign_value")))
        game.actions.append(Action(ActionKind.RESIGN, player, location, number, value=level))
    else:
        raise OgxmDocumentError(f"action_id {action_id} is not an action this reader knows")
    return number


def _play_text(moves: Any, player: Player) -> str:
    """The checkers moved, as a ``.mat`` writes a play from the mover's side (25 the bar, 0 off)."""
    if not isinstance(moves, list) or len(moves) > 4:
        raise OgxmDocumentError("moves is not a list of at most 4 checkers")
    parts = []
    for move in moves:
        if not isinstance(move, dict):
            raise OgxmDocumentError("a move is not an object")
        src, pips = move.get("from"), move.get("pips")
        if type(src) is not int or type(pips) is not int:  # a JSON number, not a bool
            raise OgxmDocumentError("a move's from or pips is not a number")
        if not (0 <= src <= 25 and 1 <= pips <= 6):
            raise OgxmDocumentError(f"a move from {src} by {pips} pips is off the board")
        own = src if player is Player.ONE else 25 - src
        if own == 0:
            raise OgxmDocumentError(f"a move from {src} starts on the other side's bar")
        parts.append(f"{own}/{max(0, own - pips)}")
    return " ".join(parts)


def _roll(ply: dict[str, Any], player: Player, location: Location, number: int, action_id: int) -> Action:
    d1, d2 = ply.get("d1"), ply.get("d2")
    if type(d1) is not int or type(d2) is not int or not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise OgxmDocumentError(f"dice {d1!r}-{d2!r} are not two values from 1 to 6")
    if _ROLL_IDS[d1, d2] != action_id:
        raise OgxmDocumentError(f"action_id {action_id} is not the roll {d1}-{d2}")
    play = _play_text(ply.get("moves", []), player)
    return Action(ActionKind.ROLL, player, location, number, (d1, d2), play, analysis=_roll_analysis(ply, player))


# --- analysis ----------------------------------------------------------------------------------


def _level(analysis: dict[str, Any], key: str = "checker_ply") -> str:
    level = analysis.get("level")
    ply = level.get(key) if isinstance(level, dict) else None
    if isinstance(ply, int) and not isinstance(ply, bool):
        return f"{ply}-ply"
    text = analysis.get("eval_level")
    return text if isinstance(text, str) else ""


def _probabilities(evaluation: Any) -> tuple[float, ...] | None:
    values = [_number(evaluation, key) for key in _OUTCOMES]
    if any(v is None for v in values):
        return None
    win, gwin, bgwin, gloss, bgloss = (v for v in values if v is not None)
    return (win, gwin, bgwin, 1.0 - win, gloss, bgloss)


def _cube(analysis: Any, level: str) -> CubeAnalysis | None:
    figures = [_number(analysis, k) for k in ("no_double_equity", "double_take_equity", "double_pass_equity")]
    if not isinstance(analysis, dict) or any(f is None for f in figures):
        return None
    nd, dt, dp = (f for f in figures if f is not None)
    proper = analysis.get("correct_action")
    return CubeAnalysis(
        nd,
        dt,
        dp,
        proper=proper if isinstance(proper, str) else "",
        level=level,
        probabilities=_probabilities(analysis.get("eval")),
    )


def _roll_analysis(ply: dict[str, Any], player: Player) -> RecordedAnalysis | None:
    analysis = ply.get("analysis")
    if not isinstance(analysis, dict):
        return None
    level = _level(analysis)
    candidates: list[Candidate] = []
    played: int | None = None
    listed = analysis.get("alternatives")
    for item in listed if isinstance(listed, list) else []:
        equity = _number(item, "equity")
        if equity is None:
            continue
        try:
            play = _play_text(item.get("move", []), player)
        except OgxmDocumentError:
            continue
        if item.get("is_played") is True and played is None:
            played = len(candidates)
        candidates.append(
            Candidate(len(candidates) + 1, play, equity, 0.0, _probabilities(item.get("eval")), _level(item) or level)
        )
    if candidates:
        best = max(c.equity for c in candidates)
        candidates = [c._replace(error=max(0.0, best - c.equity)) for c in candidates]
    decision = analysis.get("cube_decision")
    cube = _cube(decision, _level(decision, "cube_ply") if isinstance(decision, dict) else level)
    if not candidates and cube is None:
        return None
    return RecordedAnalysis(
        candidates=tuple(candidates),
        played=played,
        level=f"bgsage {level}" if level else "bgsage",
        cube=cube,
        cube_action=CubeAction.NO_DOUBLE if cube is not None else None,
        forced=len(candidates) == 1,
    )


def _cube_ply_analysis(ply: dict[str, Any]) -> RecordedAnalysis | None:
    analysis = ply.get("analysis")
    if not isinstance(analysis, dict):
        return None
    level = _level(analysis, "cube_ply") or _level(analysis)
    cube = _cube(analysis, level)
    if cube is None:
        return None
    made = _CUBE_ACTIONS.get(str(analysis.get("played_action")))
    return RecordedAnalysis(level=f"bgsage {level}" if level else "bgsage", cube=cube, cube_action=made)


# --- files and streams -------------------------------------------------------------------------


def _gammonview_layout(data: bytes, doc: dict[str, Any]) -> int | None:
    """The cube limit of a ``.gvab`` in GammonView's later header layout; None for any other file.

    That layout (GammonView 2 on) is a v1 file whose ``MHDR`` chunk holds,
    at offset 20 of its body, the cube limit (a power of two) where OGXM v1
    holds white's starting score, followed by a zero; the codec reads it as a
    start of that many points.
    """
    if data[4:6] != b"\x01\x00" or data[20:24] != b"MHDR" or len(data) < 52:
        return None
    (size,) = struct.unpack_from("<I", data, 24)
    if size < 28:
        return None
    (limit,) = struct.unpack_from("<H", data, 28 + 20)
    if limit < 2 or limit & (limit - 1) or doc.get("white_score_start") != limit:
        return None
    return limit if doc.get("black_score_start", 0) == 0 else None


def decode_file(data: bytes, path: str, where: Location) -> Any:
    """The JSON projection of one OGXM file (v1 or v2).

    Raises:
        InputError: the codec refuses the bytes (with its reason).
    """
    import ogxm

    try:
        return ogxm.binary_to_json(data)
    except ogxm.OgxmError as exc:
        raise InputError(
            f"not a readable OGXM file: {str(exc).removeprefix('ogxm_binary_to_json failed: ')}", where
        ) from None
    except (ValueError, RecursionError) as exc:
        raise InputError(f"not a readable OGXM file: {exc}", where) from None


def match_from_bytes(data: bytes, path: str, on_error: ErrorHandler | None, where: Location) -> Match:
    """The match of one OGXM file's bytes (GammonView's later layout read as it means)."""
    doc = decode_file(data, path, where)
    limit = _gammonview_layout(data, doc) if isinstance(doc, dict) else None
    return match_from_document(doc, path, on_error, cube_limit=limit, where=where)


class _Bounded(io.RawIOBase):
    """A binary stream read in bounded pieces, refusing to give more than ``limit`` bytes in all."""

    def __init__(self, inner: BinaryIO | _Chain, limit: int, location: Location) -> None:
        self.inner = inner
        self.limit = limit
        self.given = 0
        self.location = location

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        want = _READ if size is None or size < 0 else min(size, _READ)
        data = self.inner.read(want)
        self.given += len(data)
        if self.given > self.limit:
            raise InflatesTooLargeError(
                f"the stream inflates past the size limit of {self.limit} bytes (--max-size); not read further",
                self.location,
            )
        return data


def documents(
    handle: BinaryIO, *, path: str, max_size: int = MAX_SIZE, on_skip: Callable[[InputError], None] | None = None
) -> Iterator[tuple[bytes, int]]:
    """The bytes of each OGXM file of ``handle`` (one file, or a stream, compressed or not), with its number
    in the stream (0 for a v1 file, which is never a stream member).

    A damaged stream member goes to ``on_skip`` (raised without it) and the
    next member that verifies is read.

    Raises:
        InputError: not OGXM, a damaged stream (without ``on_skip``), a cut tail.
        InflatesTooLargeError: more than ``max_size`` bytes inflated.
    """
    for data, number, _ in _members(handle, path=path, max_size=max_size, on_skip=on_skip):
        yield data, number


def _members(
    handle: BinaryIO, *, path: str, max_size: int, on_skip: Callable[[InputError], None] | None
) -> Iterator[tuple[bytes, int, dict[str, Any] | None]]:
    """:func:`documents`, each member with its projection where :func:`~tabla_cli.formats._ogxm2.decode_member`
    reads it (None: the package is to decode it)."""
    import ogxm

    where = Location(path)
    head = handle.read(6)
    rest: BinaryIO = handle
    if head[:4] == ZSTD_MAGIC:
        import zstandard

        raw = io.BufferedReader(_Chain(head, handle))
        try:
            rest = zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True)
            head = _read_exactly(rest, 6)
        except zstandard.ZstdError as exc:
            raise InputError(f"the zstandard stream is damaged: {exc}", where) from None
    if head[:4] != MAGIC:
        raise InputError("not an OGXM file or stream (it does not start with OGXM)", where)
    bounded = _Bounded(_Chain(head, rest), max_size, where)
    if head[4:6] == b"\x01\x00":  # a v1 file: one match, never a stream member
        data = _read_all(bounded)
        yield data, 0, None
        return
    members = 0

    def skipped(offset: int, length: int) -> None:
        error = InputError(f"a damaged stream member at byte {offset} ({length} bytes) is skipped", where)
        if on_skip is None:
            raise error
        on_skip(error)

    try:
        for member, doc in _stream(bounded, skipped):
            members += 1
            yield member, members, doc
    except ogxm.StreamTruncated as exc:
        raise InputError(
            f"the stream is cut short: {exc.length} bytes at byte {exc.offset} are an incomplete member", where
        ) from None
    except ogxm.StreamError as exc:
        raise InputError(f"the stream is damaged: {exc}", where) from None
    except _zstd_errors() as exc:
        raise InputError(f"the zstandard stream is damaged: {exc}", where) from None


def _stream(handle: _Bounded, on_skip: Callable[[int, int], None]) -> Iterator[tuple[bytes, dict[str, Any] | None]]:
    """The members of a v2 stream, each with its projection where :mod:`~tabla_cli.formats._ogxm2` reads it.

    The package's :func:`ogxm.iter_stream` runs :func:`ogxm.verify`, the
    whole v2 validation, on every member, which costs more than tabla's
    whole reading and replay of it. Here a member is framed by the package's
    codec (``ogxm_stream_next``) and taken when its checksum matches and
    :func:`~tabla_cli.formats._ogxm2.decode_member` reads it, or when the
    package verifies it. From the first member that is neither (damaged, cut
    short, a framing the codec refuses) the rest of the stream is the
    package's own :func:`ogxm.iter_stream`, so that what is skipped, where it
    resumes and what a cut tail is are the package's to say, at the offsets
    of the whole stream.
    """
    import ctypes

    import ogxm

    from tabla_cli.formats._ogxm2 import decode_member

    frame = ogxm.load_library().ogxm_stream_next
    framed = ctypes.c_size_t(0)
    buffer = bytearray()
    pos = 0
    base = 0
    ended = False
    while True:
        size = _HEADER
        if len(buffer) - pos >= _HEADER:
            size = max(_HEADER, int.from_bytes(buffer[pos + 12 : pos + 16], "little"))
        if len(buffer) - pos < size and not ended:
            del buffer[:pos]
            base += pos
            pos = 0
            while len(buffer) < size and not ended:
                piece = handle.read(max(size - len(buffer), _READ))
                buffer += piece
                ended = not piece
            continue
        if pos == len(buffer):
            return
        if len(buffer) - pos < size:
            break
        member = bytes(buffer[pos : pos + size])
        if frame(member, size, ctypes.byref(framed)) != 0 or framed.value != size:
            break
        doc = decode_member(member)
        if doc is None and ogxm.verify(member)[0] is not None:
            break
        pos += size
        yield member, doc
    offset = base + pos
    tail = _Chain(bytes(buffer[pos:]), io.BytesIO() if ended else handle)
    try:
        for member in ogxm.iter_stream(tail, strict=False, on_skip=lambda at, length: on_skip(offset + at, length)):
            yield member, decode_member(member)
    except ogxm.StreamTruncated as exc:
        raise ogxm.StreamTruncated(offset + exc.offset, exc.length) from None


def _zstd_errors() -> tuple[type[BaseException], ...]:
    try:
        import zstandard
    except ImportError:
        return ()
    return (zstandard.ZstdError,)


def _read_exactly(handle: Any, size: int) -> bytes:
    out = b""
    while len(out) < size:
        piece = handle.read(size - len(out))
        if not piece:
            break
        out += piece
    return out


def _read_all(handle: _Bounded) -> bytes:
    parts = []
    while piece := handle.read():
        parts.append(piece)
    return b"".join(parts)


class _Chain(io.RawIOBase):
    """``head`` (bytes already read), then the rest of ``handle``."""

    def __init__(self, head: bytes, handle: Any) -> None:
        self.head = head
        self.handle = handle

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def read(self, size: int = -1) -> bytes:
        if self.head:
            if size is None or size < 0 or size >= len(self.head):
                out, self.head = self.head, b""
                return out
            out, self.head = self.head[:size], self.head[size:]
            return out
        return bytes(self.handle.read(_READ if size is None or size < 0 else size))


def read_stream(
    handle: BinaryIO, *, path: str, on_error: ErrorHandler | None = None, max_size: int = MAX_SIZE
) -> Iterator[Match]:
    """Every match of an OGXM file or stream read from ``handle``, one member in memory at a time.

    A member that does not decode, or whose match cannot be read, is an
    error handed to ``on_error`` (raised without it) and the next member is
    read.

    Raises:
        InputError: see :func:`documents`.
    """

    def report(error: InputError) -> None:
        if on_error is None:
            raise error
        on_error(TranscriptSyntaxError(error.message, error.location))

    for data, number, doc in _members(handle, path=path, max_size=max_size, on_skip=report):
        try:
            if doc is not None:
                yield match_from_document(doc, path, on_error, where=Location(path))
            else:
                yield match_from_bytes(data, path, on_error, Location(path))
        except InputError as exc:
            if on_error is None or number == 0:
                raise
            report(InputError(f"match {number}: {exc.message}", exc.location))


def read_matches(
    data: bytes, *, path: str, on_error: ErrorHandler | None = None, max_size: int = MAX_SIZE
) -> Iterator[Match]:
    """Every match of the OGXM file or stream ``data``; see :func:`read_stream`."""
    return read_stream(io.BytesIO(data), path=path, on_error=on_error, max_size=max_size)


FORMAT = Format(
    "ogxm",
    (".ogxm", ".gvab", ".ogxms", ".zst"),
    never,
    read_matches,
    magic=(MAGIC, ZSTD_MAGIC),
    stream=read_stream,
    title="OGXM files and streams",
)
"""This reader in the format registry (:mod:`tabla_cli.formats`)."""
