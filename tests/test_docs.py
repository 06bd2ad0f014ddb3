"""The README and the pages of docs/: short, linked within the repository, and true.

Each ``$ tabla ...`` example shown with its output is run, and the lines it shows must come out
in that order (a line cut short with ``...`` only up to the cut, a summary line only up to its
timing). The column dictionary must be what docs/make_columns.py generates from columns.toml.
"""

from __future__ import annotations

import importlib.util
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from tabla_cli.cli import main

import helpers

ROOT = helpers.ROOT
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = (README, *sorted(DOCS.glob("*.md")))
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```[a-z]*\n(.*?)^```$", re.MULTILINE | re.DOTALL)
TIMING = re.compile(r" in \d+\.\d+ s\b.*$")


def page_id(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives the headings of a Markdown text."""
    text = FENCE.sub("", text)
    found = set()
    for heading in re.findall(r"^#{1,6} (.+)$", text, re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(slug)
    return found


def test_readme_is_short() -> None:
    assert README.stat().st_size <= 20_000


def test_readme_keeps_the_quick_start() -> None:
    text = README.read_text(encoding="utf-8")
    assert "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/tabla check examples/" in text
    assert "python3 -m venv .venv && .venv/bin/pip install '.[test]' && .venv/bin/python -m pytest -q" in text


def test_readme_names_every_command_and_links_every_page() -> None:
    text = README.read_text(encoding="utf-8")
    for command in main.commands:  # type: ignore[attr-defined]
        assert f"`tabla {command} " in text, command
    linked = {target.split("#", 1)[0] for target in LINK.findall(text)}
    for page in DOCS.glob("*.md"):
        assert f"docs/{page.name}" in linked, page.name


@pytest.mark.parametrize("path", PAGES, ids=page_id)
def test_links_stay_in_the_repository_and_resolve(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for target in LINK.findall(FENCE.sub("", text)):
        assert "://" not in target and not target.startswith(("/", "mailto:")), target
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        assert linked.exists(), target
        assert ROOT in linked.parents or linked == ROOT, target
        if anchor and linked.suffix == ".md":
            assert anchor in anchors(linked.read_text(encoding="utf-8")), target


def test_columns_page_is_generated_from_the_schema() -> None:
    spec = importlib.util.spec_from_file_location("make_columns", DOCS / "make_columns.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (DOCS / "columns.md").read_text(encoding="utf-8") == module.page()


def examples() -> list[tuple[str, str, list[str]]]:
    """Every ``$ tabla ...`` command of the pages that is shown with its output."""
    found = []
    for path in PAGES:
        for block in FENCE.findall(path.read_text(encoding="utf-8")):
            lines = block.splitlines()
            starts = [i for i, line in enumerate(lines) if line.startswith("$ tabla ")]
            for n, i in enumerate(starts):
                end = starts[n + 1] if n + 1 < len(starts) else len(lines)
                found.append((page_id(path), lines[i][len("$ tabla ") :], lines[i + 1 : end]))
    return found


EXAMPLES = examples()


def expected(line: str) -> str:
    """What a shown output line promises: the text before a ``...`` cut or a timing."""
    return TIMING.sub("", line.split("...", 1)[0]).rstrip()


@pytest.mark.parametrize(
    ("page", "command", "shown"), EXAMPLES, ids=[f"{page}: {command[:40]}" for page, command, _ in EXAMPLES]
)
def test_examples_print_what_the_pages_show(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, page: str, command: str, shown: list[str]
) -> None:
    for name in ("examples", "tests"):
        (tmp_path / name).symlink_to(ROOT / name)
    monkeypatch.chdir(tmp_path)
    args = shlex.split(command.split(" | ", 1)[0])
    result = CliRunner().invoke(main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (0, 1), (result.exit_code, result.stderr)
    got = [line.rstrip() for line in (result.stdout + result.stderr).splitlines()]
    at = 0
    for line in shown:
        want = expected(line)
        if not want or set(want) <= {"─", "-", " "}:
            continue
        while at < len(got) and not got[at].startswith(want):
            at += 1
        assert at < len(got), f"{page}: `tabla {command}` does not print {line!r}"
        at += 1
