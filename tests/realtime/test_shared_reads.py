"""`game.realtime.shared_reads.SharedReads`: one read for the requests that come before it begins, a
read of their own for those that come after; nothing handed out once a read has ended."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from game.realtime import outbound
from game.realtime.shared_reads import SharedReads


class Store:
    """What the reads read: a version that moves, and the reads as they ran."""

    def __init__(self) -> None:
        self.version = 1
        self.began: list[int] = []
        self.gate = asyncio.Event()

    async def fetch(self, begun: Callable[[], None]) -> dict[str, int]:
        await asyncio.sleep(0)  # queued, as a database call is, before it runs
        begun()
        seen = self.version
        self.began.append(seen)
        await self.gate.wait()
        return outbound.SharedMessage({"v": seen})


async def test_requests_before_the_read_begins_share_it() -> None:
    store, shared = Store(), SharedReads[dict[str, int]]()
    waiting = [asyncio.ensure_future(shared.read("m1", store.fetch)) for _ in range(5)]
    await asyncio.sleep(0.01)
    store.gate.set()
    results = await asyncio.gather(*waiting)
    assert store.began == [1] and shared.reads == 1 and shared.requests == 5
    assert all(r is results[0] for r in results), "one message for all: encoded once"
    assert outbound.dumps(results[0]) is outbound.dumps(results[1])


async def test_a_request_after_the_read_began_reads_again_and_sees_what_changed() -> None:
    """A socket that joined its hub after the read began may have missed an event the read does not
    see: it is not given that read."""
    store, shared = Store(), SharedReads[dict[str, int]]()
    first = asyncio.ensure_future(shared.read("m1", store.fetch))
    await asyncio.sleep(0.01)  # the read has begun (at version 1)
    store.version = 2  # an event committed; the next socket joins the hub after it
    second = asyncio.ensure_future(shared.read("m1", store.fetch))
    await asyncio.sleep(0.01)
    store.gate.set()
    assert (await first)["v"] == 1 and (await second)["v"] == 2
    assert shared.reads == 2


async def test_an_ended_read_is_never_handed_out_again() -> None:
    store, shared = Store(), SharedReads[dict[str, int]]()
    store.gate.set()
    assert (await shared.read("m1", store.fetch))["v"] == 1
    store.version = 3
    assert (await shared.read("m1", store.fetch))["v"] == 3
    assert shared.reads == 2


async def test_keys_read_apart_and_a_failure_reaches_every_asker() -> None:
    shared = SharedReads[dict[str, int]]()
    calls: list[str] = []

    async def failing(begun: Callable[[], None]) -> dict[str, int]:
        begun()
        calls.append("fail")
        await asyncio.sleep(0.01)
        raise RuntimeError("database gone")

    async def fine(begun: Callable[[], None]) -> dict[str, int]:
        begun()
        calls.append("fine")
        return {"v": 7}

    asks = [asyncio.ensure_future(shared.read("m1", failing)) for _ in range(3)]
    other = asyncio.ensure_future(shared.read("m2", fine))
    results = await asyncio.gather(*asks, other, return_exceptions=True)
    assert [type(r) for r in results[:3]] == [RuntimeError] * 3 and results[3] == {"v": 7}
    assert sorted(calls) == ["fail", "fine"]


async def test_an_asker_that_goes_away_does_not_cancel_the_others() -> None:
    store, shared = Store(), SharedReads[dict[str, int]]()
    leaving = asyncio.ensure_future(shared.read("m1", store.fetch))
    staying = asyncio.ensure_future(shared.read("m1", store.fetch))
    await asyncio.sleep(0.01)
    leaving.cancel()
    with pytest.raises(asyncio.CancelledError):
        await leaving
    store.gate.set()
    assert (await staying)["v"] == 1
