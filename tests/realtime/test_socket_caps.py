"""Sockets are capped at the handshake, and presence counts people, not sockets.

One guest opened 500 sockets on one match: all were accepted, and the match counted 501 spectators.
Now a user may hold a few sockets of a match (settings.KAIZA_SOCKET_LIMITS "match"), an address a
bounded number of sockets of every kind in one process ("process"); the socket past a cap is accepted
and closed at once with 4429 and a reason in words (game.realtime.socket_lifecycle.CleanCloseMixin.refuse).
Presence (the `presence` message, the Watch page, the home page's featured match) counts distinct
viewers: one user's three tabs count once (game.realtime.presence.viewer_of).

Real consumers through Channels' WebsocketCommunicator (a `client` address put in the scope as daphne
does), and real daphne for what a browser gets on the wire (the close frame's code and reason).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils import translation

from game.accounts.services import user_signup
from game.common import ratelimit
from game.matches.selectors.live import live_matches
from game.matches.selectors.matches import match_presence
from game.matches.services import match_create, match_join
from game.models import Match
from game.realtime.socket_lifecycle import CLOSE_TOO_MANY, REFUSED_REASONS
from game.routing import websocket_urlpatterns
from tests.support.daphne import DaphneServer
from tests.support.play_support import (
    Player,
    communicator_player,
    fast_password_hasher,
    fresh_channel_layer_and_connections,
)

__all__ = ["fast_password_hasher", "fresh_channel_layer_and_connections"]  # autouse fixtures, imported to apply

services_db = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@database_sync_to_async
def accounts_and_match(*names: str) -> tuple[list[AbstractBaseUser], str]:
    """Accounts named `names` (suffixed); the first two seated in a started match."""
    suffix = str(time.monotonic_ns())[-7:]
    users = [user_signup(username=f"{n}{suffix}", password=f"pw-{n}-12345", display_name=f"{n}{suffix}") for n in names]
    match, _ = match_create(user=users[0], rated=False, time_limit=None, shot_clock=None)
    match_join(match_id=match.id, user=users[1])
    return users, match.id


@database_sync_to_async
def another_match(user: AbstractBaseUser) -> str:
    match, _ = match_create(user=user, rated=False, time_limit=None, shot_clock=None)
    return match.id


def socket(path: str, user: Any, address: str | None = None, language: str | None = None) -> WebsocketCommunicator:
    """A communicator on `path` for `user`, from `address` (daphne's scope `client`)."""
    headers = [(b"accept-language", language.encode())] if language else []
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path, headers=headers)
    communicator.scope["user"] = user if user is not None else AnonymousUser()
    if address is not None:
        communicator.scope["client"] = (address, 50000)
    return communicator


async def opens(communicator: WebsocketCommunicator) -> None:
    """The socket is accepted and stays open: its first frame is a message (a snapshot, the lobby's
    list), not a close."""
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    first = await communicator.receive_output(timeout=10)
    assert first["type"] == "websocket.send", first


async def refused(communicator: WebsocketCommunicator) -> str:
    """The socket is accepted then closed at once with 4429; returns the close reason."""
    connected, _ = await communicator.connect(timeout=10)
    assert connected  # accepted: a denied upgrade would show a browser no code and no reason
    closing = await communicator.receive_output(timeout=10)
    assert closing["type"] == "websocket.close" and closing["code"] == CLOSE_TOO_MANY, closing
    reason = closing.get("reason")
    assert isinstance(reason, str) and reason
    # The client's side of the close, as a browser answers one; the consumer then ends at once. (A bare
    # `wait` sat out its whole timeout: asgiref's swallows its own timeout, 5 s a refusal unseen.)
    await communicator.disconnect(timeout=5)
    assert not communicator.future.cancelled(), "the refused socket's consumer did not end"
    return reason


def match_path(match_id: str) -> str:
    return f"/ws/match/{match_id}/"


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
async def test_socket_cap_per_user_and_address(settings: Any) -> None:
    settings.KAIZA_SOCKET_LIMITS = {"match": {"user": 4, "ip": 8}, "process": {"ip": 7}}
    (alice, bob, carol), match_id = await accounts_and_match("alice", "bob", "carol")

    # Four tabs of alice's on her match: all open. The fifth is refused, with the words, and read
    # nothing: no snapshot was sent before the close.
    tabs = [socket(match_path(match_id), alice) for _ in range(4)]
    for tab in tabs:
        await opens(tab)
    assert await refused(socket(match_path(match_id), alice)) == REFUSED_REASONS["match"]
    # ... said in the reader's language (the handshake's Accept-Language, as the page's).
    with translation.override("fi"):
        finnish = translation.gettext(REFUSED_REASONS["match"])
    assert finnish != REFUSED_REASONS["match"]
    assert await refused(socket(match_path(match_id), alice, language="fi")) == finnish
    # Another user on the same match is unaffected.
    bobs = socket(match_path(match_id), bob)
    await opens(bobs)
    # A tab closed gives its place back.
    await tabs.pop().disconnect(timeout=10)
    again = socket(match_path(match_id), alice)
    await opens(again)
    tabs.append(again)
    for tab in [*tabs, bobs]:
        await tab.disconnect(timeout=10)
    assert ratelimit.sockets_open(f"match:{match_id}:user:{alice.pk}") == 0

    # The address cap counts every socket of one address in this process, whoever is logged in and
    # whatever the socket: two matches, the lobby and anonymous visitors, 7 in all, then refused.
    other_id = await another_match(carol)
    address = "203.0.113.7"
    held = [
        socket(match_path(match_id), carol, address),
        socket(match_path(other_id), carol, address),
        socket(match_path(other_id), None, address),
        socket(match_path(match_id), None, address),
        socket("/ws/lobby/", carol, address),
        socket("/ws/lobby/", None, address),
        socket(match_path(other_id), bob, address),
    ]
    for communicator in held:
        await opens(communicator)
    assert ratelimit.sockets_open(f"process:ip:{address}") == 7
    assert await refused(socket(match_path(other_id), alice, address)) == REFUSED_REASONS["process"]
    assert await refused(socket("/ws/lobby/", None, address)) == REFUSED_REASONS["process"]
    # Another address is unaffected.
    elsewhere = socket(match_path(other_id), None, "198.51.100.2")
    await opens(elsewhere)
    for communicator in [*held, elsewhere]:
        await communicator.disconnect(timeout=10)
    assert ratelimit.sockets_open(f"process:ip:{address}") == 0


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
async def test_anonymous_visitors_are_capped_per_address_on_a_match(settings: Any) -> None:
    settings.KAIZA_SOCKET_LIMITS = {"match": {"user": 4, "ip": 3}, "process": {"ip": 100}}
    _users, match_id = await accounts_and_match("dora", "eero")
    held = [socket(match_path(match_id), None, "192.0.2.10") for _ in range(3)]
    for communicator in held:
        await opens(communicator)
    assert await refused(socket(match_path(match_id), None, "192.0.2.10")) == REFUSED_REASONS["match"]
    other = socket(match_path(match_id), None, "192.0.2.11")
    await opens(other)
    for communicator in [*held, other]:
        await communicator.disconnect(timeout=10)


def test_every_refusal_reason_fits_a_close_frame() -> None:
    """A close reason is at most 123 bytes of UTF-8 (RFC 6455 5.5.1): in every language."""
    for language in ("en", "fi", "ru"):
        with translation.override(language):
            for cap, text in REFUSED_REASONS.items():
                said = translation.gettext(text)
                assert language == "en" or said != text, (language, cap)
                assert len(said.encode("utf-8")) <= 123, (language, cap, said)


# --- presence counts people --------------------------------------------------------------------------


async def tab(name: str, match_id: str, user: Any, address: str | None = None) -> tuple[WebsocketCommunicator, Player]:
    communicator, player = communicator_player(name, match_id, user)
    if address is not None:
        communicator.scope["client"] = (address, 50001)
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    await player.until(lambda m: m["t"] == "snapshot")
    return communicator, player


@database_sync_to_async
def watch_page_count(match_id: str) -> int | None:
    return next(row["spectators"] for row in live_matches() if row["id"] == match_id)


@database_sync_to_async
def presence_now(match_id: str) -> dict[str, Any]:
    return match_presence(match_id=match_id)


@database_sync_to_async
def grace_seat(match_id: str) -> int | None:
    return Match.objects.get(pk=match_id).grace_seat


def presence_is(spectators: int, connected: list[bool]) -> Callable[[dict[str, Any]], bool]:
    return lambda m: (
        m["t"] == "presence"
        and m["d"]["spectators"] == spectators
        and [p["connected"] for p in m["d"]["players"]] == connected
    )


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
async def test_presence_counts_people_not_sockets() -> None:
    (alice, bob, carol), match_id = await accounts_and_match("alice", "bob", "carol")
    bob_socket, bob_tab = await tab("bob", match_id, bob)
    alice_tabs = [await tab(f"alice{i}", match_id, alice) for i in range(3)]
    carol_tabs = [await tab(f"carol{i}", match_id, carol) for i in range(3)]
    # Two anonymous tabs from one address are one visitor; another address is another.
    anonymous = [await tab(f"anon{i}", match_id, None, "192.0.2.20") for i in range(2)]
    anonymous.append(await tab("anon-other", match_id, None, "192.0.2.21"))

    # carol's three tabs count once, the two tabs of 192.0.2.20 once, 192.0.2.21 once: 3 people.
    await bob_tab.until(presence_is(3, [True, True]))
    assert (await presence_now(match_id))["spectators"] == 3
    assert await watch_page_count(match_id) == 3

    # One of carol's tabs closes: she is still there (a visitor arriving after it makes the next
    # presence, read after her tab's row was removed: the rows are written in order).
    await carol_tabs.pop()[0].disconnect(timeout=10)
    late = await tab("late", match_id, None, "192.0.2.22")
    await bob_tab.until(presence_is(4, [True, True]))
    assert await watch_page_count(match_id) == 4
    # All of carol's tabs closed: she is gone.
    for communicator, _player in carol_tabs:
        await communicator.disconnect(timeout=10)
    await bob_tab.until(presence_is(3, [True, True]))
    assert await watch_page_count(match_id) == 3

    # Two of alice's three tabs close: she is still connected, and no disconnect grace starts.
    for communicator, _player in alice_tabs[:2]:
        await communicator.disconnect(timeout=10)
    now = await presence_now(match_id)
    assert [p["connected"] for p in now["players"]] == [True, True]
    assert await grace_seat(match_id) is None
    # Her last tab closes: she is away, and the grace runs for her seat (K-9.3).
    await alice_tabs[2][0].disconnect(timeout=10)
    await bob_tab.until(presence_is(3, [False, True]))
    assert await grace_seat(match_id) == 0

    for communicator, _player in [*anonymous, late]:
        await communicator.disconnect(timeout=10)
    await bob_tab.until(presence_is(0, [False, True]))
    await bob_socket.disconnect(timeout=10)


# --- real daphne: what a browser gets on the wire ------------------------------------------------------


async def test_a_refused_socket_gets_the_code_and_the_words_from_daphne(
    daphne_factory: Callable[..., DaphneServer],
) -> None:
    """Through `python -m kaiza_site.serve`: the close frame carries 4429 and the reason, in the
    reader's language (daphne alone drops the reason: kaiza_site.server.daphne_server.KaizaServer.handle_reply)."""
    import websockets

    from tests.matches.test_daphne_play import Browser, create_match

    server = daphne_factory(KAIZA_SOCKET_LIMITS='{"match": {"user": 4, "ip": 2}}')
    match_id = create_match(Browser(server.url))
    url = f"{server.ws_url}/ws/match/{match_id}/"
    held = [await websockets.connect(url, origin=server.url, open_timeout=10) for _ in range(2)]
    for connection in held:
        assert '"snapshot"' in await connection.recv()

    async def refusal(language: str) -> tuple[int | None, str | None]:
        headers = {"Accept-Language": language}
        async with websockets.connect(url, origin=server.url, open_timeout=10, additional_headers=headers) as extra:
            try:
                await extra.recv()
            except websockets.ConnectionClosed as closed:
                frame = closed.rcvd
                return (frame.code, frame.reason) if frame is not None else (None, None)
        return None, None

    with translation.override("ru"):
        russian = translation.gettext(REFUSED_REASONS["match"])
    assert await refusal("en") == (CLOSE_TOO_MANY, REFUSED_REASONS["match"])
    assert await refusal("ru") == (CLOSE_TOO_MANY, russian)

    for connection in held:
        await connection.close()
