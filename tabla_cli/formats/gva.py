"""Read GammonView's JSON match files (``.gva``): the OGXM JSON projection as text.

A ``.gva`` is one JSON object, the same fields as the projection the
``ogxm`` codec makes of a binary file (``player_white``, ``match_length``,
``games`` with their ``plies``...), with GammonView's names for a few
analysis fields (``eval_level``); :func:`tabla_cli.formats.ogxm.match_from_document`
reads both. Detection: a JSON object with ``player_white`` and ``games``
near its start.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import TextIO

from tabla_cli.errors import Location, TranscriptSyntaxError
from tabla_cli.formats import Format
from tabla_cli.formats._syntax import ErrorHandler, read_handle
from tabla_cli.formats.ogxm import match_from_document
from tabla_cli.model import Match

__all__ = ["FORMAT", "looks_like_gva", "read_matches"]

_SIGNATURE = re.compile(r'"player_white"\s*:')
_GAMES = re.compile(r'"games"\s*:\s*\[')


def looks_like_gva(text: str) -> bool:
    """Whether ``text`` is an OGXM JSON document (a ``.gva``).

    >>> looks_like_gva('{"match_length": 5, "player_white": "Ann", "player_black": "Bob", "games": []}')
    True
    >>> looks_like_gva('{"schema": "tabla-match/1", "matches": []}')
    False
    """
    head = text[:65536].lstrip("\ufeff \t\r\n")
    return head.startswith("{") and _SIGNATURE.search(head[:4096]) is not None and _GAMES.search(head) is not None


def read_matches(handle: TextIO, *, path: str = "<stdin>", on_error: ErrorHandler | None = None) -> Iterator[Match]:
    """The match of the ``.gva`` document in ``handle``.

    Raises:
        TranscriptSyntaxError: not JSON, or not a match (see :func:`~tabla_cli.formats.ogxm.match_from_document`).
    """
    text = read_handle(handle, path)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TranscriptSyntaxError(f"not JSON: {exc.msg}", Location(path, exc.lineno, exc.colno)) from None
    except RecursionError:
        raise TranscriptSyntaxError("not JSON: nested too deeply", Location(path)) from None
    match = match_from_document(doc, path, on_error)
    match.format = "gva"
    yield match


FORMAT = Format("gva", (".gva",), looks_like_gva, read_matches, title="GammonView .gva")
"""This reader in the format registry (:mod:`tabla_cli.formats`)."""
