"""What every mutant must satisfy: shared by the tests, the batch runner and the atheris targets."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from types import FrameType

from tabla_cli.check import check_file, check_text
from tabla_cli.errors import TablaError
from tabla_cli.findings import CODES, Code
from tabla_cli.pipeline import ReadOptions
from tabla_cli.reader import decode, read_text_matches
from tabla_cli.source import Source

BINARY_SUFFIXES = (".xg", ".bgf", ".ogxm")

HANG_SECONDS = 60
"""A mutant is at most a few hundred KB: a check taking this long is a hang, not a slow machine."""


class Hang(Exception):
    """A check that did not answer within :data:`HANG_SECONDS`."""


@contextmanager
def hang_guard(seconds: int = HANG_SECONDS) -> Iterator[None]:
    """Raise :class:`Hang` in the block after ``seconds`` (checked between Python bytecodes)."""

    def stop(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"no answer after {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def assert_checks_cleanly(data: bytes, path: str, guard: bool = True) -> None:
    """Checking ``data`` as the file ``path`` returns a report and never raises.

    Every finding has a known code, none is ``internal-error`` (an exception
    the check caught), and each has a location in ``path`` (tabla JSON
    locates findings in the transcript its ``source`` names); reading alone
    raises nothing but :class:`TablaError`. A binary file (``.xg``, ``.bgf``)
    is checked from its bytes as ``tabla check`` checks it. With ``guard``, a
    check that takes :data:`HANG_SECONDS` fails (libFuzzer has its own
    ``-timeout``).
    """
    if path.endswith(BINARY_SUFFIXES):
        _assert_binary_checks_cleanly(data, path, guard)
        return
    text = decode(data)
    with hang_guard() if guard else nullcontext():
        report = check_text(text, path)
        try:
            matches = list(read_text_matches(text, path, lambda error: None))
        except TablaError:
            matches = []
    sources = {path} | {match.location.path for match in matches}
    for finding in report.findings:
        assert finding.code in CODES, finding
        assert finding.code != Code.INTERNAL_ERROR, finding.render()  # an exception the check caught
        assert finding.location.path in sources, finding.render()
        assert finding.location.line >= 0 and finding.location.column >= 0, finding.render()


def _assert_binary_checks_cleanly(data: bytes, path: str, guard: bool) -> None:
    """A binary file is checked as ``tabla check`` checks it (its bytes, a 64 MiB limit on what it inflates to)."""
    with hang_guard() if guard else nullcontext():
        report = check_file(Source(path, data=data), ReadOptions(max_size=1 << 26))
    for finding in report.findings:
        assert finding.code in CODES, finding
        assert finding.code != Code.INTERNAL_ERROR, finding.render()
        assert finding.location.path == path, finding.render()
        assert finding.location.line >= 0 and finding.location.column >= 0, finding.render()
