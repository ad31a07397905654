"""A tournament's status says the truth before its start time: closing the entries
pairs round 1 and makes the tournament `running`, but nothing is played until the start time, so the
page said "Running" above a round that "starts at the start time". Until then it says when it starts,
in English, Finnish and Russian; once the server clock starts it, "Running"."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.utils import formats, timezone, translation

from game.models.tournaments import Tournament
from game.tournaments.services import (
    tournament_clocks_fire,
    tournament_close_entries,
    tournament_create,
    tournament_enter,
)
from tests.support.community_factories import make_club, make_player

#: (before the start, its round, after the start) in each language, as the catalogue says them.
WORDS = {
    "en": ("Entries closed · starts", "paired, starts", "Running"),
    "fi": ("Ilmoittautuminen suljettu · alkaa", "paritettu, alkaa", "Käynnissä"),
    "ru": ("Запись закрыта · начало:", "пары составлены, начало:", "Идёт"),
}


def _status(client: Client, tournament: Tournament, language: str) -> tuple[str, str]:
    html = client.get(f"/tournaments/{tournament.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    status = re.search(r'<p class="tournament-status" data-status>(.*?)</p>', html, re.S)
    tag = re.search(r'<span class="tag">(.*?)</span>', html, re.S)
    assert status and tag, html[:2000]
    return status.group(1).strip(), tag.group(1).strip()


def _scheduled_tournament(start: datetime.datetime) -> Tournament:
    owner = make_player("Owner")
    players = [make_player(name, rating=r) for name, r in (("Aino", 1600.0), ("Eero", 1500.0))]
    club = make_club("Kaisa Club", owner, members=tuple(players))
    tournament = tournament_create(user=owner, club=club, name="Spring cup", format="round_robin", starts_at=start)
    for user in players:
        tournament_enter(user=user, tournament_id=tournament.pk)
    tournament_close_entries(user=owner, tournament_id=tournament.pk, now=timezone.now().timestamp())
    tournament.refresh_from_db()
    return tournament


@pytest.mark.django_db
def test_a_tournament_before_its_start_time_says_when_it_starts() -> None:
    start = (timezone.now() + datetime.timedelta(hours=2)).replace(second=0, microsecond=0)
    tournament = _scheduled_tournament(start)
    assert tournament.status == Tournament.Status.RUNNING  # the stored state is unchanged
    client = Client()
    for language, (before, paired, running) in WORDS.items():
        with translation.override(language):
            when = formats.date_format(timezone.localtime(start, tournament.club.zone), "DATETIME_FORMAT")
        status, tag = _status(client, tournament, language)
        assert status == f"{before} {when}", (language, status)
        assert tag == f"{paired} {when}", (language, tag)
        assert running not in status, (language, status)
    # The club page's history says the same.
    history = client.get(f"/clubs/{tournament.club.slug}/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "Ilmoittautuminen suljettu · alkaa" in history and "Käynnissä" not in history

    # The server clock starts it at the start time: from then on it is running, its round playing.
    tournament_clocks_fire(now=start.timestamp() + 1)
    for language, (before, _paired, running) in WORDS.items():
        status, tag = _status(client, tournament, language)
        assert status == running and before not in status, (language, status)
