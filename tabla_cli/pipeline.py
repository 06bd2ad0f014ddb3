"""Read, replay, result: the one path every file takes in ``check``, ``report`` and ``convert``.

:func:`run` reads one input (a regular file no larger than the limit, or
bytes or text already in hand), decodes it (:func:`~tabla_cli.files.decode_bytes`)
unless it is a binary format's file (:func:`~tabla_cli.formats.detect_binary`),
whose reader takes the bytes and inflates nothing past ``--max-size``,
reads its matches in whatever format it is in, replays each with the
command's :class:`FileVisitor` and returns what that visitor made of the file.
What goes wrong on the way becomes a finding, never an exception: a file
that cannot be read, is not a regular file, is too large or is not a
transcript; a syntax error; and, for a bug of tabla's own, an
``internal-error`` finding with the exception, so that one bad file never
stops a run over many.

>>> from tabla_cli.check import CheckVisitor, FileReport
>>> report = run(Source("a.mat", data=b"hello"), CheckVisitor(FileReport("a.mat")))
>>> [f.code for f in report.findings]
['unreadable-file']
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from typing import BinaryIO, TextIO, TypeVar

from tabla_cli.errors import InflatesTooLargeError, InputError, Location, TablaError, TranscriptSyntaxError
from tabla_cli.files import MAX_SIZE, NotRegularFileError, TooLargeError, decode_bytes, read_source
from tabla_cli.findings import Code, Finding
from tabla_cli.formats import MAGIC_SAMPLE, Format, detect_binary
from tabla_cli.reader import read_handle_matches, read_text_matches
from tabla_cli.replay import replay
from tabla_cli.scoring import apply_scoring
from tabla_cli.source import Source, binary_kind, open_stream
from tabla_cli.visitor import FileTee, FileVisitor

__all__ = ["FileTee", "FileVisitor", "ReadOptions", "Source", "as_source", "internal_error", "run"]

T = TypeVar("T")

_MESSAGE_LIMIT = 300


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """How inputs are read (picklable: it travels to worker processes).

    Attributes:
        encoding: decode every input with this encoding (``--encoding``);
            None: detect it (:func:`~tabla_cli.files.decode_bytes`).
        max_size: the largest file read, in bytes (``--max-size``).
        lenient: a syntax error inside a game is a finding and reading goes
            on with the next game; False: it ends the reading of the file.
        scoring: a scoring rule set (``standard``, ``1-2-4-8``) that wins over
            the transcripts' headers (``--scoring``); None: as they say.
        verify: ``check --verify``: check the signatures of OGXM files too
            (:mod:`tabla_cli.signatures`).
        trusted_keys: the Ed25519 public keys a signature must be by (``--trusted-key``); None: any.
    """

    encoding: str | None = None
    max_size: int = MAX_SIZE
    lenient: bool = True
    scoring: str | None = None
    verify: bool = False
    trusted_keys: tuple[bytes, ...] | None = None


def as_source(source: Source | str) -> Source:
    """``source``, or a :class:`Source` for the path ``source``."""
    return Source(source) if isinstance(source, str) else source


def internal_error(exc: BaseException | str, path: str) -> Finding:
    """The ``internal-error`` finding for an exception tabla did not expect while working on ``path``.

    ``exc`` may also be its text, ``Type: message`` (a task that failed on a cluster worker).
    """
    text = exc if isinstance(exc, str) else f"{type(exc).__name__}: {exc}"
    if len(text) > _MESSAGE_LIMIT:
        text = text[:_MESSAGE_LIMIT] + "..."
    return Finding(
        Code.INTERNAL_ERROR, f"{text} (a bug in tabla: please report it, with this file if you can)", Location(path)
    )


def run(
    source: Source | str, visitor: FileVisitor[T], options: ReadOptions = ReadOptions(), *, text: str | None = None
) -> T:
    """Read ``source``, replay each of its matches with ``visitor``; ``visitor.result()``.

    Never raises for anything in the input, nor for an unexpected exception
    while working on it (that becomes an ``internal-error`` finding).

    Args:
        source: the input (a path, or a :class:`Source` with its bytes).
        visitor: the command's visitor, fresh for this file.
        options: encoding, size limit, leniency.
        text: the decoded text, when already at hand (nothing is read).
    """
    src = as_source(source)
    try:
        if text is None and src.data is None and src.error is None and _stream(src, visitor, options):
            return visitor.result()
        if text is None:
            data = _bytes(src, visitor, options)
            binary = None if data is None else detect_binary(data)
            if binary is not None and data is not None:
                _replay(_BinaryInput(binary, data), src.path, visitor, options)
                return visitor.result()
            text = None if data is None else _decode(data, src.path, visitor, options)
        if text is not None:
            _replay(text, src.path, visitor, options)
    except Exception as exc:  # one file's bug must not stop a run over many
        visitor.visit_file_finding(internal_error(exc, src.path))
    return visitor.result()


def _stream(source: Source, visitor: FileVisitor[T], options: ReadOptions) -> bool:
    """Read and replay a large file as a stream, a match at a time; False when it is to be read whole."""
    binary = _binary_stream(source, options)
    if binary is not None:
        with binary[1]:
            _replay(_BinaryInput(binary[0], b"", binary[1]), source.path, visitor, options)
        return True
    try:
        stream = open_stream(source.path, options.max_size, options.encoding)
    except (OSError, LookupError):
        return False  # read whole, which reports the problem
    if stream is None:
        return False
    with stream.handle:
        if stream.guessed:
            visitor.visit_file_finding(_guessed(stream.encoding, source.path))
        _replay(stream.handle, source.path, visitor, options)
    return True


def _guessed(encoding: str, path: str) -> Finding:
    return Finding(
        Code.GUESSED_ENCODING,
        f"neither UTF-8 nor UTF-16: read as {encoding}, a guess (--encoding sets the encoding)",
        Location(path),
    )


def _bytes(source: Source, visitor: FileVisitor[T], options: ReadOptions) -> bytes | None:
    """The bytes of ``source``; None (and a finding) when they cannot be had."""
    path = source.path
    where = Location(path)
    if source.error is not None:
        visitor.visit_file_finding(Finding(Code.UNREADABLE_FILE, source.error, where))
        return None
    try:
        data = read_source(path, options.max_size) if source.data is None else source.data
        if len(data) > options.max_size:
            raise TooLargeError(len(data), options.max_size)
    except NotRegularFileError as exc:
        if source.found:
            visitor.visit_file_finding(Finding(Code.SPECIAL_FILE, f"{exc.kind}: skipped", where))
        else:
            visitor.visit_file_finding(
                Finding(Code.UNREADABLE_FILE, f"{exc.kind}, not a regular file: not read", where)
            )
        return None
    except TooLargeError as exc:
        visitor.visit_file_finding(Finding(Code.FILE_TOO_LARGE, str(exc), where))
        return None
    except OSError as exc:
        visitor.visit_file_finding(Finding(Code.UNREADABLE_FILE, exc.strerror or str(exc), where))
        return None
    return data


def _decode(data: bytes, path: str, visitor: FileVisitor[T], options: ReadOptions) -> str | None:
    """``data`` decoded as text; None (and a finding) when it cannot be, or is binary data (an image,
    a PDF, an archive: :func:`~tabla_cli.source.binary_kind`)."""
    where = Location(path)
    binary = binary_kind(data)
    if binary is not None:
        visitor.visit_file_finding(Finding(Code.UNREADABLE_FILE, binary, where))
        return None
    try:
        decoded = decode_bytes(data, options.encoding)
    except UnicodeDecodeError as exc:
        visitor.visit_file_finding(
            Finding(Code.UNREADABLE_FILE, f"not {options.encoding} text: {exc.reason} at byte {exc.start}", where)
        )
        return None
    if decoded.guessed:
        visitor.visit_file_finding(_guessed(decoded.encoding, path))
    return decoded.text


def _binary_stream(source: Source, options: ReadOptions) -> tuple[Format, BinaryIO] | None:
    """A regular file of a binary format whose reader streams (OGXM), open; None for any other input."""
    try:
        info = os.stat(source.path)
        if not stat.S_ISREG(info.st_mode) or info.st_size > options.max_size:
            return None
        handle = open(source.path, "rb")  # noqa: SIM115 (closed by the caller)
    except (OSError, ValueError):
        return None
    fmt = detect_binary(handle.read(MAGIC_SAMPLE))
    if fmt is None or fmt.stream is None:
        handle.close()
        return None
    handle.seek(0)
    return fmt, handle


@dataclass(frozen=True, slots=True)
class _BinaryInput:
    """The bytes of a file of a binary format, and that format (or the open file, for a reader that streams)."""

    fmt: Format
    data: bytes
    handle: BinaryIO | None = None


def _replay(text: str | TextIO | _BinaryInput, path: str, visitor: FileVisitor[T], options: ReadOptions) -> None:
    """Read every match of ``text`` (a text stream, or a binary file's bytes) and replay it with ``visitor``;
    reading errors become findings."""

    def on_error(exc: TranscriptSyntaxError) -> None:
        visitor.visit_read_finding(Finding.at(Code.SYNTAX_ERROR, exc.message, exc.location or Location(path)))

    try:
        handler = on_error if options.lenient else None
        lazy = visitor.lazy_games and not isinstance(text, str)  # game by game only for a streamed large file
        analysis = visitor.reads_analysis
        if isinstance(text, _BinaryInput) and text.handle is not None and text.fmt.stream is not None:
            matches = text.fmt.stream(text.handle, path=path, on_error=handler, max_size=options.max_size)
        elif isinstance(text, _BinaryInput):
            matches = text.fmt.read_bytes(text.data, path, handler, max_size=options.max_size)
        elif isinstance(text, str):
            matches = read_text_matches(text, path, handler, lazy=lazy, analysis=analysis)
        else:
            matches = read_handle_matches(text, path, handler, lazy=lazy, analysis=analysis)
        for match in matches:
            replay(apply_scoring(match, options.scoring), visitor)
    except InflatesTooLargeError as exc:
        visitor.visit_file_finding(Finding.at(Code.FILE_TOO_LARGE, exc.message, exc.location or Location(path)))
    except InputError as exc:
        where = exc.location
        code = Code.SYNTAX_ERROR if where is not None and (where.line or where.game) else Code.UNREADABLE_FILE
        visitor.visit_file_finding(Finding.at(code, exc.message, where or Location(path)))
    except TablaError as exc:
        visitor.visit_file_finding(Finding(Code.UNREADABLE_FILE, str(exc), Location(path)))
