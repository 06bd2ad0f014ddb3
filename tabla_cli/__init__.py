"""tabla-cli: check, convert and summarise backgammon (tabla) match transcripts."""

from __future__ import annotations

__version__ = "0.1.0"
