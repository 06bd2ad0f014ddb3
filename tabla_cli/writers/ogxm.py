"""Write matches as OGXM (``tabla convert --to ogxm``): one match a v2 file, many a stream.

:class:`OgxmWriter` is a visitor of the replay: it builds each match's OGXM
JSON projection from the replay's steps (the plays as resolved, the cube
values decided, the results judged) and the ``ogxm`` package encodes it
(:func:`ogxm.json_to_binary`), with a CRC-32 checksum so that every match is
also a valid stream member: the matches of one input, written back to back,
are an ``.ogxms`` stream.

What is written is what :mod:`tabla_cli.formats.ogxm` reads: the players
(the first is white), the match length, rules, event and site, each game's
plies (a roll's checkers as ``{"from", "pips"}`` in black's numbering, the
cube actions, a resignation and its value) with its winner and points, and
the end of each game as GammonView marks it (26 after a pass or the bear-off
that wins the match, 24 after any other bear-off; a resignation
28 when it wins the match, else 27), and the analysis tabla keeps (the ranked plays with their equities and
probabilities, the cube equities, a play listed twice written once); the
fields of GammonView's analysis that tabla has no place for (its
classification of a play, its cubeless equities) are not, nor the site or
round (OGXM v2 holds neither). OGXM has no beaver or raccoon: a match with one is
refused (:class:`~tabla_cli.errors.InvalidPlayError`), as is an illegal
play (``--no-check``), whose checkers cannot be written.
"""

from __future__ import annotations

from typing import Any

from tabla_cli.board import Play, Player, Position
from tabla_cli.errors import InvalidPlayError
from tabla_cli.evaluation.recorded import Candidate, CubeAnalysis, RecordedAnalysis
from tabla_cli.formats.ogxm import (
    DOUBLE,
    END_GAME,
    END_PASS,
    PASS,
    RESIGN_ACCEPTED,
    RESIGN_WON,
    TAKE,
    roll_action_id,
)
from tabla_cli.model import Action, ActionKind, Game, Match
from tabla_cli.notation import parse_play
from tabla_cli.results import GameResult, MatchResult
from tabla_cli.visitor import BaseVisitor, DecisionState, Wants

__all__ = ["OgxmWriter", "document_of", "pips_of", "write_document"]

_RESIGN_NAMES = {1: "single", 2: "gammon", 3: "backgammon"}
_HEADERS = {"event": "Event"}
_LEVEL_PREFIX = "bgsage "


def color_of(player: Player) -> int:
    """The OGXM colour of a tabla player (the first player, white, is colour 1)."""
    return 1 - int(player)


def pips_of(play: Play, dice: tuple[int, int], player: Player) -> list[dict[str, int]]:
    """The checkers of ``play`` as OGXM ``{"from", "pips"}`` moves, in black's numbering.

    A bear-off by a larger die than the distance is written with that die.

    >>> from tabla_cli.board import Step
    >>> pips_of((Step(24, 18), Step(18, 13)), (6, 5), Player.ZERO)
    [{'from': 1, 'pips': 6}, {'from': 7, 'pips': 5}]
    >>> pips_of((Step(3, 0),), (5, 1), Player.ONE)
    [{'from': 3, 'pips': 5}]
    """
    left = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    exact = [step.src - step.dst for step in play if step.dst > 0]
    for distance in exact:
        if distance in left:
            left.remove(distance)
    moves = []
    for step in play:
        distance = step.src - step.dst
        if step.dst > 0:
            die = distance
        else:
            die = distance if distance in left else min((d for d in left if d > distance), default=distance)
            if die in left:
                left.remove(die)
        src = step.src if player is Player.ONE else 25 - step.src
        moves.append({"from": src, "pips": die})
    return moves


def _level(text: str) -> dict[str, int] | None:
    name = text.removeprefix(_LEVEL_PREFIX).removesuffix("-ply")
    return {"checker_ply": int(name)} if name.isdigit() else None


def _outcomes(probabilities: tuple[float, ...] | None) -> dict[str, float] | None:
    if probabilities is None or len(probabilities) != 6:
        return None
    win, gwin, bgwin, _, gloss, bgloss = probabilities
    return {"win": win, "gammon_win": gwin, "bg_win": bgwin, "gammon_loss": gloss, "bg_loss": bgloss}


def _cube_fields(cube: CubeAnalysis) -> dict[str, Any]:
    out: dict[str, Any] = {
        "no_double_equity": cube.no_double,
        "double_take_equity": cube.double_take,
        "double_pass_equity": cube.double_pass,
    }
    if cube.proper:
        out["correct_action"] = cube.proper
    outcomes = _outcomes(cube.probabilities)
    if outcomes is not None:
        out["eval"] = outcomes
    return out


def _alternative(
    candidate: Candidate, played: bool, dice: tuple[int, int], player: Player, start: Position
) -> dict[str, Any] | None:
    from tabla_cli.variant import find_variant

    try:
        resolved = find_variant("").resolve_play(start, dice, parse_play(candidate.play)).play
    except Exception:  # a candidate the position does not allow is left out, as a reader would skip it
        return None
    if resolved is None:
        return None
    out: dict[str, Any] = {"move": pips_of(resolved, dice, player), "equity": candidate.equity, "is_played": played}
    outcomes = _outcomes(candidate.probabilities)
    if outcomes is not None:
        out["eval"] = outcomes
    return out


def _roll_analysis(
    recorded: RecordedAnalysis | None, dice: tuple[int, int], player: Player, start: Position
) -> dict[str, Any] | None:
    if recorded is None:
        return None
    out: dict[str, Any] = {}
    alternatives: list[dict[str, Any]] = []
    seen: dict[tuple[tuple[int, int], ...], int] = {}
    for index, candidate in enumerate(recorded.candidates):
        alternative = _alternative(candidate, index == recorded.played, dice, player, start)
        if alternative is None:
            continue
        key = tuple(sorted((m["from"], m["pips"]) for m in alternative["move"]))
        if key in seen:  # OGXM lists a play once (GammonView's lists may repeat one): the played one stays
            if alternative["is_played"]:
                alternatives[seen[key]]["is_played"] = True
            continue
        seen[key] = len(alternatives)
        alternatives.append(alternative)
    if alternatives:
        out["alternatives"] = alternatives
    level = _level(recorded.level)
    if level is not None:
        out["level"] = level
    if recorded.cube is not None:
        out["cube_decision"] = _cube_fields(recorded.cube)
    return out if alternatives or recorded.cube is not None else None


def _cube_analysis(recorded: RecordedAnalysis | None) -> dict[str, Any] | None:
    if recorded is None or recorded.cube is None:
        return None
    out = _cube_fields(recorded.cube)
    if recorded.cube_action is not None:
        out["played_action"] = recorded.cube_action.value.replace(" ", "_")
    return out


class OgxmWriter(BaseVisitor[bytes]):
    """A visitor of the replay that writes each match as an OGXM v2 file; :meth:`result` is their bytes."""

    wants = Wants.ROLL | Wants.CUBE | Wants.RESIGN | Wants.RESULT | Wants.UNCHECKED

    def __init__(self, *, analysis: bool = True) -> None:
        self.analysis = analysis
        self.members: list[bytes] = []
        self.doc: dict[str, Any] = {}
        self.games: list[dict[str, Any]] = []
        self.plies: list[dict[str, Any]] = []
        self.first: int | None = None
        self.problem: InvalidPlayError | None = None

    def begin_match(self, match: Match) -> None:
        self.doc = _match_fields(match)
        self.games = []

    def begin_game(self, game: Game, state: DecisionState) -> None:
        self.plies = []
        self.first = None
        if not self.games:
            self.doc["white_score_start"], self.doc["black_score_start"] = game.score

    def _ply(self, action: Action, action_id: int, **fields: Any) -> None:
        if self.first is None:
            self.first = color_of(action.player)
        self.plies.append({"action_id": action_id, "color": color_of(action.player), **fields})

    def visit_roll(self, state: DecisionState, action: Action, play: Play | None, after: Position | None) -> None:
        dice = action.dice
        if dice is None:
            return
        if play is None:
            self._refuse(
                action, f"the play {action.play_text!r} is not legal: OGXM holds only the checkers of a legal one"
            )
            return
        fields: dict[str, Any] = {"d1": dice[0], "d2": dice[1], "moves": pips_of(play, dice, action.player)}
        analysis = _roll_analysis(action.analysis, dice, action.player, state.position) if self.analysis else None
        if analysis is not None:
            fields["analysis"] = analysis
        self._ply(action, roll_action_id(dice), **fields)

    def visit_cube(
        self, state: DecisionState, action: Action, cube_before: int, cube_after: int, owner: Player | None
    ) -> None:
        ids = {ActionKind.DOUBLE: DOUBLE, ActionKind.TAKE: TAKE, ActionKind.DROP: PASS}
        if action.kind not in ids:
            self._refuse(action, f"a {action.kind.value}, which OGXM cannot hold")
            return
        analysis = _cube_analysis(action.analysis) if self.analysis else None
        self._ply(action, ids[action.kind], **({"analysis": analysis} if analysis is not None else {}))

    def visit_resign(self, state: DecisionState, action: Action) -> None:
        value = _RESIGN_NAMES.get(action.value or 1, "single")
        self._ply(action, RESIGN_ACCEPTED, resign_value=value)

    def visit_result(self, state: DecisionState, action: Action, game_result: GameResult) -> None:
        """The result is written at the end of the game, from what the replay judged."""

    def visit_unchecked(self, action: Action) -> None:
        """An action after the end of the game is not written (OGXM ends a game with its result)."""

    def _refuse(self, action: Action, reason: str) -> None:
        if self.problem is None:
            self.problem = InvalidPlayError(f"not written as OGXM: {reason}", action.location)

    def end_game(self, game_result: GameResult) -> None:
        plies = self.plies
        if game_result.ended_by == "drop" or (game_result.ended_by == "bearoff" and game_result.match_won):
            plies.append({"action_id": END_PASS})
        elif game_result.ended_by == "resign" and plies and plies[-1]["action_id"] == RESIGN_ACCEPTED:
            if game_result.match_won:
                plies[-1]["action_id"] = RESIGN_WON
        elif game_result.winner is not None:
            plies.append({"action_id": END_GAME})
        game: dict[str, Any] = {
            "game_index": len(self.games),
            "first_to_move": self.first if self.first is not None else 1,
            "is_crawford": game_result.crawford,
            "plies": plies,
        }
        points = game_result.points if game_result.points is not None else game_result.verified_points
        if game_result.winner is not None and points:
            game["winner"] = int(game_result.winner)
            game["points_won"] = points
        self.games.append(game)

    def end_match(self, match_result: MatchResult) -> None:
        self.doc["games"] = self.games
        if self.problem is None:
            try:
                self.members.append(write_document(self.doc))
            except InvalidPlayError as exc:
                self.problem = exc

    def result(self) -> bytes:
        """The bytes of the matches visited (one OGXM file each, back to back).

        Raises:
            InvalidPlayError: a match holds what OGXM cannot (an illegal play, a beaver).
        """
        if self.problem is not None:
            raise self.problem
        return b"".join(self.members)


def _match_fields(match: Match) -> dict[str, Any]:
    rules = match.rules
    doc: dict[str, Any] = {
        "player_white": match.players[0],
        "player_black": match.players[1],
        "match_length": match.length,
        "crawford": rules.crawford,
        "jacoby": rules.jacoby,
        "beaver": rules.beaver,
        "checksum": "crc32",
    }
    if rules.cube_limit < 4096:
        doc["cube_limit"] = rules.cube_limit
    said = {key.lower(): value for key, value in match.headers}
    for field, header in _HEADERS.items():
        if said.get(header.lower()):
            doc[field] = said[header.lower()]
    return doc


def document_of(match: Match) -> dict[str, Any]:
    """The OGXM JSON projection :class:`OgxmWriter` makes of ``match`` (replayed here)."""
    from tabla_cli.replay import replay

    writer = _DocumentWriter()
    replay(match, writer)
    return writer.doc


class _DocumentWriter(OgxmWriter):
    def end_match(self, match_result: MatchResult) -> None:
        self.doc["games"] = self.games


def write_document(doc: dict[str, Any]) -> bytes:
    """The OGXM bytes of a projection (:func:`ogxm.json_to_binary`).

    Raises:
        InvalidPlayError: the codec refuses it (a field out of its range).
    """
    import ogxm

    try:
        data: bytes = ogxm.json_to_binary(doc)
        return data
    except ogxm.OgxmError as exc:
        raise InvalidPlayError(f"not written as OGXM: the codec refuses the match ({exc})") from None
