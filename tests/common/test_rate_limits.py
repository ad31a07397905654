"""Rate limits on our own actions: over HTTP per user and per client address with the
site's 429 page, guest creation per address, and websocket messages per user across sockets."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client

from game.common import ratelimit
from game.matches.services import match_create
from game.models import Club, Match, Profile
from game.routing import websocket_urlpatterns
from tests.support.community_factories import make_player
from tests.support.play_support import fast_password_hasher, fresh_channel_layer_and_connections

__all__ = ["fast_password_hasher", "fresh_channel_layer_and_connections"]  # autouse fixtures, imported to apply

pytestmark = pytest.mark.services


def guests() -> int:
    return Profile.objects.filter(is_guest=True).count()


@pytest.mark.django_db
def test_guest_creation_is_rate_limited(settings) -> None:
    settings.KAIZA_RATE_LIMITS = {**settings.KAIZA_RATE_LIMITS, "guest_create": {"ip": (3, 600)}}
    statuses = []
    for _ in range(5):
        # A new browser each time (no session): every request would make a fresh guest.
        response = Client(REMOTE_ADDR="10.3.3.3").post("/play/computer/", {"level": "1"})
        statuses.append(response.status_code)
    assert statuses == [302, 302, 302, 429, 429]
    assert guests() == 3
    page = Client(REMOTE_ADDR="10.3.3.3").post("/lobby/create/", {"opponent": "human"})
    assert page.status_code == 429
    text = page.content.decode()
    assert "Slow down a little" in text and 'class="site-header"' in text
    assert guests() == 3 and Match.objects.filter(status=Match.Status.OPEN).count() == 0
    # Another address is not affected, and a guest who has a session keeps playing.
    other = Client(REMOTE_ADDR="10.4.4.4")
    assert other.post("/lobby/create/", {"opponent": "human"}).status_code == 302
    assert other.post("/play/computer/", {"level": "2"}).status_code == 302
    assert guests() == 4


@pytest.mark.django_db
def test_match_creation_is_limited_per_user_and_per_address(settings) -> None:
    settings.KAIZA_RATE_LIMITS = {
        **settings.KAIZA_RATE_LIMITS,
        "match_create": {"user": (2, 60), "ip": (4, 60)},
    }
    alice, bob = make_player("Alice"), make_player("Bob")
    first = Client(REMOTE_ADDR="10.5.5.5")
    first.force_login(alice)
    assert [first.post("/lobby/create/", {"opponent": "human"}).status_code for _ in range(3)] == [302, 302, 429]
    # Bob, from the same address: the address (which counted Alice's refused try too) has one left.
    second = Client(REMOTE_ADDR="10.5.5.5")
    second.force_login(bob)
    assert [second.post("/lobby/create/", {"opponent": "human"}).status_code for _ in range(2)] == [302, 429]
    assert Match.objects.count() == 3
    # Joining has its own budget.
    match = Match.objects.filter(created_by=alice).first()
    assert second.post(f"/m/{match.id}/join/").status_code == 302


@pytest.mark.django_db
def test_club_creation_is_rate_limited(settings) -> None:
    settings.KAIZA_RATE_LIMITS = {**settings.KAIZA_RATE_LIMITS, "club_create": {"user": (1, 3600)}}
    client = Client()
    client.force_login(make_player("Owner"))
    data = {"name": "Kaisa Club", "slug": "kaisa-club", "description": "", "join_policy": "open"}
    assert client.post("/clubs/new/", data).status_code == 302
    response = client.post("/clubs/new/", {**data, "name": "Second Club", "slug": "second-club"})
    assert response.status_code == 429 and Club.objects.count() == 1
    # Reading the form is free.
    assert client.get("/clubs/new/").status_code == 200


@pytest.mark.django_db(transaction=True)
async def test_socket_limits_hold_per_user_across_sockets(monkeypatch) -> None:
    """Two sockets of one spectator share the user's budget: together they get no more than one
    user's burst, where each alone would be allowed its own socket burst."""
    monkeypatch.setitem(ratelimit.MESSAGE_BUDGETS, ("user", "other"), (6.0, 0.01))
    ratelimit.reset_message_budgets()
    owner, watcher = await database_sync_to_async(lambda: (make_player("Owner"), make_player("Watcher")))()
    match, _ = await database_sync_to_async(match_create)(
        user=owner, rated=False, time_limit=None, shot_clock=None, opponent_bot_level=None
    )
    sockets = []
    for _ in range(2):
        communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/match/{match.id}/")
        communicator.scope["user"] = watcher
        connected, _ = await communicator.connect(timeout=10)
        assert connected
        sockets.append(communicator)

    async def ping_replies(communicator: WebsocketCommunicator, count: int) -> list[str]:
        replies = []
        for _ in range(count):
            await communicator.send_to(text_data=json.dumps({"t": "ping"}))
        while len(replies) < count:
            message = json.loads(await communicator.receive_from(timeout=5))
            if message["t"] == "pong":
                replies.append("pong")
            elif message["t"] == "error":
                replies.append(message["d"]["code"])
        return replies

    first = await ping_replies(sockets[0], 4)
    second = await ping_replies(sockets[1], 4)
    # The spectator socket allows 8 at once; the user's shared budget is 6 for both sockets.
    assert first == ["pong"] * 4
    assert second == ["pong", "pong", "rate_limited", "rate_limited"]
    for communicator in sockets:
        await communicator.disconnect()
    assert await database_sync_to_async(get_user_model().objects.count)() == 2


def test_a_window_edge_does_not_double_the_limit() -> None:
    """3 in 600 s: three hits just before a window's edge and one just after are four within two
    seconds, refused; once the sliding window has moved past them, hits count again."""
    from django.core.cache import cache

    cache.clear()
    edge = 600.0 * 2_000_000
    assert [ratelimit.window_take("edge", 3, 600, now=edge - 1) for _ in range(3)] == [True, True, True]
    assert ratelimit.window_take("edge", 3, 600, now=edge + 1) is False, "the edge let a fourth through"
    assert ratelimit.window_take("edge", 3, 600, now=edge + 300) is False  # half the old window still counts
    # Refused hits count too (an address that keeps trying keeps its count): two so far in this window.
    assert ratelimit.window_take("edge", 3, 600, now=edge + 599) is True  # the old window has slid past
    assert ratelimit.window_take("other", 3, 600, now=edge + 1) is True, "each key counts alone"


@pytest.mark.redis
def test_limits_hold_across_processes_with_redis(daphne_factory, redis_url: str) -> None:
    """Two daphne processes sharing REDIS_URL share the counts: 3 guests per address in all."""
    import urllib.error
    import urllib.request
    import uuid

    env = {
        "REDIS_URL": redis_url,
        "CACHE_KEY_PREFIX": f"kaiza-test-{uuid.uuid4().hex[:12]}",
        "KAIZA_RATE_LIMITS": '{"guest_create": {"ip": [3, 600]}}',
    }
    servers = [daphne_factory(**env), daphne_factory(**env)]

    def new_guest(url: str) -> int:
        """A fresh browser: the CSRF cookie from the home page, then one click on "play the computer"."""
        import http.cookiejar
        import re

        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        html = opener.open(url + "/", timeout=10).read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
        request = urllib.request.Request(
            url + "/play/computer/",
            data=f"csrfmiddlewaretoken={token}&level=1".encode(),
            headers={"Referer": url + "/", "Content-Type": "application/x-www-form-urlencoded"},
        )
        try:
            return opener.open(request, timeout=20).status
        except urllib.error.HTTPError as error:
            return error.code

    statuses = [new_guest(servers[i % 2].url) for i in range(5)]
    assert statuses == [200, 200, 200, 429, 429]
