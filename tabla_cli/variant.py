"""Game variants: the checker rules that differ between games of the family.

Each variant is a class with ``ClassVar`` metadata and hooks, as in
python-chess's ``chess.variant``. Cube and match rules live apart in
:class:`tabla_cli.model.RuleSet`. The classes live in :mod:`tabla_cli.variants`
(standard backgammon and its relatives in :mod:`tabla_cli.variants.standard`);
this module lists them and finds one by name.

>>> find_variant("NackGammon").name
'nackgammon'
"""

from __future__ import annotations

from tabla_cli.errors import UnknownVariantError
from tabla_cli.variants.parallel import Fevga, Gulbara, LongNardy, LongTabla
from tabla_cli.variants.plakoto import Plakoto, Tapa
from tabla_cli.variants.standard import (
    Backgammon,
    Hypergammon1,
    Hypergammon2,
    Hypergammon3,
    Nackgammon,
    Portes,
)

__all__ = [
    "VARIANTS",
    "Backgammon",
    "Fevga",
    "Gulbara",
    "Hypergammon1",
    "Hypergammon2",
    "Hypergammon3",
    "LongNardy",
    "LongTabla",
    "Nackgammon",
    "Plakoto",
    "Portes",
    "Tapa",
    "Variant",
    "find_variant",
]

Variant = type[Backgammon]

VARIANTS: tuple[Variant, ...] = (
    Backgammon,
    Portes,
    Nackgammon,
    Hypergammon3,
    Hypergammon2,
    Hypergammon1,
    Tapa,
    Plakoto,
    Gulbara,
    Fevga,
    LongNardy,
    LongTabla,
)


def find_variant(name: str) -> Variant:
    """The variant called ``name`` (any alias, any case; '' = standard).

    Raises:
        UnknownVariantError: no variant has that name; the message lists them.
    """
    want = " ".join(name.strip().casefold().split())
    if not want:
        return Backgammon
    for variant in VARIANTS:
        if want == variant.name or any(want == alias.casefold() for alias in variant.aliases):
            return variant
    names = ", ".join(v.name for v in VARIANTS)
    raise UnknownVariantError(f"unknown variant {name!r}; known variants: {names}")
