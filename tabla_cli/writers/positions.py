"""One CSV row per decision of a match, with the position's IDs (``tabla convert --to positions``).

For people who study positions: every roll and every cube action (double,
take, drop, beaver, raccoon) becomes a row with the GNU Backgammon Position
ID, Match ID and the XGID of the position at that decision, both pip
counts and the OGID (OGXM's position ID, :mod:`tabla_cli.ids.ogid`). The IDs follow gnubg's text export, so they can be pasted into
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
    >>> from tabla_cli.formats.mat import parse_matches
    >>> text = '''3 point match
    ... Game 1
    ... Ann : 0   Bob : 0
    ... 1) 31: 8/5 6/5             42: 8/4 6/4
    ... 2) Doubles => 2            Takes
    ... '''
    >>> match = next(parse_matches(text))
    >>> print(format_positions([(match, None)]), end="")
    match,game,move,player,side,action,dice,play,position_id,match_id,xgid,pips_player,pips_opponent,ogid
    1,1,1,Ann,0,roll,31,8/5 6/5,4HPwATDgc/ABMA,MIBlAAAAAAAE,XGID=-b----E-C---eE---c-e----B-:0:0:-1:31:0:0:0:3:10,167,167,11ccccchhhjjjjj:66666888dddddoo:N0N:13:B:IB:0:0:3:0
    1,1,1,Bob,1,roll,42,8/4 6/4,sGfwATDgc/ABMA,cAlqAAAAAAAE,XGID=-b----E-C---eE---b-db---B-:0:0:1:42:0:0:0:3:10,167,163,11ccccchhjjjjkk:66666888dddddoo:N0N:24:W:R:0:0:3:1
    1,1,2,Ann,0,double,,,mGfwATCwZ/ABMA,MAFgAAAAAAAE,XGID=-b--B-D-B---eE---b-db---B-:0:0:-1:00:0:0:0:3:10,163,161,11ccccchhjjjjkk:44666688dddddoo:N0N::B:C:0:0:3:2
    1,1,2,Bob,1,take,,,mGfwATCwZ/ABMA,MBlgAAAAAAAE,XGID=-b--B-D-B---eE---b-db---B-:0:0:-1:D:0:0:0:3:10,161,163,11ccccchhjjjjkk:44666688dddddoo:N0O::W:D:0:0:3:2
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TextIO, TypeVar

from tabla_cli.board import CHECKERS, Dice, Play, Player, Position
from tabla_cli.errors import TablaError
from tabla_cli.ids import MatchState, encode_match_id, format_xgid
from tabla_cli.ids.ogid import format_ogid
from tabla_cli.model import Action, ActionKind, Game, Match
from tabla_cli.replay import MatchResult, replay
from tabla_cli.visitor import BaseVisitor, DecisionState, Wants

__all__ = [
    "COLUMNS",
    "DecisionRows",
    "PositionRow",
    "PositionsVisitor",
    "PositionsWriter",
    "format_positions",
    "position_rows",
    "write_positions",
]

T = TypeVar("T")

COLUMNS: tuple[str, ...] = (
    "match",
    "game",
    "move",
    "player",
    "side",
    "action",
    "dice",
    "play",
    "position_id",
    "match_id",
    "xgid",
    "pips_player",
    "pips_opponent",
    "ogid",
)
"""The CSV columns, in order."""


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
        cube: the cube's value after a cube action, as the replay counts it (None: not a cube action the
            replay followed).
        ogid: the OGID, OGXM's position ID ('' when not available: a variant, a set-up with other
            than 15 checkers a side).
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
    cube: int | None = None
    ogid: str = ""

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
            self.match,
            self.game,
            self.move,
            self.name,
            int(self.player),
            self.action,
            f"{self.dice[0]}{self.dice[1]}" if self.dice else None,
            self.play,
            self.position_id,
            self.match_id,
            self.xgid,
            pips[0] if pips else None,
            pips[1] if pips else None,
            self.ogid,
        ]


def write_positions(matches: Iterable[tuple[Match, MatchResult | None]], handle: TextIO) -> None:
    """Write the CSV of every decision of ``matches`` (header first) to ``handle``."""
    handle.write(format_positions(matches))


def format_positions(matches: Iterable[tuple[Match, MatchResult | None]]) -> str:
    """The CSV text (LF line ends) of every decision of ``matches``, numbered 1, 2, ... in order.

    Each match is replayed with a :class:`PositionsWriter` (the result beside it is not needed).
    """
    writer = PositionsWriter()
    for match, _ in matches:
        replay(match, writer)
    return writer.result()


def position_rows(match: Match, *, index: int = 1) -> list[PositionRow]:
    """Every decision of ``match`` in order; see the module documentation.

    Args:
        match: the match.
        index: the match's number in its input, for the ``match`` column.
    """
    return replay(match, PositionsVisitor(index))


class DecisionRows(BaseVisitor[T]):
    """Makes a :class:`PositionRow` of every roll and cube action the replay visits, and hands it to :meth:`row`.

    Args:
        index: the number of the first match it visits in its input, for the
            ``match`` column (each later match's is one more).
    """

    wants = Wants.ROLL | Wants.CUBE | Wants.RESIGN | Wants.UNCHECKED

    def __init__(self, index: int = 1) -> None:
        self.names = ("", "")
        self.index = index - 1
        self.game = 0
        self.rolls = 0
        self.taken = False

    def row(self, row: PositionRow) -> None:
        """One decision's row, in the order of the match's actions."""
        raise NotImplementedError

    def begin_match(self, match: Match) -> None:
        self.names = match.players
        self.index += 1

    def begin_game(self, game: Game, state: DecisionState) -> None:
        self.game = game.number
        self.rolls = 0
        self.taken = False

    def visit_unchecked(self, action: Action) -> None:
        if action.kind in _NO_ROW:
            return
        roll = action.kind is ActionKind.ROLL
        play = ("????" if action.resigned else " ".join((action.play_text or "").split())) if roll else ""
        player = action.player
        self.row(
            PositionRow(
                self.index,
                self.game,
                action.move_number,
                player,
                self.names[player],
                action.kind.value,
                action.dice if roll else None,
                play,
                None,
                player,
                None,
                "",
                "",
                "",
                action,
            )
        )

    def visit_roll(self, state: DecisionState, action: Action, play: Play | None, after: Position | None) -> None:
        if play is not None:
            written = state.variant.format_play(state.position, play)
        else:
            written = " ".join((action.play_text or "").split())
        self.add(state, action, written)

    def visit_resign(self, state: DecisionState, action: Action) -> None:
        if action.kind is ActionKind.ROLL:
            self.add(state, action, "????" if action.resigned else " ".join((action.play_text or "").split()))

    def visit_cube(
        self, state: DecisionState, action: Action, cube_before: int, cube_after: int, owner: Player | None
    ) -> None:
        self.add(state, action, "", cube_after)

    def add(self, state: DecisionState, action: Action, play: str, cube: int | None = None) -> None:
        dice = action.dice if action.kind is ActionKind.ROLL else None
        match_state = state.match_state(dice)
        position = state.position
        position_id = match_id = xgid = ogid = ""
        if state.has_ids and sum(position.mover) == sum(position.opponent) == CHECKERS:
            try:
                ogid = format_ogid(position, match_state, rolls=self.rolls, opening=state.opening, taken=self.taken)
            except TablaError:
                ogid = ""
        if action.kind is ActionKind.ROLL:
            self.rolls += 1
            self.taken = False
        elif action.kind is ActionKind.TAKE:
            self.taken = True
        if state.has_ids:
            try:
                position_id = position.position_id()
                match_id = encode_match_id(match_state)
            except TablaError:
                position_id = match_id = ""
            try:
                xgid = format_xgid(position, _playing(match_state))
            except TablaError:
                xgid = ""
        actor = state.actor
        self.row(
            PositionRow(
                self.index,
                state.game,
                action.move_number,
                actor,
                self.names[actor],
                action.kind.value,
                dice,
                play,
                position,
                state.on_roll,
                match_state,
                position_id,
                match_id,
                xgid,
                action,
                cube,
                ogid,
            )
        )


class PositionsVisitor(DecisionRows[list[PositionRow]]):
    """Keeps the :class:`PositionRow` of every roll and cube action the replay visits.

    Args:
        index: the number of the first match it visits in its input, for the
            ``match`` column (each later match's is one more).
    """

    def __init__(self, index: int = 1) -> None:
        super().__init__(index)
        self.rows: list[PositionRow] = []

    def row(self, row: PositionRow) -> None:
        self.rows.append(row)

    def result(self) -> list[PositionRow]:
        return self.rows


class PositionsWriter(DecisionRows[str]):
    """Writes the CSV of every decision of the matches it visits; :meth:`result` is the text so far (header first)."""

    def __init__(self) -> None:
        super().__init__()
        self.out = io.StringIO()
        self.csv = csv.writer(self.out, lineterminator="\n")
        self.csv.writerow(COLUMNS)

    def row(self, row: PositionRow) -> None:
        self.csv.writerow(row.values())

    def result(self) -> str:
        return self.out.getvalue()


_NO_ROW = frozenset({ActionKind.WIN, ActionKind.LOSS, ActionKind.RESIGN})
"""The actions that are no decision (every other one has exactly one row)."""


def _playing(state: MatchState) -> MatchState:
    """``state`` as a game in play (an XGID has no game state)."""
    return state if state.game_state == 1 else replace(state, game_state=1)
