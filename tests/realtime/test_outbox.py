"""`game.realtime.outbox.VersionedOutbox` on its own: one socket's versioned delivery.

The socket and the database are replaced by test doubles at the outbox's two edges (a list of the
texts sent; the match's stored events as a plain list, with the same answers as
`selectors.matches.match_events_since`), so these tests need neither Channels nor PostgreSQL. The
consumer's use of it is covered end to end by test_match_socket.py and test_realtime_faults.py.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from game.realtime.fanout import event_pending
from game.realtime.outbox import VersionedOutbox


def stored(v: int, pending: list[str] | None = None) -> dict[str, Any]:
    d: dict[str, Any] = {"n": v}
    if pending is not None:
        d["state"] = {"pending": [[name, "shoot"] for name in pending]}
    return {"t": "shot", "v": v, "d": d}


def hub_message(item: dict[str, Any]) -> dict[str, Any]:
    """What the hub hands a socket (realtime.event_message), without the Channels plumbing."""
    return {"v": item["v"], "pending": event_pending(item), "text": json.dumps(item, separators=(",", ":"))}


class FakeSocket:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def versions(self) -> list[Any]:
        return [m.get("v", m["t"]) for m in self.sent]


class FakeStore:
    """The match's stored events, 1..n; `limit` as CATCH_UP_MAX_EVENTS; `gate`, when set, holds every
    read (after it has read the list) until it opens."""

    def __init__(self, count: int, limit: int = 50) -> None:
        self.events = [stored(v) for v in range(1, count + 1)]
        self.limit = limit
        self.gate: asyncio.Event | None = None
        self.reads: list[tuple[int, int | None]] = []

    def add(self, item: dict[str, Any]) -> dict[str, Any]:
        self.events.append(item)
        return item

    async def events_since(self, version: int, until: int | None, priority: int) -> list[dict[str, Any]] | None:
        self.reads.append((version, until))
        current = len(self.events)
        top = current if until is None else min(until, current)
        answer = None if version > current or top - version > self.limit else self.events[version:top]
        if self.gate is not None:
            await self.gate.wait()
        return answer

    async def snapshot(self, priority: int) -> dict[str, Any] | None:
        return {"t": "snapshot", "v": len(self.events), "d": {}}


def outbox_for(store: FakeStore, socket: FakeSocket, pending: list[list[str]] | None = None) -> VersionedOutbox:
    return VersionedOutbox(
        socket.send,
        store.events_since,
        store.snapshot,
        pending.append if pending is not None else None,
        beat_grace=0.01,
    )


async def settle(outbox: VersionedOutbox) -> None:
    """Wait for the outbox's background work (the backlog, late beats) to finish."""
    for _ in range(100):
        if not outbox.tasks:
            return
        await asyncio.gather(*outbox.tasks)
    raise AssertionError("the outbox never settled")


async def test_events_leave_in_order_and_duplicates_are_dropped() -> None:
    store, socket = FakeStore(3), FakeSocket()
    outbox = outbox_for(store, socket)
    await outbox.send_versioned({"t": "snapshot", "v": 0, "d": {}})
    for item in store.events[:2]:
        await outbox.hub_event(hub_message(item))
    await outbox.hub_event(hub_message(store.events[0]))  # a second process published it again
    await outbox.hub_event(hub_message(store.events[1]))
    await outbox.hub_event(hub_message(store.events[2]))
    await settle(outbox)
    assert socket.versions() == [0, 1, 2, 3]
    assert outbox.last_v == 3
    assert store.reads == [], "in-order events need no database read"


async def test_a_gap_is_filled_from_the_database_before_the_later_version() -> None:
    store, socket = FakeStore(4), FakeSocket()
    outbox = outbox_for(store, socket)
    await outbox.hub_event(hub_message(store.events[0]))
    await outbox.hub_event(hub_message(store.events[3]))  # 2 and 3 were lost on the way
    await settle(outbox)
    assert socket.versions() == [1, 2, 3, 4]
    assert store.reads == [(1, 3)]
    await outbox.hub_event(hub_message(store.events[2]))  # the lost one arrives late: already sent
    await settle(outbox)
    assert socket.versions() == [1, 2, 3, 4]


async def test_the_backlog_drains_in_order_while_a_catch_up_holds_the_lock() -> None:
    store, socket = FakeStore(2), FakeSocket()
    outbox = outbox_for(store, socket)
    await outbox.hub_event(hub_message(store.events[0]))
    store.gate = asyncio.Event()
    catching_up = asyncio.create_task(outbox.catch_up(0))  # the client lost 1: `hello {v: 0}`
    await asyncio.sleep(0)
    assert outbox.lock.locked()
    # Delivered while the catch-up's read is under way: even the next version waits behind it.
    await outbox.hub_event(hub_message(store.events[1]))
    await outbox.hub_relay(json.dumps({"t": "chat", "d": {"text": "hi"}}))
    await outbox.hub_event(hub_message(store.add(stored(3))))
    await asyncio.sleep(0.01)
    assert socket.versions() == [1], "nothing may overtake the catch-up"
    store.gate.set()
    await catching_up
    await settle(outbox)
    assert socket.versions() == [1, 1, 2, "chat", 3]
    assert outbox.backlog == []


async def test_a_repeated_ack_is_answered_with_repeat_true() -> None:
    store, socket = FakeStore(3), FakeSocket()
    outbox = outbox_for(store, socket)
    for item in store.events[:2]:
        await outbox.hub_event(hub_message(item))
    await outbox.answer_repeat(store.events[1])
    assert socket.sent[-1] == {**store.events[1], "repeat": True}
    # The repeat of an event this socket has not had yet: it comes in order, as itself.
    await outbox.answer_repeat(store.events[2])
    assert socket.sent[-1] == store.events[2]
    assert socket.versions() == [1, 2, 2, 3]


async def test_a_socket_too_far_behind_gets_a_snapshot() -> None:
    store, socket = FakeStore(60, limit=50), FakeSocket()
    outbox = outbox_for(store, socket)
    await outbox.catch_up(0)
    assert [m["t"] for m in socket.sent] == ["snapshot"]
    assert outbox.last_v == 60
    await outbox.hub_event(hub_message(store.add(stored(61))))
    assert socket.versions() == [60, 61]
    # A gap too wide to fill from the events is filled with a snapshot too.
    store.events.extend(stored(v) for v in range(62, 130))
    await outbox.hub_event(hub_message(store.events[-1]))
    await settle(outbox)
    assert socket.versions() == [60, 61, 129]
    # A version the match never reached: a snapshot.
    await outbox.catch_up(500)
    assert socket.sent[-1]["t"] == "snapshot"


async def test_hello_resends_what_the_client_says_it_lacks() -> None:
    store, socket = FakeStore(3), FakeSocket()
    outbox = outbox_for(store, socket)
    for item in store.events:
        await outbox.hub_event(hub_message(item))
    await outbox.catch_up(1)
    assert socket.versions() == [1, 2, 3, 2, 3]
    await outbox.catch_up(3)
    assert socket.versions() == [1, 2, 3, 2, 3], "nothing missing: no reply"


async def test_a_beat_ahead_of_the_socket_fills_the_gap_first() -> None:
    store, socket = FakeStore(3), FakeSocket()
    outbox = outbox_for(store, socket)
    await outbox.hub_event(hub_message(store.events[0]))
    await outbox.hub_beat(1, '{"t":"beat","d":{"v":1}}')
    assert socket.versions() == [1, "beat"]
    await outbox.hub_beat(3, '{"t":"beat","d":{"v":3}}')  # 2 and 3 never came through the hub
    assert socket.versions() == [1, "beat"], "the beat waits its grace for the events first"
    await settle(outbox)
    assert socket.versions() == [1, "beat", 2, 3, "beat"]


async def test_the_beat_grace_lets_a_late_event_through_without_a_read() -> None:
    store, socket = FakeStore(2), FakeSocket()
    outbox = outbox_for(store, socket)
    await outbox.hub_event(hub_message(store.events[0]))
    await outbox.hub_beat(2, '{"t":"beat","d":{"v":2}}')
    for _ in range(3):  # the event is published a moment after the beat (well within the grace)
        await asyncio.sleep(0)
    await outbox.hub_event(hub_message(store.events[1]))
    await settle(outbox)
    assert socket.versions() == [1, 2, "beat"]
    assert store.reads == []


async def test_who_may_act_is_told_from_the_events_sent() -> None:
    store, socket = FakeStore(0), FakeSocket()
    told: list[list[str]] = []
    outbox = outbox_for(store, socket, told)
    await outbox.send_versioned({"t": "snapshot", "v": 0, "d": {"state": {"pending": [["alice", "shoot"]]}}})
    await outbox.hub_event(hub_message(store.add(stored(1, pending=["bob"]))))
    await outbox.hub_event(hub_message(store.add(stored(2))))  # says nothing about who acts
    await outbox.hub_event(hub_message(store.add({"t": "finished", "v": 3, "d": {}})))
    assert told == [["alice"], ["bob"], []]


async def test_cancel_stops_waiting_work() -> None:
    store, socket = FakeStore(3), FakeSocket()
    outbox = outbox_for(store, socket)
    outbox.beat_grace = 10.0
    await outbox.hub_beat(3, '{"t":"beat","d":{"v":3}}')
    assert outbox.tasks
    outbox.cancel()
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert not outbox.tasks
    assert socket.sent == []
