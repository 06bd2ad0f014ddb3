"""Writers of match transcript formats, one module per format.

Each writer takes a :class:`~tabla_cli.model.Match` and, where the format
needs resolved plays (one step per die), the
:class:`~tabla_cli.replay.MatchResult` of
``replay_match(match, collect=True)``; it replays the match itself when none
is given.
"""
