"""``analyze``: engine threads within what the machine has, unique ``--out-dir`` names (issue 37, items 5-6)."""

from __future__ import annotations

import json
import resource
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tabla_cli.analysis import threads
from tabla_cli.evaluation.types import Evaluation

from helpers import DATA, EXAMPLES, run

MATCH = EXAMPLES / "three-point-match.mat"
XG = DATA / "xg" / "gammonview-B4_SrGcsKAQmoTyHlgJCbM.xg"


@pytest.fixture
def stub_engine(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No bgsage: every decision gets the same made-up evaluation (the files, not the figures, are tested)."""

    def engine(decisions: Any, level: str, count: int, *, luck: bool = True) -> list[Evaluation]:
        return [Evaluation(0.0, 0.0, "x", 0.0, "bgsage 1ply") for _ in decisions]

    monkeypatch.setattr("tabla_cli.analysis.cache.analyse", engine)
    monkeypatch.setenv("TABLA_CACHE_DIR", str(tmp_path / "cache"))


def test_more_threads_than_cores_is_a_usage_error() -> None:
    """The reproducer analyze-threads-abort.sh asked for 400 threads: refused before the engine starts."""
    wanted = threads.cores() + 1
    code, out, err = run("analyze", str(MATCH), "--level", "1ply", "--no-cache", "-q", "--threads", str(wanted))
    assert code == 2 and out == "", err
    assert f"--threads {wanted}: this process may use {threads.cores()} cores" in err


def test_threads_the_address_space_has_no_room_for_are_a_clean_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(threads, "thread_room", lambda: 0)
    code, out, err = run("analyze", str(MATCH), "--level", "1ply", "--no-cache", "-q", "--threads", "1")
    assert code == 1 and out == "" and "Traceback" not in err
    assert "address-space limit" in err and "--threads" in err


def test_every_core_is_what_the_address_space_has_room_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(threads, "thread_room", lambda: 1)
    assert threads.engine_threads(0) == 1
    monkeypatch.setattr(threads, "thread_room", lambda: None)
    assert threads.engine_threads(0) == threads.cores()
    monkeypatch.setattr(threads, "thread_room", lambda: 0)
    with pytest.raises(threads.EngineThreadsError):
        threads.engine_threads(0)


def test_thread_room_reads_the_limit() -> None:
    """In a child with ``ulimit -v`` of 1 GiB: room for some threads, far fewer than 1 GiB / 1 MiB."""
    code = "from tabla_cli.analysis.threads import thread_room; print(thread_room())"

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, resource.getrlimit(resource.RLIMIT_AS)[1]))

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, preexec_fn=limit, check=True)
    assert 0 < int(done.stdout) < 16
    assert threads.thread_room() is None or threads.thread_room() == threads.thread_room()


def test_out_dir_names_are_unique_over_the_run(
    tmp_path: Path, stub_engine: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reproducer analyze-outdir-collision.sh: c1/a.mat, c2/a.mat and c3/a.mat-2.xg give three files."""
    monkeypatch.chdir(tmp_path)
    for folder, source, name in (("c1", MATCH, "a.mat"), ("c2", MATCH, "a.mat"), ("c3", XG, "a.mat-2.xg")):
        (tmp_path / folder).mkdir()
        shutil.copy(source, tmp_path / folder / name)
    args = ("analyze", "c1/a.mat", "c2/a.mat", "c3/a.mat-2.xg", "--out-dir", "oc", "--level", "1ply", "-j", "1")
    code, _, err = run(*args, "--force")
    assert code == 0, err
    written = sorted(p.name for p in (tmp_path / "oc").iterdir())
    assert written == ["a.mat-2.json", "a.mat-3.json", "a.mat.json"]
    assert "wrote 3 analysed JSON files to oc" in err
    assert json.loads((tmp_path / "oc" / "a.mat-2.json").read_text())["matches"][0]["source"]["format"] == "xg"
    code, _, err = run(*args)
    assert code == 1 and "not overwriting" in err  # without --force: refused before anything runs


def test_the_table_and_an_analysis_may_not_share_a_name(tmp_path: Path, stub_engine: None) -> None:
    out = tmp_path / "oc"
    code, _, err = run("analyze", str(MATCH), "--out-dir", str(out), "-o", str(out / "three-point-match.json"))
    assert code == 2 and "also where --out-dir writes" in err, err
