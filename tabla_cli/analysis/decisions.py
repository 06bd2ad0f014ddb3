"""The decisions of a match, from the replay's visitor stream: the visitor and the rows it makes.

:class:`DecisionsVisitor` is a replay visitor (it tracks no game state of its
own): at each roll it notes the cube decision the roller had before rolling
(double or not, when the roller may double: :attr:`~tabla_cli.visitor.DecisionState.cube_dead`)
and the checker play; at each double its answer. Each decision takes the
analysis the file records for that action (analysed GNU Backgammon exports
and SGF) or, where there is none, waits for the engine: reading a file,
evaluating what waits and the check's findings are
:mod:`tabla_cli.analysis.file_analysis` (the application), so that this
module imports nothing of the engine, the pipeline or the statistics.

An illegal play is still analysed from the position the players saw.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tabla_cli.board import Play, Player, Position
from tabla_cli.evaluation.recorded import evaluation_from_recorded
from tabla_cli.evaluation.types import ANALYSABLE_VARIANTS, CubeAction, DecisionInput, DecisionKind, Evaluation
from tabla_cli.match_state import away
from tabla_cli.model import Action, ActionKind, Game, Match
from tabla_cli.notation import format_play
from tabla_cli.results import GameResult
from tabla_cli.visitor import SKIP, BaseVisitor, DecisionState, Skip, Wants, recorded_at

__all__ = [
    "DECIDED",
    "XG_OBVIOUS",
    "XG_TRIVIAL",
    "AnalysisOptions",
    "DecisionsVisitor",
    "Pending",
    "actual_result",
    "decision_row",
    "evaluation_fields",
    "xg_decision",
]

_ANSWERS = {ActionKind.TAKE: CubeAction.TAKE, ActionKind.DROP: CubeAction.PASS, ActionKind.BEAVER: CubeAction.BEAVER}
DECIDED = frozenset(
    {ActionKind.ROLL, ActionKind.DOUBLE, ActionKind.TAKE, ActionKind.DROP, ActionKind.BEAVER, ActionKind.RACCOON}
)
"""The actions the replay visits once each, as a roll or cube action (or a resigned or unchecked one)."""

XG_TRIVIAL = 0.001
"""eXtreme Gammon's bound for "no real choice": a checker play whose listed plays
are within it of each other, a take whose double/take and double/pass are."""

XG_OBVIOUS = 0.2
"""eXtreme Gammon's margin for an obvious cube decision: no double beats
double/take or double/pass by more than this."""


@dataclass(frozen=True, slots=True)
class AnalysisOptions:
    """How to analyse.

    Attributes:
        level: the engine level (``1ply``, ``2ply``, ``3ply``).
        recorded: use the analysis a file records where it has one (else
            every decision goes to the engine).
        cache: use the persistent evaluation cache.
        threads: threads of the engine's core.
        luck: compute the luck of each roll.
        document: also write the file as tabla JSON with the evaluation of
            every decision kept on its action
            (:attr:`~tabla_cli.analysis.file_analysis.FileAnalysis.document`).
        matches: the matches to analyse, by their key (the file, with ``#n``
            for its n-th match, n > 1): the visitor skips the others as they
            begin (:data:`~tabla_cli.visitor.SKIP`); None: every match.
    """

    level: str = "auto"
    recorded: bool = True
    cache: bool = True
    threads: int = 1
    luck: bool = True
    document: bool = False
    matches: frozenset[str] | None = None


@dataclass(slots=True)
class Pending:
    """A decision waiting for its evaluation, and the action it belongs to.

    ``place``: where that action is: the match's index among the visitor's
    matches, the game's index in the match, and the action's among the
    game's rolls and cube actions (:data:`DECIDED`).
    """

    row: dict[str, Any]
    action: Action
    place: tuple[int, int, int]
    kind: DecisionKind
    decision: DecisionInput | None = None
    evaluation: Evaluation | None = None


def _no_double(state: DecisionState) -> bool:
    """Whether the roller had a cube decision before rolling: the replay says they could double
    (:attr:`~tabla_cli.visitor.DecisionState.may_double`), it is not the opening roll, and the cube is not
    dead (:attr:`~tabla_cli.visitor.DecisionState.cube_dead`)."""
    return state.may_double and not state.opening and not state.cube_dead


class DecisionsVisitor(BaseVisitor[list["Pending"]]):
    """Collects every decision of the matches it visits (its result: them, not yet evaluated).

    A match that carries recorded analysis is taken as its source analysed it:
    its decisions are the ones the analysis lists (a roll without analysis
    counts as a checker decision with no numbers, as GNU Backgammon counts
    it), and nothing goes to the engine. Other matches go to the engine whole.

    Args:
        path: the file the matches are read from.
        options: how to evaluate.
    """

    wants = Wants.ROLL | Wants.CUBE | Wants.RESIGN | Wants.UNCHECKED

    def __init__(self, path: str, options: AnalysisOptions) -> None:
        self.options = options
        self.key = path
        self.match: Match | None = None
        self.pending: list[Pending] = []
        self.matches: list[Match] = []
        self.skipped: list[int] = []  # the indices in matches of those skipped (not in options.matches)
        self.use_recorded = False
        self.place = (-1, -1, -1)

    def begin_match(self, match: Match) -> Skip | None:
        self.match = match
        self.place = (len(self.matches), -1, -1)
        self.matches.append(match)
        count = len(self.matches)
        self.key = match.path if count == 1 else f"{match.path}#{count}"
        chosen = self.options.matches
        if chosen is not None and self.key not in chosen:
            self.skipped.append(count - 1)
            return SKIP
        self.use_recorded = self.options.recorded and any(
            action.analysis is not None for game in match.games for action in game.actions
        )
        return None

    def begin_game(self, game: Game, state: DecisionState) -> None:
        match, index, _ = self.place
        self.place = (match, index + 1, -1)

    def _step(self) -> None:
        """The replay visits the next of the game's rolls and cube actions."""
        match, game, step = self.place
        self.place = (match, game, step + 1)

    def visit_resign(self, state: DecisionState, action: Action) -> None:
        if action.kind in DECIDED:
            self._step()

    def visit_unchecked(self, action: Action) -> None:
        if action.kind in DECIDED:
            self._step()

    def _away(self, state: DecisionState) -> tuple[int, int]:
        return (state.away(Player.ZERO), state.away(Player.ONE))

    def _row(
        self,
        state: DecisionState,
        action: Action,
        kind: DecisionKind,
        made: str | None,
        dice: str | None,
        *,
        match_id: str | None,
    ) -> dict[str, Any]:
        assert self.match is not None
        actor = state.actor
        ids = state.has_ids
        row = decision_row(
            self.key,
            state.game,
            action.move_number,
            self.match.players[actor],
            int(actor),
            kind,
            action=made,
            cube=state.cube,
            position_id=state.position_id() if ids else None,
            match_id=match_id if ids else None,
        )
        row["file"] = self.match.path
        row["opponent"] = self.match.players[actor.other]
        row["dice"] = dice
        if not (action.kind is ActionKind.ROLL and kind is DecisionKind.DOUBLE):
            # A roll's comment and flag go on its play's row, not on the no-double decision before it.
            row["comment"] = action.comment
            row["flagged"] = action.flagged
        return row

    def _input(self, state: DecisionState, kind: DecisionKind, **extra: Any) -> DecisionInput:
        return DecisionInput(
            kind=kind,
            position=state.position,
            on_roll=state.on_roll,
            actor=state.actor,
            cube=state.cube,
            cube_owner=state.cube_owner,
            away=self._away(state),
            crawford=state.crawford,
            jacoby=state.jacoby,
            beavers=state.beavers,
            variant=state.variant.name,
            **extra,
        )

    def _add(self, row: dict[str, Any], action: Action, decision: DecisionInput, recorded: Evaluation | None) -> None:
        kind = decision.kind
        if self.use_recorded:
            if recorded is not None:
                self.pending.append(Pending(row, action, self.place, kind, evaluation=recorded))
            elif kind is DecisionKind.CHECKER:
                row["forced"] = True
                row["close"] = False
                self.pending.append(Pending(row, action, self.place, kind))
        else:
            self.pending.append(Pending(row, action, self.place, kind, decision=decision))

    def _cube_recorded(self, state: DecisionState, action: Action, kind: DecisionKind) -> Evaluation | None:
        recorded = recorded_at(state, action)
        return None if recorded is None else evaluation_from_recorded(recorded, kind)

    def visit_roll(self, state: DecisionState, action: Action, play: Play | None, after: Position | None) -> None:
        self._step()
        if not self.use_recorded and state.variant.name not in ANALYSABLE_VARIANTS:
            return
        cube = self._cube_recorded(state, action, DecisionKind.DOUBLE)
        if cube is not None if self.use_recorded else _no_double(state):
            row = self._row(
                state,
                action,
                DecisionKind.DOUBLE,
                CubeAction.NO_DOUBLE.value,
                None,
                match_id=state.match_id_or_none() if state.has_ids else None,
            )
            self._add(row, action, self._input(state, DecisionKind.DOUBLE, cube_action=CubeAction.NO_DOUBLE), cube)
        dice = action.dice
        assert dice is not None
        text = format_play(state.position, play) if play is not None else (action.play_text or "")
        row = self._row(
            state,
            action,
            DecisionKind.CHECKER,
            text,
            f"{dice[0]}{dice[1]}",
            match_id=state.match_id_or_none(dice) if state.has_ids else None,
        )
        recorded = action.analysis
        checker = evaluation_from_recorded(recorded, DecisionKind.CHECKER) if recorded is not None else None
        self._add(row, action, self._input(state, DecisionKind.CHECKER, dice=dice, played=after), checker)

    def visit_cube(
        self, state: DecisionState, action: Action, cube_before: int, cube_after: int, owner: Player | None
    ) -> None:
        self._step()
        if action.kind is ActionKind.DOUBLE:
            kind, made = DecisionKind.DOUBLE, CubeAction.DOUBLE
        elif action.kind in _ANSWERS:
            kind, made = DecisionKind.TAKE, _ANSWERS[action.kind]
        else:
            return
        if state.variant.name not in ANALYSABLE_VARIANTS and not self.use_recorded:
            return
        row = self._row(
            state, action, kind, made.value, None, match_id=state.match_id_or_none() if state.has_ids else None
        )
        self._add(row, action, self._input(state, kind, cube_action=made), self._cube_recorded(state, action, kind))

    def result(self) -> list[Pending]:
        return self.pending

    def end_game(self, game_result: GameResult) -> None:
        assert self.match is not None
        result = actual_result(
            self.match.length, game_result.score, game_result.crawford, game_result.winner, game_result.points
        )
        for item in reversed(self.pending):  # this game's rows are the last ones
            if item.row["match"] != self.key or item.row["game"] != game_result.number:
                break
            item.row["game_result"] = None if result is None else result[item.row["side"]]


def decision_row(
    match: str,
    game: int,
    move: int | None,
    player: str,
    side: int,
    kind: DecisionKind,
    *,
    error: float | None = None,
    forced: bool = False,
    close: bool = True,
    evaluation: Evaluation | None = None,
    action: str | None = None,
    cube: int = 1,
    position_id: str | None = None,
    match_id: str | None = None,
) -> dict[str, Any]:
    """One row of the decisions frame.

    Args:
        match: the match key.
        game: the game number.
        move: the printed move number.
        player: who decides.
        side: the player's column (0 or 1).
        kind: the decision's kind.
        error: the error, when no ``evaluation`` is given.
        forced: the play was forced, when no ``evaluation`` is given.
        close: the cube decision counts, when no ``evaluation`` is given.
        evaluation: the decision's evaluation (its fields fill the row).
        action: the play or cube action made.
        cube: the cube value before the decision.
        position_id: the Position ID before the decision.
        match_id: the Match ID before the decision.

    Returns:
        A dict keyed by the names of :data:`DECISION_COLUMNS`.
    """
    row: dict[str, Any] = {
        "match": match,
        "game": game,
        "move": move,
        "player": player,
        "side": side,
        "kind": kind.value,
        "file": None,
        "opponent": None,
        "dice": None,
        "action": action,
        "best": None,
        "equity": None,
        "best_equity": None,
        "error": error,
        "error_mwc": None,
        "rank": None,
        "options": 1,
        "forced": forced,
        "close": close,
        "xg_decision": None,
        "luck": None,
        "skill": None,
        "source": None,
        "cube": cube,
        "position_id": position_id,
        "match_id": match_id,
        "game_result": None,
        "comment": None,
        "flagged": False,
    }
    if evaluation is not None:
        row.update(evaluation_fields(evaluation, kind))
    return row


def actual_result(
    length: int, score: tuple[int, int], crawford: bool, winner: int | None, points: int | None
) -> tuple[float, float] | None:
    """A game's result for each side (player 0, player 1), gnubg's "actual result".

    Money: the points won and lost. Match play: the change of each side's
    match-winning chances (:func:`tabla_cli.evaluation.met.game_result_mwc`).
    None when the game has no winner or no points.

    >>> actual_result(0, (0, 0), False, 1, 2)
    (-2.0, 2.0)
    >>> [round(r, 3) for r in actual_result(3, (0, 0), False, 0, 1)]
    [0.099, -0.099]
    """
    if winner is None or points is None:
        return None
    if length:
        from tabla_cli.evaluation.met import game_result_mwc

        gain = game_result_mwc(away(length, score, winner), away(length, score, 1 - winner), points, crawford=crawford)
    else:
        gain = float(points)
    return (gain, -gain) if winner == 0 else (-gain, gain)


def xg_decision(kind: DecisionKind, ev: Evaluation) -> bool | None:
    """Whether eXtreme Gammon counts the decision in its PR (None: no action judged, or the analysis lacks
    what the filter needs, and the statistics fall back on gnubg's count).

    XG's filter, as bgsage's ``xg_compare`` documents it: a checker play
    counts unless it is forced or its listed plays are all within
    :data:`XG_TRIVIAL` of each other; a take or pass counts unless
    double/take and double/pass are that close; the doubler's decision counts
    unless it is obvious (no double within :data:`XG_TRIVIAL` of
    double/take, or beating double/take or double/pass by more than
    :data:`XG_OBVIOUS`, or both no double and double/take under -0.9),
    and even an obvious one counts when it lost :data:`XG_TRIVIAL` or more.

    >>> from tabla_cli.evaluation.types import Evaluation
    >>> xg_decision(DecisionKind.CHECKER, Evaluation(0.1, 0.1, "8/2", 0.0, "x", spread=0.0004))
    False
    >>> xg_decision(DecisionKind.DOUBLE, Evaluation(0.5, 0.5, "No double", 0.0, "x", cube_equities=(0.5, 0.2, 1.0)))
    False
    >>> xg_decision(DecisionKind.DOUBLE, Evaluation(0.3, 0.5, "No double", 0.2, "x", cube_equities=(0.5, 0.3, 1.0)))
    True
    """
    if ev.error is None:
        return None
    if kind is DecisionKind.CHECKER:
        if ev.forced:
            return False
        return ev.spread is None or round(ev.spread, 6) >= XG_TRIVIAL
    if ev.cube_equities is None:
        return None
    no_double, double_take, double_pass = ev.cube_equities
    if kind is DecisionKind.TAKE:
        return round(abs(double_take - double_pass), 6) >= XG_TRIVIAL
    obvious = (
        round(abs(no_double - double_take), 6) < XG_TRIVIAL
        or no_double - double_take > XG_OBVIOUS
        or no_double - double_pass > XG_OBVIOUS
        or (no_double < -0.9 and double_take < -0.9)
    )
    return not obvious or round(ev.error, 6) >= XG_TRIVIAL


def evaluation_fields(ev: Evaluation, kind: DecisionKind | None = None) -> dict[str, Any]:
    """The columns of a decision row that come from its :class:`Evaluation` (``kind``: the decision's, for
    ``xg_decision``)."""
    return {
        "xg_decision": None if kind is None else xg_decision(kind, ev),
        "best": ev.best,
        "equity": ev.equity,
        "best_equity": ev.best_equity,
        "error": ev.error,
        "error_mwc": ev.error_mwc,
        "rank": ev.rank,
        "options": ev.options,
        "forced": ev.forced,
        "close": ev.close,
        "luck": ev.luck,
        "skill": ev.skill,
        "source": ev.source,
    }
