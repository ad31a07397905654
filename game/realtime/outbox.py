"""One socket's versioned delivery: every versioned event exactly once, in version order.

Events reach a match socket by two roads: live, through the process's hub (`game.realtime.hub`, possibly out of
order when two processes publish close together, possibly lost when Redis fails), and from the database
(the connect snapshot, `hello` catch-up, gap fills). `VersionedOutbox` merges the two so the client sees
`v` rise by exactly one per event after its snapshot (docs/protocol.md, "Versions, ordering, catch-up").

It knows nothing of Channels: it writes through `send` (encoded text to the socket) and reads through
`events_since` and `snapshot` (the database, `game.matches.selectors.matches`), so tests drive it with a list and
a fake socket (tests/realtime/test_outbox.py). The consumer keeps the socket's own concerns.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from game.common.db import CONNECT, PLAY
from game.realtime import outbound
from game.realtime.fanout import event_pending

__all__ = ["EventsSince", "Snapshot", "VersionedOutbox"]

logger = logging.getLogger(__name__)

#: `(version, until, priority)` -> the stored events after `version` up to `until` (None: to the latest),
#: or None when a snapshot is the better answer (too many missed, or a version the match never reached).
EventsSince = Callable[[int, int | None, int], Awaitable[list[dict[str, Any]] | None]]
#: `(priority)` -> the socket's snapshot message, or None when the match is gone.
Snapshot = Callable[[int], Awaitable[dict[str, Any] | None]]


class VersionedOutbox:
    """The last version sent, the lock that keeps versions in order and the backlog of hub deliveries
    waiting for it. Whatever sends versioned events from the database holds `lock`; hub deliveries that
    arrive meanwhile queue in `backlog` (in arrival order, relays and beats among them) and a background
    task sends them once the lock is free."""

    #: Seconds a beat announcing a version not yet sent waits for it before filling the gap.
    beat_grace = 0.5

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        events_since: EventsSince,
        snapshot: Snapshot,
        on_pending: Callable[[list[str]], None] | None = None,
        *,
        beat_grace: float | None = None,
    ) -> None:
        self.send = send
        self.events_since = events_since
        self.snapshot = snapshot
        #: Told who may act whenever a sent event says so (the consumer's aim check).
        self.on_pending = on_pending
        if beat_grace is not None:
            self.beat_grace = beat_grace
        self.last_v = 0
        self.lock = asyncio.Lock()
        #: ("event", hub message) / ("relay", text) / ("beat", (version, text)), in arrival order.
        self.backlog: list[tuple[str, Any]] = []
        self.tasks: set[asyncio.Task[Any]] = set()

    # --- from the database (the caller or the outbox holds `lock`) -----------------------------------

    async def send_versioned(self, item: dict[str, Any]) -> None:
        """Send one versioned message (`{t, v, d}`) and move past its version. Hold `lock`."""
        await self.send(outbound.dumps(item))
        self.last_v = max(self.last_v, item["v"])
        self.track(event_pending(item))

    async def send_snapshot(self, priority: int = PLAY) -> None:
        snapshot = await self.snapshot(priority)
        if snapshot is not None:
            await self.send(outbound.dumps(snapshot))
            self.last_v = snapshot["v"]
            self.track(event_pending(snapshot))

    async def fill_gap(self, up_to: int, priority: int = PLAY) -> None:
        """Send the stored events after `last_v` up to `up_to` (a snapshot if that is too much). Hold
        `lock`."""
        events = await self.events_since(self.last_v, up_to, priority)
        if events is None:
            await self.send_snapshot()
            return
        for item in events:
            await self.send_versioned(item)

    async def catch_up(self, version: int) -> None:
        """`hello {v}`: the events after v (even those this socket was sent: the client says it lacks
        them), or a snapshot when they are too many or v is unknown."""
        async with self.lock:
            events = await self.events_since(version, None, PLAY)
            if events is None:
                await self.send_snapshot()
                return
            for item in events:
                await self.send(outbound.dumps(item))
                self.track(event_pending(item))
            if events:
                self.last_v = max(self.last_v, events[-1]["v"])

    async def answer_repeat(self, stored: dict[str, Any]) -> None:
        """A repeated ack: the stored event again, marked `repeat`, after any this socket has not had
        (then the event itself comes in order, unmarked)."""
        async with self.lock:
            if stored["v"] > self.last_v:
                await self.fill_gap(stored["v"])
            else:
                await self.send(outbound.dumps({**stored, "repeat": True}))

    # --- from the hub ---------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return bool(self.backlog) or self.lock.locked()

    async def hub_event(self, message: dict[str, Any]) -> None:
        """A versioned event (`realtime.event_message`): sent once, in order. The next version goes
        straight out (the common case, no await in between); anything else waits in the backlog for a
        gap fill from the database, behind whatever holds the lock."""
        if not self.busy:
            if message["v"] <= self.last_v:
                return
            if message["v"] == self.last_v + 1:
                self.sent_event(message)
                await self.send(message["text"])
                return
        self.backlog.append(("event", message))
        self.drain_backlog()

    async def hub_relay(self, text: str) -> None:
        """An unversioned message (aim, presence, clock, chat), already encoded: it keeps its place
        among the events queued before it."""
        if not self.busy:
            await self.send(text)
            return
        self.backlog.append(("relay", text))
        self.drain_backlog()

    async def hub_beat(self, version: int, text: str) -> None:
        """`beat {v}`: behind v (an event never reached us), the gap is filled from the database first,
        so the beat always follows everything up to v.

        Behind v is usually an event committed and being published right now: the beat waits
        `beat_grace` for it before filling. (Filling at once made every socket of a busy match read the
        database on most beats at 100 matches, and those reads queued ahead of the players' inputs.)"""
        if version <= self.last_v and not self.busy:
            await self.send(text)
            return
        if version > self.last_v:
            self.start(self.late_beat(version, text), "late-beat")
            return
        self.backlog.append(("beat", (version, text)))
        self.drain_backlog()

    async def late_beat(self, version: int, text: str) -> None:
        await asyncio.sleep(self.beat_grace)
        self.backlog.append(("beat", (version, text)))
        self.drain_backlog()

    def sent_event(self, message: dict[str, Any]) -> None:
        self.last_v = message["v"]
        self.track(message["pending"])

    def drain_backlog(self) -> None:
        # A drain still running sends what was just added; one that has returned (done, not yet taken
        # out of `tasks` by its callback) will not.
        if any(task.get_name() == "backlog" and not task.done() for task in self.tasks):
            return
        self.start(self.send_backlog(), "backlog")

    async def send_backlog(self) -> None:
        """Send the backlog in order, filling version gaps from the database (a snapshot if too far)."""
        while self.backlog:
            async with self.lock:
                while self.backlog:
                    kind, payload = self.backlog[0]
                    if kind == "relay":
                        await self.send(payload)
                    elif kind == "beat":
                        version, text = payload
                        if version > self.last_v:
                            await self.fill_gap(version, priority=CONNECT)
                        await self.send(text)
                    elif payload["v"] > self.last_v:
                        if payload["v"] > self.last_v + 1:
                            await self.fill_gap(payload["v"] - 1)
                        if payload["v"] == self.last_v + 1:
                            self.sent_event(payload)
                            await self.send(payload["text"])
                    self.backlog.pop(0)

    # --- housekeeping ---------------------------------------------------------------------------------

    def track(self, pending: list[str] | None) -> None:
        if pending is not None and self.on_pending is not None:
            self.on_pending(pending)

    def start(self, work: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.create_task(work, name=name)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def cancel(self) -> None:
        """The socket is closing: stop the backlog and the waiting beats."""
        for task in list(self.tasks):
            task.cancel()
