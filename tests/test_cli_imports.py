"""Commands that need no pandas load none: ``tabla``'s start-up time is the user's time.

Each command runs in a fresh interpreter (``main(args)`` in-process there),
which then reports its exit status and which of the heavy packages got
loaded: pandas, pyarrow and numpy (the report machinery), bgsage (the
analysis engine) and matplotlib (the plots). A report loads pandas (and
pandas loads pyarrow), but the engine only when it analyses and matplotlib
only when it draws.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import helpers

ROOT = helpers.ROOT
DATA = helpers.DATA
MATCH = ROOT / "examples" / "three-point-match.mat"
HEAVY = ("pandas", "pyarrow", "numpy", "bgsage", "matplotlib")

_PROBE = f"""
import json, sys
from tabla_cli.cli import main
try:
    main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
else:
    code = 0
sys.stdout.flush()
print(json.dumps({{"code": code, "loaded": [m for m in {HEAVY!r} if m in sys.modules]}}), file=sys.stderr)
"""


def loaded_by(*args: str) -> tuple[int, list[str], str]:
    """Run ``tabla ARGS`` in a fresh interpreter: (exit status, heavy modules loaded, what it wrote)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    *rest, last = done.stderr.strip().splitlines() or [""]
    assert last.startswith("{"), done.stderr
    probe = json.loads(last)
    return probe["code"], probe["loaded"], done.stdout + "".join(rest)


@pytest.mark.parametrize(
    ("args", "status"),
    [
        (["--help"], 0),
        (["--version"], 0),
        (["check", "--jobs", "1", str(MATCH)], 0),
        (["check", "--jobs", "1", "--format", "json", str(DATA / "corpus" / "mat")], 1),
        (["show", "start"], 0),
        (["show", "--format", "json", "4HPwATDgc/ABMA:cAkAAAAAAAAA"], 0),
        (["plays", "start", "31"], 0),
        (["convert", "-q", str(MATCH), "--to", "json", "-o", "-"], 0),
        (["convert", "-q", str(MATCH), "--to", "sgf", "-o", "-"], 0),
    ],
    ids=lambda value: " ".join(a for a in value if "/" not in a) if isinstance(value, list) else str(value),
)
def test_command_loads_no_heavy_package(args: list[str], status: int) -> None:
    code, loaded, out = loaded_by(*args)
    assert code == status, out
    assert out
    assert loaded == []


def test_the_probe_sees_a_heavy_package_when_a_command_loads_one() -> None:
    code, loaded, out = loaded_by("report", "--format", "csv", str(MATCH), "-q")
    assert code == 0
    assert out.startswith("player,")
    assert {"pandas", "numpy"} <= set(loaded)


@pytest.mark.parametrize(
    ("fmt", "source"),
    [
        ("csv", MATCH),
        ("table", MATCH),
        ("json", MATCH),
        ("csv", DATA / "xg" / "gammonview-5nqfGw9bWG3deTaU.xg"),
        ("csv", DATA / "corpus" / "sgf" / "gnubg-bglab-lasse-match8463624.sgf"),
    ],
    ids=lambda value: value.name if isinstance(value, Path) else str(value),
)
def test_a_report_without_analyze_or_plots_loads_neither_the_engine_nor_matplotlib(fmt: str, source: Path) -> None:
    """The skill columns of a file with recorded analysis are read from the file: no bgsage (the
    engine's modules load it), and no matplotlib without a plot to draw."""
    code, loaded, out = loaded_by("report", "--format", fmt, str(source), "-q")
    assert code == 0, out
    assert out.strip()
    assert "pandas" in loaded
    assert "bgsage" not in loaded
    assert "matplotlib" not in loaded


def test_a_report_loads_matplotlib_to_draw_plots(tmp_path: Path) -> None:
    code, loaded, out = loaded_by("report", "--format", "csv", str(MATCH), "-q", "--plots", str(tmp_path / "plots"))
    assert code == 0, out
    assert "matplotlib" in loaded
    assert "bgsage" not in loaded
    assert list((tmp_path / "plots").glob("*.png"))


def test_a_report_with_analyze_loads_the_engine() -> None:
    code, loaded, out = loaded_by("report", "--format", "csv", str(MATCH), "-q", "--analyze", "1ply", "--no-cache")
    assert code == 0, out
    assert "bgsage" in loaded


def test_the_cache_loads_the_engine_only_to_analyse(tmp_path: Path) -> None:
    """Importing the evaluation cache (as the readers of recorded analysis do) loads no bgsage; a run
    that analyses does, and finds the engine the cache hands its misses to."""
    probe = (
        "import sys\n"
        "from pathlib import Path\n"
        "from tabla_cli.analysis import cache\n"
        "from tabla_cli.board import Player, Position\n"
        "from tabla_cli.evaluation.types import DecisionInput, DecisionKind\n"
        "engine = ('bgsage', 'bgbot_cpp', 'tabla_cli.analysis.engine')\n"
        "print([m for m in engine if m in sys.modules])\n"
        "d = DecisionInput(DecisionKind.CHECKER, Position.start(), Player.ZERO, Player.ZERO, 1, None, (7, 5),"
        " dice=(3, 1))\n"
        "print(len(cache.analyse_cached([d], '1ply', luck=False, path=Path(sys.argv[1]))))\n"
        "print([m for m in engine if m in sys.modules])\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path / "analysis.sqlite")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["[]", "1", "['bgsage', 'bgbot_cpp', 'tabla_cli.analysis.engine']"]


def test_analysing_a_file_loads_no_pandas() -> None:
    """A file's decisions and their evaluations need no frame: a worker of ``analyze --jobs`` or a
    cluster loads the engine, not pandas (the command loads it for the tables, after the engine ran)."""
    probe = (
        "import sys\n"
        "from tabla_cli.analysis.decisions import AnalysisOptions\n"
        "from tabla_cli.analysis.file_analysis import analyse_source\n"
        "result = analyse_source(sys.argv[1], AnalysisOptions(level='1ply', cache=False))\n"
        "print(len(result.rows), [m for m in ('pandas', 'pyarrow', 'numpy') if m in sys.modules])\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run(
        [sys.executable, "-c", probe, str(MATCH)], env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    rows, loaded = done.stdout.split(" ", 1)
    assert int(rows) > 0
    assert loaded.strip() == "[]"


@pytest.mark.parametrize("fmt", ["table", "csv", "json", "jsonl", "markdown"])
def test_analyze_writes_its_text_tables_without_pandas(fmt: str) -> None:
    """``analyze``'s tables are plain Python: a one-file analysis pays for the engine, not for pandas
    (half a second of start-up), the report's frames or the package metadata."""
    args = ["analyze", str(MATCH), "--level", "1ply", "--no-cache", "--no-luck", "--format", fmt, "-q", "-j", "1"]
    code, loaded, out = loaded_by(*args)
    assert code == 0, out
    assert "Petar" in out
    assert loaded == ["bgsage"]


def test_analyze_writes_parquet_with_pandas(tmp_path: Path) -> None:
    target = tmp_path / "skill.parquet"
    code, loaded, out = loaded_by("analyze", str(MATCH), "--level", "1ply", "--no-cache", "-o", str(target), "-q")
    assert code == 0, out
    assert {"pandas", "pyarrow", "bgsage"} <= set(loaded)
    assert target.read_bytes().startswith(b"PAR1")
