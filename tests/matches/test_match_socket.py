"""MatchConsumer through Channels' WebsocketCommunicator: a whole match with a spectator, exactly-once
inputs (acks, two tabs), catch-up, aim relay, presence, the shot clock and the disconnect grace.

Run twice by `make test`: SQLite with the in-memory layer, then PostgreSQL with the Redis layer.
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import AbstractBaseUser

from game.accounts.services import user_signup
from game.engine.rules import Match as EngineMatch
from game.matches.selectors.match_state import snapshot_hash
from game.matches.services import match_create, match_join
from game.models import Match, MatchEvent, Shot
from tests.support.community_factories import establish
from tests.support.play_support import (
    BREAK_CALL,
    LAG_WINNING,
    connect_communicator,
    fast_password_hasher,
    fresh_channel_layer_and_connections,
    near_end_snapshot,
    near_end_strike,
    next_ack,
    play_opening,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
__all__ = ["fast_password_hasher", "fresh_channel_layer_and_connections"]  # autouse fixtures, imported to apply


@database_sync_to_async
def two_players(**options: Any) -> tuple[AbstractBaseUser, AbstractBaseUser, str]:
    """alice (seat 0) and bob (seat 1) in a started match (lag phase, version 1)."""
    suffix = str(time.monotonic_ns())[-6:]
    alice = user_signup(username=f"alice{suffix}", password="pw-alice-12345", display_name=f"alice{suffix}")
    bob = user_signup(username=f"bob{suffix}", password="pw-bob-12345", display_name=f"bob{suffix}")
    if options.get("rated"):
        establish(alice, bob)  # accounts whose rated results count (game/ratings/rules.py)
    match, _ = match_create(
        user=alice, rated=options.get("rated", False), time_limit=None, shot_clock=options.get("shot_clock")
    )
    match_join(match_id=match.id, user=bob)
    return alice, bob, match.id


@database_sync_to_async
def put_position(match_id: str, position: dict[str, Any]) -> int:
    """Test set-up only: replace the stored engine state (as an admin repair would), same version."""
    match = Match.objects.get(pk=match_id)
    match.snapshot = EngineMatch.from_snapshot(position).snapshot()
    if match.shot_clock:  # the position is after the break: its shot clock runs from now
        match.shot_deadline = time.time() + match.shot_clock
    match.save(update_fields=["snapshot", "shot_deadline"])
    return match.version


@database_sync_to_async
def stored(match_id: str) -> dict[str, Any]:
    match = Match.objects.get(pk=match_id)
    return {
        "match": match,
        "shots": list(Shot.objects.filter(match=match).order_by("seq").values()),
        "events": list(MatchEvent.objects.filter(match=match).order_by("version").values("version", "type")),
        "hash": snapshot_hash(match.snapshot),
    }


@database_sync_to_async
def names_of(match_id: str) -> list[str]:
    return [p["name"] for p in Match.objects.get(pk=match_id).snapshot["players"]]


async def test_a_whole_match_two_players_and_a_spectator() -> None:
    alice_user, bob_user, match_id = await two_players(rated=True)
    alice = await connect_communicator("alice", match_id, alice_user)
    bob = await connect_communicator("bob", match_id, bob_user)
    spectator = await connect_communicator("spectator", match_id, None)
    assert spectator.versioned[0]["d"]["you"]["role"] == "spectator"
    assert alice.versioned[0]["d"]["state"]["phase"] == "lag"

    v = await play_opening(alice, bob, (spectator,))
    assert alice.state["pending"] == [[alice.state["players"][0]["name"], "shoot"]]

    # A real miss: the turn passes to bob.
    miss = {"angle": 1.5707963, "speed": 0.8, "side": 0.0, "height": 0.0}
    call = {"ball": "red2", "pocket": "foot_right"}
    await alice.send("shoot", {"call": call, "strike": miss}, ack=next_ack(), v=v)
    v += 1
    for p in (alice, bob, spectator):
        shot = await p.until_version(v)
    assert shot["d"]["verdict"]["scored"] is False and shot["d"]["verdict"]["turn_passes"] is True
    assert bob.pending() == [[bob.state["players"][1]["name"], "shoot"]]

    # The end: a near-end position, then a real pot that reaches 60.
    names = await names_of(match_id)
    await put_position(match_id, near_end_snapshot(names))
    await alice.send("shoot", {"call": BREAK_CALL, "strike": near_end_strike()}, ack=next_ack(), v=v)
    for p in (alice, bob, spectator):
        shot = await p.until_version(v + 1)
        finished = await p.until_version(v + 2)
    assert shot["t"] == "shot" and shot["d"]["verdict"]["scores"][0] >= 60
    assert finished["t"] == "finished" and finished["d"]["winner"] == names[0]
    assert finished["d"]["state"]["phase"] == "finished"
    assert [c["player"] for c in finished["d"]["rating_changes"]] == names
    # Everyone saw the same versioned history after their snapshot.
    histories = [[(m["v"], m["t"]) for m in p.versioned[1:]] for p in (alice, bob, spectator)]
    assert histories[0] == histories[1] == histories[2]

    rows = await stored(match_id)
    assert rows["match"].status == Match.Status.FINISHED and rows["match"].winner_id == alice_user.pk
    assert [s["kind"] for s in rows["shots"]] == [
        "lag",
        "lag",
        "choose_break",
        "place",
        "place",
        "shoot",
        "shoot",
        "shoot",
    ]
    assert [e["version"] for e in rows["events"]] == list(range(1, v + 3))
    assert rows["shots"][-1]["snapshot_hash"] == rows["hash"]
    assert all(s["ack"] is not None for s in rows["shots"])
    for p in (alice, bob, spectator):
        await p.close()


async def in_play_position() -> tuple[Any, Any, str, int, dict[str, Any]]:
    alice_user, bob_user, match_id = await two_players()
    names = await names_of(match_id)
    v = await put_position(match_id, near_end_snapshot(names, shooter_score=10, other_score=10))
    return alice_user, bob_user, match_id, v, {"call": BREAK_CALL, "strike": near_end_strike()}


async def test_two_tabs_shooting_at_once_apply_exactly_one_shot() -> None:
    alice_user, _bob_user, match_id, v, shot = await in_play_position()
    tab1 = await connect_communicator("tab1", match_id, alice_user)
    tab2 = await connect_communicator("tab2", match_id, alice_user)
    await asyncio.gather(
        tab1.send("shoot", shot, ack=next_ack(), v=v),
        tab2.send("shoot", shot, ack=next_ack(), v=v),
    )
    first = await tab1.until(lambda m: m["t"] in ("shot", "error"))
    second = await tab2.until(lambda m: m["t"] in ("shot", "error"))
    kinds = sorted([first["t"], second["t"]])
    outcomes = [first, second]
    # One tab sees its shot applied; the other is refused as stale (and still sees the shot).
    errors = [m for m in outcomes if m["t"] == "error"]
    if kinds == ["shot", "shot"]:
        # The shot can reach both tabs before the refused one's error (the process's hub delivers
        # while a socket's handler still waits for the database): collect what follows, without a
        # timed-out receive (which would cancel the communicator's application).
        later = [m for tab in (tab1, tab2) for m in await tab.drain(0.5)]
        errors = [m for m in later if m["t"] == "error"]
    assert len(errors) == 1 and errors[0]["d"]["code"] == "stale"
    rows = await stored(match_id)
    assert [s["kind"] for s in rows["shots"]] == ["shoot"]
    assert rows["match"].version == v + 1
    for tab in (tab1, tab2):
        await tab.close()


async def test_a_repeated_ack_is_answered_never_applied_twice() -> None:
    alice_user, _bob_user, match_id, v, shot = await in_play_position()
    alice = await connect_communicator("alice", match_id, alice_user)
    ack = next_ack()
    await alice.send("shoot", shot, ack=ack, v=v)
    applied = await alice.until(lambda m: m["t"] == "shot")
    assert applied["d"]["ack"] == ack
    # The same input again (a resend after a lost answer, with the version it was made against).
    await alice.send("shoot", shot, ack=ack, v=v)
    answer = await alice.until(lambda m: m["t"] == "shot" and m is not applied)
    assert answer == {**applied, "repeat": True}
    # From another tab too: the ack is per player and match, not per socket.
    tab = await connect_communicator("tab", match_id, alice_user)
    await tab.send("shoot", shot, ack=ack, v=v)
    again = await tab.until(lambda m: m["t"] == "shot")
    assert again["v"] == applied["v"] and again["d"]["ack"] == ack and again["repeat"] is True
    rows = await stored(match_id)
    assert len(rows["shots"]) == 1 and rows["match"].version == applied["v"]
    for p in (alice, tab):
        await p.close()


@database_sync_to_async
def store_foreign_input(match_id: str, user: AbstractBaseUser) -> None:
    """What another process would have stored had it broken the row lock: an input at the version the
    next one will take (the unique (match, version) constraint)."""
    match = Match.objects.get(pk=match_id)
    Shot.objects.create(
        match=match,
        seq=900,
        version=match.version + 1,
        player=user,
        player_name="x",
        kind="shoot",
        ack=None,
        input={},
        snapshot_hash="",
    )


async def test_an_input_clashing_with_a_stored_one_is_refused_and_changes_nothing() -> None:
    """An IntegrityError inside the input's transaction (no savepoint: two round trips per input)
    rolls back the whole input: the client hears `duplicate`, the match and its events are as before."""
    alice_user, _bob_user, match_id, v, shot = await in_play_position()
    await store_foreign_input(match_id, alice_user)
    before = await stored(match_id)
    alice = await connect_communicator("alice", match_id, alice_user)
    ack = next_ack()
    await alice.send("shoot", shot, ack=ack, v=v)
    error = await alice.until(lambda m: m["t"] == "error")
    assert error["d"]["code"] == "duplicate" and error["d"]["ack"] == ack
    after = await stored(match_id)
    assert after["hash"] == before["hash"] and after["events"] == before["events"]
    assert after["match"].version == before["match"].version == v
    assert [row["seq"] for row in after["shots"]] == [row["seq"] for row in before["shots"]]
    await alice.close()


@database_sync_to_async
def shoot_watching_statements(match_id: str, user: Any, shot: dict[str, Any], v: int) -> list[str]:
    """Play `shot` through the service the consumer calls; returns the statements sent, each one's
    writes named by their first three words (`INSERT INTO game_shot`), a `WITH` statement's parts in
    the order written, joined by " + "; a read by its first word."""
    from django.db import connection

    from game.matches.services import match_input
    from tests.support import inputs

    seen: list[str] = []

    def watch(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        text = sql.replace('"', "")
        writes = re.findall(r"\b(?:INSERT INTO \w+|UPDATE \w+ SET)", text)
        seen.append(" + ".join(writes) if writes else text.split()[0])
        return execute(sql, params, many, context)

    with connection.execute_wrapper(watch):
        match_input(match_id=match_id, user=user, message=inputs.shoot(**shot, ack=next_ack(), v=v))
    return seen


async def test_an_input_stores_its_writes_in_one_statement_on_postgresql() -> None:
    """On PostgreSQL a shot's event, the match row's columns and its Shot row are one statement after
    the locking read (`rows.batched_writes`: one `WITH` statement, one round trip); on SQLite three, one
    by one. Either way the input is stored whole: the event, the version and the Shot row."""
    from django.db import connection

    alice_user, _bob_user, match_id, v, shot = await in_play_position()
    before = await stored(match_id)
    seen = await shoot_watching_statements(match_id, alice_user, shot, v)
    writes = [statement for statement in seen if "INSERT" in statement or "UPDATE" in statement]
    assert "SELECT" in seen and seen.index("SELECT") < seen.index(writes[0]), "the locking read comes first"
    parts = ["INSERT INTO game_matchevent", "UPDATE game_match SET", "INSERT INTO game_shot"]
    if connection.vendor == "postgresql":
        assert writes == [" + ".join(parts)], seen
    else:
        assert writes == parts, seen
    after = await stored(match_id)
    assert after["match"].version == v + 1 and [e["version"] for e in after["events"]][-1] == v + 1
    assert len(after["shots"]) == len(before["shots"]) + 1 and after["shots"][-1]["version"] == v + 1
    assert after["shots"][-1]["snapshot_hash"] == after["hash"] != before["hash"]


@database_sync_to_async
def two_shots_seeing_prepared(match_id: str, user: Any, shot: dict[str, Any], v: int) -> list[list[str]]:
    """The same player's shot twice from the same position (set back between them, as an admin repair
    would), on one connection; after each, the statements PostgreSQL holds prepared there (first words)."""
    from django.db import connection

    from game.matches.services import match_input
    from tests.support import inputs

    def named(sql: str) -> str:  # the writes by their first three words; the locking read by its lock
        words = sql.replace('"', "").split()
        return (
            "SELECT ... FOR UPDATE" if words[0] == "SELECT" and words[-2:] == ["FOR", "UPDATE"] else " ".join(words[:4])
        )

    def held() -> list[str]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement FROM pg_prepared_statements")
            return sorted(named(row[0]) for row in cursor.fetchall())

    seen = []
    position = Match.objects.get(pk=match_id).snapshot
    for _ in range(2):
        match_input(match_id=match_id, user=user, message=inputs.shoot(**shot, ack=next_ack(), v=v))
        seen.append(held() if connection.vendor == "postgresql" else [])
        Match.objects.filter(pk=match_id).update(snapshot=position)
        v += 1
    return seen


async def test_the_input_paths_statements_are_prepared_once_per_connection_on_postgresql() -> None:
    """On PostgreSQL the input path's own statements (`rows`: the locking read, and the one statement of
    its writes: the event, the match's columns, the Shot row) are prepared on the connection the first
    time they run there, and the next input reuses them instead of parsing and planning them again
    (docs/decisions/input-writes-in-one-statement.md); Django's own queries stay unprepared. Both shots are
    stored whole (on SQLite too, with nothing held)."""
    from django.db import connection

    alice_user, _bob_user, match_id, v, shot = await in_play_position()
    before = await stored(match_id)
    first, second = await two_shots_seeing_prepared(match_id, alice_user, shot, v)
    after = await stored(match_id)
    assert after["match"].version == v + 2 and len(after["shots"]) == len(before["shots"]) + 2
    assert [e["version"] for e in after["events"]][-2:] == [v + 1, v + 2]
    if connection.vendor == "postgresql":
        # (the writes may be held twice: once per set of their parameters' types; a pooled connection
        # may also hold single writes of earlier work, such as the end of a match, which is saved apart)
        assert {"SELECT ... FOR UPDATE", "WITH w0 AS (INSERT"} <= set(first), first
        assert second == first, "prepared again instead of reused"
    else:
        assert first == second == []


async def test_hello_catches_up_missed_events_and_resyncs_when_far_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    alice_user, bob_user, match_id = await two_players()
    alice = await connect_communicator("alice", match_id, alice_user)
    bob = await connect_communicator("bob", match_id, bob_user)
    late = await connect_communicator("late", match_id, None)
    v = await play_opening(alice, bob)
    # `late` has been receiving too; pretend it lost everything after version 2 and ask again.
    await late.until_version(v)
    events = []
    await late.hello(2)
    for _ in range(v - 2):
        events.append(await late.until(lambda m: "v" in m))
    assert [m["v"] for m in events] == list(range(3, v + 1))
    assert [m["t"] for m in events] == ["shot", "choice", "placed", "placed", "shot"]

    from game.matches.selectors import matches as selectors

    monkeypatch.setattr(selectors, "CATCH_UP_MAX_EVENTS", 2)
    await late.hello(1)
    snapshot = await late.until(lambda m: m["t"] == "snapshot")
    assert snapshot["v"] == v and snapshot["d"]["state"]["players"][0]["score"] == 6
    await late.hello(10_000)
    assert (await late.until(lambda m: m["t"] == "snapshot"))["v"] == v
    for p in (alice, bob, late):
        await p.close()


async def test_aim_is_relayed_to_the_others_at_most_20_per_second() -> None:
    alice_user, bob_user, match_id, _v, _shot = await in_play_position()
    alice = await connect_communicator("alice", match_id, alice_user)
    bob = await connect_communicator("bob", match_id, bob_user)
    spectator = await connect_communicator("spectator", match_id, None)
    started = time.monotonic()
    sent = 40
    for i in range(sent):
        await alice.send("aim", {"angle": i / 100, "speed": 1.0, "side": 0.0, "height": 0.0})
        await asyncio.sleep(0.005)
    await asyncio.sleep(0.2)
    elapsed = time.monotonic() - started
    for watcher in (bob, spectator):
        aims = [m for m in await watcher.drain() if m["t"] == "aim"]
        assert 2 <= len(aims) <= elapsed / 0.05 + 2, len(aims)
        assert aims[-1]["d"]["angle"] == pytest.approx((sent - 1) / 100)
        assert aims[-1]["d"]["player"] == alice.state["players"][0]["name"]
    # The aimer gets none back; the player who may not act is refused.
    assert not [m for m in await alice.drain() if m["t"] == "aim"]
    await bob.send("aim", {"angle": 0.0, "speed": 1.0})
    assert (await bob.error())["d"]["code"] == "not_your_turn"
    await spectator.send("aim", {"angle": 0.0, "speed": 1.0})
    assert (await spectator.error())["d"]["code"] == "spectator"
    for p in (alice, bob, spectator):
        await p.close()


async def test_spectators_get_the_aim_at_most_10_per_second_and_the_last_one_always() -> None:
    """The players' relay is 20 a second; each process thins it to 10 for its spectators (game.realtime.hub),
    holding an aim that comes too soon until the interval ends, so the sweep's last aim still arrives."""
    alice_user, bob_user, match_id, _v, _shot = await in_play_position()
    alice = await connect_communicator("alice", match_id, alice_user)
    bob = await connect_communicator("bob", match_id, bob_user)
    spectator = await connect_communicator("spectator", match_id, None)
    sent = 80  # 8 ms apart: within the aim bucket (MatchConsumer.aim_limit), so none is refused
    for i in range(sent):
        await alice.send("aim", {"angle": i / 100, "speed": 1.0, "side": 0.0, "height": 0.0})
        await asyncio.sleep(0.008)
    assert not [m for m in await alice.drain(0.05) if m["t"] == "error"]
    last = (sent - 1) / 100

    async def aims_until_the_last(watcher: Any) -> list[dict[str, Any]]:
        # Read until the sweep's last aim (a loaded host may hold it past a fixed quiet time), then
        # whatever follows it: nothing may come after the last.
        aims, deadline = [], time.monotonic() + 15.0  # beats keep coming: bound the wait, not each read
        while not aims or aims[-1]["d"]["angle"] != pytest.approx(last):
            assert time.monotonic() < deadline, f"the sweep's last aim never came: {aims[-3:]}"
            message = await watcher.recv(10.0)
            if message["t"] == "aim":
                aims.append(message)
        return aims + [m for m in await watcher.drain() if m["t"] == "aim"]

    bob_aims = await aims_until_the_last(bob)
    seen_aims = await aims_until_the_last(spectator)
    # The timing itself is asserted on the hub alone (test_hub_spectator_aims.py); here, end to end:
    # fewer for the spectator, each one the player had too, the last one for both.
    assert 2 <= len(seen_aims) < len(bob_aims), (len(seen_aims), len(bob_aims))
    assert {m["d"]["angle"] for m in seen_aims} <= {m["d"]["angle"] for m in bob_aims}
    for aims in (bob_aims, seen_aims):
        assert aims[-1]["d"]["angle"] == pytest.approx((sent - 1) / 100)
    for p in (alice, bob, spectator):
        await p.close()


async def test_an_aim_held_for_spectators_never_arrives_after_the_shot() -> None:
    """A shot ends the aiming: an aim the hub still holds for the spectators is dropped, not drawn
    after the shot has begun."""
    alice_user, _bob_user, match_id, v, shot = await in_play_position()
    alice = await connect_communicator("alice", match_id, alice_user)
    spectator = await connect_communicator("spectator", match_id, None)
    await alice.send("aim", {"angle": 0.1, "speed": 1.0, "side": 0.0, "height": 0.0})
    await asyncio.sleep(0.06)  # past the players' 50 ms, within the spectators' 100 ms: held
    await alice.send("aim", {"angle": 0.2, "speed": 1.0, "side": 0.0, "height": 0.0})
    await alice.send("shoot", shot, ack=next_ack(), v=v)
    await spectator.until(lambda m: m["t"] == "shot")
    later = await spectator.drain(0.3)
    assert not [m for m in later if m["t"] == "aim"], later
    for p in (alice, spectator):
        await p.close()


async def test_presence_counts_players_and_spectators() -> None:
    alice_user, bob_user, match_id = await two_players()
    alice = await connect_communicator("alice", match_id, alice_user)
    watchers = [await connect_communicator(f"w{i}", match_id, None) for i in range(2)]
    presence = await alice.until(lambda m: m["t"] == "presence" and m["d"]["spectators"] == 2)
    assert [p["connected"] for p in presence["d"]["players"]] == [True, False]
    bob = await connect_communicator("bob", match_id, bob_user)
    presence = await alice.until(lambda m: m["t"] == "presence" and m["d"]["players"][1]["connected"])
    assert presence["d"]["spectators"] == 2
    await watchers[0].close()
    presence = await alice.until(lambda m: m["t"] == "presence" and m["d"]["spectators"] == 1)
    for p in (alice, bob, watchers[1]):
        await p.close()


@database_sync_to_async
def expire(match_id: str, field: str) -> None:
    Match.objects.filter(pk=match_id).update(**{field: time.time() - 1})


async def test_claim_timeout_fires_an_owed_shot_clock_only() -> None:
    """A claim only fires a deadline that is owed (the server's clock would fire it anyway): an expired
    shot clock passes the visit (it no longer loses the match); before it, `not_owed`."""
    alice_user, bob_user, match_id = await two_players(shot_clock=30)
    names = await names_of(match_id)
    await put_position(match_id, near_end_snapshot(names, shooter_score=10, other_score=10))
    alice = await connect_communicator("alice", match_id, alice_user)
    bob = await connect_communicator("bob", match_id, bob_user)
    assert alice.versioned[0]["d"]["clock"]["shot_deadline"] > time.time() + 20
    before = await stored(match_id)
    await bob.send("claim_timeout", ack=next_ack())
    assert (await bob.error())["d"]["code"] == "not_owed"
    await alice.send("claim_timeout", ack=next_ack())
    assert (await alice.error())["d"]["code"] == "not_owed"
    after = await stored(match_id)
    assert (after["hash"], after["match"].version) == (before["hash"], before["match"].version)
    await expire(match_id, "shot_deadline")
    await bob.send("claim_timeout", ack=next_ack())
    timeout = await alice.until(lambda m: m["t"] == "timeout")
    assert timeout["d"]["player"] == names[0] and timeout["d"]["count"] == 1
    assert timeout["d"]["state"]["pending"] == [[names[1], "shoot"]]
    rows = await stored(match_id)
    assert rows["match"].status == Match.Status.ACTIVE and rows["shots"][-1]["kind"] == "timeout"
    for p in (alice, bob):
        await p.close()


async def test_disconnect_grace_then_claim() -> None:
    alice_user, bob_user, match_id = await two_players()
    names = await names_of(match_id)
    await put_position(match_id, near_end_snapshot(names, shooter_score=10, other_score=10))  # after the break
    alice = await connect_communicator("alice", match_id, alice_user)
    bob = await connect_communicator("bob", match_id, bob_user)
    await alice.until(lambda m: m["t"] == "clock" and m["d"]["grace_player"] is None)
    await bob.close()
    clock = await alice.until(lambda m: m["t"] == "clock" and m["d"]["grace_player"] == names[1])
    assert clock["d"]["grace_deadline"] > time.time() + 30
    await alice.send("claim_timeout", ack=next_ack())
    assert (await alice.error())["d"]["code"] == "not_owed"
    # bob comes back in time: the grace stops.
    bob = await connect_communicator("bob", match_id, bob_user)
    await alice.until(lambda m: m["t"] == "clock" and m["d"]["grace_player"] is None)
    await bob.close()
    # The relayed clock is a courtesy; the snapshot a client can always ask for must carry it.
    await alice.hello(10**6)
    snapshot = await alice.until(lambda m: m["t"] == "snapshot")
    assert snapshot["d"]["clock"]["grace_player"] == names[1]
    await expire(match_id, "grace_deadline")
    await alice.send("claim_timeout", ack=next_ack())
    finished = await alice.until(lambda m: m["t"] == "finished")
    assert finished["d"]["winner"] == names[0] and "left" in finished["d"]["reason"]
    assert finished["d"]["result"]["how"] == "abandoned"
    assert finished["d"]["result"]["text"] == f"{names[0]} won: {names[1]} left the match"
    await alice.close()


async def test_spectators_cannot_play_and_bad_frames_are_answered(monkeypatch: pytest.MonkeyPatch) -> None:
    _alice_user, bob_user, match_id, v, shot = await in_play_position()
    spectator = await connect_communicator("spectator", match_id, None)
    await spectator.send("shoot", shot, ack=7, v=v)
    error = await spectator.error()
    assert error["d"] == {"code": "spectator", "message": error["d"]["message"], "ack": 7}
    await spectator.send_raw("x" * 5000)
    assert (await spectator.error())["d"]["code"] == "too_large"
    bob = await connect_communicator("bob", match_id, bob_user)
    await bob.send("shoot", shot, ack=8, v=v)
    assert (await bob.error())["d"] == {
        "code": "not_your_turn",
        "message": f"it is {(await names_of(match_id))[0]}'s turn",
        "ack": 8,
    }
    await bob.send("shoot", shot, ack=9, v=v - 1)
    assert (await bob.error())["d"]["code"] == "stale"
    rows = await stored(match_id)
    assert rows["shots"] == [] and rows["match"].version == v
    for p in (spectator, bob):
        await p.close()


async def test_rate_limits_answer_then_close_a_flood() -> None:
    alice_user, _bob, match_id = await two_players()
    spectator = await connect_communicator("spectator", match_id, None)
    for _ in range(12):
        await spectator.send("ping")
    replies = [await spectator.until(lambda m: m["t"] in ("pong", "error")) for _ in range(12)]
    assert [m["t"] for m in replies].count("pong") <= 9
    assert any(m["t"] == "error" and m["d"]["code"] == "rate_limited" for m in replies)
    for _ in range(80):
        await spectator.send("ping")
    flood = await spectator.until(lambda m: m["t"] == "error" and m["d"]["code"] == "flood")
    assert flood
    player = await connect_communicator("alice", match_id, alice_user)
    for _ in range(15):
        await player.send("ping")
    replies = [await player.until(lambda m: m["t"] in ("pong", "error")) for _ in range(15)]
    assert all(m["t"] == "pong" for m in replies)  # players have more room than spectators
    await player.close()


async def test_unknown_match_is_refused() -> None:
    from tests.support.play_support import communicator_player

    communicator, player = communicator_player("nobody", "nosuchmatch", None)
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    error = await player.error()
    assert error["d"]["code"] == "not_found"
    closed = await communicator.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4404}
    await communicator.wait()


async def test_a_late_joiner_gets_the_shot_in_progress() -> None:
    """A spectator who connects while the balls roll gets the shot with its start time."""
    alice_user, bob_user, match_id = await two_players()
    alice = await connect_communicator("alice", match_id, alice_user)
    bob = await connect_communicator("bob", match_id, bob_user)
    v = await play_opening(alice, bob)
    shot = next(m for m in alice.versioned if m["v"] == v)
    assert shot["t"] == "shot"
    before = time.time()
    late = await connect_communicator("late", match_id, None)
    snapshot = next(m for m in late.inbox if m["t"] == "snapshot")
    last = snapshot["d"]["last_shot"]
    assert last["segments"] == shot["d"]["segments"]
    assert last["player"] == shot["d"]["player"]
    assert before - 30 < last["started_at"] <= time.time()
    for p in (alice, bob, late):
        await p.close()


async def test_the_heartbeat_skips_sockets_that_heard_from_us_since_the_last_beat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A beat goes to a socket that was sent nothing, or a frame or two, since the last beat (an idle
    spectator) and to one behind; a socket in a stream (the aims of a player lining up) that has every
    version has nothing to learn from it, and its client hears from us all the time, so its beat is
    skipped (at 200 matches the beats were one frame in fourteen)."""
    from channels.layers import get_channel_layer

    from game.matches.services import match_input
    from game.realtime import hub, presence
    from tests.support import inputs

    monkeypatch.setattr(hub, "BEAT_INTERVAL", 3600.0)  # only the beats this test runs
    alice_user, bob_user, match_id = await two_players()
    alice = await connect_communicator("alice", match_id, alice_user)
    bob = await connect_communicator("bob", match_id, bob_user)
    spectator = await connect_communicator("spectator", match_id, None)
    everyone = (alice, bob, spectator)
    process_hub = hub.current(get_channel_layer())
    assert process_hub is not None

    async def beats() -> dict[str, int]:
        await presence.heartbeat(process_hub)
        return {p.name: sum(m["t"] == "beat" for m in await p.drain(0.2)) for p in everyone}

    async def alice_aims(count: int) -> None:
        for i in range(count):
            await alice.send("aim", {"angle": i / 100, "speed": 1.0, "side": 0.0, "height": 0.0})
            await asyncio.sleep(0.06)

    await asyncio.sleep(1.1)  # the spectator's arrival is counted in a presence message at most once a second
    await beats()  # each was sent its snapshot and presence since the hub began: this beat settles the marks
    assert await beats() == {"alice": 1, "bob": 1, "spectator": 1}, "nothing sent since: every socket beats"
    await alice_aims(1)
    assert await beats() == {"alice": 1, "bob": 1, "spectator": 1}, "one aim is no stream"
    await alice_aims(10)
    # bob (up to 20 aims a second) and the spectator (10) were sent a stream of alice's aims; alice
    # (her own aims are not echoed) was sent nothing.
    assert await beats() == {"alice": 1, "bob": 0, "spectator": 0}
    assert await beats() == {"alice": 1, "bob": 1, "spectator": 1}, "quiet again: the beats come back"

    # A lag stored and never published (the process died between commit and publish): every socket is
    # behind, so each gets the event and then its beat, aims sent to it or not.
    def store_without_publishing() -> int:
        message = inputs.lag(LAG_WINNING, ack=next_ack(), v=alice.v)
        applied = match_input(match_id=match_id, user=alice_user, message=message)
        return int(applied.events[0]["v"])

    stored = await database_sync_to_async(store_without_publishing)()
    await alice_aims(3)
    await presence.heartbeat(process_hub)
    for p in everyone:
        await p.until_version(stored, timeout=5)
        assert (await p.until(lambda m: m["t"] == "beat", timeout=5))["d"] == {"v": stored}
    for p in everyone:
        await p.close()
