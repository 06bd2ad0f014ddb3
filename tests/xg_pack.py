"""Make eXtreme Gammon .xg files for tests: a temp.xg (match records) packed into the archive of a corpus file."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from pathlib import Path

from tabla_cli.formats.xg_archive import read_game_file
from tabla_cli.formats.xg_records import RECORD_SIZE

from helpers import DATA

__all__ = ["SMALL", "game_file", "pack", "with_record"]

SMALL = DATA / "xg" / "gammonview-B4_SrGcsKAQmoTyHlgJCbM.xg"
"""The smallest corpus file (a money session of three games)."""


def game_file(path: Path) -> bytes:
    """The temp.xg of the .xg file at ``path``."""
    return read_game_file(path.read_bytes(), path=str(path), max_size=1 << 30)


def pack(
    temp: bytes,
    *,
    size: int | None = None,
    crc: int | None = None,
    stored: bool = False,
    name: bytes = b"temp.xg",
    thumbnail: bool = True,
    others: dict[bytes, bytes] | None = None,
) -> bytes:
    """An .xg file holding ``temp`` as its temp.xg, with the RichGameFormat header of :data:`SMALL`.

    ``size`` and ``crc`` make the directory lie about temp.xg; ``thumbnail`` False leaves the JPEG out
    (a smaller file); ``others`` adds members after it (name: content, compressed, with right sizes).
    """
    head = bytearray(SMALL.read_bytes()[: 8232 + (struct.unpack_from("<I", SMALL.read_bytes(), 20)[0])])
    if not thumbnail:
        head = head[:8232]
        struct.pack_into("<I", head, 20, 0)
    blob = temp if stored else zlib.compress(temp)
    entries = [
        _entry(
            name, len(temp) if size is None else size, len(blob), 0, zlib.crc32(temp) if crc is None else crc, stored
        )
    ]
    for other, content in (others or {}).items():
        packed = zlib.compress(content)
        entries.append(_entry(other, len(content), len(packed), len(blob), zlib.crc32(content), False))
        blob += packed
    directory = zlib.compress(b"".join(entries))
    body = blob + directory
    trailer = struct.pack("<IiiiiB", zlib.crc32(body), len(entries), 1, len(directory), len(blob), 1)
    return bytes(head) + body + trailer.ljust(36, b"\0")


def _entry(name: bytes, size: int, packed: int, start: int, crc: int, stored: bool) -> bytes:
    """A directory entry of the archive: the member ``name`` of ``size`` bytes, ``packed`` at ``start``."""
    entry = bytearray(532)
    entry[0] = len(name)
    entry[1 : 1 + len(name)] = name
    struct.pack_into("<iiiIB", entry, 512, size, packed, start, crc, 1 if stored else 0)
    return bytes(entry)


def with_record(temp: bytes, index: int, change: Callable[[bytearray], None]) -> bytes:
    """``temp`` with its record ``index`` changed in place by ``change``."""
    data = bytearray(temp)
    record = data[index * RECORD_SIZE : (index + 1) * RECORD_SIZE]
    change(record)
    data[index * RECORD_SIZE : (index + 1) * RECORD_SIZE] = record
    return bytes(data)
