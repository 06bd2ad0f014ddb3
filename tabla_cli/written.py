"""A written play against the legal ones: its hit marks, and the legal plays shown beside an illegal one.

Pure functions the replay (:mod:`tabla_cli.replay`) calls while it checks a
roll; they hold no state of the game.

Example:
    >>> from tabla_cli.board import Position
    >>> from tabla_cli.notation import parse_play
    >>> from tabla_cli.variant import find_variant
    >>> standard = find_variant("")
    >>> start = standard.start_position()
    >>> segments = parse_play("8/5* 6/5")
    >>> play = standard.resolve_play(start, (3, 1), segments).play
    >>> mark_problem(segments, play, "8/5* 6/5", marks=True)
    (<Code.EXTRA_HIT_MARKER: 'extra-hit-marker'>, "'8/5* 6/5' marks a hit on 5 but no checker is hit there")
"""

from __future__ import annotations

from collections.abc import Callable

from tabla_cli.board import Dice, Play, Position, Segment
from tabla_cli.findings import Code
from tabla_cli.variant import Variant

__all__ = ["LISTED", "legal_plays", "mark_problem"]

LISTED = 10
"""How many legal plays a finding about an illegal one lists at most."""


def mark_problem(segments: tuple[Segment, ...], play: Play, text: str, marks: bool) -> tuple[str, str] | None:
    """``(code, message)`` when the hit marks (``*``) of the written play ``text`` disagree with ``play``.

    Args:
        segments: the play as written.
        play: the legal play it resolves to.
        text: the play's text.
        marks: the transcript marks its hits, so a hit without a mark counts.
    """
    marked = {dst for _, dst, hit in segments if hit} if "*" in text else set()  # a segment is marked by a '*'
    hits = {s.dst for s in play if s.hit}
    if marked - hits:
        points = ", ".join(str(p) for p in sorted(marked - hits, reverse=True))
        return Code.EXTRA_HIT_MARKER, f"'{text}' marks a hit on {points} but no checker is hit there"
    if marks and hits - marked:
        points = ", ".join(str(p) for p in sorted(hits - marked, reverse=True))
        return Code.MISSING_HIT_MARKER, f"'{text}' hits on {points} without a '*'"
    return None


def legal_plays(
    variant: Variant,
    position: Position,
    dice: Dice,
    write: Callable[[Position, Play], str],
    near: Position | None = None,
) -> tuple[str, ...]:
    """Up to :data:`LISTED` legal plays of ``dice`` in ``position``, written, then how many more there are.

    With ``near`` (the position the written play leads to, seen from the
    mover), the plays that move the fewest checkers differently come first.
    """
    listed, total = variant.some_plays(position, dice, LISTED)
    if near is not None and total > 1:
        legal = variant.legal_plays(position, dice)
        ranked = sorted(legal.items(), key=lambda item: _changed(item[0], near))
        listed = [play for _, play in ranked[:LISTED]]
    shown = tuple(write(position, p) or "(no move)" for p in listed)
    more = total - len(shown)
    if more > 0:
        return (*shown, f"... (+{more})")
    if total < 0:
        return (*shown, "... (+more)")
    return shown


def _changed(after: Position, near: Position) -> tuple[int, int]:
    """How many of the mover's checkers, then of the opponent's, stand elsewhere in ``after`` than in ``near``."""
    mine = sum(max(0, a - b) for a, b in zip(after.mover, near.mover, strict=True))
    theirs = sum(max(0, a - b) for a, b in zip(after.opponent, near.opponent, strict=True))
    return mine, theirs
