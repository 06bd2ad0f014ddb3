"""The index's visitor of the replay: the analysis' decisions, each with its XGID, date and tags.

:class:`StudyVisitor` is a :class:`~tabla_cli.analysis.decisions.DecisionsVisitor`
(so a decision is found, keyed and evaluated exactly as ``tabla analyze``
does it) that adds to each decision's row what the replay knows at that
moment: the XGID, the match's date, and the tags of :mod:`tabla_cli.study.tags`.
"""

from __future__ import annotations

from typing import Any

from tabla_cli.analysis.decisions import AnalysisOptions, DecisionsVisitor
from tabla_cli.board import Play, Player, Position
from tabla_cli.errors import InvalidIdError
from tabla_cli.evaluation.types import ANALYSABLE_VARIANTS
from tabla_cli.model import Action, Game, Match
from tabla_cli.study.tags import cube_tags, play_tags, position_tags, score_tags, tag_words
from tabla_cli.visitor import DecisionState, Skip

__all__ = ["StudyVisitor"]


class StudyVisitor(DecisionsVisitor):
    """Every decision of the matches visited, with the index's columns added to its row.

    Args:
        path: the file the matches are read from.
        options: how to evaluate (the index passes ``recorded`` analysis and,
            optionally, an engine level).
    """

    def __init__(self, path: str, options: AnalysisOptions) -> None:
        super().__init__(path, options)
        self.rolls = 0
        self.date: str | None = None
        self.number = 0

    def begin_match(self, match: Match) -> Skip | None:
        from tabla_cli.reports.rows import match_date

        skip = super().begin_match(match)
        self.date = match_date(match)
        self.number += 1
        return skip

    def begin_game(self, game: Game, state: DecisionState) -> None:
        super().begin_game(game, state)
        self.rolls = 0

    def _tag(
        self, start: int, state: DecisionState, extra: dict[str, Any] | None, dice: tuple[int, int] | None
    ) -> None:
        """Add the index's columns to the rows the analysis added since ``start``."""
        new = self.pending[start:]
        if not new:
            return
        actor = state.actor
        seen = state.position if actor == state.on_roll else state.position.flip()
        standard = state.variant.name in ANALYSABLE_VARIANTS and state.has_ids
        tags = position_tags(seen, rolls=self.rolls, classify=standard)
        tags.update(score_tags(state.length, state.score, int(actor), state.crawford, state.post_crawford))
        tags.update(cube_tags(None if state.cube_owner is None else state.cube_owner == actor))
        for item in new:
            row = item.row
            row.update(tags)
            if extra is not None and row["kind"] == "checker":
                row.update(extra)
            row["date"] = self.date
            row["match_no"] = self.number
            row["xgid"] = _xgid(state, dice if row["kind"] == "checker" else None) if state.has_ids else None
            row["tags"] = tag_words(row)

    def visit_roll(self, state: DecisionState, action: Action, play: Play | None, after: Position | None) -> None:
        self.rolls += 1
        start = len(self.pending)
        super().visit_roll(state, action, play, after)
        dice = action.dice
        events = None
        if dice is not None and len(self.pending) > start:
            standard = state.variant.name in ANALYSABLE_VARIANTS and state.has_ids
            events = play_tags(state.position, dice, play, after, classify=standard) if standard else None
        self._tag(start, state, events, dice)

    def visit_cube(
        self, state: DecisionState, action: Action, cube_before: int, cube_after: int, owner: Player | None
    ) -> None:
        start = len(self.pending)
        super().visit_cube(state, action, cube_before, cube_after, owner)
        self._tag(start, state, None, None)


def _xgid(state: DecisionState, dice: tuple[int, int] | None) -> str | None:
    """The XGID of a decision (None where an XGID cannot say it)."""
    from tabla_cli.ids import format_xgid

    try:
        return format_xgid(state.position, state.match_state(dice, playing=True))
    except InvalidIdError:
        return None
