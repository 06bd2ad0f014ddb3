"""Every input that ever crashed a reader or the replay, kept in ``tests/data/fuzz/``.

A file there is named ``<reader>-<short-name>.<ext>``; it is checked in
process (no exception, every finding located) and through ``tabla check``
(exit 1 for its findings, never a traceback).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tabla_cli.check import check_text
from tabla_cli.cli import main
from tabla_cli.reader import decode

from fuzz.harness import assert_checks_cleanly
from fuzz.mutations import READERS, REGRESSIONS

FILES = sorted(path for path in REGRESSIONS.iterdir() if path.is_file())


def test_every_regression_file_names_its_reader() -> None:
    assert FILES
    for path in FILES:
        assert path.name.startswith(tuple(f"{reader}-" for reader in READERS)), path.name


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_a_regression_file_checks_cleanly(path: Path) -> None:
    assert_checks_cleanly(path.read_bytes(), path.name)
    report = check_text(decode(path.read_bytes()), path.name)
    assert all(finding.location.path == path.name for finding in report.findings)


def test_tabla_check_reports_every_regression_file_without_a_traceback() -> None:
    result = CliRunner().invoke(main, ["check", "--notes", "--jobs", "1", str(REGRESSIONS)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert f"checked {len(FILES)} files" in result.output
