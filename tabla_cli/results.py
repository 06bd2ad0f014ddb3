"""What a replay establishes, and the rules that judge a result line.

A replay (:mod:`tabla_cli.replay`) fills a :class:`GameResult` per game and a
:class:`MatchResult` per match; the functions here hold no state: the
replay asks them what kind of session a match is and what a ``Wins`` line
may say.

Results: each ended game is classified by the match's scoring rule set
(:mod:`tabla_cli.scoring`) and ``Wins N`` is checked against cube x level.
A resignation may offer any level. A ``Losses`` line before the game is over
(Backgammon Galaxy) is a forfeit: any value up to the points the other side
needed is accepted and no level is inferred from it. In the game that
decides a match, a value from the points needed up to the game's value is a
``capped-win`` note (sites cap at the points needed or at the match length).
:attr:`GameResult.verified_points` is the value the replay could verify; the
running score goes on from what is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from tabla_cli.board import Play, Player, Position
from tabla_cli.findings import Finding
from tabla_cli.model import Action, Game, Match, RuleSet
from tabla_cli.scoring import LEVEL_NAMES, Scoring

__all__ = [
    "RESULT_NAMES",
    "Decision",
    "EndedBy",
    "GameResult",
    "MatchResult",
    "SessionKind",
    "cube_in_play",
    "judge_kind",
    "mismatch",
    "session_kind",
    "win_values",
]

EndedBy = Literal["bearoff", "drop", "resign", "forfeit", "draw"]
SessionKind = Literal["match", "money", "one-game"]
RESULT_NAMES = LEVEL_NAMES

_ONE_GAME_LENGTH = 16


def session_kind(match: Match) -> SessionKind:
    """``match``, ``money`` (length 0) or ``one-game``.

    ``one-game``: a Backgammon Galaxy "16 point match" of one game from 0-0.
    Galaxy writes its one-game sessions so; their gammons count as money play
    with the Jacoby rule would count them (1 on a centred cube, doubled on a
    turned one), and they are no incomplete matches.
    """
    return judge_kind(match, match.games[0] if match.games else None, len(match.games) == 1)


def judge_kind(match: Match, first: Game | None, alone: bool) -> SessionKind:
    """:func:`session_kind` of a match whose first game is ``first``, ``alone`` when no other game follows."""
    if not match.length:
        return "money"
    if (
        match.length == _ONE_GAME_LENGTH
        and alone
        and first is not None
        and first.score == (0, 0)
        and match.rules.galaxy
    ):
        return "one-game"
    return "match"


def cube_in_play(match: Match) -> bool:
    """Whether the transcript says a doubling cube is used (:attr:`RuleSet.cube_said`, or a cube limit)."""
    return match.rules.cube_said or match.rules.cube_limit != RuleSet().cube_limit


@dataclass(slots=True)
class Decision:
    """One replayed roll with the state before it (kept by :class:`~tabla_cli.writers.rolls.RollsVisitor`).

    ``position`` is seen from the acting player (``action.player`` is ``mover``).
    """

    action: Action
    position: Position
    cube: int
    cube_owner: Player | None
    play: Play | None = None


@dataclass(slots=True)
class GameResult:
    """What the replay of one game established.

    ``points`` is the value written (``Wins N``); ``verified_points`` the value
    the replay verified: the written one when the rules allow it (a capped
    final win and a forfeit included) or the game was not replayed, else the
    game's value where the end of the game fixes it (bear-off, drop) and None
    where it does not (a resignation). ``multiplier`` is the level (1, 2, 3;
    1, 2, 4, 8 with 1-2-4-8 scoring); None for a forfeit. ``match_won``: the
    result takes the winner from below the match length to it (the written
    points that count; never in money play or after the match was over).
    """

    number: int
    score: tuple[int, int]
    crawford: bool
    post_crawford: bool
    winner: Player | None = None
    points: int | None = None
    verified_points: int | None = None
    multiplier: int | None = None
    ended_by: EndedBy | None = None
    cube: int = 1
    cube_owner: Player | None = None
    rolls: int = 0
    checked: bool = True
    match_won: bool = False

    @property
    def result(self) -> str | None:
        """The level's name (:data:`~tabla_cli.scoring.LEVEL_NAMES`; None when unknown)."""
        return RESULT_NAMES.get(self.multiplier or 0)

    @property
    def worth(self) -> int:
        """The game's value at the cube and level the replay established (level 1 where none is known)."""
        return self.cube * (self.multiplier or 1)


@dataclass(slots=True)
class MatchResult:
    """The replay of a whole match: its findings and per-game results.

    ``winner``: the side that won the match (its score reached the length), or the winner of a one-game
    session's game; None while the match is unfinished, and in money play. The replay decides it.
    """

    match: Match
    findings: list[Finding] = field(default_factory=list)
    games: list[GameResult] = field(default_factory=list)
    plays: int = 0
    final_score: tuple[int, int] = (0, 0)
    kind: SessionKind = "match"
    scoring: str = "standard"
    winner: Player | None = None


def win_values(
    how: EndedBy,
    points: int,
    cube: int,
    level: int | None,
    scoring: Scoring,
    needed: int,
    *,
    jacoby: bool,
    single: bool,
) -> tuple[set[int], int | None]:
    """The values a ``Wins`` line may say after a game ended ``how``, and the game's level.

    Args:
        how: how the game ended (not ``draw``).
        points: the value written.
        cube: the cube value at the end.
        level: the level of a bear-off (None: a single game).
        scoring: the match's scoring rule set.
        needed: the points the winner needed (0 in money play).
        jacoby: gammons count single (money play, centred cube, Jacoby on).
        single: the cube alone is also right (the Jacoby rule unsaid, or a
            one-game session on a centred cube).

    Returns:
        ``(allowed values, level)``: the level is None for a forfeit and,
        for a resignation, what ``points`` offers.
    """
    if how == "bearoff":
        allowed = {cube * (1 if jacoby else level or 1)}
        if single:
            allowed.add(cube)
        return allowed, level
    if how == "drop":
        return {cube}, 1
    if how == "forfeit":
        return set(range(1, max(needed, cube * scoring.top) + 1)), None
    return {cube * each for each in scoring.levels}, scoring.resignation(points, cube)


def mismatch(how: EndedBy, points: int, allowed: set[int], cube: int, level: int | None) -> str:
    """The message of a ``result-mismatch``: ``Wins points`` is none of the ``allowed`` values."""
    full = max(allowed)
    said = " or ".join(str(v) for v in sorted(allowed)) if how != "forfeit" else f"1 to {full}"
    what = {
        "bearoff": f"a {RESULT_NAMES.get(level or 1)} at cube {cube}",
        "drop": f"a dropped double at cube {cube}",
        "resign": f"a resignation at cube {cube}",
        "forfeit": f"a forfeit at cube {cube}",
    }[how]
    return f"'Wins {points}' after {what}; expected {said}"
