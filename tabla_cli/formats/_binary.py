"""What the readers of binary formats share: inflating compressed data within the size limit.

A binary file may hold a compressed part (the zlib stream of an eXtreme
Gammon ``.xg``, the gzip body of a BGBlitz ``.bgf``) that inflates to far
more than the file: :func:`inflate` stops as soon as the output would pass
``--max-size`` and raises :class:`~tabla_cli.errors.InflatesTooLargeError`,
never holding more than the limit (a decompression bomb is refused).

>>> import zlib
>>> inflate(zlib.compress(b"backgammon"), max_size=100, location=Location("a.xg"))
b'backgammon'
>>> inflate(zlib.compress(b"0" * 1000), max_size=100, location=Location("a.xg"))
Traceback (most recent call last):
tabla_cli.errors.InflatesTooLargeError: a.xg: the compressed data inflates past the size limit of 100 bytes (--max-size); not read
"""

from __future__ import annotations

import zlib

from tabla_cli.errors import InflatesTooLargeError, InputError, Location

__all__ = ["GZIP", "ZLIB", "inflate"]

ZLIB = zlib.MAX_WBITS
"""``wbits`` of a zlib stream (header and checksum)."""
GZIP = 16 + zlib.MAX_WBITS
"""``wbits`` of a gzip member."""

_STEP = 1 << 20


def inflate(
    data: bytes, *, max_size: int, location: Location, wbits: int = ZLIB, what: str = "the compressed data"
) -> bytes:
    """The inflated bytes of the compressed stream at the start of ``data`` (bytes after its end are ignored).

    Args:
        data: the compressed stream.
        max_size: the most bytes it may inflate to (``--max-size``).
        location: where the stream is, for the errors.
        wbits: :data:`ZLIB` or :data:`GZIP`.
        what: the stream's name in the errors.

    Raises:
        InflatesTooLargeError: it inflates past ``max_size`` (nothing more is inflated).
        InputError: it is damaged or ends early.
    """
    inflater = zlib.decompressobj(wbits)
    out = bytearray()
    pending = data
    try:
        while not inflater.eof:
            piece = inflater.decompress(pending, min(_STEP, max_size + 1 - len(out)))
            out += piece
            if len(out) > max_size:
                raise InflatesTooLargeError(
                    f"{what} inflates past the size limit of {max_size} bytes (--max-size); not read", location
                )
            pending = inflater.unconsumed_tail
            if not piece and not pending:  # no input left, nothing buffered: the stream stops short
                break
    except zlib.error as exc:
        raise InputError(f"{what} is damaged: {exc}", location) from exc
    if not inflater.eof:
        raise InputError(f"{what} ends early: the file is truncated", location)
    return bytes(out)
