"""The same match read twice: a digest of what was played, whatever the format it came from.

Archives hold a match more than once: a ``.mat`` file and the ``.sgf`` a
program saved from it, a gnubg text export of each game, the same export
made twice. A :class:`Fingerprint` is a replay visitor that sums up what was
played: the players, the match length and, game by game, the score, every
roll (who rolled, the dice in any order, the position the play led to) and
every cube action (who, what, the cube value after it). Notation, move
numbers, hit marks, comments, analysis and how a result is written play no
part, so the copies of a match in different formats get the same digest.

:class:`Duplicates` remembers the digests in input order: a later match with
the digest of one seen before, or whose games were all seen before (one game
exported from a match already read), is a copy of the first.

Example:
    >>> import io
    >>> from tabla_cli.formats.mat import read_matches
    >>> from tabla_cli.replay import replay
    >>> def key(moves: str) -> MatchKey:
    ...     text = "1 point match\\n Game 1\\n Ann : 0   Bob : 0\\n" + moves
    ...     [(found, _)] = replay(next(read_matches(io.StringIO(text))), Fingerprint())
    ...     return found
    >>> key("  1) 31: 8/5 6/5\\n").digest == key("  1) 13: 6/5* 8/5\\n").digest
    True
    >>> key("  1) 31: 8/5 6/5\\n").digest == key("  1) 31: 24/21 21/20\\n").digest
    False
"""

from __future__ import annotations

import hashlib
import marshal
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tabla_cli.board import Player
from tabla_cli.errors import Location
from tabla_cli.model import Action, Match
from tabla_cli.visitor import BaseVisitor, DecisionState, Wants

if TYPE_CHECKING:
    from tabla_cli.board import Position
    from tabla_cli.replay import GameResult, MatchResult

__all__ = ["Duplicates", "Fingerprint", "MatchKey"]


@dataclass(frozen=True, slots=True)
class MatchKey:
    """What identifies a match by its content.

    Attributes:
        digest: the digest of the whole match.
        games: the digest of each game in which a roll was made.
        plays: rolls in the match.
    """

    digest: str
    games: tuple[str, ...]
    plays: int


class Fingerprint(BaseVisitor[list[tuple[MatchKey, Location]]]):
    """Sums up each replayed match: its :class:`MatchKey`, with where the match starts.

    The moves of a game are kept as plain tuples (a position as the bytes of
    its checker counts) and hashed once, when the game ends (``marshal``
    format 2, which writes equal values as equal bytes), which keeps the
    cost per roll to an append.

    Args:
        keys: the list each match's key is added to (the result); a new one if None.
    """

    wants = Wants.MOVE | Wants.CUBE
    lazy_games = True
    reads_analysis = False

    def __init__(self, keys: list[tuple[MatchKey, Location]] | None = None) -> None:
        self.keys = [] if keys is None else keys
        self.names: tuple[str, str] = ("", "")
        self.length = 0
        self.variant = ""
        self.moves: list[tuple[object, ...]] = []
        self.games: list[tuple[str, int]] = []
        self.plays = 0
        self.rolls = 0

    def begin_match(self, match: Match) -> None:
        """Start a match (forgets any match before it)."""
        self.names = match.players
        self.length = match.length
        self.variant = match.variant
        self.moves = []
        self.games = []
        self.plays = 0
        self.rolls = 0

    def visit_move(self, action: Action, after: Position | None) -> None:
        """A roll, with the position its play led to (None: the play could not be applied)."""
        dice = action.dice or (0, 0)
        dice = _DICE.get(dice, dice)
        name = self.names[action.player]
        self.rolls += 1
        if after is None:
            self.moves.append((name, dice, action.play_text or ""))
            return
        try:
            self.moves.append((name, dice, bytes(after.mover), bytes(after.opponent)))
        except ValueError:  # a count beyond a byte: only a damaged set-up position has one
            self.moves.append((name, dice, after.mover, after.opponent))

    def visit_cube(
        self, state: DecisionState, action: Action, cube_before: int, cube_after: int, owner: Player | None
    ) -> None:
        """A cube action, with the cube value after it."""
        self.moves.append((self.names[action.player], action.kind.value, cube_after))

    def end_game(self, game_result: GameResult) -> None:
        """A game ends: its digest is made from the moves since the last one."""
        names, score = self.names, game_result.score
        head = (self.variant, self.length, tuple(sorted(zip(names, score))))
        self.games.append((_digest((head, self.moves)), self.rolls))
        self.plays += self.rolls
        self.moves = []
        self.rolls = 0

    def end_match(self, match_result: MatchResult) -> None:
        self.keys.append((self.key(), match_result.match.location))

    def result(self) -> list[tuple[MatchKey, Location]]:
        return self.keys

    def key(self) -> MatchKey:
        """The :class:`MatchKey` of the match so far."""
        head = (self.variant, self.length, tuple(sorted(self.names)))
        return MatchKey(
            _digest((head, [digest for digest, _ in self.games])),
            tuple(digest for digest, rolls in self.games if rolls),
            self.plays,
        )


def _digest(value: Any) -> str:
    return hashlib.blake2b(marshal.dumps(value, 2), digest_size=16).hexdigest()


_DICE: dict[tuple[int, int], tuple[int, int]] = {
    (a, b): (min(a, b), max(a, b)) for a in range(1, 7) for b in range(1, 7)
}


class Duplicates:
    """The matches seen so far, in input order, and where each was seen first."""

    def __init__(self) -> None:
        self.matches: dict[str, str] = {}
        self.games: dict[str, str] = {}

    def first(self, key: MatchKey, where: str) -> tuple[str, bool] | None:
        """Where a copy of this match was seen first, else None (and it is remembered as seen at ``where``).

        Returns:
            ``(where, whole)``: ``whole`` is False when the match is part of
            one seen before (every game of it was seen there). A match with no
            move is never a copy.
        """
        if not key.games:
            return None
        seen = self.matches.get(key.digest)
        if seen is not None:
            return seen, True
        if all(game in self.games for game in key.games):
            return self.games[key.games[0]], False
        self.matches[key.digest] = where
        for game in key.games:
            self.games.setdefault(game, where)
        return None
