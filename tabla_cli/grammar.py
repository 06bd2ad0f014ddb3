"""Loading the project's Lark grammars.

The ``.lark`` files live in the repository's top-level ``grammars/`` folder;
the wheel installs them as ``tabla_cli/grammars`` (hatchling
``force-include``). :func:`load_grammar` finds them in either place.
"""

from __future__ import annotations

import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

from lark import Lark

PACKAGE = "tabla_cli"
GRAMMAR_DIR = "grammars"

DEFAULT_OPTIONS: dict[str, Any] = {
    "parser": "lalr",
    "propagate_positions": True,
    "maybe_placeholders": False,
}


def _packaged(name: str) -> bool:
    """True if ``tabla_cli/grammars/<name>`` exists inside the installed package."""
    try:
        return resources.files(PACKAGE).joinpath(GRAMMAR_DIR, name).is_file()
    except (ModuleNotFoundError, OSError):
        return False


def _can_cache(options: dict[str, Any]) -> bool:
    """Whether Lark may keep the built parser in the temporary folder for the next process.

    A cached parser skips building the LALR tables and checking the terminals for
    collisions, which every command's start-up would otherwise pay for.
    A strict build is never cached, so that its collision check always runs; with no
    usable temporary folder there is nothing to cache into.
    """
    if options.get("strict"):
        return False
    try:
        tempfile.gettempdir()
    except OSError:
        return False
    return True


def _checkout_path(name: str) -> Path:
    """``<repo>/grammars/<name>`` for a source checkout."""
    return Path(__file__).resolve().parent.parent / GRAMMAR_DIR / name


def load_grammar(name: str, **options: Any) -> Lark:
    """Build a Lark parser for the grammar file ``name`` (e.g. ``"ids.lark"``).

    Looks first inside the installed package (``tabla_cli/grammars/<name>``,
    loaded with :meth:`Lark.open_from_package`), then in the checkout's
    top-level ``grammars/`` folder. Relative ``%import`` lines work in both.
    The parser is LALR with positions propagated and no placeholders unless
    ``options`` say otherwise; Lark keeps the built parser in the temporary
    folder for later processes (see :func:`_can_cache`). Callers cache the result.

    Args:
        name: the file name inside ``grammars/``.
        **options: extra or overriding :class:`lark.Lark` options.

    Returns:
        The parser.

    Raises:
        FileNotFoundError: if neither location has the file.
    """
    settings = {**DEFAULT_OPTIONS, "cache": _can_cache(options), **options}
    if _packaged(name):
        return Lark.open_from_package(PACKAGE, f"{GRAMMAR_DIR}/{name}", **settings)
    path = _checkout_path(name)
    if not path.is_file():
        raise FileNotFoundError(f"grammar {name!r} is neither in the {PACKAGE} package nor at {path}")
    return Lark.open(str(path), **settings)
