"""A crowd at one match, through the real consumer: visitors without an account connecting at
once share their snapshot reads (players and signed-in visitors keep their own), and their arrival
reaches the players as a count at most once a second."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest

from game.matches import consumer
from game.realtime import presence
from tests.matches.test_match_socket import two_players
from tests.support.play_support import (
    connect_communicator,
    fast_password_hasher,
    fresh_channel_layer_and_connections,
    play_opening,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
__all__ = ["fast_password_hasher", "fresh_channel_layer_and_connections"]  # autouse fixtures, imported to apply


def without_now(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A snapshot without the server's time of its read."""
    clock = {k: v for k, v in snapshot["d"]["clock"].items() if k != "now"}
    return {**snapshot, "d": {**snapshot["d"], "clock": clock}}


async def test_a_crowd_connecting_at_once_shares_its_snapshot_reads() -> None:
    alice_user, bob_user, match_id = await two_players()
    alice = await connect_communicator("alice", match_id, alice_user)
    bob = await connect_communicator("bob", match_id, bob_user)
    assert alice.state is not None and alice.v is not None
    shared = consumer.ANONYMOUS_SNAPSHOTS
    reads, requests = shared.reads, shared.requests

    crowd = await asyncio.gather(*(connect_communicator(f"w{i}", match_id, None) for i in range(12)))
    assert shared.requests - requests == 12
    assert shared.reads - reads < 12, "the crowd asking at once shared reads"
    # The same match for all; only the server's time of each read (the clock's `now`) may differ, as
    # the crowd's requests can meet more than one read.
    snapshots = [without_now(w.versioned[0]) for w in crowd]
    assert all(s == snapshots[0] for s in snapshots) and snapshots[0]["v"] == alice.v
    assert snapshots[0]["d"]["you"] == {"name": "", "role": "spectator", "seat": None}

    # The players' snapshots were their own (their names, their seats), not the shared one.
    assert alice.versioned[0]["d"]["you"]["role"] == "player" and bob.versioned[0]["d"]["you"]["seat"] == 1
    # A shared snapshot is no older than what was committed before the socket asked: after play has
    # moved the match on, a newcomer's snapshot is at the new version, and the crowd follows it live.
    v = await play_opening(alice, bob, tuple(crowd))
    late = await connect_communicator("late", match_id, None)
    assert late.versioned[0]["v"] == v
    for w in crowd:
        assert w.v == v
    for p in (alice, bob, late, *crowd):
        await p.close()


async def test_a_crowd_arriving_is_counted_at_most_once_a_second() -> None:
    """Spectators arriving over two seconds reach the players as a few `presence`
    messages at least `PRESENCE_DELAY` (1 s) apart, the last one counting them all, not one each."""
    alice_user, _bob_user, match_id = await two_players()
    alice = await connect_communicator("alice", match_id, alice_user)
    loop = asyncio.get_running_loop()
    seen: list[tuple[float, int]] = []

    async def read_presence() -> None:  # read as they come, so the times are the arrivals'
        while not seen or seen[-1][1] < 10:
            message = await alice.until(lambda m: m["t"] == "presence", timeout=15)
            seen.append((loop.time(), message["d"]["spectators"]))

    reader = asyncio.ensure_future(read_presence())
    crowd = []
    for i in range(10):
        crowd.append(await connect_communicator(f"w{i}", match_id, None))
        await asyncio.sleep(0.2)
    await asyncio.wait_for(reader, 15)
    counts = [n for _, n in seen]
    assert counts == sorted(counts) and counts[-1] == 10, seen
    assert len(seen) <= 4, f"10 arrivals over 2 s: one relay a second, not one each ({seen})"
    gaps = [b - a for (a, _), (b, _) in itertools.pairwise(seen)]
    assert all(gap >= presence.PRESENCE_DELAY * 0.9 for gap in gaps), gaps
    for p in (alice, *crowd):
        await p.close()
