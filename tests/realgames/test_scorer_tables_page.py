"""A club's tables and their private scorer links: its owner adds and lists them, nobody else sees
them; a table with no event game starts a game between two named players."""

from __future__ import annotations

import pytest
from django.test import Client

from game.models.realgames import RealGame, ScoringTable
from tests.support.community_factories import make_club, make_player

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_club_tables_and_the_scorer_start() -> None:
    owner = make_player("TableOwner")
    club = make_club("Tables club", owner)
    director = Client()
    director.force_login(owner)
    assert director.post(f"/clubs/{club.slug}/tables/").status_code == 302
    table = ScoringTable.objects.get(club=club)
    page = director.get(f"/clubs/{club.slug}/tables/", HTTP_ACCEPT_LANGUAGE="fi")
    assert f"/tables/{table.token}/score/" in page.content.decode() and "Lisää pöytä" in page.content.decode()
    stranger = Client()
    stranger.force_login(make_player("Stranger"))
    assert stranger.get(f"/clubs/{club.slug}/tables/").status_code == 404
    assert Client().get("/tables/not-a-token-at-all/score/").status_code == 404

    scorer = Client()
    start = scorer.get(f"/tables/{table.token}/score/")
    assert start.status_code == 200 and 'name="first"' in start.content.decode()
    scorer.post(f"/tables/{table.token}/score/", {"first": "  Aino ", "second": "Bertta"})
    game = RealGame.objects.get(table=table)
    assert (game.first_name, game.second_name, game.status) == ("Aino", "Bertta", "waiting")
    assert 'id="kaiza-scorer"' in scorer.get(f"/tables/{table.token}/score/").content.decode()
