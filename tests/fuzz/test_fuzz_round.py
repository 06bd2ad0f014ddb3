"""A fuzz round over every reader, text and binary, and over the standard streams of every command.

The default suite checks a short round (:data:`SHORT` mutants per reader);
``-m slow`` (run by ``.ci/run``) a long one: ``TABLA_FUZZ_PER_READER``
mutants per reader (default :data:`LONG`) over every CPU, and every command
on a mutant of each reader with each output stream closed, full or a broken
pipe. A mutant that fails (a traceback, an ``internal-error`` finding, a
finding outside the file, a check slower than ``run_batch``'s limit) is
written to the test's temporary folder with its traceback; keep one worth
keeping in ``tests/data/fuzz/`` (see ``docs/fuzzing.md``).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from fuzz.run_batch import ALL_READERS, run_channels, run_chunk, run_reader

SHORT = 40
LONG = int(os.environ.get("TABLA_FUZZ_PER_READER", "2000"))
SLOW_SECONDS = 20.0
"""A mutant taking longer than this is a problem (the machine may be busy: far above any mutant's time)."""


@pytest.mark.parametrize("reader", ALL_READERS)
def test_a_short_round_of_every_reader(reader: str, tmp_path: Path) -> None:
    problems = run_chunk(reader, 25, 0, SHORT, tmp_path, SLOW_SECONDS)
    assert not problems, f"{problems}: see {tmp_path}"


@pytest.mark.slow
@pytest.mark.parametrize("reader", ALL_READERS)
def test_a_long_round_of_every_reader(reader: str, tmp_path: Path) -> None:
    count, problems, _ = run_reader(reader, LONG, 2025, tmp_path, SLOW_SECONDS, jobs=os.cpu_count() or 1)
    assert count == LONG and not problems, f"{problems}: see {tmp_path}"


@pytest.mark.slow
@pytest.mark.parametrize("reader", ALL_READERS)
def test_every_output_stream_state_on_a_mutant(reader: str, tmp_path: Path) -> None:
    runs, problems, _ = run_channels(reader, 1, random.Random(reader), tmp_path, ["check", "convert"])
    assert runs == 12 and not problems, f"{problems}: see {tmp_path}"
