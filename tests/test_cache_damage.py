"""A damaged evaluation cache is never a reason for a run to fail (issue 37, item 2).

A row that cannot be read back is a miss: evaluated again and rewritten, with
one notice; a file SQLite cannot read is set aside and a new one made. The
engine is a stub here (what it answers depends only on the decision), so a
run over a damaged cache must give exactly what a run without a cache gives.
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabla_cli.analysis import cache as analysis_cache
from tabla_cli.board import Player, Position
from tabla_cli.evaluation.types import DecisionInput, DecisionKind, Evaluation

from helpers import EXAMPLES, run

DICE = [(a, b) for a in range(1, 7) for b in range(a, 7)]
DECISIONS = [
    DecisionInput(DecisionKind.CHECKER, Position.start(), Player.ZERO, Player.ZERO, 1, None, away, dice=dice)
    for away in ((0, 0), (3, 5), (7, 2))
    for dice in DICE
]


def _stub(decision: DecisionInput) -> Evaluation:
    low, high = decision.dice or (0, 0)
    cube = (0.1 * low, 0.2 * high, 1.0) if low == high else None
    return Evaluation(0.01 * low, 0.02 * high, f"{low}{high}", 0.0, "stub", rank=1, options=low, cube_equities=cube)


def _engine(decisions: Any, level: str, threads: int, *, luck: bool = True) -> list[Evaluation]:
    return [_stub(d) for d in decisions]


@pytest.fixture
def stub_engine(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The stub in place of bgsage; the list counts the decisions it was asked for, call by call."""
    asked: list[int] = []

    def engine(decisions: Any, level: str, threads: int, *, luck: bool = True) -> list[Evaluation]:
        asked.append(len(decisions))
        return _engine(decisions, level, threads, luck=luck)

    monkeypatch.setattr(analysis_cache, "analyse", engine)
    return asked


EXPECTED = [_stub(d) for d in DECISIONS]


def _damage_rows(path: Path, value: str) -> None:
    with sqlite3.connect(path) as db:
        db.execute("UPDATE evaluations SET value = ?", (value,))


@pytest.mark.parametrize(
    "value",
    [
        "xx",
        "null",
        "[1, 2]",
        '{"equity": 0.1}',
        '{"equity": null, "best_equity": 0.5, "best": "x", "error": null, "source": "s", "extra": 1}',
        '{"equity": "0.1", "best_equity": 0.5, "best": "x", "error": null, "source": "s"}',
        '{"equity": 0.1, "best_equity": 0.5, "best": "x", "error": null, "source": "s", "cube_equities": [1]}',
        "[" * 5000,
    ],
    ids=["not-json", "null", "list", "missing-fields", "unknown-field", "wrong-type", "short-tuple", "deep"],
)
def test_an_unreadable_row_is_a_miss_rewritten(tmp_path: Path, stub_engine: list[int], value: str) -> None:
    path = tmp_path / "analysis.sqlite"
    assert analysis_cache.analyse_cached(DECISIONS, "1ply", path=path) == EXPECTED
    _damage_rows(path, value)
    notices: list[str] = []
    assert analysis_cache.analyse_cached(DECISIONS, "1ply", path=path, notices=notices) == EXPECTED
    assert stub_engine == [len(DECISIONS), len(DECISIONS)]
    assert len(notices) == 1 and "unreadable entries" in notices[0]
    notices.clear()
    assert analysis_cache.analyse_cached(DECISIONS, "1ply", path=path, notices=notices) == EXPECTED
    assert stub_engine == [len(DECISIONS), len(DECISIONS)] and notices == []  # rewritten: all hits now


def test_a_file_that_is_not_a_database_is_set_aside(tmp_path: Path, stub_engine: list[int]) -> None:
    path = tmp_path / "analysis.sqlite"
    path.write_bytes(b"this is not an SQLite file" * 100)
    notices: list[str] = []
    assert analysis_cache.analyse_cached(DECISIONS, "1ply", path=path, notices=notices) == EXPECTED
    assert len(notices) == 1 and "moved to analysis.sqlite.damaged-" in notices[0], notices
    (aside,) = tmp_path.glob("analysis.sqlite.damaged-*")
    assert aside.read_bytes().startswith(b"this is not")
    assert analysis_cache.analyse_cached(DECISIONS, "1ply", path=path) == EXPECTED
    assert stub_engine == [len(DECISIONS)]  # the new file answered the second run


def test_an_unusable_cache_is_bypassed(tmp_path: Path, stub_engine: list[int]) -> None:
    folder = tmp_path / "file-not-folder"
    folder.write_text("x")
    notices: list[str] = []
    assert analysis_cache.analyse_cached(DECISIONS, "1ply", path=folder / "analysis.sqlite", notices=notices) == (
        EXPECTED
    )
    assert len(notices) == 1 and "not used" in notices[0]


def _flip(data: bytes, seed: int, count: int) -> bytes:
    rng = random.Random(seed)
    damaged = bytearray(data)
    for _ in range(count):
        at = rng.randrange(len(damaged))
        damaged[at] = rng.randrange(256) if rng.random() < 0.7 else damaged[at] ^ (1 << rng.randrange(8))
    if rng.random() < 0.2:
        damaged = damaged[: rng.randrange(len(damaged))]
    return bytes(damaged)


def _built(tmp_path: Path) -> bytes:
    path = tmp_path / "clean.sqlite"
    analysis_cache.analyse_cached(DECISIONS, "1ply", path=path)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path.read_bytes()


def _damaged_runs(tmp_path: Path, seed: int, count: int) -> None:
    clean = _built(tmp_path)
    path = tmp_path / f"run-{seed}-{count}" / "analysis.sqlite"
    path.parent.mkdir()
    path.write_bytes(_flip(clean, seed, count))
    for _ in range(2):  # the first run repairs what it can; the second reads the repaired cache
        notices: list[str] = []
        assert analysis_cache.analyse_cached(DECISIONS, "1ply", path=path, notices=notices) == EXPECTED
        assert len(notices) <= 2, notices


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 64))
def test_random_byte_damage_is_never_an_error(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, seed: int, count: int
) -> None:
    monkeypatch.setattr(analysis_cache, "analyse", _engine)
    _damaged_runs(tmp_path_factory.mktemp("damage"), seed, count)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 400))
def test_random_byte_damage_is_never_an_error_many_tries(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, seed: int, count: int
) -> None:
    monkeypatch.setattr(analysis_cache, "analyse", _engine)
    _damaged_runs(tmp_path_factory.mktemp("damage"), seed, count)


def test_analyze_over_a_damaged_cache_warns_once_and_repairs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reproducer cache-corrupt-row.sh: every row's value replaced by 'xx', then analyze again."""
    monkeypatch.setenv("TABLA_CACHE_DIR", str(tmp_path))
    match = str(EXAMPLES / "three-point-match.mat")
    args = ("analyze", match, match, "--level", "1ply", "--no-luck", "--format", "json", "-j", "1")
    code, first, err = run(*args)
    assert code == 0, err
    _damage_rows(tmp_path / "analysis.sqlite", "xx")
    code, again, err = run(*args)
    assert code == 0 and "Traceback" not in err, err
    assert err.count("analyze: warning: analysis cache") == 1, err
    assert json.loads(again) == json.loads(first)
    with sqlite3.connect(tmp_path / "analysis.sqlite") as db:
        values = [value for (value,) in db.execute("SELECT value FROM evaluations")]
    assert values and all(analysis_cache._load(value) is not None for value in values)
