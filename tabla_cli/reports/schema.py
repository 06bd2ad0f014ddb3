"""The documented columns of the report frames: names, dtypes and meanings.

>>> [c.name for c in COLUMNS["games"]][:4]
['match', 'game', 'score0', 'score1']
"""

from __future__ import annotations

from tabla_cli.analysis.stats import DECISION_COLUMNS
from tabla_cli.columns import Column
from tabla_cli.findings import CODES
from tabla_cli.scoring import LEVEL_NAMES, SCORINGS

FRAME_NAMES: tuple[str, ...] = ("matches", "games", "cube", "plays", "findings", "decisions")
"""The frames, in the order they are documented and written (``decisions`` has rows only when the
inputs carry analysis or the report analyses them)."""

RESULTS = tuple(LEVEL_NAMES.values())
ENDINGS = ("bearoff", "drop", "resign", "forfeit", "draw")
KINDS = ("match", "money", "one-game")
SCORING_NAMES = tuple(SCORINGS)
CUBE_ACTIONS = ("double", "redouble", "take", "drop", "beaver", "raccoon")
SEVERITIES = ("error", "warning", "note")


C = Column
_MATCH_KEY = C("match", "int64", "key of the match: 0, 1, ... in input order (shared by every frame)")
_GAME = C("game", "int64", "the game number")
_WINNER_SIDE = C("winner_side", "Int64", "0 or 1: the side of the winner")
SEVERITY = C("severity", "category", "error, warning or note", SEVERITIES)
"""The severity of a finding (the findings frame, the ``--by findings`` table)."""
_ACTING = (("player", "the acting player's"), ("opponent", "the opponent's"))
"""The two sides of a cube action: the cube frame's ``_player`` and ``_opponent`` columns."""

COLUMNS: dict[str, tuple[Column, ...]] = {
    "matches": (
        _MATCH_KEY,
        C("file", "string", "the file the match was read from, as given"),
        C("index", "int64", "position of the match in its file (1 = first)"),
        C("player0", "string", "the first player (left column)"),
        C("player1", "string", "the second player (right column)"),
        C("length", "int64", "match length in points; 0 = money session"),
        C("kind", "category", "match; money (length 0); one-game (a Backgammon Galaxy one-game session written "
                              "as a 16-point match)", KINDS),
        C("variant", "string", "the variant (nackgammon, hypergammon, ...); missing = standard backgammon"),
        C("scoring", "category", "the scoring rule set: standard (1, 2, 3) or 1-2-4-8", SCORING_NAMES),
        C("date", "string", "the match date as YYYY-MM-DD, from the EventDate header (else Date); missing = "
                            "undated"),
        C("site", "string", "the Site header, if any"),
        C("rating0", "Float64", "player0's rating as the transcript gives it (Galaxy's Player 1 Elo, a "
                                "rating after the name), if any"),
        C("rating1", "Float64", "player1's rating, if any"),
        C("winner", "string", "the player who reached the match length (one-game sessions: who won the game); "
                              "missing for money sessions and incomplete matches"),
        _WINNER_SIDE,
        C("score0", "int64", "final score of player0 (the running score after the last game)"),
        C("score1", "int64", "final score of player1"),
        C("games", "int64", "games in the transcript"),
        C("crawford_game", "Int64", "number of the Crawford game, if one was played"),
        C("findings", "int64", "findings of the check in this match (all severities)"),
        C("error_findings", "int64", "findings of severity error"),
    ),
    "games": (
        _MATCH_KEY,
        C("game", "int64", "the game number as written"),
        *(C(f"score{n}", "int64", f"player{n}'s score before the game") for n in (0, 1)),
        C("away0", "Int64", "points player0 still needed before the game (missing in money play)"),
        C("away1", "Int64", "points player1 still needed before the game"),
        C("winner", "string", "the player credited with the game; missing if no result"),
        _WINNER_SIDE,
        C("points", "Int64", "points won as the replay verified them: as written when the rules allow it (a "
                             "capped final win, a forfeit), else the game's value; missing when unknown"),
        C("points_written", "Int64", "points won, as the transcript records them"),
        C("cube", "int64", "cube value at the end (a dropped double leaves the value before it)"),
        C("cube_owner", "string", "who owned the cube at the end; missing = centred"),
        C("result", "category", "the level: single, gammon, backgammon; with 1-2-4-8 scoring single, gammon, "
                                "gammon-outside (4), gammon-bar (8); missing for a forfeit", RESULTS),
        C("ended_by", "category", "bearoff, drop, resign, forfeit (a Losses line before the end) or draw",
          ENDINGS),
        C("crawford", "bool", "the Crawford game (no doubling)"),
        C("post_crawford", "bool", "a game after the Crawford game"),
        C("moves", "int64", "rolls recorded in the game, dances included"),
    ),
    "cube": (
        _MATCH_KEY,
        _GAME,
        C("move", "Int64", "the printed move number of the action's line"),
        C("player", "string", "who acts"),
        C("side", "int64", "0 or 1: the side of the player"),
        C("action", "category", "double (centred cube), redouble (owned cube), take, drop, beaver, raccoon",
          CUBE_ACTIONS),
        C("cube_before", "int64", "cube value before the action (for a beaver: the value of the double "
                                  "it takes)"),
        C("cube_after", "int64", "cube value after it (for a double: the value offered; a drop leaves it "
                                 "unchanged)"),
        *(C(f"score_{who}", "int64", f"{whose} match score before the game") for who, whose in _ACTING),
        C("away_player", "Int64", "points the acting player still needs (missing in money play)"),
        C("away_opponent", "Int64", "points the opponent still needs"),
        *(C(f"pips_{who}", "Int64", f"{whose} pip count at the decision") for who, whose in _ACTING),
    ),
    "plays": (
        _MATCH_KEY,
        _GAME,
        C("move", "Int64", "the printed move number"),
        C("player", "string", "who rolled"),
        C("side", "int64", "0 or 1"),
        C("die1", "int64", "first die as written"),
        C("die2", "int64", "second die as written"),
        C("dice", "string", "the roll as written, e.g. 64"),
        C("play", "string", "the play in GNU Backgammon notation ('' = no move); missing when the written "
                            "play is not legal"),
        C("written", "string", "the play as the transcript writes it"),
        C("legal", "bool", "the written play is legal for the dice"),
        C("hits", "Int64", "opponent checkers sent to the bar"),
        C("pips_before", "Int64", "the mover's pip count before the play (missing: not replayed)"),
        C("pips_after", "Int64", "the mover's pip count after it"),
        C("opponent_pips_before", "Int64", "the opponent's pip count before the play"),
        C("opponent_pips_after", "Int64", "the opponent's pip count after it (grows with hits)"),
        C("dance", "bool", "the mover had a checker on the bar and could not move"),
        C("opening", "bool", "the first roll of the game (never a double in the standard rules)"),
        C("replayed", "bool", "the replay followed the roll (false after a play it could not apply, or "
                              "after the game's end: only the dice are known)"),
        C("on_bar", "Int64", "the mover's checkers on the bar before the roll"),
        C("closed", "Int64", "points the opponent holds (2+ checkers) in the mover's entry board"),
        C("entered", "boolean", "a checker on the bar came in (missing when none was on the bar)"),
    ),
    "findings": (
        C("file", "string", "the file"),
        C("line", "Int64", "line of the finding (missing for a whole-file finding)"),
        C("column", "Int64", "column of the finding"),
        C("match", "Int64", "the match key; missing when the file could not be read"),
        C("game", "Int64", "game number"),
        C("move", "Int64", "printed move number"),
        C("player", "string", "the player who acted"),
        SEVERITY,
        C("code", "category", "the finding code of tabla check", tuple(CODES)),
        C("message", "string", "the message"),
        C("dice", "string", "the roll, e.g. 64"),
        C("play", "string", "the play as written"),
        C("position_id", "string", "GNU Backgammon Position ID before the action"),
        C("gnubg_match_id", "string", "GNU Backgammon Match ID before the action"),
    ),
    "decisions": (_MATCH_KEY, *DECISION_COLUMNS[1:]),
}
"""The columns of every frame, in order, with dtypes and meanings."""

del C

NAME_COLUMNS: dict[str, tuple[str, ...]] = {
    "matches": ("player0", "player1", "winner"),
    "games": ("winner", "cube_owner"),
    "cube": ("player",),
    "plays": ("player",),
    "findings": ("player",),
    "decisions": ("player", "opponent"),
}
"""The columns of each frame that hold a player's name (rewritten by aliases)."""

INDEX: dict[str, dict[str, int]] = {name: {c.name: i for i, c in enumerate(cols)} for name, cols in COLUMNS.items()}
"""The position of every column in its frame's rows."""
