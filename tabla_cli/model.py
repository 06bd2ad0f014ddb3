"""The match model every reader builds and every writer and check reads.

A :class:`Match` is what a transcript *says*, not what the rules make of it:
plays are kept as written (``play_text``) and checked later by
:mod:`tabla_cli.replay`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from tabla_cli.board import Dice, Player, Position
from tabla_cli.errors import Location
from tabla_cli.findings import Finding

if TYPE_CHECKING:
    from tabla_cli.evaluation.recorded import RecordedAnalysis


class ActionKind(str, Enum):
    """What one entry of a game record does."""

    ROLL = "roll"
    """Dice rolled and a play made (``play_text`` may be empty: no move)."""
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    """The taker redoubles at once and keeps the cube (``Beavers => v``)."""
    RACCOON = "raccoon"
    RESIGN = "resign"
    """The player resigns (``Resigns``, or a roll written ``????``)."""
    WIN = "win"
    """``Wins k points``: the player in this column won ``value`` points."""
    LOSS = "loss"
    """``Losses k point`` (Backgammon Galaxy): the player gives the game up (a forfeit) when
    it is not over yet; after a bear-off or a drop it only repeats the result."""
    SETUP = "setup"
    """The board or the cube set by hand inside a game (SGF's set-up nodes): :attr:`Action.setup`."""


@dataclass(frozen=True, slots=True)
class SetUp:
    """What a set-up inside a game sets; the next decision starts from it.

    Attributes:
        position: every checker, player 0 as ``mover`` (None: the board is not set).
        cube: the cube's value (None: not set).
        owner: who owns the cube, when ``owner_set`` (None: centred).
        owner_set: the set-up says who owns the cube.
    """

    position: Position | None = None
    cube: int | None = None
    owner: Player | None = None
    owner_set: bool = False


@dataclass(frozen=True, slots=True)
class Action:
    """One entry of a game record, with where it was written.

    Attributes:
        kind: what the action is.
        player: who acts (0 = left column / first name of the score line).
        location: file, line and column of the action's text.
        move_number: the printed move number of its line (None if none).
        dice: the roll, as written (first die first), for ROLL.
        play_text: the play as written after ``dd:`` ('' = no move).
        value: the cube value offered for DOUBLE/BEAVER/RACCOON (None: the
            transcript writes none, the replay's cube decides it), the points
            for WIN/LOSS, the resignation level (1, 2, 3) for RESIGN when known.
        match_won: WIN written with "and the match".
        resigned: a ROLL written ``????``: the roller resigned without moving.
        analysis: the analysis the file records for this action (analysed
            gnubg text exports and SGF), None when it records none.
        comment: a comment the file keeps on this decision (XG's comments,
            SGF ``C[]``, tabla JSON), as plain text; None when none.
        flagged: a user marked this decision to study it (XG's flag).
        setup: what a SETUP action sets (``player`` is then player 0: nobody acts).
    """

    kind: ActionKind
    player: Player
    location: Location
    move_number: int | None = None
    dice: Dice | None = None
    play_text: str | None = None
    value: int | None = None
    match_won: bool = False
    resigned: bool = False
    analysis: RecordedAnalysis | None = field(default=None, compare=False)
    comment: str | None = field(default=None, compare=False)
    flagged: bool = field(default=False, compare=False)
    setup: SetUp | None = None


@dataclass(slots=True)
class Game:
    """One game of a match.

    Attributes:
        number: the game number as written (``Game N``).
        score: the score line, ``(player 0, player 1)``, before this game.
        actions: the record in order.
        location: where the game starts (the ``Game N`` line).
        start: a starting position other than the variant's (``Set Pos``),
            with player 0 as ``mover``; None = the variant's start.
        start_cube: ``(value, owner)`` for a set-up start; owner None = centred.
        variant: the variant of this game when a match mixes variants.
        crawford: whether this is the Crawford game, when the transcript says
            so (XG, BGF, position exports, tabla JSON; SGF where the games
            before this one are not in the file); None = the replay infers
            it from the score.
        cut: a syntax error cut the record short (reported by the reader):
            the actions after it are not read, and the replay resynchronises
            on the next game's score line.
        trailing_roll: a roll written without moves after the record's last
            move and not followed by a resignation (SGF): GNU Backgammon
            saves the roll pending when the file was written so, and a last
            dance looks the same. Not in ``actions``: the replay counts it
            as a dance when the game is not over and no play was possible,
            and otherwise leaves it out.
        score_unordered: the score line's two numbers may be written in
            either order (FIBS at times writes them swapped): the replay takes
            them swapped where that is the score the games before make.
    """

    number: int
    score: tuple[int, int]
    actions: list[Action] = field(default_factory=list)
    location: Location = Location("")
    start: Position | None = None
    start_cube: tuple[int, Player | None] | None = None
    variant: str | None = None
    crawford: bool | None = None
    cut: bool = False
    trailing_roll: Action | None = None
    score_unordered: bool = False


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Cube and match rules, apart from the checker rules of the variant.

    Attributes:
        crawford: the Crawford rule is in force (match play).
        jacoby: gammons count only on a turned cube (money play).
        beaver: beavers and raccoons are allowed (money play); each reader
            says what its format's silence means (a money ``.mat`` without a
            ``Beaver`` header allows them).
        cube_limit: the highest cube value.
        cube: a doubling cube is used at all.
        scoring: the scoring rule set (:mod:`tabla_cli.scoring`) as the
            transcript names it (``standard``: 1, 2, 3; ``1-2-4-8``; any alias
            or case): the replay resolves the name, and scores a name it does
            not know as standard, with an ``unknown-scoring`` warning.
        jacoby_said: the transcript says whether the Jacoby rule is on (a
            ``Jacoby`` header); where it does not, a money game's gammon on
            a centred cube may also be scored as the cube alone.
        cube_said: the transcript says a doubling cube is in play (a ``Cube``
            header saying on, or a ``CubeLimit`` header); a variant
            traditionally played without one is then no surprise.
        galaxy: the match was played on Backgammon Galaxy (its ``Site``
            header says so), which writes a one-game session as a 16-point
            match of one game.

    Readers set each of these when they read a match; the replay reads no header.
    """

    crawford: bool = True
    jacoby: bool = False
    beaver: bool = False
    cube_limit: int = 4096
    cube: bool = True
    scoring: str = "standard"
    jacoby_said: bool = False
    cube_said: bool = False
    galaxy: bool = False

    def beavers(self, length: int) -> bool:
        """Whether beavers and raccoons are allowed in a match of ``length`` points (0: money play)."""
        return not length and self.beaver


@dataclass(slots=True)
class Match:
    """A match or money session as a transcript records it.

    Attributes:
        players: names of player 0 and player 1 (as on the score lines).
        length: match length in points; 0 = money session.
        games: the games in order (empty for a match read game by game,
            see ``game_stream``).
        headers: every ``[Key "value"]`` header in file order, keys as written.
        comments: other comment lines before the match, without the ``;``.
        ratings: ratings written after names (``Name,1780``), if any.
        rules: cube and match rules (from headers, else defaults).
        variant: the variant name from the ``Variation`` header ('' = standard).
        path: where it was read from.
        format: the format it was read from ('mat', 'sgf', ...).
        location: where the match starts in the file.
        findings: what the reader noticed while reading a readable but odd
            transcript (a player with no name, two lines glued together);
            the replay reports them as soon as they are made.
        game_stream: for a match read game by game (``.mat`` read with
            ``lazy=True``): its games, read as they are asked for; ``games``
            is then empty. None: the games are all in ``games``.
        marks_hits: the program that wrote the match marks every hit of a
            move that spans several dice (GNU Backgammon, eXtreme Gammon):
            such a move written without ``*`` hits nothing on the way. Not
            part of what the match is: two copies from different writers
            are equal.
    """

    players: tuple[str, str]
    length: int
    games: list[Game] = field(default_factory=list)
    headers: list[tuple[str, str]] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    ratings: tuple[str | None, str | None] = (None, None)
    rules: RuleSet = RuleSet()
    variant: str = ""
    path: str = ""
    format: str = ""
    location: Location = Location("")
    findings: list[Finding] = field(default_factory=list)
    game_stream: Iterator[Game] | None = field(default=None, repr=False, compare=False)
    marks_hits: bool = field(default=False, compare=False)

    def iter_games(self) -> Iterator[Game]:
        """The games in order: ``games``, or, for a match read game by game, each game as it is read (once)."""
        return iter(self.games) if self.game_stream is None else self.game_stream

    def header(self, key: str, default: str | None = None) -> str | None:
        """The value of header ``key``, matched case-insensitively."""
        want = key.casefold()
        for k, v in self.headers:
            if k.casefold() == want:
                return v
        return default
