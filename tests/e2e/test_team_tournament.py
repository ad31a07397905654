"""A team tournament in Chromium against a real daphne: a member enters his pair through
the tournament page's form (his team-mate chosen among the club's members), the entries close (the
start time, an hour ahead, brought to now), and the pairing's team match is on the live page, on the
home page's list and, with both teams' members in playing order, on the match page.
Screenshots: test-artifacts/team-tournament-*.jpg."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import driver, pages
from tests.support.daphne import DaphneServer

pytestmark = pytest.mark.browser

SETUP = """
import datetime
from django.utils import timezone
from game.tournaments.services import tournament_create, tournament_enter
from tests.support.community_factories import DEMO_PASSWORD, make_club, make_player
owner = make_player("Organiser", rating=1500)
mika = make_player("Mika", rating=1650)
mika.set_password(DEMO_PASSWORD)
mika.save()
others = [make_player(n, rating=r) for n, r in (("Niko", 1550), ("Aila", 1900), ("Alma", 1700))]
club = make_club("Pairs Club", owner, members=(mika, *others))
t = tournament_create(user=owner, club=club, name="Pairs cup", format="round_robin", kind="teams",
                      team_size=2, rated=False, starts_at=timezone.now() + datetime.timedelta(hours=1))
tournament_enter(user=others[1], tournament_id=t.pk, teammates=[others[2]])
result = t.pk
"""

CLOSE = """
from django.contrib.auth.models import User
from django.utils import timezone
from game.tournaments.services import tournament_close_entries
from game.models.tournaments import Tournament, TournamentPairing
Tournament.objects.filter(pk={tid}).update(starts_at=timezone.now())  # the start time has come
tournament_close_entries(user=User.objects.get(username="organiser"), tournament_id={tid})
result = TournamentPairing.objects.get(tournament_id={tid}).match_id
"""


@pytest.mark.slow(19)
def test_a_team_enters_and_plays_its_tournament_match(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    from tests.support.community_factories import DEMO_PASSWORD

    server = daphne_factory()
    tid = pages.django_run(server.env, SETUP)
    page = pages.new_page(chromium)
    page.goto(f"{server.url}/accounts/login/")
    page.fill("#id_login", "mika")
    page.fill("#id_password", DEMO_PASSWORD)
    page.locator("main form button[type=submit], main form input[type=submit]").first.click()
    page.wait_for_load_state()
    page.goto(f"{server.url}/tournaments/{tid}/")
    form = pages.visible_text(page, "[data-team-entry]")
    assert "Your team, in playing order: you first, then" in form
    options = page.locator("[data-team-entry] select[name=teammate] option").all_inner_texts()
    assert options[1:] == ["Niko", "Organiser"]  # the members not entered yet, but himself
    page.screenshot(path=str(artifacts_dir / "team-tournament-entry-form.jpg"), full_page=True)
    page.select_option("[data-team-entry] select[name=teammate]", label="Niko")
    page.click("[data-team-entry] [data-enter]")
    page.wait_for_load_state()
    assert "You are in." in pages.visible_text(page, "body")
    entries = pages.visible_text(page, "ol.entries")
    assert "Aila & Alma" in entries and "Mika & Niko" in entries
    assert pages.region_colours(page, "ol.entries", artifacts_dir / "team-tournament-entered.png") > 10

    match_id = pages.django_run(server.env, CLOSE.format(tid=tid))
    page.goto(f"{server.url}/")
    assert pages.visible_text(page, "[data-tournament-badge]") == "1"
    listed = pages.visible_text(page, "[data-tournament-matches]")
    assert "Pairs cup" in listed and "against Aila & Alma" in listed and "Back to the game" in listed
    page.goto(f"{server.url}/tournaments/{tid}/live/")
    assert f'data-match="{match_id}"' in page.content()
    page.screenshot(path=str(artifacts_dir / "team-tournament-live.jpg"), full_page=True)

    page.goto(f"{server.url}/m/{match_id}/")
    page.wait_for_selector("#kaiza-match[data-version]")
    members = page.evaluate(
        "() => [...document.querySelectorAll('.kz-player')].map(p => p.querySelector('.kz-members').innerText)"
    )
    assert len(members) == 2
    assert "Aila" in members[0] and "Alma" in members[0] and members[0].index("Aila") < members[0].index("Alma")
    assert "Mika" in members[1] and "Niko" in members[1] and members[1].index("Mika") < members[1].index("Niko")
    # The table drawn and the sides named (waited for, not slept on: CI's loaded machine draws later).
    driver.wait_ready(page)
    pages.wait_text(page, "body", "Aila +1")
    hud = pages.visible_text(page, "body")
    assert "Aila +1" in hud and "Mika +1" in hud
    assert pages.region_colours(page, "canvas", artifacts_dir / "team-tournament-table.png") > 10
    page.screenshot(path=str(artifacts_dir / "team-tournament-match.jpg"), full_page=True)
    assert page.errors == []
    time.sleep(0.5)
    pages.assert_clean_log(server)
