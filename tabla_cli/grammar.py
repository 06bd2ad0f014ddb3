"""Loading the project's Lark grammars.

The ``.lark`` files live in the repository's top-level ``grammars/`` folder;
the wheel installs them as ``tabla_cli/grammars`` (hatchling
``force-include``). :func:`load_grammar` finds them in either place.
"""

from __future__ import annotations

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


def _checkout_path(name: str) -> Path:
    """``<repo>/grammars/<name>`` for a source checkout."""
    return Path(__file__).resolve().parent.parent / GRAMMAR_DIR / name


def load_grammar(name: str, **options: Any) -> Lark:
    """Build a Lark parser for the grammar file ``name`` (e.g. ``"ids.lark"``).

    Looks first inside the installed package (``tabla_cli/grammars/<name>``,
    loaded with :meth:`Lark.open_from_package`), then in the checkout's
    top-level ``grammars/`` folder. Relative ``%import`` lines work in both.
    The parser is LALR with positions propagated and no placeholders unless
    ``options`` say otherwise. Callers cache the result.

    Args:
        name: the file name inside ``grammars/``.
        **options: extra or overriding :class:`lark.Lark` options.

    Returns:
        The parser.

    Raises:
        FileNotFoundError: if neither location has the file.
    """
    settings = {**DEFAULT_OPTIONS, **options}
    if _packaged(name):
        return Lark.open_from_package(PACKAGE, f"{GRAMMAR_DIR}/{name}", **settings)
    path = _checkout_path(name)
    if not path.is_file():
        raise FileNotFoundError(f"grammar {name!r} is neither in the {PACKAGE} package nor at {path}")
    return Lark.open(str(path), **settings)
