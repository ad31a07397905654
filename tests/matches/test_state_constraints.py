"""Every `state` the server sends carries `constraints` for both seated players (the
engine's ``Match.constraints``), so the client can show what is allowed before the shot and never
re-implements a rule. Through the real consumer (Channels' WebsocketCommunicator), as a page gets them.

Run twice by `make test`: SQLite with the in-memory layer, then PostgreSQL with the Redis layer.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import AbstractBaseUser

from game.accounts.services import user_signup
from game.engine.rules import Match as EngineMatch
from game.matches.services import match_create, match_join
from game.models import Match
from tests.support.play_support import (
    BREAK_CUE,
    LAG_LOSING,
    LAG_WINNING,
    WHITE2_OPENING,
    Player,
    connect_communicator,
    fast_password_hasher,
    fresh_channel_layer_and_connections,
    next_ack,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
__all__ = ["fast_password_hasher", "fresh_channel_layer_and_connections"]  # autouse fixtures, imported to apply

FOOT_POCKETS = ("foot_left", "foot_right")
INTERNAL_IDS = ("red1", "red2", "white1", "white2", "foot_left", "foot_right", "middle_left", "middle_right")


@database_sync_to_async
def two_players() -> tuple[AbstractBaseUser, AbstractBaseUser, str, list[str]]:
    """alice (seat 0) and bob (seat 1) in a started match (lag phase, version 1), and their names."""
    suffix = str(time.monotonic_ns())[-6:]
    alice = user_signup(username=f"calice{suffix}", password="pw-alice-12345", display_name=f"calice{suffix}")
    bob = user_signup(username=f"cbob{suffix}", password="pw-bob-12345", display_name=f"cbob{suffix}")
    match, _ = match_create(user=alice, rated=False, time_limit=None, shot_clock=None)
    match_join(match_id=match.id, user=bob)
    names = [p["name"] for p in Match.objects.get(pk=match.id).snapshot["players"]]
    return alice, bob, match.id, names


@database_sync_to_async
def put_position(match_id: str, position: dict[str, Any]) -> int:
    """Test set-up only: replace the stored engine state (as an admin repair would), same version."""
    match = Match.objects.get(pk=match_id)
    match.snapshot = EngineMatch.from_snapshot(position).snapshot()
    match.save(update_fields=["snapshot"])
    return match.version


async def step(actor: Player, others: tuple[Player, ...], t: str, d: dict[str, Any]) -> dict[str, Any]:
    """Send one input at the actor's version; every socket receives the event it caused."""
    assert actor.v is not None
    v = actor.v
    await actor.send(t, d, ack=next_ack(), v=v)
    event = {}
    for p in (actor, *others):
        event = await p.until_version(v + 1)
    assert event["t"] != "error", event
    return event


def allowed(constraints: dict[str, Any], ball: str, pocket: str) -> bool:
    """Whether the plain call (no cushions, no kiss) of ``ball`` into ``pocket`` is allowed."""
    entry = constraints["calls"].get(ball)
    return entry is not None and [] in entry["pockets"][pocket]["ways"]


def words_only(text: str) -> None:
    """A reason a player reads: words, no internal ids."""
    assert text and not any(internal in text for internal in INTERNAL_IDS), text


async def test_the_state_carries_constraints_for_both_players_and_they_follow_the_match() -> None:
    alice_user, bob_user, match_id, (alice_name, bob_name) = await two_players()
    alice = await connect_communicator("alice", match_id, alice_user)
    bob = await connect_communicator("bob", match_id, bob_user)
    spectator = await connect_communicator("spectator", match_id, None)

    # The snapshot on connect: both players, the lag for each (K-3.1), no call, no placement yet.
    for p in (alice, bob, spectator):
        constraints = p.versioned[0]["d"]["state"]["constraints"]
        assert sorted(constraints) == sorted([alice_name, bob_name])
        for name in (alice_name, bob_name):
            assert constraints[name]["actions"] == ["lag", "resign"]
            assert constraints[name]["calls"] == {} and constraints[name]["placement"] is None
            assert constraints[name]["strike_limits"]["max_speed"] > 0

    await step(alice, (bob, spectator), "lag", {"strike": LAG_WINNING})
    lagged = await step(bob, (alice, spectator), "lag", {"strike": LAG_LOSING})
    assert lagged["d"]["state"]["constraints"][alice_name]["actions"] == ["choose_break", "resign"]
    assert lagged["d"]["state"]["constraints"][bob_name]["actions"] == ["resign"]

    # Alice breaks: bob places his white beyond the centre line, out of the corridors (K-3.3).
    chosen = await step(alice, (bob, spectator), "choose_break", {"take": True})
    placing = chosen["d"]["state"]["constraints"][bob_name]["placement"]
    assert placing["ball"] == "white2" and placing["region"]["kind"] == "opening"
    assert chosen["d"]["state"]["constraints"][alice_name]["placement"] is None

    # After bob's placement the constraints follow: his are done, alice's break from the home avoids his
    # white where it now stands (K-3.4: from hand in the home).
    placed = await step(
        bob, (alice, spectator), "place", {"ball": "white2", "x": WHITE2_OPENING[0], "y": WHITE2_OPENING[1]}
    )
    constraints = placed["d"]["state"]["constraints"]
    assert constraints[bob_name]["placement"] is None and constraints[bob_name]["calls"] == {}
    breaking = constraints[alice_name]
    assert breaking["actions"] == ["place", "resign"]
    assert breaking["placement"]["ball"] == "white1" and breaking["placement"]["region"]["kind"] == "home"
    assert breaking["placement"]["avoid"]["white2"] == pytest.approx(list(WHITE2_OPENING))

    # The opening shot (K-3.4): the kaisa or the red on the rear spot into a foot corner pocket, nothing
    # else; the red on the front spot may not be called into a foot pocket, and the reason is in words.
    state = placed["d"]["state"]
    front_red = next(b for b in ("red1", "red2") if state["balls"][b] == pytest.approx([0.71, 0.71]))
    rear_red = next(b for b in ("red1", "red2") if b != front_red)
    for pocket in FOOT_POCKETS:
        assert allowed(breaking, "kaisa", pocket) and allowed(breaking, rear_red, pocket)
        assert not allowed(breaking, front_red, pocket)
    assert front_red not in breaking["calls"]
    reason = breaking["not_callable"][front_red]
    words_only(reason)
    assert "opening shot" in reason and "(K-3.4)" in reason
    for pocket in ("middle_left", "middle_right", "home_left", "home_right"):
        for ball in ("kaisa", rear_red):
            refusal = breaking["calls"][ball]["pockets"][pocket]
            assert refusal["ways"] == [] and "(K-3.4)" in refusal["why"]
            words_only(refusal["why"])

    # Alice places her white: she may now shoot (and still move it); the calls stay those of the break.
    placed = await step(alice, (bob, spectator), "place", {"ball": "white1", "x": BREAK_CUE[0], "y": BREAK_CUE[1]})
    breaking = placed["d"]["state"]["constraints"][alice_name]
    assert breaking["actions"] == ["place", "shoot", "resign"]
    assert not allowed(breaking, front_red, "foot_left") and allowed(breaking, "kaisa", "foot_left")
    # Everyone got the same state, spectators too (they see what the player may do).
    assert alice.state == bob.state == spectator.state
    for p in (alice, bob, spectator):
        await p.close()


async def test_a_reconnecting_player_gets_the_constraints_of_a_ball_in_hand() -> None:
    """K-7.2 from hand: a red in the home may be attacked only off a cue-ball cushion; the snapshot a
    (re)connecting socket gets carries it, with the reason in words."""
    _alice_user, bob_user, match_id, (alice_name, bob_name) = await two_players()
    await put_position(
        match_id,
        {
            "phase": "play",
            "players": [
                {"name": alice_name, "cue_ball": "white1", "score": 12},
                {"name": bob_name, "cue_ball": "white2", "score": 7},
            ],
            "turn": 1,
            "balls": {
                "white1": [1.9, 0.3],
                "white2": None,
                "red1": [0.4, 0.3],
                "red2": [2.13, 0.71],
                "kaisa": [1.42, 0.71],
            },
        },
    )
    bob = await connect_communicator("bob", match_id, bob_user)
    constraints = bob.versioned[0]["d"]["state"]["constraints"]
    in_hand = constraints[bob_name]
    assert in_hand["actions"] == ["place", "resign"] and in_hand["placement"]["region"]["kind"] == "home"
    home_red = in_hand["calls"]["red1"]["pockets"]["foot_left"]
    assert home_red["ways"] == [["cue_cushions"]]
    words_only(home_red["why"])
    assert "home" in home_red["why"] and "(K-7.2)" in home_red["why"]
    assert allowed(in_hand, "kaisa", "foot_left")
    assert constraints[alice_name]["actions"] == ["resign"]
    await bob.close()
