"""ASCII boards in the spirit of GNU Backgammon's."""

from __future__ import annotations

from tabla_cli.board import BAR, OFF, Position

_TOP = " +13-14-15-16-17-18------19-20-21-22-23-24-+"
_BOTTOM = " +12-11-10--9--8--7-------6--5--4--3--2--1-+"


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
    me, opp = position.mover, position.opponent

    def owner(point: int) -> tuple[int, str]:
        if me[point]:
            return me[point], bottom
        return opp[25 - point], top

    upper = list(range(13, 25))
    lower = list(range(12, 0, -1))
    lines = [_TOP]
    for row in range(5):
        lines.append(_row(upper, row, owner, opp[BAR], top))
    lines.append(" |                  |BAR|                  |")
    for row in range(4, -1, -1):
        lines.append(_row(lower, row, owner, me[BAR], bottom))
    lines.append(_BOTTOM)
    return lines


def _row(points: list[int], row: int, owner: object, bar: int, mark: str) -> str:
    cells = []
    for point in points:
        count, who = owner(point)  # type: ignore[operator]
        cells.append(f" {_cell(count, row, who)} ")
    left = "".join(cells[:6])
    right = "".join(cells[6:])
    middle = f" {_cell(bar, row, mark)} "
    return f" |{left}|{middle}|{right}|"


def describe(position: Position) -> list[str]:
    """Pip counts and borne-off checkers under the board."""
    pips = position.pips()
    return [
        f"Pip count  X: {pips[0]}  O: {pips[1]}",
        f"Borne off  X: {position.mover[OFF]}  O: {position.opponent[OFF]}",
    ]
