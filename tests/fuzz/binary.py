"""Mutating the binary formats (eXtreme Gammon ``.xg``, BGBlitz ``.bgf``, OGXM) for the shared fuzz harness.

A binary file is a container (XG: a checksummed zlib archive; BGF: a header
line and a gzip stream) around the data its reader interprets. A mutant
changes the *inside* and packs it again, so that it reaches the reader past
the checksums, or (one in five) changes the file as it is, so that the
container's own checks are fuzzed too. The edits: a cut at any offset, bit
flips, a number written over a field (the edges of the ranges readers check,
as a 4-byte or 1-byte integer: a lying length, count or type), a span
deleted or repeated. A few mutants are bombs: a container that inflates to
far more than its size.

Two more kinds come from the fourth fuzz round (issue 37). A BGF's Smile
document is decoded, one of its values replaced (an integer past float
range, a figure as a 401-digit string, a deep nest of arrays, thousands of
empty arrays, a long string) and the document encoded again, as Smile or as
JSON (:func:`_bgf_value_mutant`): well-formed bytes whose *values* are
hostile. An XG's ``temp.xg`` gets one of its records repeated, a few times to
thousands, and is packed again with right checksums and sizes
(:func:`_xg_amplified`): a valid archive that makes the reader do more work.

OGXM (``.ogxm``, a GammonView ``.gvab``, an ``.ogxms`` stream): the inside
is the match's JSON projection, edited (a field given an edge value, a ply
deleted or repeated) and encoded again by the ``ogxm`` package with a fresh
checksum; the file as it is is a v1 ``.gvab`` or a v2 stream of three
matches (tabla's writer's, from the corpus); the bombs are a zstandard
stream inflating to 64 MiB and a member whose length field says 2 GiB.

The formats' own tests (``tests/fuzz/test_xg.py``, ``tests/test_format_bgf.py``)
cut every offset of a small file; this module gives the shared runners
(``run_batch.py``, ``test_fuzz_round.py``) random mutants of every binary reader.
"""

from __future__ import annotations

import gzip
import random
import struct
import zlib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"

BINARY_READERS = ("xg", "bgf", "ogxm")
SUFFIX = {"xg": ".xg", "bgf": ".bgf", "ogxm": ".ogxm"}

LIES = (
    0,
    1,
    -1,
    2,
    3,
    6,
    7,
    15,
    24,
    25,
    26,
    30,
    32,
    33,
    64,
    127,
    128,
    -128,
    255,
    256,
    65535,
    99999,
    2**31 - 1,
    -(2**31),
    2**30,
)
"""Numbers written over a field: the edges of the ranges the readers check."""

_XG_SEED = DATA / "xg" / "gammonview-B4_SrGcsKAQmoTyHlgJCbM.xg"
_BGF_SEEDS = (DATA / "bgf" / "gammonview-B4_SrGcsKAQmoTyHlgJCbM.bgf", DATA / "bgf" / "gammonview-baR-U643iUDpvzTC.bgf")


def _edit(data: bytes, rng: random.Random) -> bytes:
    """``data`` with one to four random edits."""
    out = bytearray(data)
    for _ in range(rng.choice((1, 1, 2, 4))):
        if not out:
            break
        kind = rng.randrange(6)
        at = rng.randrange(len(out))
        if kind == 0:
            del out[at:]
        elif kind in (1, 2):
            out[at] ^= 1 << rng.randrange(8)
        elif kind == 3:
            value = rng.choice(LIES)
            if rng.random() < 0.4 or at + 4 > len(out):
                out[at] = value & 0xFF
            else:
                struct.pack_into("<i", out, at, max(-(2**31), min(2**31 - 1, value)))
        elif kind == 4:
            del out[at : at + rng.choice((1, 4, 16, 256, 4096))]
        else:
            span = bytes(out[at : at + rng.choice((1, 4, 16, 256))])
            out[at:at] = span * rng.choice((1, 2, 50))
    return bytes(out)


@cache
def _xg_parts() -> tuple[bytes, bytes]:
    """The seed .xg file, and its match records (``temp.xg``)."""
    from tabla_cli.formats.xg_archive import read_game_file

    raw = _XG_SEED.read_bytes()
    return raw, read_game_file(raw, path=str(_XG_SEED), max_size=1 << 30)


def _xg_pack(temp: bytes, size: int | None = None) -> bytes:
    """An .xg file holding ``temp`` (the seed's header, no thumbnail); ``size`` makes its directory lie."""
    raw = _xg_parts()[0]
    head = bytearray(raw[:8232])
    struct.pack_into("<I", head, 20, 0)
    blob = zlib.compress(temp)
    entry = bytearray(532)
    name = b"temp.xg"
    entry[0] = len(name)
    entry[1 : 1 + len(name)] = name
    struct.pack_into("<iiiIB", entry, 512, len(temp) if size is None else size, len(blob), 0, zlib.crc32(temp), 0)
    directory = zlib.compress(bytes(entry))
    body = blob + directory
    trailer = struct.pack("<IiiiiB", zlib.crc32(body), 1, 1, len(directory), len(blob), 1)
    return bytes(head) + body + trailer.ljust(36, b"\0")


_XG_RECORD = 2560
"""The size of every record of ``temp.xg``."""


def _xg_amplified(rng: random.Random) -> bytes:
    """The seed with one record of ``temp.xg`` repeated (a game header, a move, ...), packed with right checksums."""
    temp = _xg_parts()[1]
    index = rng.randrange(len(temp) // _XG_RECORD)
    record = temp[index * _XG_RECORD : (index + 1) * _XG_RECORD]
    copies = rng.choice((2, 3, 10, 100, 1000, 3000))
    return _xg_pack(temp[: index * _XG_RECORD] + record * copies + temp[(index + 1) * _XG_RECORD :])


def _xg_mutant(rng: random.Random) -> bytes:
    raw, temp = _xg_parts()
    if rng.random() < 0.2:
        return _edit(raw, rng)
    if rng.random() < 0.1:
        return _xg_amplified(rng)
    if rng.random() < 0.02:
        return _xg_pack(b"\0" * (8 << 20), size=rng.choice((100, 2**31 - 1)))  # a bomb, or a lying size
    return _xg_pack(_edit(temp, rng))


@cache
def _bgf_document(seed: Path) -> Any:
    from tabla_cli.formats.bgf import read_document

    return read_document(seed.read_bytes(), path=str(seed), max_size=1 << 30)


def _hostile(rng: random.Random) -> Any:
    """A value no BGBlitz file holds where a figure or a list should be."""
    kind = rng.randrange(7)
    if kind == 0:
        return rng.choice((1, -1)) * 10 ** rng.choice((309, 400, 1000))
    if kind == 1:
        return "9" * rng.choice((310, 401, 4000))
    if kind == 2:
        return rng.choice(("1e400", "-1e400", "NaN", "Infinity", "1e-400"))
    if kind == 3:
        nest: Any = 1
        for _ in range(rng.choice((63, 65, 200, 500))):
            nest = [nest]
        return nest
    if kind == 4:
        return [[] for _ in range(rng.choice((1000, 20_000)))]
    if kind == 5:
        return "x" * rng.choice((65, 10_000, 1_000_000))
    return rng.choice((None, True, [], {}, 2**63, -(2**63) - 1))


def _replace_one(value: Any, rng: random.Random) -> Any:
    """``value`` (a copy where changed) with one of the values inside it, chosen at random, made hostile."""
    if isinstance(value, dict) and value and rng.random() < 0.85:
        key = rng.choice(list(value))
        return {**value, key: _replace_one(value[key], rng)}
    if isinstance(value, list) and value and rng.random() < 0.85:
        at = rng.randrange(len(value))
        return [*value[:at], _replace_one(value[at], rng), *value[at + 1 :]]
    return _hostile(rng)


def _bgf_value_mutant(rng: random.Random) -> bytes:
    """A seed's document with one value made hostile, encoded again (Smile or JSON) and gzipped."""
    from smile_writer import bgf_file

    document = _replace_one(_bgf_document(rng.choice(_BGF_SEEDS)), rng)
    return bgf_file(document, smile=rng.random() < 0.7)


def _bgf_mutant(rng: random.Random) -> bytes:
    raw = rng.choice(_BGF_SEEDS).read_bytes()
    header, _, packed = raw.partition(b"\n")
    if rng.random() < 0.2:
        return _edit(raw, rng)
    if rng.random() < 0.25:
        return _bgf_value_mutant(rng)
    if rng.random() < 0.02:
        return header + b"\n" + gzip.compress(b":)\n\x00\xe0" + b"a" * (8 << 20), mtime=0)  # a bomb
    return header + b"\n" + gzip.compress(_edit(gzip.decompress(packed), rng), compresslevel=1, mtime=0)


_GVAB_SEED = DATA / "corpus" / "ogxm" / "gammonview-XCu3RJ0UvDg_Tldl.gvab"
_OGXM_TWINS = ("gammonview-XCu3RJ0UvDg_Tldl", "gammonview-baR-U643iUDpvzTC", "gammonview-MYdvw1qGuyaRUH_")


@cache
def _ogxm_stream() -> tuple[bytes, ...]:
    """Three corpus matches as tabla writes them: OGXM v2 members with checksums."""
    from tabla_cli.convert import convert_matches
    from tabla_cli.reader import read_path_matches

    members = []
    for name in _OGXM_TWINS:
        done = convert_matches(list(read_path_matches(DATA / "corpus" / "mat" / f"{name}.mat")), "ogxm")
        assert isinstance(done.output, bytes)
        members.append(done.output)
    return tuple(members)


def _json_edit(doc: object, rng: random.Random) -> None:
    """One edit of a JSON projection, in place: a value given an edge value, or a list item dropped or repeated."""
    path: list[tuple[object, object]] = []
    node = doc
    while isinstance(node, (dict, list)) and node and rng.random() < 0.85:
        key: object = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
        path.append((node, key))
        node = node[key]  # type: ignore[index]
    if not path:
        return
    parent, key = path[-1]
    if isinstance(parent, list) and isinstance(key, int) and rng.random() < 0.3:
        if rng.random() < 0.5:
            del parent[key]
        else:
            parent.insert(key, parent[key])
        return
    parent[key] = rng.choice((*LIES, None, "", "x" * 300, True, [], {}))  # type: ignore[index]


def _ogxm_mutant(rng: random.Random) -> bytes:
    import ogxm
    import zstandard

    members = _ogxm_stream()
    if rng.random() < 0.2:
        raw = _GVAB_SEED.read_bytes() if rng.random() < 0.5 else b"".join(members)
        return _edit(raw, rng)
    if rng.random() < 0.03:
        if rng.random() < 0.5:
            return zstandard.ZstdCompressor().compress(members[0] + b"\0" * (64 << 20))  # a bomb
        lying = bytearray(members[0])
        struct.pack_into("<I", lying, 12, 2**31 - 1)
        return bytes(lying) + members[1]
    index = rng.randrange(len(members))
    doc = ogxm.binary_to_json(members[index])
    for _ in range(rng.choice((1, 1, 2, 4))):
        _json_edit(doc, rng)
    try:
        edited = ogxm.json_to_binary(doc)
    except (ogxm.OgxmError, TypeError, ValueError):
        edited = _edit(members[index], rng)
    out = [*members]
    out[index] = edited
    data = b"".join(out)
    return zstandard.ZstdCompressor().compress(data) if rng.random() < 0.2 else data


MUTATORS: dict[str, Callable[[random.Random], bytes]] = {"xg": _xg_mutant, "bgf": _bgf_mutant, "ogxm": _ogxm_mutant}
"""A reader's mutant from a random source; a new binary reader adds its own here."""


def binary_mutant(reader: str, rng: random.Random) -> bytes:
    """A mutant of ``reader``'s seed file drawn with ``rng``."""
    return MUTATORS[reader](rng)
