"""Visitors of a replayed match: one replay, many consumers.

:func:`tabla_cli.replay.replay` owns every piece of game state (turn, cube,
score, Crawford, position) and calls a :class:`BaseVisitor` at each step with
a :class:`DecisionState` that says everything known at that moment. A
consumer (the check, the positions CSV, the report rows, an analysis)
overrides the methods it needs, declares them in :attr:`BaseVisitor.wants`
and tracks nothing itself. :class:`Tee` hands each step to several visitors;
:class:`FileVisitor` and :class:`FileTee` are told what reading a file found too
(:func:`tabla_cli.pipeline.run` replays every match of a file with one).

Example:
    >>> import io
    >>> from tabla_cli.formats.mat import read_matches
    >>> from tabla_cli.replay import replay
    >>> class Cubes(BaseVisitor[list[int]]):
    ...     wants = Wants.CUBE
    ...     def __init__(self) -> None:
    ...         self.values: list[int] = []
    ...     def visit_cube(self, state, action, cube_before, cube_after, owner):
    ...         self.values.append(cube_after)
    ...     def result(self) -> list[int]:
    ...         return self.values
    >>> text = '''0 point match
    ... Game 1
    ... Cy : 0   Di : 0
    ... 1) 42: 8/4 6/4  Doubles => 2
    ... 2) Beavers => 4
    ... '''
    >>> replay(next(read_matches(io.StringIO(text))), Cubes())
    [2, 4]
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Flag, auto
from typing import TYPE_CHECKING, Any, Final, Generic, TypeVar

from tabla_cli.board import Dice, Play, Player, Position
from tabla_cli.evaluation.recorded import RecordedAnalysis, read_written_cube
from tabla_cli.evaluation.types import CubeAction
from tabla_cli.findings import Finding
from tabla_cli.match_state import away
from tabla_cli.model import Action, Game, Match

if TYPE_CHECKING:
    from tabla_cli.ids import MatchState
    from tabla_cli.results import GameResult, MatchResult
    from tabla_cli.variant import Variant

T = TypeVar("T")

_PLAYING = 1
_NO_GAME = 0


class Skip:
    """The type of :data:`SKIP` (a single instance)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "SKIP"


SKIP: Final = Skip()
"""Returned by :meth:`BaseVisitor.begin_match` to have the replay skip a match (nobody asked for it),
or by :meth:`BaseVisitor.begin_game` to skip a game's actions."""


@dataclass(frozen=True, slots=True)
class DecisionState:
    """What the replay knows at one decision (a roll or a cube action).

    Attributes:
        position: the board seen from ``on_roll`` (its ``mover``). For a
            take, drop, beaver or raccoon that is the doubler's side.
        on_roll: the player whose turn it is (gnubg's dice owner).
        actor: the player who acts now (differs from ``on_roll`` when
            answering a double).
        cube: the cube value before the action.
        cube_owner: who owns the cube; None when it is centred.
        doubled: a double (beaver, raccoon) is waiting for ``actor``'s answer.
        score: points won before this game, ``(player 0, player 1)``.
        length: the match length; 0 for money play.
        crawford: this game is the Crawford game.
        post_crawford: this game comes after the Crawford game.
        jacoby: the Jacoby rule is in force for this game (money play).
        beavers: beavers are allowed in this game (money play).
        cube_limit: the highest cube value allowed.
        variant: the variant the game is played in.
        game: the game number as written.
        move: the printed move number of the action (None if none).
        opening: the action is the first roll of the game.
        may_double: (rolls) the roller could have doubled before rolling: the
            cube is in play, centred or theirs, below its limit, not in the
            Crawford game, and they did not double since the last roll.
    """

    position: Position
    on_roll: Player
    actor: Player
    cube: int
    cube_owner: Player | None
    doubled: bool
    score: tuple[int, int]
    length: int
    crawford: bool
    post_crawford: bool
    jacoby: bool
    beavers: bool
    cube_limit: int
    variant: Variant
    game: int
    move: int | None
    opening: bool = False
    may_double: bool = False

    @property
    def has_ids(self) -> bool:
        """Whether the variant has gnubg Position and Match IDs."""
        return self.variant.has_gnubg_ids

    def position_id(self) -> str:
        """The gnubg Position ID of :attr:`position` (variants with gnubg IDs only)."""
        return self.position.position_id()

    def match_state(self, dice: Dice | None = None, *, playing: bool = False) -> MatchState:
        """The gnubg Match ID fields of this decision.

        Args:
            dice: the roll, if rolled (stored larger first).
            playing: game state 1 even for the opening roll (gnubg's text
                export says 0 there).
        """
        from tabla_cli.ids import XGID_MAX_CUBE_EXP, MatchState

        money = not self.length
        return MatchState(
            cube=self.cube,
            cube_owner=self.cube_owner,
            dice_owner=self.on_roll,
            crawford=self.crawford,
            game_state=_NO_GAME if self.opening and not playing else _PLAYING,
            turn=self.actor,
            doubled=self.doubled,
            resign=0,
            dice=(max(dice), min(dice)) if dice else None,
            length=self.length,
            score=self.score,
            jacoby=self.jacoby,
            beaver=money and self.beavers,
            max_cube_exp=min(XGID_MAX_CUBE_EXP, max(0, self.cube_limit.bit_length() - 1)),
        )

    def match_id(self, dice: Dice | None = None, *, playing: bool = False) -> str:
        """The gnubg Match ID of this decision (see :meth:`match_state`).

        Raises:
            InvalidIdError: a field does not fit its bits (a huge cube or score).
        """
        from tabla_cli.ids import encode_match_id

        return encode_match_id(self.match_state(dice, playing=playing))

    def away(self, side: Player) -> int:
        """The points ``side`` still needs to win the match (0 in money play)."""
        return away(self.length, self.score, side)

    @property
    def cube_dead(self) -> bool:
        """Whether doubling is worth nothing to the side on roll: in match play the cube already gives them
        the points they need (GNU Backgammon's rule; never in money play)."""
        return bool(self.length) and self.cube >= self.away(self.on_roll)

    def cube_context(self, doubler: Player) -> tuple[int, int, int, bool] | None:
        """``(away, other, cube, crawford)``: the points ``doubler`` and the opponent need, the cube and the
        Crawford game, as a cube analysis in match-winning chances is read; None in money play."""
        if not self.length:
            return None
        return (self.away(doubler), self.away(doubler.other), self.cube, self.crawford)

    def match_id_or_none(self, dice: Dice | None = None, *, playing: bool = False) -> str | None:
        """:meth:`match_id`, or None when a field does not fit its bits (a money score past 32,767)."""
        from tabla_cli.errors import InvalidIdError

        try:
            return self.match_id(dice, playing=playing)
        except InvalidIdError:
            return None


_ANSWERED = (CubeAction.TAKE, CubeAction.PASS)


def recorded_at(state: DecisionState, action: Action) -> RecordedAnalysis | None:
    """``action``'s recorded analysis with its written cube analysis (SGF's ``DA``) read at ``state``,
    the state before it (:func:`~tabla_cli.evaluation.recorded.read_written_cube`)."""
    recorded = action.analysis
    if recorded is None or recorded.written_cube is None:
        return recorded
    doubler = action.player.other if recorded.written_cube.made in _ANSWERED else action.player
    return read_written_cube(recorded, state.cube_context(doubler), state.cube)


def recorded_unread(action: Action) -> RecordedAnalysis | None:
    """``action``'s recorded analysis where the replay gives no state (an unchecked action): without
    the written cube analysis, which cannot be read there."""
    return read_written_cube(action.analysis, None, 0)


class Wants(Flag):
    """The steps a visitor wants besides the beginnings and ends (each names a ``visit_`` method).

    The replay calls a ``visit_`` method only for a visitor that wants it, and
    builds no :class:`DecisionState` for steps nobody wants.
    """

    NOTHING = 0
    ROLL = auto()
    MOVE = auto()
    CUBE = auto()
    RESIGN = auto()
    RESULT = auto()
    UNCHECKED = auto()
    FINDING = auto()
    RESULT_LINE = auto()
    SETUP = auto()


_METHODS = {
    Wants.ROLL: "visit_roll",
    Wants.MOVE: "visit_move",
    Wants.CUBE: "visit_cube",
    Wants.RESIGN: "visit_resign",
    Wants.RESULT: "visit_result",
    Wants.UNCHECKED: "visit_unchecked",
    Wants.FINDING: "visit_finding",
    Wants.RESULT_LINE: "visit_result_line",
    Wants.SETUP: "visit_setup",
}
"""Each step and the method the replay calls for it."""


class BaseVisitor(Generic[T]):
    """Receives the steps of a replay; every method but :meth:`result` does nothing by default.

    The replay calls, in order: :meth:`begin_match`; per game
    :meth:`begin_game`, then :meth:`visit_roll` (and :meth:`visit_move`), :meth:`visit_cube`,
    :meth:`visit_resign`, :meth:`visit_result` and :meth:`visit_result_line` as the actions come (with
    :meth:`visit_finding` for each finding as it is made), then
    :meth:`end_game`; finally :meth:`end_match`. Actions after the end of a
    game, or after a play the replay could not apply, go to
    :meth:`visit_unchecked` instead. Of the ``visit_`` methods it calls only
    those :attr:`wants` names.
    """

    wants: Wants = Wants.NOTHING
    """The ``visit_`` methods this visitor overrides: set on the class (a subclass that overrides one
    without wanting it is refused when it is defined); an instance may want fewer."""

    lazy_games: bool = False
    """The visitor never looks at ``match.games``: the matches it gets may be read game by game (``games``
    empty, :meth:`~tabla_cli.model.Match.iter_games` reads them), where the format allows, so that one
    long money session never sits in memory whole. Set it on the class or the instance; a subclass that
    reads the games must not inherit it."""

    reads_analysis: bool = True
    """The visitor may look at the analysis a file records (:attr:`~tabla_cli.model.Action.analysis`).
    When no visitor of a replay does, a reader that can leaves it unread (on an analysed SGF file that is
    most of the reading). Set it on the class or the instance."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for step, name in _METHODS.items():
            if getattr(cls, name) is not getattr(BaseVisitor, name) and step not in cls.wants:
                raise TypeError(f"{cls.__qualname__} overrides {name} but its 'wants' lacks Wants.{step.name}")

    def begin_match(self, match: Match) -> Skip | None:
        """A match starts.

        Returns:
            :data:`SKIP` when the visitor wants nothing of this match: the replay then walks none of its
            games and calls nothing more for it (not even :meth:`end_match`), else None.
        """
        return None

    def begin_game(self, game: Game, state: DecisionState) -> Skip | None:
        """A game starts (``state``: the start position, seen from player 0).

        Returns:
            :data:`SKIP` to skip the game's plays and cube actions (its
            recorded result still counts for the score), else None.
        """
        return None

    def visit_roll(self, state: DecisionState, action: Action, play: Play | None, after: Position | None) -> None:
        """A roll and its play, dances and illegal plays included.

        Args:
            state: the state before the roll (``position`` seen from the roller).
            action: the roll.
            play: the legal play the written one resolves to; None when it is
                illegal or cannot be read.
            after: the position after the play as written, seen from the
                roller; None when it cannot be applied.
        """

    def visit_move(self, action: Action, after: Position | None) -> None:
        """A roll's outcome without the state: what :meth:`visit_roll` gets, for less.

        Called wherever :meth:`visit_roll` is (after it), with no
        :class:`DecisionState`: the replay builds none for a visitor that
        only overrides this, which keeps a per-roll digest cheap.

        Args:
            action: the roll.
            after: the position after the play as written, seen from the
                roller; None when it cannot be applied.
        """

    def visit_cube(
        self, state: DecisionState, action: Action, cube_before: int, cube_after: int, owner: Player | None
    ) -> None:
        """A double, take, drop, beaver or raccoon, with the values the replay decided.

        Args:
            state: the state before the action.
            action: the cube action.
            cube_before: the cube value before it (for a beaver answering a
                double: the value of that double).
            cube_after: the value after it (for a double: the value offered;
                a drop or an answer to nothing leaves it unchanged).
            owner: who owns the cube after it (None: centred).
        """

    def visit_resign(self, state: DecisionState, action: Action) -> None:
        """A resignation: a resign action, or a roll whose play is a resignation."""

    def visit_result(self, state: DecisionState, action: Action, game_result: GameResult) -> None:
        """A ``Wins`` line, once the replay has judged it (``game_result`` is filled)."""

    def visit_result_line(self, state: DecisionState, action: Action, game_result: GameResult) -> None:
        """A result line that :meth:`visit_result` is not called for: every ``Losses`` line (a forfeit, or a
        repeat of the result) and a second ``Wins``.

        With it and the other ``visit_`` methods, every action of a game is visited once, in order.

        Args:
            state: the state before the line (``cube``: the cube's value then).
            action: the ``Losses`` or ``Wins`` line.
            game_result: the game's result as judged so far.
        """

    def visit_unchecked(self, action: Action) -> None:
        """An action the replay does not follow: after the game ended, or after a play it could not apply.

        No state is known there (the position is lost or the game is over).
        """

    def visit_finding(self, finding: Finding) -> None:
        """A finding, as soon as the replay makes it."""

    def visit_setup(self, state: DecisionState, action: Action) -> None:
        """A set-up inside a game (:attr:`~tabla_cli.model.Action.setup`); ``state`` is the state it sets."""

    def end_game(self, game_result: GameResult) -> None:
        """A game ends, with what the replay established."""

    def end_match(self, match_result: MatchResult) -> None:
        """The match ends."""

    def result(self) -> T:
        """What the visitor built (returned by :func:`tabla_cli.replay.replay`)."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class _Routes:
    """Where a :class:`Tee` sends each ``visit_`` step: the bound methods of the children that want it, in order."""

    roll: tuple[Callable[[DecisionState, Action, Play | None, Position | None], None], ...]
    move: tuple[Callable[[Action, Position | None], None], ...]
    cube: tuple[Callable[[DecisionState, Action, int, int, Player | None], None], ...]
    resign: tuple[Callable[[DecisionState, Action], None], ...]
    result: tuple[Callable[[DecisionState, Action, GameResult], None], ...]
    unchecked: tuple[Callable[[Action], None], ...]
    finding: tuple[Callable[[Finding], None], ...]
    result_line: tuple[Callable[[DecisionState, Action, GameResult], None], ...]
    setup: tuple[Callable[[DecisionState, Action], None], ...]

    @classmethod
    def of(cls, children: Iterable[BaseVisitor[Any]]) -> _Routes:
        """The routes to ``children``."""
        listed = tuple(children)

        def to(step: Wants) -> tuple[Any, ...]:
            return tuple(getattr(child, _METHODS[step]) for child in listed if step in child.wants)

        return cls(
            to(Wants.ROLL),
            to(Wants.MOVE),
            to(Wants.CUBE),
            to(Wants.RESIGN),
            to(Wants.RESULT),
            to(Wants.UNCHECKED),
            to(Wants.FINDING),
            to(Wants.RESULT_LINE),
            to(Wants.SETUP),
        )


class Tee(BaseVisitor[T]):
    """Passes every step of a replay to each of its children, in order; it wants what any of them wants.

    A child is given a ``visit_`` step only if it wants it. A match that a child
    skips (:data:`SKIP` from :meth:`begin_match`) sends that child nothing more,
    and a game that it skips (from :meth:`begin_game`) nothing until its
    :meth:`end_game`; the Tee skips a match or a game only when every child does. It
    reads the games of a match one by one (:attr:`~BaseVisitor.lazy_games`)
    only when every child may, and the recorded analysis
    (:attr:`~BaseVisitor.reads_analysis`) when any child looks at it. :meth:`result` is the first child's.

    Which child takes which step is worked out once, when the Tee is made
    (and again for a game that some children skip), not at every step.

    Args:
        main: the first child, whose result is the Tee's.
        others: the other children, called after it in this order.
    """

    wants = functools.reduce(operator.or_, _METHODS)  # on the class; an instance wants what its children want

    def __init__(self, main: BaseVisitor[T], *others: BaseVisitor[Any]) -> None:
        self.main = main
        children: tuple[BaseVisitor[Any], ...] = (main, *others)
        self.children = children
        self.lazy_games = all(c.lazy_games for c in children)
        self.reads_analysis = any(c.reads_analysis for c in children)
        self.wants = functools.reduce(operator.or_, (c.wants for c in children), Wants.NOTHING)
        self._every = _Routes.of(children)
        self._active = children  # the children that follow this match
        self._all = self._every  # the routes of this match: without the children that skip it
        self._playing = self._all  # the routes of this game: without the children that skip it

    def begin_match(self, match: Match) -> Skip | None:
        active = tuple(child for child in self.children if child.begin_match(match) is not SKIP)
        if not active:
            return SKIP
        if len(active) == len(self.children):
            self._active, self._all = self.children, self._every
        else:
            self._active, self._all = active, _Routes.of(active)
        self._playing = self._all
        return None

    def begin_game(self, game: Game, state: DecisionState) -> Skip | None:
        skipping = [child for child in self._active if child.begin_game(game, state) is SKIP]
        if not skipping:
            self._playing = self._all
            return None
        if len(skipping) == len(self._active):
            return SKIP
        self._playing = _Routes.of(child for child in self._active if child not in skipping)
        return None

    def visit_roll(self, state: DecisionState, action: Action, play: Play | None, after: Position | None) -> None:
        for visit in self._playing.roll:
            visit(state, action, play, after)

    def visit_move(self, action: Action, after: Position | None) -> None:
        for visit in self._playing.move:
            visit(action, after)

    def visit_cube(
        self, state: DecisionState, action: Action, cube_before: int, cube_after: int, owner: Player | None
    ) -> None:
        for visit in self._playing.cube:
            visit(state, action, cube_before, cube_after, owner)

    def visit_resign(self, state: DecisionState, action: Action) -> None:
        for visit in self._playing.resign:
            visit(state, action)

    def visit_result(self, state: DecisionState, action: Action, game_result: GameResult) -> None:
        for visit in self._playing.result:
            visit(state, action, game_result)

    def visit_result_line(self, state: DecisionState, action: Action, game_result: GameResult) -> None:
        for visit in self._playing.result_line:
            visit(state, action, game_result)

    def visit_unchecked(self, action: Action) -> None:
        for visit in self._playing.unchecked:
            visit(action)

    def visit_finding(self, finding: Finding) -> None:
        for visit in self._all.finding:
            visit(finding)

    def visit_setup(self, state: DecisionState, action: Action) -> None:
        for visit in self._playing.setup:
            visit(state, action)

    def end_game(self, game_result: GameResult) -> None:
        self._playing = self._all
        for child in self._active:
            child.end_game(game_result)

    def end_match(self, match_result: MatchResult) -> None:
        for child in self._active:
            child.end_match(match_result)

    def result(self) -> T:
        return self.main.result()


class FileVisitor(BaseVisitor[T]):
    """A visitor of every match of one file, also told what reading the file found.

    :func:`tabla_cli.pipeline.run` replays each match of the file with the same visitor, and
    may call :meth:`result` after each match: keep it cheap. Both methods below
    pass the finding to :meth:`visit_finding` unless overridden.

    A visitor that never looks at ``match.games`` sets :attr:`~BaseVisitor.lazy_games`.
    """

    def visit_read_finding(self, finding: Finding) -> None:
        """A syntax error inside the match being read: the next one, unless reading stops, or the one
        being replayed when it is read game by game (between :meth:`begin_match` and :meth:`end_match`)."""
        self.visit_finding(finding)

    def visit_file_finding(self, finding: Finding) -> None:
        """A finding about the file rather than one match (unreadable, not a transcript, encoding, a bug)."""
        self.visit_finding(finding)


class FileTee(Tee[T], FileVisitor[T]):
    """A :class:`Tee` for a file: what reading the file found goes to those of its
    children that are :class:`FileVisitor` instances (the others hear only the replay).

    Args:
        main: the file's visitor, whose result is the Tee's.
        others: the visitors replayed beside it.
    """

    def visit_read_finding(self, finding: Finding) -> None:
        for child in self.children:
            if isinstance(child, FileVisitor):
                child.visit_read_finding(finding)

    def visit_file_finding(self, finding: Finding) -> None:
        for child in self.children:
            if isinstance(child, FileVisitor):
                child.visit_file_finding(finding)
