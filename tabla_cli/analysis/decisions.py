"""The decisions of a match, from the replay's visitor stream, with their evaluations.

:class:`DecisionsVisitor` is a replay visitor (it tracks no game state of its
own): at each roll it notes the cube decision the roller had before rolling
(double or not, when the roller may double) and the checker play; at each
double its answer. Each decision is evaluated from the analysis the file
records for that action (analysed GNU Backgammon exports and SGF) or, where
there is none, by the bgsage engine: all of a file's engine decisions go to
the engine in one batch (:func:`tabla_cli.analysis.cache.analyse_cached`).

An illegal play is still analysed from the position the players saw; the
check's findings come with the decisions (:attr:`FileAnalysis.report`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from typing import Any

from tabla_cli.analysis.cache import analyse_cached
from tabla_cli.analysis.engine import ANALYSABLE_VARIANTS
from tabla_cli.analysis.stats import actual_result, decision_row, error_in_mwc, evaluation_fields
from tabla_cli.analysis.verify import VerifyOptions, verify
from tabla_cli.board import Play, Player, Position
from tabla_cli.check import CheckVisitor, FileReport
from tabla_cli.digest import Fingerprint
from tabla_cli.evaluation.recorded import RecordedAnalysis, evaluation_from_recorded
from tabla_cli.evaluation.types import CubeAction, DecisionInput, DecisionKind, Evaluation
from tabla_cli.model import Action, ActionKind, Game, Match
from tabla_cli.notation import format_play
from tabla_cli.pipeline import FileTee, ReadOptions, as_source, run
from tabla_cli.source import Source
from tabla_cli.visitor import BaseVisitor, DecisionState, Wants, recorded_at

_ANSWERS = {ActionKind.TAKE: CubeAction.TAKE, ActionKind.DROP: CubeAction.PASS, ActionKind.BEAVER: CubeAction.BEAVER}
_DECIDED = frozenset(
    {ActionKind.ROLL, ActionKind.DOUBLE, ActionKind.TAKE, ActionKind.DROP, ActionKind.BEAVER, ActionKind.RACCOON}
)
"""The actions the replay visits once each, as a roll or cube action (or a resigned or unchecked one)."""


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
            every decision kept on its action (:attr:`FileAnalysis.document`).
        verify: roll out the decisions whose verdict decides a player's
            numbers, and judge them by the rollout (:mod:`tabla_cli.analysis.verify`);
            None: no rollout.
    """

    level: str = "auto"
    recorded: bool = True
    cache: bool = True
    threads: int = 1
    luck: bool = True
    document: bool = False
    verify: VerifyOptions | None = None


@dataclass(slots=True)
class _Pending:
    """A decision waiting for its evaluation, and the action it belongs to.

    ``place``: where that action is: the match's index among the visitor's
    matches, the game's index in the match, and the action's among the
    game's rolls and cube actions (:data:`_DECIDED`).
    """

    row: dict[str, Any]
    action: Action
    place: tuple[int, int, int]
    kind: DecisionKind
    decision: DecisionInput | None = None
    evaluation: Evaluation | None = None
    question: DecisionInput | None = None
    """The decision as the engine sees it, whatever evaluates it (``--verify`` rolls it out)."""


@dataclass(slots=True)
class FileAnalysis:
    """One file's decisions (rows of the decisions frame) and its check report.

    Attributes:
        report: the check's findings and counts.
        rows: one row of the decisions frame per decision.
        document: with :attr:`AnalysisOptions.document`, the file's matches as
            a ``tabla-match/1`` document whose actions carry their decisions'
            evaluations (None when no match could be read).
        notices: problems met with the evaluation cache (for stderr; the
            analysis itself is whole).
    """

    report: FileReport
    rows: list[dict[str, Any]] = field(default_factory=list)
    document: str | None = None
    notices: list[str] = field(default_factory=list)

    @property
    def decisions(self) -> int:
        """How many decisions the file holds."""
        return len(self.rows)


def _no_double(state: DecisionState) -> bool:
    """Whether the roller had a cube decision before rolling: the replay says they could double
    (:attr:`~tabla_cli.visitor.DecisionState.may_double`), it is not the opening roll, and the cube is not
    dead (GNU Backgammon's rule: in match play the cube is below the points the roller needs)."""
    if not state.may_double or state.opening:
        return False
    if state.length:
        return state.cube < state.away(state.on_roll)
    return True


class DecisionsVisitor(BaseVisitor[list["_Pending"]]):
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
        self.pending: list[_Pending] = []
        self.matches: list[Match] = []
        self.use_recorded = False
        self.place = (-1, -1, -1)

    def begin_match(self, match: Match) -> None:
        self.match = match
        self.place = (len(self.matches), -1, -1)
        self.matches.append(match)
        count = len(self.matches)
        self.key = match.path if count == 1 else f"{match.path}#{count}"
        self.use_recorded = self.options.recorded and any(
            action.analysis is not None for game in match.games for action in game.actions
        )

    def begin_game(self, game: Game, state: DecisionState) -> None:
        match, index, _ = self.place
        self.place = (match, index + 1, -1)

    def _step(self) -> None:
        """The replay visits the next of the game's rolls and cube actions."""
        match, game, step = self.place
        self.place = (match, game, step + 1)

    def visit_resign(self, state: DecisionState, action: Action) -> None:
        if action.kind in _DECIDED:
            self._step()

    def visit_unchecked(self, action: Action) -> None:
        if action.kind in _DECIDED:
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
                self.pending.append(_Pending(row, action, self.place, kind, evaluation=recorded, question=decision))
            elif kind is DecisionKind.CHECKER:
                row["forced"] = True
                row["close"] = False
                self.pending.append(_Pending(row, action, self.place, kind))
        else:
            self.pending.append(_Pending(row, action, self.place, kind, decision=decision, question=decision))

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

    def result(self) -> list[_Pending]:
        return self.pending

    def end_game(self, game_result: Any) -> None:
        assert self.match is not None
        result = actual_result(
            self.match.length, game_result.score, game_result.crawford, game_result.winner, game_result.points
        )
        for item in reversed(self.pending):  # this game's rows are the last ones
            if item.row["match"] != self.key or item.row["game"] != game_result.number:
                break
            item.row["game_result"] = None if result is None else result[item.row["side"]]


def evaluate(
    pending: list[_Pending], options: AnalysisOptions, notices: list[str] | None = None
) -> list[dict[str, Any]]:
    """Fill the rows of ``pending``: recorded evaluations as they are, the rest in one engine batch.

    In match play every error is also given in MWC (:func:`~tabla_cli.analysis.stats.error_in_mwc` where the
    source has none). Problems met with the evaluation cache are added to ``notices``.
    """
    wanted = [p for p in pending if p.evaluation is None and p.decision is not None]
    if wanted:
        results = analyse_cached(
            [p.decision for p in wanted if p.decision is not None],
            options.level,
            options.threads,
            luck=options.luck,
            use_cache=options.cache,
            notices=notices,
        )
        for item, evaluation in zip(wanted, results):
            item.evaluation = evaluation
    if options.verify is not None:
        _verify(pending, options, notices)
    for item in pending:
        if item.evaluation is not None:
            item.row.update(evaluation_fields(item.evaluation, item.kind))
            if item.row["error_mwc"] is None:  # a source that gives the error in EMG only
                item.row["error_mwc"] = error_in_mwc(item.row["error"], item.row["match_id"])
        if item.action.analysis is not None and item.action.analysis.undecided:
            item.row["action"] = None  # a position export: no decision was made
    return [item.row for item in pending]


def _verify(pending: list[_Pending], options: AnalysisOptions, notices: list[str] | None) -> None:
    """Judge the decisions ``--verify`` chooses by their rollouts (:func:`tabla_cli.analysis.verify.verify`)."""
    assert options.verify is not None
    judged = verify(
        [(p.kind, p.evaluation, p.question) for p in pending],
        options.verify,
        threads=options.threads,
        use_cache=options.cache,
        notices=notices,
    )
    for item, evaluation in zip(pending, judged):
        if evaluation is not None:
            item.evaluation = evaluation


def analyse_source(
    source: Source | str,
    options: AnalysisOptions,
    read: ReadOptions = ReadOptions(),
    *,
    text: str | None = None,
    visitor_class: type[DecisionsVisitor] | None = None,
) -> FileAnalysis:
    """Check and analyse every match of ``source``; never raises for bad input.

    Args:
        source: the file (a path, or a :class:`~tabla_cli.source.Source`).
        options: how to evaluate.
        read: how to read the file (encoding, size limit).
        text: the file's text, when already at hand.
        visitor_class: the decisions' visitor (a subclass adds columns to the
            rows, as the index's :class:`~tabla_cli.study.visitor.StudyVisitor`).
    """
    path = as_source(source).path
    visitor = (visitor_class or DecisionsVisitor)(path, options)
    report = FileReport(path)
    run(source, FileTee(CheckVisitor(report), Fingerprint(report.keys), visitor), read, text=text)
    notices: list[str] = []
    rows = evaluate(visitor.pending, options, notices)
    document = analysed_document(visitor.matches, visitor.pending) if options.document and visitor.matches else None
    return FileAnalysis(report, rows, document, notices)


def analyse_text(text: str, path: str, options: AnalysisOptions) -> FileAnalysis:
    """Check and analyse every match in ``text`` (read from ``path``)."""
    return analyse_source(path, options, text=text)


def analysed_document(matches: list[Match], pending: list[_Pending]) -> str:
    """``matches`` as one tabla JSON document, each action carrying its decisions' evaluations.

    An action's former analysis (a gnubg export's ranked list, say) is
    replaced by what this analysis found, so reading the document back gives
    the same decisions without the engine.
    """
    from tabla_cli.writers.json import format_json

    found: dict[tuple[int, int, int], dict[DecisionKind, Evaluation]] = {}
    for item in pending:
        if item.evaluation is not None:
            found.setdefault(item.place, {})[item.kind] = item.evaluation

    def analysed(action: Action, evaluations: dict[DecisionKind, Evaluation] | None) -> Action:
        if evaluations is None:
            return replace(action, analysis=None)
        checker = evaluations.pop(DecisionKind.CHECKER, None)
        cube = next(iter(evaluations.values()), None)
        return replace(action, analysis=RecordedAnalysis(checker_evaluation=checker, cube_evaluation=cube))

    def analysed_game(match: int, index: int, game: Game) -> Game:
        steps = itertools.count()
        return replace(
            game,
            actions=[
                analysed(a, found.get((match, index, next(steps))) if a.kind in _DECIDED else None)
                for a in game.actions
            ],
        )

    copies = [
        replace(match, games=[analysed_game(m, g, game) for g, game in enumerate(match.games)])
        for m, match in enumerate(matches)
    ]
    return format_json([(match, None) for match in copies])


def analyse_file(path: str, options: AnalysisOptions, read: ReadOptions = ReadOptions()) -> FileAnalysis:
    """Check and analyse the file at ``path``; an unreadable file becomes a finding."""
    return analyse_source(path, options, read)
