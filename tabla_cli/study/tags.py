"""The tags of a decision: phase, game plans, categories, score, cube, events, pips.

Every tag is computed from what the replay says at the decision (its
:class:`~tabla_cli.visitor.DecisionState`, and for a checker play the play
made and the position after it), seen from the side that decides. The
definitions are in docs/study.md; the game plans and the back-game and
containment categories are bgsage's classifiers (``bgbot_cpp``), the rest is
counted here.

>>> from tabla_cli.board import Position
>>> tags = position_tags(Position.start(), rolls=1)
>>> tags["phase"], tags["pips_player"], tags["race_lead"], tags["prime_player"]
('opening', 167, 0, 1)
"""

from __future__ import annotations

from typing import Any

from tabla_cli.board import BAR, Dice, Play, Position, legal_plays
from tabla_cli.match_state import away

__all__ = [
    "OPENING_ROLLS",
    "PRIME",
    "TAG_COLUMNS",
    "contact",
    "cube_tags",
    "play_tags",
    "position_tags",
    "score_tags",
    "tag_words",
]

OPENING_ROLLS = 4
"""A game's first rolls (two of each side) are its opening, while the sides are in contact."""

PRIME = 4
"""The consecutive made points that make a prime."""

TAG_COLUMNS: tuple[tuple[str, str], ...] = (
    ("phase", "text"),
    ("plan_player", "text"),
    ("plan_opponent", "text"),
    ("backgame", "text"),
    ("containment", "bool"),
    ("prime_player", "int"),
    ("prime_opponent", "int"),
    ("blitz", "bool"),
    ("score", "text"),
    ("away_player", "int"),
    ("away_opponent", "int"),
    ("crawford", "bool"),
    ("post_crawford", "bool"),
    ("cube_state", "text"),
    ("hit", "bool"),
    ("missed_hit", "bool"),
    ("closed_out", "bool"),
    ("anchored", "bool"),
    ("shots", "int"),
    ("pips_player", "int"),
    ("pips_opponent", "int"),
    ("race_lead", "int"),
)
"""The tag columns of a decision, with their kinds (docs/study.md defines each)."""


def contact(position: Position) -> bool:
    """Whether a checker of one side still has to pass one of the other's.

    >>> contact(Position.start()), contact(Position.from_points({6: 15}, {6: 15}))
    (True, False)
    """
    back_mine = max((p for p in range(1, BAR + 1) if position.mover[p]), default=0)
    back_theirs = max((p for p in range(1, BAR + 1) if position.opponent[p]), default=0)
    return back_mine + back_theirs > 25


def _longest_run(side: tuple[int, ...]) -> int:
    best = run = 0
    for point in range(1, 25):
        run = run + 1 if side[point] >= 2 else 0
        best = max(best, run)
    return best


def _home_points(side: tuple[int, ...]) -> int:
    return sum(1 for point in range(1, 7) if side[point] >= 2)


def _anchors(side: tuple[int, ...]) -> int:
    """Points made in the opponent's home board (the side's points 19 to 24)."""
    return sum(1 for point in range(19, 25) if side[point] >= 2)


def _board(position: Position) -> list[int]:
    from tabla_cli.analysis.engine import to_board

    return to_board(position)


def position_tags(position: Position, *, rolls: int, classify: bool = True) -> dict[str, Any]:
    """The tags of ``position`` seen from the side that decides (its ``mover``).

    Args:
        position: the board, the deciding side as mover.
        rolls: the rolls of the game so far, this one included.
        classify: run bgsage's classifiers (standard backgammon only).
    """
    touching = contact(position)
    if touching:
        phase = "opening" if rolls <= OPENING_ROLLS else "middle"
    else:
        home = all(position.mover[p] == 0 for p in range(7, BAR + 1))
        phase = "bearoff" if home else "race"
    mine, theirs = position.pips()
    tags: dict[str, Any] = {
        "phase": phase,
        "plan_player": None,
        "plan_opponent": None,
        "backgame": None,
        "containment": None,
        "prime_player": _longest_run(position.mover),
        "prime_opponent": _longest_run(position.opponent),
        "blitz": (position.opponent[BAR] > 0 and _home_points(position.mover) >= PRIME)
        or (position.mover[BAR] > 0 and _home_points(position.opponent) >= PRIME),
        "pips_player": mine,
        "pips_opponent": theirs,
        "race_lead": theirs - mine,
    }
    if classify:
        import bgbot_cpp  # type: ignore[import-not-found]

        board = _board(position)
        tags["plan_player"] = str(bgbot_cpp.classify_game_plan(board))
        tags["plan_opponent"] = str(bgbot_cpp.classify_game_plan(bgbot_cpp.flip_board(board)))
        category = str(bgbot_cpp.backgame_category(board))
        tags["backgame"] = None if category == "none" else category
        tags["containment"] = bool(bgbot_cpp.containment_category(board))
    return tags


def play_tags(
    position: Position, dice: Dice, play: Play | None, after: Position | None, *, classify: bool = True
) -> dict[str, Any]:
    """The events of a checker play: hit, missed a hit, closed out, anchored; the shots it leaves.

    ``position`` is the board before the play, ``after`` the board after it
    (both seen from the side that moved); a play the replay could not apply
    (``after`` None) gets no events. ``classify``: count the shots with bgsage.

    >>> from tabla_cli.board import Step
    >>> before = Position.from_points({6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 4, 24: 2, 20: 1})
    >>> after = before.apply((Step(8, 4), Step(8, 4)))
    >>> t = play_tags(before, (4, 4), (Step(8, 4), Step(8, 4)), after)
    >>> t["hit"], t["missed_hit"], t["closed_out"], t["anchored"]
    (False, True, False, False)
    """
    if after is None or play is None:
        return {"hit": None, "missed_hit": None, "closed_out": None, "anchored": None, "shots": None}
    bar = position.opponent[BAR]
    hit = after.opponent[BAR] > bar
    blots = any(position.opponent[point] == 1 for point in range(1, 25))
    missed = not hit and blots and any(result.opponent[BAR] > bar for result in legal_plays(position, dice))
    closed = after.opponent[BAR] > 0 and _home_points(after.mover) == 6
    return {
        "hit": hit,
        "missed_hit": missed,
        "closed_out": closed,
        "anchored": _anchors(after.mover) > _anchors(position.mover),
        "shots": shots_left(after) if classify else None,
    }


def shots_left(after: Position) -> int:
    """The rolls (of 36) on which the opponent hits a checker after the play (bgsage's ``hitting_shots``)."""
    import bgbot_cpp

    return int(bgbot_cpp.hitting_shots(_board(after.flip())))


def score_tags(length: int, score: tuple[int, int], side: int, crawford: bool, post_crawford: bool) -> dict[str, Any]:
    """The score of a decision from the deciding ``side``: the away counts and its name.

    The name is ``money``, ``DMP`` (both 1-away), ``GS`` (gammon-save: 1-away
    against 2-away after the Crawford game), ``GG`` (gammon-go: 2-away against
    1-away after it), ``Crawford``, ``post-Crawford`` (another score after the
    Crawford game), else ``Na-Ma`` (N and M the away counts).

    >>> score_tags(5, (4, 3), 0, False, True)["score"], score_tags(5, (3, 4), 0, False, True)["score"]
    ('GS', 'GG')
    >>> score_tags(7, (2, 4), 1, False, False)["score"]
    '3a-5a'
    """
    if not length:
        return {"score": "money", "away_player": None, "away_opponent": None, "crawford": False, "post_crawford": False}
    mine, theirs = away(length, score, side), away(length, score, 1 - side)
    if mine == 1 and theirs == 1:
        name = "DMP"
    elif crawford:
        name = "Crawford"
    elif post_crawford and (mine, theirs) == (1, 2):
        name = "GS"
    elif post_crawford and (mine, theirs) == (2, 1):
        name = "GG"
    elif post_crawford:
        name = "post-Crawford"
    else:
        name = f"{mine}a-{theirs}a"
    return {
        "score": name,
        "away_player": mine,
        "away_opponent": theirs,
        "crawford": crawford,
        "post_crawford": post_crawford,
    }


def cube_tags(owner_is_player: bool | None) -> dict[str, Any]:
    """``centred``, ``owned`` (the deciding side owns the cube) or ``opponent`` (the other side does).

    >>> cube_tags(None), cube_tags(True)
    ({'cube_state': 'centred'}, {'cube_state': 'owned'})
    """
    if owner_is_player is None:
        return {"cube_state": "centred"}
    return {"cube_state": "owned" if owner_is_player else "opponent"}


_FLAGS = ("containment", "blitz", "crawford", "post_crawford", "hit", "missed_hit", "closed_out", "anchored")


def tag_words(tags: dict[str, Any]) -> str:
    """The tags as words, space-separated with a space at each end (searched with ``LIKE '% word %'``).

    >>> tag_words({"phase": "race", "hit": True, "missed_hit": False, "score": "DMP", "prime_player": 4})
    ' race dmp hit prime '
    """
    words = [str(tags[name]).lower() for name in ("phase", "score", "cube_state") if tags.get(name)]
    words += [name.replace("_", "-") for name in _FLAGS if tags.get(name)]
    if tags.get("backgame"):
        words += ["backgame", f"backgame-{tags['backgame']}"]
    if max(tags.get("prime_player") or 0, tags.get("prime_opponent") or 0) >= PRIME:
        words.append("prime")
    for side in ("player", "opponent"):
        if tags.get(f"plan_{side}"):
            words.append(f"{side}-{tags[f'plan_{side}']}")
    return " " + " ".join(words) + " "
