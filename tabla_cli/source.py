"""One way in: which files are transcripts.

:func:`collect_paths` gives the files named and the transcripts below the
directories named (by their content, with the readers of
:mod:`tabla_cli.formats`), in a stable order. :func:`open_stream` opens a
large file as a text stream (a binary format's file is never decoded).
Reading one file and decoding its bytes (:func:`read_source`,
:func:`decode_bytes`) live in :mod:`tabla_cli.files`, under the readers, and
are named here too; working on many files in worker processes or on a Dask
cluster is :mod:`tabla_cli.parallel`.

>>> decode_bytes("1 point match".encode("utf-16-le")).encoding
'utf-16-le'
"""

from __future__ import annotations

import codecs
import io
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, TextIO

from tabla_cli.files import (
    MAX_SIZE,
    Decoded,
    NotRegularFileError,
    TooLargeError,
    check_encoding,
    decode,
    decode_bytes,
    guess_code_page,
    located,
    open_regular,
    read_path_text,
    read_source,
    utf16_without_bom,
)

__all__ = [
    "MAX_SIZE",
    "Decoded",
    "LeftOut",
    "NotRegularFileError",
    "Source",
    "TooLargeError",
    "binary_kind",
    "check_encoding",
    "collect_paths",
    "collect_sources",
    "decode",
    "decode_bytes",
    "is_transcript",
    "open_regular",
    "open_stream",
    "read_path_text",
    "read_source",
]


@dataclass(frozen=True, slots=True)
class Source:
    """One input of a command.

    Attributes:
        path: the file's path, or a name for ``data`` (``<stdin>``).
        found: found while walking a directory, not named (a special file
            there is skipped with a note rather than an error).
        data: the bytes, when already read (standard input).
        error: why it could not be read, when that is already known
            (standard input closed or unreadable).
    """

    path: str
    found: bool = False
    data: bytes | None = None
    error: str | None = None


STREAM_SIZE = 4 * 1024 * 1024
"""Local files larger than this are decoded as they are read (:func:`open_stream`), not held whole."""

_CHUNK = 1 << 20
_HEAD = 512
"""The bytes of a large file looked at before it is streamed."""


@dataclass(frozen=True, slots=True)
class Stream:
    """A file opened as a text stream by :func:`open_stream` (close ``handle``)."""

    handle: TextIO
    encoding: str
    guessed: bool = False


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


def open_stream(path: str | Path, max_size: int = MAX_SIZE, encoding: str | None = None) -> Stream | None:
    """A large local file as a text stream decoded as it is read; None when it is better read whole.

    Only a regular local file larger than :data:`STREAM_SIZE` (and within
    ``max_size``) without a byte-order mark or NUL bytes near its start is
    streamed: the encoding is ``encoding``, else UTF-8 when the whole file is
    UTF-8 (checked chunk by chunk), else a legacy code page guessed from its
    first megabyte as :func:`decode_bytes` guesses. Everything else (small
    files, UTF-16, a binary format's file, URLs, special files, too large) is
    None: read it with :func:`read_source` and :func:`decode_bytes` (a binary
    file is not decoded), which also report the problems.

    Raises:
        OSError: the file cannot be read.
        LookupError: ``encoding`` is not an encoding.
    """
    url = located(str(path))
    if url is not None and "://" in url:
        return None
    name = url if url is not None else str(path)
    info = os.stat(name)
    if not stat.S_ISREG(info.st_mode) or not STREAM_SIZE < info.st_size <= max_size:
        return None
    raw = open_regular(name)
    try:
        head = raw.read(_HEAD)
        if (
            head.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
            or b"\x00" in head
            or _binary(head)
            or binary_kind(head) is not None
        ):
            raw.close()
            return None
        raw.seek(0)
        guessed = False
        if encoding is not None:
            chosen = check_encoding(encoding)
        elif _valid_utf8(raw):
            chosen = "utf-8"
        else:
            raw.seek(0)
            chosen, guessed = guess_code_page(raw.read(_CHUNK)).encoding, True
        raw.seek(0)
    except BaseException:
        raw.close()
        raise
    handle = io.TextIOWrapper(raw, encoding=chosen, errors="replace" if guessed else "strict", newline="")
    return Stream(handle, chosen, guessed)


_TRANSCRIPT = "the match's transcript (a .mat, .sgf or .txt export)"
_UNPACK = "the transcripts inside it (unpack it and give tabla the folder)"
_MAGIC: tuple[tuple[bytes, str, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image", _TRANSCRIPT),
    (b"\xff\xd8\xff", "a JPEG image", _TRANSCRIPT),
    (b"GIF87a", "a GIF image", _TRANSCRIPT),
    (b"GIF89a", "a GIF image", _TRANSCRIPT),
    (b"II*\x00", "a TIFF image", _TRANSCRIPT),
    (b"MM\x00*", "a TIFF image", _TRANSCRIPT),
    (b"%PDF-", "a PDF document", "the transcript it was made from (a .mat, .sgf or .txt export)"),
    (b"PK\x03\x04", "a ZIP archive", _UNPACK),
    (b"PK\x05\x06", "an empty ZIP archive", _UNPACK),
    (b"\x1f\x8b", "a gzip archive", _UNPACK),
    (b"\xfd7zXZ\x00", "an xz archive", _UNPACK),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive", _UNPACK),
    (b"Rar!\x1a\x07", "a RAR archive", _UNPACK),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "a Microsoft Office document", "the match saved as plain text"),
    (b"SQLite format 3\x00", "an SQLite database", "the matches exported from it as transcripts"),
)
"""Binary formats met in folders of transcripts: magic bytes at the start, what the file is, what was meant."""

_CONTROL = bytes([*range(9), *range(14, 27), *range(28, 32)])
"""Bytes no text holds (tabs, line ends, form feeds and ESC aside)."""


def binary_kind(data: bytes) -> str | None:
    """Why ``data`` (a file's bytes, or its first ones) is not text: a finding's message; None for text.

    A known binary format by its magic bytes, else a start with many
    control bytes that is not UTF-16.

    >>> binary_kind(b"%PDF-1.7 ...")
    'binary file (a PDF document), not a transcript; did you mean the transcript it was made from (a .mat, .sgf or .txt export)?'
    >>> binary_kind(b" 5 point match"), binary_kind("Ann".encode("utf-16-le"))
    (None, None)
    """
    for magic, what, meant in _MAGIC:
        if data.startswith(magic):
            return f"binary file ({what}), not a transcript; did you mean {meant}?"
    sample = data[:4096]
    if data.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or utf16_without_bom(data):
        return None
    controls = len(sample) - len(sample.translate(None, _CONTROL))  # the bytes that deleting them removes
    if controls * 10 > len(sample):
        return "binary file, not a transcript"
    return None


def _binary(head: bytes) -> bool:
    """Whether ``head`` starts a file of a binary format (:func:`tabla_cli.formats.detect_binary`): never text."""
    from tabla_cli.formats import detect_binary

    return detect_binary(head) is not None


@dataclass(slots=True)
class LeftOut:
    """What :func:`collect_paths` left out of the directories it walked.

    Attributes:
        skipped: files that are not match transcripts (by their content),
            and hidden files.
        loops: directories not entered again: symbolic links back to a
            directory already walked.
        unreadable: ``(directory, reason)`` for each directory that could
            not be listed.
        outputs: directories not entered because the command writes there
            (``--out-dir`` inside an input directory).
    """

    skipped: list[str] = field(default_factory=list)
    loops: list[str] = field(default_factory=list)
    unreadable: list[tuple[str, str]] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)

    def messages(self, *, verbose: bool | None = None) -> list[str]:
        """One line per loop and unreadable directory, then one counting the skipped files (for stderr).

        ``verbose`` (a command's ``-v``) names each skipped file on a line of its own; False says that
        ``-v`` would; None (a command without ``-v``) says neither."""
        lines = [f"{loop}: a symbolic link back to a directory already walked; not followed" for loop in self.loops]
        lines += [f"{folder}: cannot read the directory: {reason}" for folder, reason in self.unreadable]
        lines += [f"{folder}: the output directory; not read as input" for folder in self.outputs]
        if self.skipped:
            count = len(self.skipped)
            what = "file that is not a match transcript" if count == 1 else "files that are not match transcripts"
            lines.append(f"skipped {count:,} {what}" + (" (-v names them)" if verbose is False else ""))
            lines += [f"  skipped {name}" for name in self.skipped] if verbose else []
        return lines


_SNIFF = 65536


def is_transcript(path: str | Path) -> bool:
    """Whether the file at ``path`` looks like a match transcript, by the head of its content.

    Files with a suffix a format claims (:attr:`~tabla_cli.formats.Format.claims`:
    ``.mat``, ``.sgf``) always do (a broken one is reported when read), and so does a file that cannot be read or is not a regular
    file (a named pipe, socket or device, never opened: its reader says
    what it is) and one that starts with a binary format's magic (``.xg``,
    ``.bgf``).
    """
    from tabla_cli.formats import claimed_suffixes, detect

    if Path(path).suffix.lower() in claimed_suffixes():
        return True
    try:
        with open_regular(path) as handle:
            head = handle.read(_SNIFF)
    except OSError:
        return True
    if _binary(head):
        return True
    if binary_kind(head) is not None:
        return False
    return detect(decode(head)) is not None


def collect_paths(
    paths: Iterable[str], left_out: LeftOut | None = None, *, outputs: Iterable[str | Path] = ()
) -> list[str]:
    """Files named, and the transcripts below the directories named, in a stable order.

    Below a directory, hidden directories are not entered, symbolic links are
    followed (a link back to a directory already walked is not), and hidden
    files and files that are not transcripts (:func:`is_transcript`) are left
    out; ``left_out`` is told what was left out and which directories could
    not be read. A file named is always kept. The directories ``outputs``
    (where the command writes, wherever they are) are never walked, so that a
    second run does not read the first one's outputs.
    """
    out: list[str] = []
    left = LeftOut() if left_out is None else left_out
    excluded = {os.path.realpath(folder) for folder in outputs}
    for name in paths:
        path = Path(name)
        if not path.is_dir():
            out.append(name)
            continue
        if os.path.realpath(path) in excluded:
            left.outputs.append(name)
            continue
        walked = {os.path.realpath(path)} | excluded

        def unreadable(exc: OSError) -> None:
            left.unreadable.append((str(exc.filename), exc.strerror or str(exc)))

        for root, dirs, files in os.walk(path, onerror=unreadable, followlinks=True):
            kept = []
            for folder in sorted(d for d in dirs if not d.startswith(".")):
                real = os.path.realpath(os.path.join(root, folder))
                if real in excluded:
                    left.outputs.append(os.path.join(root, folder))
                elif real in walked:
                    left.loops.append(os.path.join(root, folder))
                else:
                    walked.add(real)
                    kept.append(folder)
            dirs[:] = kept
            for file in sorted(files):
                found = os.path.join(root, file)
                if not file.startswith(".") and is_transcript(found):
                    out.append(found)
                else:
                    left.skipped.append(found)
    return out


def collect_sources(
    paths: Iterable[str], left_out: LeftOut | None = None, *, outputs: Iterable[str | Path] = ()
) -> list[Source]:
    """:func:`collect_paths` as :class:`Source` values that say whether each was found in a directory."""
    out: list[Source] = []
    outputs = list(outputs)
    for name in paths:
        found = Path(name).is_dir()
        out.extend(Source(path, found=found) for path in collect_paths([name], left_out, outputs=outputs))
    return out
