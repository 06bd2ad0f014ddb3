"""tabla-cli: check, convert and summarise backgammon (tabla) match transcripts.

>>> import tabla_cli
>>> match = tabla_cli.read_match("examples/three-point-match.mat")  # doctest: +SKIP
"""

from __future__ import annotations

from tabla_cli.reader import read_match, read_matches

__version__ = "0.1.0"
__all__ = ["read_match", "read_matches", "__version__"]
