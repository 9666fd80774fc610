"""A room's mailbox: one task that runs the room's commands one at a time, in the order they
came (the actor model of :mod:`liarsdice.server.room.actor`, which adds what a command does)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from liarsdice.server.room.commands import CommandError

log = logging.getLogger("liarsdice.server")
_T = TypeVar("_T")

MOVED = "the room is not running here any more: try again"


class Mailbox:
    """A queue of work and the one task that runs it (see the module docstring)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._queue: asyncio.Queue[tuple[Callable[[], Awaitable[Any]], asyncio.Future[Any]]]
        self._queue = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False  # stop() cancels the task: that cancellation is meant
        self.last_active = 0.0  # loop time of the last command
        self._prev_active = 0.0  # ... and of the one before (for close, itself a command)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        self._stopping = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        # What was queued and never ran is refused, not dropped: its sender learns the room
        # moved (a cluster's node sends a relayed message on to the room's next owner).
        while not self._queue.empty():
            _, fut = self._queue.get_nowait()
            if not fut.done():
                fut.set_exception(CommandError("moved", MOVED))

    async def _run(self) -> None:
        """One command at a time, in order; a failed command never ends the task."""
        while True:
            fut: asyncio.Future[Any] | None = None
            try:
                fn, fut = await self._queue.get()
                now = asyncio.get_running_loop().time()
                self._prev_active, self.last_active = self.last_active, now
                result = await fn()
            except asyncio.CancelledError:
                if self._stopping:
                    if fut is not None and not fut.done():  # (it may have been applied)
                        fut.set_exception(CommandError("moved", MOVED))
                    raise
                # A cancellation nobody asked for (the room is not stopping): the command, if
                # any, failed; the task goes on. (Without this one stray cancel would end the
                # task and leave every later command of the room waiting forever.)
                task = asyncio.current_task()
                if task is not None:
                    task.uncancel()
                log.error("%s: a command was cancelled; the room goes on", self.name)
                if fut is not None and not fut.done():
                    fut.set_exception(CommandError("internal", "the command was interrupted"))
                continue
            except Exception as err:  # the command failed; the room goes on
                if not isinstance(err, CommandError):
                    log.exception("%s: command failed", self.name)
                if fut is not None and not fut.done():
                    fut.set_exception(err)
                continue
            if not fut.done():
                fut.set_result(result)

    async def submit(self, fn: Callable[[], Awaitable[_T]]) -> _T:
        """Run ``fn`` as the room's next command and return its result (CommandError
        ``moved`` once the room has stopped: unloaded, or handed to another node)."""
        if self._stopping:
            raise CommandError("moved", MOVED)
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self._queue.put((fn, fut))
        result: _T = await fut
        return result

    def post(
        self,
        fn: Callable[..., Awaitable[Any]],
        *args: Any,
        moved: Callable[[], None] | None = None,
    ) -> None:
        """Queue ``fn(*args)`` without waiting for it (timers, relayed messages). ``moved`` is
        called if the room stops before it ran (or while it ran)."""
        if self._stopping:
            if moved is not None:
                moved()
            return
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

        def done(f: asyncio.Future[Any]) -> None:
            err = None if f.cancelled() else f.exception()
            if moved is not None and isinstance(err, CommandError) and err.code == "moved":
                moved()

        fut.add_done_callback(done)
        self._queue.put_nowait((lambda: fn(*args), fut))


async def within(aw: Awaitable[_T], seconds: float) -> _T:
    """``await aw``, giving up after ``seconds`` (TimeoutError) *without cancelling it*.

    A write the room stops waiting for must still reach the store's queue and finish there
    (the probe relies on it), and giving up must not cancel the room's own task:
    ``asyncio.timeout`` works by cancelling the current task, and on Python 3.11 a cancellation
    that races with the awaited write's completion can stay pending on the task, to surface at
    its next await. Waiting on a separate task never cancels anything."""
    task = asyncio.ensure_future(aw)
    done, _ = await asyncio.wait({task}, timeout=seconds)
    if not done:
        task.add_done_callback(_retrieve)
        raise TimeoutError(f"no answer within {seconds:g} s")
    return task.result()


def _retrieve(task: asyncio.Future[Any]) -> None:
    """Mark a finished task's exception as seen (a write given up on may fail later)."""
    if not task.cancelled():
        task.exception()


__all__ = ["MOVED", "Mailbox", "within"]
