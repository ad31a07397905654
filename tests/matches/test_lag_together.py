"""The lag (K-3.1) is the one moment both players act together: two real sockets (Channels'
WebsocketCommunicator on the real MatchConsumer) lag at once, each against the version it saw, and
both strikes are played and judged; what a lag is still refused for (a second tab, a new round, a
repeated ack) stays refused.

Run twice by `make test`: SQLite with the in-memory layer, then PostgreSQL with the Redis layer.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async

from game.accounts.services import user_signup
from game.matches.services import match_create, match_join
from game.models import Match, Shot
from tests.support.play_support import (
    LAG_LOSING,
    LAG_WINNING,
    connect_communicator,
    fast_password_hasher,
    fresh_channel_layer_and_connections,
    next_ack,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
__all__ = ["fast_password_hasher", "fresh_channel_layer_and_connections"]  # autouse fixtures, imported to apply


@database_sync_to_async
def two_players() -> tuple[Any, Any, str]:
    """alice (seat 0) and bob (seat 1) in a started match (lag phase, version 1)."""
    suffix = str(time.monotonic_ns())[-6:]
    alice = user_signup(username=f"alice{suffix}", password="pw-alice-12345", display_name=f"alice{suffix}")
    bob = user_signup(username=f"bob{suffix}", password="pw-bob-12345", display_name=f"bob{suffix}")
    match, _ = match_create(user=alice, rated=False, time_limit=None, shot_clock=None)
    match_join(match_id=match.id, user=bob)
    return alice, bob, match.id


@database_sync_to_async
def stored(match_id: str) -> tuple[Match, list[dict[str, Any]]]:
    match = Match.objects.get(pk=match_id)
    return match, list(Shot.objects.filter(match=match).order_by("seq").values("kind", "player_id", "version"))


async def test_simultaneous_lags_both_count() -> None:
    """K-3.1: both lag within 20 ms, each against version 1 (neither has heard of the other's lag):
    both strikes are played, both are judged, and the lag is decided (seat 0's 92 mm beats 579 mm)."""
    alice_user, bob_user, match_id = await two_players()
    alice = await connect_communicator("alice", match_id, alice_user)
    bob = await connect_communicator("bob", match_id, bob_user)
    v = alice.v
    assert v == 1 and bob.v == 1
    names = [p["name"] for p in alice.state["players"]]

    started = time.monotonic()
    await asyncio.gather(
        alice.send("lag", {"strike": LAG_WINNING}, ack=next_ack(), v=v),
        bob.send("lag", {"strike": LAG_LOSING}, ack=next_ack(), v=v),
    )
    assert time.monotonic() - started < 0.02  # sent within 20 ms
    for p in (bob, alice):
        got = await p.until(lambda m: m.get("v") == v + 2 or m["t"] == "error")
        assert got["t"] != "error", got
    assert not [m for p in (alice, bob) for m in p.inbox if m["t"] == "error"]
    lags = [m for m in alice.versioned if m["t"] == "shot"]
    assert len(lags) == 2 and {m["d"]["player"] for m in lags} == set(names)
    assert not [m for p in (alice, bob) for m in p.inbox if m["t"] == "error"]
    # Each lag judged on its own (K-3.1); the second one decides it.
    judged = {m["d"]["player"]: m["d"]["verdict"]["lag"] for m in lags}
    assert judged[names[0]]["lost"] is False and judged[names[0]]["distance"] == pytest.approx(0.092, abs=0.005)
    assert judged[names[1]]["lost"] is False and judged[names[1]]["distance"] == pytest.approx(0.579, abs=0.005)
    assert lags[-1]["d"]["verdict"]["lag_winner"] == names[0]
    assert alice.state["phase"] == "choose_break"

    match, shots = await stored(match_id)
    assert match.version == v + 2
    assert [s["kind"] for s in shots] == ["lag", "lag"]
    assert {s["player_id"] for s in shots} == {alice_user.pk, bob_user.pk}
    for p in (alice, bob):
        await p.close()


async def test_a_late_lag_still_counts_but_a_second_one_does_not() -> None:
    """The other's strike in between does not make a lag stale; a second lag of the same player in the
    same round is refused (`stale`, or `already_lagged` when made after his first), a repeat of an
    answered ack is answered from the store, and a lag made before the decision is `stale`. Nothing is
    applied twice."""
    alice_user, bob_user, match_id = await two_players()
    alice = await connect_communicator("alice", match_id, alice_user)
    tab2 = await connect_communicator("alice-tab2", match_id, alice_user)
    bob = await connect_communicator("bob", match_id, bob_user)
    first_ack = next_ack()
    await alice.send("lag", {"strike": LAG_WINNING}, ack=first_ack, v=1)
    await alice.until_version(2)
    # Alice's second tab had not heard of her lag: what came since is her own strike, so it is stale.
    await tab2.send("lag", {"strike": LAG_WINNING}, ack=next_ack(), v=1)
    refused = await tab2.error()
    assert refused["d"]["code"] == "stale" and refused["d"]["message"]
    # Made at version 2 it is the engine's refusal: she has lagged in this round.
    await tab2.send("lag", {"strike": LAG_WINNING}, ack=next_ack(), v=2)
    assert (await tab2.error())["d"]["code"] == "already_lagged"
    # The same ack again: the stored event, never a second lag.
    await alice.send("lag", {"strike": LAG_WINNING}, ack=first_ack, v=1)
    repeat = await alice.until(lambda m: m.get("repeat") is True)
    assert repeat["v"] == 2
    # Bob lags against version 1, after alice's lag: it counts.
    await bob.send("lag", {"strike": LAG_LOSING}, ack=next_ack(), v=1)
    decided = await bob.until_version(3)
    assert decided["d"]["verdict"]["lag_winner"] == alice.state["players"][0]["name"]
    # After the decision a lag made at version 2 is stale, in words.
    await bob.send("lag", {"strike": LAG_LOSING}, ack=next_ack(), v=2)
    stale = await bob.error()
    assert stale["d"]["code"] == "stale"
    assert "version" not in stale["d"]["message"] and "hello" not in stale["d"]["message"]
    match, shots = await stored(match_id)
    assert match.version == 3 and [s["kind"] for s in shots] == ["lag", "lag"]
    for p in (alice, tab2, bob):
        await p.close()
