"""A 2 vs 2 team match through the real MatchConsumer (Channels' WebsocketCommunicator): four
players and a spectator; only the member whose visit it is may act; a team-mate or an opponent who
tries gets an error code and nothing changes; everyone sees the same rotation.

Run twice by `make test`: SQLite with the in-memory layer, then PostgreSQL with the Redis layer.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from channels.db import database_sync_to_async

from game.accounts.services import user_signup
from game.matches.selectors.match_state import snapshot_hash
from game.matches.selectors.replays import match_replay_record, match_replay_steps, replay_run
from game.models import Match
from game.teams.services import team_match_join, team_match_open
from tests.support.play_support import (
    Player,
    connect_communicator,
    fast_password_hasher,
    fresh_channel_layer_and_connections,
    next_ack,
    play_opening,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
__all__ = ["fast_password_hasher", "fresh_channel_layer_and_connections"]  # autouse fixtures, imported to apply

#: A touch of the cue ball: it rolls a few millimetres and hits nothing, so the call is missed and
#: the visit ends (K-6.1) without a foul.
TOUCH = {"angle": 0.0, "speed": 0.05, "side": 0.0, "height": 0.0}


@database_sync_to_async
def team_match() -> tuple[dict[str, Any], str]:
    """ann opens a 2 vs 2; bob and ben join team 2, amy team 1: it starts (the lag phase)."""
    suffix = str(time.monotonic_ns())[-6:]
    users = {
        n: user_signup(username=f"{n}{suffix}", password=f"pw-{n}-12345", display_name=f"{n}{suffix}")
        for n in ("ann", "amy", "bob", "ben", "sam")
    }
    match = team_match_open(user=users["ann"], team_size=2)
    for name, team in (("bob", 1), ("amy", 0), ("ben", 1)):
        team_match_join(match_id=match.id, user=users[name], team=team)
    return users, match.id


@database_sync_to_async
def replayed(match_id: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The replay record run through the engine again, the stored snapshot, the replay page's steps."""
    match = Match.objects.get(pk=match_id)
    record = match_replay_record(match=match)
    return replay_run(record=record), match.snapshot, match_replay_steps(match=match)


@database_sync_to_async
def stored_version(match_id: str) -> int:
    return Match.objects.get(pk=match_id).version


def plain_call(state: dict[str, Any], name: str) -> dict[str, Any]:
    """A call the server allows for ``name`` now, read off the state's constraints (no rule here)."""
    for ball, options in state["constraints"][name]["calls"].items():
        for pocket, way in options["pockets"].items():
            if [] in way["ways"]:
                return {"ball": ball, "pocket": pocket, "object_cushions": 0, "cue_cushions": 0, "via": None}
    raise AssertionError(f"no plain call for {name}")


async def refused(
    who: Player, everyone: list[Player], match_id: str, t: str, d: dict[str, Any], code: str, with_ack: bool = True
) -> None:
    """``who`` sends an input that is not his to send: an error with ``code``, no new version."""
    version = await stored_version(match_id)
    await who.send(t, d, ack=next_ack() if with_ack else None, v=who.v)
    error = await who.error()
    assert error["d"]["code"] == code, error
    assert await stored_version(match_id) == version
    for p in everyone:
        assert p.v == version


async def at_table(everyone: list[Player], version: int) -> str:
    """The member whose visit it is, as every socket sees it (they must agree)."""
    seen = set()
    for p in everyone:
        await p.until_version(version)
        assert p.state is not None
        pending = p.state["pending"]
        seen.add((pending[0][0], tuple(p.state["at_table"])))
    assert len(seen) == 1, seen
    return seen.pop()[0]


@pytest.mark.asyncio
async def test_team_match_through_sockets() -> None:
    users, match_id = await team_match()
    names = {n: u.profile.display_name for n, u in users.items()}
    socks = {n: await connect_communicator(names[n], match_id, users[n]) for n in ("ann", "amy", "bob", "ben")}
    spectator = await connect_communicator("sam", match_id, users["sam"])
    everyone = [*socks.values(), spectator]
    try:
        ann, amy, bob, ben = socks["ann"], socks["amy"], socks["bob"], socks["ben"]
        for p in everyone:
            teams = p.versioned[0]["d"]["match"]["teams"]["teams"]
            assert [[m["name"] for m in t["members"]] for t in teams] == [
                [names["ann"], names["amy"]],
                [names["bob"], names["ben"]],
            ]
        assert [p.versioned[0]["d"]["you"]["name"] for p in (ann, amy)] == [names["ann"], names["amy"]]
        assert spectator.versioned[0]["d"]["you"]["role"] == "spectator"
        # Presence names every member (his team as the seat), all four here, one watching.
        presence = await spectator.until(
            lambda m: (
                m["t"] == "presence" and all(p["connected"] for p in m["d"]["players"]) and m["d"]["spectators"] == 1
            )
        )
        assert [(p["name"], p["seat"]) for p in presence["d"]["players"]] == [
            (names["ann"], 0),
            (names["amy"], 0),
            (names["bob"], 1),
            (names["ben"], 1),
        ]
        # K-3.1: the first players lag; amy (ann's team-mate) may not, nor may she aim.
        assert ann.pending() == [[names["ann"], "lag"], [names["bob"], "lag"]]
        await refused(amy, everyone, match_id, "lag", {"strike": TOUCH}, "not_your_visit")
        await refused(amy, everyone, match_id, "aim", TOUCH, "not_your_turn", with_ack=False)
        await refused(spectator, everyone, match_id, "lag", {"strike": TOUCH}, "spectator")
        v = await play_opening(ann, bob, spectators=(amy, ben, spectator))
        # ann potted on the break (team 1 scores 6): still her visit; amy and the Blues are refused.
        assert await at_table(everyone, v) == names["ann"]
        assert [p["score"] for p in spectator.state["players"]] == [6, 0]
        call = plain_call(ann.state, names["ann"])
        await refused(amy, everyone, match_id, "shoot", {"call": call, "strike": TOUCH}, "not_your_visit")
        await refused(ben, everyone, match_id, "shoot", {"call": call, "strike": TOUCH}, "not_your_visit")
        await refused(bob, everyone, match_id, "shoot", {"call": call, "strike": TOUCH}, "not_your_turn")
        assert amy.state["constraints"][names["amy"]]["actions"] == ["resign"]
        # Misses pass the table between the teams, each team's next visit going to its next member.
        rotation = []
        for _ in range(5):
            name = await at_table(everyone, v)
            rotation.append(name)
            me = next(p for p in socks.values() if p.name == name)
            await me.send("shoot", {"call": plain_call(me.state, name), "strike": TOUCH}, ack=next_ack(), v=v)
            v += 1
            for p in everyone:
                shot = await p.until_version(v)
            assert shot["t"] == "shot" and shot["d"]["verdict"]["turn_passes"], shot["d"]["verdict"]
        assert rotation == [names[n] for n in ("ann", "bob", "amy", "ben", "ann")]
        assert await at_table(everyone, v) == names["bob"]
        await refused(
            ben,
            everyone,
            match_id,
            "shoot",
            {"call": plain_call(bob.state, names["bob"]), "strike": TOUCH},
            "not_your_visit",
        )
        # Any member may resign for his team: the match ends for everyone, the other team winning.
        await ben.send("resign", {}, ack=next_ack(), v=v)
        for p in everyone:
            finished = await p.until(lambda m: m["t"] == "finished")
        assert finished["d"]["winner"] == f"{names['ann']} +1" and finished["d"]["rating_changes"] == []
        # The replay: the record reproduces the match; its steps name the member who played each one.
        again, stored, steps = await replayed(match_id)
        assert snapshot_hash(again) == snapshot_hash(stored) and stored["teams"][1] == [names["bob"], names["ben"]]
        shooters = [s["player"] for s in steps["steps"] if s["kind"] == "shoot"]
        assert shooters[-5:] == rotation and steps["teams"] == stored["teams"]
    finally:
        for p in everyone:
            await p.close()
