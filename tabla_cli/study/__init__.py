"""A player's study: an archive indexed once in a database, every decision tagged, searched and drilled.

:mod:`~tabla_cli.study.store` keeps the index (SQLite file or PostgreSQL),
:mod:`~tabla_cli.study.index` fills it from the files through the replay,
:mod:`~tabla_cli.study.tags` tags each decision, :mod:`~tabla_cli.study.query`
searches it and :mod:`~tabla_cli.study.export` writes what was found (tables,
XGIDs, an Anki deck, an HTML quiz). See docs/study.md.
"""
