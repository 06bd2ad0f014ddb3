"""Damaged eXtreme Gammon .xg files: checking them never raises and never fails inside tabla.

Every mutant is checked as ``tabla check`` checks a file
(:func:`tabla_cli.check.check_file`): it must return a report whose findings
have known codes, are located in the file, and include no ``internal-error``
(an exception tabla did not expect). Mutants:

* the file cut at every offset of its archive (after the header, whose cuts
  all fail the same way, tried every 101 bytes);
* the match records (``temp.xg``) cut at every offset of their first
  records, repacked into a valid archive so that the reader gets past the
  checksums;
* bit flips and lying numbers (counts, lengths, record types, codes) in the
  match records, repacked;
* decompression bombs.

The normal suite runs a short sample; ``-m slow`` runs every offset of the
whole file and many more flips.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Iterator

import pytest

from tabla_cli.check import check_file
from tabla_cli.findings import CODES, Code
from tabla_cli.formats.xg_records import RECORD_SIZE
from tabla_cli.pipeline import ReadOptions
from tabla_cli.source import Source

from fuzz.harness import hang_guard
from xg_pack import SMALL, game_file, pack

PATH = "fuzz.xg"
LIES = (0, 1, -1, 2, 3, 6, 24, 25, 32, 33, 127, -128, 255, 99999, 2**31 - 1, -(2**31), 2**30)
"""Numbers written over a field: edges of the ranges the reader checks."""

_TEMP = game_file(SMALL)
SHORT = _TEMP[: 12 * RECORD_SIZE]
"""The match records of the first turns: a small match to mutate."""
_PACKED = SMALL.read_bytes()[8232 + struct.unpack_from("<I", SMALL.read_bytes(), 20)[0] :]
"""The archive of :data:`SMALL` (data, directory, trailer)."""


def assert_checks_cleanly(data: bytes, max_size: int = 1 << 26) -> list[str]:
    with hang_guard():
        report = check_file(Source(PATH, data=data), ReadOptions(max_size=max_size))
    for finding in report.findings:
        assert finding.code in CODES, finding
        assert finding.code != Code.INTERNAL_ERROR, finding.render()
        assert finding.location.path == PATH, finding.render()
    return [f.code for f in report.findings]


def cuts(data: bytes, start: int, step: int = 1) -> Iterator[bytes]:
    for end in range(start, len(data), step):
        yield data[:end]


def flipped(data: bytes, rng: random.Random, flips: int) -> bytes:
    out = bytearray(data)
    for _ in range(flips):
        at = rng.randrange(len(out))
        out[at] ^= 1 << rng.randrange(8)
    return bytes(out)


def lied(data: bytes, rng: random.Random) -> bytes:
    """``data`` with a number written over a field of one record: a 4-byte or 1-byte edge value."""
    out = bytearray(data)
    record = rng.randrange(len(out) // RECORD_SIZE) * RECORD_SIZE
    value = rng.choice(LIES)
    if rng.random() < 0.3:
        out[record + rng.randrange(RECORD_SIZE)] = value & 0xFF
    else:
        struct.pack_into("<i", out, record + 4 * rng.randrange(RECORD_SIZE // 4), max(-(2**31), min(2**31 - 1, value)))
    return bytes(out)


def test_the_unmutated_file_checks_cleanly() -> None:
    assert assert_checks_cleanly(pack(SHORT, thumbnail=False)) == []  # a money session: never incomplete


def damage_reported(codes: list[str]) -> bool:
    """A damaged file is refused (``unreadable-file``) or read with a ``damaged-container`` warning."""
    return codes == [Code.UNREADABLE_FILE] or Code.DAMAGED_CONTAINER in codes


def test_every_cut_of_a_small_file() -> None:
    small = pack(SHORT, thumbnail=False)
    for data in cuts(small, 0, 37):
        assert damage_reported(assert_checks_cleanly(data))
    for data in cuts(SHORT, 0, 97):
        assert_checks_cleanly(pack(data, thumbnail=False))


@pytest.mark.parametrize("seed", range(4))
def test_flips_and_lies(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        assert_checks_cleanly(pack(flipped(SHORT, rng, rng.randrange(1, 8)), thumbnail=False))
        assert_checks_cleanly(pack(lied(SHORT, rng), thumbnail=False))
    raw = SMALL.read_bytes()
    archive = len(raw) - len(_PACKED)  # where the checksummed archive starts
    for _ in range(20):
        at = rng.randrange(archive, len(raw) - 36)
        assert damage_reported(
            assert_checks_cleanly(raw[:at] + bytes([raw[at] ^ 1 << rng.randrange(8)]) + raw[at + 1 :])
        )
        found = assert_checks_cleanly(flipped(raw, rng, 1))
        assert not found or damage_reported(found)


def test_bombs() -> None:
    zeros = b"\0" * (32 << 20)
    assert assert_checks_cleanly(pack(zeros, thumbnail=False), max_size=1 << 20) == [Code.FILE_TOO_LARGE]
    assert assert_checks_cleanly(pack(zeros, size=100, thumbnail=False), max_size=1 << 20) == [Code.FILE_TOO_LARGE]
    assert assert_checks_cleanly(pack(SHORT, size=2**31 - 1), max_size=1 << 20) == [Code.FILE_TOO_LARGE]


@pytest.mark.slow
def test_cuts_of_the_whole_file() -> None:
    """Every cut of the header and of the archive's last bytes, and every 37th byte between: a cut file past
    the header is read from its data (each cut a replay of what is left), so not every byte."""
    data = SMALL.read_bytes()
    ends = set(range(0, 8300)) | set(range(len(data) - 700, len(data))) | set(range(8300, len(data), 37))
    for end in sorted(ends):
        assert damage_reported(assert_checks_cleanly(data[:end]))


@pytest.mark.slow
def test_every_cut_of_the_match_records() -> None:
    """Every offset of the first records, and a few bytes either side of every later record boundary."""
    for cut in cuts(_TEMP[: 3 * RECORD_SIZE], 0):
        assert_checks_cleanly(pack(cut, thumbnail=False))
    for boundary in range(3 * RECORD_SIZE, len(_TEMP), RECORD_SIZE):
        for end in (boundary - 9, boundary - 1, boundary, boundary + 1, boundary + 9):
            assert_checks_cleanly(pack(_TEMP[:end], thumbnail=False))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 120))
def test_many_flips_and_lies(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(100):
        assert_checks_cleanly(pack(flipped(_TEMP, rng, rng.randrange(1, 32)), thumbnail=False))
        assert_checks_cleanly(pack(lied(_TEMP, rng), thumbnail=False))
