"""tabla-cli: check, convert and summarise backgammon (tabla) match transcripts.

The readers (and with them Lark) load on first use of :func:`read_match` or
:func:`read_matches`, so importing the engine (:mod:`tabla_cli.board`,
:mod:`tabla_cli.variant`, :mod:`tabla_cli.notation`) loads no third-party
package.

>>> import tabla_cli
>>> match = tabla_cli.read_match("examples/three-point-match.mat")  # doctest: +SKIP
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tabla_cli.reader import read_match, read_matches

__version__ = "0.1.0"
__all__ = ["read_match", "read_matches", "__version__"]

_LAZY = frozenset({"read_match", "read_matches"})


def __getattr__(name: str) -> Any:
    """Import :mod:`tabla_cli.reader` when one of its functions is first asked for."""
    if name in _LAZY:
        from tabla_cli import reader

        return getattr(reader, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
