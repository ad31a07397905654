"""The edges of a live match through real consumers (WebsocketCommunicator): the server's clocks (shot
clock, disconnect grace and abandonment, K-11), abort, the two-shot minimum for a rated result, the
result and the history in the snapshot, rematch, and the refusals of bad lifecycle input.

Time is driven by giving the deadline poll a `now` (`deadline_runner.fire_due(now=...)`, the same call
every daphne process makes each second), never by sleeping. Run by `make test` on SQLite with the
in-memory layer and on PostgreSQL with Redis.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import AbstractBaseUser

from game.accounts.services import user_signup
from game.engine.rules import Match as EngineMatch
from game.matches.clock_runner import fire_due
from game.matches.selectors.match_state import deadline_next, snapshot_hash
from game.matches.services import Applied, match_create, match_input, match_join
from game.matches.services.deadlines import deadlines_fire_due
from game.models import Match, MatchEvent, Profile, RatingChange, Shot
from game.ratings.selectors import reason_text
from game.realtime import protocol
from tests.support.community_factories import establish
from tests.support.play_support import (
    BREAK_CALL,
    connect_communicator,
    fast_password_hasher,
    fresh_channel_layer_and_connections,
    near_end_snapshot,
    near_end_strike,
    next_ack,
    play_opening,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
__all__ = ["fast_password_hasher", "fresh_channel_layer_and_connections"]  # autouse fixtures

SHOT_CLOCK = 30
#: A shot that touches nothing: it ends the visit without pocketing anything (white2 toward the head).
MISS = {"angle": 3.14159, "speed": 0.4, "side": 0.0, "height": 0.0}
KAISA_CALL = {"ball": "kaisa", "pocket": "foot_left", "object_cushions": 0, "cue_cushions": 0, "via": None}


@database_sync_to_async
def two_players(**options: Any) -> tuple[AbstractBaseUser, AbstractBaseUser, str]:
    """alice (seat 0) and bob (seat 1) in a started match (lag phase, version 1)."""
    suffix = str(time.monotonic_ns())[-6:]
    alice = user_signup(username=f"alice{suffix}", password="pw-alice-12345", display_name=f"alice{suffix}")
    bob = user_signup(username=f"bob{suffix}", password="pw-bob-12345", display_name=f"bob{suffix}")
    if options.get("rated"):
        establish(alice, bob)  # accounts whose rated results count (game/ratings/rules.py)
    match, _ = match_create(
        user=alice,
        rated=options.get("rated", False),
        time_limit=options.get("time_limit"),
        shot_clock=options.get("shot_clock"),
    )
    match_join(match_id=match.id, user=bob)
    return alice, bob, match.id


@database_sync_to_async
def bot_match() -> tuple[AbstractBaseUser, str]:
    human = user_signup(username=f"human{time.monotonic_ns() % 10**6}", password="pw-human-12345")
    match, _ = match_create(user=human, rated=False, time_limit=None, shot_clock=None, opponent_bot_level=1)
    return human, match.id


@database_sync_to_async
def put_position(match_id: str, position: dict[str, Any]) -> None:
    """Test set-up only: replace the stored engine state (as an admin repair would), same version."""
    match = Match.objects.get(pk=match_id)
    match.snapshot = EngineMatch.from_snapshot(position).snapshot()
    if match.shot_clock:  # the position is after the break: its shot clock runs from now
        match.shot_deadline = time.time() + match.shot_clock
    match.next_deadline = deadline_next(match)
    match.save(update_fields=["snapshot", "shot_deadline", "next_deadline"])


@database_sync_to_async
def row(match_id: str) -> Match:
    return Match.objects.get(pk=match_id)


@database_sync_to_async
def names_of(match_id: str) -> list[str]:
    return [p["name"] for p in Match.objects.get(pk=match_id).snapshot["players"]]


@database_sync_to_async
def fingerprint(match_id: str) -> tuple[Any, ...]:
    match = Match.objects.get(pk=match_id)
    return (
        match.version,
        match.status,
        snapshot_hash(match.snapshot),
        match.next_deadline,
        Shot.objects.filter(match=match).count(),
        MatchEvent.objects.filter(match=match).count(),
        RatingChange.objects.filter(match=match).count(),
    )


@database_sync_to_async
def ratings(*users: AbstractBaseUser) -> list[tuple[float, int]]:
    return [(p.rating, p.rated_games) for p in (Profile.objects.get(user=u) for u in users)]


async def both_players_there(socket: Any) -> None:
    """The connection rows are written beside the sockets' snapshots (game.realtime.presence), by another
    database thread when there are several: wait until both players count. Their rows stop the
    disconnect grace and so move the match's next deadline, which the server clocks read."""
    await socket.until(lambda m: m["t"] == "presence" and all(p["connected"] for p in m["d"]["players"]))


async def three_sockets(match_id: str, alice_user: Any, bob_user: Any) -> tuple[Any, Any, Any]:
    alice = await connect_communicator("alice", match_id, alice_user)
    bob = await connect_communicator("bob", match_id, bob_user)
    spectator = await connect_communicator("spectator", match_id, None)
    await both_players_there(alice)
    return alice, bob, spectator


async def close_all(*players: Any) -> None:
    for p in players:
        await p.close()


# --- the shot clock --------------------------------------------------------------------------------


async def test_shot_clock_expiry_passes_the_visit() -> None:
    alice_user, bob_user, match_id = await two_players(shot_clock=SHOT_CLOCK)
    names = await names_of(match_id)
    await put_position(match_id, near_end_snapshot(names, shooter_score=10, other_score=7))
    alice, bob, spectator = await three_sockets(match_id, alice_user, bob_user)
    before = await row(match_id)
    assert before.next_deadline == pytest.approx(before.shot_deadline)
    assert await fire_due(now=before.shot_deadline - 1) == 0  # not yet

    now = before.shot_deadline + 1
    assert await fire_due(now=now) == 1
    for p in (alice, bob, spectator):
        timeout = await p.until(lambda m: m["t"] == "timeout")
        assert timeout["v"] == before.version + 1
        d = timeout["d"]
        assert (d["player"], d["count"], d["limit"]) == (names[0], 1, 3)
        assert d["verdict"]["foul"] == "shot_clock" and d["verdict"]["penalty"] == 0
        assert d["state"]["pending"] == [[names[1], "shoot"]]  # the visit passed
        assert d["state"]["balls"] == before.snapshot["balls"]  # every ball, the cue ball too, stays
        assert [pl["score"] for pl in d["state"]["players"]] == [10, 7]  # no points lost
        assert d["clock"]["timeouts"] == {names[0]: 1, names[1]: 0}
        assert d["clock"]["shot_deadline"] == pytest.approx(now + SHOT_CLOCK)
        assert d["entry"]["kind"] == "timeout" and d["entry"]["scores"] == [10, 7]
        assert d["entry"]["text"] == f"{names[0]} ran out of the shot clock (1 of 3): {names[1]}'s turn"
    after = await row(match_id)
    assert after.version == before.version + 1 and after.status == Match.Status.ACTIVE
    assert after.next_deadline == pytest.approx(now + SHOT_CLOCK)
    # Fired once: the same poll again (this process or another) finds nothing due.
    assert await fire_due(now=now) == 0
    assert (await row(match_id)).version == after.version
    # bob plays on from the untouched position (his own shot: the clock runs for him now).
    await bob.send("shoot", {"call": KAISA_CALL, "strike": MISS}, ack=next_ack(), v=after.version)
    shot = await alice.until(lambda m: m["t"] == "shot")
    assert shot["d"]["player"] == names[1]
    await close_all(alice, bob, spectator)


async def test_three_expiries_lose_the_match() -> None:
    alice_user, bob_user, match_id = await two_players(shot_clock=SHOT_CLOCK)
    names = await names_of(match_id)
    await put_position(match_id, near_end_snapshot(names, shooter_score=10, other_score=7))
    alice, bob, spectator = await three_sockets(match_id, alice_user, bob_user)
    now = (await row(match_id)).shot_deadline
    # alice, bob, alice, bob time out in turn; alice's third consecutive expiry loses the match.
    for turn in range(4):
        now += SHOT_CLOCK + 1
        assert await fire_due(now=now) == 1
        timeout = await spectator.until(lambda m: m["t"] == "timeout")
        assert timeout["d"]["player"] == names[turn % 2] and timeout["d"]["count"] == turn // 2 + 1
    now += SHOT_CLOCK + 1
    assert await fire_due(now=now) == 1
    for p in (alice, bob, spectator):
        third = await p.until(lambda m: m["t"] == "timeout" and m["d"]["count"] == 3)
        assert third["d"]["player"] == names[0]
        finished = await p.until(lambda m: m["t"] == "finished")
        assert finished["v"] == third["v"] + 1
        result = finished["d"]["result"]
        assert (result["winner"], result["loser"], result["how"]) == (names[1], names[0], "shot_clock")
        assert result["text"] == f"{names[1]} won: {names[0]} ran out of the shot clock 3 times in a row"
        assert finished["d"]["entry"]["kind"] == "finish" and finished["d"]["entry"]["text"] == result["text"]
    match = await row(match_id)
    assert match.status == Match.Status.FINISHED and match.winner_id == bob_user.pk
    assert match.next_deadline is None
    await close_all(alice, bob, spectator)


async def test_own_shot_resets_the_consecutive_expiries() -> None:
    alice_user, bob_user, match_id = await two_players(shot_clock=SHOT_CLOCK)
    names = await names_of(match_id)
    await put_position(match_id, near_end_snapshot(names, shooter_score=10, other_score=7))
    alice = await connect_communicator("alice", match_id, alice_user)
    bob = await connect_communicator("bob", match_id, bob_user)
    await both_players_there(alice)
    now = (await row(match_id)).shot_deadline + 1
    await fire_due(now=now)  # alice 1
    timeout = await bob.until(lambda m: m["t"] == "timeout")
    await bob.send("shoot", {"call": KAISA_CALL, "strike": MISS}, ack=next_ack(), v=timeout["v"])
    shot = await alice.until(lambda m: m["t"] == "shot")
    assert shot["d"]["clock"]["timeouts"] == {names[0]: 1, names[1]: 0}
    await alice.send("shoot", {"call": KAISA_CALL, "strike": MISS}, ack=next_ack(), v=shot["v"])
    shot = await bob.until(lambda m: m["t"] == "shot" and m["d"]["player"] == names[0])
    assert shot["d"]["clock"]["timeouts"] == {names[0]: 0, names[1]: 0}
    await close_all(alice, bob)


async def test_shot_clock_runs_from_the_break_on() -> None:
    """Before the break nothing is at stake (either player may abort instead): the shot clock starts
    with the first shot of the break."""
    alice_user, bob_user, match_id = await two_players(shot_clock=SHOT_CLOCK, rated=True)
    alice = await connect_communicator("alice", match_id, alice_user)
    bob = await connect_communicator("bob", match_id, bob_user)
    await both_players_there(alice)
    assert alice.versioned[0]["d"]["clock"]["shot_deadline"] is None
    assert alice.versioned[0]["d"]["state"]["abortable"] is True
    assert await fire_due(now=time.time() + 10 * SHOT_CLOCK) == 0
    v = await play_opening(alice, bob)
    shot = next(m for m in alice.versioned if m["v"] == v)
    assert shot["d"]["state"]["abortable"] is False
    assert shot["d"]["clock"]["shot_deadline"] == pytest.approx(time.time() + SHOT_CLOCK, abs=10)
    assert (await row(match_id)).next_deadline == pytest.approx(shot["d"]["clock"]["shot_deadline"])
    await close_all(alice, bob)


# --- the disconnect grace and abandonment ----------------------------------------------------------


async def test_abandoned_match_finishes_itself() -> None:
    # One player gone past the grace after the break: he loses, no claim needed.
    alice_user, bob_user, match_id = await two_players()
    names = await names_of(match_id)
    await put_position(match_id, near_end_snapshot(names, shooter_score=10, other_score=7))
    alice, bob, spectator = await three_sockets(match_id, alice_user, bob_user)
    await bob.close()
    clock = await alice.until(lambda m: m["t"] == "clock" and m["d"]["grace_player"] == names[1])
    grace_deadline = clock["d"]["grace_deadline"]
    assert (await row(match_id)).next_deadline == pytest.approx(grace_deadline)
    assert await fire_due(now=grace_deadline - 1) == 0
    assert await fire_due(now=grace_deadline + 1) == 1
    for p in (alice, spectator):
        finished = await p.until(lambda m: m["t"] == "finished")
        assert finished["d"]["result"]["how"] == "abandoned"
        assert finished["d"]["result"]["text"] == f"{names[0]} won: {names[1]} left the match"
    assert (await row(match_id)).status == Match.Status.FINISHED
    await close_all(alice, spectator)

    # Both gone: aborted, unrated, and off the list of live matches.
    alice_user, bob_user, match_id = await two_players(rated=True)
    names = await names_of(match_id)
    await put_position(match_id, near_end_snapshot(names, shooter_score=10, other_score=7))
    alice = await connect_communicator("alice", match_id, alice_user)
    bob = await connect_communicator("bob", match_id, bob_user)
    spectator = await connect_communicator("spectator", match_id, None)
    await bob.close()
    await alice.close()
    deadline = (await row(match_id)).grace_deadline
    assert await fire_due(now=deadline + 1) == 1
    finished = await spectator.until(lambda m: m["t"] == "finished")
    result = finished["d"]["result"]
    assert (result["how"], result["winner"], result["rated"]) == ("aborted", None, False)
    assert result["text"] == "Aborted: both players left"
    assert finished["d"]["entry"]["kind"] == "abort"
    match = await row(match_id)
    assert match.status == Match.Status.ABORTED and match.next_deadline is None
    assert await ratings(alice_user, bob_user) == [(1500.0, 0), (1500.0, 0)]
    live = await database_sync_to_async(lambda: list(Match.objects.filter(status=Match.Status.ACTIVE, pk=match_id)))()
    assert live == []
    await spectator.close()

    # A computer match ends when its human has been gone past the grace (the bot is always there).
    human, match_id = await bot_match()
    names = await names_of(match_id)
    await put_position(match_id, near_end_snapshot(names, shooter_score=10, other_score=7))
    deadline = (await row(match_id)).grace_deadline
    assert deadline is not None
    assert await deadlines_fire_due_async(now=deadline + 1) == [match_id]
    match = await row(match_id)
    assert match.status == Match.Status.FINISHED and match.result_code == "abandoned"
    assert match.winner_id != human.pk


async def deadlines_fire_due_async(now: float) -> list[str]:
    fired = await database_sync_to_async(deadlines_fire_due)(now=now)
    return [match_id for match_id, _ in fired]


async def grace_seat_becomes(match_id: str, seat: int | None, timeout: float = 10.0) -> Match:
    """The match row once its disconnect grace is on `seat` (None: nobody is away)."""
    deadline = time.monotonic() + timeout
    while True:
        match = await row(match_id)
        if match.grace_seat == seat or time.monotonic() > deadline:
            assert match.grace_seat == seat, (match.grace_seat, seat)
            return match
        await asyncio.sleep(0.05)


async def test_player_back_within_the_grace_keeps_the_match() -> None:
    alice_user, bob_user, match_id = await two_players()
    names = await names_of(match_id)
    await put_position(match_id, near_end_snapshot(names, shooter_score=10, other_score=7))
    alice = await connect_communicator("alice", match_id, alice_user)
    bob = await connect_communicator("bob", match_id, bob_user)
    # Connection rows are written in the background (game.realtime.presence): read the grace from the row, as
    # the server's clocks do, rather than from clock messages that may still be those of the connects.
    await grace_seat_becomes(match_id, None)
    await bob.close()
    deadline = (await grace_seat_becomes(match_id, 1)).grace_deadline
    await alice.until(lambda m: m["t"] == "clock" and m["d"]["grace_player"] == names[1])
    bob = await connect_communicator("bob", match_id, bob_user)
    await grace_seat_becomes(match_id, None)
    assert await fire_due(now=deadline + 1) == 0
    assert (await row(match_id)).status == Match.Status.ACTIVE
    await close_all(alice, bob)


# --- K-11 on the server's clock -----------------------------------------------------------------------


async def test_time_limit_notices_and_extra_visits_on_time() -> None:
    """K-11.1: the warning and the limit are announced on time, and the round ends by the shot clock
    with nobody acting: extra visits begin (the engine's own rule, on the server's clock)."""
    alice_user, bob_user, match_id = await two_players(time_limit=60, shot_clock=SHOT_CLOCK)
    names = await names_of(match_id)
    match = await row(match_id)
    clock = match.snapshot["clock"]
    position = near_end_snapshot(names, shooter_score=10, other_score=7)
    position["clock"] = clock
    await put_position(match_id, position)
    alice, bob, spectator = await three_sockets(match_id, alice_user, bob_user)
    started = clock["started"]
    warning_at = alice.versioned[0]["d"]["clock"]["warning_at"]
    assert warning_at == pytest.approx(started + clock["warning"])
    await fire_due(now=warning_at + 0.5)
    for p in (alice, spectator):
        notice = await p.until(lambda m: m["t"] == "notice")
        assert notice["d"]["kind"] == "time_warning" and notice["d"]["entry"]["player"] is None
        assert notice["d"]["text"] == "Time limit: the last 5 seconds"  # 60 s: warned at 3600/3900 of it
    await fire_due(now=started + 60.5)
    notice = await spectator.until(lambda m: m["t"] == "notice")
    assert notice["d"]["kind"] == "time_up" and notice["d"]["state"]["phase"] == "play"
    # Nobody acts: alice's and then bob's (white2's) shot clock run out; the round is over.
    deadline = (await row(match_id)).shot_deadline
    await fire_due(now=deadline + 1)
    deadline = (await row(match_id)).shot_deadline
    await fire_due(now=deadline + 1)
    notice = await spectator.until(lambda m: m["t"] == "notice")
    assert notice["d"]["kind"] == "extra_visits" and notice["d"]["state"]["phase"] == "extra_visits"
    await close_all(alice, bob, spectator)


async def test_time_up_without_a_shot_clock_still_moves_on() -> None:
    """K-11 in a match created without a shot clock: once the time is up a visit may take
    time_up_shot_clock() seconds, so a player who stops playing cannot hold the extra visits forever."""
    from game.matches.selectors.match_state import time_up_shot_clock

    alice_user, bob_user, match_id = await two_players(time_limit=60)
    names = await names_of(match_id)
    match = await row(match_id)
    assert match.shot_clock is None
    clock = match.snapshot["clock"]
    position = near_end_snapshot(names, shooter_score=10, other_score=7)
    position["clock"] = clock
    await put_position(match_id, position)
    alice, bob, spectator = await three_sockets(match_id, alice_user, bob_user)
    assert (await row(match_id)).shot_deadline is None  # no shot clock while the time runs
    started = clock["started"]
    await fire_due(now=started + 60.5)
    notice = await spectator.until(lambda m: m["t"] == "notice" and m["d"]["kind"] == "time_up")
    assert notice["d"]["clock"]["shot_clock"] == time_up_shot_clock()
    deadline = (await row(match_id)).shot_deadline
    assert deadline == pytest.approx(started + 60.5 + time_up_shot_clock())
    await fire_due(now=deadline + 1)
    deadline = (await row(match_id)).shot_deadline
    await fire_due(now=deadline + 1)
    notice = await spectator.until(lambda m: m["t"] == "notice" and m["d"]["kind"] == "extra_visits")
    assert notice["d"]["state"]["phase"] == "extra_visits"
    await close_all(alice, bob, spectator)


# --- abort and the rated result ----------------------------------------------------------------------


async def test_abort_before_the_break_changes_no_rating() -> None:
    alice_user, bob_user, match_id = await two_players(rated=True)
    names = await names_of(match_id)
    alice, bob, spectator = await three_sockets(match_id, alice_user, bob_user)
    await alice.send("lag", {"strike": {"angle": 0.0, "speed": 1.7}}, ack=next_ack(), v=alice.v)
    await bob.until(lambda m: m["t"] == "shot")
    ack = next_ack()
    await bob.send("abort", ack=ack)
    for p in (alice, bob, spectator):
        finished = await p.until(lambda m: m["t"] == "finished")
        result = finished["d"]["result"]
        assert (result["how"], result["winner"], result["loser"]) == ("aborted", None, None)
        assert result["text"] == f"Aborted by {names[1]} before the break"
        assert (result["rated"], result["rating_changes"]) == (False, [])
        assert result["unrated_reason"] == "the match was aborted"
    assert finished["d"]["ack"] == ack
    match = await row(match_id)
    assert match.status == Match.Status.ABORTED and match.winner_id is None
    assert await ratings(alice_user, bob_user) == [(1500.0, 0), (1500.0, 0)]
    assert await database_sync_to_async(lambda: RatingChange.objects.filter(match_id=match_id).count())() == 0
    await close_all(alice, bob, spectator)


async def test_two_shot_minimum_for_a_rated_result() -> None:
    # After the break bob (0 shots of his own) resigns: recorded, but unrated, and the card says why.
    alice_user, bob_user, match_id = await two_players(rated=True)
    names = await names_of(match_id)
    alice = await connect_communicator("alice", match_id, alice_user)
    bob = await connect_communicator("bob", match_id, bob_user)
    await play_opening(alice, bob)
    await bob.send("resign", ack=next_ack())
    finished = await alice.until(lambda m: m["t"] == "finished")
    result = finished["d"]["result"]
    assert (result["winner"], result["how"], result["rated"]) == (names[0], "resign", False)
    assert result["unrated_reason"] == reason_text("too_few_shots")  # words, from rating_eligibility
    assert await ratings(alice_user, bob_user) == [(1500.0, 0), (1500.0, 0)]
    await close_all(alice, bob)

    # Both played 2 shots of their own, then one resigns: rated, ratings move.
    alice_user, bob_user, match_id = await two_players(rated=True)
    names = await names_of(match_id)
    await put_position(match_id, near_end_snapshot(names, shooter_score=10, other_score=7))
    alice = await connect_communicator("alice", match_id, alice_user)
    bob = await connect_communicator("bob", match_id, bob_user)
    for shooter, other in ((alice, bob), (bob, alice), (alice, bob), (bob, alice)):
        await shooter.send("shoot", {"call": KAISA_CALL, "strike": MISS}, ack=next_ack(), v=shooter.v)
        await other.until(lambda m: m["t"] == "shot")
        await shooter.until(lambda m: m["t"] == "shot")
    await alice.send("resign", ack=next_ack())
    result = (await bob.until(lambda m: m["t"] == "finished"))["d"]["result"]
    assert (result["winner"], result["rated"], result["unrated_reason"]) == (names[1], True, None)
    assert [c["player"] for c in result["rating_changes"]] == names and result["rating_changes"][1]["delta"] > 0
    await close_all(alice, bob)

    # A real finish counts whatever the loser played: 60 reached with bob on 0 shots.
    alice_user, bob_user, match_id = await two_players(rated=True)
    names = await names_of(match_id)
    await put_position(match_id, near_end_snapshot(names, shooter_score=57, other_score=40))
    alice = await connect_communicator("alice", match_id, alice_user)
    await alice.send("shoot", {"call": KAISA_CALL, "strike": near_end_strike()}, ack=next_ack(), v=alice.v)
    result = (await alice.until(lambda m: m["t"] == "finished"))["d"]["result"]
    assert (result["how"], result["rated"]) == ("target", True)
    assert result["text"] == f"{names[0]} won: reached 60"
    await alice.close()


# --- what the snapshot carries ------------------------------------------------------------------------


async def test_snapshot_carries_the_history_and_the_result() -> None:
    alice_user, bob_user, match_id = await two_players()
    names = await names_of(match_id)
    alice, bob, spectator = await three_sockets(match_id, alice_user, bob_user)
    assert alice.versioned[0]["d"]["history"] == {"entries": [], "total": 0}
    assert alice.versioned[0]["d"]["result"] is None
    await play_opening(alice, bob, (spectator,))
    live = [m["d"]["entry"] for m in spectator.versioned if "entry" in m["d"]]
    assert [e["kind"] for e in live] == ["lag", "lag", "choice", "place", "place", "shot"]
    assert live[2]["text"].startswith(f"{names[0]} takes the break: ")
    assert live[5]["scores"] == [6, 0] and live[5]["points"] == 6 and live[5]["call"]["ball"] == "kaisa"

    # A late spectator and a reloading player get the same entries, with the same words.
    late = await connect_communicator("late", match_id, None)
    history = late.versioned[0]["d"]["history"]
    assert history == {"entries": live, "total": 6}
    # Bounded: a long match sends only its newest entries, and says how many there are.
    from game.matches.selectors.history import match_history

    match = await row(match_id)
    assert await database_sync_to_async(match_history)(match=match, limit=4) == {"entries": live[2:], "total": 6}
    await bob.close()
    bob = await connect_communicator("bob", match_id, bob_user)
    assert bob.versioned[0]["d"]["history"]["entries"] == live

    await bob.send("resign", ack=next_ack())
    finished = await late.until(lambda m: m["t"] == "finished")
    again = await connect_communicator("again", match_id, None)
    snapshot = again.versioned[0]["d"]
    assert snapshot["result"] == finished["d"]["result"]
    assert snapshot["result"]["text"] == f"{names[0]} won: {names[1]} resigned"
    assert snapshot["history"]["entries"] == [*live, finished["d"]["entry"]]
    await close_all(alice, bob, spectator, late, again)


# --- rematch -----------------------------------------------------------------------------------------


async def test_rematch_swaps_the_seats_and_invites_everyone() -> None:
    alice_user, bob_user, match_id = await two_players(rated=True, shot_clock=SHOT_CLOCK)
    names = await names_of(match_id)
    alice, bob, spectator = await three_sockets(match_id, alice_user, bob_user)
    await alice.send("rematch", ack=next_ack())
    assert (await alice.error())["d"]["code"] == "not_finished"
    await alice.send("resign", ack=next_ack())
    await bob.until(lambda m: m["t"] == "finished")
    await spectator.send("rematch", ack=next_ack())
    assert (await spectator.error())["d"]["code"] == "spectator"
    await bob.send("rematch", ack=next_ack())
    offers = [await p.until(lambda m: m["t"] == "rematch") for p in (alice, bob, spectator)]
    offer = offers[0]["d"]
    assert all(o["d"] == offer for o in offers)
    assert offer["from"] == names[1] and offer["url"] == f"/m/{offer['match_id']}/"
    new = await row(offer["match_id"])
    assert (new.player1_id, new.player2_id) == (bob_user.pk, alice_user.pk)
    assert (new.rated, new.shot_clock, new.status) == (True, SHOT_CLOCK, Match.Status.ACTIVE)
    await alice.send("rematch", ack=next_ack())
    assert (await bob.until(lambda m: m["t"] == "rematch"))["d"]["match_id"] == offer["match_id"]
    await close_all(alice, bob, spectator)


# --- bad input -----------------------------------------------------------------------------------------


async def test_bad_lifecycle_input_changes_nothing() -> None:
    """Abort after the break, a claim not owed, a rematch against the computer or from a spectator, a
    deadline for a finished match: each answered with an error code (or, for the deadline, nothing),
    and nothing stored changes."""
    alice_user, bob_user, match_id = await two_players(shot_clock=SHOT_CLOCK)
    alice, bob, spectator = await three_sockets(match_id, alice_user, bob_user)
    await play_opening(alice, bob, (spectator,))
    before = await fingerprint(match_id)
    for sender, t, code in (
        (bob, "abort", "not_abortable"),
        (alice, "claim_timeout", "not_owed"),
        (bob, "claim_timeout", "not_owed"),
        (spectator, "abort", "spectator"),
        (spectator, "claim_timeout", "spectator"),
        (spectator, "rematch", "spectator"),
    ):
        ack = next_ack()
        await sender.send(t, ack=ack)
        error = await sender.error()
        assert (error["d"]["code"], error["d"]["ack"]) == (code, ack)
    assert await fingerprint(match_id) == before

    # The match ends; a deadline left behind for it is a no-op.
    await bob.send("resign", ack=next_ack())
    await alice.until(lambda m: m["t"] == "finished")
    await database_sync_to_async(
        lambda: Match.objects.filter(pk=match_id).update(next_deadline=1.0, shot_deadline=1.0, grace_deadline=1.0)
    )()
    before = await fingerprint(match_id)
    assert await fire_due(now=time.time() + 3600) == 0
    assert await fingerprint(match_id) == before
    await alice.send("claim_timeout", ack=next_ack())
    assert (await alice.error())["d"]["code"] == "game_over"
    await alice.send("abort", ack=next_ack())
    assert (await alice.error())["d"]["code"] == "game_over"
    await close_all(alice, bob, spectator)

    # Against the computer: no rematch (start a new game from the lobby).
    human, match_id = await bot_match()
    await database_sync_to_async(lambda: Match.objects.filter(pk=match_id).update(status=Match.Status.FINISHED))()
    player = await connect_communicator("human", match_id, human)
    before = await fingerprint(match_id)
    await player.send("rematch", ack=next_ack())
    assert (await player.error())["d"]["code"] == "bot_opponent"
    assert await fingerprint(match_id) == before
    await player.close()


# --- the replay record -------------------------------------------------------------------------------


@database_sync_to_async
def replay_matches(match_id: str) -> tuple[bool, list[str]]:
    from game.matches.selectors.replays import match_replay_record, replay_run

    match = Match.objects.get(pk=match_id)
    record = match_replay_record(match=match)
    same = snapshot_hash(replay_run(record=record)) == snapshot_hash(match.snapshot)
    return same, [entry["kind"] for entry in record["inputs"]]


async def test_server_made_inputs_replay_exactly() -> None:
    """Timeouts and K-11 clock ticks are stored inputs: the downloadable record reproduces the match."""
    alice_user, bob_user, match_id = await two_players(time_limit=60, shot_clock=120)
    alice = await connect_communicator("alice", match_id, alice_user)
    bob = await connect_communicator("bob", match_id, bob_user)
    await play_opening(alice, bob)
    started = (await row(match_id)).snapshot["clock"]["started"]
    for moment in (56, 61):  # the K-11 warning and limit, before the 120 s shot clock runs out
        await fire_due(now=started + moment)
        assert (await alice.until(lambda m: m["t"] == "notice"))["d"]["kind"] in ("time_warning", "time_up")
    now = (await row(match_id)).shot_deadline
    for _ in range(12):
        now += 121
        await fire_due(now=now)
        if (await row(match_id)).status != Match.Status.ACTIVE:
            break
    match = await row(match_id)
    assert match.status == Match.Status.FINISHED and match.result_code == "shot_clock"
    same, kinds = await replay_matches(match_id)
    assert "tick" in kinds and kinds.count("timeout") >= 5
    assert same
    await close_all(alice, bob)


@database_sync_to_async
def shoot(match_id: str, user: AbstractBaseUser, ack: int, v: int) -> Applied:
    frame = {"t": "shoot", "d": {"call": BREAK_CALL, "strike": near_end_strike()}, "ack": ack, "v": v}
    message = protocol.parse(json.dumps(frame))
    assert not isinstance(message, protocol.Invalid), message
    return match_input(match_id=match_id, user=user, message=message)


async def test_the_winning_input_sent_again_tells_the_lobby_again() -> None:
    """The input that won the match was stored but its answer was lost (the database failed after the
    commit, or the socket dropped): sent again with its ack it is answered from storage, not applied
    twice, and the lobby is told again that the match is over; it kept listing the match as live when
    a computer player's winning move was stored so (game.matches.bot_runner sends it again)."""
    alice, _bob, match_id = await two_players()
    names = await names_of(match_id)
    await put_position(match_id, near_end_snapshot(names))
    v = (await row(match_id)).version
    ack = next_ack()
    first = await shoot(match_id, alice, ack, v)
    assert [e["t"] for e in first.events] == ["shot", "finished"] and first.lobby_changed
    again = await shoot(match_id, alice, ack, v)
    assert not again.events and [(e["t"], e["v"]) for e in again.reply] == [("shot", v + 1)]
    assert again.lobby_changed
    assert (await row(match_id)).version == v + 2  # nothing applied twice
