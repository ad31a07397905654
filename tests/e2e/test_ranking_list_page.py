"""The ranking list's form on a phone, in Finnish, in a real Chromium against a real daphne: the director
pastes the federation's table into the event's page, the entries show their clubs and places; a list with
bad lines is named line by line and nothing changes. Screenshots: test-artifacts/ranking-list-*.jpg."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import pages
from tests.e2e.test_club_event import finnish, sign_in
from tests.support.daphne import DaphneServer

SETUP = """
import datetime
from django.utils import timezone
from game.models.tournaments import Tournament
from game.tournaments.services import tournament_create
from tests.support.community_factories import DEMO_PASSWORD, make_club, make_player
director = make_player("Johtaja")
director.set_password(DEMO_PASSWORD)
director.save()
club = make_club("Kaisaseura", director)
t = tournament_create(user=director, club=club, name="Ranking-kisa", format=Tournament.Format.DOUBLE_LOSS,
                      starts_at=timezone.now() + datetime.timedelta(days=1), tables=4)
result = t.pk
"""

LIST = (
    "Sija\tNimi\tSeura\n"
    "1.\tMäkelä Sari\tBK Kaisa\n"
    "2.\tÖhman Åke\tPorin Kaisaseura\n"
    "3.\tVirtanen Olli\tKeravan Biljardi\n"
)
BAD = "1\tLahti Eero\tSeinäjoen Biljardi\nx\tKallio Pekka\tTampereen Biljardi\n"


@pytest.mark.browser
@pytest.mark.slow(8)
def test_ranking_list_paste_on_a_phone(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    server = daphne_factory()
    tid = pages.django_run(server.env, SETUP)
    director = finnish(chromium, pages.PHONE_PORTRAIT)
    sign_in(director, server.url, "johtaja")
    director.goto(f"{server.url}/tournaments/{tid}/")
    form = director.locator("[data-ranking-list-form]")
    assert form.is_visible()  # open while the event has no entries
    form.locator("textarea[name=list]").fill(LIST)
    assert director.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    director.screenshot(path=str(artifacts_dir / "ranking-list-paste-fi.jpg"), full_page=True)
    with director.expect_navigation():
        form.locator("button[type=submit]").click()
    assert "Ranking-lista asetti kilpailun siemenet: 3 pelaajaa lisättiin." in pages.visible_text(
        director, "ul.messages"
    )
    entries = pages.visible_text(director, "ol.entries")
    assert entries.index("Mäkelä Sari") < entries.index("Öhman Åke") < entries.index("Virtanen Olli")
    assert "Porin Kaisaseura" in entries and "ranking 2" in entries

    # a bad line: named with its number in Finnish, and nobody added
    director.locator("[data-ranking-list] summary").click()
    director.locator("[data-ranking-list-form] textarea[name=list]").fill(BAD)
    with director.expect_navigation():
        director.locator("[data-ranking-list-form] button[type=submit]").click()
    said = pages.visible_text(director, "ul.messages")
    assert "rivi 2: sija on" in said, said
    assert "Lahti Eero" not in pages.visible_text(director, "ol.entries")
    assert director.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert pages.cut_off(director, "main") == []
    director.screenshot(path=str(artifacts_dir / "ranking-list-refused-fi.jpg"), full_page=True)
    assert director.errors == []
