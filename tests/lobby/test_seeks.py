"""Quick pairing over the lobby socket: real LobbyConsumers through WebsocketCommunicator, the
queue in the database (game/lobby/services/seeks.py), the server clocks' tick driven with a chosen `now`."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from game.lobby import seek_clock
from game.lobby.services.seeks import WINDOW_EVERY, WINDOW_MAX, WINDOW_START, WINDOW_STEP, seek_window
from game.models import Match, Seek
from game.models.tournaments import DEFAULT_TIME_LIMIT
from game.routing import websocket_urlpatterns
from tests.support.community_factories import make_player
from tests.support.play_support import fresh_channel_layer_and_connections

__all__ = ["fresh_channel_layer_and_connections"]  # autouse fixture, imported to apply

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


class Lobby:
    """One lobby socket of one user."""

    def __init__(self, user: Any) -> None:
        self.communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/lobby/")
        self.communicator.scope["user"] = user if user is not None else AnonymousUser()

    async def open(self) -> Lobby:
        connected, _ = await self.communicator.connect(timeout=10)
        assert connected
        assert (await self.recv())["t"] == "matches"
        return self

    async def send(self, t: str, d: Any = None) -> None:
        await self.communicator.send_to(text_data=json.dumps({"t": t, "d": d} if d is not None else {"t": t}))

    async def recv(self) -> dict[str, Any]:
        return await self.communicator.receive_json_from(timeout=10)

    async def until(self, t: str) -> dict[str, Any]:
        while True:
            message = await self.recv()
            if message["t"] == t:
                return message

    async def quiet(self) -> bool:
        return await self.communicator.receive_nothing(timeout=0.3)

    async def close(self) -> None:
        await self.communicator.disconnect(timeout=10)


def player(name: str, rating: float) -> Any:
    return make_player(name, rating=rating)


async def seek(lobby: Lobby, *, rated: bool = False, time_limit: int | None = None) -> dict[str, Any]:
    await lobby.send("seek", {"rated": rated, "time_limit": time_limit})
    return await lobby.recv()


def seeks() -> int:
    return Seek.objects.count()


async def tick_an_hour_later() -> None:
    """The clock's tick an hour on, when every window is at its widest; no pair is made. Each seek
    also ticks once as it is queued (consumers.handle_seek), after its answer: while that tick holds
    the seeks' rows this one skips them, as one process skips another's (`skip_locked`), so tick again
    until none was skipped."""
    for _ in range(40):
        assert await seek_clock.pair_and_widen(time.time() + 3600) == 0
        windows = await database_sync_to_async(lambda: list(Seek.objects.values_list("window", flat=True)))()
        if windows and all(window == WINDOW_MAX for window in windows):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the seeks never widened: {windows}")


async def test_two_seekers_of_close_ratings_are_paired() -> None:
    ansa, bertta = await database_sync_to_async(lambda: (player("Ansa", 1500), player("Bertta", 1580)))()
    first, second = await Lobby(ansa).open(), await Lobby(bertta).open()

    waiting = await seek(first, rated=True, time_limit=DEFAULT_TIME_LIMIT)
    assert waiting["t"] == "seeking"
    assert waiting["d"] == {"rated": True, "time_limit": DEFAULT_TIME_LIMIT, "waited": 0.0, "window": WINDOW_START}
    assert await first.quiet()  # alone in the queue: nobody to play
    assert (await seek(second, rated=True, time_limit=DEFAULT_TIME_LIMIT))["t"] == "seeking"

    paired_first, paired_second = await first.until("paired"), await second.until("paired")
    assert paired_first == paired_second
    match = await database_sync_to_async(Match.objects.select_related("player1", "player2").get)(
        pk=paired_first["d"]["match_id"]
    )
    assert paired_first["d"]["url"] == f"/m/{match.pk}/"
    # the older seek takes seat 0 and lags first (K-2); the settings are the seekers' choices
    assert (match.player1, match.player2) == (ansa, bertta)
    assert match.status == Match.Status.ACTIVE and match.rated and match.time_limit == DEFAULT_TIME_LIMIT
    assert await database_sync_to_async(seeks)() == 0
    await first.close()
    await second.close()


async def test_far_ratings_pair_only_after_the_window_widens() -> None:
    ansa, bertta = await database_sync_to_async(lambda: (player("Ansa", 1400), player("Bertta", 1660)))()
    first, second = await Lobby(ansa).open(), await Lobby(bertta).open()
    await seek(first)
    await seek(second)
    assert await first.quiet() and await second.quiet()  # 260 apart: beyond ±100
    since = await database_sync_to_async(lambda: Seek.objects.order_by("since").last().since)()

    # 15 s later the newer seek's window is 100 + 3·50 = 250 (< 260): the tick widens, but no pair.
    now = since + 3 * WINDOW_EVERY
    assert seek_window(3 * WINDOW_EVERY) == WINDOW_START + 3 * WINDOW_STEP == 250
    assert await seek_clock.pair_and_widen(now) == 0
    widened = await second.until("seeking")
    assert widened["d"]["window"] == 250
    assert await database_sync_to_async(seeks)() == 2

    # 20 s: ±300 for both, so they pair.
    assert await seek_clock.pair_and_widen(since + 4 * WINDOW_EVERY) == 1
    assert (await first.until("paired"))["d"] == (await second.until("paired"))["d"]
    assert await database_sync_to_async(seeks)() == 0
    await first.close()
    await second.close()


async def test_different_time_limit_choices_never_pair() -> None:
    ansa, bertta = await database_sync_to_async(lambda: (player("Ansa", 1500), player("Bertta", 1500)))()
    first, second = await Lobby(ansa).open(), await Lobby(bertta).open()
    await seek(first, time_limit=None)
    await seek(second, time_limit=DEFAULT_TIME_LIMIT)
    await tick_an_hour_later()
    assert await database_sync_to_async(Match.objects.count)() == 0
    assert (await first.until("seeking"))["d"]["window"] == WINDOW_MAX  # widened to the most, still unpaired
    assert await first.quiet()
    # ...nor rated with casual
    await second.send("seek_cancel")
    assert (await second.until("seek_ended"))["d"] == {"reason": "cancelled"}
    await seek(second, rated=True, time_limit=None)
    await tick_an_hour_later()
    await first.close()
    await second.close()
    assert await database_sync_to_async(seeks)() == 0  # a seek ends when its socket closes


async def test_a_seek_while_in_a_live_match_is_refused_and_nothing_is_stored() -> None:
    def setup() -> Any:
        ansa, bertta = player("Ansa", 1500), player("Bertta", 1500)
        Match.objects.create(created_by=ansa, player1=ansa, player2=bertta, status=Match.Status.ACTIVE)
        return ansa

    lobby = await Lobby(await database_sync_to_async(setup)()).open()
    refused = await seek(lobby)
    assert refused["t"] == "error" and refused["d"]["code"] == "in_a_match"
    assert "live match" in refused["d"]["message"]
    assert await database_sync_to_async(seeks)() == 0
    await lobby.close()


async def test_bad_seeks_get_clear_errors_and_store_nothing() -> None:
    guest = await database_sync_to_async(lambda: make_player("Vieras", is_guest=True))()
    anonymous = await Lobby(None).open()
    assert (await seek(anonymous))["d"]["code"] == "not_signed_in"
    await anonymous.close()
    lobby = await Lobby(guest).open()
    assert (await seek(lobby, rated=True))["d"]["code"] == "needs_account"
    assert (await seek(lobby, time_limit=60))["d"]["code"] == "bad_value"
    await lobby.send("seek", {"rated": "yes"})
    assert (await lobby.recv())["d"]["code"] == "bad_value"
    await lobby.send("seek", {"colour": "white"})
    assert (await lobby.recv())["d"]["code"] == "bad_shape"
    assert await database_sync_to_async(seeks)() == 0
    await lobby.send("ping")
    assert (await lobby.recv())["t"] == "pong"
    await lobby.close()


def test_concurrent_ticks_pair_each_seek_once() -> None:
    """Two server processes ticking at the same moment over four waiting seeks: the queue is locked as
    one, so every seek ends in exactly one match (never two matches for one seek) and both pairs are
    made (with SKIP LOCKED the two ticks once split the queue and made one pair between them)."""
    import threading

    from django.db import connection

    from game.lobby.services.seeks import seeks_pair

    now = time.time()
    for index, (name, rating) in enumerate((("A", 1500), ("B", 1520), ("C", 1800), ("D", 1810))):
        user = player(name, rating)
        Seek.objects.create(user=user, channel_name=f"test!{name}", rating=rating, since=now + index, window=100)
    barrier = threading.Barrier(2)
    made: list[list[str]] = []

    def tick() -> None:
        try:
            barrier.wait(timeout=10)
            made.append([pair.match_id for pair in seeks_pair(now=now + 10)])
        finally:
            connection.close()

    threads = [threading.Thread(target=tick) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sum(len(m) for m in made) == 2 and Seek.objects.count() == 0
    pairs = sorted(
        sorted([m.player1.profile.display_name, m.player2.profile.display_name]) for m in Match.objects.all()
    )
    assert pairs == [["A", "B"], ["C", "D"]]  # by rating: nobody in two matches


def test_a_window_only_widens() -> None:
    """A tick that reads an earlier time than one already applied (the seek's own tick as it is queued,
    racing the clock loop's; another process's clock a little behind) neither narrows the window nor
    tells the seeker anything: once a window was announced at its widest it stays so. Before, the
    stale tick narrowed it and the next tick announced the widest window a second time (the CI failure
    of stop 38 in test_different_time_limit_choices_never_pair)."""
    from game.lobby.services.seeks import seeks_widen

    since = time.time()
    user = player("Ansa", 1500)
    Seek.objects.create(user=user, channel_name="test!ansa", rating=1500, since=since, window=WINDOW_START)
    widest = seeks_widen(now=since + 3600)
    assert [w.info["window"] for w in widest] == [WINDOW_MAX]
    assert seeks_widen(now=since + 1) == []  # the stale tick: nothing to tell
    assert Seek.objects.get().window == WINDOW_MAX
    assert seeks_widen(now=since + 3601) == []  # nothing grew since it was announced
