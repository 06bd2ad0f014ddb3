"""Reading and writing checker plays as people and programs write them.

>>> parse_play("bar/22 13/7*(2)")
((25, 22, False), (13, 7, True), (13, 7, True))
>>> parse_play("24/20*/16")
((24, 20, True), (20, 16, False))
>>> parse_play("Cannot Move")
()
"""

from __future__ import annotations

import re
from functools import lru_cache

from tabla_cli.board import BAR, OFF, Play, Position, Segment, Step  # noqa: F401 (Step: the doctests use it)
from tabla_cli.errors import InvalidDiceError, InvalidPlayError

_BAR_WORDS = {"bar", "b", "бар"}
_OFF_WORDS = {"off", "o", "вън"}
_NO_MOVE = re.compile(r"^(?:cannot\s+move|can't\s+move|no\s+move)$", re.IGNORECASE)
_PART = re.compile(r"^(?P<chain>[^()]+)(?:\((?P<count>[0-9]{1,9})\))?$")
_SPLIT = re.compile(r"[\s,]+")
# Blanks before a repeat count, as in '13/7 (2)'; the look-behind keeps the
# search linear on long runs of blanks (it starts only where a run starts).
_BLANKS_BEFORE_COUNT = re.compile(r"(?<!\s)\s+\(")


def _point(word: str, text: str) -> int:
    if word.isascii() and word.isdigit():  # most points are numbers
        if len(word.lstrip("0")) > 2 or int(word) > BAR:
            raise InvalidPlayError(f"'{text}': point {word} is past the bar (25)")
        return int(word)
    low = word.lower()
    if low in _BAR_WORDS:
        return BAR
    if low in _OFF_WORDS:
        return OFF
    raise InvalidPlayError(f"'{text}': '{word}' is not a point (1-24, bar/25 or off/0)")


def _chain(part: str, text: str) -> list[Segment]:
    match = _PART.match(part)
    if match is None:
        raise InvalidPlayError(f"'{text}': cannot read '{part}'")
    chain, counted = match["chain"], match["count"]
    count = int(counted) if counted else 1
    if counted and not 2 <= count <= 4:
        raise InvalidPlayError(f"'{text}': a repeat count must be 2 to 4, not ({count})")
    sep = "/" if "/" in chain else "-"
    words = chain.split(sep)
    if len(words) < 2 or "" in words:
        raise InvalidPlayError(f"'{text}': '{part}' is not of the form from/to")
    segments: list[Segment] = []
    src = _point(words[0].rstrip("*"), text)
    for word in words[1:]:
        dst = _point(word.rstrip("*"), text)
        segments.append((src, dst, word.endswith("*")))
        src = dst
    return segments * count


@lru_cache(maxsize=65536)
def parse_play(text: str) -> tuple[Segment, ...]:
    """Read a written play into segments ``(src, dst, hit_marked)``.

    Accepts ``bar``/``25``, ``off``/``0`` in any case, ``*``, chains
    (``24/18/13``), repeats (``13/7(2)``), FIBS hyphens (``8-5``), commas,
    and ``Cannot Move`` or an empty string for no move. A segment may cover
    several dice; :func:`tabla_cli.board.resolve_play` splits it.

    Raises:
        InvalidPlayError: the text is not a play.
    """
    segments = _segments(text)
    if len(segments) > 8:
        raise InvalidPlayError(f"'{text}': more than 8 moves in one play")
    return segments


def parse_long_play(text: str) -> tuple[Segment, ...]:
    """Read a play of any length (a Gulbara progression has up to 24 moves), as :func:`parse_play` does.

    Raises:
        InvalidPlayError: a word is not a move.

    >>> len(parse_long_play("24/23(4) 23/22(4) 22/21(4)"))
    12
    """
    return _segments(text)


def _segments(text: str) -> tuple[Segment, ...]:
    body = text.strip()
    if not body or _NO_MOVE.match(body):
        return ()
    if "(" in body:
        body = _BLANKS_BEFORE_COUNT.sub("(", body)
    segments: list[Segment] = []
    for part in _SPLIT.split(body):
        if part:
            segments.extend(_chain(part, text))
    return tuple(segments)


def _name(point: int) -> str:
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


def format_play(position: Position, play: Play) -> str:
    """Write ``play`` as GNU Backgammon does (compact form, `FormatMove`).

    Steps are sorted from the highest point, joined into chains, identical
    chains counted as ``(n)``, and ``*`` put after a point that held an
    opponent blot before the move.

    >>> start = Position.start()
    >>> format_play(start, (Step(24, 18), Step(24, 18), Step(13, 7), Step(13, 7)))
    '24/18(2) 13/7(2)'
    >>> format_play(start, (Step(24, 21), Step(21, 20)))
    '24/20'
    """
    if not play:
        return ""
    opp = position.opponent
    steps = sorted(((s.src, s.dst) for s in play), key=lambda s: (-s[0], -s[1]))
    chains: list[list[int]] = []
    for src, dst in steps:
        for chain in chains:
            if chain[-1] == src and src != OFF:
                chain.append(dst)
                break
        else:
            chains.append([src, dst])
    blot = {p for p in range(1, 25) if opp[25 - p] == 1}
    groups: list[tuple[tuple[int, ...], int]] = []
    for chain in chains:
        key = tuple(chain)
        for i, (g, n) in enumerate(groups):
            if g == key:
                groups[i] = (g, n + 1)
                break
        else:
            groups.append((key, 1))
    starred: set[int] = set()
    words = []
    for chain_points, n in groups:
        out = [_name(chain_points[0])]
        for i, p in enumerate(chain_points[1:], start=1):
            last = i == len(chain_points) - 1
            if p in blot and p not in starred:
                out.append(_name(p) + "*")
                starred.add(p)
            elif last:
                out.append(_name(p))
        words.append("/".join(out) + (f"({n})" if n > 1 else ""))
    return " ".join(words)


def format_play_plain(play: Play) -> str:
    """Write ``play`` as ``.mat`` files do: one numeric ``from/to`` per die.

    >>> format_play_plain((Step(25, 21), Step(13, 7, hit=True)))
    '25/21 13/7*'
    """
    return " ".join(f"{s.src}/{s.dst}{'*' if s.hit else ''}" for s in play)


def parse_dice(text: str) -> tuple[int, int]:
    """Read dice written ``64``, ``6-4``, ``6 4`` or ``6,4``.

    Raises:
        InvalidDiceError: not two values from 1 to 6.
    """
    digits = re.sub(r"[\s\-,/x]", "", text.strip())
    if len(digits) != 2 or not all(c in "123456" for c in digits):
        raise InvalidDiceError(f"'{text}' is not a roll: give two dice from 1 to 6, e.g. 64 or 6-4")
    return int(digits[0]), int(digits[1])
