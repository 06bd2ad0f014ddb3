"""The long rollout checks: exact bear-offs, honest errors, the openings, and the same answer on any Dask cluster.

The exact values come from GNU Backgammon's two-sided bear-off database,
read once by tests/data/rollout/make_bearoffs.py into bearoffs.csv (gnubg
is not imported here). The cluster tests start a scheduler and workers on
127.0.0.1 as tests/test_cluster.py does.
"""

from __future__ import annotations

import csv
import json
import math
import os
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tabla_cli.analysis.rollout import Settings, rollout
from tabla_cli.cli import main
from tabla_cli.show import rollout_question as prepare

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
BEAROFFS = ROOT / "tests" / "data" / "rollout" / "bearoffs.csv"
WAIT = 120.0


def exact_bearoffs() -> list[tuple[str, float]]:
    with BEAROFFS.open(encoding="utf-8") as stream:
        rows = csv.DictReader(line for line in stream if not line.startswith("#"))
        return [(row["position_id"], float(row["equity"])) for row in rows]


def test_bearoffs_are_within_three_errors_of_gnubgs_exact_equity() -> None:
    """At least 95 % within 3 SE + 0.01 (bgsage's net plays the bear-offs, the database is off)."""
    positions = exact_bearoffs()
    jobs = [prepare(position_id, cubeless=True) for position_id, _ in positions]
    results = rollout(jobs, Settings(trials=432, bearoff_db=False), use_cache=False)
    misses = []
    for (position_id, exact), result in zip(positions, results):
        figure = result.lines[0].figures["cubeless_equity"]
        if abs(figure.mean - exact) > 3 * figure.se + 0.01:
            misses.append((position_id, exact, figure))
    assert len(positions) == 100
    assert len(misses) <= 5, misses


def test_the_printed_error_is_the_spread_over_ten_seeds() -> None:
    """Over ten seeds the results spread as the printed error says, within a third of it."""
    positions = [p for p, exact in exact_bearoffs() if abs(exact) < 0.8][:5]
    spreads, errors = [], []
    for position_id in positions:
        job = prepare(position_id, cubeless=True)
        figures = [
            rollout([job], Settings(trials=432, seed=seed, bearoff_db=False), use_cache=False)[0]
            .lines[0]
            .figures["cubeless_equity"]
            for seed in range(1, 11)
        ]
        spreads.append(statistics.variance(f.mean for f in figures))
        errors.append(statistics.fmean(f.se**2 for f in figures))
    ratio = math.sqrt(statistics.fmean(spreads) / statistics.fmean(errors))
    assert 2 / 3 <= ratio <= 4 / 3, ratio


@pytest.mark.parametrize(
    ("dice", "best"),
    [("31", "8/5 6/5"), ("42", "8/4 6/4"), ("53", "8/3 6/3"), ("61", "13/7 8/7"), ("65", "24/13")],
)
def test_the_opening_plays_every_rollout_agrees_on_come_first(dice: str, best: str) -> None:
    found = CliRunner().invoke(
        main,
        ["rollout", "start", dice, "--trials", "288", "--truncate", "5", "--candidates", "3", "--no-cache"],
        catch_exceptions=False,
    )
    assert found.exit_code == 0
    assert found.stdout.splitlines()[3].startswith(f"  1. {best} ")


def test_ctrl_c_prints_the_batches_done_marked_partial(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TABLA_CACHE_DIR": str(tmp_path)}
    args = [
        "rollout",
        "start",
        "--cubeless",
        "--trials",
        "3600",
        "--truncate",
        "5",
        "--threads",
        "2",
        "--format",
        "json",
    ]
    run = subprocess.Popen(
        [sys.executable, "-c", "from tabla_cli.cli import main; main()", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert run.stderr is not None
    first = run.stderr.readline()  # the first progress line: a batch is done
    assert first.startswith(b"rolling out: ")
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=WAIT)
    data = json.loads(out)
    assert run.returncode == 1 and data["partial"] is True
    assert 0 < data["trials"] < data["trials_asked"] == 3600
    assert data["cubeless_se"] > 0
    assert err.decode().endswith("tabla: rollout stopped: the figures are of the trials done (partial)\n")


class Cluster:
    """A ``dask scheduler`` and worker processes on loopback (one thread each, no nanny)."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.file = workdir / "scheduler.json"
        self.env = {**os.environ, "PYTHONPATH": str(ROOT), "TABLA_CACHE_DIR": str(workdir / "cache")}
        self.scheduler = self._start("scheduler", "--host", "127.0.0.1", "--port", "0")
        deadline = time.monotonic() + WAIT
        while not self.file.exists():
            if self.scheduler.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the dask scheduler did not start")
            time.sleep(0.1)
        from distributed import Client

        self.client = Client(scheduler_file=str(self.file), timeout=WAIT, set_as_default=False)
        self.address: str = self.client.scheduler.address
        self.workers: list[subprocess.Popen[bytes]] = []

    def _start(self, kind: str, *args: str) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [sys.executable, "-m", "dask", kind, "--scheduler-file", str(self.file), "--no-dashboard", *args],
            env=self.env,
            cwd=self.workdir,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def workers_up(self, count: int) -> None:
        """Exactly ``count`` workers alive, the scheduler seeing them."""
        self.workers = [w for w in self.workers if w.poll() is None]
        while len(self.workers) > count:
            worker = self.workers.pop()
            worker.kill()
            worker.wait(timeout=WAIT)
        while len(self.workers) < count:
            self.workers.append(self._start("worker", "--nthreads", "1", "--no-nanny", "--host", "127.0.0.1"))
        deadline = time.monotonic() + WAIT
        while len(self.client.nthreads()) != count:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the scheduler does not see {count} workers")
            time.sleep(0.1)

    def close(self) -> None:
        self.client.close()
        for process in [*self.workers, self.scheduler]:
            process.kill()
            process.wait(timeout=WAIT)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    pytest.importorskip("distributed", reason="the cluster tests need the dask extra: pip install '.[dask]'")
    started = Cluster(tmp_path_factory.mktemp("dask"))
    try:
        yield started
    finally:
        started.close()


LISTED = "start 31\n4HPwATDgc/ABMA:cAkAAAAAAAAA\nstart 64\n"
ARGS = ["rollout", "-", "--trials", "288", "--truncate", "3", "--candidates", "2", "--format", "json", "--no-cache"]


def test_one_two_and_four_workers_give_the_local_json_byte_for_byte(cluster: Cluster) -> None:
    here = CliRunner().invoke(main, [*ARGS, "-q"], input=LISTED)
    assert here.exit_code == 0 and len(json.loads(here.stdout)) == 3
    for count in (1, 2, 4):
        cluster.workers_up(count)
        there = CliRunner().invoke(main, [*ARGS, "-q", "--scheduler", cluster.address], input=LISTED)
        assert (there.exit_code, there.stdout) == (0, here.stdout), count


def test_a_worker_killed_mid_rollout_loses_nothing(cluster: Cluster) -> None:
    here = CliRunner().invoke(main, [*ARGS, "-q"], input=LISTED)
    cluster.workers_up(2)
    listing = cluster.workdir / "positions.txt"
    listing.write_text(LISTED, encoding="utf-8")
    args = [*ARGS[:1], str(listing), *ARGS[2:], "-q", "--scheduler", cluster.address]
    run = subprocess.Popen(
        [sys.executable, "-c", "from tabla_cli.cli import main; main()", *args],
        env=cluster.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + WAIT
    busy = 0
    while busy < 2 and run.poll() is None and time.monotonic() < deadline:
        busy = sum(1 for keys in cluster.client.processing().values() if keys)
        time.sleep(0.01)
    cluster.workers[0].send_signal(signal.SIGKILL)
    out, err = run.communicate(timeout=WAIT * 3)
    assert busy == 2, "the run ended before both workers had a batch"
    assert (run.returncode, out.decode()) == (0, here.stdout), err.decode()
