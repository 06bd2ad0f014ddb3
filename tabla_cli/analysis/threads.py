"""How many threads the engine's C++ core may start in this process.

bgsage's core starts its threads without a way to report a failure: a thread
that cannot be made (the address space, ``ulimit -v``, is spent) ends the
whole process with ``std::terminate``, SIGABRT and no message. So the number
is chosen here, before the engine runs: never more than the cores this
process may use (its CPU affinity), and never more than the address-space
limit leaves room for, counting each thread's stack and the malloc arena
a thread of the engine may reserve.
"""

from __future__ import annotations

import os
import resource

from tabla_cli.errors import TablaError

__all__ = ["EngineThreadsError", "THREAD_RESERVE", "cores", "thread_room"]

THREAD_RESERVE = 64 << 20
"""Address space a thread may reserve besides its stack: glibc's malloc arena for a thread (64 MiB on 64-bit)."""

_DEFAULT_STACK = 8 << 20
_HEADROOM = 256 << 20


class EngineThreadsError(TablaError):
    """The engine's threads cannot all be started within this process's limits."""


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it, else every core)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def _mapped() -> int:
    """The address space this process holds now, in bytes (0 when the system does not say)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as handle:
            return int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def thread_room() -> int | None:
    """How many engine threads the address-space limit leaves room for; None when there is no limit."""
    limit = resource.getrlimit(resource.RLIMIT_AS)[0]
    if limit == resource.RLIM_INFINITY:
        return None
    stack = resource.getrlimit(resource.RLIMIT_STACK)[0]
    stack = _DEFAULT_STACK if stack == resource.RLIM_INFINITY or stack <= 0 else stack
    free = limit - _mapped() - _HEADROOM
    return max(0, free // (stack + THREAD_RESERVE))


def engine_threads(wanted: int) -> int:
    """The engine threads to start for ``wanted`` (0 = every core), within what this process may start.

    Every core is as many as the limits allow (at least one); a number given
    is kept when it fits.

    Raises:
        EngineThreadsError: ``wanted`` threads (or one) do not fit in the address-space limit.

    >>> engine_threads(1)
    1
    """
    room = thread_room()
    if wanted == 0:
        wanted = cores() if room is None else max(1, min(cores(), room))
    if room is not None and wanted > room:
        limit = resource.getrlimit(resource.RLIMIT_AS)[0]
        raise EngineThreadsError(
            f"the engine cannot start {wanted} thread{'s' if wanted != 1 else ''} within this process's "
            f"address-space limit of {limit >> 20} MiB (ulimit -v): room for {room}; "
            "give a smaller --threads or raise the limit"
        )
    return wanted
