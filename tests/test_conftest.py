"""The shared fixtures of conftest.py: the tests' private home, --update-golden, the CLI runner."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tabla_cli.analysis.cache import cache_path

import helpers


def test_the_home_and_the_cache_are_private(private_home: Path) -> None:
    assert private_home.name.startswith("tabla-tests-home-")
    assert Path.home() == private_home and os.path.expanduser("~") == str(private_home)
    assert "TABLA_CACHE_DIR" not in os.environ
    assert cache_path() == private_home / ".cache" / "tabla-cli" / "analysis.sqlite"


def test_a_subprocess_inherits_the_private_home(private_home: Path) -> None:
    code = "from tabla_cli.analysis.cache import cache_path; print(cache_path())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert Path(done.stdout.strip()).is_relative_to(private_home)


def test_update_golden_is_an_option(pytestconfig: pytest.Config, update_golden: bool) -> None:
    assert pytestconfig.getoption("--update-golden") is update_golden


def test_golden_files_follow_one_naming_rule() -> None:
    goldens = [p for p in helpers.DATA.rglob("*") if p.is_file() and (".expected." in p.name or p.suffix == ".golden")]
    assert goldens
    assert [p for p in goldens if p.suffix == ".golden"] == []


def test_golden_writes_only_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "case.expected.txt"
    path.write_text("old", encoding="utf-8")
    with pytest.raises(AssertionError):
        helpers.check_golden(path, "new", update=False)
    assert path.read_text(encoding="utf-8") == "old"
    helpers.check_golden(path, "new", update=True)
    assert path.read_text(encoding="utf-8") == "new"


def test_the_cli_runner_keeps_stdout_and_stderr_apart(cli: Callable[..., tuple[int, str, str]]) -> None:
    code, out, err = cli("show", "start", "--format", "json")
    assert code == 0 and out.lstrip().startswith("{") and err == ""
    code, out, err = cli("show", "not-an-id")
    assert code != 0 and out == "" and err
