"""The documented columns of the report frames: names, dtypes and meanings.

>>> [c.name for c in COLUMNS["games"]][:4]
['match', 'game', 'score0', 'score1']
"""

from __future__ import annotations

from tabla_cli.columns import Column, table
from tabla_cli.evaluation.types import DecisionKind
from tabla_cli.findings import CODES
from tabla_cli.scoring import LEVEL_NAMES, SCORINGS

FRAME_NAMES: tuple[str, ...] = ("matches", "games", "cube", "plays", "findings", "decisions")
"""The frames, in the order they are documented and written (``decisions`` has rows only when the
inputs carry analysis or the report analyses them)."""

RESULTS = tuple(LEVEL_NAMES.values())
ENDINGS = ("bearoff", "drop", "resign", "forfeit", "draw")
KINDS = ("match", "money", "one-game")
SCORING_NAMES = tuple(SCORINGS)
CUBE_ACTIONS = ("double", "redouble", "take", "drop", "beaver", "raccoon")
SEVERITIES = ("error", "warning", "note")


_CATEGORIES = {
    "kinds": KINDS,
    "scorings": SCORING_NAMES,
    "results": RESULTS,
    "endings": ENDINGS,
    "cube_actions": CUBE_ACTIONS,
    "severities": SEVERITIES,
    "codes": tuple(CODES),
    "decision_kinds": tuple(kind.value for kind in DecisionKind),
}
"""The category sets the frames' category columns name in ``columns.toml``."""

COLUMNS: dict[str, tuple[Column, ...]] = {
    **{name: table(f"frames.{name}", _CATEGORIES) for name in FRAME_NAMES if name != "decisions"},
    "decisions": (*table("shared.match_key"), *table("analysis.decisions", _CATEGORIES)[1:]),
}
"""The columns of every frame, in order, with dtypes and meanings (``frames`` in ``columns.toml``;
``decisions``: the analysis' table, :data:`~tabla_cli.analysis.stats.DECISION_COLUMNS`, with the
integer match key)."""

NAME_COLUMNS: dict[str, tuple[str, ...]] = {
    "matches": ("player0", "player1", "winner"),
    "games": ("winner", "cube_owner"),
    "cube": ("player",),
    "plays": ("player",),
    "findings": ("player",),
    "decisions": ("player", "opponent"),
}
"""The columns of each frame that hold a player's name (rewritten by aliases)."""

INDEX: dict[str, dict[str, int]] = {name: {c.name: i for i, c in enumerate(cols)} for name, cols in COLUMNS.items()}
"""The position of every column in its frame's rows."""
