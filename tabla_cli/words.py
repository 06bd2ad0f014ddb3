"""Counts in a player's words: the noun agrees with the number, and thousands are grouped one way.

Every count tabla prints for a person goes through :func:`plural`, so that
"1 file", "2 files" and "1,698 matches" are written alike everywhere.
"""

from __future__ import annotations

__all__ = ["number", "plural"]

_IRREGULAR = {"copy": "copies", "was": "were", "is": "are"}


def number(value: int) -> str:
    """``value`` with its thousands grouped by commas, tabla's one separator.

    >>> number(1698), number(12), number(-1234567)
    ('1,698', '12', '-1,234,567')
    """
    return f"{value:,}"


def plural(count: int, word: str, many: str | None = None) -> str:
    """``count`` and ``word``, the plural (``many``, else the English rule) when ``count`` is not 1.

    >>> plural(1, "file"), plural(3, "file"), plural(1, "point"), plural(0, "match"), plural(2, "copy")
    ('1 file', '3 files', '1 point', '0 matches', '2 copies')
    >>> plural(1_698, "completed match"), plural(2, "analysis", "analyses")
    ('1,698 completed matches', '2 analyses')
    """
    if count == 1:
        return f"{number(count)} {word}"
    if many is None:
        head, _, last = word.rpartition(" ")
        ending = _IRREGULAR.get(last) or (f"{last}es" if last.endswith(("ch", "sh", "s", "x")) else f"{last}s")
        many = f"{head} {ending}" if head else ending
    return f"{number(count)} {many}"
