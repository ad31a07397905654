"""The snapshot's version-bound parts, kept per process (game.matches.selectors.snapshot_parts).

A second reader of the same version gets the snapshot from one query, equal to the one built from
scratch; a new version, a new chat message, a moved deadline and a shot's window passing are each seen
at once, and players and spectators still get their own seat, name and chat."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext

from game.accounts.services import user_signup
from game.chat.services import chat_post
from game.matches.selectors import matches as selectors
from game.matches.selectors.snapshot_parts import SnapshotParts
from game.matches.services import match_create, match_input, match_join
from game.models import Match
from tests.support import inputs

# Also in the PostgreSQL step (`services`): the row's read annotates a subquery and a JSON key.
pytestmark = [pytest.mark.services, pytest.mark.django_db]


@pytest.fixture(autouse=True)
def _fresh_parts() -> None:
    selectors.SNAPSHOT_PARTS.clear()


def started_match() -> tuple[Any, Any, str]:
    alice = user_signup(username="alice", password="pw-alice-12345", display_name="Alice")
    bob = user_signup(username="bob", password="pw-bob-12345", display_name="Bob")
    match, _ = match_create(user=alice, rated=False, time_limit=None, shot_clock=None)
    match_join(match_id=match.id, user=bob)
    return alice, bob, match.id


def built_afresh(match_id: str, user: Any) -> dict[str, Any]:
    """The snapshot as a process that never read this match builds it."""
    kept = selectors.SNAPSHOT_PARTS
    selectors.SNAPSHOT_PARTS = SnapshotParts()
    try:
        message = selectors.match_snapshot_message(match_id=match_id, user=user)
    finally:
        selectors.SNAPSHOT_PARTS = kept
    assert message is not None
    return message


def without_now(message: dict[str, Any]) -> dict[str, Any]:
    data = dict(message["d"])
    data["clock"] = {k: v for k, v in data["clock"].items() if k != "now"}
    return {**message, "d": data}


def read(match_id: str, user: Any) -> tuple[dict[str, Any], int]:
    with CaptureQueriesContext(connection) as queries:
        message = selectors.match_snapshot_message(match_id=match_id, user=user)
    assert message is not None
    return message, len(queries.captured_queries)


def test_a_second_reader_of_a_version_reads_one_row() -> None:
    alice, _bob, match_id = started_match()
    first, built = read(match_id, AnonymousUser())
    second, queries = read(match_id, AnonymousUser())
    assert queries == 1 < built, (queries, built)
    assert without_now(second) == without_now(first) == without_now(built_afresh(match_id, AnonymousUser()))
    assert second["d"]["state"]["constraints"], "the state with its constraints, as built"
    # A player's snapshot shares the parts and keeps his own seat and name.
    mine, player_queries = read(match_id, alice)
    assert mine["d"]["you"] == {"name": "Alice", "role": "player", "seat": 0}
    assert player_queries <= 2  # the row, and the players' chat (a role of its own)
    assert without_now(mine) == without_now(built_afresh(match_id, alice))


def test_a_new_version_a_chat_line_and_a_moved_deadline_are_seen_at_once() -> None:
    alice, bob, match_id = started_match()
    before, _ = read(match_id, AnonymousUser())
    match_input(
        match_id=match_id, user=alice, message=inputs.lag({"angle": 0.0, "speed": 1.5, "side": 0.0, "height": 0.0})
    )
    after, _ = read(match_id, AnonymousUser())
    assert after["v"] == before["v"] + 1
    assert after["d"]["state"] != before["d"]["state"] and after["d"]["history"] != before["d"]["history"]
    assert without_now(after) == without_now(built_afresh(match_id, AnonymousUser()))

    chat_post(match_id=match_id, user=bob, text="good luck")
    chatted, _ = read(match_id, alice)
    assert [line["text"] for line in chatted["d"]["chat"]][-1:] == ["good luck"]
    assert chatted["v"] == after["v"], "a chat line is no new version: the parts stayed, the chat did not"

    Match.objects.filter(pk=match_id).update(grace_seat=1, grace_deadline=time.time() + 30)
    graced, _ = read(match_id, AnonymousUser())
    assert graced["d"]["clock"]["grace_player"] == "Bob" and graced["d"]["clock"]["grace_deadline"] is not None


def test_the_last_shot_leaves_the_snapshot_when_its_window_has_passed(monkeypatch: pytest.MonkeyPatch) -> None:
    alice, _bob, match_id = started_match()
    match_input(
        match_id=match_id, user=alice, message=inputs.lag({"angle": 0.0, "speed": 1.5, "side": 0.0, "height": 0.0})
    )
    rolling, _ = read(match_id, AnonymousUser())
    assert rolling["d"]["last_shot"]["player"] == "Alice"
    monkeypatch.setattr(selectors, "LAST_SHOT_WINDOW", -1.0)  # the window has passed: same parts, no shot
    stopped, queries = read(match_id, AnonymousUser())
    assert queries == 1 and "last_shot" not in stopped["d"]


def test_presence_names_the_players_as_the_engine_knows_them() -> None:
    """`match_presence` reads the players' names as one key of the engine state (not the whole state):
    a player who renames himself mid-match keeps the name the match knows him by."""
    alice, _bob, match_id = started_match()
    alice.profile.display_name = "Alice the Second"
    alice.profile.save(update_fields=["display_name"])
    presence = selectors.match_presence(match_id=match_id)
    assert [(p["name"], p["seat"]) for p in presence["players"]] == [("Alice", 0), ("Bob", 1)]
    assert presence["spectators"] == 0


def test_presence_counts_a_crowd_in_the_database() -> None:
    """A featured match's crowd is counted by the database (COUNT DISTINCT), not read row by row into
    Python once a second: people, not sockets, as before (a viewer's tabs count once, a row without a
    viewer alone, an empty viewer like none)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from game.models import MatchConnection

    _alice, _bob, match_id = started_match()
    now = time.time()

    def row(channel: str, viewer: str | None, seen_at: float = now) -> MatchConnection:
        return MatchConnection(match_id=match_id, channel_name=channel, viewer=viewer, seen_at=seen_at)

    rows = [row(f"crowd.{i}", f"ip:192.0.2.{i % 200}") for i in range(400)]  # 200 people, two tabs each
    rows += [row(f"alone.{i}", None) for i in range(7)]
    rows += [row(f"blank.{i}", "") for i in range(3)]
    rows.append(row("stale", "ip:198.51.100.1", now - 3600))
    MatchConnection.objects.bulk_create(rows)
    with CaptureQueriesContext(connection) as queries:
        presence = selectors.match_presence(match_id=match_id)
    assert presence["spectators"] == 200 + 7 + 3  # the stale row does not count
    reads = [q["sql"] for q in queries.captured_queries if "matchconnection" in q["sql"].lower()]
    assert len(reads) == 2 and any("COUNT(DISTINCT" in sql.upper() for sql in reads), reads


def test_the_store_keeps_only_its_limit_of_matches() -> None:
    parts = SnapshotParts(limit=2)
    made = []

    def build(name: str) -> Any:
        made.append(name)
        return selectors.Parts(state=name, info={}, history={}, result=None, last_shot=None)

    for name in ("a", "b", "a", "c", "a", "b"):
        parts.get(name, 1, lambda name=name: build(name))
    # "b" was the least recent when "c" came, so it was built again; "a" stayed throughout.
    assert made == ["a", "b", "c", "b"] and parts.hits == 2 and parts.builds == 4
