"""An event's announcement: the forum posts in BBCode and plain text (with the live page and each
table's stream and scoreboard links), who may see the event on every path that shows it, and online
registration (open or by link, a friend by name, the director's removal, closed at the draw)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from game.models.announce import EventTable, TournamentAnnouncement, TournamentRegistration
from game.models.realgames import ScoringTable
from game.models.tournaments import Tournament, TournamentEntry, TournamentEntryMember, TournamentPairing
from game.realgames.services import game_for_table, scoring_table_add
from game.routing import websocket_urlpatterns
from game.tournaments.selectors.forum import EventLinks, forum_posts
from game.tournaments.services import TournamentError, tournament_close_entries, tournament_walk_in_enter
from game.tournaments.services.announce import announcement_save, table_links_save
from game.tournaments.services.club import tournament_result_enter
from tests.support.community_factories import make_player
from tests.support.play_support import fresh_channel_layer_and_connections
from tests.tournaments.test_club_event import WIN_FIRST, club_event, on_tables

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
__all__ = ["fresh_channel_layer_and_connections"]

LINKS = EventLinks(live="https://kaiza.example/tournaments/1/live/", register="https://kaiza.example/r/")
STREAM = "https://stream.example/table-1"
SCOREBOARD = "https://scores.example/board?t=1"
CLUB_STREAM = "https://club.example/stream/2"
EVIL = "[b]Evil[/b] [url=https://bad.example]x"


def _announce(owner: Any, tournament: Tournament, **changes: Any) -> TournamentAnnouncement:
    values = {"visibility": "public", "registration": "closed", "friends": True, "venue": "", "entry_fee": ""}
    values.update(changes)
    return announcement_save(user=owner, tournament_id=tournament.pk, **values)


def _balanced(bbcode: str) -> bool:
    """Every tag the post opens is closed: no name opened one of its own."""
    return all(bbcode.count(f"[{tag}") == bbcode.count(f"[/{tag}]") for tag in ("b", "url"))


def _play_out(owner: Any, tournament: Tournament) -> None:
    for _turn in range(40):
        tables = on_tables(tournament)
        if not tables:
            break
        for pairing in tables.values():
            tournament_result_enter(user=owner, pairing_id=pairing.pk, result=WIN_FIRST)


def test_forum_posts_in_bbcode_and_text(client: Any) -> None:
    tournament, owner = club_event(3, 2, tag="forum")
    tournament_walk_in_enter(user=owner, tournament_id=tournament.pk, name=EVIL)
    _announce(owner, tournament, registration="open", venue="Kaisatie 5, Helsinki", entry_fee="10 €")
    # Links are checked (http or https, a site named): a bad one stores nothing, the others neither.
    for bad in ("javascript:alert(1)", "ftp://files.example/x", "https://", "https://a b.example"):
        with pytest.raises(TournamentError):
            table_links_save(user=owner, tournament_id=tournament.pk, links={1: (STREAM, ""), 2: ("", bad)})
        assert not EventTable.objects.filter(tournament=tournament).exists()
    with pytest.raises(TournamentError):  # a table the event does not have
        table_links_save(user=owner, tournament_id=tournament.pk, links={3: (STREAM, "")})
    table_links_save(user=owner, tournament_id=tournament.pk, links={1: (STREAM, SCOREBOARD), 2: ("", "")})
    assert list(EventTable.objects.filter(tournament=tournament).values_list("number", flat=True)) == [1]

    invitation = forum_posts(tournament=tournament, links=LINKS, language="en")[0]
    local = tournament.starts_at.astimezone(tournament.club.zone)
    for text in (invitation.bbcode, invitation.plain):
        assert "Friday at the club" in text and "Kaisatie 5, Helsinki" in text and "10 €" in text
        assert local.strftime("%H:%M") in text and tournament.club.time_zone in text  # the club's clock
        assert "Double-loss draw" in text and "open to everyone" in text
    assert "[b]Friday at the club[/b]" in invitation.bbcode
    assert f"[url={LINKS.register}]" in invitation.bbcode and LINKS.register in invitation.plain
    assert f"[url={LINKS.live}]" in invitation.bbcode
    # The typed name opens no tag in BBCode and reads as typed in plain text.
    assert _balanced(invitation.bbcode) and "[b]Evil" not in invitation.bbcode
    assert "bad.example]" not in invitation.bbcode.replace("[\u200burl=https://bad.example]", "")
    assert EVIL in invitation.plain and "[" not in invitation.plain.replace(EVIL, "")

    # A table the event names no link for gives the club's scoring table's.
    ScoringTable.objects.create(club=tournament.club, number=2, stream_url=CLUB_STREAM)
    ScoringTable.objects.create(club=tournament.club, number=1, stream_url="https://club.example/not-this-one")
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    first = forum_posts(tournament=tournament, links=LINKS, language="en")[1]
    assert f"Table 2: [url={CLUB_STREAM}]stream[/url]" in first.bbcode and "not-this-one" not in first.plain
    on_table = on_tables(tournament)
    names = dict(TournamentEntry.objects.filter(tournament=tournament).values_list("pk", "name"))
    game = on_table[1]
    assert f"Table 1: {names[game.first_id]}" in first.plain.replace("[\u200b", "[")
    assert f"[url={STREAM}]stream[/url]" in first.bbcode and f"[url={SCOREBOARD}]scoreboard[/url]" in first.bbcode
    assert f"stream: {STREAM}" in first.plain and f"scoreboard: {SCOREBOARD}" in first.plain
    assert _balanced(first.bbcode)

    tournament_result_enter(user=owner, pairing_id=game.pk, result=WIN_FIRST)
    so_far = forum_posts(tournament=tournament, links=LINKS, language="fi")[2]
    assert "60 – 31" in so_far.plain and "Kierros 1" in so_far.plain and "Pöytä 1" in so_far.plain
    assert "No results" not in so_far.plain and _balanced(so_far.bbcode)

    _play_out(owner, tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    final = forum_posts(tournament=tournament, links=LINKS, language="ru")[3]
    winner = TournamentEntry.objects.get(tournament=tournament, place=1).name
    assert f"1. {winner}" in final.plain.replace("[\u200b", "[") and "Итоговые результаты" in final.plain
    assert _balanced(final.bbcode)

    # The director's page gives each post in both forms with a copy button; nobody else sees it.
    client.force_login(owner)
    page = client.get(f"/tournaments/{tournament.pk}/announce/?lang=en").content.decode()
    assert page.count("data-copy=") == 8 and page.count("<textarea") == 8 and "copy_text.js" in page
    stranger = Client()
    stranger.force_login(make_player("Forumstranger"))
    assert stranger.get(f"/tournaments/{tournament.pk}/announce/").status_code == 403


def _paths(tournament: Tournament) -> dict[str, str]:
    base = f"/tournaments/{tournament.pk}"
    return {
        "page": f"{base}/",
        "live": f"{base}/live/",
        "parts": f"{base}/parts/",
        "tv": f"{base}/tv/",
        "chart": f"{base}/chart/",
        "register": f"{base}/register/",
    }


def _listed(client: Any, tournament: Tournament) -> bool:
    return f"/tournaments/{tournament.pk}/" in client.get(f"/clubs/{tournament.club.slug}/").content.decode()


async def _socket_opens(socket_path: str, user: Any, session: dict[str, Any]) -> bool:
    router = URLRouter(websocket_urlpatterns)

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await router({**scope, "user": user, "session": session}, receive, send)

    socket = WebsocketCommunicator(app, socket_path)
    connected, _code = await socket.connect(timeout=10)
    if connected:
        first = json.loads(await socket.receive_from(timeout=5))
        assert first["t"] in ("tournament", "real_state")
        await socket.disconnect()
    return connected


@pytest.mark.parametrize("visibility", ["public", "link", "admins"])
async def test_event_visibility(visibility: str) -> None:
    await database_sync_to_async(_visibility_pages)(visibility)


def _visibility_pages(visibility: str) -> None:
    tournament, owner = club_event(4, 2, tag=f"vis{visibility}")
    announcement = _announce(owner, tournament, visibility=visibility)
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    paths = _paths(tournament)
    admin, visitor, member = Client(), Client(), Client()
    admin.force_login(owner)
    member.force_login(make_player(f"Visitor{visibility}"))
    public = visibility == "public"
    for who in (visitor, member):
        for name, path in paths.items():
            assert (who.get(path).status_code == 200) == public, (visibility, name)
        assert _listed(who, tournament) == public
    # Signed in, a visitor not of the club: the export and the tables are refused (403), the entry
    # sent back with its refusal (302) for a public
    # event, and a hidden event is not found at all.
    assert member.get(f"/tournaments/{tournament.pk}/kaisakaavio.xml").status_code == (403 if public else 404)
    assert member.post(f"/tournaments/{tournament.pk}/enter/").status_code == (302 if public else 404)
    assert member.get(f"/tournaments/{tournament.pk}/tables/").status_code == (403 if public else 404)
    for name, path in paths.items():  # the club's admins see every path of every event
        assert admin.get(path).status_code == 200, (visibility, name)
    assert admin.get(f"/tournaments/{tournament.pk}/kaisakaavio.xml").status_code == 200
    assert _listed(admin, tournament)

    # The secret link: a link-only event opens with it, and stays open in that browser (its other
    # pages and its socket read the session); it is still not listed. An admins-only event never opens.
    keyed = Client()
    opened = keyed.get(f"{paths['page']}?k={announcement.secret}")
    assert (opened.status_code == 200) == (visibility != "admins")
    for name, path in paths.items():
        assert (keyed.get(path).status_code == 200) == (visibility != "admins"), (visibility, name)
    assert Client().get(f"{paths['page']}?k=wrong{announcement.secret}").status_code == (200 if public else 404)
    assert not _listed(keyed, tournament) or public

    # The tournament socket, and the socket following one of its games scored at a table.
    game = game_for_table(scoring_table_add(club_id=tournament.club_id, number=1))
    assert game is not None
    anonymous = AnonymousUser()
    keys = {"event_keys": {str(tournament.pk): announcement.secret}}
    for socket_path in (f"/ws/tournament/{tournament.pk}/", f"/ws/realgame/{game.pk}/"):
        assert _socket_open_sync(socket_path, anonymous, {}) == public
        assert _socket_open_sync(socket_path, anonymous, keys) == (visibility != "admins")
        assert _socket_open_sync(socket_path, owner, {})


def _socket_open_sync(socket_path: str, user: Any, session: dict[str, Any]) -> bool:
    return bool(async_to_sync(_socket_opens)(socket_path, user, session))


def test_online_registration(client: Any) -> None:
    tournament, owner = club_event(2, 2, tag="reg")
    register = f"/tournaments/{tournament.pk}/register/"
    refused = client.post(register, {"name": "Early Eino"})
    assert refused.status_code == 400 and "takes no registrations online" in refused.content.decode()
    assert not TournamentRegistration.objects.exists()

    announcement = _announce(owner, tournament, registration="open")
    # A guest registers by name; an empty name is refused and stores nothing.
    assert client.post(register, {"name": "   "}).status_code == 400
    assert client.post(register, {"name": "Flood", "club": "x" * 81}).status_code == 400  # a club too long
    assert client.post(register, {"name": "Guest Gunnar", "club": "Kaisaseura"}).status_code == 302
    guest = TournamentRegistration.objects.get(name="Guest Gunnar")
    assert guest.registered_by is None and guest.entry.tournament_id == tournament.pk
    assert guest.entry.club == "Kaisaseura" and not TournamentEntry.objects.filter(name="Flood").exists()
    invitation = forum_posts(tournament=tournament, links=LINKS, language="en")[0]
    assert "3. Guest Gunnar (Kaisaseura)" in invitation.plain
    assert client.post(register, {"name": "guest gunnar"}).status_code == 400  # the same name twice

    # A signed-in player registers themselves (the entry is their account's), then a friend by name.
    player = make_player("Registering Riikka")
    mine = Client(HTTP_ACCEPT_LANGUAGE="fi")
    mine.force_login(player)
    assert "Ilmoita minut" in mine.get(register).content.decode()
    assert mine.post(register, {}).status_code == 302
    own = TournamentRegistration.objects.get(user=player)
    assert TournamentEntryMember.objects.get(entry=own.entry).user == player
    again = mine.post(register, {})
    assert again.status_code == 400 and "olet jo ilmoittautunut" in again.content.decode()
    assert mine.post(register, {"name": "Friend Frida"}).status_code == 302
    friend = TournamentRegistration.objects.get(name="Friend Frida")
    assert friend.registered_by == player and friend.user is None
    assert TournamentEntry.objects.filter(tournament=tournament).count() == 5

    # By link only: without the secret a registration is refused, with it accepted.
    announcement = _announce(owner, tournament, registration="link", friends=False)
    stranger = Client()
    assert stranger.post(register, {"name": "Linkless Lauri"}).status_code == 403
    assert stranger.post(f"{register}?k={announcement.secret}", {"name": "Linked Lotta"}).status_code == 302
    friendless = mine.post(f"{register}?k={announcement.secret}", {"name": "Second Friend"})
    assert friendless.status_code == 400 and "jokainen ilmoittautuu itse" in friendless.content.decode()

    # The director sees the registrations and removes one (its entry goes); nobody else may.
    director = Client(HTTP_ACCEPT_LANGUAGE="en")
    director.force_login(owner)
    page = director.get(f"/tournaments/{tournament.pk}/announce/").content.decode()
    for name in ("Guest Gunnar", "Registering Riikka", "Friend Frida", "Linked Lotta"):
        assert name in page
    remove = f"/tournaments/{tournament.pk}/registrations/{friend.pk}/remove/"
    assert mine.post(remove).status_code == 403 and TournamentRegistration.objects.filter(pk=friend.pk).exists()
    assert director.post(remove).status_code == 302
    assert not TournamentEntry.objects.filter(tournament=tournament, name="Friend Frida").exists()

    # The entries close at the draw: no registration and no removal after it.
    tournament_close_entries(user=owner, tournament_id=tournament.pk)
    late = stranger.post(f"{register}?k={announcement.secret}", {"name": "Late Leo"})
    assert late.status_code == 400 and "the entries closed at the draw" in late.content.decode()
    director.post(f"/tournaments/{tournament.pk}/registrations/{guest.pk}/remove/")
    assert TournamentRegistration.objects.filter(pk=guest.pk).exists()
    drawn = {p.first_id for p in TournamentPairing.objects.filter(tournament=tournament)}
    assert guest.entry_id in drawn or guest.entry_id in {
        p.second_id for p in TournamentPairing.objects.filter(tournament=tournament)
    }


def test_online_registration_is_rate_limited(client: Any, settings: Any) -> None:
    """A script filling an event with names from one address is stopped (429) and stores no more."""
    settings.KAIZA_RATE_LIMITS = {**settings.KAIZA_RATE_LIMITS, "event_register": {"ip": (2, 600)}}
    tournament, owner = club_event(2, 2, tag="flood")
    _announce(owner, tournament, registration="open")
    register = f"/tournaments/{tournament.pk}/register/"
    assert [client.post(register, {"name": f"Name {n}"}).status_code for n in range(3)] == [302, 302, 429]
    assert TournamentRegistration.objects.filter(tournament=tournament).count() == 2
    assert client.get(register).status_code == 200  # reading the page is free
