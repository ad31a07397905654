""" "Play the computer" end to end on a real daphne: one POST, a guest seat, and a bot that plays.

The bot's search runs in the server's process pool; what the test sees is what a browser sees: the
bot's aim relayed live before its shot, then its versioned shot event, the rules accepting every move.
"""

from __future__ import annotations

import asyncio
import re
import time
import urllib.parse
from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from bench.loadtest.seats import HttpSession
from game.engine.bot import quick_move
from tests.support.daphne import DaphneServer
from tests.support.play_support import connect_websocket, next_ack


def play_computer(server: DaphneServer, level: int) -> tuple[str, HttpSession]:
    session = HttpSession(server.url)
    session.get("/")
    session.get("/lobby/")  # the CSRF cookie
    landed = session.post(reverse("play_computer"), {"level": str(level)})
    found = re.search(r"/m/([a-z0-9]+)/$", urllib.parse.urlparse(landed).path)
    assert found is not None, landed
    return found.group(1), session


async def human_plays_until_the_bot_shoots(server: DaphneServer, match_id: str, cookie: str) -> dict[str, Any]:
    me = await connect_websocket("human", f"{server.ws_url}/ws/match/{match_id}/", cookie, server.url)
    snapshot = me.versioned[-1]
    my_name = snapshot["d"]["you"]["name"]
    assert snapshot["d"]["you"]["role"] == "player"
    bot_name = next(p["name"] for p in me.state["players"] if p["name"] != my_name)
    aims_before_shot = 0
    bot_actions: list[str] = []
    for _ in range(200):
        pending = me.pending()
        mine = [action for name, action in pending if name == my_name]
        if mine and (mine[0] != "lag" or pending[0][0] == my_name):
            move = quick_move(me.state, player=my_name, seed=me.v)
            data: dict[str, Any]
            if move["action"] in ("shoot",):
                data = {"call": move["call"], "strike": move["strike"]}
            elif move["action"] == "lag":
                data = {"strike": move["strike"]}
            elif move["action"] == "place":
                data = {"ball": move["ball"], "x": move["x"], "y": move["y"]}
            else:
                data = {"take": move["take"]}
            await me.send(move["action"], data, ack=next_ack(), v=me.v)
        message = await me.until(lambda m: "v" in m or m["t"] in ("aim", "error"), timeout=30)
        assert message["t"] != "error", message
        if message["t"] == "aim":
            assert message["d"]["player"] == bot_name
            aims_before_shot += 1
            continue
        if message["t"] in ("shot", "placed", "choice") and message["d"]["player"] == bot_name:
            bot_actions.append(message["t"] + ":" + str(message["d"].get("kind")))
            if message["t"] == "shot" and message["d"]["kind"] == "shot":
                return {"aims": aims_before_shot, "bot": bot_name, "actions": bot_actions, "shot": message}
            if message["t"] == "shot":
                aims_before_shot = 0
        if message["t"] == "finished":
            break
    await me.close()
    raise AssertionError(f"the bot never shot; its actions: {bot_actions}")


@pytest.mark.parametrize("level", [1])
def test_play_the_computer_in_one_click(daphne_factory: Callable[..., DaphneServer], level: int) -> None:
    server = daphne_factory(KAIZA_BOT_PACE="0.3")
    match_id, session = play_computer(server, level)
    assert session.cookie("sessionid"), "a guest session was not opened"
    seen = asyncio.run(
        asyncio.wait_for(human_plays_until_the_bot_shoots(server, match_id, session.header()), timeout=150)
    )
    assert seen["bot"] == "Bot-L1"
    assert seen["aims"] >= 3, "the bot's aim was not shown before its shot"
    verdict = seen["shot"]["d"]["verdict"]
    assert verdict is not None and "reason" in verdict
    assert any(a.startswith("shot:lag") for a in seen["actions"]), seen["actions"]


def test_play_the_computer_needs_a_post(client: Any) -> None:
    response = client.get(reverse("play_computer"))
    assert response.status_code == 405


def two_bots() -> str:
    """A casual match between two computer players (as a tournament of bots seats them), in its lag."""
    from game.matches.services import match_create, match_join
    from tests.support.community_factories import make_player

    suffix = str(time.monotonic_ns())[-6:]
    first = make_player(f"Ansa{suffix}", is_bot=True, bot_level=1)
    second = make_player(f"Bea{suffix}", is_bot=True, bot_level=1)
    match, _ = match_create(user=first, rated=False, time_limit=None, shot_clock=None)
    match_join(match_id=match.pk, user=second)
    return str(match.pk)


two_bots_seated = database_sync_to_async(two_bots)


@database_sync_to_async
def version_of(match_id: str) -> int:
    from game.models import Match

    return int(Match.objects.values_list("version", flat=True).get(pk=match_id))


@database_sync_to_async
def stop(match_id: str) -> None:
    """Test tear-down only: end the match (as an admin's abort would) so no wake-up finds a move."""
    from game.models import Match

    Match.objects.filter(pk=match_id).update(status=Match.Status.ABORTED)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
async def test_a_wake_that_used_up_its_moves_hands_the_match_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two computer players in one match are played by one loop; when a wake-up has played its
    MAX_MOVES_PER_WAKE moves it wakes the match again instead of leaving it stalled (the round robin of
    bots in tests/e2e/test_tournament_live.py hung there once its level-1 bots needed more moves)."""
    from game.matches import bot_runner

    monkeypatch.setattr(bot_runner, "MAX_MOVES_PER_WAKE", 1)
    monkeypatch.setattr(bot_runner, "bot_pace", lambda: 0.0)
    match_id = await two_bots_seated()
    start = await version_of(match_id)
    await bot_runner.bot_turn_if_due(match_id)  # one move, then a hand-over to a fresh wake-up
    # At least its one move: the fresh wake-up it handed over to may have played on while this reads.
    assert await version_of(match_id) >= start + 1
    for _ in range(300):  # bounded: the handed-over wake-ups play on (the lags, the break choice, shots)
        if await version_of(match_id) >= start + 4:
            break
        await asyncio.sleep(0.05)
    assert await version_of(match_id) >= start + 4, "the match stalled after the first wake-up's moves"
    await stop(match_id)  # the chain of wake-ups would play on to the end of the match
    for _ in range(200):
        if not bot_runner.playing(match_id):
            break
        await asyncio.sleep(0.05)
    assert not bot_runner.playing(match_id)


@pytest.mark.services
@pytest.mark.django_db
def test_a_bot_move_sent_again_is_stored_once() -> None:
    """The database failed after the bot's move was committed, before the answer came back: the runner
    sends the same move again, with the same ack (the version it was made against). It is answered
    from storage, so the runner publishes it and plays on; it is not applied twice, nor refused as
    stale (which left its event unpublished and the bot stopped, with nobody to wake it)."""
    from game.engine.bot import choose_move
    from game.matches.bot_runner import bot_due, play_move, seed_for
    from game.models import Match, Shot

    match_id = two_bots()
    due = bot_due(match_id)
    assert due is not None and due.action == "lag"
    move = choose_move(due.snapshot, due.level, player=due.name, seed=seed_for(match_id, due.version))
    first = play_move(match_id, due, move)
    again = play_move(match_id, due, move)
    assert [e["v"] for e in first.events] == [due.version + 1]
    assert not again.events and [(e["t"], e["v"]) for e in again.reply] == [("shot", due.version + 1)]
    assert Match.objects.get(pk=match_id).version == due.version + 1
    assert Shot.objects.filter(match_id=match_id, player_id=due.user_id).count() == 1
