"""What the ``; [Key "value"]`` headers of a ``.mat`` transcript say about its rules and variant.

Every reader keeps the headers of its format under these keys (``Site``, ``Jacoby``, ...);
:func:`said` puts what they mean beyond the rules themselves into the match's
:class:`~tabla_cli.model.RuleSet` once, when the match is read.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from tabla_cli.model import RuleSet

__all__ = ["VARIANT_NAMES", "rules", "said", "variant"]

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
    headers = list(headers)
    values = {key.casefold().replace(" ", ""): value for key, value in headers}
    default = RuleSet()
    cube_limit = default.cube_limit
    limit = values.get("cubelimit", "").strip()
    if limit.isascii() and limit.isdigit() and 0 < len(limit) <= 9 and int(limit) > 0:
        cube_limit = int(limit)
    scoring = values.get("scoring", "").strip() or default.scoring  # as written: the replay resolves the name
    made = RuleSet(
        crawford=_flag(values.get("crawford"), default.crawford),
        jacoby=_flag(values.get("jacoby"), default.jacoby),
        beaver=_flag(values.get("beaver"), not length),
        cube_limit=cube_limit,
        cube=_flag(values.get("cube"), default.cube),
        scoring=scoring,
    )
    return said(made, headers)


def said(rules: RuleSet, headers: Iterable[tuple[str, str]]) -> RuleSet:
    """``rules`` with what ``headers`` say besides the rules (the first header of a key counts, its case aside).

    Whether a ``Jacoby`` header says if the rule is on, whether a cube is said to
    be in play (``Cube`` on, or a ``CubeLimit``), and whether the ``Site`` is
    Backgammon Galaxy.

    >>> said(RuleSet(), [("site", "Backgammon Galaxy"), ("Jacoby", "off")])
    RuleSet(crawford=True, jacoby=False, beaver=False, cube_limit=4096, cube=True, scoring='standard', \
jacoby_said=True, cube_said=False, galaxy=True)
    """
    first: dict[str, str] = {}
    for key, value in headers:
        first.setdefault(key.casefold(), value)
    cube = first.get("cube")
    return dataclasses.replace(
        rules,
        jacoby_said="jacoby" in first,
        cube_said=(cube is not None and cube.strip().casefold() in _TRUE) or "cubelimit" in first,
        galaxy="galaxy" in first.get("site", "").casefold(),
    )


VARIANT_NAMES: dict[str, str] = {"nackgammon": "NackGammon", "hypergammon": "HyperGammon (3)"}
"""The ``Variation`` header the ``.mat`` writer gives a variant, where it is not the variant's own name;
:func:`variant` reads each back as its variant."""


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
