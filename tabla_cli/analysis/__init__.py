"""Skill analysis: the equity each checker play and cube decision gave away.

The numbers come from a backgammon engine (bgsage) or from the analysis
already recorded in an analysed file (GNU Backgammon's text export or SGF).
Both end in the same :class:`~tabla_cli.evaluation.types.Evaluation`, one per
decision, and the statistics are computed from those alone.

This package is an application over the pipeline (:mod:`tabla_cli.check`):
the engine (:mod:`~tabla_cli.analysis.engine`), its cache, the decisions of
a replay (:mod:`~tabla_cli.analysis.decisions`) and their statistics. The
evaluations as data are in :mod:`tabla_cli.evaluation`; the tables and the
page of ``tabla analyze`` in :mod:`tabla_cli.reports.analysis`.
"""
