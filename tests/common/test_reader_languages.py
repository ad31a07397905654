"""Verdicts, the shot list, results and errors in the reader's language (docs/i18n.md,
"Verdicts in the reader's language"): a Finnish player, a Russian player and an English spectator of
one match, through the real MatchConsumer (Channels' WebsocketCommunicator). Every versioned event
carries its words in every language, made once from code+params; each socket's `error` is said in its
own language (the `django_language` cookie, then Accept-Language)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from channels.db import database_sync_to_async

from game.accounts.services import user_signup
from game.common.reader_language import scope_language
from game.engine.rules import words
from game.matches.selectors.history import entry_in, history_entry, match_history
from game.matches.selectors.match_result import match_stored_result, result_in
from game.matches.selectors.replays import match_replay_steps
from game.matches.services import match_create, match_join
from game.models import Match
from tests.matches.test_match_socket import names_of, put_position
from tests.support.play_support import (
    BREAK_CALL,
    Player,
    fast_password_hasher,
    fresh_channel_layer_and_connections,
    near_end_snapshot,
    near_end_strike,
    next_ack,
    play_opening,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
__all__ = ["fast_password_hasher", "fresh_channel_layer_and_connections"]  # autouse fixtures, imported to apply

CYRILLIC = set("абвгдеёжзийклмнопрстуфхцчшщъыьэюя")


def _scope(*headers: tuple[bytes, bytes]) -> dict[str, Any]:
    return {"headers": list(headers)}


def test_a_sockets_language_is_its_cookie_then_accept_language() -> None:
    assert scope_language(_scope((b"accept-language", b"fi-FI,fi;q=0.9,en;q=0.5"))) == "fi"
    assert scope_language(_scope((b"accept-language", b"de-DE,ru;q=0.8"))) == "ru"
    assert scope_language(_scope((b"accept-language", b"de-DE"))) == "en"
    both = _scope((b"cookie", b"sessionid=x; django_language=ru"), (b"accept-language", b"fi"))
    assert scope_language(both) == "ru"
    assert scope_language(_scope((b"cookie", b"django_language=xx"), (b"accept-language", b"fi"))) == "fi"
    assert (
        scope_language(
            _scope(
                (b"cookie", b'\x00;;="'),
            )
        )
        == "en"
    )
    assert scope_language({}) == "en"


async def connect(name: str, match_id: str, user: Any, headers: list[tuple[bytes, bytes]]) -> Player:
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator
    from django.contrib.auth.models import AnonymousUser

    from game.routing import websocket_urlpatterns

    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/match/{match_id}/", headers=headers)
    communicator.scope["user"] = user if user is not None else AnonymousUser()

    async def recv(timeout: float) -> str:
        return await communicator.receive_from(timeout=timeout)

    async def close() -> None:
        await communicator.disconnect(timeout=10)

    async def nothing(timeout: float) -> bool:
        return await communicator.receive_nothing(timeout=timeout, interval=0.01)

    player = Player(name, communicator.send_to, recv, close, nothing)
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    await player.until(lambda m: m["t"] == "snapshot")
    return player


@database_sync_to_async
def two_players() -> tuple[Any, Any, str]:
    suffix = str(time.monotonic_ns())[-6:]
    alice = user_signup(username=f"aino{suffix}", password="pw-alice-12345", display_name=f"aino{suffix}")
    bob = user_signup(username=f"boris{suffix}", password="pw-bob-12345", display_name=f"boris{suffix}")
    match, _ = match_create(user=alice, rated=False, time_limit=None, shot_clock=None)
    match_join(match_id=match.id, user=bob)
    return alice, bob, match.id


@database_sync_to_async
def stored_history(match_id: str) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    match = Match.objects.get(pk=match_id)
    return match_history(match=match)["entries"], match_stored_result(match=match)


@database_sync_to_async
def replay_reasons(match_id: str, language: str) -> list[str]:
    match = Match.objects.get(pk=match_id)
    steps = match_replay_steps(match=match, language=language)["steps"]
    return [step["verdict"]["reason"] for step in steps if step["verdict"]]


async def test_each_reader_reads_the_verdict_the_list_the_result_and_errors_in_their_language() -> None:
    aino_user, boris_user, match_id = await two_players()
    aino = await connect("aino", match_id, aino_user, [(b"accept-language", b"fi-FI,fi;q=0.9")])
    boris = await connect("boris", match_id, boris_user, [(b"cookie", b"django_language=ru")])
    watcher = await connect("watcher", match_id, None, [(b"accept-language", b"en-GB")])
    v = await play_opening(aino, boris, (watcher,))
    shots = [p.versioned[-1] for p in (aino, boris, watcher)]
    # One event for everyone (encoded once): the verdict and its entry in every language.
    assert shots[0] == shots[1] == shots[2]
    verdict, entry = shots[0]["d"]["verdict"], shots[0]["d"]["entry"]
    # Each language, and its portrait sentence where the verdict names a pocket.
    assert {key.split("@")[0] for key in verdict["words"]} == {"en", "fi", "ru"}
    assert all(key.split("@")[1:] in ([], ["portrait"]) for key in verdict["words"])
    assert verdict["words"]["en"] == verdict["reason"]
    for language in ("en", "fi", "ru"):
        assert verdict["words"][language] == words.say(verdict["code"], verdict["params"], language)
        assert entry["words"][language] == verdict["words"][language]
    assert verdict["words"]["fi"].startswith("Kaisa ") and "pistettä" in verdict["words"]["fi"]
    assert verdict["words"]["ru"].startswith("Забита кайза в ") and "очков" in verdict["words"]["ru"]

    # A refused input: the rules' refusal in the refused socket's language.
    await boris.send("choose_break", {"take": True}, ack=next_ack(), v=v)
    error = await boris.error()
    assert error["d"]["code"] in ("wrong_phase", "not_your_turn"), error
    assert CYRILLIC & set(error["d"]["message"].lower()), error
    await aino.send(
        "shoot", {"call": {"ball": "kaisa", "pocket": "nowhere"}, "strike": near_end_strike()}, ack=next_ack(), v=v
    )
    error = await aino.error()
    assert error["d"]["message"] and not CYRILLIC & set(error["d"]["message"].lower())

    # The end: each reader's result card and the stored history, in their language.
    names = await names_of(match_id)
    await put_position(match_id, near_end_snapshot(names))
    await aino.send("shoot", {"call": BREAK_CALL, "strike": near_end_strike()}, ack=next_ack(), v=v)
    finished = await watcher.until_version(v + 2)
    assert finished["t"] == "finished"
    result = finished["d"]["result"]
    assert result["words"]["en"] == result["text"] and result["text"].startswith(f"{names[0]} won: ")
    assert result["words"]["fi"].startswith(f"{names[0]} voitti: ")
    assert result["words"]["ru"].startswith(f"{names[0]} выигрывает: ")
    entries, stored = await stored_history(match_id)
    assert [e["words"]["fi"] for e in entries if e["v"] == v] == [verdict["words"]["fi"]]
    assert entries[-1]["kind"] == "finish" and entries[-1]["words"]["ru"] == result["words"]["ru"]
    assert entry_in(entries[-1], "fi")["text"] == result["words"]["fi"]
    assert result_in(stored, "ru")["text"] == result["words"]["ru"]  # type: ignore[index]
    # The replay page: each step's verdict in the reader's language, made from code+params at read time.
    assert verdict["words"]["ru"] in await replay_reasons(match_id, "ru")
    assert verdict["words"]["fi"] in await replay_reasons(match_id, "fi")
    assert verdict["reason"] in await replay_reasons(match_id, "en")
    # A reload (a fresh snapshot) gives the same entries with the same words.
    again = await connect("aino again", match_id, aino_user, [(b"accept-language", b"fi")])
    snapshot = next(m for m in again.versioned if m["t"] == "snapshot")
    listed = snapshot["d"]["history"]["entries"]
    assert [e["words"] for e in listed] == [e["words"] for e in entries]
    for p in (aino, boris, watcher, again):
        await p.close()


def test_notices_and_choices_are_entries_in_every_language() -> None:
    """K-11 notices carry their params; a choice names who chose in each language (history.py)."""
    notice = history_entry("notice", 9, {"kind": "time_up", "text": "x", "params": {"extra_each": 2}})
    assert notice is not None and notice["words"]["en"].startswith("Time is up")
    assert (
        notice["words"]["fi"]
        == "Aika loppui: tämä kierros pelataan loppuun, sitten kumpikin saa vielä 2 vuoroa (K-11.1)"
    )
    assert notice["words"]["ru"].startswith("Время вышло") and "2 подхода" in notice["words"]["ru"]
    params = {"breaker": "aino", "placer": "boris"}
    choice = history_entry(
        "choice", 3, {"player": "aino", "take": True, "verdict": {"code": "break_chosen", "params": params}}
    )
    assert choice is not None and choice["words"]["fi"].startswith("aino aloittaa itse: aino aloittaa;")
    assert choice["words"]["ru"].startswith("aino разбивает сам(а): aino разбивает;")
    # An event stored before verdicts had codes keeps its English words in every language.
    old = history_entry("shot", 4, {"player": "aino", "verdict": {"reason": "old words", "points": 2}})
    assert old is not None and old["words"] == {"en": "old words", "fi": "old words", "ru": "old words"}
