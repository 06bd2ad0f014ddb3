"""Turning Lark's parse errors into :class:`TranscriptSyntaxError` (shared by readers).

Lark's exceptions never leave a reader: each grammar keeps labelled malformed
examples (``ERROR_EXAMPLES``) and a message per label, and
:func:`syntax_error` picks the label with
:meth:`lark.exceptions.UnexpectedInput.match_examples`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, TextIO

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from tabla_cli.errors import InputError, Location, TranscriptSyntaxError

if TYPE_CHECKING:
    from tabla_cli.model import Match

ErrorHandler = Callable[[TranscriptSyntaxError], None]
"""Called with a syntax error inside a game; the reader goes on with the next game."""

TextReader = Callable[..., Iterator["Match"]]
"""A reader's ``parse_matches(text, *, path=..., on_error=...)``."""


def read_handle(handle: TextIO, path: str) -> str:
    """All the text of ``handle``.

    Raises:
        InputError: the stream cannot be decoded.
    """
    try:
        return handle.read()
    except UnicodeDecodeError as exc:
        raise InputError(f"cannot decode the input: {exc}", Location(path)) from exc


def read_stream(parse_matches: TextReader, handle: TextIO, path: str, on_error: ErrorHandler | None) -> Iterator[Match]:
    """The matches ``parse_matches`` finds in all the text of ``handle``, read when the first is asked for.

    Raises:
        InputError: the stream cannot be decoded.
    """
    yield from parse_matches(read_handle(handle, path), path=path, on_error=on_error)


def normalise_newlines(text: str) -> str:
    """``text`` without a BOM, with LF line ends and a final newline."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.endswith("\n"):
        text += "\n"
    return text


def line_of(text: str, line: int) -> str:
    """Line ``line`` (1-based) of ``text`` without its newline ('' if out of range)."""
    if line < 1:
        return ""
    start = 0
    for _ in range(line - 1):
        start = text.find("\n", start) + 1
        if start == 0:
            return ""
    end = text.find("\n", start)
    return text[start:] if end < 0 else text[start:end]


def offset_location(path: str, text: str, offset: int) -> Location:
    """The 1-based line and column of character ``offset`` of ``text``."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return Location(path, line, column)


def syntax_error(
    exc: UnexpectedInput,
    text: str,
    path: str,
    parser: Lark,
    examples: Mapping[str, Sequence[str]],
    messages: Mapping[str, str],
    terminals: Mapping[str, str],
) -> TranscriptSyntaxError:
    """A Lark parse error as a :class:`TranscriptSyntaxError` with line, column and hint.

    Args:
        exc: the error Lark raised.
        text: the text that was parsed.
        path: the file name for the location.
        parser: the parser, to match ``examples`` against.
        examples: labelled malformed inputs.
        messages: the message for each label.
        terminals: a description of each terminal, for "expected ..." lists.
    """
    line, column = getattr(exc, "line", None), getattr(exc, "column", None)
    found = ""
    if isinstance(exc, UnexpectedToken):
        if exc.token.type == "$END":
            line, column = None, None
            found = "the end of the input"
        else:
            found = repr(str(exc.token).strip()[:40])
    elif isinstance(exc, UnexpectedCharacters):
        start = exc.pos_in_stream or 0
        found = repr(text[start : start + 20].split("\n")[0] or "\n")
    if not isinstance(line, int) or line < 1:
        stripped = text.rstrip()
        where = offset_location(path, text, len(stripped))
        line, column = where.line, where.column
    if not isinstance(column, int) or column < 1:
        column = 1
    label: str | None = None
    try:
        label = exc.match_examples(parser.parse, examples, use_accepts=True)
    except (LarkError, AssertionError):  # pragma: no cover - defensive: examples are tested
        label = None
    message = messages.get(label or "")
    if message is None:
        expected: set[str] = set()
        if isinstance(exc, UnexpectedToken):
            expected = set(exc.expected)
        elif isinstance(exc, UnexpectedCharacters):
            expected = set(exc.allowed or ())
        names = sorted(terminals.get(name, name) for name in expected)
        message = "unexpected " + (found or "text")
        if names:
            message += "; expected " + " or ".join(names)
    elif found:
        message = f"{message}, found {found}"
    return TranscriptSyntaxError(message, Location(path, line, column), line_of(text, line).rstrip())


def parse_tree(
    parser: Lark, text: str, path: str, what: str, on_syntax: Callable[[UnexpectedInput], Exception]
) -> Tree[Token]:
    """Parse ``text``: a syntax error raises ``on_syntax(error)``, any other Lark failure names ``what``.

    Raises:
        TranscriptSyntaxError: (or what ``on_syntax`` gives) the text does not parse.
    """
    try:
        return parser.parse(text)
    except UnexpectedInput as exc:
        raise on_syntax(exc) from None
    except LarkError as exc:  # pragma: no cover - lark raises UnexpectedInput
        raise TranscriptSyntaxError(f"cannot read {what}: {exc}", Location(path)) from None
