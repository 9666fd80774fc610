"""Ranges of games as Ray tasks: the only module of liarsdice that imports Ray.

Ray is an optional extra (``pip install 'liarsdice[ray]'``) and is imported by
:func:`connect`, never when this module is imported, so the base install (and every test
that does not ask for Ray) works without it. ``docs/RESEARCH.md`` ("The arena and self-play
on Ray") explains how to start a cluster.

:func:`connect` joins Ray, as the ``--ray`` option says:

* Ray already initialised in this process (a script or a test called ``ray.init``): used as
  it is, and left running;
* ``local``: a Ray started on this machine for this run (``cpus`` CPUs, default all), shut
  down at the end;
* ``auto``: the cluster running on this machine (``ray start --head``) or named by
  ``RAY_ADDRESS``; an error when there is none;
* anything else: the address of a cluster's head, ``HOST:PORT`` (as ``ray start --address``
  takes it) or ``ray://HOST:10001`` (Ray Client); disconnected at the end.

The description of the games (``shared``) is put in Ray's object store once; each range is
one task, ``work(shared, start, stop)``, whose result comes back to this process.
"""

from __future__ import annotations

import importlib.util
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

from liarsdice.parallel.errors import RAY_HINT, RayUnavailableError

__all__ = ["Cluster", "connect", "installed"]

S = TypeVar("S")
R = TypeVar("R")


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RayUnavailableError(f"--ray needs Ray, which is not installed: {RAY_HINT}") from None
    return ray


class Cluster(Generic[S, R]):
    """A connection to Ray: its CPUs and a way to map ranges of games over them."""

    def __init__(self, ray: Any) -> None:
        self._ray = ray
        self.cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))

    def map(
        self, work: Callable[[S, int, int], R], shared: S, ranges: list[tuple[int, int]]
    ) -> Iterator[R]:
        """``work(shared, start, stop)`` for every range, as Ray tasks; results as they end."""
        ray = self._ray
        task = ray.remote(work)
        ref = ray.put(shared)
        pending = [task.remote(ref, start, stop) for start, stop in ranges]
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for finished in done:
                    yield ray.get(finished)
        finally:
            for left in pending:  # an error or an abandoned iteration: stop the rest
                ray.cancel(left)


@contextmanager
def connect(address: str, *, cpus: int | None = None) -> Iterator[Cluster[Any, Any]]:
    """Ray, joined as ``address`` says (see the module docstring); ``cpus`` only for
    ``local``."""
    ray = _import_ray()
    if ray.is_initialized():
        yield Cluster(ray)
        return
    options: dict[str, Any] = {
        "include_dashboard": False,
        "logging_level": logging.WARNING,
        "log_to_driver": False,
    }
    if address == "local":
        options["num_cpus"] = cpus
    try:
        ray.init(address=address, **options)
    except ConnectionError as e:
        if address == "auto":
            raise RayUnavailableError(
                "no Ray cluster is running here: start one with 'ray start --head', give its "
                "address, or use --ray local"
            ) from None
        raise RayUnavailableError(f"cannot reach a Ray cluster at {address!r}: {e}") from None
    try:
        yield Cluster(ray)
    finally:
        ray.shutdown()


def installed() -> bool:
    """Whether Ray can be imported (found without importing it)."""
    return importlib.util.find_spec("ray") is not None
