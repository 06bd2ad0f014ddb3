"""A file's report rows (:class:`~tabla_cli.reports.rows.FileRows`) as bytes for the index, and back.

The index keeps, for each file, the rows the report's replay made of it, so
that ``tabla report --db`` builds its frames from them exactly as from the
files, without reading or replaying one. The bytes are an Arrow IPC stream
per frame (in the frames' own schema), with a small JSON header holding the
match count and the matches' content keys (:mod:`tabla_cli.digest`).
"""

from __future__ import annotations

import io
import json
import struct
from typing import Any

import pyarrow as pa  # type: ignore[import-untyped]

from tabla_cli.digest import MatchKey
from tabla_cli.errors import Location, TablaError
from tabla_cli.reports.rows import FileRows, arrow_schema, record_batch
from tabla_cli.reports.schema import FRAME_NAMES

__all__ = ["FORMAT", "pack_rows", "unpack_rows"]

FORMAT = "tabla-file-rows/1"
_LENGTH = struct.Struct(">Q")


def pack_rows(rows: FileRows) -> bytes:
    """``rows`` as bytes (:func:`unpack_rows` reads them back)."""
    header: dict[str, Any] = {
        "format": FORMAT,
        "path": rows.path,
        "matches": rows.matches,
        "include": sorted(rows.include),
        "keys": [[key.digest, list(key.games), key.plays, list(where)] for key, where in rows.keys],
        "frames": [],
    }
    parts: list[bytes] = []
    for name in FRAME_NAMES:
        batches = list(rows.batches[name])
        if rows.rows[name]:
            batches.append(record_batch(name, rows.rows[name]))
        if not batches:
            continue
        sink = io.BytesIO()
        with pa.ipc.new_stream(sink, arrow_schema(name)) as writer:
            for batch in batches:
                writer.write_batch(batch)
        header["frames"].append(name)
        parts.append(sink.getvalue())
    head = json.dumps(header).encode()
    out = [_LENGTH.pack(len(head)), head]
    for part in parts:
        out += [_LENGTH.pack(len(part)), part]
    return b"".join(out)


def unpack_rows(data: bytes) -> FileRows:
    """The :class:`FileRows` that :func:`pack_rows` wrote.

    Raises:
        TablaError: the bytes are not such rows (a damaged or foreign index).
    """
    try:
        (size,) = _LENGTH.unpack_from(data, 0)
        at = _LENGTH.size + size
        header = json.loads(data[_LENGTH.size : at])
        if header.get("format") != FORMAT:
            raise TablaError(f"the stored rows are not {FORMAT}")
        rows = FileRows(header["path"], frozenset(header["include"]))
        rows.matches = int(header["matches"])
        rows.keys = [
            (MatchKey(digest, tuple(games), plays), Location(*where)) for digest, games, plays, where in header["keys"]
        ]
        for name in header["frames"]:
            (size,) = _LENGTH.unpack_from(data, at)
            at += _LENGTH.size
            reader = pa.ipc.open_stream(pa.BufferReader(data[at : at + size]))
            rows.batches[name] = list(reader)
            at += size
        return rows
    except (ValueError, KeyError, TypeError, struct.error, pa.ArrowException) as exc:
        raise TablaError(f"the index holds damaged report rows: {exc}") from exc
