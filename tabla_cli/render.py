"""ASCII boards in the spirit of GNU Backgammon's, and gnubg's own layout with its legend."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from tabla_cli.board import BAR, OFF, Player, Position

if TYPE_CHECKING:
    from tabla_cli.ids.match import MatchState

_HIGH = " +13-14-15-16-17-18------19-20-21-22-23-24-+"
_LOW = " +12-11-10--9--8--7-------6--5--4--3--2--1-+"
_MARKS = {Player.ZERO: "O", Player.ONE: "X"}
LEGEND_SLOTS = 7
"""Lines of gnubg's legend: top border, two rows, the bar line, two rows, bottom border."""


def _cell(count: int, row: int, mark: str) -> str:
    """What a point shows on ``row`` (0 = the row next to the edge)."""
    if count <= row:
        return " "
    if row == 4 and count > 5:
        return str(count) if count < 10 else "+"
    return mark


def board_lines(position: Position, *, top: str = "O", bottom: str = "X") -> list[str]:
    """The board seen by the side on roll (``bottom``, moving 24 to 1).

    >>> print("\\n".join(board_lines(Position.start())[:2]))
     +13-14-15-16-17-18------19-20-21-22-23-24-+
     | X           O    |   | O              X |
    """
    return _grid(position, bottom, top, mover_on_top=False)


def _grid(position: Position, mine: str, theirs: str, *, mover_on_top: bool) -> list[str]:
    """The 13 lines of the board; the mover's points numbered 1..24 from its home."""
    me, opp = position.mover, position.opponent

    def owner(point: int) -> tuple[int, str]:
        if me[point]:
            return me[point], mine
        return opp[25 - point], theirs

    high, low = list(range(13, 25)), list(range(12, 0, -1))
    upper, lower = (low, high) if mover_on_top else (high, low)
    top_bar, top_mark, bottom_bar, bottom_mark = (
        (me[BAR], mine, opp[BAR], theirs) if mover_on_top else (opp[BAR], theirs, me[BAR], mine)
    )
    lines = [_LOW if mover_on_top else _HIGH]
    lines += [_row(upper, row, owner, top_bar, top_mark) for row in range(5)]
    lines.append(" |                  |BAR|                  |")
    lines += [_row(lower, row, owner, bottom_bar, bottom_mark) for row in range(4, -1, -1)]
    lines.append(_HIGH if mover_on_top else _LOW)
    return lines


def _row(points: list[int], row: int, owner: Callable[[int], tuple[int, str]], bar: int, mark: str) -> str:
    cells = []
    for point in points:
        count, who = owner(point)
        cells.append(f" {_cell(count, row, who)} ")
    return f" |{''.join(cells[:6])}| {_cell(bar, row, mark)} |{''.join(cells[6:])}|"


def gnubg_board(position: Position, on_roll: Player, legend: Sequence[str | None] = ()) -> list[str]:
    """The board as GNU Backgammon's text export draws it, legend and borne-off checkers beside it.

    O (gnubg's player 0) is always on top and X at the bottom; the points are
    numbered from the side on roll (``mover``), which the bar line's arrow
    marks (``^`` O, ``v`` X). Borne-off checkers stand right of the board in
    columns of five, O's from the top, X's from the bottom.

    Args:
        position: the position, seen from ``on_roll``.
        on_roll: the player the position is seen from.
        legend: up to :data:`LEGEND_SLOTS` texts for the right-hand side
            (see :func:`gnubg_legend`); None or missing slots stay blank.

    Returns:
        13 lines, trailing blanks removed.

    >>> print("\\n".join(gnubg_board(Position.start(), Player.ZERO, ["O: Ann"])[:2]))
     +12-11-10--9--8--7-------6--5--4--3--2--1-+     O: Ann
     | X           O    |   | O              X |
    """
    mine, theirs = _MARKS[on_roll], _MARKS[on_roll.other]
    grid = _grid(position, mine, theirs, mover_on_top=on_roll is Player.ZERO)
    grid[6] = ("^" if on_roll is Player.ZERO else "v") + grid[6][1:]
    off = {on_roll: position.mover[OFF], on_roll.other: position.opponent[OFF]}
    trays = ["   "] * 13
    for row in range(5):
        trays[1 + row] = "".join("O" if off[Player.ZERO] > 5 * column + row else " " for column in range(3))
        trays[11 - row] = "".join("X" if off[Player.ONE] > 5 * column + row else " " for column in range(3))
    slots = list(legend) + [None] * (LEGEND_SLOTS - len(legend))
    texts = dict(zip((0, 1, 2, 6, 10, 11, 12), slots))
    return [f"{line} {tray} {texts.get(i) or ''}".rstrip() for i, (line, tray) in enumerate(zip(grid, trays))]


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def gnubg_legend(
    state: MatchState, names: Sequence[str] = ("player 0", "player 1"), *, over: bool = False
) -> list[str | None]:
    """The texts gnubg's text export writes beside its board, in :func:`gnubg_board`'s slots.

    Names and scores by side, O (player 0) above X; the roll or ``On roll``
    beside the side on roll (``Cube offered at N`` beside the side that must
    answer a double); the match length and centred cube on the bar line, an
    owned cube beside its owner's name; while a double is pending, only the
    offer.

    Args:
        state: the match state.
        names: the players' names, player 0 (O) first.
        over: the game is over (no ``On roll``).
    """
    slots: list[str | None] = [
        f"O: {names[0]}",
        _points(state.score[0]),
        None,
        None,
        None,
        _points(state.score[1]),
        f"X: {names[1]}",
    ]
    if state.doubled:
        slots[4 if state.turn is Player.ONE else 2] = f"Cube offered at {state.cube * 2}"
        return slots
    if state.dice or not over:
        roll = f"Rolled {state.dice[0]}{state.dice[1]}" if state.dice else "On roll"
        slots[4 if state.dice_owner is Player.ONE else 2] = roll
    match = f"{_points(state.length)} match" if state.length else None
    if state.cube_owner is None:
        if state.length == 1:
            slots[3] = match
        elif state.crawford:
            slots[3] = f"{match} (Crawford game)"
        else:
            slots[3] = f"{match} (Cube: {state.cube})" if match else f"(Cube: {state.cube})"
    else:
        owner = 6 if state.cube_owner is Player.ONE else 0
        slots[owner] = f"{slots[owner]} (Cube: {state.cube})"
        slots[3] = match
    return slots


def describe(position: Position) -> list[str]:
    """Pip counts and borne-off checkers under the board."""
    pips = position.pips()
    return [
        f"Pip count  X: {pips[0]}  O: {pips[1]}",
        f"Borne off  X: {position.mover[OFF]}  O: {position.opponent[OFF]}",
    ]
