"""Long lines and deep nesting take time in proportion to their size.

Each case puts a run of 10 KB, 100 KB and 1 MB (blanks, or junk) into a real
transcript where one of the readers' patterns reads it, and checks that ten
times the input takes well under 25 times as long. A pattern that backtracks
(``\\s+\\(`` tried at every blank of a run, a lazy ``.*?`` before ``[ \\t]*``)
takes 100 times as long, or minutes. The times are compared with each other,
never with a fixed limit; the smaller one counts as at least 10 ms, below
which the timer and memory allocation dominate. The larger inputs run in a
child process, stopped when the bound is passed.
"""

from __future__ import annotations

import gc
import io
import multiprocessing
import random
import re
import resource
from collections.abc import Callable

import pytest

from tabla_cli.check import check_text
from tabla_cli.errors import InputError, TablaError
from tabla_cli.formats import get as get_format
from tabla_cli.notation import parse_play
from tabla_cli.pasted import parse_ids

from fuzz.mutations import SEEDS

pytestmark = pytest.mark.slow  # inputs up to 1 MB per reader and pattern: a scale test

SIZES = (10_000, 100_000, 1_000_000)
RATIO = 40
"""Ten times the input may take at most this many times the CPU: linear work measures 10-17 times here
(the garbage collector's passes grow with the live objects), a quadratic path 100 times; 25 failed on
the SGF reader's 17-times case when the machine was busy."""
FLOOR = 0.01
_SMALL_LIMIT = 30.0
"""The smallest size's CPU limit (only to stop a runaway child; its time is what the others are held to)."""
PATIENCE = 10
"""A child is stopped after this many times its CPU limit in wall time (other jobs may share the machine)."""

_JUNK_ALPHABET = "abcwinsXO0123456789:;()[]/\\*-.,'\"{}# \t\u00e9\u0663"
JUNK = "".join(random.Random(12).choice(_JUNK_ALPHABET) for _ in range(997))
UNITS = {"blanks": " ", "junk": JUNK}

SEED_FILES = {
    "mat": "mat-spec-3pt-gnubg.mat",
    "sgf": "sgf-three-point-match.sgf",
    "gnubg-text": "gnubg-text-bglab-match967143.txt",
    "fibs": "fibs-match3.txt",
    "json": "json-three-point-match.json",
    "position-text": "position-text-xg-01_checkerPosition_FR.txt",
}

# (reader, the first line matching this pattern, where the run goes in it)
CASES = [
    ("mat", r"point match", "end"),
    ("mat", r"^\s*Game", "end"),
    ("mat", r"^\s*\S.*:\s*[0-9]+\s+\S.*:\s*[0-9]+\s*$", "after-first"),
    ("mat", r"^\s*[0-9]+\)", "middle"),
    ("mat", r"Wins", "after-first"),
    ("sgf", r"^\(;", "middle"),
    ("sgf", r"^;[WB]\[[0-9]", "after-first"),
    ("gnubg-text", r"^The score", "middle"),
    ("gnubg-text", r"^Move number", "middle"),
    ("gnubg-text", r"wins", "after-first"),
    ("fibs", r"^Score is", "end"),
    ("fibs", r" is [XO] ", "middle"),
    ("fibs", r"^[XO]: \(", "middle"),
    ("fibs", r"wins", "end"),
    ("json", r'"players"', "middle"),
    ("json", r'"play"', "middle"),
    ("position-text", r"^X:", "middle"),
    ("position-text", r"q:-", "middle"),
    ("position-text", r"^\s+[0-9]+\. ", "after-first"),
    ("position-text", r"Joueur:", "end"),
]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _without_inherited_garbage(run: Callable[[], object]) -> None:
    """``run`` in a forked child whose garbage collector leaves the parent's objects alone.

    The child inherits pytest's whole heap; without :func:`gc.freeze` its
    first full collection scans all of it, a cost of the test run, not of the
    input (it made a linear read of 100,000 characters look 40 times dearer
    than one of 10,000 late in the slow run).
    """
    gc.freeze()
    run()


def _seconds_within(run: Callable[[], object], limit: float) -> float:
    """The CPU time ``run`` takes in a child process, which is stopped after :data:`PATIENCE` x ``limit`` seconds.

    A backtracking pattern cannot be interrupted inside the regex engine, so
    the larger inputs run in a child: a regression fails after a bounded time
    instead of running for hours. CPU time, not wall time, is compared, so a
    busy machine does not fail the test.
    """
    child = multiprocessing.get_context("fork").Process(target=_without_inherited_garbage, args=(run,))
    start = _children_cpu()
    child.start()
    child.join(PATIENCE * limit)
    if child.is_alive():
        child.kill()
        child.join()
        return float("inf")
    assert child.exitcode == 0, f"the child failed (exit code {child.exitcode})"
    return _children_cpu() - start


def _assert_linear(make: Callable[[int], Callable[[], object]], sizes: tuple[int, ...] = SIZES) -> None:
    """``make(n)`` gives the work for ``n`` characters; each size in turn must take less than
    :data:`RATIO` times the size before (itself counted as at least :data:`FLOOR`)."""
    make(sizes[0] // 10)()  # warm up: grammars are built on first use
    before = min(_seconds_within(make(sizes[0]), _SMALL_LIMIT) for _ in range(2))  # measured as the larger are
    for smaller, size in zip(sizes, sizes[1:]):
        limit = RATIO * max(before, FLOOR)
        took = _seconds_within(make(size), limit)
        assert took < limit, f"{smaller:,}: {before:.3f} s, {size:,}: more than {limit:.3f} s"
        before = took


def _with_run(reader: str, pattern: str, where: str, unit: str, size: int) -> str:
    lines = (SEEDS / SEED_FILES[reader]).read_text(encoding="utf-8").split("\n")
    index = next(i for i, line in enumerate(lines) if re.search(pattern, line))
    line, run = lines[index], (unit * (size // len(unit) + 1))[:size]
    if where == "end":
        lines[index] = line + run
    elif where == "middle":
        lines[index] = line[: len(line) // 2] + run + line[len(line) // 2 :]
    else:
        cut = len(line) - len(line.lstrip()) + 1
        lines[index] = line[:cut] + run + line[cut:]
    return "\n".join(lines)


def _check(text: str, reader: str) -> Callable[[], object]:
    """Check ``text`` and, whatever the detection says, read it with ``reader`` too."""

    def run() -> None:
        check_text(text, "long")
        try:
            for _ in get_format(reader).read(io.StringIO(text), "long", lambda error: None):
                pass
        except TablaError:
            pass

    return run


@pytest.mark.parametrize("unit", UNITS)
@pytest.mark.parametrize(("reader", "pattern", "where"), CASES)
def test_a_long_run_in_a_line_takes_linear_time(reader: str, pattern: str, where: str, unit: str) -> None:
    _assert_linear(lambda n: _check(_with_run(reader, pattern, where, UNITS[unit], n), reader))


@pytest.mark.parametrize("unit", UNITS)
@pytest.mark.parametrize("reader", SEED_FILES)
def test_a_long_line_of_its_own_takes_linear_time(reader: str, unit: str) -> None:
    def make(n: int) -> Callable[[], object]:
        lines = (SEEDS / SEED_FILES[reader]).read_text(encoding="utf-8").split("\n")
        lines.insert(len(lines) // 2, (UNITS[unit] * (n // len(UNITS[unit]) + 1))[:n])
        return _check("\n".join(lines), reader)

    _assert_linear(make)


@pytest.mark.parametrize("unit", [" ", "\t", JUNK, " (", "13/7", "a "])
def test_parse_play_takes_linear_time(unit: str) -> None:
    def make(n: int) -> Callable[[], object]:
        text = "8/5 " + (unit * (n // len(unit) + 1))[:n] + "6/5"

        def run() -> None:
            parse_play.cache_clear()
            try:
                parse_play(text)
            except InputError:
                pass

        return run

    _assert_linear(make)


@pytest.mark.parametrize("unit", [" ", JUNK, "x:", "4HPwATDgc/ABMA "])
def test_the_id_parser_takes_linear_time(unit: str) -> None:
    def make(n: int) -> Callable[[], object]:
        text = "4HPwATDgc/ABMA:" + (unit * (n // len(unit) + 1))[:n] + " cAkAAAAAAAAA"

        def run() -> None:
            try:
                parse_ids(text)
            except InputError:
                pass

        return run

    _assert_linear(make)


def test_a_deeply_nested_sgf_is_read_in_linear_time_without_recursion_error() -> None:
    head = "(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[Ann]PB[Bob]"

    def make(depth: int) -> Callable[[], object]:
        text = head + "(;" * depth + ")" * (depth + 1)
        return lambda: check_text(text, "deep.sgf")

    _assert_linear(make, (2_000, 20_000, 200_000))


@pytest.mark.parametrize("unit", [" ", "\t", "Double/Pass: "])
@pytest.mark.parametrize("where", ["own-line", "after-options"])
def test_an_xg_cube_export_with_a_long_line_takes_linear_time(unit: str, where: str) -> None:
    """Issue 25: a line of blanks after the cube options took seconds per 16,000 in the cube pattern."""
    seed = (SEEDS / "position-text-xg-04_DP_EN.txt").read_text(encoding="utf-8")
    anchor = "Double/Pass:   +1.000\n"

    def make(n: int) -> Callable[[], object]:
        run = (unit * (n // len(unit) + 1))[:n]
        cut = seed.index(anchor) + len(anchor)
        text = seed[:cut] + run + "\n" + seed[cut:] if where == "own-line" else seed[: cut - 1] + run + seed[cut - 1 :]
        return _check(text, "position-text")

    _assert_linear(make)


def _field_starts(line: str, most: int) -> list[int]:
    """Where the first ``most`` blank-separated fields of ``line`` start (and its end)."""
    starts = [i for i, c in enumerate(line) if c not in " \t" and (i == 0 or line[i - 1] in " \t")]
    return starts[:most] + [len(line)]


def _kinds_of_line(text: str, most: int) -> list[int]:
    """The indexes of the first line of each kind (its first word, digits as 9) in ``text``, at most ``most``."""
    seen: dict[str, int] = {}
    for index, line in enumerate(text.split("\n")):
        words = line.split()
        kind = re.sub(r"[0-9]", "9", words[0]) if words else ""
        if kind and kind not in seen:
            seen[kind] = index
    return sorted(seen.values())[:most]


@pytest.mark.parametrize("reader", SEED_FILES)
def test_runs_in_every_field_of_each_kind_of_line_take_linear_time(reader: str) -> None:
    """10,000 then 100,000 blanks, tabs or copies of the field itself, at the start of each of the first
    fields of one line of each kind (its first word), with the line kept or cut off there."""
    text = (SEEDS / SEED_FILES[reader]).read_text(encoding="utf-8")
    lines = text.split("\n")
    for index in _kinds_of_line(text, 8):
        line = lines[index]
        for at in _field_starts(line, 4):
            token = (line[at:].split() or ["x"])[0] + " "
            for unit in (" ", "\t", token):
                for keep in (True, False):
                    _assert_linear(_pumping(reader, lines, index, at, unit, keep), SIZES[:2])


def _pumping(
    reader: str, lines: list[str], index: int, at: int, unit: str, keep: bool
) -> Callable[[int], Callable[[], object]]:
    """The check of ``lines`` with a run of ``n`` x ``unit`` at ``at`` in line ``index`` (its rest kept or not)."""
    line = lines[index]

    def make(n: int) -> Callable[[], object]:
        pumped = line[:at] + (unit * (n // len(unit) + 1))[:n] + (line[at:] if keep else "")
        return _check("\n".join([*lines[:index], pumped, *lines[index + 1 :]]), reader)

    return make
