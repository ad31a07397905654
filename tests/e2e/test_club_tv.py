"""A club's TV page of an event at the club (/tournaments/<id>/tv/), in a real Chromium against a real
daphne: the whole screen at 1920×1080 and at 1280×720, every section (the tables in play with their
clocks, the draw with each player's losses and who is out, the latest results, the standings) inside
the viewport and nothing scrolled, no site menu, in the club's language whatever the browser's; a
section with more rows than room pages itself (the page timer under Playwright's fake clock, never
waited for); and a server gone is said at once, the red "live" badge off.
Screenshots: test-artifacts/club-tv-*.png.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import pages
from tests.e2e.test_security_pages import VIOLATIONS
from tests.support.daphne import DaphneServer
from tests.support.services import PAGE_POLL_MS

#: 32 walk-ins on 4 tables (more players than a 1080-line screen has lines), 16 results in: the first at
#: the target, every fifth on time, every seventh in the shoot-out; the club speaks Finnish.
SETUP = """
import datetime
from django.db import transaction
from django.utils import timezone
from game.models.tournaments import Tournament, TournamentPairing
from game.tournaments.services import tournament_close_entries, tournament_create
from game.tournaments.services.club import AT_TARGET, ON_TIME, SHOOTOUT, BoardResult, tournament_result_enter
from game.tournaments.services import tournament_walk_in_enter
from tests.support.community_factories import make_club, make_player
director = make_player("Tv-johtaja")
club = make_club("Tv-seura", director)
club.language = "fi"
club.save(update_fields=["language"])
t = tournament_create(user=director, club=club, name="Viikkokisat syksy 2026", format=Tournament.Format.DOUBLE_LOSS,
                      starts_at=timezone.now() + datetime.timedelta(hours=1), tables=4, max_entries=32)
FIRST = ["Aino", "Bertta", "Celia", "Dora", "Eeva", "Fanny", "Greta", "Hilla"]
LAST = ["Mäkelä", "Virtanen", "Korhonen", "Nieminen"]
for last in LAST:
    for first in FIRST:
        tournament_walk_in_enter(user=director, tournament_id=t.pk, name=f"{first} {last}")
with transaction.atomic():
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now())
    tournament_close_entries(user=director, tournament_id=t.pk)
for number in range(16):
    on_tables = TournamentPairing.objects.filter(tournament=t, status="playing", table__isnull=False)
    game = on_tables.order_by("table").first()
    if number % 7 == 6:
        result = BoardResult(45, 52, SHOOTOUT, game.first_id)
    elif number % 5 == 4:
        result = BoardResult(41, 33, ON_TIME)
    else:
        result = BoardResult(60, 20 + number, AT_TARGET)
    tournament_result_enter(user=director, pairing_id=game.pk, result=result)
result = t.pk
"""

#: Each section's box and what of it shows: {name: {box: [top, bottom, left, right], rows, shown,
#: overflow (rows shown reaching past their box), page, pages}}, the document's size, the site menu.
SECTIONS = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right]; };
  const out = {};
  for (const section of document.querySelectorAll('[data-tv-section]')) {
    const rows = [...section.querySelectorAll('[data-row]')];
    const shown = rows.filter((row) => !row.hidden && row.getClientRects().length);
    const bottom = section.querySelector('[data-rows]').getBoundingClientRect().bottom;
    out[section.dataset.tvSection] = {
      box: box(section), rows: rows.length, shown: shown.length,
      overflow: shown.filter((row) => row.getBoundingClientRect().bottom > bottom + 1).length,
      first: shown.length ? shown[0].innerText : '', page: section.dataset.page, pages: section.dataset.pages,
      names: shown.map((row) => row.dataset.drawEntry || ''),
    };
  }
  return {
    sections: out, width: innerWidth, height: innerHeight,
    scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
    menu: document.querySelectorAll('.site-header, .site-nav, .site-footer, a[href="/accounts/login/"]').length,
  };
}"""


def open_tv(chromium: Any, server: DaphneServer, tid: int, width: int, height: int) -> Any:
    """The TV in a browser that asks for English (a TV's own setting): the club's Finnish is shown.
    The page's timers run on Playwright's clock, moved by the test."""
    page = pages.new_page(chromium, {"width": width, "height": height})
    page.context.add_init_script(VIOLATIONS)
    page.set_extra_http_headers({"Accept-Language": "en"})
    page.clock.install()
    page.goto(f"{server.url}/tournaments/{tid}/tv/")
    page.wait_for_function("() => document.body.dataset.connection === 'live'", polling=PAGE_POLL_MS)
    return page


def assert_fits(tv: Any, width: int, height: int) -> dict[str, Any]:
    seen = tv.evaluate(SECTIONS)
    assert seen["menu"] == 0, "the site's menu is on the TV"
    assert seen["scroll"][0] <= width and seen["scroll"][1] <= height, seen["scroll"]  # nothing to scroll
    assert sorted(seen["sections"]) == ["draw", "results", "standings", "tables"]
    for name, section in seen["sections"].items():
        top, bottom, left, right = section["box"]
        assert 0 <= top and bottom <= height and 0 <= left and right <= width, (name, section["box"])
        assert section["shown"] >= 1 and section["overflow"] == 0, (name, section)
    return seen


def assert_pages_itself(tv: Any, seen: dict[str, Any]) -> None:
    """The draw of 32 does not fit: it shows its first page, then the next after the page time (the
    fake clock moved, no waiting), round and round; every player is on one of its pages."""
    draw = seen["sections"]["draw"]
    count = int(draw["pages"])
    assert count >= 2 and draw["page"] == "1" and draw["shown"] < draw["rows"] == 32, draw
    names = set(draw["names"])
    for page_number in range(2, count + 2):
        tv.clock.run_for(12_000)
        now = tv.evaluate(SECTIONS)["sections"]["draw"]
        assert now["page"] == str((page_number - 1) % count + 1) and now["overflow"] == 0, now
        names.update(now["names"])
    assert len(names) == 32
    assert pages.visible_text(tv, "[data-tv-section=draw] [data-page-of]") == f"1/{count}"


def assert_club_words(tv: Any) -> None:
    text = pages.visible_text(tv, "body")
    for word in ("Pöydät", "Kaavio", "Viimeisimmät tulokset", "Sarjataulukko", "SUORANA", "Odottaa pöytää"):
        assert word in text, word
    assert "◷ ajalla" in pages.visible_text(tv, "[data-tv-section=results]")
    assert "45v – 52" in pages.visible_text(tv, "[data-tv-section=results]")
    clock = tv.locator("[data-tv-section=tables] [data-since]").first.inner_text()
    assert re.fullmatch(r"\d+/65 min", clock), clock  # minutes on the table of the clock's 65 (60 + 5)


@pytest.mark.browser
def test_tv_page_fits_1920x1080(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    server = daphne_factory()
    tid = pages.django_run(server.env, SETUP)
    tv = open_tv(chromium, server, tid, 1920, 1080)
    tv.screenshot(path=str(artifacts_dir / "club-tv-1920x1080-fi.png"))
    seen = assert_fits(tv, 1920, 1080)
    assert_club_words(tv)
    assert_pages_itself(tv, seen)
    assert tv.errors == [] and tv.evaluate("() => window.__csp") == []
    pages.assert_clean_log(server)


@pytest.mark.browser
def test_tv_page_fits_1280x720(daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path) -> None:
    """The smaller screen, then the server gone: the red badge goes off and the screen says the
    connection is lost (what it shows is the last it heard)."""
    server = daphne_factory()
    tid = pages.django_run(server.env, SETUP)
    tv = open_tv(chromium, server, tid, 1280, 720)
    tv.screenshot(path=str(artifacts_dir / "club-tv-1280x720-fi.png"))
    assert tv.locator("[data-live-badge]").is_visible()  # before the fake clock runs: see below
    seen = assert_fits(tv, 1280, 720)
    assert_club_words(tv)
    # Paging moves the fake clock past the socket's ping and its 10 s for the pong: on a busy host the
    # pong can come after that, and the page rightly reconnects meanwhile.
    assert_pages_itself(tv, seen)
    pages.assert_clean_log(server)
    server.stop()
    tv.wait_for_function("() => document.body.dataset.connection === 'lost'", polling=PAGE_POLL_MS)
    assert not tv.locator("[data-live-badge]").is_visible()
    assert pages.visible_text(tv, "[data-connection-lost]") == "Yhteys katkesi · yhdistetään uudelleen…"
    tv.screenshot(path=str(artifacts_dir / "club-tv-1280x720-lost-fi.png"))
    assert_fits(tv, 1280, 720)
    assert tv.errors == []
