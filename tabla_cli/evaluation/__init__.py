"""Evaluations as data: what an analysis says about each decision, whoever made it.

:mod:`~tabla_cli.evaluation.types` holds the decision and evaluation types,
:mod:`~tabla_cli.evaluation.met` the match equity table, and
:mod:`~tabla_cli.evaluation.recorded` the analysis a file records (GNU
Backgammon's text export and SGF), which the readers attach to the model's
actions. It sits under the model and imports nothing above it: the engine,
the cache and the statistics that use these types are in
:mod:`tabla_cli.analysis`, over the pipeline.
"""
