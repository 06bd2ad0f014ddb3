"""A decoder of Smile, the binary JSON of the Jackson project, for the BGBlitz reader.

Written from the published Smile format specification (version 1.0): a
four-byte header (``:)`` + newline + a version/flags byte), then tokens for
one JSON value. Property names and short string values may be back
references into tables of the names and strings seen so far (1,024 entries
each, cleared when full). :func:`decode` returns the value as Python data
(``dict``, ``list``, ``str``, ``int``, ``float``, ``bool``, ``None``; binary
values as ``bytes``).

Input is untrusted: every length is checked against the bytes left, nesting
is bounded (``max_depth``), so is the number of values the document becomes
(``max_values``: a few bytes of Smile make a value, and a compressed body
can hold millions of them), and any malformed input raises
:class:`SmileError` with the byte offset where decoding stopped, never
another exception (:class:`SmileLimitError` for a document past a limit).

Example:
    >>> decode(b':)\\n\\x03\\xfa\\x80a\\xc2\\x80b\\xf8\\x21\\x23\\xf9\\xfb')
    {'a': 1, 'b': [None, True]}
"""

from __future__ import annotations

import struct
from decimal import Decimal
from typing import Any

__all__ = ["HEADER", "SmileError", "SmileLimitError", "decode"]

HEADER = b":)\n"
"""The first three bytes of every Smile document."""

MAX_DEPTH = 64
"""How deeply arrays and objects may nest before the document is refused."""

_TABLE_SIZE = 1024
_SHAREABLE = 64
_NAMES_SHARED = 0x01
_VALUES_SHARED = 0x02
_END_STRING = 0xFC
_START_ARRAY, _END_ARRAY, _START_OBJECT, _END_OBJECT = 0xF8, 0xF9, 0xFA, 0xFB
_END_CONTENT = 0xFF
_MAX_BIG_BYTES = 1024
_MAX_SCALE = 10_000


class SmileError(ValueError):
    """Bytes that are not a well-formed Smile document.

    Attributes:
        offset: the byte offset (from the header's first byte) where decoding stopped.
        reason: what was wrong there.
    """

    def __init__(self, offset: int, reason: str) -> None:
        super().__init__(f"byte {offset}: {reason}")
        self.offset = offset
        self.reason = reason


class SmileLimitError(SmileError):
    """A well-formed document so far that holds more values than the decoder's ``max_values``."""


class _Table:
    """A back-reference table: entries in order of first sight, cleared when full."""

    __slots__ = ("enabled", "entries")

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.entries: list[str] = []

    def add(self, text: str) -> None:
        if not self.enabled:
            return
        if len(self.entries) >= _TABLE_SIZE:
            self.entries.clear()
        self.entries.append(text)


class _Decoder:
    """The state of one decoding: the bytes, the position and the two back-reference tables."""

    def __init__(self, data: bytes, max_depth: int, max_values: int | None) -> None:
        self.data = data
        self.pos = 0
        self.max_depth = max_depth
        self.max_values = max_values
        self.left = len(data) if max_values is None else max_values
        flags = self._header()
        self.names = _Table(bool(flags & _NAMES_SHARED))
        self.values = _Table(bool(flags & _VALUES_SHARED))

    def fail(self, reason: str, at: int | None = None) -> SmileError:
        return SmileError(self.pos if at is None else at, reason)

    def _header(self) -> int:
        if not self.data.startswith(HEADER) or len(self.data) < 4:
            raise self.fail("not a Smile document (no ':)' header)")
        flags = self.data[3]
        if flags >> 4:
            raise self.fail(f"Smile version {flags >> 4} is not supported", 3)
        self.pos = 4
        return flags

    def byte(self) -> int:
        if self.pos >= len(self.data):
            raise self.fail("the document ends early")
        value = self.data[self.pos]
        self.pos += 1
        return value

    def take(self, count: int) -> bytes:
        if count > len(self.data) - self.pos:
            raise self.fail(f"a length of {count} bytes runs past the end of the document")
        chunk = self.data[self.pos : self.pos + count]
        self.pos += count
        return chunk

    def text(self, raw: bytes, at: int) -> str:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise self.fail("a string is not valid UTF-8", at) from None

    def vint(self, max_bytes: int = 10) -> int:
        """An unsigned variable-length integer: 7 bits a byte, the last byte flagged and holding 6."""
        start = self.pos
        value = 0
        for _ in range(max_bytes):
            b = self.byte()
            if b & 0x80:
                if b & 0x40:
                    raise self.fail("a number's last byte is out of range", self.pos - 1)
                return (value << 6) | (b & 0x3F)
            value = (value << 7) | b
        raise self.fail(f"a number runs over {max_bytes} bytes", start)

    def zigzag(self, max_bytes: int) -> int:
        raw = self.vint(max_bytes)
        return (raw >> 1) ^ -(raw & 1)

    def seven_bit(self, length: int) -> bytes:
        """``length`` bytes stored 7 bits a byte, left-aligned (the "safe" binary encoding)."""
        if length > len(self.data) - self.pos:
            raise self.fail(f"a binary length of {length} bytes runs past the end of the document")
        encoded = self.take((length * 8 + 6) // 7)
        bits = 0
        count = 0
        out = bytearray()
        for b in encoded:
            bits = (bits << 7) | (b & 0x7F)
            count += 7
            if count >= 8:
                count -= 8
                out.append((bits >> count) & 0xFF)
                bits &= (1 << count) - 1
        return bytes(out[:length])

    def fixed_bits(self, nbytes: int, width: int) -> int:
        """A fixed-width number stored right-aligned in ``nbytes`` bytes of 7 bits."""
        value = 0
        for b in self.take(nbytes):
            if b & 0x80:
                raise self.fail("a floating-point number has a byte out of range", self.pos - 1)
            value = (value << 7) | b
        return value & ((1 << width) - 1)

    def terminated(self) -> bytes:
        end = self.data.find(bytes([_END_STRING]), self.pos)
        if end < 0:
            raise self.fail("a long string has no end marker")
        chunk = self.data[self.pos : end]
        self.pos = end + 1
        return chunk

    def value(self, depth: int) -> Any:
        at = self.pos
        self.left -= 1
        if self.left < 0:
            raise SmileLimitError(at, f"the document holds more than {self.max_values} values")
        b = self.byte()
        if b < 0x20:
            return self.shared_value(b - 1, at) if b else self._reserved(b, at)
        if b < 0x40:
            return self.literal(b, at)
        if b < 0x80:
            length = (b & 0x1F) + (1 if b < 0x60 else 33)
            return self.short_string(length, at)
        if b < 0xC0:
            length = (b & 0x1F) + (2 if b < 0xA0 else 34)
            return self.short_string(length, at)
        if b < 0xE0:
            small = b & 0x1F
            return (small >> 1) ^ -(small & 1)
        if b in (0xE0, 0xE4):
            return self.text(self.terminated(), at)
        if b == 0xE8:
            return self.seven_bit(self.vint())
        if 0xEC <= b <= 0xEF:
            return self.shared_value(((b & 0x03) << 8) | self.byte(), at)
        if b == 0xFD:
            return self.take(self.vint())
        if b == _START_ARRAY:
            return self.array(depth + 1, at)
        if b == _START_OBJECT:
            return self.obj(depth + 1, at)
        return self._reserved(b, at)

    def _reserved(self, b: int, at: int) -> Any:
        raise self.fail(f"unexpected byte 0x{b:02X} where a value should be", at)

    def literal(self, b: int, at: int) -> Any:
        if b == 0x20:
            return ""
        if b == 0x21:
            return None
        if b in (0x22, 0x23):
            return b == 0x23
        if b == 0x24:
            return self.zigzag(5)
        if b == 0x25:
            return self.zigzag(10)
        if b == 0x26:
            return int.from_bytes(self.seven_bit(self.big_length()), "big", signed=True)
        if b == 0x28:
            return float(struct.unpack(">f", self.fixed_bits(5, 32).to_bytes(4, "big"))[0])
        if b == 0x29:
            return float(struct.unpack(">d", self.fixed_bits(10, 64).to_bytes(8, "big"))[0])
        if b == 0x2A:
            scale = self.zigzag(5)
            if abs(scale) > _MAX_SCALE:
                raise self.fail(f"a big decimal's scale {scale} is beyond {_MAX_SCALE}", at)
            digits = int.from_bytes(self.seven_bit(self.big_length()), "big", signed=True)
            return float(Decimal(digits).scaleb(-scale))
        return self._reserved(b, at)

    def big_length(self) -> int:
        length = self.vint()
        if length > _MAX_BIG_BYTES:
            raise self.fail(f"a big number of {length} bytes is longer than {_MAX_BIG_BYTES}")
        return length

    def short_string(self, length: int, at: int) -> str:
        text = self.text(self.take(length), at)
        if length <= _SHAREABLE:
            self.values.add(text)
        return text

    def shared_value(self, index: int, at: int) -> str:
        if not self.values.enabled or index >= len(self.values.entries):
            raise self.fail(f"a reference to shared string {index}, which is not defined", at)
        return self.values.entries[index]

    def shared_name(self, index: int, at: int) -> str:
        if index >= len(self.names.entries):
            raise self.fail(f"a reference to shared name {index}, which is not defined", at)
        return self.names.entries[index]

    def array(self, depth: int, at: int) -> list[Any]:
        if depth > self.max_depth:
            raise self.fail(f"arrays and objects nest deeper than {self.max_depth}", at)
        items: list[Any] = []
        while True:
            if self.pos < len(self.data) and self.data[self.pos] == _END_ARRAY:
                self.pos += 1
                return items
            items.append(self.value(depth))

    def obj(self, depth: int, at: int) -> dict[str, Any]:
        if depth > self.max_depth:
            raise self.fail(f"arrays and objects nest deeper than {self.max_depth}", at)
        members: dict[str, Any] = {}
        while True:
            key_at = self.pos
            b = self.byte()
            if b == _END_OBJECT:
                return members
            name = self.key(b, key_at)
            members[name] = self.value(depth)

    def key(self, b: int, at: int) -> str:
        if b == 0x20:
            return ""
        if 0x30 <= b <= 0x33:
            return self.shared_name(((b & 0x03) << 8) | self.byte(), at)
        if b == 0x34:
            name = self.text(self.terminated(), at)
            self.names.add(name)
            return name
        if 0x40 <= b <= 0x7F:
            return self.shared_name(b & 0x3F, at)
        if 0x80 <= b <= 0xF7:
            length = (b & 0x3F) + (1 if b < 0xC0 else 2)
            name = self.text(self.take(length), at)
            self.names.add(name)
            return name
        raise self.fail(f"unexpected byte 0x{b:02X} where a property name should be", at)


def decode(data: bytes, *, max_depth: int = MAX_DEPTH, max_values: int | None = None) -> Any:
    """The JSON value of the Smile document ``data`` (header included).

    Only the first value is read; an end-of-content byte (``0xFF``) or
    the end of ``data`` may follow it. ``max_values`` bounds how many values
    (each array, object, member value and item counts one) it may hold.

    Raises:
        SmileLimitError: the document holds more than ``max_values`` values.
        SmileError: ``data`` is not a well-formed Smile document.

    >>> decode(b':)\\n\\x00\\xf8\\xf8\\xf9\\xf8\\xf9\\xf9', max_values=2)
    Traceback (most recent call last):
    ...
    tabla_cli.formats._smile.SmileLimitError: byte 7: the document holds more than 2 values

    >>> decode(b':)\\n\\x00\\xf8\\x24')
    Traceback (most recent call last):
    ...
    tabla_cli.formats._smile.SmileError: byte 6: the document ends early
    """
    decoder = _Decoder(data, max_depth, max_values)
    result = decoder.value(0)
    if decoder.pos < len(data) and data[decoder.pos] != _END_CONTENT:
        raise decoder.fail("bytes follow the end of the document")
    return result
