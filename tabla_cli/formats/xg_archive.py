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

:func:`read_archive` checks all of it and inflates ``temp.xg`` (the match
records, see :mod:`tabla_cli.formats.xg_records`), ``temp.xgc`` (the
comments) and ``temp.xgr`` (the rollouts), never past ``max_size`` bytes; a
file whose directory lies (sizes outside the file, a CRC that does not match,
a size that is not what inflates) is refused with an
:class:`~tabla_cli.errors.InputError` that says what is wrong.

A file whose trailer is missing or does not fit it (cut short, damaged, or
written by an old XG whose archive is one zlib stream with no directory) is
not refused: its data, after the header and the thumbnail, is read as the
zlib streams it holds, the first of whole records being ``temp.xg`` (up to
the copy of the match header that ``temp.xgi`` starts with, when the streams
run together), and :attr:`Archive.damaged` says what is wrong with the
container.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

from tabla_cli.errors import InflatesTooLargeError, InputError, Location
from tabla_cli.formats._binary import inflate

__all__ = [
    "BYTES_PER_RECORD",
    "COMMENTS_FILE",
    "GAME_FILE",
    "MAGIC",
    "ROLLOUTS_FILE",
    "Archive",
    "read_archive",
    "read_game_file",
]

MAGIC = b"RGMH"
"""The first four bytes of every ``.xg`` file."""

GAME_FILE = "temp.xg"
"""The archive member that holds the match records."""
COMMENTS_FILE = "temp.xgc"
"""The archive member that holds the comments (RTF, one per line)."""
ROLLOUTS_FILE = "temp.xgr"
"""The archive member that holds XG's rollouts."""

_HEADER_SIZE = 8232
_THUMBNAIL_SIZE_AT = 20
_TRAILER = struct.Struct("<iiiiiB")
_TRAILER_SIZE = 36
_ENTRY_SIZE = 532
_ENTRY_NUMBERS = struct.Struct("<iiiiB")
_ENTRY_NUMBERS_AT = 512
_MAX_FILES = 1000
"""More files than any archive XG writes (it writes three or four): a larger count is damage."""
_RECORD_SIZE = 2560
BYTES_PER_RECORD = 10 * 1024
"""``--max-size`` allows one record of ``temp.xg`` per this many bytes (26,214 records by default: a long
money session holds a few thousand). A record becomes a decision with its analysis, far larger than its
2,560 bytes: this bounds what a small file of repeated records costs."""
FILE_BYTES_PER_RECORD = 48
"""A file may hold one record per this many of its own bytes (XG's files hold one per 250 to 450), and
:data:`MIN_RECORDS` whatever its size: what a record costs to read is then in proportion to the file."""
MIN_RECORDS = 2048
SIDE_FILE_RATIO = 64
"""``temp.xgc`` and ``temp.xgr`` may hold at most this many times the file's own size (real files: under 1)."""
SIDE_FILE_MIN = 1 << 20
"""... and at least this many bytes, whatever the file's size."""
_MATCH_HEADER_TYPE = 0
_CHUNK = 4096
_MATCH_MAGIC = b"DMLI"  # 0x494C4D44, little-endian
_ZLIB_HEADERS = (b"\x78\x01", b"\x78\x5e", b"\x78\x9c", b"\x78\xda")


@dataclass(frozen=True, slots=True)
class Archive:
    """What an ``.xg`` file's archive holds.

    Attributes:
        records: ``temp.xg``, the match records.
        comments: ``temp.xgc`` (b'' when the archive holds none).
        rollouts: ``temp.xgr`` (b'' when the archive holds none).
        damaged: why the container could not be read by its trailer and
            directory, when it could not (the records were then found in
            its data); None for a sound container.
    """

    records: bytes
    comments: bytes = b""
    rollouts: bytes = b""
    damaged: str | None = None


def read_game_file(data: bytes, *, path: str, max_size: int) -> bytes:
    """The inflated ``temp.xg`` of the ``.xg`` file ``data`` (see :func:`read_archive`)."""
    return read_archive(data, path=path, max_size=max_size).records


def read_archive(data: bytes, *, path: str, max_size: int) -> Archive:
    """The members of the ``.xg`` file ``data`` that tabla reads.

    Raises:
        InflatesTooLargeError: a member, or the directory, inflates past ``max_size``.
        InputError: the file is not an ``.xg`` file, is truncated before any
            record, or its archive lies about its content.
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
        return _recovered(
            data,
            where,
            max_size,
            "its archive trailer is missing or does not fit the file (cut short, damaged, or an old XG's archive "
            "with no directory)",
        )
    if zlib.crc32(data[start:trailer_at]) != crc & 0xFFFFFFFF:
        return _recovered(data, where, max_size, "the archive's checksum does not match its content")
    if not 0 < count <= _MAX_FILES:
        raise InputError(f"the archive's trailer counts {count} files", where)
    directory = data[trailer_at - directory_size : trailer_at]
    if compressed:
        directory = inflate(
            directory, max_size=min(max_size, count * _ENTRY_SIZE), location=where, what="the archive's directory"
        )
    if len(directory) < count * _ENTRY_SIZE:
        raise InputError(f"the archive's directory holds fewer than the {count} files its trailer counts", where)
    archive = data[start : start + data_size]
    members: dict[str, bytes] = {}
    for index in range(count):
        entry = directory[index * _ENTRY_SIZE : (index + 1) * _ENTRY_SIZE]
        name = entry[1 : 1 + entry[0]].decode("latin-1")
        if name in (GAME_FILE, COMMENTS_FILE, ROLLOUTS_FILE) and name not in members:
            if name == GAME_FILE:
                _check_records(_ENTRY_NUMBERS.unpack_from(entry, _ENTRY_NUMBERS_AT)[0], max_size, len(data), where)
            members[name] = _member(archive, entry, name, where, max_size, len(data))
    if GAME_FILE not in members:
        raise InputError(f"the archive holds no {GAME_FILE} (the match records)", where)
    return Archive(members[GAME_FILE], members.get(COMMENTS_FILE, b""), members.get(ROLLOUTS_FILE, b""))


def max_records(max_size: int, file_size: int | None = None) -> int:
    """The most records ``temp.xg`` may hold under ``--max-size`` ``max_size`` in a file of ``file_size`` bytes."""
    limit = max(max_size // BYTES_PER_RECORD, 1)
    if file_size is not None:
        limit = min(limit, max(MIN_RECORDS, file_size // FILE_BYTES_PER_RECORD))
    return limit


def _check_records(size: int, max_size: int, file_size: int, where: Location) -> None:
    """Refuse a ``temp.xg`` of ``size`` bytes that holds more records than the limits allow."""
    by_option, limit = max_records(max_size), max_records(max_size, file_size)
    if size <= limit * _RECORD_SIZE:
        return
    count = size // _RECORD_SIZE
    if limit == by_option:
        why = f"one per {BYTES_PER_RECORD // 1024} KiB of --max-size, {max_size} bytes; a larger --max-size raises it"
    else:
        why = (
            f"one per {FILE_BYTES_PER_RECORD} bytes of the file, at least {MIN_RECORDS}: records that compress "
            "far better than XG's own, a compression bomb"
        )
    raise InflatesTooLargeError(
        f"{GAME_FILE} holds {count} records, more than the limit of {limit} ({why}): not read", where
    )


def _member(archive: bytes, entry: bytes, name: str, where: Location, max_size: int, file_size: int) -> bytes:
    """The content of the archive member ``name`` described by the directory ``entry`` of a ``file_size``-byte file.

    The comments and rollouts may hold at most :data:`SIDE_FILE_RATIO` times the file's size (at least
    :data:`SIDE_FILE_MIN` bytes): more is a compression bomb, refused before anything is inflated.
    """
    size, packed, start, crc, stored = _ENTRY_NUMBERS.unpack_from(entry, _ENTRY_NUMBERS_AT)
    if size < 0 or packed < 0 or start < 0 or start + packed > len(archive):
        raise InputError(
            f"the archive's directory puts {name} outside the archive: the file is damaged or truncated", where
        )
    if size > max_size:
        raise InflatesTooLargeError(
            f"the archive's directory says {name} holds {size} bytes, more than the size "
            f"limit of {max_size} bytes (--max-size); not read",
            where,
        )
    side_limit = max(SIDE_FILE_MIN, SIDE_FILE_RATIO * file_size)
    if name != GAME_FILE and size > side_limit:
        raise InflatesTooLargeError(
            f"the archive's directory says {name} holds {size} bytes, more than the limit of {side_limit} "
            f"({SIDE_FILE_RATIO} times the file's {file_size} bytes, at least {SIDE_FILE_MIN}): data that compress "
            "far better than XG's own, a compression bomb; not read",
            where,
        )
    blob = archive[start : start + packed]
    content = blob if stored else inflate(blob, max_size=max_size, location=where, what=name)
    if len(content) != size:
        raise InputError(f"the archive's directory says {name} holds {size} bytes, but it holds {len(content)}", where)
    if zlib.crc32(content) != crc & 0xFFFFFFFF:
        raise InputError(f"the checksum of {name} does not match its content: the file is damaged", where)
    return content


def _is_match_header(content: bytes | bytearray) -> bool:
    return len(content) >= _RECORD_SIZE and content[8] == _MATCH_HEADER_TYPE and content[556:560] == _MATCH_MAGIC


def _recovered(data: bytes, where: Location, max_size: int, why: str) -> Archive:
    """The records found in the data of a file whose trailer cannot be trusted (``why``)."""
    thumbnail = struct.unpack_from("<I", data, _THUMBNAIL_SIZE_AT)[0]
    at = _HEADER_SIZE + thumbnail if _HEADER_SIZE + thumbnail < len(data) else _HEADER_SIZE
    view = memoryview(data)
    while at < len(data) - 1:
        if data[at : at + 2] not in _ZLIB_HEADERS:
            at += 1
            continue
        inflater = zlib.decompressobj()
        content = bytearray()
        cap = min(max_size, max_records(max_size, len(data)) * _RECORD_SIZE)
        for piece in range(at, len(data), _CHUNK):  # a piece at a time: what inflates before damage is kept
            try:
                content += inflater.decompress(view[piece : piece + _CHUNK], cap + 1 - len(content))
            except zlib.error:
                break
            if len(content) >= _RECORD_SIZE and not _is_match_header(content):
                break
            if inflater.eof or len(content) > cap or inflater.unconsumed_tail:
                break
        if not _is_match_header(content):
            at += 1
            continue
        if len(content) > cap:
            _check_records(len(content), max_size, len(data), where)
            raise InflatesTooLargeError(
                f"{GAME_FILE} inflates past the size limit of {max_size} bytes (--max-size); not read", where
            )
        whole = len(content) - len(content) % _RECORD_SIZE
        _check_records(whole, max_size, len(data), where)
        records = bytes(content[:whole])
        for later in range(_RECORD_SIZE, whole, _RECORD_SIZE):
            if records[later + 8] == _MATCH_HEADER_TYPE:
                records = records[:later]  # temp.xgi, a copy of the first and last records, follows
                break
        cut = "" if inflater.eof else "; the records stop short (the rest is damaged or cut off)"
        return Archive(records, damaged=f"{why}: the container is damaged, its records read from its data{cut}")
    raise InputError(f"{why}, and no match records were found in its data: the file is damaged", where)
