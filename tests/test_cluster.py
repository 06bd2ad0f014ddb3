"""``--scheduler``: check, report and analyze on a real Dask cluster give the output of a local ``--jobs`` run.

A scheduler and two workers run as separate processes on 127.0.0.1 (one
thread each, no nanny, no dashboard) for the whole module, with an
evaluation cache of their own (TABLA_CACHE_DIR); every process is killed at
teardown. The tests that kill a worker start a new one afterwards.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the cluster tests need the dask extra: pip install '.[dask]'")

from click.testing import CliRunner, Result
from distributed import Client

from tabla_cli.cli import main
from tabla_cli.cluster import ClusterError, check_scheduler, map_on_cluster

import helpers

pytestmark = pytest.mark.slow  # a scheduler and worker processes per module, workers killed and restarted

ROOT = helpers.ROOT
CORPUS = ROOT / "tests" / "data" / "corpus"
REPORTS = str(ROOT / "tests" / "data" / "report" / "matches")
THREE_POINT = str(ROOT / "examples" / "three-point-match.mat")
SMALL = [str(p) for p in sorted(CORPUS.glob("mat/*"), key=lambda p: (p.stat().st_size, p.name))[:10]]
"""The 10 smallest transcripts of the corpus (the test runs stay short on a busy machine)."""
FLAWED = [
    str(CORPUS / "mat" / "gammonview-5nqfGw9bWG3deTaU.mat"),
    *(str(p) for p in sorted(CORPUS.glob("ids/*")) if not p.name.startswith(("xg-", "bgblitz-"))),
    REPORTS,
]
"""An illegal play, files that are no transcripts, syntax errors."""
WAIT = 90.0


class Cluster:
    """A ``dask scheduler`` and worker processes on loopback, for one test module."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.file = workdir / "scheduler.json"
        self.cache = workdir / "cache"
        self.env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")]),
            "TABLA_CACHE_DIR": str(self.cache),
        }
        self.scheduler = self._start("scheduler", "--host", "127.0.0.1", "--port", "0")
        deadline = time.monotonic() + WAIT
        while not self.file.exists():
            if self.scheduler.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the dask scheduler did not start")
            time.sleep(0.1)
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

    def ensure_workers(self, count: int = 2) -> None:
        """Start workers until ``count`` are alive, and wait for the scheduler to see them."""
        self.workers = [w for w in self.workers if w.poll() is None]
        while len(self.workers) < count:
            self.workers.append(self._start("worker", "--nthreads", "1", "--no-nanny", "--host", "127.0.0.1"))
        self.client.wait_for_workers(count, timeout=WAIT)

    def close(self) -> None:
        self.client.close()
        for process in [*self.workers, self.scheduler]:
            process.kill()
            process.wait(timeout=WAIT)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    started = Cluster(tmp_path_factory.mktemp("dask"))
    try:
        started.ensure_workers()
        yield started
    finally:
        started.close()


@pytest.fixture
def workers(cluster: Cluster) -> str:
    """The scheduler address, with two workers up."""
    cluster.ensure_workers()
    return cluster.address


def tabla(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def same_output(args: list[str], scheduler: str) -> Result:
    """Run ``tabla ARGS`` with ``--jobs 2`` and on ``scheduler``; assert the same exit, stdout and stderr."""
    here = tabla(*args, "--jobs", "2")
    there = tabla(*args, "--scheduler", scheduler)
    assert there.exception is None or isinstance(there.exception, SystemExit), there.exception
    assert (there.exit_code, there.stdout, there.stderr) == (here.exit_code, here.stdout, here.stderr)
    return there


def test_check_text_and_json_are_identical(workers: str) -> None:
    found = same_output(["check", "-q", "--notes", *SMALL, *FLAWED, "missing.mat"], workers)
    assert found.exit_code == 1
    assert "missing.mat: error[unreadable-file]: No such file or directory" in found.stderr
    assert "error[illegal-play]" in found.stderr
    assert found.stderr.count("\n") > 10
    same_output(["check", "-q", "--format", "jsonl", *SMALL, *FLAWED], workers)


def test_report_tables_are_identical(workers: str) -> None:
    found = same_output(["report", "-q", "--by", "match", "--format", "csv", *SMALL, *FLAWED], workers)
    assert found.stdout.count("\n") > 10
    same_output(["report", "-q", "--by", "errors", "--format", "json", *FLAWED, "missing.mat"], workers)


def test_analyze_is_identical(cluster: Cluster, workers: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLA_CACHE_DIR", str(cluster.cache))
    args = ["analyze", THREE_POINT, "missing.mat", "--level", "1ply", "--no-luck", "--format", "csv"]
    found = same_output([*args, "-q"], workers)
    assert found.exit_code == 1
    assert found.stdout.startswith("file,match,player")
    assert found.stdout.count("three-point-match.mat,1,") == 2
    loud = tabla(*args, "--scheduler", workers)
    said = "".join(line for line in loud.stderr.splitlines(keepends=True) if not line.startswith("analysing: "))
    assert said.startswith("missing.mat: error[unreadable-file]: No such file or directory\nanalyzed 2 files")


def test_relative_paths_are_read_from_the_clients_directory(workers: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT / "tests" / "data")
    found = same_output(["check", "-q", "report/matches", "corpus/ids/xg-01_checkerPosition_EN.txt"], workers)
    assert found.stderr.startswith("report/matches/")


def test_a_file_no_worker_can_open_is_a_finding(workers: str) -> None:
    found = tabla("check", "-q", "--scheduler", workers, "nosuch://host/a.mat", *SMALL)
    assert found.exit_code == 1
    assert found.stderr.startswith("nosuch://host/a.mat: error[unreadable-file]: cannot be opened here:")
    assert found.stderr.count("error[") == 1


def test_killing_a_worker_mid_run_changes_nothing(cluster: Cluster, workers: str) -> None:
    args = ["check", "-q", "--format", "jsonl", *SMALL * 10, *FLAWED]
    expected = tabla(*args, "--jobs", "2")
    run = subprocess.Popen(
        [sys.executable, "-c", "from tabla_cli.cli import main; main()", *args, "--scheduler", workers],
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
    out, err = run.communicate(timeout=WAIT)
    assert busy == 2, "the run ended before both workers had a task"
    assert (run.returncode, out.decode(), err.decode()) == (expected.exit_code, expected.stdout, expected.stderr)
    assert len(cluster.client.nthreads()) == 1


def test_a_task_lost_with_its_worker_runs_again(cluster: Cluster, workers: str) -> None:
    import cluster_faults

    flag = str(cluster.workdir / "died")
    items = [(n, flag) for n in range(20)]
    assert list(map_on_cluster(cluster_faults.die_once, items, workers)) == [n * n for n in range(20)]
    assert Path(flag).exists()


def test_an_item_that_raises_becomes_its_on_error_result(workers: str) -> None:
    done: list[None] = []
    got = list(
        map_on_cluster(
            int,
            ["1", "x", "3"],
            workers,
            on_error=lambda item, message: -len(message),
            progress=lambda: done.append(None),
        )
    )
    assert got == [1, -len("ValueError: invalid literal for int() with base 10: 'x'"), 3]
    assert len(done) == 3
    with pytest.raises(ClusterError, match="^x: ValueError"):
        list(map_on_cluster(int, ["1", "x"], workers))


def test_a_local_cluster_gives_the_same_output() -> None:
    same_output(["check", "-q", *SMALL[:5], *FLAWED], "local:1")


@pytest.mark.parametrize("address", ["local:0", "local:two", "nowhere"])
def test_a_malformed_address_is_a_usage_error(address: str) -> None:
    found = tabla("check", "--scheduler", address, REPORTS)
    assert found.exit_code == 2
    assert "--scheduler" in found.stderr


def test_without_dask_the_option_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    for command in ("check", "report", "analyze"):
        found = tabla(command, "--scheduler", "local", REPORTS)
        assert found.exit_code == 2
        assert "pip install 'tabla-cli[dask]'" in found.stderr
    with pytest.raises(ValueError, match="tabla-cli"):
        check_scheduler("tcp://127.0.0.1:8786")


def test_an_unreachable_scheduler_is_an_error_not_a_traceback() -> None:
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        found = tabla("check", "-q", "--scheduler", "tcp://127.0.0.1:9", REPORTS)
    assert found.exit_code == 1
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in found.stderr


def test_a_failed_task_gives_the_findings_of_a_local_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    from tabla_cli.analyse import _failed
    from tabla_cli.analysis.file_analysis import FileAnalysis
    from tabla_cli.check import check_file, failed_check
    from tabla_cli.reports.reading import failed_rows, file_rows
    from tabla_cli.source import Source

    def boom(*args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr("tabla_cli.pipeline.replay", boom)
    local = check_file(THREE_POINT)
    assert [f.code for f in local.findings] == ["internal-error"]
    assert failed_check(THREE_POINT, "RuntimeError: boom") == local
    rows = failed_rows(THREE_POINT, "RuntimeError: boom")
    assert rows == file_rows(THREE_POINT)
    assert _failed(Source(THREE_POINT), "RuntimeError: boom") == FileAnalysis(local, [])
