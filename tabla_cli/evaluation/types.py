"""The values the analysis passes around: what was decided, and what it cost.

Equities are cubeful and seen from the side that decides. In match play they
are normalised to money equity (EMG, as GNU Backgammon's "normalised"
figures); ``mwc`` values are match-winning chances (0..1) where known.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from tabla_cli.board import Dice, Player, Position

ANALYSABLE_VARIANTS = frozenset({"backgammon", "nackgammon"})
"""The variants the engine analyses: played with standard backgammon's rules and 15 checkers."""


class DecisionKind(str, Enum):
    """The three kinds of decision a player makes."""

    CHECKER = "checker"
    DOUBLE = "double"
    TAKE = "take"


class CubeAction(str, Enum):
    """What a player did with the cube, or chose not to do."""

    NO_DOUBLE = "no double"
    DOUBLE = "double"
    TAKE = "take"
    PASS = "pass"
    BEAVER = "beaver"


@dataclass(frozen=True, slots=True)
class DecisionInput:
    """One decision as the engine needs it.

    Attributes:
        kind: checker play, the doubler's decision (double or not) or the
            taker's decision (take, beaver or pass).
        position: the position before the decision, seen from ``on_roll``
            (for a take, that is the doubler's view).
        on_roll: the side whose turn it is.
        actor: the side that decides (``on_roll.other`` for a take).
        dice: the roll (checker plays only).
        played: the position after the play, seen from ``on_roll`` (checker
            plays only; None when the play could not be resolved).
        cube_action: what the actor did (cube decisions only).
        cube: the cube value before the decision.
        cube_owner: who owns the cube (None = centred).
        away: points each side still needs, indexed by :class:`Player`
            (``(0, 0)`` in money play).
        crawford: this is the Crawford game.
        jacoby: the Jacoby rule applies to this game (money play).
        beavers: beavers are allowed (money play).
        variant: the variant's name (:attr:`tabla_cli.variant.Backgammon.name`);
            only standard backgammon and Nackgammon can be analysed by the engine.
    """

    kind: DecisionKind
    position: Position
    on_roll: Player
    actor: Player
    cube: int
    cube_owner: Player | None
    away: tuple[int, int]
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    dice: Dice | None = None
    played: Position | None = None
    cube_action: CubeAction | None = None
    variant: str = "backgammon"

    @property
    def money(self) -> bool:
        """True in money play (no match length)."""
        return self.away == (0, 0)


@dataclass(frozen=True, slots=True)
class Evaluation:
    """What a decision cost, from the engine or from a recorded analysis.

    Attributes:
        equity: equity of the action made (None when it is unknown, e.g. a
            play the recorded analysis did not list).
        best_equity: equity of the best action.
        best: the best action, as text (a play in GNU Backgammon notation, or a
            :class:`CubeAction` value).
        error: ``best_equity - equity`` (>= 0), in normalised money equity.
        error_mwc: the same loss in match-winning chances (match play only).
        rank: 1 for the best action, 2 for the next, ...
        options: the number of distinct legal results (checker plays) or of
            cube actions considered.
        forced: only one legal result (never counted in the statistics).
        luck: the luck of the roll that led to the decision (checker plays),
            normalised like ``error``, from the roller's view.
        source: where the numbers come from, e.g. ``bgsage 1ply`` or
            ``recorded gnubg 2-ply``.
        close: a cube decision that counts in the statistics (a double or
            take actually made, or a close decision, as GNU Backgammon
            counts them); for a checker play, whether it had a choice
            (False for a forced play or a dance).
        skill: the mark the source gives a checker play (``none``,
            ``doubtful``, ``bad``, ``very bad``: a recorded analysis's own
            verdict, made from unrounded errors); None = not given, the
            statistics apply their thresholds to ``error``.
        cube_equities: for cube decisions, the cubeful equities of no double,
            double/take and double/pass, seen from the doubler and normalised
            like ``equity`` (None for checker plays and where unknown).
        spread: for checker plays, how far apart the equities of the first
            and the last play of the ranked list are (None where unknown):
            eXtreme Gammon does not count a play whose list is all worth the
            same (see
            :func:`tabla_cli.analysis.decisions.xg_decision`).
    """

    equity: float | None
    best_equity: float
    best: str
    error: float | None
    source: str
    error_mwc: float | None = None
    rank: int | None = None
    options: int = 1
    forced: bool = False
    luck: float | None = None
    close: bool = True
    skill: str | None = None
    cube_equities: tuple[float, float, float] | None = None
    spread: float | None = None
