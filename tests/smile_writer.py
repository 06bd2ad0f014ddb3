"""A Smile encoder for the tests: makes small ``.bgf`` documents and round-trips the decoder.

Written from the Smile format specification, independently of
:mod:`tabla_cli.formats._smile`: it shares property names and short string
values (back references) when asked, so the decoder's tables are exercised.
"""

from __future__ import annotations

import gzip
import json
import struct
from typing import Any

__all__ = ["bgf_file", "encode", "vint"]

_HEADER = b":)\n"


def vint(value: int) -> bytes:
    """An unsigned variable-length integer: 7 bits a byte, the last byte flagged (0x80) and holding 6."""
    last = 0x80 | (value & 0x3F)
    value >>= 6
    out = [last]
    while value:
        out.append(value & 0x7F)
        value >>= 7
    return bytes(reversed(out))


def _zigzag(value: int) -> int:
    return value * 2 if value >= 0 else -value * 2 - 1


def _seven_bit(data: bytes) -> bytes:
    bits = int.from_bytes(data, "big") if data else 0
    total = len(data) * 8
    groups = (total + 6) // 7
    bits <<= groups * 7 - total
    return bytes((bits >> (7 * (groups - 1 - i))) & 0x7F for i in range(groups))


class _Encoder:
    def __init__(self, share_names: bool, share_values: bool) -> None:
        self.share_names, self.share_values = share_names, share_values
        self.names: list[str] = []
        self.values: list[str] = []
        self.out = bytearray()

    @staticmethod
    def _remember(table: list[str], text: str) -> None:
        if len(table) >= 1024:
            table.clear()
        table.append(text)

    def key(self, name: str) -> None:
        raw = name.encode("utf-8")
        if not raw:
            self.out.append(0x20)
            return
        if self.share_names and name in self.names:
            index = self.names.index(name)
            self.out += bytes([0x40 | index]) if index < 64 else bytes([0x30 | (index >> 8), index & 0xFF])
            return
        if raw.isascii() and len(raw) <= 64:
            self.out += bytes([0x80 | (len(raw) - 1)]) + raw
        elif not raw.isascii() and 2 <= len(raw) <= 57:
            self.out += bytes([0xC0 | (len(raw) - 2)]) + raw
        else:
            self.out += b"\x34" + raw + b"\xfc"
        if self.share_names:
            self._remember(self.names, name)

    def string(self, text: str) -> None:
        raw = text.encode("utf-8")
        if not raw:
            self.out.append(0x20)
            return
        if len(raw) <= 64 and self.share_values and text in self.values:
            index = self.values.index(text)
            self.out += bytes([index + 1]) if index < 31 else bytes([0xEC | (index >> 8), index & 0xFF])
            return
        if raw.isascii() and len(raw) <= 64:
            self.out += bytes([(0x40 if len(raw) <= 32 else 0x60) | (len(raw) - (1 if len(raw) <= 32 else 33))]) + raw
        elif not raw.isascii() and len(raw) <= 65:
            small = len(raw) <= 33
            self.out += bytes([(0x80 if small else 0xA0) | (len(raw) - (2 if small else 34))]) + raw
        else:
            self.out += (b"\xe0" if raw.isascii() else b"\xe4") + raw + b"\xfc"
            return
        if len(raw) <= 64 and self.share_values:
            self._remember(self.values, text)

    def value(self, value: Any) -> None:
        if value is None:
            self.out.append(0x21)
        elif value is True or value is False:
            self.out.append(0x23 if value else 0x22)
        elif isinstance(value, int):
            if -16 <= value <= 15:
                self.out.append(0xC0 | _zigzag(value))
            elif -(2**31) <= value < 2**31:
                self.out += b"\x24" + vint(_zigzag(value))
            elif -(2**63) <= value < 2**63:
                self.out += b"\x25" + vint(_zigzag(value))
            else:
                raw = value.to_bytes((value.bit_length() + 8) // 8, "big", signed=True)
                self.out += b"\x26" + vint(len(raw)) + _seven_bit(raw)
        elif isinstance(value, float):
            bits = int.from_bytes(struct.pack(">d", value), "big")
            self.out += b"\x29" + bytes((bits >> (7 * (9 - i))) & 0x7F for i in range(10))
        elif isinstance(value, str):
            self.string(value)
        elif isinstance(value, bytes):
            self.out += b"\xe8" + vint(len(value)) + _seven_bit(value)
        elif isinstance(value, list):
            self.out.append(0xF8)
            for item in value:
                self.value(item)
            self.out.append(0xF9)
        elif isinstance(value, dict):
            self.out.append(0xFA)
            for name, item in value.items():
                self.key(name)
                self.value(item)
            self.out.append(0xFB)
        else:
            raise TypeError(type(value))


def encode(value: Any, *, share_names: bool = True, share_values: bool = True) -> bytes:
    """``value`` (JSON data, plus ``bytes``) as a Smile document."""
    encoder = _Encoder(share_names, share_values)
    flags = (0x01 if share_names else 0) | (0x02 if share_values else 0)
    encoder.out += _HEADER + bytes([flags])
    encoder.value(value)
    return bytes(encoder.out)


def bgf_file(document: Any, *, compress: bool = True, smile: bool = True) -> bytes:
    """A ``.bgf`` file of ``document``: BGBlitz's header line, then the Smile (or JSON) body, gzipped when asked."""
    header = json.dumps(
        {"format": "BGF", "version": "1.0", "compress": compress, "useSmile": smile}, separators=(",", ":")
    ).encode()
    body = encode(document) if smile else json.dumps(document).encode()
    return header + b"\n" + (gzip.compress(body, mtime=0) if compress else body)
