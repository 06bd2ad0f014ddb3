"""Scoring rule sets: what a won game is worth before the cube multiplies it.

A rule set is its own axis, beside the variant (the checker rules) and the
cube rules (:class:`tabla_cli.model.RuleSet`). ``standard`` scores 1, 2 or 3
(single, gammon, backgammon). ``1-2-4-8`` is the old Bulgarian scoring of
tabla (A. Musikhin, 1990): 1 for a win; 2 when the loser has borne off no
checker; 4 when he also still has a checker outside his home board; 8 when
he also has a checker on the bar. It applies to the games on the standard
board; the other games of the family keep their own values (1 or 2).

Each level value has one name, whatever the rule set, so a game's level is
named by its value alone (:data:`LEVEL_NAMES`).

>>> from tabla_cli.board import Position
>>> from tabla_cli.variant import Backgammon
>>> BULGARIAN.value(Backgammon, Position.start())
4
>>> find_scoring("1248").name, find_scoring("Standard").levels
('1-2-4-8', (1, 2, 3))
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tabla_cli.board import BAR, OFF, Position
from tabla_cli.errors import UnknownScoringError
from tabla_cli.model import Match
from tabla_cli.variant import Variant

__all__ = ["BULGARIAN", "LEVEL_NAMES", "SCORINGS", "STANDARD", "Scoring", "apply_scoring", "find_scoring"]

LEVEL_NAMES: dict[int, str] = {
    1: "single",
    2: "gammon",
    3: "backgammon",
    4: "gammon-outside",
    8: "gammon-bar",
}
"""The name of each level value: ``gammon-outside`` (4: the loser still has a checker
outside his home board) and ``gammon-bar`` (8: and one on the bar) are 1-2-4-8's."""

_HOME = 6


@dataclass(frozen=True, slots=True)
class Scoring:
    """A scoring rule set.

    Attributes:
        name: the canonical name (``standard``, ``1-2-4-8``).
        levels: the values a game can be worth at cube 1, lowest first.
        aliases: other names it answers to (lower case).
    """

    name: str
    levels: tuple[int, ...]
    aliases: tuple[str, ...] = ()

    @property
    def top(self) -> int:
        """The highest level value."""
        return self.levels[-1]

    def value(self, variant: Variant, position: Position) -> int:
        """The level of a game that ended in ``position`` (seen from the winner); 0 = a draw.

        Args:
            variant: the game played; only games on the standard board
                (``has_gnubg_ids``) are scored by a rule set other than
                the variant's own.
            position: the final position, the winner as ``mover``.
        """
        own = variant.outcome(position)
        if self.name == STANDARD.name or not variant.has_gnubg_ids or own == 0:
            return own
        loser = position.opponent
        if loser[OFF]:
            return 1
        if loser[BAR]:
            return 8
        if any(loser[_HOME + 1 : BAR]):
            return 4
        return 2

    def resignation(self, points: int, cube: int) -> int:
        """The lowest level whose value at ``cube`` covers ``points`` (the top one when none does)."""
        return next((level for level in self.levels if points <= level * cube), self.top)


STANDARD = Scoring("standard", (1, 2, 3), ("1-2-3", "123"))
BULGARIAN = Scoring("1-2-4-8", (1, 2, 4, 8), ("1248", "bulgarian"))

SCORINGS: dict[str, Scoring] = {s.name: s for s in (STANDARD, BULGARIAN)}
"""The rule sets by canonical name."""


def find_scoring(name: str) -> Scoring:
    """The rule set called ``name`` (any alias, any case, spaces ignored).

    Raises:
        UnknownScoringError: no rule set has that name; the message lists them.
    """
    want = "".join(name.split()).casefold()
    for scoring in SCORINGS.values():
        if want == scoring.name or want in scoring.aliases:
            return scoring
    raise UnknownScoringError(f"unknown scoring {name!r}; known: {', '.join(SCORINGS)}")


def apply_scoring(match: Match, name: str | None) -> Match:
    """Score ``match`` by the rule set ``name`` (an option wins over the transcript's header).

    Args:
        match: changed in place (its ``rules``) and returned.
        name: a rule set name; None keeps what the transcript says.

    Raises:
        UnknownScoringError: ``name`` names no rule set.
    """
    if name is not None:
        match.rules = replace(match.rules, scoring=find_scoring(name).name)
    return match
