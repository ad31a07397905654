"""Tournament pages and the tournament socket: the admin's form (validation, refusals), the
tournament page (standings, rounds, the SVG bracket), the home page's list and the header's badge, the
club page's history, and `ws/tournament/<id>/` hearing a match finished through the real MatchConsumer.
"""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from game.matches.services import match_join
from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing
from game.routing import websocket_urlpatterns
from game.tournaments.services import tournament_close_entries, tournament_create, tournament_enter
from tests.support.community_factories import make_club, make_player
from tests.support.play_support import connect_communicator, fresh_channel_layer_and_connections

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
__all__ = ["fresh_channel_layer_and_connections"]


def _club(names: dict[str, float]) -> tuple[Any, Any, dict[str, Any]]:
    owner = make_player("Owner")
    players = {n: make_player(n, rating=r) for n, r in names.items()}
    return make_club("Kaisa Club", owner, members=tuple(players.values())), owner, players


def _started(fmt: str, names: dict[str, float]) -> tuple[Tournament, Any, dict[str, Any]]:
    club, owner, players = _club(names)
    tournament = tournament_create(user=owner, club=club, name="Winter cup", format=fmt, starts_at=timezone.now())
    for user in players.values():
        tournament_enter(user=user, tournament_id=tournament.pk)
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    return tournament, owner, players


def test_club_admin_creates_a_tournament_through_the_form(client: Any) -> None:
    club, owner, players = _club({"Aino": 1600})
    client.force_login(players["Aino"])
    assert client.get(f"/clubs/{club.slug}/tournaments/new/").status_code == 403
    client.force_login(owner)
    page = client.get(f"/clubs/{club.slug}/").content.decode()
    assert "New tournament" in page and f"/clubs/{club.slug}/tournaments/new/" in page
    form = client.get(f"/clubs/{club.slug}/tournaments/new/").content.decode()
    assert '<option value="kaisa_rules" selected>' in form  # K-11: the limit is on by default (60 + 5)
    start = (timezone.localtime(timezone=club.zone) + datetime.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    data = {
        "name": "Cup",
        "format": "swiss",
        "kind": "singles",
        "rated": "on",
        "time_limit": "65",
        "max_entries": "1",
        "starts_at": start,
    }
    bad = client.post(f"/clubs/{club.slug}/tournaments/new/", data)
    assert bad.status_code == 400 and Tournament.objects.count() == 0
    data["max_entries"] = "8"
    data["starts_at"] = "2001-01-01T10:00"
    bad = client.post(f"/clubs/{club.slug}/tournaments/new/", data)
    assert bad.status_code == 400 and "the start time is in the past" in bad.content.decode()
    assert Tournament.objects.count() == 0
    data["starts_at"] = start
    made = client.post(f"/clubs/{club.slug}/tournaments/new/", data)
    tournament = Tournament.objects.get()
    assert made.status_code == 302 and made["Location"] == f"/tournaments/{tournament.pk}/"
    assert (tournament.format, tournament.time_limit, tournament.rated, tournament.max_entries) == (
        "swiss",
        3900,
        True,
        8,
    )
    history = client.get(f"/clubs/{club.slug}/").content.decode()
    assert f'href="/tournaments/{tournament.pk}/"' in history and "Swiss system" in history
    # A member enters from the page; an outsider is refused with the service's words.
    client.force_login(players["Aino"])
    client.post(f"/tournaments/{tournament.pk}/enter/")
    assert TournamentEntry.objects.filter(tournament=tournament).count() == 1
    client.force_login(make_player("Outsider"))
    refused = client.post(f"/tournaments/{tournament.pk}/enter/")
    assert refused.status_code == 403 and "only the club" in refused.content.decode()
    assert TournamentEntry.objects.filter(tournament=tournament).count() == 1
    # Closing the entries is for admins only.
    client.force_login(players["Aino"])
    assert client.post(f"/tournaments/{tournament.pk}/close/").status_code == 403
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.REGISTRATION


def test_tournament_page_bracket_home_list_and_badge(client: Any) -> None:
    tournament, _, players = _started(
        "single_elimination", {"Aino": 1900, "Bertta": 1800, "Celia": 1700, "Dora": 1600, "Eeva": 1500}
    )
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "<svg" in page and "Standings" in page and "Round 1" in page
    assert page.count(">bye<") >= 3 and "Dora" in page and "Eeva" in page
    match = TournamentPairing.objects.get(tournament=tournament, second__isnull=False).match
    client.force_login(players["Eeva"])
    home = client.get("/").content.decode()
    assert "Your tournament matches to play" in home and f"/m/{match.pk}/" in home and "against Dora" in home
    assert "data-tournament-badge" in home and ">1</a>" in home
    client.force_login(players["Aino"])  # a bye: nothing to play
    assert "data-tournament-badge" not in client.get("/").content.decode()
    parts = client.get(f"/tournaments/{tournament.pk}/parts/").content.decode()
    assert "data-tournament-parts" in parts and "<html" not in parts
    live = client.get(f"/tournaments/{tournament.pk}/live/").content.decode()
    assert f'data-match="{match.pk}"' in live and "waiting for the players" in live


def test_the_admin_lists_tournaments_pairings_and_kept_fixes(client: Any) -> None:
    tournament, _, _ = _started("round_robin", {"Aino": 1700, "Bertta": 1600})
    admin_user = make_player("Root")
    admin_user.is_staff = admin_user.is_superuser = True
    admin_user.save()
    client.force_login(admin_user)
    changelist = client.get("/admin/game/tournament/").content.decode()
    assert "Winter cup" in changelist
    assert client.get(f"/admin/game/tournament/{tournament.pk}/change/").status_code == 200
    assert "Aino v Bertta" in client.get("/admin/game/tournamentpairing/").content.decode()
    assert client.get("/admin/game/tournamentresultfix/").status_code == 200
    assert client.get("/admin/game/tournamentresultfix/add/").status_code == 403


async def test_tournament_socket_hears_a_finished_match() -> None:
    tournament, _, players = await database_sync_to_async(_started)("round_robin", {"Aino": 1700, "Bertta": 1600})
    pairing = await database_sync_to_async(TournamentPairing.objects.select_related("match").get)(tournament=tournament)
    match = pairing.match
    assert match is not None
    watcher = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/tournament/{tournament.pk}/")
    connected, _ = await watcher.connect(timeout=10)
    assert connected
    hello = json.loads(await watcher.receive_from(timeout=5))
    assert hello["t"] == "tournament" and hello["d"]["event"] == "hello"
    await database_sync_to_async(match_join)(match_id=match.pk, user=players["Bertta"])
    bertta = await connect_communicator("Bertta", match.pk, players["Bertta"])
    await bertta.send("resign", {}, ack=1)
    await bertta.until(lambda m: m["t"] == "finished")
    while True:
        message = json.loads(await watcher.receive_from(timeout=10))
        if message["d"].get("event") == "finished":
            break
    assert message["d"]["match"] == match.pk and message["d"]["reload"] is True
    await bertta.close()
    await watcher.disconnect()
    tournament = await database_sync_to_async(Tournament.objects.select_related("winner").get)(pk=tournament.pk)
    assert tournament.status == Tournament.Status.FINISHED and tournament.winner.name == "Aino"
    # An unknown tournament is refused.
    stranger = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/tournament/999999/")
    connected, code = await stranger.connect(timeout=10)
    assert not connected and code == 4404


@pytest.mark.parametrize("fmt", ["round_robin", "single_elimination", "double_loss"])
def test_tv_page_and_wall_chart_of_an_online_event(client: Any, fmt: str) -> None:
    """The TV page shows any event (an online one's games in progress instead of tables); only a
    drawn event has a wall chart."""
    tournament, _owner, _players = _started(fmt, {f"Tv{n}": 1500 + n for n in range(4)})
    tv = client.get(f"/tournaments/{tournament.pk}/tv/", HTTP_ACCEPT_LANGUAGE="en")
    text = tv.content.decode()
    assert tv.status_code == 200 and 'data-tv-section="standings"' in text
    assert "Käynnissä olevat pelit" in text and text.count("data-match=") == 2  # the club speaks Finnish
    drawn = fmt == "double_loss"
    assert ('data-tv-section="draw"' in text) == drawn
    assert client.get(f"/tournaments/{tournament.pk}/chart/").status_code == (200 if drawn else 404)
