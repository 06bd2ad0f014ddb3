"""Mutating real transcripts: the operators shared by the hypothesis tests,
the batch runner (``run_batch.py``) and the atheris targets.

A mutant is a seed file's bytes with one or more :class:`Edit` applied, then
written in one of :data:`ENCODINGS`. Each edit is plain data, so that
hypothesis can draw and shrink it and a failure prints the edits that made it.
Seeds are real transcripts of every format in ``tests/data/fuzz-seeds/`` and
the examples in ``examples/``.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT / "tests" / "data" / "fuzz-seeds"
EXAMPLES = ROOT / "examples"
REGRESSIONS = ROOT / "tests" / "data" / "fuzz"

READERS = ("mat", "sgf", "gnubg-text", "fibs", "json", "position-text")
"""The readers, named as the format registry (:mod:`tabla_cli.formats`) names them."""

_SUFFIX = {"mat": ".mat", "sgf": ".sgf", "gnubg-text": ".txt", "fibs": ".txt", "json": ".json", "position-text": ".txt"}

# The examples that replay quickly enough for a mutant a few milliseconds
# long (the variant examples spend most of their time in the play search).
_EXAMPLE_SEEDS = (
    "three-point-match.mat",
    "money-session.mat",
    "nackgammon.mat",
    "hypergammon.mat",
    "tapa-opening.mat",
    "plakoto-opening.mat",
    "portes-opening.mat",
    "fevga-opening.mat",
    "long-nardy-opening.mat",
)


def seeds(reader: str) -> list[Path]:
    """The seed files of ``reader``: ``tests/data/fuzz-seeds/<reader>-*`` (and examples for ``mat``)."""
    found = sorted(SEEDS.glob(f"{reader}-*"))
    if reader == "mat":
        found += [EXAMPLES / name for name in _EXAMPLE_SEEDS]
    return found


def suffix(reader: str) -> str:
    """The file name suffix of ``reader``'s transcripts."""
    return _SUFFIX[reader]


HUGE_NUMBERS = (
    "0",
    "00",
    "-1",
    "999999999",
    "1000000000",
    "4294967296",
    "18446744073709551617",
    "9" * 40,
    "1" * 4301,
    "1e309",
    "٣",
    "5²",
    "١٢",
    "１２",
    "²",
    "NaN",
    "-0",
    "+7",
)
"""Numbers (and would-be numbers) that have crashed readers: huge, negative,
non-ASCII digits, more digits than ``int()`` converts."""

UNICODE = (
    "\u0000",
    "\ufeff",
    "\u00a0",
    "\u2028",
    "\u2029",
    "\u0085",
    "\r",
    "\x0b",
    "\x0c",
    "\t",
    "é",
    "Пётр",
    "\ud7ff",
    "\U0001f600",
    "\u0301",
    "\u202e",
    "٣",
    "²",
    "ǅ",
    "ß",
    "İ",
    "\uffff",
)
"""Characters that trip up line splitting, casing, digits and encodings."""

RUNS = (
    " ",
    "\t",
    "(",
    ")",
    "[",
    "]",
    "\\",
    "/",
    "*",
    "1",
    "9",
    "a",
    "x",
    ":",
    "-",
    "bar/",
    "13/7",
    "(2)",
    " (",
    "; ",
    "\n",
    "{",
    "[[",
    "wins ",
    "Game 1\n",
    "1) ",
)
"""Units of the long runs an edit may insert (a run of ``n`` copies)."""

ENCODINGS = ("utf-8", "utf-8-sig", "utf-16", "utf-16-le", "cp1252", "cp1251", "latin-1", "crlf", "cr")
"""How a mutant's text is written to bytes (``crlf``/``cr``: UTF-8 with other line ends)."""


@dataclass(frozen=True)
class Edit:
    """One change to a transcript.

    ``kind`` says what is done at ``where`` (a fraction 0-1 of the length, or of
    the number of lines or of numbers in the text) with ``value``:

    ``delete-line``, ``duplicate-line``, ``swap-lines`` (with the line at
    ``value``, a fraction), ``insert-line`` (``value`` is the line),
    ``replace-number`` (the number there becomes ``value``), ``keyword-number``
    (the first number after a keyword such as ``wins``, ``score``, ``length``
    or ``CV[`` in the line there, among the lines with one, becomes ``value``), ``insert``
    (``value`` is inserted), ``run`` (``value`` is ``unit*count``), ``flip``
    (the byte there is xor-ed with ``value``, an integer as text),
    ``truncate``, ``delete-span`` (``value`` is the length).
    """

    kind: str
    where: float
    value: str = ""


EDIT_KINDS = (
    "delete-line",
    "duplicate-line",
    "swap-lines",
    "insert-line",
    "replace-number",
    "keyword-number",
    "insert",
    "run",
    "flip",
    "truncate",
    "delete-span",
)

_NUMBER = re.compile(rb"[0-9]+")
_KEYWORD = re.compile(
    rb"(?i)wins|loses|losses|score|point|doubles|beavers|raccoons|game|move|resigns|length|ws:|bs:"
    rb"|RE\[|CV\[|\"value\"|\"number\"|cube|rating|\)"
)


def _index(where: float, size: int) -> int:
    return min(size - 1, max(0, int(where * size))) if size else 0


def apply_edit(data: bytes, edit: Edit) -> bytes:
    """``data`` with ``edit`` made."""
    if edit.kind in ("delete-line", "duplicate-line", "swap-lines", "insert-line"):
        lines = data.split(b"\n")
        i = _index(edit.where, len(lines))
        if edit.kind == "delete-line":
            del lines[i]
        elif edit.kind == "duplicate-line":
            lines.insert(i, lines[i])
        elif edit.kind == "swap-lines":
            j = _index(float(edit.value or 0), len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            lines.insert(i, edit.value.encode("utf-8", "surrogatepass"))
        return b"\n".join(lines)
    if edit.kind == "keyword-number":
        # A keyword first (each as likely), then one of its lines.
        lines = data.split(b"\n")
        found: dict[bytes, list[tuple[int, int]]] = {}
        for i, line in enumerate(lines):
            for keyword in _KEYWORD.finditer(line):
                found.setdefault(keyword.group().lower(), []).append((i, keyword.end()))
        if not found:
            return data
        keys = sorted(found)
        scaled = edit.where * len(keys)
        places = found[keys[_index(edit.where, len(keys))]]
        i, end = places[_index(scaled - int(scaled), len(places))]
        number = _NUMBER.search(lines[i], end)
        if number is None:
            return data
        lines[i] = lines[i][: number.start()] + edit.value.encode("utf-8") + lines[i][number.end() :]
        return b"\n".join(lines)
    if edit.kind == "replace-number":
        numbers = list(_NUMBER.finditer(data))
        if not numbers:
            return data
        found = numbers[_index(edit.where, len(numbers))]
        return data[: found.start()] + edit.value.encode("utf-8") + data[found.end() :]
    at = _index(edit.where, len(data) + 1)
    if edit.kind == "insert":
        return data[:at] + edit.value.encode("utf-8", "surrogatepass") + data[at:]
    if edit.kind == "run":
        return data[:at] + edit.value.encode("utf-8") + data[at:]
    if edit.kind == "flip":
        if not data:
            return data
        at = _index(edit.where, len(data))
        return data[:at] + bytes([data[at] ^ (int(edit.value) & 0xFF)]) + data[at + 1 :]
    if edit.kind == "truncate":
        return data[:at]
    if edit.kind == "delete-span":
        return data[:at] + data[at + int(edit.value or 1) :]
    raise ValueError(f"unknown edit {edit.kind!r}")


def encode(text: str, encoding: str) -> bytes:
    """``text`` written as ``encoding`` (one of :data:`ENCODINGS`); unencodable characters become ``?``."""
    if encoding == "crlf":
        return text.replace("\n", "\r\n").encode("utf-8", "surrogatepass")
    if encoding == "cr":
        return text.replace("\n", "\r").encode("utf-8", "surrogatepass")
    return text.encode(encoding, "replace")


def mutate(seed: bytes, edits: list[Edit], encoding: str) -> bytes:
    """The mutant of ``seed``: ``edits`` in turn, then re-encoded (the seed is UTF-8)."""
    data = seed
    for edit in edits:
        data = apply_edit(data, edit)
    if encoding == "utf-8":
        return data
    return encode(data.decode("utf-8", "replace"), encoding)


def random_edit(rng: random.Random, lines: list[bytes]) -> Edit:
    """One edit drawn with ``rng``; ``lines`` are lines of other seeds, to insert."""
    kind = rng.choice(EDIT_KINDS)
    where = rng.random()
    value = ""
    if kind == "swap-lines":
        value = repr(rng.random())
    elif kind == "insert-line":
        value = rng.choice(lines).decode("utf-8", "replace") if lines and rng.random() < 0.7 else rng.choice(UNICODE)
    elif kind in ("replace-number", "keyword-number"):
        value = rng.choice(HUGE_NUMBERS) if rng.random() < 0.8 else str(rng.randrange(0, 100))
    elif kind == "insert":
        value = rng.choice(UNICODE + HUGE_NUMBERS)
    elif kind == "run":
        value = rng.choice(RUNS) * rng.choice((2, 10, 100, 1000, 5000))
    elif kind == "flip":
        value = str(1 << rng.randrange(8))
    elif kind == "delete-span":
        value = str(rng.choice((1, 2, 5, 20, 200)))
    return Edit(kind, where, value)


def random_mutant(rng: random.Random, seed: bytes, lines: list[bytes]) -> tuple[bytes, list[Edit], str]:
    """A mutant of ``seed`` drawn with ``rng``: its bytes, edits and encoding."""
    edits = [random_edit(rng, lines) for _ in range(rng.choice((1, 1, 2, 3, 5, 8)))]
    encoding = rng.choice(ENCODINGS) if rng.random() < 0.2 else "utf-8"
    return mutate(seed, edits, encoding), edits, encoding
