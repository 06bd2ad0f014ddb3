"""ASCII boards, one per decision, with the play (``tabla convert --to txt``).

For reading a match through: every roll and cube action of
:class:`tabla_cli.writers.positions.DecisionRows` makes is drawn as the board
before it (seen from the player on roll, who sits at the bottom; player 0
is ``O`` and player 1 ``X``, as in GNU Backgammon), with its Position ID,
Match ID, pip counts and what was done. It is written for people, not read
back.

Example:
    >>> from tabla_cli.formats.mat import parse_matches
    >>> text = '''1 point match
    ... Game 1
    ... Ann : 0   Bob : 0
    ... 1) 31: 8/5 6/5
    ...                 Wins 1 point
    ... '''
    >>> match = next(parse_matches(text))
    >>> print(format_text([(match, None)]), end="")
    Ann (O) - Bob (X), 1-point match
    <BLANKLINE>
    Game 1: Ann 0, Bob 0
    <BLANKLINE>
    Move 1: Ann (O) to play 31
    Position ID: 4HPwATDgc/ABMA   Match ID: MIAlAAAAAAAE
     +13-14-15-16-17-18------19-20-21-22-23-24-+
     | O           X    |   | X              O |
     | O           X    |   | X              O |
     | O           X    |   | X                |
     | O                |   | X                |
     | O                |   | X                |
     |                  |BAR|                  |
     | X                |   | O                |
     | X                |   | O                |
     | X           O    |   | O                |
     | X           O    |   | O              X |
     | X           O    |   | O              X |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+
    Pip counts: Ann (O) 167, Bob (X) 167
    * Ann moves 8/5 6/5
    <BLANKLINE>
    Ann wins 1 point and the match
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

from tabla_cli.board import Player
from tabla_cli.model import Action, ActionKind, Game, Match
from tabla_cli.render import board_lines
from tabla_cli.replay import GameResult, MatchResult, replay
from tabla_cli.visitor import DecisionState, Wants
from tabla_cli.writers.positions import DecisionRows, PositionRow

__all__ = ["TextWriter", "format_text", "write_text"]

_MARK = {Player.ZERO: "O", Player.ONE: "X"}


def write_text(matches: Iterable[tuple[Match, MatchResult | None]], handle: TextIO) -> None:
    """Write the boards of every decision of ``matches`` to ``handle``."""
    handle.write(format_text(matches))


def format_text(matches: Iterable[tuple[Match, MatchResult | None]]) -> str:
    """The text of :func:`write_text`; each match is replayed with a :class:`TextWriter`."""
    writer = TextWriter()
    for match, _ in matches:
        replay(match, writer)
    return writer.result()


class TextWriter(DecisionRows[str]):
    """Draws every decision of the matches it visits, with the resignations and results between them.

    :meth:`result` is the text of the matches so far.
    """

    wants = DecisionRows.wants | Wants.RESULT | Wants.RESULT_LINE | Wants.SETUP

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []
        self.match: Match | None = None

    def begin_match(self, match: Match) -> None:
        super().begin_match(match)
        self.match = match
        if self.lines:
            self.lines.append("")
        length = f"{match.length}-point match" if match.length else "money session"
        self.lines.append(f"{_who(match, Player.ZERO)} - {_who(match, Player.ONE)}, {length}")
        self.lines += [f"{key}: {value}" for key, value in match.headers]

    def visit_setup(self, state: DecisionState, action: Action) -> None:
        """A set-up inside the game: said in a line; the next board drawn is the one it set."""
        setup = action.setup
        said = []
        if setup is not None and setup.position is not None:
            said.append(f"Position ID {state.position_id()}" if state.has_ids else "the board")
        if setup is not None and (setup.cube is not None or setup.owner_set):
            said.append(f"the cube at {state.cube}")
        self.lines += ["", f"Set by hand: {' and '.join(said)}"]

    def begin_game(self, game: Game, state: DecisionState) -> None:
        super().begin_game(game, state)
        names = self.names
        self.lines += ["", f"Game {game.number}: {names[0]} {state.score[0]}, {names[1]} {state.score[1]}"]

    def row(self, row: PositionRow) -> None:
        assert self.match is not None  # begin_match came first
        self.lines += [""] + _decision(self.match, row)

    def visit_resign(self, state: DecisionState, action: Action) -> None:
        super().visit_resign(state, action)
        self.resigns(action)

    def visit_unchecked(self, action: Action) -> None:
        super().visit_unchecked(action)
        self.resigns(action)

    def resigns(self, action: Action) -> None:
        if action.kind is ActionKind.RESIGN:
            self.lines += ["", f"{self.names[action.player]} resigns"]

    def visit_result(self, state: DecisionState, action: Action, game_result: GameResult) -> None:
        self.wins(action, game_result.match_won)

    def visit_result_line(self, state: DecisionState, action: Action, game_result: GameResult) -> None:
        if action.kind is ActionKind.WIN:
            self.wins(action, False)

    def wins(self, action: Action, match_won: bool) -> None:
        """A ``Wins`` line as written, ``and the match`` where the replay says it wins the match."""
        points = action.value if action.value is not None else 0
        won = " and the match" if match_won else ""
        self.lines += ["", f"{self.names[action.player]} wins {points} point{'' if points == 1 else 's'}{won}"]

    def result(self) -> str:
        return "\n".join(self.lines) + "\n"


def _who(match: Match, player: Player) -> str:
    return f"{match.players[player]} ({_MARK[player]})"


def _decision(match: Match, row: PositionRow) -> list[str]:
    name = _who(match, row.player)
    move = f"Move {row.move}: " if row.move is not None else ""
    kind = row.action
    if kind == "roll":
        assert row.dice is not None
        head = f"{move}{name} to play {row.dice[0]}{row.dice[1]}"
        if row.play == "????":
            done = f"* {match.players[row.player]} resigns"
        elif row.play:
            done = f"* {match.players[row.player]} moves {row.play}"
        else:
            done = f"* {match.players[row.player]} cannot move"
    elif kind == "double":
        value = row.source.value or row.cube
        head = f"{move}{name} on roll, cube decision"
        done = f"* {match.players[row.player]} doubles" + (f" to {value}" if value else "")
    else:
        head = f"{move}{name} answers the double"
        verb = {"take": "takes", "drop": "drops", "beaver": "beavers", "raccoon": "raccoons"}[kind]
        value = row.source.value or (row.cube if kind in ("beaver", "raccoon") else None)
        done = f"* {match.players[row.player]} {verb}" + (f" to {value}" if value and kind != "take" else "")
    lines = [head]
    if row.position_id:
        lines.append(f"Position ID: {row.position_id}   Match ID: {row.match_id}")
    if row.position is not None:
        bottom = _MARK[row.on_roll]
        lines += board_lines(row.position, bottom=bottom, top=_MARK[row.on_roll.other])
        pips = row.position.pips()
        mine = dict(((row.on_roll, pips[0]), (row.on_roll.other, pips[1])))
        lines.append(
            f"Pip counts: {_who(match, Player.ZERO)} {mine[Player.ZERO]}, {_who(match, Player.ONE)} {mine[Player.ONE]}"
        )
    else:
        lines.append("(position unknown: an earlier play could not be applied)")
    lines.append(done)
    return lines
