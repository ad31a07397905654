"""An online event's games keep the event's visibility (game/tournaments/visibility.py, handed to the
match code through its hooks): a hidden event's match page, replay and match socket answer a visitor
who may not see it as a match that does not exist, its players and the club's admins always see it;
the live lists (Watch, home, club, player pages), the club page's and a player's recent matches list a
public event's games alone to visitors, and a link-only event's games open with its secret but are never
listed."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.utils import timezone

from game.matches.services import match_join, match_resign
from game.models import Match
from game.models.tournaments import Tournament, TournamentEntry, TournamentPairing
from game.routing import websocket_urlpatterns
from game.tournaments.services import tournament_close_entries, tournament_create, tournament_enter
from game.tournaments.services.announce import announcement_save
from tests.support.community_factories import make_club, make_player
from tests.support.play_support import fresh_channel_layer_and_connections

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
__all__ = ["fresh_channel_layer_and_connections"]


def _online_event(tag: str, visibility: str) -> tuple[Tournament, Any, Match, Match]:
    """A round robin of four members played online, announced with `visibility`: round 1's first
    match live (both seated), its second resigned (a replay)."""
    owner = make_player(f"Owner{tag}")
    players = [make_player(f"{name}{tag}") for name in ("Aino", "Bea", "Cecu", "Dina")]
    club = make_club(f"Club {tag}", owner, members=tuple(players))
    tournament = tournament_create(
        user=owner, club=club, name=f"Cup {tag}", format=Tournament.Format.ROUND_ROBIN, starts_at=timezone.now()
    )
    for player in players:
        tournament_enter(user=player, tournament_id=tournament.pk)
    values = {"registration": "closed", "friends": True, "venue": "", "entry_fee": ""}
    announcement_save(user=owner, tournament_id=tournament.pk, visibility=visibility, **values)
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    live, done = (
        p.match
        for p in TournamentPairing.objects.filter(tournament=tournament).select_related("match").order_by("index")
    )
    assert live is not None and done is not None
    for match in (live, done):
        pairing = TournamentPairing.objects.get(match=match)
        second = TournamentEntry.objects.get(pk=pairing.second_id).members.get().user
        match_join(match_id=match.pk, user=second)
    match_resign(match_id=done.pk, user=done.player1)
    live.refresh_from_db()
    done.refresh_from_db()
    assert live.status == Match.Status.ACTIVE and done.status == Match.Status.FINISHED
    return tournament, owner, live, done


async def _socket_answer(match_id: str, user: Any, session: dict[str, Any]) -> tuple[str, int | None]:
    """The first message the match socket sends this visitor, and its close code if it closes."""
    router = URLRouter(websocket_urlpatterns)

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await router({**scope, "user": user, "session": session}, receive, send)

    socket = WebsocketCommunicator(app, f"/ws/match/{match_id}/")
    connected, _code = await socket.connect(timeout=10)
    assert connected
    first = json.loads(await socket.receive_from(timeout=10))
    if first["t"] == "error":
        closed = await socket.receive_output(timeout=10)
        return first["d"]["code"], closed.get("code")
    await socket.disconnect(timeout=10)
    return first["t"], None


def _page_of(content: bytes, match_id: str) -> str:
    """A page as the reader sees it, its address and its form's one-time token aside."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", content.decode().replace(match_id, ""))


def _listed(client: Client, match: Match) -> bool:
    watch = client.get("/watch.json").json()["matches"]
    return any(row["id"] == match.pk for row in watch)


@pytest.mark.parametrize("visibility", ["public", "link", "admins"])
async def test_event_games_keep_the_event_visibility(visibility: str) -> None:
    tournament, owner, live, done = await database_sync_to_async(_online_event)(f"Mv{visibility[:2]}", visibility)
    secret = await database_sync_to_async(lambda: tournament.announcement.secret)()
    await database_sync_to_async(_pages)(visibility, tournament, owner, live, done, secret)

    # The match socket: a spectator who may not see the event is told there is no such match (4404).
    hidden = ("not_found", 4404)
    keys = {"event_keys": {str(tournament.pk): secret}}
    public, by_link = visibility == "public", visibility != "admins"
    assert await _socket_answer(live.pk, AnonymousUser(), {}) == (("snapshot", None) if public else hidden)
    assert await _socket_answer(live.pk, AnonymousUser(), keys) == (("snapshot", None) if by_link else hidden)
    second = await database_sync_to_async(lambda: live.player2)()
    assert (await _socket_answer(live.pk, second, {}))[0] == "snapshot"  # a player, seated
    assert (await _socket_answer(live.pk, owner, {}))[0] == "snapshot"


def _pages(visibility: str, tournament: Tournament, owner: Any, live: Match, done: Match, secret: str) -> None:
    public = visibility == "public"
    by_link = visibility != "admins"
    visitor, stranger, player, admin = Client(), Client(), Client(), Client()
    stranger.force_login(make_player(f"Stranger{visibility[:2]}"))
    player.force_login(live.player1)
    admin.force_login(owner)
    pages = (f"/m/{live.pk}/", f"/m/{done.pk}/replay/", f"/m/{done.pk}/replay.json")
    unknown_id = "z" * len(live.pk)
    for who in (visitor, stranger):
        unknown = _page_of(who.get(f"/m/{unknown_id}/").content, unknown_id)
        for path in pages:
            answer = who.get(path)
            assert answer.status_code == (200 if public else 404), (visibility, path)
            if not public:  # as a match that does not exist: the same page, nothing of the match
                assert path != pages[0] or _page_of(answer.content, live.pk) == unknown
                assert live.player1.profile.display_name not in answer.content.decode()
        assert _listed(who, live) == public
        assert (f"/m/{live.pk}/" in who.get("/").content.decode()) == public  # the home page's featured
    # The match's players and the club's admins always see it; the admins' lists show it.
    for path in pages[:1]:
        assert player.get(path).status_code == 200
    for path in pages:
        assert admin.get(path).status_code == 200
    assert _listed(admin, live)
    assert (f"/m/{live.pk}/" in admin.get(f"/clubs/{tournament.club.slug}/").content.decode()) is True
    assert (f"/m/{live.pk}/" in visitor.get(f"/clubs/{tournament.club.slug}/").content.decode()) == public
    # The club page's recent club matches: the finished game, as the live one.
    assert (f"/m/{done.pk}/replay/" in visitor.get(f"/clubs/{tournament.club.slug}/").content.decode()) == public
    assert f"/m/{done.pk}/replay/" in admin.get(f"/clubs/{tournament.club.slug}/").content.decode()
    # A player's profile lists his finished game to whoever may see the event, and always to him.
    profile = f"/players/{done.player1.profile.display_name}/"
    for who, sees in ((visitor, public), (stranger, public), (admin, True)):
        assert (f"/m/{done.pk}/replay/" in who.get(profile).content.decode()) == sees, (visibility, who)
    himself = Client()
    himself.force_login(done.player1)
    assert f"/m/{done.pk}/replay/" in himself.get(profile).content.decode()

    # The secret link: in the match's address, or kept from the event's page; still never listed.
    keyed, opened = Client(), Client()
    assert keyed.get(f"/m/{live.pk}/?k={secret}").status_code == (200 if by_link else 404)
    assert opened.get(f"/tournaments/{tournament.pk}/?k={secret}").status_code == (200 if by_link else 404)
    for path in pages:
        assert keyed.get(path).status_code == (200 if by_link else 404), (visibility, path)
        assert opened.get(path).status_code == (200 if by_link else 404), (visibility, path)
    assert Client().get(f"/m/{live.pk}/?k=wrong{secret}").status_code == (200 if public else 404)
    assert not _listed(keyed, live) or public
