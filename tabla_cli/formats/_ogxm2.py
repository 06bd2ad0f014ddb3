"""A direct decoder of the plain OGXM v2 member, the piece the ``ogxm`` package lacks.

The package decodes v2 bytes only to its JSON projection
(:func:`ogxm.binary_to_json`), and that call replays every ply to write its
OGIDs and validate; its stream reader runs the whole v2 validation
(:func:`ogxm.verify`) on every member as well. Together they cost many times
what tabla's own reading and replay of the same match cost. This module reads
the bytes of one member straight into the part of the projection that
:func:`tabla_cli.formats.ogxm.match_from_document` reads, for the members that
hold nothing but a match's plies: the ``MTCH`` section (players, length,
Crawford and Jacoby rules, cube limit, starting score, event), one ``GAME``
section a game (winner, points, each ply's action, seat, checkers and
resignation value) and a CRC-32 ``CSUM`` over the bytes before it, which is
what tabla's writer writes when a match carries no analysis.

It is a whitelist, not a second codec: whatever it has not been checked
against the package to read as the package does (another section, such as an
analysis block or a signature; a field or flag it does not know; a minor
version past 1; a checksum that does not match; bytes that do not parse) makes
:func:`decode_member` return None, and the caller hands the member to the
package as before. The plies are not replayed here: the replay judges them,
as it judges a ``.mat`` file's.

The layout, as the package writes and reads it (little-endian throughout): a
16-byte header (``OGXM``, major and minor version as 16-bit numbers, flags,
the file's size), then sections, each a 9-byte header (a 4-letter tag, the
body's length as a 32-bit number, a flags byte) and a body, then ``END!``. A
record is a varint length, a varint presence mask and the fields, the
required ones first, the optional ones in the order of their bits. A ``GAME``
body is a record, then one ply after another: a byte holding the action (low
six bits), the seat (bit 6: 0 white, 1 black) and whether an extras record
follows (bit 7), then for a roll its checkers, one byte each (the point moved
from in the low five bits, in black's numbering, and the pips in the upper
three), two for a roll of two numbers and four for a double, a zero ending
them early.
"""

from __future__ import annotations

import zlib
from typing import Any

__all__ = ["decode_member"]

_HEADER = 16
_SECTION = 9
_END = b"END!"
_MINORS = (0, 1)
"""The minor versions read here (1: the match names its event)."""

_MTCH_KNOWN = 0b1_0000_1111_1111
"""Presence bits of the match record read (after its two required fields, the length and the variant):
0, 1 the names, 2 the rules, 3 the cube limit, 4 the starting score, 5 the final score, 6 the result,
7 the source, 12 the event. Bits 8 to 11 (the times, the seat, a Crawford game before the start) and
past 12 are not."""
_RULE_CRAWFORD, _RULE_JACOBY = 1, 2
_GAME_KNOWN = 0b111
"""Presence bits read in a game: 0 the winner, 1 the points, 2 whether it is the last game."""
_EXTRAS_RESIGN = 0b10
"""The one extras field read: bit 1, a resignation's value."""

_ROLLS = 21
_DOUBLE_ROLLS = frozenset(sum(7 - d for d in range(1, n)) for n in range(1, 7))
"""Action ids of the doubles (1-1, 2-2, ..., 6-6)."""
_DICE = tuple((low, high) for low in range(1, 7) for high in range(low, 7))
_MARKERS = frozenset((24, 25, 26, 30))
"""Actions that mark the end of a game: no seat in the projection."""
_PLAIN = frozenset((21, 22, 23))
"""Double, take, pass: an action and a seat."""
_RESIGNS = frozenset((27, 28))
_RESIGN_NAMES = {1: "single", 2: "gammon", 3: "backgammon"}


class _Declined(Exception):
    """The member holds something this decoder does not read: the package reads it."""


def _varint(data: bytes, pos: int, end: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if pos >= end or shift > 63:
            raise _Declined
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, pos
        shift += 7


def _string(data: bytes, pos: int, end: int) -> tuple[str, int]:
    size, pos = _varint(data, pos, end)
    if pos + size > end:
        raise _Declined
    try:
        return data[pos : pos + size].decode("utf-8"), pos + size
    except UnicodeDecodeError:
        raise _Declined from None


def decode_member(data: bytes) -> dict[str, Any] | None:
    """The projection of a plain v2 member (see the module's text), or None when the package must read it.

    ``data`` is one member as the package's framing cut it (header to
    ``END!``). Never raises on bad bytes: anything short of a member read in
    full, its checksum matching, is None.
    """
    try:
        return _decode(data)
    except (_Declined, IndexError):
        return None


def _decode(data: bytes) -> dict[str, Any]:
    size = len(data)
    if size < _HEADER + len(_END) or data[:6] != b"OGXM\x02\x00" or data[-4:] != _END:
        raise _Declined
    if int.from_bytes(data[6:8], "little") not in _MINORS or int.from_bytes(data[12:16], "little") != size:
        raise _Declined
    end = size - len(_END)
    pos = _HEADER
    doc: dict[str, Any] | None = None
    games: list[dict[str, Any]] = []
    checked = False
    while pos < end:
        if checked or pos + _SECTION > end:
            raise _Declined
        tag = data[pos : pos + 4]
        body = pos + _SECTION
        stop = body + int.from_bytes(data[pos + 4 : pos + 8], "little")
        if stop > end or data[pos + 8] != 1:
            raise _Declined
        if tag == b"MTCH" and doc is None and not games:
            doc = _match(data, body, stop)
        elif tag == b"GAME" and doc is not None:
            games.append(_game(data, body, stop))
        elif tag == b"CSUM" and doc is not None:
            _checksum(data, pos, body, stop)
            checked = True
        else:
            raise _Declined
        pos = stop
    if doc is None or not checked or pos != end:
        raise _Declined
    _crawford_games(doc, games)
    doc["games"] = games
    return doc


def _record(data: bytes, pos: int, end: int) -> tuple[int, int, int]:
    """The presence mask, the position of the first field and the end of the record at ``pos``."""
    length, pos = _varint(data, pos, end)
    stop = pos + length
    if stop > end:
        raise _Declined
    mask, pos = _varint(data, pos, stop)
    return mask, pos, stop


def _match(data: bytes, pos: int, end: int) -> dict[str, Any]:
    mask, pos, stop = _record(data, pos, end)
    if stop != end or mask & ~_MTCH_KNOWN:
        raise _Declined
    length, pos = _varint(data, pos, stop)
    variant, pos = _varint(data, pos, stop)
    if variant != 0:
        raise _Declined
    doc: dict[str, Any] = {"match_length": length, "variant": "backgammon"}
    if mask & 1:
        doc["player_white"], pos = _string(data, pos, stop)
    if mask & 2:
        doc["player_black"], pos = _string(data, pos, stop)
    if mask & 4:  # without it the projection names neither rule
        rules, pos = _varint(data, pos, stop)
        if rules & ~(_RULE_CRAWFORD | _RULE_JACOBY):
            raise _Declined
        doc["crawford"] = bool(rules & _RULE_CRAWFORD)
        doc["jacoby"] = bool(rules & _RULE_JACOBY)
    if mask & 8:
        doc["cube_limit"], pos = _varint(data, pos, stop)
    if mask & 16:
        doc["white_score_start"], pos = _varint(data, pos, stop)
        doc["black_score_start"], pos = _varint(data, pos, stop)
    for bit in (32, 32, 64, 128):  # the final score (two numbers), the result, the source: derived again by readers
        if mask & bit:
            _, pos = _varint(data, pos, stop)
    if mask & 0x1000:
        doc["event"], pos = _string(data, pos, stop)
    if pos != stop:
        raise _Declined
    return doc


def _game(data: bytes, pos: int, end: int) -> dict[str, Any]:
    mask, pos, stop = _record(data, pos, end)
    if mask & ~_GAME_KNOWN:
        raise _Declined
    game: dict[str, Any] = {"is_default_board": True}
    if mask & 1:
        game["winner"], pos = _varint(data, pos, stop)
    if mask & 2:
        game["points_won"], pos = _varint(data, pos, stop)
    if pos != stop:
        raise _Declined
    pos = stop
    plies: list[dict[str, Any]] = []
    while pos < end:
        head = data[pos]
        pos += 1
        action = head & 0x3F
        ply: dict[str, Any] = {"action_id": action}
        if action < _ROLLS:
            ply["color"] = 1 - ((head >> 6) & 1)
            ply["d1"], ply["d2"] = _DICE[action]
            moves = []
            for _ in range(4 if action in _DOUBLE_ROLLS else 2):
                if pos >= end:
                    raise _Declined
                byte = data[pos]
                pos += 1
                if byte == 0:
                    break
                moves.append({"from": byte & 0x1F, "pips": byte >> 5})
            ply["moves"] = moves
        elif action in _PLAIN or action in _RESIGNS:
            ply["color"] = 1 - ((head >> 6) & 1)
        elif action not in _MARKERS or head & 0x40:
            raise _Declined
        if head & 0x80:
            extras, pos, after = _record(data, pos, end)
            if extras != _EXTRAS_RESIGN or action not in _RESIGNS:
                raise _Declined
            value, pos = _varint(data, pos, after)
            if value not in _RESIGN_NAMES or pos != after:
                raise _Declined
            ply["resign_value"] = _RESIGN_NAMES[value]
        elif action in _RESIGNS:
            raise _Declined
        plies.append(ply)
    game["plies"] = plies
    return game


def _checksum(data: bytes, start: int, pos: int, end: int) -> None:
    """A CSUM whose CRC-32 covers every byte before its section, as the package writes it."""
    if data[pos:end][:4] != b"\x07\x00\x00\x04" or end - pos != 8:
        raise _Declined
    if zlib.crc32(data[:start]) != int.from_bytes(data[pos + 4 : end], "little"):
        raise _Declined


def _crawford_games(doc: dict[str, Any], games: list[dict[str, Any]]) -> None:
    """Each game's ``is_crawford``, from the score before it (the first game a side starts one point away)."""
    length = doc["match_length"]
    score = [doc.get("white_score_start", 0), doc.get("black_score_start", 0)]
    done = not (length and doc.get("crawford"))
    for game in games:
        crawford = not done and length - 1 in score
        game["is_crawford"] = crawford
        done = done or crawford
        winner, points = game.get("winner"), game.get("points_won", 0)
        if winner in (0, 1):
            score[winner] += points
