"""One reader for every command: detect a transcript's format by content."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TextIO

from tabla_cli.errors import UnsupportedFormatError
from tabla_cli.formats._syntax import ErrorHandler
from tabla_cli.model import Match

Reader = Callable[[TextIO, str, "ErrorHandler | None"], Iterator[Match]]


def decode(data: bytes) -> str:
    """Bytes to text: UTF-8 (BOM stripped), else Latin-1."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _mat(handle: TextIO, path: str, on_error: ErrorHandler | None) -> Iterator[Match]:
    from tabla_cli.formats import mat

    return mat.read_matches(handle, path=path, on_error=on_error)


def _sgf(handle: TextIO, path: str, on_error: ErrorHandler | None) -> Iterator[Match]:
    from tabla_cli.formats import sgf

    return sgf.read_matches(handle, path=path, on_error=on_error)


def _gnubg_text(handle: TextIO, path: str, on_error: ErrorHandler | None) -> Iterator[Match]:
    from tabla_cli.formats import gnubg_text

    return gnubg_text.read_matches(handle, path=path, on_error=on_error)


def _fibs(handle: TextIO, path: str, on_error: ErrorHandler | None) -> Iterator[Match]:
    from tabla_cli.formats import fibs

    return fibs.read_matches(handle, path=path, on_error=on_error)


def _json(handle: TextIO, path: str, on_error: ErrorHandler | None) -> Iterator[Match]:
    from tabla_cli.formats import json

    return json.read_matches(handle, path=path, on_error=on_error)


READERS: dict[str, Reader] = {"mat": _mat, "sgf": _sgf, "gnubg-text": _gnubg_text, "fibs": _fibs, "json": _json}


def detect_format(text: str) -> str:
    """The format name of a transcript, from its content (never its file name).

    Raises:
        UnsupportedFormatError: no reader recognises the text.
    """
    from tabla_cli.formats import fibs, gnubg_text, json, mat, sgf

    if json.looks_like_json(text):
        return "json"
    if sgf.looks_like_sgf(text):
        return "sgf"
    if gnubg_text.looks_like_gnubg_text(text):
        return "gnubg-text"
    if fibs.looks_like_fibs(text):
        return "fibs"
    if mat.looks_like_mat(text):
        return "mat"
    raise UnsupportedFormatError(
        "not a recognised match transcript (.mat, GNU Backgammon .sgf or text export, FIBS oldmoves, tabla JSON)"
    )


def read_text_matches(text: str, path: str = "<stdin>", on_error: ErrorHandler | None = None) -> Iterator[Match]:
    """Every match in ``text``, whatever its format.

    Args:
        on_error: called with each syntax error inside a game, which is then
            read up to that line; without it the error is raised.
    """
    fmt = detect_format(text)
    return READERS[fmt](io.StringIO(text), path, on_error)


def read_path_matches(path: str | Path) -> Iterator[Match]:
    """Every match in the file at ``path``.

    Raises:
        OSError: the file cannot be read.
        UnsupportedFormatError: its format is not recognised.
        TranscriptSyntaxError: it does not follow its format.
    """
    data = Path(path).read_bytes()
    return read_text_matches(decode(data), str(path))


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
    from tabla_cli.check import collect_paths

    names = [paths] if isinstance(paths, (str, Path)) else paths
    for path in collect_paths(str(p) for p in names):
        yield from read_path_matches(path)
