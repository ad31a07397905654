"""One authority per real game: two phones scoring one table through real TableScorerConsumers
(WebsocketCommunicator) see one game; a tap sent twice counts once; a follower's socket is read-only."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from game.models.realgames import RealGame, RealGameTap
from game.realgames.services import apply_tap, free_game, scoring_table_add, undo_last
from game.routing import websocket_urlpatterns
from tests.support.community_factories import make_club, make_player
from tests.support.play_support import fresh_channel_layer_and_connections

__all__ = ["fresh_channel_layer_and_connections"]  # autouse fixture, imported to apply

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


class Phone:
    """One socket on a real game."""

    def __init__(self, path: str) -> None:
        self.communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)

    async def open(self) -> dict[str, Any]:
        connected, _ = await self.communicator.connect(timeout=10)
        assert connected
        return await self.until("real_state")

    async def send(self, t: str, d: Any = None) -> None:
        await self.communicator.send_to(text_data=json.dumps({"t": t, "d": d} if d is not None else {"t": t}))

    async def until(self, t: str) -> dict[str, Any]:
        while True:
            message = await self.communicator.receive_json_from(timeout=10)
            if message["t"] == t:
                return message

    async def at(self, version: int) -> dict[str, Any]:
        while True:
            state = await self.until("real_state")
            if state["d"]["version"] >= version:
                return state

    async def close(self) -> None:
        await self.communicator.disconnect(timeout=10)


def a_table_with_a_game(tag: str) -> tuple[str, int]:
    club = make_club(f"Scorers {tag}", make_player(f"Owner{tag}"))
    table = scoring_table_add(club_id=club.pk, number=1, name="Table 1")
    game = free_game(table=table, names=("Aino", "Bertta"))
    return table.token, game.pk


async def test_two_scorers_one_game() -> None:
    token, game_id = await database_sync_to_async(a_table_with_a_game)("two")
    one, two = Phone(f"/ws/tables/{token}/"), Phone(f"/ws/tables/{token}/")
    follower = Phone(f"/ws/realgame/{game_id}/")
    first = await one.open()
    await two.open()
    await follower.open()
    assert first["d"]["game"]["players"][0]["name"] == "Aino"

    tap = {"kind": "pot", "ball": "red", "pocket": "foot_left", "caroms": ["kaisa"]}
    await one.send("tap", {"key": "one-1", "tap": tap})
    ack = await one.until("real_ack")
    assert ack["d"]["version"] == 1 and ack["d"]["verdict"]["points"] == 9
    assert "K-5.3" in ack["d"]["verdict"]["rules"] and ack["d"]["verdict"]["words"]["fi"]
    seen_by_two = await two.until("real_state")
    seen_by_follower = await follower.until("real_state")
    for seen in (seen_by_two, seen_by_follower):
        assert seen["d"]["version"] == 1
        assert seen["d"]["game"]["players"][0]["score"] == 9
        assert seen["d"]["game"]["last_shots"][0]["rules"] == ack["d"]["verdict"]["rules"]

    # The second phone taps the next shot: a miss, the turn passes; both see version 2.
    await two.send("tap", {"key": "two-1", "tap": {"kind": "miss", "ball": "white"}})
    assert (await two.until("real_ack"))["d"]["version"] == 2
    assert (await one.at(2))["d"]["game"]["turn"] == 1

    # The first phone's tap again (its connection dropped before the ack): answered, not applied.
    await one.send("tap", {"key": "one-1", "tap": tap})
    again = await one.until("real_ack")
    assert again["d"]["duplicate"] is True and again["d"]["version"] == 2

    # A refused tap: K-6.4 is a visit's; here a malformed one is refused in words, nothing stored.
    await two.send("tap", {"key": "two-2", "tap": {"kind": "pot", "ball": "blue"}})
    refused = await two.until("real_refused")
    assert refused["d"]["key"] == "two-2" and refused["d"]["code"] == "bad_tap"

    await follower.send("tap", {"key": "f-1", "tap": tap})
    assert (await follower.until("error"))["d"]["code"] == "read_only"

    for phone in (one, two, follower):
        await phone.close()
    game = await database_sync_to_async(RealGame.objects.get)(pk=game_id)
    assert (game.version, game.first_score, game.second_score) == (2, 9, 0)
    assert await database_sync_to_async(RealGameTap.objects.filter(game_id=game_id).count)() == 2


async def test_unknown_table_is_closed() -> None:
    phone = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/tables/no-such-token-here/")
    connected, code = await phone.connect(timeout=10)
    assert not connected or code == 4404


def test_scorer_undo_service() -> None:
    """The service's undo: the last tap taken back (kept, marked), the version still counted up, the
    same undo key twice undoes once."""
    _token, game_id = a_table_with_a_game("undo")
    apply_tap(game_id, "k-1", {"kind": "pot", "ball": "kaisa", "pocket": "foot_left", "caroms": ["red"]})
    apply_tap(game_id, "k-2", {"kind": "pot", "ball": "red", "pocket": "foot_left"})
    first = undo_last(game_id, "u-1")
    second = undo_last(game_id, "u-1")
    assert first.accepted and second.duplicate and second.version == first.version == 3
    game = RealGame.objects.get(pk=game_id)
    assert game.first_score == 12 and game.state["players"][0]["run"] == 12
    assert list(game.taps.order_by("seq").values_list("undone", flat=True)) == [False, True, False]
