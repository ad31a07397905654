"""A director in Helsinki, in Chromium set to Helsinki's time zone and Finnish, on a real daphne: the
new-event form offers the next quarter hour on Helsinki's clock, 22:20 typed is 22:20 on the event's
page, and last week's walk-in is offered by the walk-in field as "olli" is typed, entered as the same
player. Screenshots: test-artifacts/club-night-*.png."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from tests.e2e import pages
from tests.e2e.test_club_event import sign_in
from tests.e2e.test_security_pages import VIOLATIONS
from tests.support.daphne import DaphneServer

HELSINKI = ZoneInfo("Europe/Helsinki")

#: A club whose director has a password, and last week's event with Olli Tuominen as a walk-in.
SETUP = """
import datetime
from django.utils import timezone
from game.models.tournaments import Tournament
from game.tournaments.services import tournament_create, tournament_walk_in_enter
from tests.support.community_factories import DEMO_PASSWORD, make_club, make_player
director = make_player("Vetäjä")
director.set_password(DEMO_PASSWORD)
director.save()
club = make_club("Kaisaseura Helsinki", director)
last = tournament_create(user=director, club=club, name="Viikkokisa 1", format=Tournament.Format.DOUBLE_LOSS,
                         starts_at=timezone.now() + datetime.timedelta(hours=1), tables=2)
tournament_walk_in_enter(user=director, tournament_id=last.pk, name="Olli Tuominen")
result = club.slug
"""


@pytest.mark.browser
@pytest.mark.slow(15)
def test_club_night_in_helsinki_time(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    server = daphne_factory()
    slug = pages.django_run(server.env, SETUP)
    context = chromium.new_context(
        viewport=pages.PHONE_PORTRAIT, device_scale_factor=2, timezone_id="Europe/Helsinki", locale="fi-FI"
    )
    context.add_init_script(VIOLATIONS)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.set_extra_http_headers({"Accept-Language": "fi"})
    sign_in(page, server.url, "vetäjä")

    # The form's start: the next quarter hour on the browser's (Helsinki's) clock.
    page.goto(f"{server.url}/clubs/{slug}/tournaments/new/")
    browser_now = page.evaluate("Date.now()") / 1000
    offered = page.input_value("input[name=starts_at]")
    wanted = {
        datetime.datetime.fromtimestamp(-(-int(t) // 900) * 900, HELSINKI).strftime("%Y-%m-%dT%H:%M")
        for t in (browser_now - 5, browser_now + 5)
    }
    assert offered in wanted, (offered, wanted)
    assert "Seuran aikaa (Europe/Helsinki)" in pages.visible_text(page, "form[data-tournament-form]")

    # 22:20 tomorrow, typed into the field, is 22:20 on the event's page.
    day = (datetime.datetime.now(HELSINKI) + datetime.timedelta(days=1)).date()
    page.fill("input[name=name]", "Viikkokisa 2")
    page.select_option("select[name=format]", "double_loss")
    page.fill("input[name=tables]", "2")
    page.fill("input[name=starts_at]", f"{day.isoformat()}T22:20")
    with page.expect_navigation():
        page.locator("form[data-tournament-form] button[type=submit]").click()
    assert "kello 22.20" in pages.visible_text(page, ".page-head .lede")

    # Last week's walk-in, offered as the director types; chosen, he is the same player.
    field = page.locator("form[data-walk-in] input[name=name]")
    field.press_sequentially("olli", delay=40)
    offer = page.locator("[data-player-suggestions] button", has_text="Olli Tuominen")
    offer.wait_for(timeout=10000)
    page.screenshot(path=str(artifacts_dir / "club-night-walk-in-fi.png"), full_page=True)
    assert pages.cut_off(page, "form[data-walk-in]") == []
    offer.click()
    assert field.input_value() == "Olli Tuominen"
    with page.expect_navigation():
        page.locator("form[data-walk-in] button[type=submit]").click()
    assert "Pelaaja on ilmoitettu." in pages.visible_text(page, "ul.messages")
    assert "Olli Tuominen" in pages.visible_text(page, "ol.entries")
    same = pages.django_run(
        server.env,
        "from game.models.tournaments import TournamentEntry\n"
        "result = len(set(TournamentEntry.objects.filter(name='Olli Tuominen').values_list('player_id', flat=True)))",
    )
    assert same == 1
    assert page.errors == [] and page.evaluate("window.__csp") == []
    pages.assert_clean_log(server)
    context.close()
