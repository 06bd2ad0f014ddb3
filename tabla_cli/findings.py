"""Findings: what a check says about a transcript, with stable codes.

>>> Finding(Code.ILLEGAL_PLAY, "is not legal", Location("a.mat", 3)).render()
'a.mat:3:1: error[illegal-play]: is not legal'
>>> Finding("ilegal-play", "is not legal", Location("a.mat"))
Traceback (most recent call last):
ValueError: 'ilegal-play' is not a valid Code
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Any

from tabla_cli.errors import Location


class Severity(str, Enum):
    """How bad a finding is. Errors make ``tabla check`` exit 1."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


class Code(StrEnum):
    """The stable finding codes; a member compares equal to its text (``Code.ILLEGAL_PLAY == "illegal-play"``)."""

    UNREADABLE_FILE = "unreadable-file"
    FILE_TOO_LARGE = "file-too-large"
    INTERNAL_ERROR = "internal-error"
    UNWRITABLE = "unwritable"
    SPECIAL_FILE = "special-file"
    GUESSED_ENCODING = "guessed-encoding"
    SYNTAX_ERROR = "syntax-error"
    INVALID_PLAY = "invalid-play"
    INVALID_DICE = "invalid-dice"
    ILLEGAL_PLAY = "illegal-play"
    OPENING_DOUBLE = "opening-double"
    WRONG_TURN = "wrong-turn"
    ILLEGAL_DOUBLE = "illegal-double"
    CRAWFORD_DOUBLE = "crawford-double"
    CUBE_VALUE = "cube-value"
    UNEXPECTED_ANSWER = "unexpected-answer"
    UNANSWERED_DOUBLE = "unanswered-double"
    ILLEGAL_BEAVER = "illegal-beaver"
    ACTION_AFTER_END = "action-after-end"
    POSITION_SET = "position-set"
    WRONG_WINNER = "wrong-winner"
    RESULT_MISMATCH = "result-mismatch"
    MISSING_RESULT = "missing-result"
    SCORE_MISMATCH = "score-mismatch"
    GAME_AFTER_MATCH = "game-after-match"
    PINNED_CHECKER = "pinned-checker"
    BLOCKED_BY_SINGLE = "blocked-by-single"
    FIRST_CHECKER_MUST_PASS = "first-checker-must-pass"
    HEAD_RULE = "head-rule"
    SIX_PRIME_FORBIDDEN = "six-prime-forbidden"
    DOUBLES_PROGRESSION = "doubles-progression"
    MISSING_HIT_MARKER = "missing-hit-marker"
    EXTRA_HIT_MARKER = "extra-hit-marker"
    AMBIGUOUS_PLAY = "ambiguous-play"
    MOVE_NUMBER = "move-number"
    GAME_NUMBER = "game-number"
    GLUED_LINE = "glued-line"
    UNTRADITIONAL_CUBE = "untraditional-cube"
    UNKNOWN_SCORING = "unknown-scoring"
    CAPPED_WIN = "capped-win"
    FORFEIT = "forfeit"
    FORFEIT_SIDE = "forfeit-side"
    MATCH_INCOMPLETE = "match-incomplete"
    UNCHECKED = "unchecked"
    UNNAMED_PLAYER = "unnamed-player"
    DUPLICATE_MATCH = "duplicate-match"
    POSITION_MISMATCH = "position-mismatch"
    DAMAGED_CONTAINER = "damaged-container"
    BAD_SIGNATURE = "bad-signature"
    UNSIGNED_MATCH = "unsigned-match"


READ_FAILURES: tuple[str, ...] = tuple(
    code.value for code in (Code.UNREADABLE_FILE, Code.SYNTAX_ERROR, Code.FILE_TOO_LARGE, Code.INTERNAL_ERROR)
)
"""The finding codes of a file that could not be read (or only in part)."""


E, W, N = Severity.ERROR, Severity.WARNING, Severity.NOTE

_MEANINGS: dict[Code, tuple[Severity, str]] = {
    Code.UNREADABLE_FILE: (E, "the file cannot be read, or its format is not recognised"),
    Code.FILE_TOO_LARGE: (E, "a file larger than the size limit (`--max-size`): not read"),
    Code.INTERNAL_ERROR: (E, "tabla failed on this file (a bug; the message names the exception): please report it"),
    Code.UNWRITABLE: (E, "the output format has no place for what the file records (a position set inside a game)"),
    Code.SPECIAL_FILE: (N, "a named pipe, device or socket found in a directory: skipped, never opened"),
    Code.GUESSED_ENCODING: (
        N,
        "a file neither UTF-8 nor UTF-16: read in the legacy code page named, a guess (`--encoding` sets it)",
    ),
    Code.SYNTAX_ERROR: (E, "the text does not follow the transcript format"),
    Code.INVALID_PLAY: (E, "a play that cannot be read as checker moves"),
    Code.INVALID_DICE: (E, "dice that are not two values from 1 to 6"),
    Code.ILLEGAL_PLAY: (E, "a play that is not legal for the dice in the position"),
    Code.OPENING_DOUBLE: (E, "the first roll of a game is a double (ties are thrown again)"),
    Code.WRONG_TURN: (E, "a side acts out of turn (the sides must alternate)"),
    Code.ILLEGAL_DOUBLE: (E, "a double by a side that may not double now (cube owned by the other side, not its turn)"),
    Code.CRAWFORD_DOUBLE: (E, "a double in the Crawford game"),
    Code.CUBE_VALUE: (E, "a cube value that is not twice the current one, or above the cube limit"),
    Code.UNEXPECTED_ANSWER: (E, "a take, drop or beaver with no double to answer"),
    Code.UNANSWERED_DOUBLE: (E, "a double that is never taken or dropped"),
    Code.ILLEGAL_BEAVER: (E, "a beaver or raccoon where the rules allow none (match play, beavers off)"),
    Code.ACTION_AFTER_END: (E, "an action recorded after the game ended"),
    Code.WRONG_WINNER: (E, "the side credited with the game is not the one the replay says won"),
    Code.RESULT_MISMATCH: (E, "points won that the final position, cube and resignation cannot give"),
    Code.MISSING_RESULT: (E, "a game that ends without saying who won"),
    Code.SCORE_MISMATCH: (E, "a score line that differs from the running score"),
    Code.GAME_AFTER_MATCH: (E, "a game played after a side already won the match"),
    Code.PINNED_CHECKER: (
        E,
        "tapa/plakoto: a pinned checker moved, a checker landed on a pin of the opponent's, "
        "or a bear-off while a checker is pinned",
    ),
    Code.BLOCKED_BY_SINGLE: (E, "fevga/gulbara/nardy: a checker landed on a single opposing checker (no hitting)"),
    Code.FIRST_CHECKER_MUST_PASS: (
        E,
        "fevga: a second checker left the start before the first reached the opponent's side",
    ),
    Code.HEAD_RULE: (E, "long nardy: more checkers left the head in one turn than allowed"),
    Code.SIX_PRIME_FORBIDDEN: (E, "a six-point block or prime the variant forbids, or a trapping prime left closed"),
    Code.DOUBLES_PROGRESSION: (E, "gulbara: a double (or owed dice) not played as far as the progression allows"),
    Code.MISSING_HIT_MARKER: (W, "a hit not marked with '*' in a transcript that marks hits"),
    Code.EXTRA_HIT_MARKER: (W, "a '*' where no checker is hit"),
    Code.AMBIGUOUS_PLAY: (
        W,
        "a move over several dice that could mean several positions, in a transcript that marks no hits (gnubg's and XG's files mark them all); the reading that hits nothing is chosen",
    ),
    Code.MOVE_NUMBER: (W, "a move number out of sequence"),
    Code.GAME_NUMBER: (W, "a game number out of sequence"),
    Code.GLUED_LINE: (
        W,
        "a move line holding a second move number, as if two lines were glued together; both parts are read",
    ),
    Code.UNTRADITIONAL_CUBE: (
        W,
        "a double in Tapa/Plakoto, Gulbara/Fevga or Long tabla/Long Nardy, played "
        "without a cube, where no Cube or CubeLimit header says one is in play",
    ),
    Code.UNKNOWN_SCORING: (W, "a Scoring header that names no scoring rule set (the match is scored as standard)"),
    Code.CAPPED_WIN: (
        N,
        "a final win written as a value from the points needed up to the match length, below the game's full value",
    ),
    Code.FORFEIT: (N, "a side gave a game up before it was over ('Losses N point'): no level is inferred"),
    Code.FORFEIT_SIDE: (
        N,
        "a forfeit whose 'Losses' and 'Wins' lines name the same side (Backgammon Galaxy's "
        "lines of their own or glued into a move line): the winner read from the score",
    ),
    Code.MATCH_INCOMPLETE: (N, "the transcript stops before a side reaches the match length"),
    Code.POSITION_SET: (
        N,
        "the board or the cube set by hand inside a game (an SGF set-up node): play goes on from it",
    ),
    Code.UNCHECKED: (N, "the rest of a game is not checked: a recorded play could not be applied"),
    Code.UNNAMED_PLAYER: (
        N,
        "a player with no name (a deleted account): read, and kept apart from every other player in reports",
    ),
    Code.DUPLICATE_MATCH: (
        N,
        "the same match (players, length, dice and plays) as one read before; reports count it once",
    ),
    Code.POSITION_MISMATCH: (
        E,
        "a binary file (eXtreme Gammon) records a position before a decision that is not the "
        "one the file's previous play left, and does not mark it edited",
    ),
    Code.DAMAGED_CONTAINER: (
        W,
        "a binary file (eXtreme Gammon) whose archive trailer or directory is missing or damaged: "
        "the records found in its data are read",
    ),
    Code.BAD_SIGNATURE: (
        E,
        "`check --verify`: an OGXM signature that does not verify over the match as it is, "
        "or one by a key not given with `--trusted-key`",
    ),
    Code.UNSIGNED_MATCH: (N, "`check --verify`: an OGXM match that carries no signature"),
}

CODES: dict[str, tuple[Severity, str]] = {code.value: entry for code, entry in _MEANINGS.items()}
"""Every finding code (plain text, as in JSON output) -> (severity, meaning)."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing a check found, located as precisely as the input allows.

    ``code`` may be given as a :class:`Code` or its text; it is stored as
    plain text, and an unknown code fails here, where the finding is made.
    """

    code: str
    message: str
    location: Location
    game: int | None = None
    move: int | None = None
    player: str | None = None
    dice: tuple[int, int] | None = None
    play: str | None = None
    position_id: str | None = None
    match_id: str | None = None
    legal: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", Code(self.code).value)

    @classmethod
    def at(cls, code: Code | str, message: str, location: Location) -> Finding:
        """A finding at ``location``; a game and move there (a binary file's place) become the finding's own.

        >>> Finding.at(Code.SYNTAX_ERROR, "bad record", Location("a.xg", game=3, move=12)).render()
        'a.xg: error[syntax-error]: game 3 move 12: bad record'
        """
        if not location.game:
            return cls(code, message, location)
        return cls(
            code,
            message,
            Location(location.path, location.line, location.column),
            game=location.game,
            move=location.move or None,
        )

    @property
    def severity(self) -> Severity:
        return CODES[self.code][0]

    def render(self) -> str:
        """The finding as a compiler-style line."""
        where = []
        if self.game is not None:
            where.append(f"game {self.game}")
        if self.move is not None:
            where.append(f"move {self.move}")
        head = " ".join(where)
        if self.player:
            head = f"{head}, {self.player}" if head else self.player
            if self.dice:
                head += f" rolls {self.dice[0]}-{self.dice[1]}"
        text = f"{head}: {self.message}" if head else self.message
        if self.legal:
            text += "; legal: " + ", ".join(self.legal)
        loc = self.location
        if loc.game and self.game is not None:  # a binary file's place: said once, in the text
            loc = Location(loc.path, loc.line, loc.column)
        return f"{loc}: {self.severity.value}[{self.code}]: {text}"

    def to_dict(self) -> dict[str, Any]:
        """The finding as plain data (for JSON)."""
        loc = self.location
        return {
            "path": loc.path,
            "line": loc.line or None,
            "column": loc.column or None,
            "game": self.game,
            "move": self.move,
            "player": self.player,
            "severity": self.severity.value,
            "code": self.code,
            "message": self.message,
            "dice": f"{self.dice[0]}{self.dice[1]}" if self.dice else None,
            "play": self.play,
            "position_id": self.position_id,
            "match_id": self.match_id,
            "legal": list(self.legal),
        }
