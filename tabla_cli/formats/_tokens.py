r"""Token patterns the readers share, as regular-expression source text.

The Lark grammars cut a transcript into lines; these patterns read the
dice, counts and moves inside them, the same way in every reader.

>>> import re
>>> re.fullmatch(dice(between="[ \t]+"), "6 4").group("d1", "d2")
('6', '4')
>>> re.fullmatch(MOVE, "bar/22").group("src", "dst")
('bar', '22')
"""

from __future__ import annotations

DIE = "[1-6]"
"""One die."""

NUMBER = "[0-9]{1,9}"
"""A count, score, cube value or match length: at most nine digits (no overflow)."""

MOVE = r"(?P<src>[0-9]{1,2}|bar)[-/](?P<dst>[0-9]{1,2}|off)"
"""One checker move, ``13/7``, ``8-5``, ``bar/22`` or ``3/off`` (match it case-insensitively)."""

CANNOT_MOVE = r"can'?t move\.?|cannot move\.?"
"""The words for a roll that cannot be played (match them case-insensitively)."""


def dice(*, between: str = "", first: str = "d1", second: str = "d2") -> str:
    """Two dice as groups ``first`` and ``second``, with ``between`` between them."""
    return f"(?P<{first}>{DIE}){between}(?P<{second}>{DIE})"
