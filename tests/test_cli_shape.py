"""The CLI's shape: each command parses options, calls the library and renders, in short functions.

Every function of :mod:`tabla_cli.cli` (a click command, a renderer, a helper, a method) spans at most
:data:`MAX_LINES` lines from its ``def`` to its last line, and no module of it names
``map_in_order``: running work over many files in order is the library's (:mod:`tabla_cli.source`).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import helpers

CLI = helpers.ROOT / "tabla_cli" / "cli"
MAX_LINES = 60


def _modules() -> list[Path]:
    return sorted(CLI.glob("*.py"))


def long_functions(source: str, limit: int = MAX_LINES) -> list[tuple[str, int]]:
    """The functions of ``source`` spanning more than ``limit`` lines (``def`` to last line), with their spans.

    >>> long_functions("def f():\\n    return 1\\n", limit=1)
    [('f', 2)]
    >>> long_functions("def f():\\n    return 1\\n", limit=2)
    []
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            span = (node.end_lineno or node.lineno) - node.lineno + 1
            if span > limit:
                found.append((node.name, span))
    return found


def test_the_cli_has_modules() -> None:
    names = {path.name for path in _modules()}
    assert {"analyze.py", "report.py", "positions.py", "rollout.py", "check.py", "convert.py"} <= names


@pytest.mark.parametrize("path", _modules(), ids=lambda path: path.name)
def test_no_cli_function_is_long(path: Path) -> None:
    assert long_functions(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", _modules(), ids=lambda path: path.name)
def test_the_cli_leaves_running_many_files_to_the_library(path: Path) -> None:
    assert "map_in_order" not in path.read_text(encoding="utf-8")


def test_a_long_function_is_found() -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_LINES))
    assert long_functions(f"def command():\n{body}") == [("command", MAX_LINES + 1)]
    assert long_functions(f"class C:\n    def method(self):\n{body.replace('    ', '        ')}") == [
        ("method", MAX_LINES + 1)
    ]
