"""The match chat through Channels' WebsocketCommunicator (game.chat.services, docs/chat.md): each
channel reaches its readers, a (re)connecting socket gets the recent chat in its snapshot, quick
phrases travel as codes, reports are stored once, and every bad input is a clear `error` that stores
nothing."""

from __future__ import annotations

import datetime
import json
import re
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from game.accounts.services import user_signup
from game.chat.services import OPEN_AFTER_END
from game.common import ratelimit
from game.matches.services import match_create, match_join
from game.models import Match
from game.models.chat import ChatMessage, ChatReport
from game.realtime.protocol import MAX_CHAT_CHARS
from tests.support.play_support import (
    Player,
    connect_communicator,
    fast_password_hasher,
    fresh_channel_layer_and_connections,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
__all__ = ["fast_password_hasher", "fresh_channel_layer_and_connections"]  # autouse fixtures, imported to apply


@pytest.fixture(autouse=True)
def fresh_chat_budgets() -> None:
    """User ids repeat between tests on a flushed database: each test starts with full chat budgets."""
    ratelimit.reset_message_budgets()


@database_sync_to_async
def seated_match() -> tuple[AbstractBaseUser, AbstractBaseUser, AbstractBaseUser, str]:
    """alice and bob playing, carol (an account) watching."""
    suffix = str(time.monotonic_ns())[-6:]
    users = [
        user_signup(username=f"{n}{suffix}", password=f"pw-{n}-12345", display_name=f"{n}{suffix}")
        for n in ("alice", "bob", "carol")
    ]
    match, _ = match_create(user=users[0], rated=False, time_limit=None, shot_clock=None)
    match_join(match_id=match.id, user=users[1])
    return users[0], users[1], users[2], match.id


@database_sync_to_async
def chat_rows(match_id: str) -> list[tuple[str, str, str, str]]:
    return list(
        ChatMessage.objects.filter(match_id=match_id)
        .order_by("id")
        .values_list("channel", "author_name", "text", "phrase")
    )


@database_sync_to_async
def report_rows() -> list[tuple[int, int]]:
    return list(ChatReport.objects.order_by("id").values_list("message_id", "reporter_id"))


@database_sync_to_async
def finish_long_ago(match_id: str) -> None:
    Match.objects.filter(pk=match_id).update(
        status=Match.Status.FINISHED, finished_at=timezone.now() - datetime.timedelta(seconds=OPEN_AFTER_END + 5)
    )


async def chat_of(player: Player) -> dict[str, Any]:
    return await player.until(lambda m: m["t"] == "chat")


async def nothing_chat(player: Player) -> None:
    assert [m for m in await player.drain() if m["t"] == "chat"] == []


async def test_each_channel_reaches_its_readers_and_a_reconnect_gets_the_recent_chat() -> None:
    alice_user, bob_user, carol_user, match_id = await seated_match()
    alice = await connect_communicator("alice", match_id, alice_user)
    bob = await connect_communicator("bob", match_id, bob_user)
    carol = await connect_communicator("carol", match_id, carol_user)
    visitor = await connect_communicator("visitor", match_id, None)
    assert alice.versioned[0]["d"]["chat"] == []

    # The players' chat: everyone at the match reads it.
    await alice.send("chat", {"text": "  good luck <b>bob</b>  "})
    for p in (alice, bob, carol, visitor):
        said = await chat_of(p)
        assert said["d"]["channel"] == "players" and said["d"]["text"] == "good luck <b>bob</b>"
        assert said["d"]["from"] == alice_user.profile.display_name and said["d"]["phrase"] == ""
    # A quick phrase travels as its code; each reader words it.
    await bob.send("chat", {"phrase": "thanks"})
    for p in (alice, bob, carol, visitor):
        said = await chat_of(p)
        assert (said["d"]["phrase"], said["d"]["text"]) == ("thanks", "")

    # The spectators' chat: spectators only; the players never hear it.
    await carol.send("chat", {"text": "what a break"})
    for p in (carol, visitor):
        said = await chat_of(p)
        assert (said["d"]["channel"], said["d"]["text"]) == ("spectators", "what a break")
    await nothing_chat(alice)
    await nothing_chat(bob)

    rows = await chat_rows(match_id)
    assert [(c, t, ph) for c, _a, t, ph in rows] == [
        ("players", "good luck <b>bob</b>", ""),
        ("players", "", "thanks"),
        ("spectators", "what a break", ""),
    ]
    # A reload: the snapshot carries what this reader may read, oldest first.
    await alice.close()
    alice = await connect_communicator("alice2", match_id, alice_user)
    assert [m["text"] or m["phrase"] for m in alice.versioned[0]["d"]["chat"]] == ["good luck <b>bob</b>", "thanks"]
    late = await connect_communicator("late", match_id, None)
    assert [m["channel"] for m in late.versioned[0]["d"]["chat"]] == ["players", "players", "spectators"]
    for p in (alice, bob, carol, visitor, late):
        await p.close()


async def test_a_report_lands_once_and_only_for_someone_else_s_message() -> None:
    alice_user, bob_user, carol_user, match_id = await seated_match()
    alice = await connect_communicator("alice", match_id, alice_user)
    bob = await connect_communicator("bob", match_id, bob_user)
    carol = await connect_communicator("carol", match_id, carol_user)
    await bob.send("chat", {"text": "you are bad"})
    bad = (await chat_of(alice))["d"]["id"]
    await carol.send("chat", {"text": "spectator words"})
    spectators_id = (await carol.until(lambda m: m["t"] == "chat" and m["d"]["channel"] == "spectators"))["d"]["id"]

    await alice.send("chat_report", {"id": bad})
    assert (await alice.until(lambda m: m["t"] == "chat_reported"))["d"] == {"id": bad}
    assert await report_rows() == [(bad, alice_user.pk)]

    refusals = [
        (alice, {"id": bad}, "already_reported"),
        (bob, {"id": bad}, "own_message"),
        (alice, {"id": spectators_id}, "no_such_message"),  # players do not read the spectators' chat
        (alice, {"id": 999999}, "no_such_message"),
        (alice, {"id": "x"}, "bad_shape"),
        (alice, {}, "bad_shape"),
    ]
    for who, d, code in refusals:
        await who.send("chat_report", d)
        error = await who.error()
        assert error["d"]["code"] == code, (d, error)
        assert error["d"]["message"]
    # A spectator may report a player's message.
    await carol.send("chat_report", {"id": bad})
    await carol.until(lambda m: m["t"] == "chat_reported")
    assert await report_rows() == [(bad, alice_user.pk), (bad, carol_user.pk)]
    for p in (alice, bob, carol):
        await p.close()


async def test_bad_chat_is_refused_with_a_code_and_stores_nothing() -> None:
    alice_user, _bob_user, carol_user, match_id = await seated_match()
    alice = await connect_communicator("alice", match_id, alice_user)
    carol = await connect_communicator("carol", match_id, carol_user)
    visitor = await connect_communicator("visitor", match_id, None)
    refusals = [
        (alice, {"text": "x" * (MAX_CHAT_CHARS + 1)}, "bad_value"),
        (alice, {"text": " \u200b\u202e "}, "bad_value"),  # empty once the format characters go
        (alice, {"text": ""}, "bad_value"),
        (alice, {"text": 5}, "bad_shape"),
        (alice, {"phrase": "buy_gold"}, "bad_value"),
        (alice, {"text": "hi", "phrase": "thanks"}, "bad_shape"),
        (alice, {"text": "hi", "channel": "everyone"}, "bad_value"),
        (alice, {"text": "hi", "channel": "spectators"}, "wrong_channel"),
        (carol, {"text": "hi", "channel": "players"}, "spectator"),
        (visitor, {"text": "hi"}, "login_required"),
    ]
    for who, d, code in refusals:
        await who.send("chat", d)
        error = await who.error()
        assert error["d"]["code"] == code, (d, error)
        assert error["d"]["message"]
    assert await chat_rows(match_id) == []

    # Too fast: the burst passes, the next is refused and not stored.
    for i in range(int(ratelimit.CHAT_LIMIT[0])):
        await alice.send("chat", {"text": f"m{i}"})
        await chat_of(alice)
    await alice.send("chat", {"text": "one too many"})
    assert (await alice.error())["d"]["code"] == "rate_limited"
    assert len(await chat_rows(match_id)) == int(ratelimit.CHAT_LIMIT[0])

    # Long after the end the chat is closed.
    ratelimit.reset_message_budgets()
    await finish_long_ago(match_id)
    await carol.send("chat", {"text": "gg"})
    assert (await carol.error())["d"]["code"] == "chat_closed"
    assert len(await chat_rows(match_id)) == int(ratelimit.CHAT_LIMIT[0])
    for p in (alice, carol, visitor):
        await p.close()


@database_sync_to_async
def finished_with_chat() -> tuple[str, int]:
    from tests.support.community_factories import make_player, play_engine_match

    alice, bob = make_player("Alice"), make_player("Bob")
    match = play_engine_match(alice, bob, inputs=6)
    ChatMessage.objects.create(match=match, channel="players", author=alice, author_name="Alice", text="<i>gl</i>")
    ChatMessage.objects.create(match=match, channel="players", author=bob, author_name="Bob", phrase="good_game")
    ChatMessage.objects.create(match=match, channel="spectators", author=None, author_name="Watcher", text="wow")
    return match.pk, match.shots.order_by("seq").last().seq


async def test_the_replay_shows_the_chat_beside_the_shots(client: Any) -> None:
    match_id, last_seq = await finished_with_chat()
    response = await database_sync_to_async(client.get)(f"/m/{match_id}/replay/", HTTP_ACCEPT_LANGUAGE="ru")
    html = response.content.decode()
    assert response.status_code == 200
    chat = response.context["chat"]
    # Just finished: the chat is open, so the spectators' "wow" is not shown yet (the next test).
    assert [m["words"] for m in chat] == ["<i>gl</i>", "Хорошая игра"]
    assert last_seq > 1 and [m["after"] for m in chat] == [last_seq] * 2  # written after the last input
    assert "&lt;i&gt;gl&lt;/i&gt;" in html and "<i>gl</i>" not in html  # escaped, never markup
    assert "Хорошая игра" in html


def test_replay_chat_follows_the_channel_rule(client: Any) -> None:
    """docs/chat.md, "The replay": the players' chat always; the spectators' only once the chat is
    closed (OPEN_AFTER_END after the end), never while a player could still read it; the JSON download
    is the input record and carries no chat at all."""
    from tests.support.community_factories import make_player, play_engine_match

    alice, bob, watcher = make_player("Alice"), make_player("Bob"), make_player("Watcher")
    match = play_engine_match(alice, bob, inputs=4, resign=False)
    ChatMessage.objects.create(match=match, channel="players", author=alice, author_name="Alice", text="gl hf")
    ChatMessage.objects.create(match=match, channel="spectators", author=watcher, author_name="Watcher", text="rail")

    def shown() -> tuple[int, str, int, str]:
        page = client.get(f"/m/{match.pk}/replay/")
        download = client.get(f"/m/{match.pk}/replay.json")
        return page.status_code, page.content.decode(), download.status_code, download.content.decode()

    # During the match: no replay, no download (the match page is where it is watched).
    page_status, _html, json_status, _body = shown()
    assert (page_status, json_status) == (404, 404)

    # Finished a moment ago: the chat is still open, the players may still be at the table.
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, finished_at=timezone.now())
    page_status, html, json_status, body = shown()
    assert (page_status, json_status) == (200, 200)
    assert "gl hf" in html and "rail" not in html and "Watcher" not in html
    assert "gl hf" not in body and "rail" not in body and "chat" not in json.loads(body)

    # The chat closed: the spectators' channel joins the record, marked as theirs.
    closed = timezone.now() - datetime.timedelta(seconds=OPEN_AFTER_END + 5)
    Match.objects.filter(pk=match.pk).update(finished_at=closed)
    page_status, html, json_status, body = shown()
    assert (page_status, json_status) == (200, 200)
    assert "gl hf" in html and "rail" in html
    assert re.search(r"Watcher\s*·\s*spectator", html), html[html.find("replay-chat") :][:600]
    assert "rail" not in body and "chat" not in json.loads(body)


@database_sync_to_async
def team_match_with_a_spectator() -> tuple[dict[str, Any], str]:
    from game.teams.services import team_match_join, team_match_open

    suffix = str(time.monotonic_ns())[-6:]
    users = {
        n: user_signup(username=f"{n}{suffix}", password=f"pw-{n}-12345", display_name=f"{n}{suffix}")
        for n in ("ann", "amy", "bob", "ben", "sam")
    }
    match = team_match_open(user=users["ann"], team_size=2)
    for name, team in (("bob", 1), ("amy", 0), ("ben", 1)):
        team_match_join(match_id=match.id, user=users[name], team=team)
    return users, match.id


async def test_in_a_team_match_every_member_of_both_teams_is_in_the_players_chat() -> None:
    users, match_id = await team_match_with_a_spectator()
    socks = {n: await connect_communicator(n, match_id, users[n]) for n in ("ann", "amy", "bob", "ben", "sam")}
    await socks["ben"].send("chat", {"phrase": "good_shot"})
    for sock in socks.values():
        said = await chat_of(sock)
        assert (said["d"]["channel"], said["d"]["from"], said["d"]["phrase"]) == (
            "players",
            users["ben"].profile.display_name,
            "good_shot",
        )
    await socks["amy"].send("chat", {"text": "x", "channel": "spectators"})
    assert (await socks["amy"].error())["d"]["code"] == "wrong_channel"
    await socks["sam"].send("chat", {"text": "go team 2"})
    assert (await chat_of(socks["sam"]))["d"]["channel"] == "spectators"
    for name in ("ann", "amy", "bob", "ben"):
        await nothing_chat(socks[name])
    for sock in socks.values():
        await sock.close()
