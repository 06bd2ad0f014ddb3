"""One CSV row per decision of a match, with the position's IDs (``tabla convert --to positions``).

For people who study positions: every roll and every cube action (double,
take, drop, beaver, raccoon) becomes a row with the GNU Backgammon Position
ID, Match ID and the XGID of the position at that decision, and both pip
counts. The IDs follow gnubg's text export, so they can be pasted into
gnubg or XG:

* a roll: the position before the roll, seen from the roller; the Match ID
  holds the dice (larger first) and, for the opening roll of a game, game
  state 0, as gnubg prints it;
* a double: the position seen from the doubler, no dice;
* an answer (take, drop, beaver, raccoon): the same position, still seen
  from the doubler (the player on roll), with the double pending and the
  turn at the player who answers.

``pips_player`` and ``pips_opponent`` are the acting player's and the other
player's pip counts. A position the replay could not reach (after a play
that cannot be applied) has empty IDs and pips; so do variants without
gnubg IDs.

Example:
    >>> import io
    >>> from tabla_cli.formats.mat import read_matches
    >>> text = '''3 point match
    ... Game 1
    ... Ann : 0   Bob : 0
    ... 1) 31: 8/5 6/5  Doubles => 2
    ... 2) Takes
    ... '''
    >>> match = next(read_matches(io.StringIO(text)))
    >>> print(format_positions([(match, None)]), end="")
    match,game,move,player,side,action,dice,play,position_id,match_id,xgid,pips_player,pips_opponent
    1,1,1,Ann,0,roll,31,8/5 6/5,4HPwATDgc/ABMA,MIBlAAAAAAAE,XGID=-b----E-C---eE---c-e----B-:0:0:-1:31:0:0:0:3:10,167,167
    1,1,1,Bob,1,double,,,sGfwATDgc/ABMA,cAlgAAAAAAAE,XGID=-b----E-C---eE---b-db---B-:0:0:1:00:0:0:0:3:10,167,163
    1,1,2,Ann,0,take,,,sGfwATDgc/ABMA,cBFgAAAAAAAE,XGID=-b----E-C---eE---b-db---B-:0:0:1:D:0:0:0:3:10,163,167
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TextIO

from tabla_cli.board import Dice, Play, Player, Position, apply_segments
from tabla_cli.errors import TablaError
from tabla_cli.ids import XGID_MAX_CUBE_EXP, MatchState, encode_match_id, format_xgid
from tabla_cli.model import Action, ActionKind, Game, Match
from tabla_cli.notation import format_play, parse_play
from tabla_cli.replay import Decision, GameResult, MatchResult, replay_match
from tabla_cli.variant import Variant, find_variant

__all__ = ["COLUMNS", "PositionRow", "format_positions", "position_rows", "write_positions"]

COLUMNS: tuple[str, ...] = (
    "match", "game", "move", "player", "side", "action", "dice", "play",
    "position_id", "match_id", "xgid", "pips_player", "pips_opponent",
)
"""The CSV columns, in order."""

_ANSWERS = frozenset({ActionKind.TAKE, ActionKind.DROP, ActionKind.BEAVER, ActionKind.RACCOON})


@dataclass(frozen=True, slots=True)
class PositionRow:
    """One decision: a roll or a cube action, with the position and IDs at that moment.

    Attributes:
        match: the match's number in its input (1 = first).
        game: the game number as written.
        move: the printed move number (None if none).
        player: who acts.
        name: the acting player's name.
        action: ``roll``, ``double``, ``take``, ``drop``, ``beaver`` or ``raccoon``.
        dice: the roll as written (rolls only).
        play: the play in gnubg's notation when the replay resolved it, else as
            written ('' = no move; ``????`` = rolled, then resigned).
        position: the position, seen from ``on_roll`` (None when unknown).
        on_roll: the player the position is seen from (gnubg's player on roll).
        state: the Match ID fields (None when the position is unknown).
        position_id: the gnubg Position ID ('' when not available).
        match_id: the gnubg Match ID ('' when not available).
        xgid: the XGID ('' when not available).
        source: the action of the match model.
    """

    match: int
    game: int
    move: int | None
    player: Player
    name: str
    action: str
    dice: Dice | None
    play: str
    position: Position | None
    on_roll: Player
    state: MatchState | None
    position_id: str
    match_id: str
    xgid: str
    source: Action

    @property
    def pips(self) -> tuple[int, int] | None:
        """Pip counts ``(acting player, opponent)``; None when the position is unknown."""
        if self.position is None:
            return None
        mine, other = self.position.pips()
        return (mine, other) if self.on_roll == self.player else (other, mine)

    def values(self) -> list[object]:
        """The CSV cells, in :data:`COLUMNS` order (None = empty)."""
        pips = self.pips
        return [
            self.match, self.game, self.move, self.name, int(self.player), self.action,
            f"{self.dice[0]}{self.dice[1]}" if self.dice else None, self.play,
            self.position_id, self.match_id, self.xgid,
            pips[0] if pips else None, pips[1] if pips else None,
        ]


def write_positions(matches: Iterable[tuple[Match, MatchResult | None]], handle: TextIO) -> None:
    """Write the CSV of every decision of ``matches`` (header first) to ``handle``."""
    handle.write(format_positions(matches))


def format_positions(matches: Iterable[tuple[Match, MatchResult | None]]) -> str:
    """The CSV text (LF line ends) of every decision of ``matches``, numbered 1, 2, ... in order."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for index, (match, replayed) in enumerate(matches, start=1):
        for row in position_rows(match, replayed=replayed, index=index):
            writer.writerow(row.values())
    return out.getvalue()


def position_rows(match: Match, *, replayed: MatchResult | None = None, index: int = 1) -> list[PositionRow]:
    """Every decision of ``match`` in order; see the module documentation.

    Args:
        match: the match.
        replayed: ``replay_match(match, collect=True)`` if already done.
        index: the match's number in its input, for the ``match`` column.
    """
    if replayed is None or not (replayed.plays == 0 or any(g.decisions for g in replayed.games)):
        replayed = replay_match(match, collect=True)
    rows: list[PositionRow] = []
    for i, game in enumerate(match.games):
        result = replayed.games[i] if i < len(replayed.games) else None
        _GameRows(match, game, result, index, rows).run()
    return rows


class _GameRows:
    """Walks one game's actions with the replay's decisions, tracking position and cube."""

    def __init__(self, match: Match, game: Game, result: GameResult | None, index: int,
                 rows: list[PositionRow]) -> None:
        self.match = match
        self.game = game
        self.result = result
        self.index = index
        self.rows = rows
        self.variant: Variant = find_variant(game.variant or match.variant)
        self.ids = bool(getattr(self.variant, "has_gnubg_ids", True))
        # A variant may write its plays its own way; standard notation otherwise.
        self.format_play: Callable[[Position, Play], str] = getattr(self.variant, "format_play", format_play)
        start = game.start or self.variant.start_position()
        self.position: Position | None = start
        self.side = Player.ZERO
        self.cube, self.owner = game.start_cube or (1, None)
        self.offered = 0
        self.doubler: Player | None = None
        self.opening = True
        self.decisions: dict[int, Decision] = {}
        if result is not None:
            self.decisions = {id(d.action): d for d in result.decisions}

    def seen_from(self, player: Player) -> Position | None:
        if self.position is None:
            return None
        return self.position if self.side == player else self.position.flip()

    def run(self) -> None:
        for action in self.game.actions:
            kind = action.kind
            if kind is ActionKind.ROLL:
                self.roll(action)
            elif kind is ActionKind.DOUBLE:
                self.add(action, self.seen_from(action.player), action.player, action.player, False)
                self.doubler = action.player
                self.offered = action.value or self.cube * 2
            elif kind in _ANSWERS:
                doubler = self.doubler if self.doubler is not None else action.player.other
                self.add(action, self.seen_from(doubler), doubler, action.player, True)
                if kind is ActionKind.TAKE:
                    self.cube, self.owner = self.offered or self.cube * 2, action.player
                elif kind is not ActionKind.DROP:
                    self.cube = action.value or (self.offered or self.cube) * 2
                    self.owner = action.player
                if kind is not ActionKind.RACCOON and kind is not ActionKind.BEAVER:
                    self.doubler = None
                self.offered = 0

    def roll(self, action: Action) -> None:
        decision = self.decisions.get(id(action))
        player = action.player
        play: Play | None = None
        if decision is not None:
            self.position, self.side = decision.position, player
            self.cube, self.owner = decision.cube, decision.cube_owner
            play = decision.play
        position = self.seen_from(player)
        if action.resigned:
            written = "????"
        elif play is not None and position is not None:
            written = self.format_play(position, play)
        else:
            written = " ".join((action.play_text or "").split())
        self.add(action, position, player, player, False, written)
        self.opening = False
        self.doubler = None
        if position is None or action.resigned:
            return
        after: Position | None
        if play is not None:
            after = position.apply(play)
        else:
            # Where the replay went on from after a play it could not resolve.
            parse = getattr(self.variant, "parse_play", parse_play)
            apply = getattr(self.variant, "apply_written", apply_segments)
            try:
                after = apply(position, parse(action.play_text or ""))
            except TablaError:
                after = None
        self.position = after.flip() if after is not None else None
        self.side = player.other

    def add(self, action: Action, position: Position | None, on_roll: Player, actor: Player,
            pending: bool, play: str = "") -> None:
        match, result = self.match, self.result
        roll = action.kind is ActionKind.ROLL
        dice = action.dice if roll else None
        state: MatchState | None = None
        position_id = match_id = xgid = ""
        if position is not None:
            rules = match.rules
            money = not match.length
            cube_limit = rules.cube_limit
            state = MatchState(
                cube=self.cube, cube_owner=self.owner, dice_owner=on_roll,
                crawford=bool(result and result.crawford),
                game_state=0 if roll and self.opening else 1,
                turn=actor, doubled=pending, resign=0,
                dice=(max(dice), min(dice)) if dice else None, length=match.length,
                score=result.score if result is not None else self.game.score,
                jacoby=money and rules.jacoby, beaver=money and rules.beaver,
                max_cube_exp=min(XGID_MAX_CUBE_EXP, max(0, cube_limit.bit_length() - 1)),
            )
            if self.ids:
                try:
                    position_id = position.position_id()
                    match_id = encode_match_id(state)
                except TablaError:
                    position_id = match_id = ""
                try:
                    xgid = format_xgid(position, _playing(state))
                except TablaError:
                    xgid = ""
        self.rows.append(PositionRow(
            self.index, self.game.number, action.move_number, actor, match.players[actor], action.kind.value,
            dice, play, position, on_roll, state, position_id, match_id, xgid, action,
        ))


def _playing(state: MatchState) -> MatchState:
    """``state`` as a game in play (an XGID has no game state)."""
    return state if state.game_state == 1 else replace(state, game_state=1)
