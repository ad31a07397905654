"""A club's events speak the club's time zone (Finland's by default, `Club.time_zone`): the new-event
form offers the next quarter hour on the club's clock and reads a typed time on it, the pages, the
KaisaKaavio file's `KellonAika` and the correction log all say the same wall-clock time; and the
director may start an event at once instead of waiting for its start time. Through the pages, in
Finnish where a Finnish director reads them."""

from __future__ import annotations

import datetime
import re
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.utils import formats, timezone, translation

from game.common.clock import game_now
from game.models.tournaments import Tournament, TournamentPairing, TournamentResultFix, TournamentRound
from game.tournaments.kaisakaavio import parse
from game.tournaments.services import tournament_clocks_fire, tournament_close_entries, tournament_walk_in_enter
from game.tournaments.services.club import (
    AT_TARGET,
    BoardResult,
    tournament_result_correct,
    tournament_result_enter,
)
from game.tournaments.services.kaavio import kaavio_export, kaavio_import
from game.tournaments.views import next_quarter_hour
from tests.support.community_factories import make_club, make_player
from tests.tournaments.test_club_event import on_tables

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

HELSINKI = ZoneInfo("Europe/Helsinki")
FI = {"HTTP_ACCEPT_LANGUAGE": "fi"}


def _form_start(client: Client, slug: str) -> str:
    page = client.get(f"/clubs/{slug}/tournaments/new/", **FI).content.decode()
    found = re.search(r'name="starts_at" value="([^"]+)"', page)
    assert found, page[:3000]
    return found.group(1)


def _finnish(moment: datetime.datetime, zone: ZoneInfo = HELSINKI) -> str:
    """A moment as a Finnish page writes it on `zone`'s clock: "15. tammikuuta 2027 kello 22.20"."""
    with translation.override("fi"):
        return formats.date_format(moment.astimezone(zone), "DATETIME_FORMAT")


def test_club_event_times_are_helsinki_time(client: Client) -> None:
    director = make_player("Ohjaaja")
    club = make_club("Kaisaseura", director)
    assert club.time_zone == "Europe/Helsinki"  # the site's default (KAIZA_CLUB_TIME_ZONE)
    client.force_login(director)

    # The form offers the next quarter hour on Helsinki's clock, not UTC's.
    before = game_now()
    offered = _form_start(client, club.slug)
    after = game_now()
    wanted = {next_quarter_hour(moment, HELSINKI).strftime("%Y-%m-%dT%H:%M") for moment in (before, after)}
    assert offered in wanted, (offered, wanted)
    quarter = datetime.datetime.fromisoformat(offered).replace(tzinfo=HELSINKI)
    assert quarter.minute % 15 == 0 and 0 <= quarter.timestamp() - before < 15 * 60 + 1

    # 22:20 typed tomorrow is 22:20 in Helsinki (20:20 UTC in winter, 19:20 in summer).
    day = (datetime.datetime.fromtimestamp(game_now(), HELSINKI) + datetime.timedelta(days=1)).date()
    typed = f"{day.isoformat()}T22:20"
    made = client.post(
        f"/clubs/{club.slug}/tournaments/new/",
        {
            "name": "Viikkokisat",
            "format": "double_loss",
            "kind": "singles",
            "clock": "weekly_event",
            "max_entries": "16",
            "starts_at": typed,
            "tables": "4",
        },
        **FI,
    )
    assert made.status_code == 302, made.content.decode()[:2000]
    tournament = Tournament.objects.get()
    start = datetime.datetime.combine(day, datetime.time(22, 20), tzinfo=HELSINKI)
    assert tournament.starts_at == start
    assert tournament.starts_at.astimezone(datetime.UTC).hour in (19, 20)

    # The page says 22.20 ("kello 22.20"), never the UTC hour.
    page = client.get(f"/tournaments/{tournament.pk}/", **FI).content.decode()
    assert _finnish(start) in page and "kello 22.20" in page
    assert _finnish(start, ZoneInfo("UTC")) not in page

    # The clock starts it when Helsinki's clock says 22:20, not two hours later.
    for name in ("Olli Tuominen", "Jari Lehto", "Sari Koski", "Pekka Laine"):
        tournament_walk_in_enter(user=director, tournament_id=tournament.pk, name=name)
    tournament_clocks_fire(now=start.timestamp() - 60)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.REGISTRATION
    tournament_clocks_fire(now=start.timestamp() + 1)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING and len(on_tables(tournament)) == 2

    # The export writes 22:20 on Helsinki's day, as the program writes them; an import reads them back.
    written = parse(kaavio_export(tournament=tournament).encode())
    fields = dict(written.other_fields)
    assert fields["KellonAika"] == "22:20"
    assert fields["AlkamisAika"] == f"{day.day}.{day.month}.{day.year}"
    again = kaavio_import(
        user=director, club=make_club("Toinen seura", director), data=kaavio_export(tournament=tournament).encode()
    )
    assert again.tournament.starts_at == start

    # The correction log says the time the correction was made on Helsinki's clock.
    game = on_tables(tournament)[1]
    tournament_result_enter(user=director, pairing_id=game.pk, result=BoardResult(60, 41, AT_TARGET))
    tournament_result_correct(
        user=director, pairing_id=game.pk, result=BoardResult(60, 30, AT_TARGET), confirm=True, reason="Näppäilyvirhe"
    )
    fixed = TournamentResultFix.objects.get(pairing=game).created_at
    page = client.get(f"/tournaments/{tournament.pk}/", **FI).content.decode()
    assert _finnish(fixed) in page and _finnish(fixed, ZoneInfo("UTC")) not in page

    # Another zone is the club's own: the same instant reads and exports on that club's clock.
    edit = {"name": club.name, "description": "", "join_policy": club.join_policy, "time_zone": "Mars/Olympus"}
    assert client.post(f"/clubs/{club.slug}/edit/", edit, **FI).status_code == 400
    assert client.post(f"/clubs/{club.slug}/edit/", {**edit, "time_zone": "America/New_York"}).status_code == 302
    tournament = Tournament.objects.select_related("club").get(pk=tournament.pk)
    new_york = start.astimezone(ZoneInfo("America/New_York"))
    assert dict(parse(kaavio_export(tournament=tournament).encode()).other_fields)["KellonAika"] == (
        new_york.strftime("%H:%M")
    )
    assert (
        _finnish(start, ZoneInfo("America/New_York"))
        in client.get(f"/tournaments/{tournament.pk}/", **FI).content.decode()
    )


def _form_event(client: Client, club: Any, *, walk_ins: tuple[str, ...]) -> Tournament:
    starts = timezone.now() + datetime.timedelta(days=1)
    tournament = Tournament.objects.create(
        club=club,
        name="Viikkokisa",
        format=Tournament.Format.DOUBLE_LOSS,
        rated=False,
        starts_at=starts,
        tables=2,
        created_by=club.created_by,
    )
    for name in walk_ins:
        tournament_walk_in_enter(user=club.created_by, tournament_id=tournament.pk, name=name)
    return tournament


def test_start_now(client: Client) -> None:
    director = make_player("Kisajohtaja")
    member = make_player("Jäsen")
    club = make_club("Startti", director, members=(member,))
    tournament = _form_event(client, club, walk_ins=("Olli", "Jari", "Sari", "Pekka"))
    starts = tournament.starts_at

    # Only the director sees and uses the button.
    client.force_login(member)
    assert "Aloita nyt" not in client.get(f"/tournaments/{tournament.pk}/", **FI).content.decode()
    assert client.post(f"/tournaments/{tournament.pk}/start/", **FI).status_code == 403
    assert Tournament.objects.get(pk=tournament.pk).starts_at == starts

    client.force_login(director)
    assert "Aloita nyt" in client.get(f"/tournaments/{tournament.pk}/", **FI).content.decode()
    before = game_now()
    page = client.post(f"/tournaments/{tournament.pk}/start/", follow=True, **FI).content.decode()
    assert "Turnaus on alkanut." in page
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert before - 1 <= tournament.starts_at.timestamp() <= game_now() + 1
    assert len(on_tables(tournament)) == 2  # the first games are on the tables at once
    assert not TournamentRound.objects.filter(tournament=tournament, status=TournamentRound.Status.PAIRED).exists()
    assert "Aloita nyt" not in page

    # Once begun it is refused, with nothing changed.
    again = client.post(f"/tournaments/{tournament.pk}/start/", follow=True, **FI).content.decode()
    assert "turnaus on jo alkanut" in again
    assert Tournament.objects.get(pk=tournament.pk).starts_at == tournament.starts_at

    # Entries closed ahead of a later start: "start now" begins the paired round at once.
    scheduled = _form_event(client, club, walk_ins=("Aino", "Bertta", "Celia", "Dora"))
    tournament_close_entries(user=director, tournament_id=scheduled.pk, now=game_now())
    assert not on_tables(scheduled)  # paired, waiting for its start time
    tables_page = client.get(f"/tournaments/{scheduled.pk}/tables/", **FI).content.decode()
    assert "Aloita nyt" in tables_page  # on the director's phone page too
    started = client.post(f"/tournaments/{scheduled.pk}/start/", {"back": "tables"}, follow=True, **FI)
    assert started.redirect_chain[-1][0] == f"/tournaments/{scheduled.pk}/tables/"
    assert len(on_tables(scheduled)) == 2
    page = started.content.decode()
    assert all(p.first.name in page and p.second.name in page for p in on_tables(scheduled).values())
    assert "Aloita nyt" not in page

    # Too few to draw: refused in words, nothing changed (the clock would have cancelled it).
    few = _form_event(client, club, walk_ins=("Eeva", "Fanny"))
    refused = client.post(f"/tournaments/{few.pk}/start/", follow=True, **FI).content.decode()
    assert "tarvitaan vähintään 4" in refused.lower()
    few_after = Tournament.objects.get(pk=few.pk)
    assert (few_after.status, few_after.starts_at) == (Tournament.Status.REGISTRATION, few.starts_at)
    assert not TournamentPairing.objects.filter(tournament=few).exists()
