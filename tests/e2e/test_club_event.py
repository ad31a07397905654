"""An event at the club on real tables, in a real Chromium against a real daphne: the
director, on a phone in Finnish, enters the results of four tables through the tables page's forms while
a spectator's public live page (another browser, Finnish) follows without a reload: each result in the
latest results, and the next drawn game given to a freed table. Screenshots: test-artifacts/club-event-*.jpg.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import pages
from tests.e2e.test_security_pages import VIOLATIONS
from tests.support.daphne import DaphneServer
from tests.support.services import PAGE_POLL_MS

#: Eight walk-ins (names only, no accounts) on four tables, double-loss; the director has a password.
#: The event starts in an hour while the director enters the players, then now as the entries close (one
#: transaction): a start time already come would let the server's clock poll start (and, with no entries
#: yet, cancel) it between two statements.
SETUP = """
import datetime
from django.db import transaction
from django.utils import timezone
from game.models.tournaments import Tournament
from game.tournaments.services import tournament_close_entries, tournament_create
from game.tournaments.services import tournament_walk_in_enter
from tests.support.community_factories import DEMO_PASSWORD, make_club, make_player
director = make_player("Johtaja")
director.set_password(DEMO_PASSWORD)
director.save()
club = make_club("Kaisaseura", director)
t = tournament_create(user=director, club=club, name="Perjantaikaisa", format=Tournament.Format.DOUBLE_LOSS,
                      starts_at=timezone.now() + datetime.timedelta(hours=1), tables=4)
for name in ("Aino", "Bertta", "Celia", "Dora", "Eeva", "Fanny", "Greta", "Hilla"):
    tournament_walk_in_enter(user=director, tournament_id=t.pk, name=name)
with transaction.atomic():  # the poll sees the start time come only with the entries closed
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now())
    tournament_close_entries(user=director, tournament_id=t.pk)
result = t.pk
"""

#: What each table of the live page shows: {number: [first, second, round words]} or "Vapaa".
LIVE_TABLES = """() => Object.fromEntries([...document.querySelectorAll('[data-club-tables] tr[data-table]')]
  .map((tr) => [tr.dataset.table, [...tr.querySelectorAll('td')].map((td) => td.innerText.trim())
  .filter((t) => t && t !== '–')]))"""


def finnish(chromium: Any, viewport: dict[str, int]) -> Any:
    page = pages.new_page(chromium, viewport, scale=2)
    page.context.add_init_script(VIOLATIONS)  # what the site's policy blocks (inline style or handlers)
    page.set_extra_http_headers({"Accept-Language": "fi"})
    return page


def sign_in(page: Any, base_url: str, username: str) -> None:
    from tests.support.community_factories import DEMO_PASSWORD

    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_login", username)
    page.fill("#id_password", DEMO_PASSWORD)
    page.locator("main form button[type=submit], main form input[type=submit]").first.click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def live_tables(page: Any) -> dict[str, list[str]]:
    return {str(k): [str(t) for t in v] for k, v in page.evaluate(LIVE_TABLES).items()}


@pytest.mark.browser
@pytest.mark.slow(17)
def test_club_event_on_real_tables(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    server = daphne_factory()
    tid = pages.django_run(server.env, SETUP)
    spectator = finnish(chromium, pages.DESKTOP)
    spectator.goto(f"{server.url}/tournaments/{tid}/live/")
    spectator.wait_for_function(
        "() => { const s = document.querySelector('[data-socket-status]'); return s.textContent === s.dataset.live; }",
        polling=PAGE_POLL_MS,
    )
    assert pages.visible_text(spectator, "[data-socket-status]") == "Suorana"
    spectator.evaluate("() => { window.__kaizaNotReloaded = true; }")
    director = finnish(chromium, pages.PHONE_PORTRAIT)
    sign_in(director, server.url, "johtaja")
    director.goto(f"{server.url}/tournaments/{tid}/tables/")
    assert "Seuralla 4 pöydällä" in pages.visible_text(director, ".page-head")

    # Round 1: four games, one on each table, nothing waiting; the spectator sees the same tables.
    start = live_tables(spectator)
    assert sorted(start) == ["1", "2", "3", "4"] and all(row[-1] == "kierros 1" for row in start.values()), start
    games = {number: row[:2] for number, row in start.items()}
    for number, (first, second) in games.items():
        card = pages.visible_text(director, f"article[data-table='{number}']")
        assert f"Pöytä {number}" in card and first in card and second in card and "Tallenna tulos" in card, card
    assert "Odottaa pöytää" in pages.visible_text(director, "main")
    assert "Yksikään peli ei odota." in pages.visible_text(director, "main")
    for part in ("main .page-head", "main .club-tables", "main"):
        assert pages.cut_off(director, part) == [], part
    assert director.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    director.screenshot(path=str(artifacts_dir / "club-event-director-fi.jpg"), full_page=True)

    # The shoot-out winner's radios show only once "in the shoot-out" is chosen (result_form.js).
    first_table = director.locator("article[data-table='1']")
    radios = first_table.locator("input[name=shootout_winner]")
    assert radios.count() == 2 and not radios.first.is_visible() and not radios.last.is_visible()
    first_table.locator("select[name=ended]").select_option("shootout")
    assert radios.first.is_visible() and radios.last.is_visible()
    assert games["1"][0] in pages.visible_text(director, "article[data-table='1'] fieldset")
    director.screenshot(path=str(artifacts_dir / "club-event-director-shootout-fi.jpg"), full_page=True)
    first_table.locator("select[name=ended]").select_option("time_limit")
    assert not radios.first.is_visible()
    first_table.locator("select[name=ended]").select_option("target")

    freed: list[str] = []
    for step, number in enumerate(["1", "2", "3", "4"]):
        first, second = games[number]
        loser_score = 20 + 5 * step
        table = director.locator(f"article[data-table='{number}']")
        table.locator("input[name=first_score]").fill("60")
        table.locator("input[name=second_score]").fill(str(loser_score))
        assert table.locator("select[name=ended]").input_value() == "target"
        with director.expect_navigation():  # the form posts, the server sends the tables page back
            table.locator("button[type=submit]", has_text="Tallenna tulos").click()
        assert "Tulos on kirjattu." in pages.visible_text(director, "ul.messages")
        freed.append(number)
        # The spectator's page shows the result without a reload.
        spectator.wait_for_function(
            "([a, b, s]) => [...document.querySelectorAll('[data-club-tables] li')]"
            ".some((li) => li.innerText.includes(a) && li.innerText.includes(b) && li.innerText.includes(s))",
            arg=[first, second, str(loser_score)],
            timeout=15000,
            polling=PAGE_POLL_MS,
        )
        assert "Viimeisimmät tulokset" in pages.visible_text(spectator, "[data-club-tables]")
        if step == 1:  # four players free: the next drawn game goes to a freed table
            spectator.wait_for_function(
                "(freed) => freed.some((n) => document.querySelector(`[data-club-tables] tr[data-table='${n}']`)"
                ".innerText.includes('kierros 2'))",
                arg=freed,
                timeout=15000,
                polling=PAGE_POLL_MS,
            )
        now = live_tables(spectator)
        for other, pair in games.items():
            if other not in freed:  # a table still playing keeps its game
                assert now[other] == [*pair, "kierros 1"], now
        if step == 0:
            spectator.screenshot(path=str(artifacts_dir / "club-event-live-first-result-fi.jpg"), full_page=True)

    # Round 1 done: every freed table is given its next drawn game (round 2), on both pages.
    spectator.wait_for_function(
        "() => [...document.querySelectorAll('[data-club-tables] tr[data-table]')]"
        ".every((tr) => tr.innerText.includes('kierros 2'))",
        timeout=15000,
        polling=PAGE_POLL_MS,
    )
    after = live_tables(spectator)
    winners = {games[n][0] for n in games}
    pairs = [set(pair) for pair in games.values()]
    for number, row in after.items():
        assert row[-1] == "kierros 2" and set(row[:2]) not in pairs, (number, row)  # no rematch
        # The double-loss draw: winners meet winners, losers meet losers (each in his own round 2).
        assert (row[0] in winners) == (row[1] in winners), after
    for number, row in after.items():
        card = pages.visible_text(director, f"article[data-table='{number}']")
        assert row[0] in card and row[1] in card and "kierros 2" in card, card
    assert spectator.evaluate("() => window.__kaizaNotReloaded === true"), "the live page was reloaded"
    spectator.screenshot(path=str(artifacts_dir / "club-event-live-fi.jpg"), full_page=True)
    director.screenshot(path=str(artifacts_dir / "club-event-director-after-fi.jpg"), full_page=True)

    # On the phone nothing of the tables, the waiting list or the results is cut off.
    assert pages.cut_off(director, "main") == []
    assert director.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    phone = finnish(chromium, pages.PHONE_PORTRAIT)
    phone.goto(f"{server.url}/tournaments/{tid}/live/")
    assert pages.cut_off(phone, "[data-tournament-parts]") == []
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    phone.screenshot(path=str(artifacts_dir / "club-event-live-phone-fi.jpg"), full_page=True)
    # The form's layout is the stylesheet's (an inline one was refused by the policy: the page
    # showed its fields run together in one line); the score sheets print from the button.
    label = director.locator("article[data-table='1'] .result-fields label").first
    assert label.evaluate("(el) => getComputedStyle(el).display") == "flex"
    director.goto(f"{server.url}/tournaments/{tid}/sheets/")
    assert director.locator("[data-sheet]").count() == 4
    director.evaluate("() => { window.__printed = 0; window.print = () => { window.__printed += 1; }; }")
    director.locator("button[data-print]", has_text="Tulosta").click()
    assert director.evaluate("() => window.__printed") == 1
    for page in (spectator, director, phone):
        assert page.errors == [] and page.evaluate("() => window.__csp") == [], page.url
    pages.assert_clean_log(server)


#: SETUP, then two of round 1's four results in (the live page has tables, latest results, the draw's
#: record and the standings to show).
TWO_RESULTS = (
    SETUP.replace("result = t.pk", "")
    + """
from game.models.tournaments import TournamentPairing
from game.tournaments.services.club import AT_TARGET, SHOOTOUT, BoardResult, tournament_result_enter
on = {p.table: p for p in TournamentPairing.objects.filter(tournament=t, table__isnull=False)}
tournament_result_enter(user=director, pairing_id=on[1].pk, result=BoardResult(60, 31, AT_TARGET))
tournament_result_enter(user=director, pairing_id=on[2].pk, result=BoardResult(45, 52, SHOOTOUT, on[2].first_id))
result = t.pk
"""
)

#: The live page's socket is up (its status reads the word for live).
LIVE = "() => { const s = document.querySelector('[data-socket-status]'); return s.textContent === s.dataset.live; }"

#: Each part's box in the viewport: {name: [top, bottom, left, right]}, and the tables' type size.
BOXES = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right]; };
  return {
    tables: box(document.querySelector('[data-club-tables] table')),
    standings: box(document.querySelector('[data-standings]')),
    font: parseFloat(getComputedStyle(document.querySelector('[data-club-tables] td')).fontSize),
    height: window.innerHeight,
  };
}"""

#: Where the latest results' first bullet is drawn against the text of the card's heading: an outside
#: marker sits about 1em left of its item's box, so it is inside the card's text column when the item
#: starts at least that far right of the heading's text.
BULLET = """() => {
  const card = document.querySelector('[data-club-tables]');
  const heading = [...card.querySelectorAll('h3')].pop();
  const item = card.querySelector('ul li');
  const range = document.createRange();
  range.selectNodeContents(heading);
  const text = range.getBoundingClientRect().left;
  const font = parseFloat(getComputedStyle(item).fontSize);
  return { marker: item.getBoundingClientRect().left - font, text, style: getComputedStyle(item).listStyleType };
}"""


@pytest.mark.browser
def test_club_event_live_page_on_a_tv(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    """Readable on a club's TV: the public live page of an event on real tables, in
    Finnish, at 1920×1080 and 1280×720: nothing cut off or scrolling sideways, the type larger on the
    big screen, and at 1920×1080 the four tables and the standings of eight players both on screen
    without scrolling. The latest results' bullets sit in the card's text column, not its padding."""
    server = daphne_factory()
    tid = pages.django_run(server.env, TWO_RESULTS)
    fonts = {}
    for width, height in ((1920, 1080), (1280, 720)):
        tv = finnish(chromium, {"width": width, "height": height})
        tv.goto(f"{server.url}/tournaments/{tid}/live/")
        tv.wait_for_function(LIVE, polling=PAGE_POLL_MS)
        assert "Viimeisimmät tulokset" in pages.visible_text(tv, "[data-club-tables]")
        tv.screenshot(path=str(artifacts_dir / f"club-event-live-tv-{width}x{height}-fi.jpg"))
        tv.screenshot(path=str(artifacts_dir / f"club-event-live-tv-{width}x{height}-fi-full.jpg"), full_page=True)
        assert pages.cut_off(tv, "main") == [], width
        assert tv.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), width
        boxes = tv.evaluate(BOXES)
        fonts[width] = boxes["font"]
        if width == 1920:
            for part in ("tables", "standings"):
                top, bottom, _left, _right = boxes[part]
                assert 0 <= top and bottom <= boxes["height"], (part, boxes)
        bullet = tv.evaluate(BULLET)
        assert bullet["style"] != "none" and bullet["marker"] >= bullet["text"] - 1, bullet
        assert tv.errors == [] and tv.evaluate("() => window.__csp") == []
    assert fonts[1920] >= 20 and fonts[1920] > fonts[1280] >= 16, fonts  # readable across a room
    pages.assert_clean_log(server)


#: The result of a game on the server: its status, scores, and the keys and fixes stored for it.
GAME_ROW = """
from game.models.tournaments import TournamentPairing, TournamentResultFix, TournamentResultKey
p = TournamentPairing.objects.get(tournament_id={tid}, table={table}, round__number=1)
result = [p.status, p.first_score, p.second_score, TournamentResultKey.objects.filter(pairing=p).count(),
          TournamentResultFix.objects.filter(pairing=p).count(),
          TournamentPairing.objects.filter(tournament_id={tid}).count()]
"""

UNSENT = "() => JSON.parse(localStorage.getItem('kaiza.unsentResults') || '[]')"

#: The next request the page makes goes through and is answered, but the page sees the network fail
#: (the club's wifi dropping while the answer is on its way back).
LOSE_THE_ANSWER = """() => {
  const real = window.fetch;
  window.fetch = async (...args) => {
    window.fetch = real;
    await real(...args);
    throw new TypeError('Failed to fetch');
  };
}"""


@pytest.mark.browser
def test_result_entered_offline_is_sent_once(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    """The club's wifi goes down as the director saves a result on the phone: the form says it is not
    sent and kept on the phone, nothing is stored; the connection back, it is sent by itself and stored
    once. Then the answer of a sent result is lost on its way back (stored on the server, the phone
    sees no answer): the phone keeps it and sends it again, and the server stores it once."""
    server = daphne_factory()
    tid = pages.django_run(server.env, SETUP)
    director = finnish(chromium, pages.PHONE_PORTRAIT)
    sign_in(director, server.url, "johtaja")
    director.goto(f"{server.url}/tournaments/{tid}/tables/")
    table = director.locator("article[data-table='1']")
    table.locator("input[name=first_score]").fill("60")
    table.locator("input[name=second_score]").fill("41")

    director.context.set_offline(True)
    table.locator("button[type=submit]", has_text="Tallenna tulos").click()
    status = table.locator("[data-form-status]", has_text="Ei lähetetty")  # not "Lähetetään…" (sending)
    status.wait_for(state="visible")
    assert "Ei lähetetty: ei yhteyttä" in status.inner_text() and "puhelimeen" in status.inner_text()
    kept = pages.visible_text(director, "[data-unsent]")
    assert "Pöytä 1:" in kept and "Lähetä nyt" in kept, kept
    assert len(director.evaluate(UNSENT)) == 1
    assert table.locator("input[name=first_score]").input_value() == "60"  # what was typed is still there
    assert pages.cut_off(director, "main") == []
    director.screenshot(path=str(artifacts_dir / "club-event-offline-kept-fi.png"), full_page=True)
    row = pages.django_run(server.env, GAME_ROW.format(tid=tid, table=1))
    assert row[0] == "playing" and row[3] == 0, row  # nothing reached the server

    with director.expect_navigation():  # the connection is back: sent by itself, then the tables again
        director.context.set_offline(False)
    director.wait_for_load_state()
    assert "Tulos on kirjattu." in pages.visible_text(director, "ul.messages")
    assert director.evaluate(UNSENT) == [] and not director.locator("[data-unsent]").is_visible()
    status, first, second, keys, fixes, _ = pages.django_run(server.env, GAME_ROW.format(tid=tid, table=1))
    assert (status, first, second, keys, fixes) == ("done", 60, 41, 1, 0)

    # Table 2: the server stores the result, but its answer never reaches the phone.
    table = director.locator("article[data-table='2']")
    table.locator("input[name=first_score]").fill("60")
    table.locator("input[name=second_score]").fill("52")

    # The page's next request reaches the server, which stores the result; its answer is lost.
    director.evaluate(LOSE_THE_ANSWER)
    table.locator("button[type=submit]").click()
    table.locator("[data-form-status]", has_text="Ei lähetetty").wait_for(state="visible")
    assert len(director.evaluate(UNSENT)) == 1
    stored_once = pages.django_run(server.env, GAME_ROW.format(tid=tid, table=2))
    assert stored_once[:5] == ["done", 60, 52, 1, 0], stored_once
    with director.expect_navigation():  # sent again: the server knows its key and changes nothing
        director.evaluate("() => window.dispatchEvent(new Event('online'))")
    director.wait_for_load_state()
    assert director.evaluate(UNSENT) == []
    assert pages.django_run(server.env, GAME_ROW.format(tid=tid, table=2)) == stored_once
    assert director.errors == [] and director.evaluate("() => window.__csp") == []
    pages.assert_clean_log(server)
