"""What every test shares: a private home, the ``--update-golden`` option, and fixtures for the CLI and the data.

**A private home.** Before any test module is imported (some read their
environment when imported), ``HOME`` and the XDG folders point into a new
temporary folder and ``TABLA_CACHE_DIR`` is unset, so the evaluation cache
(``$XDG_CACHE_HOME/tabla-cli``) and anything a library keeps under ``~``
(matplotlib's configuration, for one) land there, never in the user's home;
subprocesses inherit it. The folder is removed at the end. The session fixture
:func:`private_home` names it (``test_conftest.py`` checks it is used).

**Golden files** are named ``<case>.expected.<suffix>``; ``pytest
--update-golden`` rewrites them from what the code gives now (review the diff).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import helpers

_HOME_VARIABLES = ("HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "MPLCONFIGDIR")
_KEPT_OUT = ("TABLA_CACHE_DIR",)
_saved: dict[str, str | None] = {}
_HOME = pytest.StashKey[Path]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite the golden files (tests/data/**/*.expected.*) from the code's output, then compare",
    )


def pytest_configure(config: pytest.Config) -> None:
    home = Path(tempfile.mkdtemp(prefix="tabla-tests-home-"))
    places = {
        "HOME": home,
        "XDG_CACHE_HOME": home / ".cache",
        "XDG_CONFIG_HOME": home / ".config",
        "XDG_DATA_HOME": home / ".local" / "share",
        "XDG_STATE_HOME": home / ".local" / "state",
        "MPLCONFIGDIR": home / ".config" / "matplotlib",
    }
    for name in (*_HOME_VARIABLES, *_KEPT_OUT):
        _saved[name] = os.environ.get(name)
    for name, path in places.items():
        os.environ[name] = str(path)
    for name in _KEPT_OUT:
        os.environ.pop(name, None)
    config.stash[_HOME] = home


def pytest_unconfigure(config: pytest.Config) -> None:
    home = config.stash.get(_HOME, None)
    for name, value in _saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    if home is not None:
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="session", autouse=True)
def private_home(pytestconfig: pytest.Config) -> Iterator[Path]:
    """The temporary home every test runs under (``HOME``, ``XDG_CACHE_HOME``, ... point into it)."""
    home = pytestconfig.stash[_HOME]
    assert os.environ["HOME"] == str(home), "a test module changed HOME for the whole session"
    yield home


@pytest.fixture(scope="session")
def update_golden(pytestconfig: pytest.Config) -> bool:
    """Whether ``--update-golden`` was given: golden files are rewritten before they are compared."""
    return bool(pytestconfig.getoption("--update-golden"))


@pytest.fixture
def golden(update_golden: bool) -> Callable[[Path, str], None]:
    """``golden(path, text)``: assert ``text`` is the golden file ``path`` (rewritten first with --update-golden)."""

    def check(path: Path, actual: str) -> None:
        helpers.check_golden(path, actual, update_golden)

    return check


@pytest.fixture
def cli() -> Callable[..., tuple[int, str, str]]:
    """``cli("check", "m.mat")``: run tabla in-process; its exit code, stdout and stderr (:func:`helpers.run`)."""
    return helpers.run


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """tests/data."""
    return helpers.DATA


@pytest.fixture(scope="session")
def corpus() -> Callable[..., list[Path]]:
    """``corpus("mat")``: the files of a folder of the copied corpus (tests/data/corpus), sorted."""
    return helpers.corpus_files
