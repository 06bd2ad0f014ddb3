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
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

__all__ = [
    "Decoded", "LeftOut", "collect_paths", "decode", "decode_bytes", "is_transcript", "map_in_order",
    "read_path_text",
]

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
    """

    skipped: list[str] = field(default_factory=list)
    loops: list[str] = field(default_factory=list)
    unreadable: list[tuple[str, str]] = field(default_factory=list)

    def messages(self) -> list[str]:
        """One line per loop and unreadable directory, then one counting the skipped files (for stderr)."""
        lines = [f"{loop}: a symbolic link back to a directory already walked; not followed" for loop in self.loops]
        lines += [f"{folder}: cannot read the directory: {reason}" for folder, reason in self.unreadable]
        if self.skipped:
            count = len(self.skipped)
            what = "file that is not a match transcript" if count == 1 else "files that are not match transcripts"
            lines.append(f"skipped {count} {what}")
        return lines


_SNIFF = 65536
_TRANSCRIPT_SUFFIXES = frozenset({".mat", ".sgf"})


def is_transcript(path: str | Path) -> bool:
    """Whether the file at ``path`` looks like a match transcript, by the head of its content.

    Files named ``.mat`` or ``.sgf`` always do (a broken one is reported
    when read), and so does a file that cannot be read (its reader says why).
    """
    if Path(path).suffix.lower() in _TRANSCRIPT_SUFFIXES:
        return True
    try:
        with open(path, "rb") as handle:
            head = handle.read(_SNIFF)
    except OSError:
        return True
    from tabla_cli.formats import detect

    return detect(decode(head)) is not None


def collect_paths(paths: Iterable[str], left_out: LeftOut | None = None) -> list[str]:
    """Files named, and the transcripts below the directories named, in a stable order.

    Below a directory, hidden directories are not entered, symbolic links are
    followed (a link back to a directory already walked is not), and hidden
    files and files that are not transcripts (:func:`is_transcript`) are left
    out; ``left_out`` is told what was left out and which directories could
    not be read. A file named is always kept.
    """
    out: list[str] = []
    left = LeftOut() if left_out is None else left_out
    for name in paths:
        path = Path(name)
        if not path.is_dir():
            out.append(name)
            continue
        walked = {os.path.realpath(path)}

        def unreadable(exc: OSError) -> None:
            left.unreadable.append((str(exc.filename), exc.strerror or str(exc)))

        for root, dirs, files in os.walk(path, onerror=unreadable, followlinks=True):
            kept = []
            for folder in sorted(d for d in dirs if not d.startswith(".")):
                real = os.path.realpath(os.path.join(root, folder))
                if real in walked:
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
