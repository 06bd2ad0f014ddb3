"""The tabla family: Tapa/Plakoto, Gulbara/Fevga, Long Nardy (rules.md Parts B and C).

Each game is a :class:`~tabla_cli.variant.Backgammon` subclass registered in
:data:`tabla_cli.variant.VARIANTS`, so :func:`~tabla_cli.variant.find_variant`
finds it by any of its English, Bulgarian or Greek names. Regional rules are
a frozen options dataclass on the class (``Plakoto.options``); the Bulgarian
name defaults to Bulgarian practice, the Greek name to Greek practice, and
``Variant.with_options(...)`` makes a variant with other choices.

>>> from tabla_cli.variant import find_variant
>>> find_variant("Тапа").name, find_variant("πλακωτό").name, find_variant("Гюлбара").name
('tapa', 'plakoto', 'gulbara')
>>> find_variant("plakoto").options.mother_checker, find_variant("tapa").options.mother_checker
(True, False)
"""

from __future__ import annotations

from tabla_cli.variants.common import TablaVariant, VariantPosition, VariantResolution
from tabla_cli.variants.parallel import (
    Fevga,
    Gulbara,
    GulbaraPosition,
    LongNardy,
    LongTabla,
    ParallelGame,
    ParallelOptions,
    ParallelPosition,
)
from tabla_cli.variants.plakoto import Plakoto, PlakotoOptions, PlakotoPosition, Tapa

__all__ = [
    "Fevga",
    "Gulbara",
    "GulbaraPosition",
    "LongNardy",
    "LongTabla",
    "ParallelGame",
    "ParallelOptions",
    "ParallelPosition",
    "Plakoto",
    "PlakotoOptions",
    "PlakotoPosition",
    "TablaVariant",
    "Tapa",
    "VariantPosition",
    "VariantResolution",
]
