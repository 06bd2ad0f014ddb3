"""One file analysed: read and replay it with the check and the decisions visitor, then evaluate.

:func:`analyse_source` replays every match of a file once, with the check
(:class:`~tabla_cli.check.CheckVisitor`), the duplicate digest and a
:class:`~tabla_cli.analysis.decisions.DecisionsVisitor`; :func:`evaluate`
then fills each decision from the analysis the file records or, where there
is none, from the bgsage engine: all of a file's engine decisions go to the
engine in one batch (:func:`tabla_cli.analysis.cache.analyse_cached`). The
check's findings come with the decisions (:attr:`FileAnalysis.report`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from tabla_cli.analysis.cache import analyse_cached
from tabla_cli.analysis.decisions import DECIDED, AnalysisOptions, DecisionsVisitor, Pending, evaluation_fields
from tabla_cli.analysis.stats import error_in_mwc
from tabla_cli.check import CheckVisitor, FileReport
from tabla_cli.digest import Fingerprint
from tabla_cli.evaluation.recorded import RecordedAnalysis
from tabla_cli.evaluation.types import DecisionKind, Evaluation
from tabla_cli.model import Action, Game, Match
from tabla_cli.pipeline import FileTee, ReadOptions, as_source, run
from tabla_cli.source import Source

__all__ = ["FileAnalysis", "analyse_file", "analyse_source", "analyse_text", "analysed_document", "evaluate"]


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


def evaluate(
    pending: list[Pending], options: AnalysisOptions, notices: list[str] | None = None
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


def _verify(pending: list[Pending], options: AnalysisOptions, notices: list[str] | None) -> None:
    """Judge the decisions ``--verify`` chooses by their rollouts (:func:`tabla_cli.analysis.verify.verify`)."""
    from tabla_cli.analysis.verify import verify  # the engine loads only where a rollout runs

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
    document = (
        analysed_document(visitor.matches, visitor.pending, visitor.skipped)
        if options.document and visitor.matches
        else None
    )
    return FileAnalysis(report, rows, document, notices)


def analyse_text(text: str, path: str, options: AnalysisOptions) -> FileAnalysis:
    """Check and analyse every match in ``text`` (read from ``path``)."""
    return analyse_source(path, options, text=text)


def analysed_document(matches: list[Match], pending: list[Pending], skipped: Iterable[int] = ()) -> str:
    """``matches`` as one tabla JSON document, each action carrying its decisions' evaluations.

    An action's former analysis (a gnubg export's ranked list, say) is
    replaced by what this analysis found, so reading the document back gives
    the same decisions without the engine. The matches ``skipped`` (their
    indices: not analysed, :attr:`AnalysisOptions.matches`) are written as read.
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
                analysed(a, found.get((match, index, next(steps))) if a.kind in DECIDED else None) for a in game.actions
            ],
        )

    left = set(skipped)
    copies = [
        match if m in left else replace(match, games=[analysed_game(m, g, game) for g, game in enumerate(match.games)])
        for m, match in enumerate(matches)
    ]
    return format_json([(match, None) for match in copies])


def analyse_file(path: str, options: AnalysisOptions, read: ReadOptions = ReadOptions()) -> FileAnalysis:
    """Check and analyse the file at ``path``; an unreadable file becomes a finding."""
    return analyse_source(path, options, read)
