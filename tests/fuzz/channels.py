"""Running ``tabla`` with its standard streams closed, full or a broken pipe: shared by ``test_channels.py``
and the fuzz batch (``run_batch.py --channels``).

The child runs this checkout's code (``python -c``, this checkout first on
``PYTHONPATH``). What a run must do: no traceback; when output it had to
write (what the same run writes with every stream in order) was lost, exit 1,
with one line saying so on standard error unless standard output was a
broken pipe; when nothing was lost, the exit status of the run in order.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[2]
MATCH = "examples/three-point-match.mat"
STATES = ("stdout closed", "stdout full", "stdout broken", "stderr closed", "stderr full", "stderr broken")
"""``<stream> <state>``: the bad states of the output streams a batch tries."""


@dataclass(frozen=True)
class Run:
    code: int
    out: bytes
    err: str


def run(
    args: list[str], *, stdin: str = "file", stdout: str = "pipe", stderr: str = "pipe", tmp: Path | None = None
) -> Run:
    """Run ``tabla args`` with each stream ``pipe`` (captured), ``closed``, ``full`` (/dev/full) or
    ``broken`` (a pipe nobody reads); standard input ``file`` (the match), ``closed`` or ``write-only``."""
    closing: list[int] = []
    opened: list[IO[Any]] = []
    streams: dict[str, Any] = {}
    for name, state, fd in (("stdout", stdout, 1), ("stderr", stderr, 2)):
        if state == "pipe":
            streams[name] = subprocess.PIPE
        elif state == "closed":
            streams[name] = subprocess.DEVNULL
            closing.append(fd)
        elif state == "full":
            opened.append(open("/dev/full", "wb"))  # noqa: SIM115 - closed below
            streams[name] = opened[-1]
        else:
            read, write = os.pipe()
            os.close(read)
            streams[name] = write
    if stdin == "closed":
        streams["stdin"] = subprocess.DEVNULL
        closing.append(0)
    elif stdin == "write-only":
        assert tmp is not None
        opened.append(open(tmp / "write-only", "wb"))  # noqa: SIM115 - closed below
        streams["stdin"] = opened[-1]
    else:
        opened.append(open(ROOT / MATCH, "rb"))  # noqa: SIM115 - closed below
        streams["stdin"] = opened[-1]

    def close_them() -> None:
        for fd in closing:
            os.close(fd)

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    try:
        proc = subprocess.run(
            [sys.executable, "-c", "from tabla_cli.cli import main; main()", *args],
            cwd=ROOT,
            env=env,
            preexec_fn=close_them if closing else None,  # noqa: PLW1509
            timeout=300,
            **streams,
        )
    finally:
        for handle in opened:
            handle.close()
        for name in ("stdout", "stderr"):
            if isinstance(streams[name], int) and streams[name] > 2:
                os.close(streams[name])
    return Run(proc.returncode, proc.stdout or b"", (proc.stderr or b"").decode("utf-8", "replace"))


_NORMAL: dict[tuple[str, ...], Run] = {}


def channel_problem(args: list[str], state: str, tmp: Path) -> str:
    """What is wrong with ``tabla args`` run with ``state`` (one of :data:`STATES`); empty when nothing is."""
    key = tuple(args)
    if key not in _NORMAL:
        _NORMAL[key] = run(args, tmp=tmp)
    normal = _NORMAL[key]
    stream, how = state.split()
    got = run(args, tmp=tmp, **{stream: how})
    if "Traceback" in got.err:
        return "a traceback:\n" + got.err[-3000:]
    lost = normal.out if stream == "stdout" else normal.err.strip()
    if lost and got.code != 1:
        return f"exit {got.code} though what it wrote to {stream} was lost"
    if not lost and got.code != normal.code:
        return f"exit {got.code}, but {normal.code} with every stream in order"
    if (
        stream == "stdout"
        and lost
        and how != "broken"
        and sum("output lost" in line for line in got.err.splitlines()) != 1
    ):
        return "no one line saying the output was lost:\n" + got.err[-2000:]
    return ""
