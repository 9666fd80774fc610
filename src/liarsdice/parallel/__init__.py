"""Work cut into ranges of game indices, played here, in local processes or on a Ray cluster.

The arena (:mod:`liarsdice.arena`) and self-play (:mod:`liarsdice.selfplay`) hand
:func:`spread` a function ``work(shared, start, stop)`` that plays games ``start`` to
``stop - 1`` of ``shared`` (a picklable description of the games: an arena's spec), and the
number of games. ``spread`` yields each range's result as it finishes, in no fixed order: the
callers put the games back in order by index. Every game is seeded from its index alone, so
the results never depend on where, or in which batch, a game was played.

* ``jobs <= 1``: one game at a time in this process (a result per game, for a smooth progress
  bar);
* ``jobs > 1``: a :class:`~concurrent.futures.ProcessPoolExecutor` with the **spawn** start
  method (scripts must guard their entry point with ``if __name__ == "__main__":``);
* ``ray``: a Ray cluster (:mod:`liarsdice.parallel.ray_cluster`, the only module that imports
  Ray, on first use; ``pip install 'liarsdice[ray]'``).

>>> def square(shared, start, stop):
...     return [shared * i * i for i in range(start, stop)]
>>> sorted(x for batch in spread(square, 2, 5) for x in batch)
[0, 2, 8, 18, 32]
"""

from __future__ import annotations

import math
import multiprocessing
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import TypeVar

from liarsdice.parallel.errors import RAY_HINT, RayUnavailableError

__all__ = ["RAY_HINT", "RayUnavailableError", "chunks", "spread"]

S = TypeVar("S")
R = TypeVar("R")


def chunks(games: int, jobs: int) -> list[tuple[int, int]]:
    """Deterministic ``(start, stop)`` ranges: about sixteen per job, at most 100 games each.

    >>> chunks(100, 2)[:3], len(chunks(100, 2)), chunks(5000, 2)[-1]
    ([(0, 4), (4, 8), (8, 12)], 25, (4900, 5000))
    >>> chunks(0, 4)
    []
    """
    size = max(1, min(100, math.ceil(games / (16 * max(1, jobs)))))
    return [(a, min(a + size, games)) for a in range(0, games, size)]


def spread(
    work: Callable[[S, int, int], R],
    shared: S,
    games: int,
    *,
    jobs: int = 1,
    ray: str | None = None,
    on_start: Callable[[int], None] | None = None,
) -> Iterator[R]:
    """``work(shared, start, stop)`` over ranges covering ``0..games - 1``; each result as it
    finishes. With ``ray`` (``local``, ``auto`` or an address: :func:`ray_cluster.connect`)
    the ranges run as Ray tasks, ``jobs`` being the CPUs of a ``local`` Ray (0: all);
    otherwise in ``jobs`` local processes. ``on_start`` is told how many CPUs Ray has.
    """
    if ray is not None:
        yield from _on_ray(work, shared, games, jobs, ray, on_start)
        return
    work_ranges = chunks(games, jobs)
    if jobs <= 1 or len(work_ranges) <= 1:
        for index in range(games):
            yield work(shared, index, index + 1)
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        pending: set[Future[R]] = {
            pool.submit(work, shared, start, stop) for start, stop in work_ranges
        }
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()


def _on_ray(
    work: Callable[[S, int, int], R],
    shared: S,
    games: int,
    jobs: int,
    address: str,
    on_start: Callable[[int], None] | None,
) -> Iterator[R]:
    try:
        from liarsdice.parallel import ray_cluster
    except ImportError as e:  # pragma: no cover - the module itself imports nothing optional
        raise RayUnavailableError(f"Ray is not available: {RAY_HINT}") from e
    with ray_cluster.connect(address, cpus=jobs or None) as cluster:
        if on_start is not None:
            on_start(cluster.cpus)
        yield from cluster.map(work, shared, chunks(games, cluster.cpus))
