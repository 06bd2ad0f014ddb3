"""Mutated real transcripts of every format: checking them never raises.

The mutants come from :mod:`fuzz.mutations` (line edits, byte flips, unicode,
huge numbers, long runs, truncation, re-encoding). For each, the library's
:func:`tabla_cli.check.check_text` must return a report, whatever the input,
with every finding located in the file checked (tabla JSON locates findings
in the transcript the document names as its source); reading alone raises
nothing but :class:`tabla_cli.errors.TablaError`.

The everyday run checks 20 mutants a reader; the run of the tests marked
``slow`` 200, and ``HYPOTHESIS_PROFILE=long`` many more (see ``docs/fuzzing.md``).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz.harness import assert_checks_cleanly
from fuzz.mutations import ENCODINGS, HUGE_NUMBERS, READERS, RUNS, UNICODE, Edit, mutate, seeds, suffix

settings.register_profile(
    "fuzz",
    max_examples=200,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "fuzz-long",
    max_examples=20_000,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
FUZZ = settings.get_profile("fuzz-long" if os.environ.get("HYPOTHESIS_PROFILE") == "long" else "fuzz")

_SEEDS = {reader: [path.read_bytes() for path in seeds(reader)] for reader in READERS}
_LINES = sorted(
    {
        line.decode("utf-8", "replace")
        for files in _SEEDS.values()
        for data in files
        for line in data.split(b"\n")
        if line.strip() and len(line) < 200
    }
)


def edits() -> st.SearchStrategy[Edit]:
    """Any one :class:`Edit`, its values drawn from the interesting ones and from any text."""
    where = st.floats(0, 1)
    return st.one_of(
        st.builds(Edit, st.sampled_from(["delete-line", "duplicate-line", "truncate"]), where),
        st.builds(Edit, st.just("swap-lines"), where, where.map(repr)),
        st.builds(Edit, st.just("insert-line"), where, st.sampled_from(_LINES) | st.text(max_size=40)),
        st.builds(
            Edit,
            st.sampled_from(["replace-number", "keyword-number"]),
            where,
            st.sampled_from(HUGE_NUMBERS) | st.integers(0, 10**12).map(str),
        ),
        st.builds(
            Edit, st.just("insert"), where, st.sampled_from(UNICODE + HUGE_NUMBERS) | st.text(min_size=1, max_size=8)
        ),
        st.builds(
            Edit,
            st.just("run"),
            where,
            st.builds(lambda unit, n: unit * n, st.sampled_from(RUNS), st.integers(2, 3000)),
        ),
        st.builds(Edit, st.just("flip"), where, st.integers(0, 7).map(lambda bit: str(1 << bit))),
        st.builds(Edit, st.just("delete-span"), where, st.integers(1, 200).map(str)),
    )


@st.composite
def mutants(draw: st.DrawFn, reader: str) -> bytes:
    """The bytes of a mutant of one of ``reader``'s seeds."""
    seed = draw(st.sampled_from(_SEEDS[reader]))
    changes = draw(st.lists(edits(), min_size=1, max_size=6))
    encoding = draw(st.sampled_from(("utf-8",) * 4 + ENCODINGS))
    return mutate(seed, changes, encoding)


@pytest.mark.slow
@pytest.mark.parametrize("reader", READERS)
@FUZZ
@given(data=st.data())
def test_checking_a_mutant_never_raises(reader: str, data: st.DataObject) -> None:
    assert_checks_cleanly(data.draw(mutants(reader), label="mutant"), f"mutant-{reader}{suffix(reader)}")


@pytest.mark.parametrize("reader", READERS)
@settings(FUZZ, max_examples=20)
@given(data=st.data())
def test_checking_a_few_mutants_never_raises(reader: str, data: st.DataObject) -> None:
    """The everyday share of the test above (marked slow): 20 mutants a reader."""
    assert_checks_cleanly(data.draw(mutants(reader), label="mutant"), f"mutant-{reader}{suffix(reader)}")
