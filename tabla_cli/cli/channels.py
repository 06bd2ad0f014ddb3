"""Standard input, output and error when they are closed, full or a broken pipe: one place for every command.

:func:`run` wraps the whole ``tabla`` command line. Before it runs, a
standard stream that was closed when the process started (``<&-``,
``>&-``, ``2>&-``: Python then has ``None`` for it) becomes a
:class:`ClosedStream`, which raises :class:`ChannelError` when written or
read, so that output is never dropped in silence. When the command is done,
both output streams are flushed. A write that fails on standard output or
error (closed, ``/dev/full``, an I/O error) ends the command with one line on
the other stream, if it can take it, and exit status 1, never a traceback and
never 0; a broken pipe (``tabla check DIR | head``) ends it silently with 1,
as Unix tools stop when nobody reads on.

Reading a closed or unreadable standard input (``tabla check - <&-``) is an
error of that input, reported by the command like any unreadable file.
"""

from __future__ import annotations

import errno
import io
import os
import sys
from collections.abc import Callable
from typing import NoReturn

__all__ = ["ChannelError", "ClosedStream", "install", "run"]

_NAMES = {0: "standard input", 1: "standard output", 2: "standard error"}
_CLOSED = "it was closed"


class ChannelError(OSError):
    """A standard stream that cannot be used; ``fd`` says which (0, 1 or 2)."""

    def __init__(self, fd: int, reason: str, number: int = errno.EBADF) -> None:
        super().__init__(number, f"cannot {'read' if fd == 0 else 'write to'} {_NAMES[fd]}: {reason}")
        self.fd = fd


class _ClosedBuffer(io.BufferedIOBase):
    """The bytes side of a :class:`ClosedStream`: every read or write raises at once (nothing is held back)."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self.fd = fd
        self.name = f"<{_NAMES[fd]}>"

    def readable(self) -> bool:
        return self.fd == 0

    def writable(self) -> bool:
        return self.fd != 0

    def read(self, size: int | None = -1) -> bytes:
        raise ChannelError(self.fd, _CLOSED)

    def read1(self, size: int = -1) -> bytes:
        raise ChannelError(self.fd, _CLOSED)

    def write(self, data: object) -> int:
        raise ChannelError(self.fd, _CLOSED)

    def fileno(self) -> int:
        raise ChannelError(self.fd, _CLOSED)


class ClosedStream(io.TextIOWrapper):
    """A standard stream that was closed when the process started: reading or writing it (or its
    ``buffer``) raises :class:`ChannelError`."""

    def __init__(self, fd: int) -> None:
        super().__init__(_ClosedBuffer(fd), encoding="utf-8", write_through=True)
        self.fd = fd

    def write(self, text: str) -> int:
        raise ChannelError(self.fd, _CLOSED)

    def read(self, size: int | None = -1) -> str:
        raise ChannelError(self.fd, _CLOSED)

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise ChannelError(self.fd, _CLOSED)


def install() -> None:
    """Put a :class:`ClosedStream` in place of each standard stream that is ``None`` (closed at start)."""
    if sys.stdin is None:
        sys.stdin = ClosedStream(0)
    if sys.stdout is None:
        sys.stdout = ClosedStream(1)
    if sys.stderr is None:
        sys.stderr = ClosedStream(2)


def _flush(fd: int) -> None:
    stream = sys.stdout if fd == 1 else sys.stderr
    try:
        stream.flush()
    except OSError as exc:
        raise _tagged(exc, fd) from exc


def _tagged(exc: OSError, fd: int) -> ChannelError:
    if isinstance(exc, ChannelError):
        return exc
    return ChannelError(fd, exc.strerror or str(exc), exc.errno or errno.EIO)


_STREAM_ERRORS = frozenset(
    {errno.EPIPE, errno.ENOSPC, errno.EIO, errno.EBADF, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)}
)
"""What a write to a closed, full or broken standard stream raises."""


def _broken(exc: OSError) -> int | None:
    """Which output stream (1 or 2) ``exc`` came from, or None when it is not a standard stream's error.

    A write error without a file name that reaches the top is a standard
    stream's (the commands report their own files' errors); it is standard
    error's when a frame it passed through was writing to it.
    """
    if isinstance(exc, ChannelError):
        return exc.fd
    if exc.filename is not None or exc.errno not in _STREAM_ERRORS:
        return None
    errors = {id(sys.stderr), id(getattr(sys.stderr, "buffer", None))}
    frame = exc.__traceback__
    while frame is not None:
        if any(id(value) in errors for value in frame.tb_frame.f_locals.values()):
            return 2
        frame = frame.tb_next
    return 1


def _silence(fd: int) -> None:
    """Point ``fd`` at the null device, so that what is still buffered for it goes nowhere, quietly."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def _fail(exc: ChannelError) -> NoReturn:
    """Say on standard error why standard output failed (not for a broken pipe: nobody reads on) and exit 1.

    The failed stream is pointed at the null device first, so that what is
    still buffered for it cannot fail again when Python exits.
    """
    _silence(exc.fd)
    if exc.fd == 1 and exc.errno != errno.EPIPE:
        try:
            sys.stderr.write(f"tabla: {exc.strerror}; output lost\n")
            sys.stderr.flush()
        except OSError:
            _silence(2)
    raise SystemExit(1)


def run(command: Callable[[], object]) -> NoReturn:
    """Run ``command`` (a click ``main`` in standalone mode, which exits) with the standard streams guarded."""
    install()
    try:
        try:
            command()
            code: object = 0
        except SystemExit as done:
            code = done.code
        _flush(1)
        _flush(2)
    except OSError as exc:
        fd = _broken(exc)
        if fd is None:
            raise
        _fail(_tagged(exc, fd))
    raise SystemExit(code)
