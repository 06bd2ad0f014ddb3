"""Per-file work on a Dask cluster: the executor behind ``--scheduler``.

:func:`map_on_cluster` has the shape of :func:`tabla_cli.parallel.map_in_order`
(which hands work here when given a ``scheduler``): a picklable function of
one item, the items, and results back in input order. Items go out in chunks
(a few per worker thread, so scheduling costs little next to the work); each
item runs inside a guard, so an item whose work raises comes back as
``on_error(item, message)`` and never stops the run. A worker that dies
loses nothing: the scheduler runs its tasks again elsewhere.

Each task runs inside :func:`tabla_cli.files.opened_from` with the client's
working directory: there :func:`tabla_cli.files.read_source` takes a relative
path from that directory (so workers need the same filesystem at the same
place, as on a shared disk), and URLs (``s3://...``, ``gcs://...``) pass
through to fsspec. That is the one place the choice is made.

Needs the ``tabla-cli[dask]`` extra; nothing here imports Dask until a run
starts.

>>> check_scheduler("local:4")
'local:4'
"""

from __future__ import annotations

import logging
import os
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from tabla_cli.errors import TablaError

if TYPE_CHECKING:
    from distributed import Client

__all__ = [
    "EXTRA",
    "SCHEDULER_HELP",
    "ClusterError",
    "SchedulerAddressError",
    "check_scheduler",
    "map_on_cluster",
]

A = TypeVar("A")
R = TypeVar("R")

EXTRA = "tabla-cli[dask]"
"""The extra that installs Dask and distributed."""

SCHEDULER_HELP = (
    "Run on a Dask cluster: tcp://HOST:PORT of a running 'dask scheduler', or 'local' / 'local:N' "
    f"for N worker processes started for this run (needs {EXTRA}); the output does not depend on it."
)


class ClusterError(TablaError):
    """The cluster cannot be reached or started, or a task failed with no way to report it."""


class SchedulerAddressError(ValueError):
    """A ``--scheduler`` that cannot be used: a malformed address, or Dask not installed (a usage error)."""


def check_scheduler(address: str) -> str:
    """``address``, stripped, if it names a scheduler and Dask is installed.

    Accepted: ``local``, ``local:N`` (N >= 1), and anything Dask connects to
    (``tcp://host:8786``, ``tls://...``, ``host:8786``).

    Raises:
        SchedulerAddressError: a malformed address, or the extra is missing.
    """
    text = address.strip()
    if text == "local" or text.startswith("local:"):
        count = text.removeprefix("local").removeprefix(":")
        if text != "local" and not (count.isdigit() and int(count) >= 1):
            raise SchedulerAddressError(f"{address!r}: write local:N with N >= 1 worker processes")
    elif ":" not in text:
        raise SchedulerAddressError(f"{address!r} is not a scheduler address: give tcp://HOST:PORT, local or local:N")
    try:
        import distributed  # noqa: F401
    except ImportError as exc:
        raise SchedulerAddressError(f"--scheduler needs Dask: install the extra with pip install '{EXTRA}'") from exc
    return text


@dataclass(frozen=True, slots=True)
class _Raised:
    """An item's work raised on the worker: ``type: message``."""

    message: str


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


@dataclass(frozen=True, slots=True)
class _Chunk(Generic[A, R]):
    """The task: ``work`` of each item of a chunk, reading relative to ``base``, each item guarded."""

    work: Callable[[A], R]
    base: str

    def __call__(self, items: list[A]) -> list[R | _Raised]:
        from tabla_cli.files import opened_from  # on the worker; the command line's options need none of it

        with opened_from(self.base):
            return [self._one(item) for item in items]

    def _one(self, item: A) -> R | _Raised:
        try:
            return self.work(item)
        except Exception as exc:  # noqa: BLE001 - any failure of one item is reported for that item
            return _Raised(_describe(exc))


@contextmanager
def _client(address: str) -> Iterator[Client]:
    """A client of the scheduler at ``address``, or of a local cluster started (and stopped) here."""
    from distributed import Client, LocalCluster

    if address == "local" or address.startswith("local:"):
        count = int(address[6:]) if address != "local" else os.cpu_count() or 1
        try:
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message="Port .* is already in use")
                cluster = LocalCluster(
                    n_workers=count,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                )
        except (OSError, RuntimeError) as exc:
            raise ClusterError(f"cannot start a local Dask cluster: {exc}") from exc
        with cluster, Client(cluster, set_as_default=False) as client:
            yield client
        return
    # a worker lost mid-run has its tasks rescheduled, which the client logs as a warning on stderr:
    # the run still gives every result, so only errors are worth a line there
    logging.getLogger("distributed.client").setLevel(logging.ERROR)
    try:
        client = Client(address, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc}") from exc
    with client:
        yield client


def map_on_cluster(
    work: Callable[[A], R],
    items: Iterable[A],
    scheduler: str,
    *,
    progress: Callable[[], None] | None = None,
    on_error: Callable[[A, str], R] | None = None,
    per_worker: int = 4,
    max_chunk: int = 16,
    retries: int = 2,
) -> Iterator[R]:
    """``work`` of each item on the cluster at ``scheduler``; results come in input order.

    Args:
        work: a picklable function of one item, importable on the workers
            (tabla-cli installed there). Inputs it reads through
            :func:`tabla_cli.files.read_source` are opened on the worker.
        items: the inputs.
        scheduler: ``tcp://host:port`` (or any Dask address), ``local`` or
            ``local:N`` (see :func:`check_scheduler`).
        progress: called once per item as its task completes (in completion order).
        on_error: the result for an item whose work raised (or whose task
            failed for good), given the item and ``"Type: message"``; without
            it, such an item raises :class:`ClusterError`.
        per_worker: chunks per worker thread (smaller chunks balance uneven work).
        max_chunk: the most items in one task.
        retries: how often the scheduler runs a failed task again.

    Raises:
        ClusterError: the scheduler cannot be reached, or goes away mid-run.
    """
    names = list(items)
    if not names:
        return
    from distributed import as_completed

    with _client(scheduler) as client:
        threads = sum(client.nthreads().values()) or 1
        size = max(1, min(max_chunk, len(names) // (threads * per_worker)))
        chunks = [names[i : i + size] for i in range(0, len(names), size)]
        futures = client.map(_Chunk(work, os.getcwd()), chunks, pure=False, retries=retries)
        position = {future.key: i for i, future in enumerate(futures)}
        ready: dict[int, list[R]] = {}
        following = 0
        completed = as_completed(futures, loop=client.loop, with_results=True, raise_errors=False)
        for batch in completed.batches():
            for future, result in batch:
                i = position[future.key]
                ready[i] = _outcomes(future.status, result, chunks[i], on_error)
                future.release()
                if progress is not None:
                    for _ in chunks[i]:
                        progress()
            while following in ready:
                yield from ready.pop(following)
                following += 1


def _outcomes(status: str, result: object, chunk: list[A], on_error: Callable[[A, str], R] | None) -> list[R]:
    """The results of one finished task (``result``: its list, or its exception), failures through ``on_error``."""
    if status == "cancelled":
        raise ClusterError("the Dask scheduler cancelled the run (did it stop?)")
    raw: list[R | _Raised]
    if status == "error":
        failure = _Raised(_describe(result if isinstance(result, BaseException) else Exception(result)))
        raw = [failure] * len(chunk)
    elif isinstance(result, list):
        raw = result
    else:
        raise ClusterError(f"a Dask worker answered {type(result).__name__}, not the chunk's results")
    out: list[R] = []
    for item, one in zip(chunk, raw, strict=True):
        if isinstance(one, _Raised):
            if on_error is None:
                raise ClusterError(f"{item}: {one.message}")
            out.append(on_error(item, one.message))
        else:
            out.append(one)
    return out
