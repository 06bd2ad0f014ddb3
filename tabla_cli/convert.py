"""``tabla convert`` as a library: read a transcript in any format, replay it, write it in another.

>>> text = '''3 point match
... Game 1
... Ann : 0   Bob : 0
... 1) 31: 6/5 8/5   Doubles => 2
... 2) Drops
...                            Wins 1 point
... '''
>>> done = convert_text(text, "m.mat", "sgf")
>>> done.matches, done.errors, done.output.splitlines()[1:3]
(1, 0, [';W[31fehe]', ';B[double]'])
>>> convert_text(text.replace("6/5 8/5", "6/5 8/4"), "m.mat", "sgf").output is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tabla_cli.findings import Finding, Severity
from tabla_cli.model import Match
from tabla_cli.reader import read_text_matches
from tabla_cli.replay import MatchResult, replay_match
from tabla_cli.scoring import apply_scoring

__all__ = ["FORMATS", "OUTPUT_SUFFIXES", "SUFFIXES", "Conversion", "convert_matches", "convert_text",
           "format_for_path", "format_matches"]

FORMATS: tuple[str, ...] = ("mat", "sgf", "json", "positions", "txt")
"""The output formats (``--to``)."""

SUFFIXES: dict[str, str] = {".mat": "mat", ".sgf": "sgf", ".json": "json", ".csv": "positions"}
"""Output suffixes (lower case) that name a format; ``.txt`` is not one: it may be either
a ``.mat`` transcript or ASCII boards."""

OUTPUT_SUFFIXES: dict[str, str] = {"mat": ".mat", "sgf": ".sgf", "json": ".json", "positions": ".csv", "txt": ".txt"}
"""The suffix of the files ``--out-dir`` writes, per format."""

Pairs = Sequence[tuple[Match, MatchResult | None]]


@dataclass(slots=True)
class Conversion:
    """What converting one input gave.

    Attributes:
        output: the converted text; None when the check refused it.
        matches: matches read.
        games: games read.
        findings: everything the replay found (all severities).
    """

    output: str | None
    matches: int = 0
    games: int = 0
    findings: list[Finding] = field(default_factory=list)

    @property
    def errors(self) -> int:
        """Findings of severity error."""
        return sum(1 for f in self.findings if f.severity is Severity.ERROR)


def format_for_path(path: str | Path) -> str | None:
    """The format an output file's suffix names (None for ``.txt`` and unknown suffixes).

    >>> format_for_path("out/m.SGF"), format_for_path("m.txt"), format_for_path("m.xg")
    ('sgf', None, None)
    """
    return SUFFIXES.get(Path(path).suffix.lower())


def format_matches(to: str, matches: Pairs) -> str:
    """``matches`` (each with its ``replay_match(..., collect=True)``, or None) written as ``to``.

    Raises:
        ValueError: ``to`` is not one of :data:`FORMATS`.
        InvalidPlayError: SGF only: a play that cannot even be read.
    """
    if to == "mat":
        from tabla_cli.writers.mat import format_mats

        return format_mats(matches)
    if to == "sgf":
        from tabla_cli.writers.sgf import format_sgf

        return "".join(format_sgf(m, replayed=r) for m, r in matches)
    if to == "json":
        from tabla_cli.writers.json import format_json

        return format_json(matches)
    if to == "positions":
        from tabla_cli.writers.positions import format_positions

        return format_positions(matches)
    if to == "txt":
        from tabla_cli.writers.text import format_text

        return format_text(matches)
    raise ValueError(f"unknown output format {to!r}; choose from {', '.join(FORMATS)}")


def convert_matches(matches: list[Match], to: str, *, check: bool = True) -> Conversion:
    """Replay ``matches`` and write them as ``to``; with ``check``, not when an error is found."""
    replayed = [replay_match(m, collect=True) for m in matches]
    done = Conversion(None, len(matches), sum(len(m.games) for m in matches),
                      [f for r in replayed for f in r.findings])
    if check and done.errors:
        return done
    done.output = format_matches(to, list(zip(matches, replayed)))
    return done


def convert_text(text: str, path: str, to: str, *, check: bool = True, scoring: str | None = None) -> Conversion:
    """Read every match of ``text`` (any format, detected by content) and convert it to ``to``.

    ``scoring`` names a scoring rule set that wins over the transcripts' headers
    (the ``.mat`` and JSON writers then say it in a header or field).

    Raises:
        TablaError: the text cannot be read (:class:`UnsupportedFormatError`,
            :class:`TranscriptSyntaxError`, ...), or, SGF only, a play cannot
            be written.
    """
    return convert_matches([apply_scoring(m, scoring) for m in read_text_matches(text, path)], to, check=check)
