"""Match equities: GNU Backgammon's ``getME`` and ``getMEAtScore`` on the Kazaross-XG2 table.

The table is the one GNU Backgammon uses by default and bgsage ships
(``bgbot_cpp.get_met``): the match-winning chances (MWC) of a side needing
``away`` points against one needing ``other``, before a game; its 1-away row
is the Crawford game, and a second table holds the post-Crawford games. In
match play gnubg turns a normalised equity ``e`` into MWC at the current cube
with ``mwc = L + (e + 1) / 2 * (W - L)``, where ``W`` and ``L`` are the MWC
after winning and after losing a game worth the cube (:func:`cube_outcomes`);
an error or a roll's luck ``x`` is worth ``x * (W - L) / 2`` in MWC.

Example:
    >>> round(match_equity(2, 2, crawford=False), 3), round(match_equity(1, 2, crawford=True), 3)
    (0.5, 0.677)
    >>> win, lose = cube_outcomes(5, 5, 1, crawford=False)
    >>> round(win + lose, 6)
    1.0
"""

from __future__ import annotations

from functools import cache

__all__ = ["cube_outcomes", "game_result_mwc", "match_equity"]


@cache
def _table(away: int, other: int, post_crawford: bool) -> float:
    from bgbot_cpp import get_met  # type: ignore[import-not-found]

    return float(get_met(away, other, post_crawford))


def match_equity(away: int, other: int, *, crawford: bool) -> float:
    """The MWC, before a game, of the side needing ``away`` points against ``other`` (gnubg's ``getMEAtScore``).

    Args:
        away: points the side needs (<= 0: it has won).
        other: points the opponent needs.
        crawford: the game is the Crawford game; a game with a side 1-away
            that is not the Crawford game is post-Crawford.
    """
    if away <= 0:
        return 1.0
    if other <= 0:
        return 0.0
    return _table(away, other, not crawford and (away == 1 or other == 1))


def _after(away: int, other: int, crawford: bool) -> float:
    """The MWC after a game of a match whose current game is (post-)Crawford or not (gnubg's ``getME``)."""
    if away <= 0:
        return 1.0
    if other <= 0:
        return 0.0
    return _table(away, other, crawford)


def cube_outcomes(away: int, other: int, cube: int, *, crawford: bool) -> tuple[float, float]:
    """``(W, L)``: a side's MWC after winning and after losing ``cube`` points in this game.

    The next game is post-Crawford when this one is the Crawford game or
    comes after it (a side is 1-away), as gnubg's ``getME`` has it.

    Args:
        away: points the side needs.
        other: points the opponent needs.
        cube: the points at stake (the cube value).
        crawford: this is the Crawford game.
    """
    post = crawford or away == 1 or other == 1
    return _after(away - cube, other, post), _after(away, other - cube, post)


def game_result_mwc(away: int, other: int, points: int, *, crawford: bool) -> float:
    """What winning ``points`` in this game gains the winner in MWC (gnubg's "actual result" of a game).

    Args:
        away: points the winner needed before the game.
        other: points the loser needed.
        points: points won.
        crawford: the game was the Crawford game.
    """
    return cube_outcomes(away, other, points, crawford=crawford)[0] - match_equity(away, other, crawford=crawford)
