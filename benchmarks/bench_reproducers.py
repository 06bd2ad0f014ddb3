"""The fuzz reproducers of issue 37 as whole ``tabla`` processes: CPU, peak memory, and whether each behaves.

    python benchmarks/bench_reproducers.py [--fuzz DIR] [--corpus DIR] [--work DIR] [--no-large] [--repeat N]
                                           [--only WORD ...]

For every reproducer in ``--fuzz`` (default ``../shared/tools/fuzz-turn4``
beside the checkout) and the large inputs its generators make (written into a
temporary folder, or ``--work``), runs the command the reproducer describes
(``check``, ``convert``, ``report``, ``analyze`` or ``cube``) as one fresh
process, as the ``tabla`` script does, with a private ``HOME`` and cache
folder and the package byte-compiled first (as an installed one is), and prints per run: the inputs' size, the child's CPU seconds (user +
system, from ``wait4``), its peak RSS, its exit status, and whether it meets
the issue's terms:

- it behaves as the reproducer's description asks (no traceback on stderr, no
  ``internal-error``, no death by a signal, an exit status of 0, 1 or, where
  an option is refused, 2, and what the case checks besides: a device, FIFO
  or symlink still what it was, three analysed files for three inputs, a cube
  verdict that agrees with its ranking);
- CPU seconds at most 5 per MB of each input (1 s for an input under 200 KB),
  summed over the inputs of the run;
- peak RSS at most 500 MB.

With ``--repeat N`` each case runs N times (set up afresh each time): the
least CPU time (printed with the median) is held to the budget, as load only
adds to it; the peak RSS is the largest, and every run must behave.
``--only`` keeps the cases whose name holds one of the words. Inputs are only
read, outputs go to the work folder. Prints figures and a verdict per run;
the exit status is 1 if any run failed.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import shutil
import signal
import sqlite3
import stat
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_RUN = "from tabla_cli.cli import main; main()"
KB, MB = 1024, 1024 * 1024
SMALL = 200 * KB
CPU_PER_MB = 5.0
CPU_SMALL = 1.0
MEMORY = 500 * MB
SAFETY_AS = 8 * 1024 * MB
"""An address-space cap on every child, so that a bomb fails instead of taking the machine."""
WALL = 120.0
CUBE = "XGID=-A----------------------a-:0:0:1:00:0:0:0:0:10"


@dataclass
class Run:
    """One finished child process."""

    code: int
    cpu: float
    rss: int
    stdout: str
    stderr: str
    timed_out: bool


@dataclass
class Case:
    """One measured command: ``tabla ARGS`` on inputs of ``sizes`` bytes."""

    name: str
    sizes: list[int]
    args: list[str]
    setup: Callable[[Path], None] | None = None
    checks: list[Callable[[Run, Path], str | None]] = field(default_factory=list)
    codes: tuple[int, ...] = (0, 1)
    address_space: int = SAFETY_AS
    cwd_in_work: bool = False


def budget(sizes: list[int]) -> float:
    """The CPU seconds a run may cost: each input's share, by its size in bytes."""
    return sum(CPU_SMALL if size < SMALL else CPU_PER_MB * size / MB for size in sizes)


def run(args: list[str], env: dict[str, str], cwd: Path, address_space: int) -> Run:
    """Run ``tabla ARGS`` in a fresh interpreter and wait for it with ``wait4`` (its own rusage)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        child = subprocess.Popen(
            [sys.executable, "-c", _RUN, *args],
            env=env,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            preexec_fn=limit,
            start_new_session=True,
        )
        deadline = time.monotonic() + WALL
        timed_out = False
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline and not timed_out:
                os.killpg(child.pid, signal.SIGKILL)
                timed_out = True
            time.sleep(0.005)
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Run(
            code=child.returncode,
            cpu=usage.ru_utime + usage.ru_stime,
            rss=usage.ru_maxrss * KB,
            stdout=out.read().decode("utf-8", "replace"),
            stderr=err.read().decode("utf-8", "replace"),
            timed_out=timed_out,
        )


def behaved(case: Case, done: Run, work: Path) -> list[str]:
    """What in ``done`` breaks the issue's terms of behaviour (empty: none)."""
    problems = []
    if done.timed_out:
        problems.append(f"killed after {WALL:.0f} s")
    if done.code not in case.codes:
        problems.append(f"exit {done.code}")
    if "Traceback (most recent call last)" in done.stderr:
        problems.append("traceback")
    if "internal-error" in done.stderr or "internal-error" in done.stdout:
        problems.append("internal-error")
    for check in case.checks:
        problem = check(done, work)
        if problem:
            problems.append(problem)
    return problems


def _node_kept(name: str, kind: Callable[[int], bool], label: str) -> Callable[[Run, Path], str | None]:
    def check(done: Run, work: Path) -> str | None:
        mode = os.lstat(work / name).st_mode
        return None if kind(mode) else f"{name} is no longer a {label}"

    return check


_FIFO_READ: list[bytes] = []


def _fifo_with_reader(work: Path) -> None:
    """Make ``work/pipe.json`` a FIFO with a reader waiting in a thread, as a shell's ``cat pipe.json`` would."""
    os.mkfifo(work / "pipe.json")
    _FIFO_READ.clear()

    def read() -> None:
        with open(work / "pipe.json", "rb") as handle:
            _FIFO_READ.append(handle.read())

    threading.Thread(target=read, daemon=True).start()


def _fifo_read(done: Run, work: Path) -> str | None:
    for _ in range(100):
        if _FIFO_READ:
            break
        time.sleep(0.01)
    return None if _FIFO_READ and _FIFO_READ[0].lstrip().startswith(b"{") else "the FIFO's reader got no JSON"


def _three_outputs(done: Run, work: Path) -> str | None:
    written = sorted(p.name for p in (work / "oc").glob("*.json")) if (work / "oc").is_dir() else []
    return None if len(written) == 3 else f"{len(written)} analysed files for 3 inputs: {written}"


def _cube_agrees(done: Run, work: Path) -> str | None:
    verdict = json.loads(done.stdout)
    proper = str(verdict["proper"])
    if proper.lower().startswith("double") != bool(verdict["double"]):
        return f"proper {proper!r} with double {verdict['double']}"
    return None


def _cube_text_agrees(done: Run, work: Path) -> str | None:
    lines = done.stdout.splitlines()
    first = next((line for line in lines if line.startswith("1. ")), "")
    proper = next((line.split(":", 1)[1].strip() for line in lines if line.startswith("Proper cube action")), "")
    ranked = first[3:].split("  ")[0].strip()
    return None if ranked and proper and proper == ranked else f"proper {proper!r}, ranked first {ranked!r}"


def _reading(name: str, path: Path, commands: tuple[str, ...]) -> list[Case]:
    size = path.stat().st_size
    every = {
        "check": ["check", str(path)],
        "convert": ["convert", "-q", str(path), "--to", "json", "-o", "-"],
        "report": ["report", "-q", "--format", "csv", str(path)],
        "report-table": ["report", "-q", str(path)],
        "analyze": ["analyze", str(path), "--level", "1ply", "--no-cache", "-q"],
    }
    return [Case(f"{name} {command}", [size], every[command]) for command in commands]


def _cache_case(mat: Path, value: str) -> Case:
    def damage(work: Path) -> None:
        db = sqlite3.connect(work / "cache" / "analysis.sqlite")
        with db:
            db.execute("UPDATE evaluations SET value = ?", (value,))
        db.close()

    return Case(
        f"cache row {value!r} analyze",
        [mat.stat().st_size],
        ["analyze", str(mat), "--level", "1ply", "-q"],
        setup=damage,
    )


def _nodes(mat: Path) -> list[Case]:
    cases = []
    sizes = [mat.stat().st_size]
    if os.geteuid() == 0:
        for name, args in (
            ("fakenull", ["convert", str(mat), "--to", "json", "-o", "fakenull", "--force"]),
            ("fake.csv", ["report", str(mat), "-o", "fake.csv", "--force", "-q"]),
        ):

            def device(work: Path, name: str = name) -> None:
                os.mknod(work / name, 0o666 | stat.S_IFCHR, os.makedev(1, 3))

            cases.append(
                Case(
                    f"-o device {name} --force",
                    sizes,
                    args,
                    setup=device,
                    checks=[_node_kept(name, stat.S_ISCHR, "device")],
                    cwd_in_work=True,
                )
            )
    cases.append(
        Case(
            "-o FIFO --force",
            sizes,
            ["convert", str(mat), "-o", "pipe.json", "--force"],
            setup=_fifo_with_reader,
            checks=[_node_kept("pipe.json", stat.S_ISFIFO, "FIFO"), _fifo_read],
            cwd_in_work=True,
        )
    )
    cases.append(
        Case(
            "-o symlink to fd 1 --force",
            sizes,
            ["convert", str(mat), "-o", "out.json", "--force"],
            setup=lambda work: os.symlink("/proc/self/fd/1", work / "out.json"),
            checks=[_node_kept("out.json", stat.S_ISLNK, "symlink")],
            cwd_in_work=True,
        )
    )
    return cases


def _collision(mat: Path, xg: Path) -> Case:
    def inputs(work: Path) -> None:
        for folder, source, name in (("c1", mat, "a.mat"), ("c2", mat, "a.mat"), ("c3", xg, "a.mat-2.xg")):
            (work / folder).mkdir()
            shutil.copyfile(source, work / folder / name)

    return Case(
        "--out-dir name collision analyze",
        [mat.stat().st_size, mat.stat().st_size, xg.stat().st_size],
        ["analyze", "c1/a.mat", "c2/a.mat", "c3/a.mat-2.xg", "--out-dir", "oc", "--level", "1ply", "--force", "-q"],
        setup=inputs,
        checks=[_three_outputs],
        codes=(0,),
        cwd_in_work=True,
    )


def cases(fuzz: Path, corpus: Path, large: Path | None) -> list[Case]:
    """Every measured command, in the order of the reproducers' description."""
    mat = corpus / "mat" / "bglab-lasse-match6428750.txt"
    xg = corpus / "xg" / "gammonview-B4_SrGcsKAQmoTyHlgJCbM.xg"
    every = ("check", "convert", "report", "analyze")
    found = [
        *_reading("bigint-json.bgf", fuzz / "bgf-overflow-bigint-json.bgf", every),
        *_reading("bigint-smile.bgf", fuzz / "bgf-overflow-bigint-smile.bgf", every),
        *_reading("deep-header.bgf", fuzz / "bgf-header-deep-nesting.bgf", every),
        *_reading("emptylists-6M.bgf", fuzz / "bgf-smile-emptylists-6M.bgf", ("check", "report")),
    ]
    if large is not None:
        for count in (30_000_000, 120_000_000):
            path = large / f"bomb-{count // 1_000_000}M.bgf"
            found += _reading(path.name, path, ("check", "report"))
        for name in ("xg-manymoves.xg", "xg-gameheaders.xg"):
            found += _reading(name, large / name, ("check", "convert", "report"))
    found += [_cache_case(mat, value) for value in ("xx", "null", "[]", '{"bogus": 1}')]
    found += _nodes(mat)
    found.append(
        Case(
            "--threads 400 under ulimit -v 4000000 analyze",
            [mat.stat().st_size],
            ["analyze", str(mat), "--level", "1ply", "--no-cache", "-q", "--threads", "400"],
            codes=(0, 1, 2),
            address_space=4_000_000 * KB,
        )
    )
    found.append(_collision(mat, xg))
    found.append(
        Case("cube tie text", [len(CUBE)], ["cube", "--level", "1ply", "--", CUBE], checks=[_cube_text_agrees])
    )
    found.append(
        Case(
            "cube tie json",
            [len(CUBE)],
            ["cube", "--level", "1ply", "--format", "json", "--", CUBE],
            checks=[_cube_agrees],
        )
    )
    for case in found:
        if case.name.startswith("cache row"):
            case.setup = _with_built_cache(mat, case.setup)
    return found


def _with_built_cache(mat: Path, then: Callable[[Path], None] | None) -> Callable[[Path], None]:
    """Set-up that first fills the case's cache with one (unmeasured) analysis of ``mat``."""

    def setup(work: Path) -> None:
        env = _environment(work)
        done = run(["analyze", str(mat), "--level", "1ply", "-q"], env, work, SAFETY_AS)
        if done.code != 0:
            raise RuntimeError(f"building the cache failed: {done.stderr}")
        if then is not None:
            then(work)

    return setup


def generate(fuzz: Path, corpus: Path, into: Path) -> None:
    """The generators' large inputs, unless already there."""
    for count in (30_000_000, 120_000_000):
        path = into / f"bomb-{count // 1_000_000}M.bgf"
        if not path.exists():
            subprocess.run([sys.executable, str(fuzz / "mk-bgf-bomb.py"), str(count), str(path)], check=True)
    if not (into / "xg-gameheaders.xg").exists():
        xg = corpus / "xg" / "gammonview-B4_SrGcsKAQmoTyHlgJCbM.xg"
        subprocess.run([sys.executable, str(fuzz / "mk-xg-amplified.py"), str(xg), str(into)], check=True)


def _environment(work: Path) -> dict[str, str]:
    """A private home and cache under ``work``, and this checkout first on the path."""
    home = work / "home"
    env = {key: value for key, value in os.environ.items() if not key.startswith("XDG_") and key != "TABLA_CACHE_DIR"}
    env.update(
        HOME=str(home),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_CONFIG_HOME=str(home / ".config"),
        MPLCONFIGDIR=str(home / ".config" / "matplotlib"),
        TABLA_CACHE_DIR=str(work / "cache"),
        PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    )
    return env


def _default(relative: str) -> Path:
    for base in (ROOT.parent, ROOT.parents[1]):
        if (base / "shared").is_dir():
            return base / "shared" / relative
    return ROOT.parent / "shared" / relative


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fuzz", type=Path, default=_default("tools/fuzz-turn4"), help="the reproducers' folder")
    parser.add_argument("--corpus", type=Path, default=_default("corpus"), help="the public corpus (its mat/, xg/)")
    parser.add_argument("--work", type=Path, default=None, help="keep the generated inputs here (default: a temp dir)")
    parser.add_argument("--no-large", action="store_true", help="leave out the generators' large inputs")
    parser.add_argument("--repeat", type=int, default=1, help="runs per case: the least CPU is held to the budget")
    parser.add_argument("--only", nargs="+", default=[], metavar="WORD", help="only cases whose name holds a WORD")
    args = parser.parse_args()
    compileall.compile_dir(
        ROOT / "tabla_cli", quiet=1
    )  # as an installed package is, whatever PYTHONDONTWRITEBYTECODE says
    with tempfile.TemporaryDirectory(prefix="tabla-repro-") as scratch:
        large = None if args.no_large else (args.work or Path(scratch) / "large")
        if large is not None:
            large.mkdir(parents=True, exist_ok=True)
            generate(args.fuzz, args.corpus, large)
        chosen = [
            c for c in cases(args.fuzz, args.corpus, large) if not args.only or any(w in c.name for w in args.only)
        ]
        load = os.getloadavg()
        print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
        header = (
            f"{'case':<46} {'size':>10} {'CPU s':>6} {'median':>6} {'budget':>6} {'RSS MB':>6} {'exit':>4}  verdict"
        )
        print(header)
        print("-" * len(header))
        failed = 0
        for number, case in enumerate(chosen):
            runs: list[Run] = []
            problems: list[str] = []
            for attempt in range(args.repeat):
                work = Path(scratch) / f"case{number}-{attempt}"
                work.mkdir()
                if case.setup is not None:
                    case.setup(work)
                done = run(case.args, _environment(work), work if case.cwd_in_work else ROOT, case.address_space)
                problems += [p for p in behaved(case, done, work) if p not in problems]
                runs.append(done)
                shutil.rmtree(work, ignore_errors=True)
            cpu = sorted(done.cpu for done in runs)
            rss = max(done.rss for done in runs)
            if cpu[0] > budget(case.sizes):
                problems.append("CPU over budget")
            if rss > MEMORY:
                problems.append("memory over budget")
            failed += bool(problems)
            verdict = "pass" if not problems else "FAIL: " + ", ".join(problems)
            print(
                f"{case.name:<46} {sum(case.sizes):>10,} {cpu[0]:>6.2f} {statistics.median(cpu):>6.2f}"
                f" {budget(case.sizes):>6.2f} {rss / MB:>6.0f} {runs[-1].code:>4}  {verdict}",
                flush=True,
            )
        load = os.getloadavg()
        print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
        print(f"{len(chosen) - failed} of {len(chosen)} pass")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
