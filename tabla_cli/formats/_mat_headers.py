"""What the ``; [Key "value"]`` headers of a ``.mat`` transcript say about its rules and variant."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable

from tabla_cli.errors import UnknownScoringError
from tabla_cli.model import RuleSet
from tabla_cli.scoring import find_scoring

__all__ = ["rules", "variant"]

_TRUE = frozenset({"on", "yes", "true", "1"})
_FALSE = frozenset({"off", "no", "false", "0"})


def _flag(value: str | None, default: bool) -> bool:
    """On or off as a header says it; ``default`` when it is absent or says neither."""
    word = (value or "").strip().casefold()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    return default


def rules(headers: Iterable[tuple[str, str]], length: int) -> RuleSet:
    """The :class:`RuleSet` the headers of a ``length``-point match ask for (defaults where they say nothing).

    Beavers are allowed in money play (``length`` 0) unless a ``Beaver`` header says they are not.
    """
    values = {key.casefold().replace(" ", ""): value for key, value in headers}
    default = RuleSet()
    cube_limit = default.cube_limit
    limit = values.get("cubelimit", "").strip()
    if limit.isascii() and limit.isdigit() and 0 < len(limit) <= 9 and int(limit) > 0:
        cube_limit = int(limit)
    scoring = default.scoring
    with contextlib.suppress(UnknownScoringError):
        scoring = find_scoring(values.get("scoring", scoring)).name
    return RuleSet(
        crawford=_flag(values.get("crawford"), default.crawford),
        jacoby=_flag(values.get("jacoby"), default.jacoby),
        beaver=_flag(values.get("beaver"), not length),
        cube_limit=cube_limit,
        cube=_flag(values.get("cube"), default.cube),
        scoring=scoring,
    )


def variant(value: str | None) -> str:
    """``Variation`` header → canonical variant name ('' = standard backgammon).

    >>> variant("HyperGammon (3)"), variant("Backgammon"), variant("NackGammon")
    ('hypergammon', '', 'nackgammon')
    """
    if value is None:
        return ""
    name = value.rstrip()
    if name.endswith(")") and "(" in name:
        name = name[: name.index("(")]
    name = name.strip().casefold()
    return "" if name in ("", "backgammon", "standard") else name
