"""tabla_cli.cli.progress: progress lines when stderr is not a terminal."""

from __future__ import annotations

import pytest

from tabla_cli.cli.progress import analysis_progress


def test_a_line_every_few_seconds_and_at_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    now = [0.0]
    with analysis_progress(6, False, every=5.0, clock=lambda: now[0], terminal=False) as advance:
        for seconds in (2.0, 4.0, 6.0, 8.0, 11.5, 12.0):
            now[0] = seconds
            advance(2, 100)
    lines = capsys.readouterr().err.splitlines()
    assert lines == [
        "analysing: 3/6 files, 6 matches, 1.00 matches/s, 50 decisions/s, about 0:00:06 left",
        "analysing: 5/6 files, 10 matches, 0.87 matches/s, 43 decisions/s, about 0:00:02 left",
        "analysing: 6/6 files, 12 matches, 1.00 matches/s, 50 decisions/s",
    ]


def test_quiet_says_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    with analysis_progress(2, True, terminal=False) as advance:
        advance(1, 1)
        advance(1, 1)
    assert capsys.readouterr().err == ""
