"""Error types: every failure a user can cause is a :class:`TablaError`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Location:
    """Where in an input something was found (1-based line and column)."""

    path: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if not self.line:
            return self.path
        return f"{self.path}:{self.line}:{self.column or 1}"


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


class UnsupportedFormatError(TablaError, ValueError):
    """A file format that cannot be read or written."""


class UnknownScoringError(TablaError, ValueError):
    """A scoring rule set name that no rule set answers to."""
