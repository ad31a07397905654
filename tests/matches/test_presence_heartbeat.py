"""The process heartbeat keeps its sockets' rows alive even while the inputs' lane of the database pool
never empties (game.realtime.presence.heartbeat, game.common.db). A touch that waited for the pool to go idle could
wait past connection_stale_after() under a sustained load, and the input path would then read a live
player's seat as gone and start the disconnect grace.

The heartbeat runs for real against the database; the process's hub is a test double holding one
socket (what `heartbeat` reads of it: `members` and each member's `hub_beat`).
"""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import wait
from typing import Any

import pytest
from channels.db import database_sync_to_async

from game.accounts.services import user_signup
from game.common import db
from game.matches.services import match_create, match_join
from game.models import Match, MatchConnection
from game.realtime import fanout as realtime
from game.realtime import presence
from tests.support.play_support import fast_password_hasher, fresh_channel_layer_and_connections

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
__all__ = ["fast_password_hasher", "fresh_channel_layer_and_connections"]  # autouse fixtures, imported to apply

CHANNEL = "test.heartbeat.socket"


class Socket:
    channel_name = CHANNEL

    def __init__(self) -> None:
        self.beats: list[int] = []

    async def hub_beat(self, version: int, text: str) -> None:
        self.beats.append(version)


class Hub:
    def __init__(self, match_id: str, member: Socket) -> None:
        self.members: dict[str, dict[Any, None]] = {realtime.match_group(match_id): {member: None}}


@database_sync_to_async
def a_match_with_an_old_row() -> tuple[str, float]:
    user = user_signup(username=f"hb{time.monotonic_ns() % 10**6}", password="pw-heartbeat-123", display_name="")
    match, _ = match_create(user=user, rated=False, time_limit=None, shot_clock=None)
    old = time.time() - 25  # five seconds from stale
    MatchConnection.objects.create(match=match, channel_name=CHANNEL, user=user, seat=0, seen_at=old)
    return match.id, old


@database_sync_to_async
def seen_at() -> float:
    return MatchConnection.objects.get(channel_name=CHANNEL).seen_at


async def test_the_touch_is_not_starved_by_a_busy_inputs_lane(monkeypatch: pytest.MonkeyPatch) -> None:
    match_id, old = await a_match_with_an_old_row()
    monkeypatch.setattr(presence, "_beats", presence.TOUCH_EVERY - 1)  # the next beat touches the rows
    socket = Socket()
    lane = db.executor(db.PLAY)
    feeding = threading.Event()
    feeding.set()

    def feed() -> None:
        """Inputs arriving faster than the pool serves them, for up to 4 s: the lane never empties."""
        deadline = time.monotonic() + 4.0
        while feeding.is_set() and time.monotonic() < deadline:
            lane.submit(time.sleep, 0.02)
            time.sleep(0.01)

    feeder = threading.Thread(target=feed, name="test-feeder", daemon=True)
    feeder.start()
    try:
        await asyncio.sleep(0.2)
        started = time.monotonic()
        await asyncio.wait_for(presence.heartbeat(Hub(match_id, socket)), timeout=3.0)
        took = time.monotonic() - started
        assert feeder.is_alive(), "the lane emptied before the heartbeat ran: nothing was tested"
    finally:
        feeding.clear()
        feeder.join(timeout=10)
    assert await seen_at() > old + 20, "the socket's row was touched"
    assert socket.beats, "the socket got its beat"
    assert took < 2.0, took


PLAYER_CHANNEL = "test.heartbeat.player"


@database_sync_to_async
def a_started_match() -> tuple[str, Any]:
    """Both seats taken: the match has started and the disconnect grace runs for the absent creator."""
    suffix = time.monotonic_ns() % 10**6
    alice = user_signup(username=f"hba{suffix}", password="pw-heartbeat-123", display_name="")
    bob = user_signup(username=f"hbb{suffix}", password="pw-heartbeat-123", display_name="")
    match, _ = match_create(user=alice, rated=False, time_limit=None, shot_clock=None)
    match_join(match_id=match.id, user=bob)
    return match.id, alice


@database_sync_to_async
def player_row(match_id: str) -> tuple[int | None, int | None]:
    row = MatchConnection.objects.filter(channel_name=PLAYER_CHANNEL, match_id=match_id).first()
    return (None if row is None else row.seat), Match.objects.get(pk=match_id).grace_seat


async def test_a_players_row_is_written_ahead_of_a_burst_of_arrivals() -> None:
    """A player's socket opening is recorded before the snapshots of a burst of other sockets queued
    ahead of it (a restart's reconnections): behind them it waited longer than the disconnect grace,
    and matches whose players were online were aborted as abandoned."""
    match_id, alice = await a_started_match()
    assert (await player_row(match_id))[1] == 0, "the grace runs for the creator, not yet there"
    await presence.claim_process({})
    lane = db.executor(db.CONNECT)
    burst = [lane.submit(time.sleep, 0.02) for _ in range(300)]  # 6 s of snapshots for one thread
    try:
        started = time.monotonic()
        await asyncio.wait_for(
            presence.socket_opened(
                scope={},
                match_id=match_id,
                channel_name=PLAYER_CHANNEL,
                user=alice,
                player=True,
                closed=asyncio.Event(),
            ),
            timeout=10.0,
        )
        took = time.monotonic() - started
        burst_left = not all(future.done() for future in burst)
    finally:
        await asyncio.to_thread(wait, burst, 30)
    assert took < 1.5, f"the player's row waited {took:.1f} s behind the burst"
    assert burst_left, "the whole burst was served within that time: it tested nothing"
    assert await player_row(match_id) == (0, 1), "alice's row is there; the grace moved on to bob"
