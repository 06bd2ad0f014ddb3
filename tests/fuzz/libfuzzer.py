"""Long fuzzing runs with atheris (libFuzzer for Python), outside the test suite.

``tests/fuzz/atheris_<reader>.py`` calls :func:`main` for one reader. Each
input is checked by :func:`fuzz.harness.assert_checks_cleanly`; an input that
raises is written by libFuzzer as ``crash-<sha1>``. New inputs come half from
libFuzzer's own byte mutations, half from :mod:`fuzz.mutations` (line edits,
huge numbers, unicode, re-encoding), starting from the reader's seeds. See
``docs/fuzzing.md``.
"""

from __future__ import annotations

import random
import sys


def main(reader: str) -> None:
    """Run libFuzzer on ``reader``'s seeds with the arguments of the command line."""
    import atheris  # only needed here: `pip install atheris`

    with atheris.instrument_imports(include=["tabla_cli"]):
        from fuzz.harness import assert_checks_cleanly
        from fuzz.mutations import random_mutant, seeds, suffix

    seed_files = seeds(reader)
    seed_bytes = [path.read_bytes() for path in seed_files]
    lines = [line for data in seed_bytes for line in data.split(b"\n") if line.strip()]
    path = f"atheris{suffix(reader)}"

    def mutator(data: bytes, max_size: int, seed: int) -> bytes:
        rng = random.Random(seed)
        if rng.random() < 0.5:
            out: bytes = atheris.Mutate(data, max_size)
            return out
        mutant, _, _ = random_mutant(rng, data or rng.choice(seed_bytes), lines)
        return mutant[:max_size]

    def test_one_input(data: bytes) -> None:
        assert_checks_cleanly(data, path, guard=False)

    argv = list(sys.argv)
    if not any(arg.startswith("-seed_inputs=") for arg in argv):
        argv.append("-seed_inputs=" + ",".join(str(p) for p in seed_files))
    if not any(arg.startswith("-max_len=") for arg in argv):
        argv.append("-max_len=262144")
    atheris.Setup(argv, test_one_input, custom_mutator=mutator)
    atheris.Fuzz()
