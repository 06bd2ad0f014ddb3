"""Positions, steps, plays and legal-play generation for standard backgammon.

Everything here is pure Python with no third-party imports: it is the hot path
of every replay.

A :class:`Position` is seen from the side on roll ("the mover"). Each side is a
tuple of 26 counters in that side's own numbering: index 0 holds the checkers
borne off, 1..24 the points and 25 (:data:`BAR`) the bar. The mover's point
``p`` is the opponent's point ``25 - p``.

>>> start = Position.start()
>>> start.pips()
(167, 167)
>>> len(legal_plays(start, (3, 1)))
16
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import IntEnum

from tabla_cli.position_key import decode_sides, encode_sides

Point = int
OFF: Point = 0
BAR: Point = 25
CHECKERS = 15

Dice = tuple[int, int]


class Player(IntEnum):
    """The two sides of a match: 0 is the left column of a ``.mat`` file."""

    ZERO = 0
    ONE = 1

    @property
    def other(self) -> Player:
        return Player.ONE if self is Player.ZERO else Player.ZERO


@dataclass(frozen=True, slots=True)
class Step:
    """One checker moved by one die, in the mover's numbering."""

    src: Point
    dst: Point
    hit: bool = False

    def __str__(self) -> str:
        src = "bar" if self.src == BAR else str(self.src)
        dst = "off" if self.dst == OFF else str(self.dst)
        return f"{src}/{dst}{'*' if self.hit else ''}"


Play = tuple[Step, ...]
"""A play is the ordered steps of one turn; the empty play means "no move"."""

_STEPS = {(s, d, h): Step(s, d, h) for s in range(26) for d in range(26) for h in (False, True)}


def _side(counts: dict[int, int]) -> tuple[int, ...]:
    side = [0] * 26
    for point, n in counts.items():
        side[point] = n
    side[OFF] = CHECKERS - sum(side[1:])
    return tuple(side)


@dataclass(frozen=True, slots=True)
class Position:
    """An immutable, hashable checker position seen from the side on roll.

    Attributes:
        mover: the side on roll, 26 counters (off, points 1..24, bar).
        opponent: the other side, in its own numbering.
    """

    mover: tuple[int, ...]
    opponent: tuple[int, ...]

    @classmethod
    def start(cls) -> Position:
        """The standard starting position."""
        side = _side({24: 2, 13: 5, 8: 3, 6: 5})
        return cls(side, side)

    @classmethod
    def from_points(cls, mover: dict[int, int], opponent: dict[int, int]) -> Position:
        """Build a position from ``{point: count}`` maps (25 = bar); the rest are off."""
        return cls(_side(mover), _side(opponent))

    @classmethod
    def from_id(cls, position_id: str) -> Position:
        """Decode a GNU Backgammon Position ID (see :mod:`tabla_cli.ids`)."""
        return cls(*decode_sides(position_id, strict=True, checkers=CHECKERS))

    def position_id(self) -> str:
        """The GNU Backgammon Position ID of this position."""
        return encode_sides(self.mover, self.opponent, CHECKERS)

    def __repr__(self) -> str:
        return f"Position.from_id({self.position_id()!r})"

    def flip(self) -> Position:
        """The same position with the other side on roll."""
        return Position(self.opponent, self.mover)

    def pips(self) -> tuple[int, int]:
        """Pip counts ``(mover, opponent)``."""
        return (
            sum(i * n for i, n in enumerate(self.mover)),
            sum(i * n for i, n in enumerate(self.opponent)),
        )

    def apply(self, play: Play) -> Position:
        """The position after ``play``, still seen from the side that moved.

        The play is trusted: use :func:`is_legal` to check it first.
        """
        me = list(self.mover)
        opp = list(self.opponent)
        for step in play:
            me[step.src] -= 1
            me[step.dst] += 1
            if step.dst and opp[25 - step.dst] == 1:
                opp[25 - step.dst] = 0
                opp[BAR] += 1
        return Position(tuple(me), tuple(opp))


# --- single steps -----------------------------------------------------------


def _step_list(me: list[int], opp: list[int], die: int, top: int) -> list[tuple[int, int, bool]]:
    """Legal single steps ``(src, dst, hit)`` with ``die`` from points <= ``top``."""
    if me[BAR]:
        if top == BAR and opp[die] < 2:
            return [(BAR, BAR - die, opp[die] == 1)]
        return []
    out = []
    home: bool | None = None
    for src in range(top if top < BAR else 24, 0, -1):
        if me[src]:
            dst = src - die
            if dst > 0:
                n = opp[25 - dst]
                if n < 2:
                    out.append((src, dst, n == 1))
            else:
                if home is None:
                    home = not any(me[7:BAR])
                if home and (dst == 0 or not any(me[src + 1 : 7])):
                    out.append((src, OFF, False))
    return out


def _step_result(me: list[int], opp: list[int], src: int, die: int) -> tuple[int, bool] | None:
    """``(dst, hit)`` if moving a checker from ``src`` with ``die`` is legal now, else None."""
    if src < 1 or src > BAR or not me[src]:
        return None
    if me[BAR] and src != BAR:
        return None
    dst = src - die
    if dst > 0:
        n = opp[25 - dst]
        if n >= 2:
            return None
        return dst, n == 1
    if any(me[7:BAR]):
        return None
    if dst < 0 and any(me[src + 1 : 7]):
        return None
    return OFF, False


def _move(me: list[int], opp: list[int], src: int, dst: int, hit: bool) -> None:
    """Move a checker of ``me`` from ``src`` to ``dst`` (in place), hitting ``opp``'s blot there if ``hit``."""
    me[src] -= 1
    me[dst] += 1
    if hit:
        opp[25 - dst] = 0
        opp[BAR] += 1


# --- generation -------------------------------------------------------------


_Found = tuple[tuple[tuple[int, int, bool, int], ...], tuple[int, ...], tuple[int, ...]]


class _Search:
    """Depth-first search over step sequences, moving checkers in place and back.

    ``out`` maps each distinct result (our checkers, plus the points hit) to
    one path of ``(src, dst, hit, die)`` and the two resulting sides; only
    paths of the greatest ``depth`` (dice used) are kept.
    """

    __slots__ = ("me", "opp", "doubles", "path", "depth", "out", "hits")

    def __init__(self, position: Position, doubles: bool) -> None:
        self.me = list(position.mover)
        self.opp = list(position.opponent)
        self.doubles = doubles
        self.path: list[tuple[int, int, bool, int]] = []
        self.depth = 0
        self.hits = 0
        self.out: dict[object, _Found] = {}

    def run(self, die: int, i: int, top: int) -> None:
        """Doubles: up to four steps of ``die``, sources never rising."""
        me, opp, path = self.me, self.opp, self.path
        moved = False
        if i < 4:
            for src, dst, hit in _step_list(me, opp, die, top):
                moved = True
                me[src] -= 1
                me[dst] += 1
                if hit:
                    opp[25 - dst] = 0
                    opp[BAR] += 1
                    self.hits += 1
                path.append((src, dst, hit, die))
                self.run(die, i + 1, src)
                path.pop()
                if hit:
                    opp[25 - dst] = 1
                    opp[BAR] -= 1
                    self.hits -= 1
                me[src] += 1
                me[dst] -= 1
        if moved or i < self.depth:
            return
        if i > self.depth:
            self.depth = i
            self.out.clear()
        mine = tuple(me)
        key: object = (mine, tuple(sorted(p[1] for p in path if p[2]))) if self.hits else mine
        if key not in self.out:
            self.out[key] = (tuple(path), mine, tuple(opp))

    def two(self, d1: int, d2: int, skip: frozenset[int]) -> None:
        """Non-doubles: ``d1`` then ``d2``; second steps from ``skip`` (other
        than the first step's landing point) were already found in the other order."""
        me, opp, out = self.me, self.opp, self.out
        for s1, t1, h1 in _step_list(me, opp, d1, BAR):
            me[s1] -= 1
            me[t1] += 1
            if h1:
                opp[25 - t1] = 0
                opp[BAR] += 1
            seconds = _step_list(me, opp, d2, BAR)
            if seconds:
                if self.depth < 2:
                    self.depth = 2
                    out.clear()
                for s2, t2, h2 in seconds:
                    if s2 in skip and s2 != t1:
                        continue
                    me[s2] -= 1
                    me[t2] += 1
                    if h2:
                        opp[25 - t2] = 0
                        opp[BAR] += 1
                    mine = tuple(me)
                    key: object = mine
                    if h1 or h2:
                        key = (mine, tuple(sorted(t for t, h in ((t1, h1), (t2, h2)) if h)))
                    if key not in out:
                        out[key] = (((s1, t1, h1, d1), (s2, t2, h2, d2)), mine, tuple(opp))
                    if h2:
                        opp[25 - t2] = 1
                        opp[BAR] -= 1
                    me[s2] += 1
                    me[t2] -= 1
            elif self.depth < 2:
                self.depth = 1
                mine = tuple(me)
                key = (mine, (t1,)) if h1 else mine
                if key not in out:
                    out[key] = (((s1, t1, h1, d1),), mine, tuple(opp))
            if h1:
                opp[25 - t1] = 1
                opp[BAR] -= 1
            me[s1] += 1
            me[t1] -= 1


def _search(position: Position, dice: Dice) -> _Search:
    a, b = dice
    if a == b:
        search = _Search(position, True)
        search.run(a, 0, BAR)
        return search
    search = _Search(position, False)
    search.two(a, b, frozenset())
    first = frozenset(src for src, _, _ in _step_list(search.me, search.opp, a, BAR))
    search.two(b, a, first)
    if search.depth == 0:
        mine = tuple(search.me)
        search.out[mine] = ((), mine, tuple(search.opp))
    elif search.depth == 1:
        high = max(a, b)
        kept = {k: v for k, v in search.out.items() if v[0][0][3] == high}
        if kept:
            search.out = kept
    return search


def legal_plays(position: Position, dice: Dice) -> dict[Position, Play]:
    """Every legal play for ``dice``, keyed by the resulting position.

    The result position is seen from the side that moved. A roll that cannot
    be played gives ``{position: ()}``.

    >>> plays = legal_plays(Position.start(), (5, 5))
    >>> len(plays)
    4
    """
    steps = _STEPS
    return {
        Position(mine, theirs): tuple([steps[p[0], p[1], p[2]] for p in path])
        for path, mine, theirs in _search(position, dice).out.values()
    }


def max_dice_playable(position: Position, dice: Dice) -> int:
    """How many dice the best legal play uses (0 when the roll is forfeit)."""
    return _search(position, dice).depth


def can_move(position: Position, dice: Dice) -> bool:
    """True if at least one die of ``dice`` can be played."""
    me = list(position.mover)
    opp = list(position.opponent)
    return any(_step_list(me, opp, die, BAR) for die in set(dice))


def is_legal(position: Position, dice: Dice, play: Play) -> bool:
    """True if ``play`` is a complete legal play of ``dice`` in ``position``.

    Checks the steps one by one and only enumerates the alternatives when the
    play uses fewer dice than were rolled.

    >>> is_legal(Position.start(), (3, 1), (Step(8, 5), Step(6, 5)))
    True
    >>> is_legal(Position.start(), (3, 1), (Step(8, 5),))
    False
    """
    return resolve_play(position, dice, tuple((s.src, s.dst, s.hit) for s in play)).error is None


# --- written plays ------------------------------------------------------------

Segment = tuple[int, int, bool]
"""A written move ``(src, dst, hit_marked)`` that may span several dice (``24/13``)."""


@dataclass(frozen=True, slots=True)
class Resolution:
    """What a written play means in a position.

    Attributes:
        play: the single-die steps chosen (None when the text cannot be played).
        result: the position after the play, seen from the side that moved.
        error: why the play is illegal, or None.
        alternatives: how many distinct positions the text could mean (> 1:
            written ambiguously; the one without a hidden hit was chosen).
    """

    play: Play | None
    result: Position | None
    error: str | None
    alternatives: int = 1


def _dice_runs(pool: list[int], seg: Segment) -> list[tuple[int, ...]]:
    """Sequences of dice from ``pool`` that carry one checker along ``seg``."""
    src, dst, _ = seg
    distance = src - dst
    runs: list[tuple[int, ...]] = []

    def grow(run: tuple[int, ...], left: list[int], moved: int) -> None:
        for die in sorted(set(left)):
            total = moved + die
            if total == distance or (dst == OFF and total > distance):
                runs.append(run + (die,))
            elif total < distance:
                rest = left.copy()
                rest.remove(die)
                grow(run + (die,), rest, total)

    if distance > 0:
        grow((), pool, 0)
    return runs


def _assignments(pool: list[int], segments: tuple[Segment, ...]) -> list[list[tuple[int, int, int]]]:
    """Every way to give each segment its dice: lists of ``(src, dst, die)`` steps."""
    if not segments:
        return [[]]
    seg, rest = segments[0], segments[1:]
    out: list[list[tuple[int, int, int]]] = []
    for run in _dice_runs(pool, seg):
        left = pool.copy()
        for die in run:
            left.remove(die)
        steps = []
        at = seg[0]
        for die in run:
            to = max(at - die, OFF)
            steps.append((at, to, die))
            at = to
        for tail in _assignments(left, rest):
            out.append(steps + tail)
    return out


def _orders(steps: list[tuple[int, int, int]]) -> Iterator[list[tuple[int, int, int]]]:
    """The orders to try ``steps`` in: as written, then from the highest point down, then (two steps) reversed.

    A generator: the written order is most often legal, and the others are not worked out then.
    """
    yield steps
    ranked = sorted(steps, key=lambda s: -s[0])
    if ranked != steps:
        yield ranked
    if len(steps) == 2 and steps[::-1] not in (steps, ranked):
        yield steps[::-1]


def _walk(position: Position, steps: list[tuple[int, int, int]]) -> tuple[Play, list[int], list[int]] | str:
    """Play ``steps`` in order from ``position``: the play and both sides after it, or why a step fails."""
    me, opp = list(position.mover), list(position.opponent)
    played: list[Step] = []
    for src, dst, die in steps:
        got = _step_result(me, opp, src, die)
        if got is None or got[0] != dst:
            return _explain(me, opp, Step(src, dst), die)
        _move(me, opp, src, dst, got[1])
        played.append(_STEPS[src, dst, got[1]])
    return tuple(played), me, opp


def resolve_play(position: Position, dice: Dice, segments: tuple[Segment, ...]) -> Resolution:
    """Match a written play against the rules.

    ``segments`` are the written moves; one may cover several dice
    (``24/13``) or bear off by overshoot. The steps are tried in the written
    order, then from the highest point down, and the legal plays are only
    enumerated when fewer dice are used than were rolled.
    """
    a, b = dice
    if not (1 <= a <= 6 and 1 <= b <= 6):
        return Resolution(None, None, f"dice {a}-{b} are not two values from 1 to 6")
    pool = [a, a, a, a] if a == b else [a, b]
    if not segments:
        if can_move(position, dice):
            return Resolution(None, None, "no move written, but the roll can be played")
        return Resolution((), position, None)
    for src, dst, _ in segments:
        if src > BAR or src <= dst or dst < OFF:
            name = str(Step(src, dst))
            return Resolution(None, None, f"'{name}' does not move towards home")
    if len(segments) == len(pool):
        quick = _exact(position, pool, segments)
        if quick is not None:
            return quick
    candidates = _assignments(pool, segments)
    if not candidates:
        return Resolution(None, None, _no_dice(pool, segments, dice))
    found: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, Play]] = {}
    first_error: str | None = None
    marked = {dst for _, dst, hit in segments if hit}
    for steps in candidates:
        for order in _orders(steps):
            walked = _walk(position, order)
            if isinstance(walked, str):
                first_error = first_error or walked
                continue
            play, me, opp = walked
            key = (tuple(me), tuple(opp))
            hidden = sum(1 for s in play if s.hit and s.dst not in marked)
            if key not in found or hidden < found[key][0]:
                found[key] = (hidden, play)
            break
    if not found:
        return Resolution(None, None, first_error)
    key, (_, play) = min(found.items(), key=lambda kv: (kv[1][0], -len(kv[1][1])))
    result = Position(key[0], key[1])
    used = len(play)
    if used < len(pool):
        need = max_dice_playable(position, dice)
        if used < need:
            if need == 2 and a != b:
                error = "plays one die but both can be played"
            else:
                error = f"plays {used} of the {need} dice that can be played"
            return Resolution(play, result, error, len(found))
        if a != b and used == 1:
            high = max(a, b)
            me0, opp0 = list(position.mover), list(position.opponent)
            if not _uses(play[0], high, me0) and _step_list(me0, opp0, high, BAR):
                return Resolution(play, result, f"plays the smaller die but the {high} can be played", len(found))
    return Resolution(play, result, None, len(found))


def _exact(position: Position, pool: list[int], segments: tuple[Segment, ...]) -> Resolution | None:
    """The common case: one written step per die, each exactly a die long."""
    steps = [(src, dst, src - dst) for src, dst, _ in segments]
    if sorted(s[2] for s in steps) != sorted(pool):
        return None
    for order in _orders(steps):
        walked = _walk(position, order)
        if not isinstance(walked, str):
            play, mine, theirs = walked
            return Resolution(play, Position(tuple(mine), tuple(theirs)), None)
    return None


def _uses(step: Step, die: int, me: list[int]) -> bool:
    """True if a one-step play can have used ``die``."""
    distance = step.src - step.dst
    if distance == die:
        return True
    return step.dst == OFF and die > distance and not any(me[step.src + 1 : 7])


def _no_dice(pool: list[int], segments: tuple[Segment, ...], dice: Dice) -> str:
    """Why no dice of ``pool`` make the written moves, in pips.

    >>> _no_dice([1, 3], ((14, 10, False), (13, 12, False)), (1, 3))
    "'14/10 13/12' moves 4 + 1 = 5 pips, but a 1-3 moves 4 (1 and 3)"
    >>> _no_dice([6, 1], ((13, 10, False), (13, 9, False)), (6, 1))
    "'13/10 13/9' moves 3 and 4 pips, which the dice of a 6-1 (6 and 1) do not make"
    """
    text = " ".join(str(Step(s, d)) for s, d, _ in segments)
    moved = [src - dst for src, dst, _ in segments]
    each = f"{pool[0]} four times" if len(pool) == 4 else f"{pool[0]} and {pool[1]}"
    if sum(moved) > sum(pool) and all(dst != OFF for _, dst, _ in segments):
        pips = " + ".join(map(str, moved)) + (f" = {sum(moved)}" if len(moved) > 1 else "")
        return f"'{text}' moves {pips} pips, but a {dice[0]}-{dice[1]} moves {sum(pool)} ({each})"
    pips = str(moved[-1])
    if len(moved) > 1:
        pips = ", ".join(map(str, moved[:-1])) + " and " + pips
    return f"'{text}' moves {pips} pips, which the dice of a {dice[0]}-{dice[1]} ({each}) do not make"


def _explain(me: list[int], opp: list[int], step: Step, die: int) -> str:
    name = str(step)
    if me[BAR] and step.src != BAR:
        return f"'{name}' moves while a checker is on the bar"
    if not me[step.src]:
        where = "the bar" if step.src == BAR else f"the {step.src}-point"
        return f"'{name}' moves from {where}, where the mover has no checker"
    if step.dst == OFF:
        if any(me[7:BAR]):
            return f"'{name}' bears off while a checker is outside the home board"
        return f"'{name}' bears off with a {die} while a checker stands on a higher point"
    if opp[25 - step.dst] >= 2:
        return f"'{name}' lands on the {step.dst}-point, which the opponent holds"
    return f"'{name}' is not a legal step"


def apply_segments(position: Position, segments: tuple[Segment, ...]) -> Position | None:
    """Move checkers as written, ignoring the dice; None if impossible.

    Used to go on from what the players saw after an illegal play.
    """
    me = list(position.mover)
    opp = list(position.opponent)
    for src, dst, _ in segments:
        if not me[src] or (dst and opp[25 - dst] >= 2):
            return None
        me[src] -= 1
        me[dst] += 1
        if dst and opp[25 - dst] == 1:
            opp[25 - dst] = 0
            opp[BAR] += 1
    return Position(tuple(me), tuple(opp))
