"""One reader for every command: detect a transcript's format by content (see :mod:`tabla_cli.formats`)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from tabla_cli.errors import InputError, Location, UnsupportedFormatError
from tabla_cli.formats import detect, detect_binary, get, titles
from tabla_cli.formats._syntax import ErrorHandler
from tabla_cli.model import Match
from tabla_cli.source import MAX_SIZE, collect_paths, decode, read_source

__all__ = [
    "decode",
    "detect_format",
    "read_bytes_matches",
    "read_handle_matches",
    "read_match",
    "read_matches",
    "read_path_matches",
    "read_text_matches",
]


def detect_format(text: str) -> str:
    """The format name of a transcript, from its content (never its file name).

    Raises:
        UnsupportedFormatError: no reader recognises the text.
    """
    fmt = detect(text)
    if fmt is None:
        raise UnsupportedFormatError(f"not a recognised match transcript ({titles()})")
    return fmt.name


def read_text_matches(
    text: str, path: str = "<stdin>", on_error: ErrorHandler | None = None, *, lazy: bool = False, analysis: bool = True
) -> Iterator[Match]:
    """Every match in ``text``, whatever its format.

    Args:
        on_error: called with each syntax error inside a game, which is then
            read up to that line; without it the error is raised.
        lazy: read each match game by game where the format allows
            (:meth:`~tabla_cli.model.Match.iter_games`).
        analysis: False: the analysis the file records may be left unread.
    """
    return get(detect_format(text)).read(io.StringIO(text), path, on_error, lazy=lazy, analysis=analysis)


def read_bytes_matches(
    data: bytes, path: str = "<stdin>", on_error: ErrorHandler | None = None, *, max_size: int = MAX_SIZE
) -> Iterator[Match]:
    """Every match in a file's bytes: a binary format's by its reader (nothing inflated past
    ``max_size`` bytes), any other decoded as text (:func:`~tabla_cli.source.decode`) and read as
    :func:`read_text_matches` does."""
    fmt = detect_binary(data)
    if fmt is not None:
        return fmt.read_bytes(data, path, on_error, max_size=max_size)
    return read_text_matches(decode(data), path, on_error)


DETECT_SAMPLE = 65536
"""How many characters of a stream format detection looks at."""


def read_handle_matches(
    handle: TextIO, path: str, on_error: ErrorHandler | None = None, *, lazy: bool = False, analysis: bool = True
) -> Iterator[Match]:
    """Every match in the seekable text stream ``handle``, whatever its format, read as they are needed.

    The format is detected from the first :data:`DETECT_SAMPLE` characters;
    a reader that streams (``.mat``: match by match) keeps one match of the
    file in memory at a time, and with ``lazy`` one game of it. Without
    ``analysis`` the analysis the file records may be left unread.

    Raises:
        UnsupportedFormatError: the format is not recognised.
        TranscriptSyntaxError: (without ``on_error``) it does not follow its format.
        InputError: the stream cannot be decoded.
    """
    try:
        sample = handle.read(DETECT_SAMPLE)
    except UnicodeDecodeError as exc:
        raise InputError(f"cannot decode the input: {exc}", Location(path)) from exc
    fmt = get(detect_format(sample))
    handle.seek(0)
    return fmt.read(handle, path, on_error, lazy=lazy, analysis=analysis)


def read_path_matches(path: str | Path) -> Iterator[Match]:
    """Every match in the file at ``path``.

    Raises:
        OSError: the file cannot be read (or is not a regular file, or is
            larger than :data:`~tabla_cli.source.MAX_SIZE`).
        UnsupportedFormatError: its format is not recognised.
        TranscriptSyntaxError: it does not follow its format.
    """
    return read_bytes_matches(read_source(path), str(path))


def read_match(path: str | Path) -> Match:
    """The first match in the file at ``path`` (for notebooks and scripts)."""
    for match in read_path_matches(path):
        return match
    raise UnsupportedFormatError(f"{path}: no match found")


def read_matches(paths: str | Path | list[str | Path]) -> Iterator[Match]:
    """Stream every match in the files (and directories, recursively) given.

    Raises:
        OSError, UnsupportedFormatError, TranscriptSyntaxError: as
            :func:`read_path_matches`, for the first file that fails.
    """
    names = [paths] if isinstance(paths, (str, Path)) else paths
    for path in collect_paths(str(p) for p in names):
        yield from read_path_matches(path)
