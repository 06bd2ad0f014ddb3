"""A ``.bgf`` is bounded by what its data becomes, and every number is range-checked (issue 37, items 3-4).

The reproducers of the fourth fuzz round are in ``tests/data/bgf-limits/``:
figures past float range and a deeply nested header line give a finding, not
``internal-error``; a small file whose gzip body inflates to millions of
Smile values is refused with a finding that names the limit and ``--max-size``.
"""

from __future__ import annotations

import gzip
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from tabla_cli.check import check_file
from tabla_cli.files import MAX_SIZE
from tabla_cli.findings import Code
from tabla_cli.formats import bgf
from tabla_cli.formats._smile import SmileLimitError, decode
from tabla_cli.pipeline import ReadOptions
from tabla_cli.source import Source

from fuzz.harness import assert_checks_cleanly
from helpers import DATA, run
from smile_writer import bgf_file, encode

LIMITS = DATA / "bgf-limits"
HEADER = b'{"format":"BGF","version":"1.0","compress":true,"useSmile":true}\n'


def bomb(arrays: int) -> bytes:
    """mk-bgf-bomb.py: a .bgf whose gzip body inflates to a Smile document of ``arrays`` empty arrays.

    The document is compressed a million arrays at a time, never held whole.
    """
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    parts = [packer.compress(b":)\n\x00\xfa\x83junk\xf8")]
    step = b"\xf8\xf9" * 1_000_000
    for start in range(0, arrays, 1_000_000):
        parts.append(packer.compress(step if arrays - start >= 1_000_000 else b"\xf8\xf9" * (arrays - start)))
    parts.append(packer.compress(b"\xf9\x88nameGreen\x40a\x86nameRed\x40b\x87matchlen\xc2\x84games\xf8\xf9\xfb"))
    return HEADER + b"".join(parts) + packer.flush()


def codes(data: bytes, name: str, max_size: int = MAX_SIZE) -> list[str]:
    report = check_file(Source(name, data=data), ReadOptions(max_size=max_size))
    return [finding.code for finding in report.findings]


@pytest.mark.parametrize(
    "name, code, says",
    [
        ("overflow-bigint-json.bgf", Code.SYNTAX_ERROR, "'cubeError' is a number past the range of a float"),
        ("overflow-bigint-smile.bgf", Code.SYNTAX_ERROR, "'cubeError' is a number past the range of a float"),
        ("header-deep-nesting.bgf", Code.UNREADABLE_FILE, "the BGBlitz header line is not JSON"),
        ("smile-emptylists-6M.bgf", Code.FILE_TOO_LARGE, "holds more than 131,072 values"),
    ],
)
def test_each_reproducer_gives_a_finding(name: str, code: str, says: str) -> None:
    path = LIMITS / name
    assert_checks_cleanly(path.read_bytes(), name)
    result, out, err = run("check", str(path))
    assert result == 1 and out == "", err
    assert f"error[{code}]" in err and says in err and "internal-error" not in err, err


def test_a_bomb_names_the_limit_and_the_option(tmp_path: Path) -> None:
    code, _, err = run("check", str(LIMITS / "smile-emptylists-6M.bgf"))
    assert code == 1 and "--max-size" in err and "5,992 bytes" in err, err
    path = tmp_path / "b.bgf"
    path.write_bytes(bomb(300_000))
    code, _, err = run("check", str(path))
    assert code == 1 and "file-too-large" in err, err
    code, _, err = run("check", str(path), "--max-size", "1G")
    assert code == 0 and "file-too-large" not in err, err  # a larger --max-size raises the limit


def test_a_body_that_inflates_past_its_share_is_refused_before_it_is_decoded() -> None:
    """A 6 KB file may inflate to a sixteenth of --max-size: with --max-size 32M, 2 MiB, not its 6 MB."""
    data = bomb(3_000_000)
    found = check_file(Source("b.bgf", data=data), ReadOptions(max_size=32 << 20)).findings
    assert [f.code for f in found] == [Code.FILE_TOO_LARGE]
    assert "inflates past 2,097,152 bytes" in found[0].message and "--max-size" in found[0].message


def test_the_limits_grow_with_the_file_and_the_option() -> None:
    assert bgf.max_values(1000, MAX_SIZE) == MAX_SIZE // bgf.BYTES_PER_VALUE
    assert bgf.max_values(10**6, MAX_SIZE) == bgf.VALUES_PER_BYTE * 10**6
    assert bgf.max_values(1000, 2 * MAX_SIZE) == 2 * bgf.max_values(1000, MAX_SIZE)
    assert bgf.max_inflated(1000, MAX_SIZE) == MAX_SIZE // 16
    assert bgf.max_inflated(10**9, MAX_SIZE) == MAX_SIZE


def test_every_real_file_is_within_the_limits() -> None:
    """BGBlitz's own files hold under one value a byte and inflate about four times: far inside."""
    for path in sorted((DATA / "bgf").glob("*.bgf")):
        assert Code.FILE_TOO_LARGE not in codes(path.read_bytes(), path.name), path.name


def test_a_json_body_is_bounded_too() -> None:
    doc = b'{"junk":[' + b"[]," * 200_000 + b'[]],"nameGreen":"a","nameRed":"b","matchlen":1,"games":[]}'
    header = b'{"format":"BGF","version":"1.0","compress":true,"useSmile":false}\n'
    assert codes(header + gzip.compress(doc, mtime=0), "j.bgf") == [Code.FILE_TOO_LARGE]


def test_smile_counts_values() -> None:
    two = encode([[], []])
    assert decode(two, max_values=3) == [[], []]
    with pytest.raises(SmileLimitError, match="more than 2 values"):
        decode(two, max_values=2)


@pytest.mark.parametrize(
    "value",
    [10**400, -(10**400), [[[[[[[[[[1]]]]]]]]]] * 3],
    ids=["big-integer", "negative-big-integer", "nested"],
)
def test_a_figure_of_any_shape_is_never_an_internal_error(value: object) -> None:
    doc = {
        "nameGreen": "a",
        "nameRed": "b",
        "matchlen": 3,
        "games": [
            {
                "scoreGreen": 0,
                "scoreRed": 0,
                "moves": [
                    {
                        "type": "amove",
                        "player": -1,
                        "red": 3,
                        "green": 1,
                        "from": [8, 6, -1, -1],
                        "to": [5, 5, -1, -1],
                        "pr": {"checkerError": value, "cubeError": value},
                        "luck": {"luckPlain": value},
                    }
                ],
            }
        ],
    }
    for smile in (True, False):
        assert_checks_cleanly(bgf_file(doc, smile=smile), "v.bgf")


_MEASURE = """
import resource, sys
from tabla_cli.cli import main
try:
    main(["check", "-q", sys.argv[1]])
except SystemExit:
    pass
usage = resource.getrusage(resource.RUSAGE_SELF)
print(usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024)
"""


def _measured(path: Path) -> tuple[float, int]:
    """CPU seconds and peak memory (bytes) of ``tabla check path`` in a fresh process, as it measures itself."""
    done = subprocess.run([sys.executable, "-c", _MEASURE, str(path)], capture_output=True, text=True, check=True)
    cpu, peak = done.stdout.split()[-2:]
    return float(cpu), int(peak)


@pytest.mark.slow
@pytest.mark.parametrize("arrays", [3_000_000, 30_000_000, 120_000_000])
def test_a_bomb_costs_little_cpu_and_memory(tmp_path: Path, arrays: int) -> None:
    """The done-when of issue 37 (CPU with room for a busy machine: three times the budget)."""
    path = tmp_path / "bomb.bgf"
    path.write_bytes(bomb(arrays))
    cpu, peak = _measured(path)
    assert peak < 500 << 20, peak
    assert cpu < 3 * max(1.0, 5.0 * path.stat().st_size / 1e6), cpu
