"""Many files, one function: in this process, in worker processes, or on a Dask cluster.

:func:`map_in_order` runs a picklable function of one item over the items and gives the results back in
input order: here with one job, in a process pool with more, or on a Dask cluster with ``scheduler``
(:func:`tabla_cli.cluster.map_on_cluster`, which also decides where a task opens its files). What a file
is and how it is read are :mod:`tabla_cli.files` and :mod:`tabla_cli.source`.

>>> list(map_in_order(abs, [-3, 2, -1]))
[3, 2, 1]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

__all__ = ["map_in_order"]

A = TypeVar("A")
R = TypeVar("R")


def map_in_order(
    work: Callable[[A], R],
    items: Iterable[A],
    jobs: int = 1,
    *,
    per_job: int = 4,
    max_chunk: int = 16,
    scheduler: str | None = None,
    progress: Callable[[], None] | None = None,
    on_error: Callable[[A, str], R] | None = None,
) -> Iterator[R]:
    """``work`` of each item, with ``jobs`` processes or on a Dask cluster; results come in input order.

    Args:
        work: a picklable function (run in worker processes when ``jobs > 1``).
        items: the inputs.
        jobs: worker processes; one (or one item) runs here, without a pool.
        per_job: chunks per worker (smaller chunks balance uneven work).
        max_chunk: the largest chunk handed to a worker at once.
        scheduler: a Dask scheduler address, ``local`` or ``local:N``: run
            there with :func:`tabla_cli.cluster.map_on_cluster` (``jobs`` unused).
        progress: called once per item done.
        on_error: on a cluster, the result for an item whose task failed for
            good, from the item and ``"Type: message"``.
    """
    if scheduler is not None:
        from tabla_cli.cluster import map_on_cluster

        yield from map_on_cluster(
            work, items, scheduler, progress=progress, on_error=on_error, per_worker=per_job, max_chunk=max_chunk
        )
        return
    for result in _map_here(work, list(items), jobs, per_job, max_chunk):
        yield result
        if progress is not None:
            progress()


def _map_here(work: Callable[[A], R], names: list[A], jobs: int, per_job: int, max_chunk: int) -> Iterator[R]:
    """``work`` of each name, with ``jobs`` processes of this machine, in input order."""
    jobs = min(jobs, len(names))
    if jobs <= 1:
        for name in names:
            yield work(name)
        return
    chunk = max(1, min(max_chunk, len(names) // (jobs * per_job)))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(work, names, chunksize=chunk)
