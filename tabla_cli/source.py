"""One way in: bytes to text, paths to files, files to worker processes.

Every command reads its input through here: :func:`decode_bytes` (byte-order
marks, UTF-8, UTF-16 with or without a BOM, Latin-1 as the last resort; the
encoding chosen is kept), :func:`collect_paths` (files named and the files
below directories, in a stable order) and :func:`map_in_order` (a process
pool whose results come back in input order).

>>> decode_bytes("1 point match".encode("utf-16-le")).encoding
'utf-16-le'
"""

from __future__ import annotations

import codecs
import io
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, TextIO, TypeVar

__all__ = ["Decoded", "collect_paths", "decode", "decode_bytes", "map_in_order", "open_text", "read_path_text"]

A = TypeVar("A")
R = TypeVar("R")

_SAMPLE = 512


@dataclass(frozen=True, slots=True)
class Decoded:
    """Text decoded from bytes, with the encoding that was chosen.

    Attributes:
        text: the text, without a byte-order mark; line ends as in the input.
        encoding: ``utf-8``, ``utf-8-sig``, ``utf-16``, ``utf-16-le``,
            ``utf-16-be`` or ``latin-1``.
    """

    text: str
    encoding: str


def _utf16_without_bom(data: bytes) -> str | None:
    """``utf-16-le`` or ``-be`` when ``data`` looks like UTF-16 text without a BOM (ASCII-heavy)."""
    sample = data[:_SAMPLE]
    if len(sample) < 2 or b"\x00" not in sample:
        return None
    even, odd = sample[0::2].count(0), sample[1::2].count(0)
    half = len(sample) // 2
    if odd > half * 0.6 and even == 0:
        return "utf-16-le"
    if even > half * 0.6 and odd == 0:
        return "utf-16-be"
    return None


def decode_bytes(data: bytes) -> Decoded:
    """Bytes to text: a BOM decides; else UTF-16 if it looks like it, UTF-8, then Latin-1."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return Decoded(data.decode("utf-16").lstrip("\ufeff"), "utf-16")
        except UnicodeDecodeError:
            pass
    if data.startswith(codecs.BOM_UTF8):
        try:
            return Decoded(data[len(codecs.BOM_UTF8):].decode("utf-8"), "utf-8-sig")
        except UnicodeDecodeError:
            return Decoded(data[len(codecs.BOM_UTF8):].decode("latin-1"), "latin-1")
    guess = _utf16_without_bom(data)
    if guess is not None:
        try:
            return Decoded(data.decode(guess), guess)
        except UnicodeDecodeError:
            pass
    try:
        return Decoded(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError:
        return Decoded(data.decode("latin-1"), "latin-1")


def decode(data: bytes) -> str:
    """The text of :func:`decode_bytes`."""
    return decode_bytes(data).text


def read_path_text(path: str | Path) -> str:
    """The decoded text of the file at ``path``.

    Raises:
        OSError: the file cannot be read.
    """
    return decode(Path(path).read_bytes())


_CHUNK = 1 << 20


def _valid_utf8(handle: BinaryIO) -> bool:
    """Whether what is left to read of ``handle`` is UTF-8 (read in chunks; nothing is kept)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        while chunk := handle.read(_CHUNK):
            decoder.decode(chunk)
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def open_text(path: str | Path) -> TextIO:
    """The file at ``path`` as a text stream, decoded as :func:`decode_bytes` would.

    A large UTF-8 or Latin-1 file is decoded as it is read (memory holds a
    chunk, not the file); a file with a byte-order mark or in UTF-16 is
    decoded whole. Line ends are kept as they are.

    Raises:
        OSError: the file cannot be read.
    """
    raw = open(path, "rb")  # noqa: SIM115 - handed to the caller inside the text stream
    try:
        head = raw.read(_SAMPLE)
        if head.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or (
            _utf16_without_bom(head) is not None
        ):
            data = head + raw.read()
            raw.close()
            return io.StringIO(decode(data), newline="")
        raw.seek(0)
        encoding = "utf-8" if _valid_utf8(raw) else "latin-1"
        raw.seek(0)
    except BaseException:
        raw.close()
        raise
    return io.TextIOWrapper(raw, encoding=encoding, newline="")


def collect_paths(paths: Iterable[str]) -> list[str]:
    """Files named, and every file below the directories named, in a stable order (hidden ones skipped)."""
    out: list[str] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                out.extend(os.path.join(root, f) for f in sorted(files) if not f.startswith("."))
        else:
            out.append(name)
    return out


def map_in_order(work: Callable[[A], R], items: Iterable[A], jobs: int = 1, *, per_job: int = 4,
                 max_chunk: int = 16) -> Iterator[R]:
    """``work`` of each item, with ``jobs`` processes; results come in input order.

    Args:
        work: a picklable function (run in worker processes when ``jobs > 1``).
        items: the inputs.
        jobs: worker processes; one (or one item) runs here, without a pool.
        per_job: chunks per worker (smaller chunks balance uneven work).
        max_chunk: the largest chunk handed to a worker at once.
    """
    names = list(items)
    jobs = min(jobs, len(names))
    if jobs <= 1:
        for name in names:
            yield work(name)
        return
    chunk = max(1, min(max_chunk, len(names) // (jobs * per_job)))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(work, names, chunksize=chunk)
