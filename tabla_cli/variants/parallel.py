"""The parallel games: Fevga (Φεύγα), Гюлбара (Gulbara), Long Nardy / дълга табла (rules.md §7, §8).

Both sides start with 15 checkers on their own 24-point, diagonally opposite,
and both move anticlockwise. Each side counts its own track 24 -> 1 (home =
1..6); the same physical point is ``p`` for one side and ``p + 12`` or
``p - 12`` for the other (a 12-point shift, not backgammon's ``25 - p``), so
the opponent's starting point is the mover's 12-point. Nothing is ever hit:
a point with any opposing checker, even one, is closed. There is no bar.

The variants differ in restrictions, all of them options
(:class:`ParallelOptions`):

* how checkers may leave the starting point (Fevga: one checker until it has
  reached the opponent's side; Nardy: one per turn, two on a first roll of
  3-3, 4-4 or 6-6);
* six-point blocks (Fevga: not all six points of the own starting quarter;
  Nardy: no six-point prime unless an opposing checker is already past it;
  Fevga: a prime that traps every opposing checker must be opened when a
  play can open it);
* doubles (Gulbara: from a player's fourth roll on, ``d-d`` is played as four
  moves of each value ``d`` .. 6; what cannot be played goes to the
  opponent, who plays it before his own roll).

A *prime* is six consecutive points of the **opponent's** track held by the
mover (that is what blocks the opponent; six consecutive points of the
mover's own track across its 12/13 corner are not in the opponent's way and
are no prime). Block and prime rules are checked after every single step.

>>> from tabla_cli.variants import Fevga, LongNardy
>>> start = Fevga.start_position()
>>> sorted(Fevga.format_play(start, p) for p in Fevga.legal_plays(start, (5, 5)).values())
['24/4', '24/9 24/19']
>>> sorted(LongNardy.format_play(start, p) for p in LongNardy.legal_plays(start, (3, 3)).values())
['24/15 24/21', '24/18(2)']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from tabla_cli.board import OFF, Dice, Play, Position, Segment
from tabla_cli.errors import InvalidIdError
from tabla_cli.findings import Code
from tabla_cli.notation import parse_long_play
from tabla_cli.variants.common import TablaVariant, VariantPosition
from tabla_cli.variants.position_text import TextFields
from tabla_cli.variants.search import (
    TurnPlan,
    bear_off_blocked,
    lands_on_held,
    no_checker,
    plain_plan,
    reaches,
    step_name,
)

SHIFT: tuple[int, ...] = (0,) + tuple(p + 12 if p <= 12 else p - 12 for p in range(1, 25)) + (25,)
"""``SHIFT[p]``: the opponent's number of the mover's point ``p`` (and back)."""

_LOW = 0x1FFE  # bits 1..12
_OWN_QUARTER = sum(1 << p for p in range(19, 25))
_OTHER_QUARTER = sum(1 << p for p in range(7, 13))


@dataclass(frozen=True, slots=True, repr=False)
class ParallelPosition(VariantPosition):
    """A position of a parallel game (Fevga, Long Nardy): checker counts only."""

    def flip(self) -> ParallelPosition:
        return ParallelPosition(self.opponent, self.mover)

    @classmethod
    def opposite(cls, point: int) -> int:
        return SHIFT[point]

    def apply(self, play: Play) -> ParallelPosition:
        """The position after ``play`` (trusted), seen from the side that moved."""
        me = list(self.mover)
        for step in play:
            me[step.src] -= 1
            me[step.dst] += 1
        return self._with(tuple(me))

    def _with(self, mover: tuple[int, ...]) -> ParallelPosition:
        return ParallelPosition(mover, self.opponent)


@dataclass(frozen=True, slots=True, repr=False)
class GulbaraPosition(ParallelPosition):
    """A Gulbara position: checkers, rolls made so far, and dice owed.

    Attributes:
        mover_rolls: rolls the mover has had in this game (kept up to the
            number after which doubles progress: only that matters).
        opponent_rolls: the same for the opponent.
        mover_owed: dice of the opponent's progression that he could not
            play and the mover plays first (rules.md §7.2 (a)).
        opponent_owed: the same owed to the opponent (set by the mover's
            play, seen from the side that moved).
    """

    mover_rolls: int = 0
    opponent_rolls: int = 0
    mover_owed: tuple[int, ...] = ()
    opponent_owed: tuple[int, ...] = ()
    keeps_rolls: ClassVar[bool] = True

    def flip(self) -> GulbaraPosition:
        return GulbaraPosition(
            self.opponent, self.mover, self.opponent_rolls, self.mover_rolls, self.opponent_owed, self.mover_owed
        )

    def text_fields(self) -> TextFields:
        return TextFields(
            self.mover,
            self.opponent,
            rolls=(self.mover_rolls, self.opponent_rolls),
            mover_owed=self.mover_owed,
            opponent_owed=self.opponent_owed,
        )

    @classmethod
    def from_text_fields(cls, fields: TextFields) -> GulbaraPosition:
        """The position read from text; rolls are kept up to 3."""
        mover_rolls, opponent_rolls = fields.rolls or (0, 0)
        return GulbaraPosition(
            fields.mover,
            fields.opponent,
            min(mover_rolls, 3),
            min(opponent_rolls, 3),
            fields.mover_owed,
            fields.opponent_owed,
        )

    def _with(self, mover: tuple[int, ...]) -> GulbaraPosition:
        return GulbaraPosition(mover, self.opponent, self.mover_rolls + 1, self.opponent_rolls, (), ())


StartExit = Literal["free", "first_checker_must_pass", "one_per_turn"]
BlockRule = Literal["allowed", "own", "both"]
PrimeRule = Literal["none", "no_prime_in_front_of_all", "must_open_trapping_prime"]


@dataclass(frozen=True, slots=True)
class ParallelOptions:
    """The rules that differ between the parallel games and between regions.

    Attributes:
        start_exit: ``free``; ``first_checker_must_pass`` (Fevga: while no
            checker has reached the mover's 12..1 — the opponent's side,
            past his starting point — only the first checker may leave the
            start); ``one_per_turn`` (Nardy head rule).
        first_roll_head_doubles: with ``one_per_turn``: on a first roll (all
            15 still on the head) these doubles let two checkers leave it.
        start_quarter_block: ``allowed``; ``own`` (no holding all six points
            19..24 of the own starting quarter: brainking.com); ``both``
            (nor the opponent's starting quarter, 7..12: Ludii's reading).
        prime_rule: ``none``; ``no_prime_in_front_of_all`` (no six-point
            prime unless an opposing checker is already past it: Nardy);
            ``must_open_trapping_prime`` (a prime with every opposing checker
            behind it must be opened by the play when some play opens it:
            Fevga).
        doubles: ``four``, or ``progression`` (Gulbara: after
            ``progression_after`` rolls, ``d-d`` = four of each ``d``..6).
        progression_after: rolls per player with normal doubles (3).
        unplayable_progression: ``opponent_plays`` (the opponent plays the
            moves that could not be played, before his own roll: quasoft,
            vogclub) or ``forfeit`` (iTavli).
        triple_win: a 3-point win (our reading of "koks"): the loser has
            borne off none and still has a checker in his starting quarter.
        opening_reroll: the winner of the opening throw rolls both dice
            again (an opening double is possible).
    """

    start_exit: StartExit = "free"
    first_roll_head_doubles: frozenset[int] = frozenset({3, 4, 6})
    start_quarter_block: BlockRule = "allowed"
    prime_rule: PrimeRule = "none"
    doubles: Literal["four", "progression"] = "four"
    progression_after: int = 3
    unplayable_progression: Literal["opponent_plays", "forfeit"] = "opponent_plays"
    triple_win: bool = False
    opening_reroll: bool = True


def his_mask(occupied: int) -> int:
    """A bit mask of the mover's points (bit ``p``) in the opponent's numbering."""
    return ((occupied & _LOW) << 12) | ((occupied >> 12) & _LOW)


def prime_starts(occupied: int) -> int:
    """Bit ``x`` set: the mover holds the opponent's points ``x .. x + 5``."""
    m = his_mask(occupied)
    return m & (m >> 1) & (m >> 2) & (m >> 3) & (m >> 4) & (m >> 5)


def lowest_point(side: tuple[int, ...] | list[int]) -> int:
    """The side's lowest occupied point 1..24 (99 when none is on the board)."""
    for point in range(1, 25):
        if side[point]:
            return point
    return 99


def occupied_mask(side: tuple[int, ...] | list[int]) -> int:
    mask = 0
    for point in range(1, 25):
        if side[point]:
            mask |= 1 << point
    return mask


def is_trapping(mover: tuple[int, ...], opponent: tuple[int, ...]) -> bool:
    """The mover holds a prime with every opposing checker on the board behind it."""
    starts = prime_starts(occupied_mask(mover))
    if not starts:
        return False
    low = (starts & -starts).bit_length() - 1
    theirs = lowest_point(opponent)
    return theirs != 99 and theirs > low + 5


class _RaceBoard:
    """The mover's checkers during one turn of a parallel game, changed in place."""

    __slots__ = (
        "me",
        "opp",
        "blocked",
        "total",
        "first_pass",
        "head_limit",
        "heads",
        "occ",
        "own_block",
        "both_block",
        "no_prime",
        "their_low",
        "undo",
        "name",
    )

    def __init__(self, position: Position, options: ParallelOptions, head_limit: int, name: str) -> None:
        self.me = list(position.mover)
        self.opp = position.opponent
        self.blocked = [False] + [bool(position.opponent[SHIFT[p]]) for p in range(1, 25)]
        self.total = sum(position.mover[1:25])
        self.first_pass = options.start_exit == "first_checker_must_pass"
        self.head_limit = head_limit
        self.heads = 0
        self.occ = occupied_mask(position.mover)
        self.own_block = options.start_quarter_block != "allowed"
        self.both_block = options.start_quarter_block == "both"
        self.no_prime = options.prime_rule == "no_prime_in_front_of_all"
        self.their_low = lowest_point(position.opponent)
        self.undo: list[tuple[int, int, int]] = []
        self.name = name

    def _forms_block(self, src: int, dst: int) -> str | None:
        """Why occupying ``dst`` (from ``src``) makes a forbidden block, else None."""
        new = self.occ | (1 << dst)
        if self.me[src] == 1:
            new &= ~(1 << src)
        if self.own_block and dst >= 19 and new & _OWN_QUARTER == _OWN_QUARTER:
            return "holds all six points of its own starting quarter (19-24)"
        if self.both_block and 7 <= dst <= 12 and new & _OTHER_QUARTER == _OTHER_QUARTER:
            return "holds all six points of the opponent's starting quarter (7-12)"
        if self.no_prime:
            starts = prime_starts(new)
            if starts:
                low = (starts & -starts).bit_length() - 1
                if not self.their_low < low:
                    return "makes a six-point prime with no opposing checker past it"
        return None

    def _may_leave_start(self) -> bool:
        me = self.me
        if self.first_pass and me[24] != self.total and not any(me[1:13]):
            return False
        return not (self.head_limit and self.heads >= self.head_limit)

    def steps(self, die: int) -> list[tuple[int, int, bool]]:
        me, blocked = self.me, self.blocked
        out: list[tuple[int, int, bool]] = []
        home: bool | None = None
        checks = self.own_block or self.no_prime
        for src in range(24, 0, -1):
            if not me[src]:
                continue
            if src == 24 and (self.first_pass or self.head_limit) and not self._may_leave_start():
                continue
            dst = src - die
            if dst > 0:
                if blocked[dst]:
                    continue
                if checks and not me[dst] and self._forms_block(src, dst) is not None:
                    continue
                out.append((src, dst, False))
            else:
                if home is None:
                    home = not any(me[7:25])
                if home and (dst == 0 or not any(me[src + 1 : 7])):
                    out.append((src, OFF, False))
        return out

    def push(self, src: int, dst: int, flag: bool) -> None:
        me = self.me
        old = self.occ
        me[src] -= 1
        if not me[src]:
            self.occ &= ~(1 << src)
        if dst:
            self.occ |= 1 << dst
        me[dst] += 1
        if src == 24:
            self.heads += 1
        self.undo.append((src, dst, old))

    def pop(self) -> None:
        src, dst, old = self.undo.pop()
        self.me[src] += 1
        self.me[dst] -= 1
        self.occ = old
        if src == 24:
            self.heads -= 1

    def key(self) -> object:
        return (tuple(self.me), self.heads)

    def snapshot(self) -> object:
        return tuple(self.me)

    def reaches(self, goal: tuple[int, ...]) -> bool:
        return reaches(self.me, goal)

    def explain(self, src: int, die: int) -> tuple[str, str]:
        me = self.me
        dst = max(src - die, OFF)
        name = step_name(src, dst)
        if not me[src]:
            return no_checker(name, src)
        if src == 24 and self.first_pass and me[24] != self.total and not any(me[1:13]):
            return (
                Code.FIRST_CHECKER_MUST_PASS,
                f"'{name}' takes a second checker from the starting point before the first has "
                f"reached the opponent's side",
            )
        if src == 24 and self.head_limit and self.heads >= self.head_limit:
            many = "one checker" if self.head_limit == 1 else f"{self.head_limit} checkers"
            return (Code.HEAD_RULE, f"'{name}' takes another checker from the head; only {many} may leave it this turn")
        if dst == OFF:
            return bear_off_blocked(name, me, die)
        n = self.opp[SHIFT[dst]]
        if n == 1:
            return (
                Code.BLOCKED_BY_SINGLE,
                f"'{name}' lands on the {dst}-point, held by a single opposing checker ({self.name} has no hitting)",
            )
        if n:
            return lands_on_held(name, dst)
        if not me[dst]:
            why = self._forms_block(src, dst)
            if why is not None:
                return (Code.SIX_PRIME_FORBIDDEN, f"'{name}' {why}")
        return (Code.ILLEGAL_PLAY, f"'{name}' is not a legal step")


def progression(die: int) -> tuple[int, ...]:
    """Gulbara's double from the fourth roll on: four moves of each value ``die``..6.

    >>> progression(4)
    (4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6)
    """
    return tuple(d for d in range(die, 7) for _ in range(4))


class ParallelGame(TablaVariant):
    """Base of the parallel games; the options say which one."""

    position_class: ClassVar[type[VariantPosition]] = ParallelPosition
    options: ClassVar[ParallelOptions] = ParallelOptions()

    @classmethod
    def position_from(cls, position: Position) -> Position:
        if isinstance(position, cls.position_class):
            return position
        base = super().position_from(position)
        for point in range(1, 25):
            if base.mover[point] and base.opponent[SHIFT[point]]:
                raise InvalidIdError(
                    f"both sides have checkers on the mover's {point}-point, which {cls.name} does not allow"
                )
        return base

    @classmethod
    def dice_steps(cls, dice: Dice, roll_number: int) -> tuple[int, ...]:
        """The moves of the player's own roll number ``roll_number`` (1 = his first).

        >>> from tabla_cli.variants import Gulbara
        >>> Gulbara.dice_steps((5, 5), 3), Gulbara.dice_steps((5, 5), 4)
        ((5, 5, 5, 5), (5, 5, 5, 5, 6, 6, 6, 6))
        """
        a, b = dice
        if a != b:
            return (a, b)
        if cls.options.doubles == "progression" and roll_number > cls.options.progression_after:
            return progression(a)
        return (a, a, a, a)

    @classmethod
    def plan(cls, position: Position, dice: Dice) -> TurnPlan:
        a, b = dice
        owed: tuple[int, ...] = ()
        rolls = cls.options.progression_after
        if isinstance(position, GulbaraPosition):
            owed = position.mover_owed
            rolls = position.mover_rolls
        own = cls.dice_steps(dice, rolls + 1)
        if a != b:
            if not owed:
                return plain_plan(dice)
            return TurnPlan((owed + (a, b), owed + (b, a)), split=len(owed), pair=(a, b), own=own)
        progresses = cls.options.doubles == "progression" and rolls >= cls.options.progression_after
        return TurnPlan((owed + own,), split=len(owed), own=own, progression=progresses)

    @classmethod
    def board(cls, position: Position, plan: TurnPlan) -> _RaceBoard:
        options = cls.options
        limit = 0
        if options.start_exit == "one_per_turn":
            limit = 1
            own = plan.own
            if (
                plan.pair is None
                and own
                and own[0] in options.first_roll_head_doubles
                and position.mover[24] == sum(position.mover[1:25]) == cls.checkers
            ):
                limit = 2
        return _RaceBoard(position, options, limit, cls.name)

    @classmethod
    def make_result(cls, position: Position, snapshot: object, plan: TurnPlan, best: tuple[int, int]) -> Position:
        me: tuple[int, ...] = snapshot  # type: ignore[assignment]
        if isinstance(position, GulbaraPosition):
            rest: tuple[int, ...] = ()
            if plan.progression and cls.options.unplayable_progression == "opponent_plays":
                rest = plan.own[best[1] :]
            rolls = min(position.mover_rolls + 1, cls.options.progression_after)
            return GulbaraPosition(me, position.opponent, rolls, position.opponent_rolls, (), rest)
        return ParallelPosition(me, position.opponent)

    @classmethod
    def position_problem(cls, position: Position) -> str | None:
        """Also, under the Nardy prime rule: a six-point prime no opposing checker is past."""
        problem = super().position_problem(position)
        if problem is None and cls.options.prime_rule == "no_prime_in_front_of_all":
            for name, side, other in (
                ("the side on roll", position.mover, position.opponent),
                ("the other side", position.opponent, position.mover),
            ):
                starts = prime_starts(occupied_mask(side))
                if starts and lowest_point(other) >= (starts & -starts).bit_length() - 1:
                    return f"{name} holds a six-point prime with no opposing checker past it, which {cls.name} forbids"
        return problem

    @classmethod
    def judges_plays(cls, position: Position) -> bool:
        return cls.options.prime_rule == "must_open_trapping_prime" and is_trapping(position.mover, position.opponent)

    @classmethod
    def filter_results(cls, position: Position, results: dict[Position, Play]) -> dict[Position, Play]:
        if not cls.judges_plays(position):
            return results
        opened = {p: play for p, play in results.items() if not is_trapping(p.mover, p.opponent)}
        return opened or results

    @classmethod
    def filter_reason(cls, position: Position) -> tuple[str, str]:
        if cls.judges_plays(position):
            return (
                Code.SIX_PRIME_FORBIDDEN,
                "keeps a six-point prime with every opposing checker behind it, but a play opens it",
            )
        return super().filter_reason(position)

    @classmethod
    def apply_written(cls, position: Position, segments: tuple[Segment, ...]) -> Position | None:
        pos = cls.position_from(position)
        assert isinstance(pos, ParallelPosition)
        me = list(pos.mover)
        for src, dst, _ in segments:
            if not (0 < src <= 24) or not me[src] or dst < OFF or (dst and pos.opponent[SHIFT[dst]]):
                return None
            me[src] -= 1
            me[dst] += 1
        after = pos._with(tuple(me))
        if isinstance(after, GulbaraPosition):
            rolls = min(after.mover_rolls, cls.options.progression_after)
            return GulbaraPosition(after.mover, after.opponent, rolls, after.opponent_rolls)
        return after

    @classmethod
    def parse_play(cls, text: str) -> tuple[Segment, ...]:
        return parse_long_play(text)

    @classmethod
    def outcome(cls, position: Position) -> int:
        """1; 2 when the loser has borne off none; 3 with ``triple_win`` when he is also still in his starting quarter."""
        loser = position.opponent
        if loser[OFF]:
            return 1
        if cls.options.triple_win and any(loser[19:25]):
            return 3
        return 2


class Fevga(ParallelGame):
    """Fevga (Greek, Φεύγα): first checker must pass, no six-block at the start, open a trapping prime."""

    name: ClassVar[str] = "fevga"
    aliases: ClassVar[tuple[str, ...]] = ("fevga", "φεύγα", "φευγα", "fevga (greek)")
    options: ClassVar[ParallelOptions] = ParallelOptions(
        start_exit="first_checker_must_pass",
        start_quarter_block="own",
        prime_rule="must_open_trapping_prime",
        opening_reroll=True,
    )
    tradition: ClassVar[str] = "greek"


class Gulbara(ParallelGame):
    """Гюлбара (Gul bara, Bulgarian): doubles progress from the fourth roll; no start or prime limits."""

    name: ClassVar[str] = "gulbara"
    aliases: ClassVar[tuple[str, ...]] = ("gulbara", "gul bara", "gul-bara", "гюлбара", "гюл бара", "gülbara")
    position_class: ClassVar[type[VariantPosition]] = GulbaraPosition
    options: ClassVar[ParallelOptions] = ParallelOptions(doubles="progression", opening_reroll=False)
    tradition: ClassVar[str] = "bulgarian"


class LongNardy(ParallelGame):
    """Long Nardy (Russian, длинные нарды): head rule, no prime in front of all opposing checkers."""

    name: ClassVar[str] = "long_nardy"
    aliases: ClassVar[tuple[str, ...]] = (
        "long nardy",
        "long-nardy",
        "long_nardy",
        "nardy",
        "narde",
        "nard",
        "long narde",
        "длинные нарды",
        "нарды",
        "длинные",
    )
    options: ClassVar[ParallelOptions] = ParallelOptions(
        start_exit="one_per_turn",
        prime_rule="no_prime_in_front_of_all",
        opening_reroll=True,
    )
    tradition: ClassVar[str] = "russian"


class LongTabla(LongNardy):
    """Дълга табла (long tabla, Bulgarian Long Nardy): Nardy rules, the opening dice are played."""

    name: ClassVar[str] = "long_tabla"
    aliases: ClassVar[tuple[str, ...]] = ("long tabla", "long-tabla", "long_tabla", "дълга табла", "дълга")
    options: ClassVar[ParallelOptions] = ParallelOptions(
        start_exit="one_per_turn",
        prime_rule="no_prime_in_front_of_all",
        opening_reroll=False,
    )
    tradition: ClassVar[str] = "bulgarian"
