"""Findings: what a check says about a transcript, with stable codes."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from tabla_cli.board import Dice
from tabla_cli.errors import Location


class Severity(str, Enum):
    """How bad a finding is. Errors make ``tabla check`` exit 1."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


E, W, N = Severity.ERROR, Severity.WARNING, Severity.NOTE

CODES: dict[str, tuple[Severity, str]] = {
    "unreadable-file": (E, "the file cannot be read, or its format is not recognised"),
    "syntax-error": (E, "the text does not follow the transcript format"),
    "invalid-play": (E, "a play that cannot be read as checker moves"),
    "invalid-dice": (E, "dice that are not two values from 1 to 6"),
    "illegal-play": (E, "a play that is not legal for the dice in the position"),
    "opening-double": (E, "the first roll of a game is a double (ties are thrown again)"),
    "wrong-turn": (E, "a side acts out of turn (the sides must alternate)"),
    "illegal-double": (E, "a double by a side that may not double now (cube owned by the other side, not its turn)"),
    "crawford-double": (E, "a double in the Crawford game"),
    "cube-value": (E, "a cube value that is not twice the current one, or above the cube limit"),
    "unexpected-answer": (E, "a take, drop or beaver with no double to answer"),
    "unanswered-double": (E, "a double that is never taken or dropped"),
    "illegal-beaver": (E, "a beaver or raccoon where the rules allow none (match play, beavers off)"),
    "action-after-end": (E, "an action recorded after the game ended"),
    "wrong-winner": (E, "the side credited with the game is not the one the replay says won"),
    "result-mismatch": (E, "points won that the final position, cube and resignation cannot give"),
    "missing-result": (E, "a game that ends without saying who won"),
    "score-mismatch": (E, "a score line that differs from the running score"),
    "game-after-match": (E, "a game played after a side already won the match"),
    "pinned-checker": (E, "tapa/plakoto: a pinned checker moved, a checker landed on a pin of the opponent's, "
                          "or a bear-off while a checker is pinned"),
    "blocked-by-single": (E, "fevga/gulbara/nardy: a checker landed on a single opposing checker (no hitting)"),
    "first-checker-must-pass": (E, "fevga: a second checker left the start before the first reached the "
                                   "opponent's side"),
    "head-rule": (E, "long nardy: more checkers left the head in one turn than allowed"),
    "six-prime-forbidden": (E, "a six-point block or prime the variant forbids, or a trapping prime left closed"),
    "doubles-progression": (E, "gulbara: a double (or owed dice) not played as far as the progression allows"),
    "missing-hit-marker": (W, "a hit not marked with '*' in a transcript that marks hits"),
    "extra-hit-marker": (W, "a '*' where no checker is hit"),
    "ambiguous-play": (W, "a play written so that it could mean several positions"),
    "move-number": (W, "a move number out of sequence"),
    "game-number": (W, "a game number out of sequence"),
    "capped-win": (N, "a final win written as the points needed for the match, not the full value"),
    "match-incomplete": (N, "the transcript stops before a side reaches the match length"),
    "unchecked": (N, "the rest of a game is not checked: a recorded play could not be applied"),
}


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing a check found, located as precisely as the input allows."""

    code: str
    message: str
    location: Location
    game: int | None = None
    move: int | None = None
    player: str | None = None
    dice: Dice | None = None
    play: str | None = None
    position_id: str | None = None
    match_id: str | None = None
    legal: tuple[str, ...] = field(default=())

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
        return f"{self.location}: {self.severity.value}[{self.code}]: {text}"

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
