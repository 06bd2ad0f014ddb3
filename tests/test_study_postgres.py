"""The index on a real PostgreSQL server (tests/pg_server.py says where the server comes from):
the same rows and answers as the SQLite index, incremental updates, concurrent writers."""

from __future__ import annotations

import itertools
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tabla_cli.cli import main
from tabla_cli.study.index import index_paths
from tabla_cli.study.query import PositionFilter, find_positions
from tabla_cli.study.store import open_store

pytest.importorskip("psycopg", reason="the PostgreSQL tests need psycopg: pip install '.[test]'")

from pg_server import fresh_database, server  # noqa: E402

DATA = Path(__file__).parent / "data" / "generated"
FILES = ("gnubg_5pt_05100.txt", "gnubg_5pt_05100_002.txt", "gnubg_5pt_05101.mat")
_NAMES = itertools.count(1)


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    with server() as url:
        yield url


@pytest.fixture
def database(postgres: str) -> str:
    return fresh_database(postgres, f"tabla_test_{next(_NAMES)}")


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    folder = tmp_path / "archive"
    folder.mkdir()
    for name in FILES:
        shutil.copy(DATA / name, folder / name)
    return folder


def table_counts(url: str) -> dict[str, int]:
    with open_store(url, create=False) as store:
        return {
            t: store.query(f"SELECT COUNT(*) FROM {t}")[0][0] for t in ("files", "matches", "decisions", "findings")
        }


def test_postgres_index_answers_as_the_sqlite_index(archive: Path, database: str, tmp_path: Path) -> None:
    sqlite = str(tmp_path / "i.sqlite")
    index_paths([str(archive)], sqlite)
    runner = CliRunner()
    result = runner.invoke(main, ["index", str(archive), "--db", database])
    assert result.exit_code == 0, result.stderr
    assert table_counts(database) == table_counts(sqlite)
    flt = PositionFilter(kind="checker", min_error=0.01)
    with open_store(database, create=False) as pg, open_store(sqlite, create=False) as lite:
        assert find_positions(pg, flt) == find_positions(lite, flt)
        assert find_positions(pg, PositionFilter(tags=("race",), sort="order")) == find_positions(
            lite, PositionFilter(tags=("race",), sort="order")
        )
        assert pg.query("SELECT * FROM players ORDER BY name") == lite.query("SELECT * FROM players ORDER BY name")
        for worst in (
            PositionFilter(limit=7),
            PositionFilter(kind="take", sort="unlucky"),
            PositionFilter(sort="luck"),
        ):
            assert find_positions(pg, worst) == find_positions(lite, worst)
        indexes = pg.query("SELECT indexname FROM pg_indexes WHERE tablename = 'decisions'")
        assert {"decisions_player", "decisions_by_error"} <= {name for (name,) in indexes}
    shown = runner.invoke(main, ["positions", "--db", database, "--limit", "3", "--format", "xgid", "-q"])
    assert shown.exit_code == 0 and len(shown.stdout.splitlines()) == 3


def test_postgres_incremental_and_prune(archive: Path, database: str) -> None:
    first = index_paths([str(archive)], database)
    assert first.indexed == len(FILES)
    before = table_counts(database)
    assert index_paths([str(archive)], database).skipped == len(FILES)
    changed = archive / FILES[0]
    changed.write_text(changed.read_text() + "\n")
    again = index_paths([str(archive)], database)
    assert (again.indexed, again.skipped) == (1, len(FILES) - 1)
    assert table_counts(database) == before
    (archive / FILES[1]).unlink()
    assert index_paths([str(archive)], database, prune=True).pruned == 1
    assert table_counts(database)["files"] == len(FILES) - 1


def test_postgres_two_index_runs_at_once(archive: Path, database: str, tmp_path: Path) -> None:
    alone = str(tmp_path / "alone.sqlite")
    index_paths([str(archive)], alone)
    done = []
    threads = [threading.Thread(target=lambda: done.append(index_paths([str(archive)], database))) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(done) == 2
    assert table_counts(database) == table_counts(alone)
    with open_store(database, create=False) as store:
        bad = store.query(
            "SELECT f.path FROM files f LEFT JOIN (SELECT path, COUNT(*) AS n FROM decisions GROUP BY path) d "
            "ON d.path = f.path WHERE COALESCE(d.n, 0) != f.decisions"
        )
    assert bad == []
