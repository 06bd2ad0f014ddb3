"""Skill analysis: the equity each checker play and cube decision gave away.

The numbers come from a backgammon engine (bgsage) or from the analysis
already recorded in an analysed file (GNU Backgammon's text export or SGF).
Both end in the same :class:`~tabla_cli.analysis.types.Evaluation`, one per
decision, and the statistics are computed from those alone.
"""
