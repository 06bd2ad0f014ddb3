"""Every regular expression that reads input takes time linear in the input's length.

The patterns are found, not listed: every compiled pattern at the top level
of a ``tabla_cli`` module (tried with the methods its module calls on it:
``search``, ``match``, ``findall``, ...) and every terminal of the Lark
grammars (lark compiles each to a regular expression and matches it at a
position). For each pattern, real lines it matches (from the fuzz seeds and
position exports) are pumped at every position: a run of blanks, of tabs,
of the character there or of the word starting there is inserted, with the
rest of the line kept or cut off. A pattern that backtracks over the run
(``[ \\t]+([^:]+):`` on a line of blanks, ``[0-9]+-ply`` searched in a run
of digits) takes about 100 times as long for ten times the run; a linear one
about 10 times. CPU times are compared with each other, never with a fixed
limit; the smaller counts as at least :data:`FLOOR`.

The reader-level counterpart (whole transcripts with long runs) is
``test_long_inputs.py``.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import tabla_cli
from tabla_cli.grammar import GRAMMAR_DIR, load_grammar

from fuzz.mutations import ROOT, SEEDS

SMALL, LARGE = 1_000, 10_000
RATIO = 30
FLOOR = 0.001
METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "split")

ONLY_ON_LEXED_TEXT = {
    "tabla_cli.formats.sgf._VALUE": "reads the values of one property of a node the SGF lexer has matched, each value closed by ']'",
}
"""Patterns that never see raw input, and why: an unclosed ``[`` before each of many ``[`` is quadratic
for any pattern that must find the closing ``]``, and the lexer has ruled it out."""


def _module_patterns() -> dict[str, tuple[re.Pattern[str], frozenset[str]]]:
    """Every module-level pattern of ``tabla_cli`` with the methods the modules holding it call on it
    (``search``, the costliest, for one passed on under another name)."""
    names: dict[int, str] = {}
    patterns: dict[int, re.Pattern[str]] = {}
    used: dict[int, set[str]] = {}
    for info in pkgutil.walk_packages(tabla_cli.__path__, "tabla_cli."):
        module = importlib.import_module(info.name)
        source = Path(module.__file__ or "").read_text(encoding="utf-8")
        for name, value in vars(module).items():
            if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
                names.setdefault(id(value), f"{info.name}.{name}")
                patterns[id(value)] = value
                used.setdefault(id(value), set()).update(
                    re.findall(rf"\b{re.escape(name)}\.({'|'.join(METHODS)})\(", source)
                )
    return {names[key]: (patterns[key], frozenset(used[key] or {"search"})) for key in names}


def _grammar_terminals() -> dict[str, tuple[re.Pattern[str], frozenset[str]]]:
    """Every terminal of every grammar, as the regular expression lark matches at a position."""
    found: dict[str, tuple[re.Pattern[str], frozenset[str]]] = {}
    for path in sorted((ROOT / GRAMMAR_DIR).glob("*.lark")):
        parser = load_grammar(path.name)
        for terminal in parser.terminals:
            flags = 0
            for flag in terminal.pattern.flags:
                flags |= getattr(re, flag.upper())
            found[f"{path.name}:{terminal.name}"] = (
                re.compile(terminal.pattern.to_regexp(), flags),
                frozenset({"match"}),
            )
    return found


PATTERNS = {**_module_patterns(), **_grammar_terminals()}

_LINES = sorted(
    {
        line
        for path in [*SEEDS.iterdir(), *(ROOT / "examples").glob("*.mat")]
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
        if 0 < len(line) < 90
    }
)


def _runner(pattern: re.Pattern[str], used: frozenset[str]) -> Callable[[str], object]:
    def run(text: str) -> None:
        for method in used:
            if method == "finditer":
                list(pattern.finditer(text))
            elif method == "sub":
                pattern.sub("", text)
            else:
                getattr(pattern, method)(text)

    return run


def _cpu(run: Callable[[str], object], text: str) -> float:
    start = time.process_time()
    run(text)
    return time.process_time() - start


def _pumps(line: str) -> list[tuple[str, str, str]]:
    """``(head, unit, tail)`` for every position of ``line``: runs of blanks, tabs, its character and its word."""
    out = []
    for i in range(len(line) + 1):
        units = {" ", "\t"}
        if i < len(line):
            units.add(line[i])
            word = line[i:].split(" ", 1)[0] + " "
            if 2 < len(word) < 10:
                units.add(word)
        for unit in sorted(units):
            out += [(line[:i], unit, line[i:]), (line[:i], unit, "")]
    return out


def _run_of(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def test_the_patterns_are_found() -> None:
    assert "tabla_cli.formats.position_text._XG_CUBE" in PATTERNS
    assert "mat.lark:MOVES" in PATTERNS
    assert PATTERNS["tabla_cli.formats.position_text._XG_CUBE"][1] == {"findall"}
    assert set(ONLY_ON_LEXED_TEXT) <= set(PATTERNS)


def test_the_check_catches_a_backtracking_pattern() -> None:
    quadratic = re.compile(r"^[ \t]+([^:\n]+):", re.MULTILINE)
    assert _first_nonlinear(quadratic, frozenset({"findall"}), ["   Double:  +1.000"]) is not None


def _first_nonlinear(pattern: re.Pattern[str], used: frozenset[str], lines: list[str]) -> str | None:
    run = _runner(pattern, used)
    for line in lines:
        for head, unit, tail in _pumps(line):
            small = min(_cpu(run, head + _run_of(unit, SMALL) + tail) for _ in range(2))
            limit = RATIO * max(small, FLOOR)
            large = _cpu(run, head + _run_of(unit, LARGE) + tail)
            if large >= limit and _cpu(run, head + _run_of(unit, LARGE) + tail) >= limit:  # not a hiccup
                return (
                    f"{line!r} with {LARGE:,} x {unit!r} after {len(head)} characters{'' if tail else ', cut'}: "
                    f"{small:.4f} s for {SMALL:,}, {large:.3f} s for {LARGE:,}"
                )
    return None


@pytest.mark.parametrize("name", sorted(set(PATTERNS) - set(ONLY_ON_LEXED_TEXT)))
def test_a_pattern_takes_linear_time_on_runs_in_every_position(name: str) -> None:
    pattern, used = PATTERNS[name]
    lines = [line for line in _LINES if pattern.search(line)][:2] or [_LINES[0]]
    found = _first_nonlinear(pattern, used, ["", *lines])
    assert found is None, found
