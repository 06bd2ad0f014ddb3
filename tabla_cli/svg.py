"""Board diagrams as SVG, drawn by code in the manner of python-chess's ``chess.svg``.

:func:`board_svg` draws a :class:`~tabla_cli.board.Position` as GNU
Backgammon's ASCII board does (:func:`tabla_cli.render.board_lines`): the side
on roll sits at the bottom and moves from the top left (its 13 point) round to
its home board at the bottom right (points 1-6); the point numbers are the
side on roll's. Around the board: the score line, each side's pip count and
borne-off checkers, the cube (in the left margin: centred, or at its owner's
edge), the dice (on the right half, as gnubg shows the roller's) and an
optional caption.

Sides are the players of :class:`~tabla_cli.ids.MatchState`: player 0 draws
light checkers marked ``O`` and player 1 dark ones marked ``X``.

The output is one self-contained ``<svg>`` element (no ``id`` attributes, so
several can sit in one HTML page), scalable through its ``viewBox`` and the
same bytes for the same arguments. Elements carry classes for styling and
testing: ``checker o`` / ``checker x`` (one circle per checker drawn: at most
five a point, the fifth showing a bigger stack's size as ``count o`` /
``count x``), ``off o`` / ``off x`` (borne-off checkers), ``point-number``,
``score``, ``legend``, ``caption``, ``cube`` and ``die``.

>>> svg = board_svg(Position.start(), dice=(3, 1))
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
True
>>> svg.count('class="checker o"'), svg.count('class="checker x"')
(15, 15)
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from tabla_cli.board import BAR, OFF, Player, Position
from tabla_cli.errors import UnsupportedFormatError

__all__ = ["MARKS", "board_svg"]

MARKS = {Player.ZERO: "O", Player.ONE: "X"}
"""Each side's letter, as GNU Backgammon names them."""

_NS = "http://www.w3.org/2000/svg"

# Geometry, in viewBox units.
_P = 36  # point width and checker pitch
_R = 17  # checker radius
_STACK = 5  # checkers drawn on one point before a count is shown
_M = 8  # outer margin
_SIDE = 48  # the cube's column, left of the board
_FRAME = 10  # width of the wooden frame
_BAR = 48  # width of the bar
_TRAY = 48  # width of the borne-off tray
_HALF = 6 * _P  # width of one half of the board
_PH = _STACK * _P  # height of a point (room for five checkers)
_GAP = 48  # height of the strip between the two rows of points
_LINE = 26  # height of a text line
_FONT = 14  # font size of text lines

_LEFT = _M + _SIDE + _FRAME  # x of the left half
_BAR_X = _LEFT + _HALF  # x of the bar
_RIGHT = _BAR_X + _BAR  # x of the right half
_TRAY_X = _RIGHT + _HALF + _FRAME  # x of the tray
_WIDTH = _TRAY_X + _TRAY + _FRAME + _M  # width of the whole drawing

_TOP = 2 * _LINE + 18 + _FRAME  # y of the top edge of the playing area
_MID = _TOP + _PH  # y where the middle strip starts
_BOTTOM = _MID + _GAP  # y where the bottom row of points starts
_BASE = _BOTTOM + _PH  # y of the bottom edge of the playing area

_COLOURS = {
    "background": "#ffffff",
    "frame": "#6b4423",
    "surface": "#f3e9d2",
    "dark point": "#a64b2a",
    "light point": "#d8c08f",
    "text": "#1a1a1a",
    "cube": "#fdfdf8",
}
_CHECKER = {Player.ZERO: ("#f7f4ea", "#3b3b3b"), Player.ONE: ("#262626", "#000000")}
"""Fill and outline of each side's checkers; text on a checker uses the other side's fill."""

_PIPS = {
    1: ((2, 2),),
    2: ((1, 3), (3, 1)),
    3: ((1, 3), (2, 2), (3, 1)),
    4: ((1, 1), (1, 3), (3, 1), (3, 3)),
    5: ((1, 1), (1, 3), (2, 2), (3, 1), (3, 3)),
    6: ((1, 1), (1, 2), (1, 3), (3, 1), (3, 2), (3, 3)),
}
"""Where a die's spots sit, on a 4x4 grid of its face."""


def board_svg(
    position: Position,
    *,
    on_roll: Player = Player.ZERO,
    dice: tuple[int, int] | None = None,
    cube: int = 1,
    cube_owner: Player | None = None,
    score: tuple[int, int] | None = None,
    length: int = 0,
    crawford: bool = False,
    names: tuple[str, str] | None = None,
    caption: str | None = None,
    title: str | None = None,
    size: int | None = None,
) -> str:
    """Draw ``position`` as an SVG document (one ``<svg>`` element, no XML declaration).

    Args:
        position: the checkers, seen from the side on roll (drawn at the bottom).
        on_roll: which player ``position.mover`` is.
        dice: the roll to show, or None for none.
        cube: the cube's value.
        cube_owner: the player who owns the cube; None when it is centred
            (then a cube of 1 shows 64, as on a real board).
        score: points won so far, ``(player 0, player 1)``; None for none.
        length: the match length; 0 for money play.
        crawford: this is the Crawford game.
        names: the players' names, ``(player 0, player 1)``; each side is
            labelled with its letter (``O``, ``X``) and its name when given.
        caption: a line of text under the board (e.g. the play made and the best).
        title: the accessible title; by default the Position ID, the side on
            roll and the dice.
        size: width in pixels (the height follows); None leaves only the
            ``viewBox``, so the drawing fills whatever holds it.

    Returns:
        The SVG text, identical for identical arguments.

    Raises:
        UnsupportedFormatError: ``position`` belongs to a variant that is not
            played on the standard board (Plakoto, Fevga, ...), or the dice
            are not two numbers from 1 to 6.
    """
    if type(position) is not Position:
        raise UnsupportedFormatError(
            f"board diagrams are drawn for backgammon, nackgammon and hypergammon positions only, "
            f"not for a {type(position).__name__}"
        )
    if dice is not None and not all(1 <= d <= 6 for d in dice):
        raise UnsupportedFormatError(f"dice {dice[0]}-{dice[1]} cannot be drawn")
    sides = {on_roll: position.mover, on_roll.other: position.opponent}
    labels = {p: _label(p, names) for p in Player}
    height = _BASE + _FRAME + 18 + 2 * _LINE + (_LINE if caption else 0) + _M // 2
    svg = ET.Element("svg", {"xmlns": _NS, "viewBox": f"0 0 {_WIDTH} {height}"})
    if size is not None:
        svg.set("width", str(size))
        svg.set("height", str(round(size * height / _WIDTH)))
    svg.set("font-family", "DejaVu Sans, Verdana, Arial, sans-serif")
    ET.SubElement(svg, "title").text = title or _title(position, on_roll, dice)
    _rect(svg, 0, 0, _WIDTH, height, _COLOURS["background"])

    top, bottom = on_roll.other, on_roll
    _text(
        svg,
        _WIDTH / 2,
        _LINE - 8,
        _score_line(labels, (top, bottom), score, length, crawford),
        size=_FONT + 1,
        weight="bold",
        cls="score",
    )
    _legend(svg, _LINE + _LINE - 8, top, labels[top], sides[top], on_roll=False)
    _board(svg)
    _numbers(svg)
    _points(svg, position, on_roll)
    _bar(svg, position, on_roll)
    _tray(svg, sides, on_roll)
    _cube(svg, cube, cube_owner, on_roll)
    if dice is not None:
        _dice(svg, dice, on_roll)
    legend_y = _BASE + _FRAME + 18 + _LINE - 8
    _legend(svg, legend_y, bottom, labels[bottom], sides[bottom], on_roll=True)
    if caption:
        _text(svg, _WIDTH / 2, legend_y + _LINE, caption, cls="caption")
    ET.indent(svg, space=" ")
    return ET.tostring(svg, encoding="unicode") + "\n"


# --- text ---------------------------------------------------------------------


def _label(player: Player, names: tuple[str, str] | None) -> str:
    mark = MARKS[player]
    name = names[player].strip() if names is not None else ""
    return f"{name} ({mark})" if name and name != mark else mark


def _score_line(
    labels: dict[Player, str], order: tuple[Player, Player], score: tuple[int, int] | None, length: int, crawford: bool
) -> str:
    kind = f"{length}-point match" if length else "money game"
    if crawford and length:
        kind += ", Crawford game"
    if score is None:
        return kind
    return f"{labels[order[0]]} {score[order[0]]}, {labels[order[1]]} {score[order[1]]} \u2014 {kind}"


def _title(position: Position, on_roll: Player, dice: tuple[int, int] | None) -> str:
    rolled = f", dice {dice[0]}-{dice[1]}" if dice else ""
    return f"Backgammon position {position.position_id()}, {MARKS[on_roll]} on roll{rolled}"


def _legend(svg: ET.Element, y: float, player: Player, label: str, counts: tuple[int, ...], *, on_roll: bool) -> None:
    pips = sum(i * n for i, n in enumerate(counts))
    roll = ", on roll" if on_roll else ""
    text = f"{label}{roll}: pip count {pips}, borne off {counts[OFF]}"
    size = _fit(text, _FONT, _WIDTH - 2 * _M - 22)
    x = (_WIDTH - _estimate(text, size) - 22) / 2
    fill, line = _CHECKER[player]
    _circle(svg, x + 8, y - 5, 8, fill, line, cls=f"legend {MARKS[player].lower()}")
    _text(svg, x + 22, y, text, size=size, anchor="start", cls="legend")


def _estimate(text: str, size: float, bold: bool = False) -> float:
    """A generous guess of the width of ``text`` in a sans-serif font."""
    return (0.64 if bold else 0.56) * size * len(text)


def _fit(text: str, size: float, room: float, bold: bool = False) -> float:
    """``size``, or the smaller font size that fits ``text`` into ``room``."""
    need = _estimate(text, size, bold)
    return size if need <= room else max(6.0, int(size * room / need * 4) / 4)


def _text(
    svg: ET.Element,
    x: float,
    y: float,
    text: str,
    *,
    size: float = _FONT,
    anchor: str = "middle",
    weight: str | None = None,
    fill: str = _COLOURS["text"],
    cls: str | None = None,
) -> ET.Element:
    """A line of text; lines across the drawing get a smaller font if they would not fit."""
    if anchor == "middle" and x == _WIDTH / 2:
        size = _fit(text, size, _WIDTH - 2 * _M, bold=weight == "bold")
    node = ET.SubElement(
        svg, "text", {"x": _n(x), "y": _n(y), "font-size": _n(size), "text-anchor": anchor, "fill": fill}
    )
    if weight:
        node.set("font-weight", weight)
    if cls:
        node.set("class", cls)
    node.text = text
    return node


# --- shapes -------------------------------------------------------------------


def _n(value: float) -> str:
    """A coordinate written the same way every time (no trailing ``.0``)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _rect(svg: ET.Element, x: float, y: float, w: float, h: float, fill: str, **extra: str) -> ET.Element:
    attrs = {"x": _n(x), "y": _n(y), "width": _n(w), "height": _n(h), "fill": fill}
    attrs.update({k.rstrip("_").replace("_", "-"): v for k, v in extra.items()})
    return ET.SubElement(svg, "rect", attrs)


def _circle(svg: ET.Element, cx: float, cy: float, r: float, fill: str, line: str, *, cls: str) -> None:
    ET.SubElement(
        svg,
        "circle",
        {"class": cls, "cx": _n(cx), "cy": _n(cy), "r": _n(r), "fill": fill, "stroke": line, "stroke-width": "1.5"},
    )


def _board(svg: ET.Element) -> None:
    outer_w = _TRAY_X + _TRAY + _FRAME - (_LEFT - _FRAME)
    _rect(svg, _LEFT - _FRAME, _TOP - _FRAME, outer_w, _BASE - _TOP + 2 * _FRAME, _COLOURS["frame"], rx="4")
    for x in (_LEFT, _RIGHT):
        _rect(svg, x, _TOP, _HALF, _BASE - _TOP, _COLOURS["surface"])
    for y in (_TOP, _BOTTOM):
        _rect(svg, _TRAY_X, y, _TRAY, _PH, _COLOURS["surface"], class_="tray")


def _column(point: int) -> tuple[float, bool]:
    """The x of the centre of ``point`` (mover's numbering) and whether it is in the top row."""
    if point >= 13:
        index, top = point - 13, True
    else:
        index, top = 12 - point, False
    x = (_LEFT if index < 6 else _RIGHT) + (index % 6) * _P + _P / 2
    return x, top


def _numbers(svg: ET.Element) -> None:
    for point in range(1, 25):
        x, top = _column(point)
        y = _TOP - _FRAME - 5 if top else _BASE + _FRAME + 14
        _text(svg, x, y, str(point), size=12, cls="point-number")


def _points(svg: ET.Element, position: Position, on_roll: Player) -> None:
    for point in range(1, 25):
        x, top = _column(point)
        base, tip = (_TOP, _TOP + _PH - 8) if top else (_BASE, _BASE - _PH + 8)
        colour = _COLOURS["dark point" if point % 2 else "light point"]
        corners = f"{_n(x - _P / 2)},{_n(base)} {_n(x + _P / 2)},{_n(base)} {_n(x)},{_n(tip)}"
        ET.SubElement(svg, "polygon", {"class": "point", "points": corners, "fill": colour})
    for point in range(1, 25):
        x, top = _column(point)
        mine, theirs = position.mover[point], position.opponent[25 - point]
        owner, count = (on_roll, mine) if mine else (on_roll.other, theirs)
        step = _P if top else -_P
        first = (_TOP if top else _BASE) + step / 2
        _stack(svg, x, first, step, owner, count)
        if mine and theirs:  # only an impossible position has both; draw the other side beside it
            _stack(svg, x, first + step * min(mine, _STACK), step, on_roll.other, theirs)


def _stack(svg: ET.Element, x: float, first: float, step: float, player: Player, count: int) -> None:
    """``count`` checkers from ``first`` on, ``step`` apart; more than five show their number."""
    fill, line = _CHECKER[player]
    cls = f"checker {MARKS[player].lower()}"
    shown = min(count, _STACK)
    for i in range(shown):
        _circle(svg, x, first + i * step, _R, fill, line, cls=cls)
    if count > _STACK:
        y = first + (shown - 1) * step
        _text(
            svg,
            x,
            y + 5,
            str(count),
            size=14,
            weight="bold",
            fill=_CHECKER[player.other][0],
            cls=f"count {MARKS[player].lower()}",
        )


def _bar(svg: ET.Element, position: Position, on_roll: Player) -> None:
    _rect(svg, _BAR_X, _TOP - _FRAME, _BAR, _BASE - _TOP + 2 * _FRAME, _COLOURS["frame"], class_="bar")
    x = _BAR_X + _BAR / 2
    _stack(svg, x, _MID - _P / 2, -_P, on_roll.other, position.opponent[BAR])
    _stack(svg, x, _BOTTOM + _P / 2, _P, on_roll, position.mover[BAR])


def _tray(svg: ET.Element, sides: dict[Player, tuple[int, ...]], on_roll: Player) -> None:
    """Borne-off checkers as slabs: the side on roll's in the bottom tray (beside its home board)."""
    pitch, thick = 11, 9
    for player, edge, step in ((on_roll.other, _TOP + 2, pitch), (on_roll, _BASE - 2 - thick, -pitch)):
        fill, line = _CHECKER[player]
        for i in range(sides[player][OFF]):
            _rect(
                svg,
                _TRAY_X + 4,
                edge + i * step,
                _TRAY - 8,
                thick,
                fill,
                stroke=line,
                stroke_width="1",
                rx="2",
                class_=f"off {MARKS[player].lower()}",
            )


def _cube(svg: ET.Element, value: int, owner: Player | None, on_roll: Player) -> None:
    side = 36
    x = _M + (_SIDE - side) / 2
    if owner is None:
        y = _MID + (_GAP - side) / 2
    elif owner == on_roll:
        y = _BASE - side
    else:
        y = _TOP
    group = ET.SubElement(svg, "g", {"class": "cube"})
    _rect(group, x, y, side, side, _COLOURS["cube"], stroke="#333333", stroke_width="1.5", rx="5")
    shown = 64 if owner is None and value == 1 else value
    font = 18 if shown < 100 else 14
    _text(group, x + side / 2, y + side / 2 + font * 0.36, str(shown), size=font, weight="bold")


def _dice(svg: ET.Element, dice: tuple[int, int], on_roll: Player) -> None:
    side = 32
    fill, line = _CHECKER[on_roll]
    spot = _CHECKER[on_roll.other][0]
    centre = _RIGHT + _HALF / 2
    y = _MID + (_GAP - side) / 2
    for i, die in enumerate(dice):
        x = centre + (-side - 6 if i == 0 else 6)
        group = ET.SubElement(svg, "g", {"class": "die"})
        _rect(group, x, y, side, side, fill, stroke=line, stroke_width="1.5", rx="5")
        for col, row in _PIPS[die]:
            ET.SubElement(
                group, "circle", {"cx": _n(x + col * side / 4), "cy": _n(y + row * side / 4), "r": "3", "fill": spot}
            )
