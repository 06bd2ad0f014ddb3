"""The container of an eXtreme Gammon ``.xg`` file: a RichGameFormat header and a zlib archive.

The layout is the one GameSite 2000 published ("XG file format"), all
numbers little-endian:

* a RichGameFormat header of 8,232 bytes: the magic ``RGMH``, its version,
  its size and the size of the JPEG thumbnail that follows it (the archive
  is found from the trailer, at the end: it must start after the header);
* the archive's data: each file compressed with zlib (or stored), one after
  another;
* the archive's directory: one 532-byte entry per file (name, original and
  compressed sizes, start in the data, CRC-32 of the content, stored or
  compressed), itself compressed with zlib when the trailer says so;
* a 36-byte trailer: the CRC-32 of data and directory, the number of files,
  the archive version, the directory's size and the data's size.

:func:`read_game_file` checks all of it and inflates ``temp.xg`` (the match
records, see :mod:`tabla_cli.formats.xg_records`), never past ``max_size``
bytes; a file whose directory lies (sizes outside the file, a CRC that does
not match, a size that is not what inflates) is refused with an
:class:`~tabla_cli.errors.InputError` that says what is wrong.
"""

from __future__ import annotations

import struct
import zlib

from tabla_cli.errors import InflatesTooLargeError, InputError, Location
from tabla_cli.formats._binary import inflate

__all__ = ["GAME_FILE", "MAGIC", "read_game_file"]

MAGIC = b"RGMH"
"""The first four bytes of every ``.xg`` file."""

GAME_FILE = "temp.xg"
"""The archive member that holds the match records."""

_HEADER_SIZE = 8232
_TRAILER = struct.Struct("<iiiiiB")
_TRAILER_SIZE = 36
_ENTRY_SIZE = 532
_ENTRY_NUMBERS = struct.Struct("<iiiiB")
_ENTRY_NUMBERS_AT = 512
_MAX_FILES = 1000
"""More files than any archive XG writes (it writes three or four): a larger count is damage."""


def read_game_file(data: bytes, *, path: str, max_size: int) -> bytes:
    """The inflated ``temp.xg`` of the ``.xg`` file ``data``.

    Raises:
        InflatesTooLargeError: it, or the directory, inflates past ``max_size``.
        InputError: the file is not an ``.xg`` file, is truncated, or its
            archive is damaged or lies about its content.
    """
    where = Location(path)
    if not data.startswith(MAGIC):
        raise InputError("not an eXtreme Gammon file: it does not start with 'RGMH'", where)
    if len(data) < _HEADER_SIZE + _TRAILER_SIZE:
        raise InputError(
            f"the file is truncated: {len(data)} bytes, less than an eXtreme Gammon header and archive trailer", where
        )
    trailer_at = len(data) - _TRAILER_SIZE
    crc, count, _version, directory_size, data_size, compressed = _TRAILER.unpack_from(data, trailer_at)
    start = trailer_at - directory_size - data_size
    if directory_size < 0 or data_size < 0 or start < _HEADER_SIZE:
        raise InputError(
            "the archive does not fit the file: the file is truncated, or its header or archive trailer is damaged",
            where,
        )
    if zlib.crc32(data[start:trailer_at]) != crc & 0xFFFFFFFF:
        raise InputError("the archive's checksum does not match its content: the file is damaged", where)
    if not 0 < count <= _MAX_FILES:
        raise InputError(f"the archive's trailer counts {count} files", where)
    directory = data[trailer_at - directory_size : trailer_at]
    if compressed:
        directory = inflate(
            directory, max_size=min(max_size, count * _ENTRY_SIZE), location=where, what="the archive's directory"
        )
    if len(directory) < count * _ENTRY_SIZE:
        raise InputError(f"the archive's directory holds fewer than the {count} files its trailer counts", where)
    for index in range(count):
        entry = directory[index * _ENTRY_SIZE : (index + 1) * _ENTRY_SIZE]
        name = entry[1 : 1 + entry[0]].decode("latin-1")
        if name == GAME_FILE:
            return _member(data[start : start + data_size], entry, where, max_size)
    raise InputError(f"the archive holds no {GAME_FILE} (the match records)", where)


def _member(archive: bytes, entry: bytes, where: Location, max_size: int) -> bytes:
    """The content of the archive member described by the directory ``entry``."""
    size, packed, start, crc, stored = _ENTRY_NUMBERS.unpack_from(entry, _ENTRY_NUMBERS_AT)
    if size < 0 or packed < 0 or start < 0 or start + packed > len(archive):
        raise InputError(
            f"the archive's directory puts {GAME_FILE} outside the archive: the file is damaged or truncated", where
        )
    if size > max_size:
        raise InflatesTooLargeError(
            f"the archive's directory says {GAME_FILE} holds {size} bytes, more than the size "
            f"limit of {max_size} bytes (--max-size); not read",
            where,
        )
    blob = archive[start : start + packed]
    content = blob if stored else inflate(blob, max_size=max_size, location=where, what=GAME_FILE)
    if len(content) != size:
        raise InputError(
            f"the archive's directory says {GAME_FILE} holds {size} bytes, but it holds {len(content)}", where
        )
    if zlib.crc32(content) != crc & 0xFFFFFFFF:
        raise InputError(f"the checksum of {GAME_FILE} does not match its content: the file is damaged", where)
    return content
