"""The built wheel carries the grammars and the column schema, and an installed ``tabla`` runs from it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import helpers
from helpers import EXAMPLES

ROOT = helpers.ROOT


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wheels = tmp_path_factory.mktemp("wheels")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation", "-q", "-w", str(wheels)],
        check=True,
    )
    (wheel,) = wheels.glob("tabla_cli-*.whl")
    target = tmp_path_factory.mktemp("site")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
        check=True,
    )
    return target


def test_wheel_ships_the_grammars_and_the_column_schema(installed: Path, tmp_path: Path) -> None:
    shipped = {p.name for p in (installed / "tabla_cli" / "grammars").glob("*.lark")}
    assert {p.name for p in (ROOT / "grammars").glob("*.lark")} <= shipped
    assert (installed / "tabla_cli" / "py.typed").is_file()
    assert (installed / "tabla_cli" / "columns.toml").read_bytes() == (ROOT / "tabla_cli" / "columns.toml").read_bytes()
    env = {**os.environ, "PYTHONPATH": str(installed)}
    tables = subprocess.run(
        [
            sys.executable,
            "-c",
            "import tabla_cli.reports.summaries as s; print(s.__file__, len(s.SUMMARY_COLUMNS['dice']))",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert tables.stdout.split() == [str(installed / "tabla_cli" / "reports" / "summaries.py"), "38"]


def test_installed_tabla_runs_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(installed)}
    where = subprocess.run(
        [sys.executable, "-c", "import tabla_cli, tabla_cli.grammar as g; print(tabla_cli.__file__)"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert where.stdout.strip().startswith(str(installed))
    check = subprocess.run(
        [str(installed / "bin" / "tabla"), "check", str(EXAMPLES), "--jobs", "1"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stderr
    assert f"checked {len(list(EXAMPLES.iterdir()))} files" in check.stderr
    show = subprocess.run(
        [str(installed / "bin" / "tabla"), "show", "4HPwATDgc/ABMA"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert show.returncode == 0 and "XGID=" in show.stdout


def test_wheel_leaves_out_test_only_code(installed: Path, tmp_path: Path) -> None:
    """The reference generator, the match comparison and self-play live in tests/, not in the wheel."""
    shipped = {p.relative_to(installed).as_posix() for p in (installed / "tabla_cli").rglob("*.py")}
    assert {"tabla_cli/pasted.py", "tabla_cli/variants/search.py"} <= shipped
    assert not shipped & {"tabla_cli/compare.py", "tabla_cli/variants/reference.py"}
    env = {**os.environ, "PYTHONPATH": str(installed)}
    for module in ("tabla_cli.compare", "tabla_cli.variants.reference", "match_compare", "selfplay"):
        found = subprocess.run(
            [sys.executable, "-c", f"import importlib.util as u; print(u.find_spec({module!r}) is None)"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        assert found.stdout.strip() == "True", module
    search = subprocess.run(
        [
            sys.executable,
            "-c",
            "from tabla_cli.variants.common import TablaVariant as T; print(hasattr(T, 'random_play'))",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert search.stdout.strip() == "False"
