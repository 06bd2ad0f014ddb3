"""Rich Text Format (RTF) to plain text: enough of RTF for the comments eXtreme Gammon saves.

XG keeps each comment as a small RTF document (``temp.xgc``). :func:`plain_text`
keeps its text and its line breaks and drops the rest: font and colour tables,
the generator's name, any ``{\\*...}`` destination, pictures and formatting.
Characters written ``\\'hh`` are read in the document's code page
(``\\ansicpgN``, Windows-1252 unless it says otherwise), ``\\uN`` as the
Unicode character N (skipping the ``\\ucN`` fallback characters after it).

>>> plain_text(r"{\\rtf1\\ansi{\\fonttbl{\\f0 Arial;}}\\pard\\fs20 coup \\'e0 jouer\\par}")
'coup à jouer'
"""

from __future__ import annotations

import codecs
import re

__all__ = ["plain_text"]

_TOKEN = re.compile(rb"\\([a-zA-Z]+)(-?\d+)? ?|\\'([0-9a-fA-F]{2})|\\(.)|([{}])|([^\\{}\r\n]+)|[\r\n]+", re.DOTALL)
_SKIPPED = frozenset(
    (b"fonttbl", b"colortbl", b"stylesheet", b"info", b"pict", b"generator", b"listtable", b"themedata", b"xmlnstbl")
)
_BREAKS = {b"par": "\n", b"line": "\n", b"tab": "\t", b"emdash": "\u2014", b"endash": "\u2013", b"bullet": "\u2022"}
_SYMBOLS = {b"~": "\u00a0", b"-": "", b"_": "\u2011", b"\\": "\\", b"{": "{", b"}": "}"}


def plain_text(rtf: bytes | str) -> str:
    """The text of the RTF document ``rtf`` (plain text is returned as it is), trimmed; '' when it holds none."""
    data = rtf.encode("latin-1", errors="replace") if isinstance(rtf, str) else rtf
    if not data.lstrip().startswith(b"{\\rtf"):
        return data.decode("cp1252", errors="replace").strip()
    out: list[str] = []
    pending = bytearray()
    codec = "cp1252"
    stack: list[tuple[bool, int]] = []
    skipping = False
    fallback = 1
    to_skip = 0

    def flush() -> None:
        if pending:
            out.append(pending.decode(codec, errors="replace"))
            pending.clear()

    for found in _TOKEN.finditer(data):
        word, number, hexa, symbol, brace, text = found.groups()
        if brace == b"{":
            stack.append((skipping, fallback))
            continue
        if brace == b"}":
            flush()
            skipping, fallback = stack.pop() if stack else (skipping, fallback)
            continue
        if to_skip and (text is not None or hexa is not None):
            if text is not None and len(text) > to_skip:
                text = text[to_skip:]
                to_skip = 0
            else:
                to_skip -= 1 if hexa is not None else len(text or b"")
                continue
        if symbol == b"*":  # an optional destination: skipped to the end of its group
            skipping = True
            continue
        if skipping:
            continue
        if word is not None:
            if word in _SKIPPED:
                skipping = True
            elif word == b"ansicpg" and number is not None:
                flush()
                codec = _codec(int(number), codec)
            elif word == b"uc" and number is not None:
                fallback = max(int(number), 0)
            elif word == b"u" and number is not None:
                flush()
                out.append(chr(int(number) % 65536))
                to_skip = fallback
            elif word in _BREAKS:
                flush()
                out.append(_BREAKS[word])
        elif hexa is not None:
            pending.append(int(hexa, 16))
        elif symbol is not None:
            flush()
            out.append(_SYMBOLS.get(symbol, ""))
        elif text is not None:
            pending.extend(text)
    flush()
    # \uN writes UTF-16 units: a pair of surrogates is one character, a lone one is replaced
    text = "".join(out).encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return "\n".join(line.rstrip() for line in text.split("\n")).strip()


def _codec(page: int, default: str) -> str:
    name = f"cp{page}"
    try:
        codecs.lookup(name)
    except LookupError:
        return default
    return name
