"""One file in: its bytes and its text.

:func:`read_source` reads a regular file, never more than a size limit
(inside :func:`opened_from`, as a task on a cluster runs, a relative path is
taken from the directory given and a URL is opened through fsspec:
:func:`located`); :func:`decode_bytes` turns bytes into
text (a byte-order mark, else UTF-8, else UTF-16 without a BOM, else a
guessed legacy code page; the encoding chosen is kept). The readers of
:mod:`tabla_cli.formats` use these; :mod:`tabla_cli.source`, which decides
which files are transcripts with those readers, builds on them.

>>> decode_bytes("1 point match".encode("utf-16-le")).encoding
'utf-16-le'
>>> decode_bytes("Пётр".encode("cp1251"), "cp1251")
Decoded(text='Пётр', encoding='cp1251', guessed=False)
"""

from __future__ import annotations

import codecs
import os
import re
import stat
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

__all__ = [
    "MAX_SIZE",
    "Decoded",
    "NotRegularFileError",
    "TooLargeError",
    "check_encoding",
    "decode",
    "decode_bytes",
    "guess_code_page",
    "located",
    "open_regular",
    "opened_from",
    "read_path_text",
    "read_source",
    "read_url",
    "utf16_without_bom",
]

_SAMPLE = 512
_LEGACY_SAMPLE = 1 << 16

_CODE_PAGES = (
    "cp1252",
    "cp1250",
    "cp1251",
    "cp1253",
    "cp1254",
    "cp1257",
    "koi8_r",
    "cp866",
    "cp932",
    "gb18030",
    "big5",
    "cp949",
)
"""Legacy code pages tried first, the commonest first (Windows Western, Central European, Cyrillic,
Greek, Turkish, Baltic; KOI8-R and DOS Cyrillic; Japanese, Chinese, Korean)."""

_WORD = re.compile(r"[^\x00-\x40\x5b-\x60\x7b-\x7f]+")
"""A word: letters, and any non-ASCII character."""

_SCRIPT_GROUPS = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "HALFWIDTH": "CJK", "FULLWIDTH": "CJK", "IDEOGRAPHIC": "CJK"}

MAX_SIZE = 256 * 1024 * 1024
"""The default largest file read (``--max-size``), in bytes."""

_KINDS = (
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a directory"),
)


@dataclass(frozen=True, slots=True)
class Decoded:
    """Text decoded from bytes, with the encoding that was chosen.

    Attributes:
        text: the text, without a byte-order mark; line ends as in the input.
        encoding: ``utf-8``, ``utf-8-sig``, ``utf-16``, ``utf-16-le``,
            ``utf-16-be``, the one forced, or a legacy code page guessed
            (``cp1251``, ``cp1252``, ...; ``latin-1`` when no guess fits).
        guessed: the encoding is a guess (neither Unicode nor forced).
    """

    text: str
    encoding: str
    guessed: bool = False


class NotRegularFileError(OSError):
    """A path that is not a regular file (a named pipe, device, socket, directory): never opened for reading."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"{kind}, not a regular file")
        self.kind = kind


class TooLargeError(OSError):
    """A file larger than the size limit: not read."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"{_megabytes(size)}, more than the limit of {_megabytes(limit)} (--max-size); not read")
        self.size = size
        self.limit = limit


def _megabytes(size: int) -> str:
    return f"{size} bytes" if size < 1024 * 1024 else f"{size / (1024 * 1024):.1f} MiB"


def _kind(mode: int) -> str | None:
    """What a file of ``mode`` is, when it is not a regular file."""
    for test, kind in _KINDS:
        if test(mode):
            return kind
    return None if stat.S_ISREG(mode) else "not a regular file"


_BASE: ContextVar[str | None] = ContextVar("tabla_files_base", default=None)
"""Inside :func:`opened_from`: the directory relative paths are taken from; None elsewhere."""


@contextmanager
def opened_from(base: str) -> Iterator[None]:
    """Within the block, paths are opened as a task shipped elsewhere opens them (:func:`located`).

    The Dask executor (:mod:`tabla_cli.cluster`) runs each task inside it, with the client's
    working directory as ``base``: the one place that decides a file is read on a worker.
    """
    token = _BASE.set(base)
    try:
        yield
    finally:
        _BASE.reset(token)


def located(path: str) -> str | None:
    """Where ``path`` is opened inside :func:`opened_from`; None outside it (open it as it is).

    There URLs and absolute paths are kept and a relative path is joined to
    the ``base`` given (so workers need the same filesystem at the same place,
    as on a shared disk).
    """
    base = _BASE.get()
    if base is None:
        return None
    if "://" in path or os.path.isabs(path):
        return path
    return os.path.join(base, path)


def read_url(url: str, limit: int) -> bytes:
    """At most ``limit`` bytes at ``url`` (any URL an installed fsspec backend opens).

    Raises:
        OSError: the file cannot be read, or no backend opens ``url``.
    """
    import fsspec

    try:
        with fsspec.open(url, "rb") as stream:
            data: bytes = stream.read(limit)
    except (ValueError, ImportError) as exc:  # an unknown protocol, or its backend not installed
        raise OSError(f"cannot be opened here: {exc}") from exc
    return data


def read_source(path: str | Path, max_size: int = MAX_SIZE) -> bytes:
    """The bytes of the regular file at ``path``, never more than ``max_size``.

    Nothing but a regular file is opened (a named pipe would block, a device
    never end), and the file is checked again once open. Inside
    :func:`opened_from` (a task on a cluster), a relative path is taken from
    its base and a URL (``s3://...``) is opened through fsspec, never more
    than ``max_size`` + 1 bytes of it.

    Raises:
        NotRegularFileError: ``path`` is a named pipe, device, socket or directory.
        TooLargeError: the file has more than ``max_size`` bytes.
        OSError: the file cannot be read.
    """
    url = located(str(path))
    if url is not None and "://" in url:
        data = read_url(url, max_size + 1)
        if len(data) > max_size:
            raise TooLargeError(len(data), max_size)
        return data
    if url is not None:
        path = url
    with open_regular(path) as handle:
        info = os.fstat(handle.fileno())
        if info.st_size > max_size:
            raise TooLargeError(info.st_size, max_size)
        data = handle.read(info.st_size + 1)
        if len(data) > info.st_size:  # it grew, or its size is not known ahead (a /proc file)
            data += handle.read(max_size + 1 - len(data))
    if len(data) > max_size:
        raise TooLargeError(len(data), max_size)
    return data


def open_regular(path: str | Path) -> BinaryIO:
    """The regular file at ``path`` opened for reading in binary; nothing else is ever opened.

    The path is looked at before it is opened (a named pipe would block the
    open, a device may act on it) and the file again once open (it may have
    been replaced in between: opened without blocking, it is closed unread).

    Raises:
        NotRegularFileError: ``path`` is a named pipe, device, socket or directory.
        OSError: it cannot be opened.
    """
    kind = _kind(os.stat(path).st_mode)
    if kind is not None:
        raise NotRegularFileError(kind)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    handle = os.fdopen(fd, "rb")
    kind = _kind(os.fstat(fd).st_mode)
    if kind is not None:
        handle.close()
        raise NotRegularFileError(kind)
    return handle


def check_encoding(name: str) -> str:
    """The normal name of the encoding ``name``.

    Raises:
        LookupError: Python knows no encoding of that name.
    """
    return codecs.lookup(name).name


def utf16_without_bom(data: bytes) -> str | None:
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


def _implausible(text: str) -> int:
    """How many words of ``text`` no legacy text would hold: a non-ASCII character that is not a
    letter, letters of two scripts, a capital after a small letter at a non-ASCII one, or
    :func:`_odd_mix`."""
    bad = 0
    for word in _WORD.findall(text):
        if word.isascii():
            continue
        scripts = set()
        for index, char in enumerate(word):
            if not char.isalpha():
                bad += 1
                break
            if index and char.isupper() and word[index - 1].islower() and not (char + word[index - 1]).isascii():
                bad += 1
                break
            if not char.isascii():
                script = unicodedata.name(char, "?").split(" ", 1)[0]
                scripts.add(_SCRIPT_GROUPS.get(script, script))
        else:
            bad += len(scripts) > 1 or _odd_mix(word, scripts)
    return bad


def _odd_mix(word: str, scripts: set[str]) -> bool:
    """A word of a non-Latin script with ASCII letters in it, or a Latin one of mostly accented letters."""
    ascii_letters = sum(char.isascii() for char in word)
    if "LATIN" in scripts:
        return len(word) > 3 and ascii_letters * 2 < len(word)
    return bool(scripts) and ascii_letters > 0


def guess_code_page(data: bytes) -> Decoded:
    """``data`` in the legacy code page it most likely is; Latin-1 when nothing fits.

    Only the lines with bytes above 127 are looked at (the rest is ASCII in
    every candidate). The common code pages of :data:`_CODE_PAGES` come
    first, in order: the first in which every word is plausible (one
    script, letters only, no capital after a small letter) wins; a
    transcript has few such words (names, comments), too few for a
    statistical guess alone. When none fits, ``charset-normalizer`` decides.
    """
    lines = [line for line in data.splitlines() if max(line, default=0) > 127]
    sample = b"\n".join(lines)[:_LEGACY_SAMPLE]
    for encoding in _CODE_PAGES:
        try:
            text = sample.decode(encoding)
        except UnicodeDecodeError:
            continue
        if not _implausible(text):
            try:
                return Decoded(data.decode(encoding), encoding, guessed=True)
            except UnicodeDecodeError:
                continue
    from charset_normalizer import from_bytes

    best = from_bytes(sample).best()
    if best is not None:
        try:
            return Decoded(data.decode(best.encoding), best.encoding, guessed=True)
        except (UnicodeDecodeError, LookupError):
            pass
    return Decoded(data.decode("latin-1"), "latin-1", guessed=True)


def decode_bytes(data: bytes, encoding: str | None = None) -> Decoded:
    """Bytes to text: a BOM decides; else UTF-8; else UTF-16 if it looks like it; else a legacy code page, guessed.

    Args:
        data: the bytes.
        encoding: decode with this encoding, whatever the bytes look like
            (a BOM of it is dropped).

    Raises:
        UnicodeDecodeError: ``data`` is not text in the ``encoding`` given.
        LookupError: ``encoding`` is not an encoding.
    """
    if encoding is not None:
        return Decoded(data.decode(encoding).removeprefix("\ufeff"), check_encoding(encoding))
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return Decoded(data.decode("utf-16").lstrip("\ufeff"), "utf-16")
        except UnicodeDecodeError:
            pass
    if data.startswith(codecs.BOM_UTF8):
        try:
            return Decoded(data[len(codecs.BOM_UTF8) :].decode("utf-8"), "utf-8-sig")
        except UnicodeDecodeError:
            return guess_code_page(data[len(codecs.BOM_UTF8) :])
    if b"\x00" not in data:
        try:
            return Decoded(data.decode("utf-8"), "utf-8")
        except UnicodeDecodeError:
            return guess_code_page(data)
    guess = utf16_without_bom(data)
    if guess is not None:
        try:
            return Decoded(data.decode(guess), guess)
        except UnicodeDecodeError:
            pass
    try:
        return Decoded(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError:
        return guess_code_page(data)


def decode(data: bytes) -> str:
    """The text of :func:`decode_bytes`."""
    return decode_bytes(data).text


def read_path_text(path: str | Path) -> str:
    """The decoded text of the file at ``path``.

    Raises:
        OSError: the file cannot be read (or is not a regular file, or is too large).
    """
    return decode(read_source(path))
