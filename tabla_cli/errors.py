"""Error types: every failure a user can cause is a :class:`TablaError`."""

from __future__ import annotations

from typing import NamedTuple


class Location(NamedTuple):
    """Where in an input something was found: 1-based line and column in a text file; in a binary
    file (no lines), the 1-based game and move number, 0 where unknown.

    A named tuple rather than a frozen dataclass: a reader makes one for every action it reads,
    and a frozen dataclass sets each field through ``object.__setattr__``, slower to make.

    >>> str(Location("a.mat", 3, 5)), str(Location("a.xg", game=3, move=12)), str(Location("a.xg", game=2))
    ('a.mat:3:5', 'a.xg: game 3 move 12', 'a.xg: game 2')
    """

    path: str
    line: int = 0
    column: int = 0
    game: int = 0
    move: int = 0

    def __str__(self) -> str:
        if self.line:
            return f"{self.path}:{self.line}:{self.column or 1}"
        if self.game:
            return f"{self.path}: game {self.game}" + (f" move {self.move}" if self.move else "")
        return self.path


class TablaError(Exception):
    """Base class of all errors raised by tabla_cli."""


class InputError(TablaError, ValueError):
    """Bad input: a file, an ID, dice or a play that cannot be understood."""

    def __init__(self, message: str, location: Location | None = None, context: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.location = location
        self.context = context

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location else ""
        return f"{where}{self.message}"


class InvalidIdError(InputError):
    """A Position ID, Match ID or XGID that cannot be decoded or is not legal."""


class InvalidDiceError(InputError):
    """Dice that are not two values from 1 to 6."""


class TranscriptSyntaxError(InputError):
    """A transcript that does not follow its format's syntax."""


class InvalidPlayError(InputError):
    """A play written in a notation that cannot be read."""


class RuleError(InputError):
    """Something the rules do not allow."""


class UnknownVariantError(TablaError, ValueError):
    """A variant name that no variant answers to."""


class InflatesTooLargeError(InputError):
    """A compressed part of a binary file that would inflate past the size limit (``--max-size``):
    refused before it is held in memory (a decompression bomb)."""


class UnsupportedFormatError(TablaError, ValueError):
    """A file format that cannot be read or written."""


class UnknownScoringError(TablaError, ValueError):
    """A scoring rule set name that no rule set answers to."""
