"""The game clock (game/common/clock.py) is the one time of every server deadline: moved forward, the
poll every daphne process runs (`deadline_runner.fire_due`, `seek_clock.pair_and_widen`, called here
without a `now`, as the processes call them) fires the shot clock, the disconnect grace, K-11's
warning, a tournament's no-show forfeit and a seek's widening at once, with no real wait; and the
test-only endpoint that moves it in a server process does not exist where the setting is off.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import NoReverseMatch, reverse

from game.common import clock
from game.lobby import seek_clock
from game.lobby.services.seeks import WINDOW_EVERY, WINDOW_START, WINDOW_STEP
from game.matches.clock_runner import fire_due
from game.matches.selectors.match_state import disconnect_grace
from game.matches.services.deadlines import deadlines_fire_due
from game.models import Match, Seek
from game.models.tournaments import NO_SHOW_AFTER
from tests.lobby.test_seeks import Lobby, player, seek
from tests.matches.test_match_lifecycle import (
    SHOT_CLOCK,
    close_all,
    grace_seat_becomes,
    names_of,
    put_position,
    row,
    three_sockets,
    two_players,
)
from tests.support.daphne import DaphneServer
from tests.support.play_support import connect_communicator, near_end_snapshot
from tests.tournaments.test_tournaments import _on_page, _round_robin_of_two

pytestmark = [pytest.mark.django_db(transaction=True)]


async def _shot_clock() -> None:
    alice_user, bob_user, match_id = await two_players(shot_clock=SHOT_CLOCK)
    names = await names_of(match_id)
    await put_position(match_id, near_end_snapshot(names, shooter_score=10, other_score=7))
    alice, bob, spectator = await three_sockets(match_id, alice_user, bob_user)
    assert await fire_due() == 0
    clock.advance(SHOT_CLOCK + 1)
    assert await fire_due() == 1
    timeout = await spectator.until(lambda m: m["t"] == "timeout")
    assert (timeout["d"]["player"], timeout["d"]["count"]) == (names[0], 1)
    assert await fire_due() == 0  # once
    await close_all(alice, bob, spectator)


async def _grace(before: float | None = None, after: float = 1.0) -> None:
    """bob leaves; nothing fires `before` the grace's end (default: at once), the match ends `after`
    it, for alice (the grace read when bob left: KAIZA_DISCONNECT_GRACE)."""
    alice_user, bob_user, match_id = await two_players()
    names = await names_of(match_id)
    await put_position(match_id, near_end_snapshot(names, shooter_score=10, other_score=7))
    alice = await connect_communicator("alice", match_id, alice_user)
    bob = await connect_communicator("bob", match_id, bob_user)
    await grace_seat_becomes(match_id, None)
    await bob.close()
    await grace_seat_becomes(match_id, 1)
    grace = disconnect_grace()
    if before is None:
        assert await fire_due() == 0
        clock.advance(grace + after)
    else:
        clock.advance(grace - before)
        assert await fire_due() == 0
        clock.advance(before + after)
    assert await fire_due() == 1
    finished = await alice.until(lambda m: m["t"] == "finished")
    assert finished["d"]["winner"] == names[0]
    assert (await row(match_id)).status == Match.Status.FINISHED
    await alice.close()


async def _time_limit() -> None:
    alice_user, bob_user, match_id = await two_players(time_limit=600)
    names = await names_of(match_id)
    match = await row(match_id)
    position = near_end_snapshot(names, shooter_score=10, other_score=7)
    position["clock"] = match.snapshot["clock"]
    await put_position(match_id, position)
    alice, bob, spectator = await three_sockets(match_id, alice_user, bob_user)
    warning_at = alice.versioned[0]["d"]["clock"]["warning_at"]
    clock.advance(warning_at - clock.game_now() + 0.5)
    assert await fire_due() == 1
    notice = await spectator.until(lambda m: m["t"] == "notice")
    assert notice["d"]["kind"] == "time_warning"
    clock.advance(600)
    assert await fire_due() == 1
    notice = await spectator.until(lambda m: m["t"] == "notice")
    assert notice["d"]["kind"] == "time_up"
    await close_all(alice, bob, spectator)


@database_sync_to_async
def _no_show() -> None:
    _, _, players, pairing = _round_robin_of_two(("Aino", "Bertta"))
    assert pairing.match is not None
    _on_page(pairing.match, players["Aino"], 0)  # Bertta never comes
    assert deadlines_fire_due() == []
    clock.advance(NO_SHOW_AFTER + 1)
    fired = deadlines_fire_due()
    assert [match_id for match_id, _ in fired] == [pairing.match.pk]
    pairing.refresh_from_db()
    assert (pairing.how, pairing.winner.name) == ("forfeit", "Aino")


async def _seek_widening() -> None:
    ansa, bertta = await database_sync_to_async(lambda: (player("Ansa", 1400), player("Bertta", 1660)))()
    first, second = await Lobby(ansa).open(), await Lobby(bertta).open()
    await seek(first)
    await seek(second)
    assert await first.quiet() and await second.quiet()  # 260 apart: beyond the first window
    since = await database_sync_to_async(lambda: Seek.objects.order_by("since").last().since)()
    clock.advance(since + 3 * WINDOW_EVERY - clock.game_now())
    assert await seek_clock.pair_and_widen() == 0
    widened = await second.until("seeking")
    assert widened["d"]["window"] == WINDOW_START + 3 * WINDOW_STEP
    clock.advance(WINDOW_EVERY)
    assert await seek_clock.pair_and_widen() == 1
    assert (await first.until("paired"))["d"] == (await second.until("paired"))["d"]
    await first.close()
    await second.close()


DEADLINES: dict[str, tuple[Callable[[], Any], float]] = {
    # what fires, and how long the wall clock would have had to wait for it
    "shot_clock": (_shot_clock, SHOT_CLOCK),
    "grace": (_grace, disconnect_grace()),
    "time_limit": (_time_limit, 600),
    "no_show": (_no_show, NO_SHOW_AFTER),
    "seek_widening": (_seek_widening, 4 * WINDOW_EVERY),
}


@pytest.mark.services
@pytest.mark.parametrize("deadline", sorted(DEADLINES))
async def test_game_clock_drives_every_deadline(deadline: str) -> None:
    run, real_wait = DEADLINES[deadline]
    started = time.monotonic()
    await run()
    # Fired by the game clock: the wall clock moved far less than the deadline's own length.
    assert time.monotonic() - started < real_wait, (deadline, time.monotonic() - started)
    assert clock.offset() >= real_wait * 0.9


@pytest.mark.services
async def test_the_grace_setting_is_read_at_call_time(settings: Any) -> None:
    """KAIZA_DISCONNECT_GRACE is read when a player leaves, not when the module was imported: a grace
    of 7 s set on a running process ends the match 8 s of game clock after the player left."""
    settings.KAIZA_DISCONNECT_GRACE = 7.0
    await _grace(before=1.0, after=1.0)  # nothing at 6 s, the end at 8 s (the default grace is 60 s)


def test_the_game_clock_only_moves_forward() -> None:
    for bad in (0, -1, clock.MAX_STEP + 1, float("nan")):
        with pytest.raises(ValueError):
            clock.advance(bad)
    assert clock.offset() == 0.0


def test_test_clock_endpoint_absent_in_production(settings: Any) -> None:
    """The deployment's settings (KAIZA_TEST_CLOCK off, its default) mount no clock endpoint: the URL
    is not routed (404) and the clock does not move."""
    assert settings.KAIZA_TEST_CLOCK is False
    with pytest.raises(NoReverseMatch):
        reverse("test_clock_advance")
    response = Client().post("/test/clock/advance", {"seconds": 100}, content_type="application/json")
    assert response.status_code == 404
    assert clock.offset() == 0.0


def test_the_test_clock_endpoint_refuses_bad_input(daphne_factory: Callable[..., DaphneServer]) -> None:
    """In a test server (KAIZA_TEST_CLOCK=1) the endpoint moves the clock forward only; a bad body is
    a 400 with the reason and the clock stays."""
    import json
    import urllib.error
    import urllib.request

    server = daphne_factory()
    for body in (b"{}", b'{"seconds": -5}', b'{"seconds": "soon"}', b"not json", b'{"seconds": 1e9}'):
        request = urllib.request.Request(f"{server.url}/test/clock/advance", data=body, method="POST")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 400
        assert "seconds" in json.loads(refused.value.read())["error"]
    assert server.advance_clock(30) == 30.0
    assert server.advance_clock(5) == 35.0
