"""Reads that the sockets of one process asking at the same moment share (the restart storm).

After a process restarts, every socket of its matches reconnects at once and each asks for its
snapshot: 1,400 sockets built 1,400 snapshots, a third of the set-up's time, while the spectators of a
match all read the same one. `SharedReads.read(key, fetch)` runs one `fetch` for every request of the
same key that comes **before that read has begun**, and each gets its result (a `SharedMessage`,
encoded once for all of them: `outbound.dumps` keeps its text).

Why only before it has begun: a socket joins its match's hub first and then reads its snapshot, so
every event committed after the read began reaches it through the hub. A request that comes once the
read is under way may have joined the hub after an event the read no longer sees; it gets a read of
its own (the next shared one). A read that has ended is never handed out again: nothing is cached past
the moment, so no socket gets an old version, an old chat line or a shot that has since rolled.

The fetch is given a `begun` callable to call first thing where the read really runs (the database
thread): until then, a request is taken into the read.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

__all__ = ["SharedReads"]

T = TypeVar("T")


@dataclass
class _Read(Generic[T]):
    task: asyncio.Future[T] | None = None
    #: Set by the read itself (in the database thread) when it begins: later requests read again.
    begun: bool = False

    def mark_begun(self) -> None:
        self.begun = True


class SharedReads(Generic[T]):
    """One read per key for every request that comes before it begins (the module docstring)."""

    def __init__(self) -> None:
        self._open: dict[Hashable, _Read[T]] = {}
        #: Reads run and requests answered, over the process's life (the benchmark's and the tests' view).
        self.reads = 0
        self.requests = 0

    async def read(self, key: Hashable, fetch: Callable[[Callable[[], None]], Awaitable[T]]) -> T:
        self.requests += 1
        current = self._open.get(key)
        if current is None or current.begun:
            current = _Read()
            self._open[key] = current
            self.reads += 1
            current.task = asyncio.ensure_future(fetch(current.mark_begun))
            current.task.add_done_callback(functools.partial(self._close, key, current))
        assert current.task is not None
        # Shielded: a socket that goes away while it waits does not cancel the others' read.
        return await asyncio.shield(current.task)

    def _close(self, key: Hashable, read: _Read[T], done: asyncio.Future[T]) -> None:
        if self._open.get(key) is read:
            del self._open[key]
        if not done.cancelled():
            done.exception()  # retrieved here too: every asker may have gone (their sockets closed)
