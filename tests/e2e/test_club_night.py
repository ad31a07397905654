"""A club night scored at two tables, end to end in Chromium against a real daphne: two phones (in
Finnish) score the games the draw gave tables 1 and 2 of a Finnish club's event on the scorer's page,
while the club's TV page and the event's stream overlay follow both tables, in the club's language,
without a reload. Screenshots: test-artifacts/club-night-*.png.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import pages
from tests.e2e.test_security_pages import VIOLATIONS
from tests.realgames.live_support import club_event_on_tables
from tests.support.daphne import DaphneServer
from tests.support.services import PAGE_POLL_MS

pytestmark = pytest.mark.browser

#: Each table's game as a following page shows it: {table number: [score 0, score 1]}.
FOLLOWED = """() => Object.fromEntries(
  [...document.querySelectorAll('[data-real-game][data-table-number], tr[data-real-game]')].map((board) =>
    [board.dataset.tableNumber || board.dataset.table,
    [0, 1].map((seat) => board.querySelector(`[data-rg-score="${seat}"]`).textContent.trim())]))"""


def phone(chromium: Any, url: str) -> Any:
    page = pages.new_page(chromium, pages.PHONE_PORTRAIT)
    page.context.add_init_script(VIOLATIONS)
    page.set_extra_http_headers({"Accept-Language": "fi"})
    page.goto(url)
    page.wait_for_function(
        "() => document.querySelector('[data-socket-status]').dataset.state === 'live'", polling=PAGE_POLL_MS
    )
    return page


def tap(page: Any, *selectors: str) -> None:
    for selector in selectors:
        page.locator(f"#kaiza-scorer {selector}:visible").first.click()


def scored(page: Any, version: int) -> None:
    page.wait_for_function(
        "(v) => Number(document.querySelector('#kaiza-scorer').dataset.version) >= v",
        arg=version,
        timeout=20_000,
        polling=PAGE_POLL_MS,
    )


def follows(page: Any, table: int, scores: list[str]) -> None:
    page.wait_for_function(
        f"([t, s]) => JSON.stringify(({FOLLOWED})()[t]) === JSON.stringify(s)",
        arg=[str(table), scores],
        timeout=10_000,
        polling=PAGE_POLL_MS,
    )


def test_club_night_scored_at_two_tables(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    server = daphne_factory()
    made = club_event_on_tables(server, tag="night", language="fi", table_word="Pöytä")
    tid = made["tournament"]
    tv = pages.new_page(chromium, {"width": 1280, "height": 720})
    tv.set_extra_http_headers({"Accept-Language": "en"})  # a TV's own setting: the club's Finnish is shown
    tv.goto(f"{server.url}/tournaments/{tid}/tv/")
    tv.wait_for_function("() => document.body.dataset.connection === 'live'", polling=PAGE_POLL_MS)
    overlay = pages.new_page(chromium, {"width": 1280, "height": 720})
    overlay.goto(f"{server.url}/tournaments/{tid}/overlay/")
    overlay.wait_for_function("() => document.body.dataset.connection === 'live'", polling=PAGE_POLL_MS)
    first = phone(chromium, f"{server.url}/tables/{made['tokens'][0]}/score/")
    second = phone(chromium, f"{server.url}/tables/{made['tokens'][1]}/score/")

    # Table 1: a red with a carom on the kaisa (K-5.3: 9); table 2: the kaisa straight in (6).
    tap(first, "[data-ball=red]", "[data-pocket=foot_left]", "[data-carom=kaisa]", "[data-tap-pot]")
    tap(second, "[data-ball=kaisa]", "[data-pocket=foot_right]", "[data-tap-pot]")
    scored(first, 1)
    scored(second, 1)
    for page in (tv, overlay):
        follows(page, 1, ["9", "0"])
        follows(page, 2, ["6", "0"])

    # Table 1's player misses: the turn passes there; table 2 pots on. Both screens follow each table.
    tap(first, "[data-ball=red]", "[data-tap-miss]")
    tap(second, "[data-ball=red]", "[data-pocket=home_left]", "[data-tap-pot]")
    scored(first, 2)
    scored(second, 2)
    for page in (tv, overlay):
        follows(page, 2, ["9", "0"])
    turn = (
        "() => document.querySelector('[data-table-number=\"1\"] [data-rg-seat=\"1\"]').classList.contains('rg-turn')"
    )
    overlay.wait_for_function(turn, polling=PAGE_POLL_MS)

    # In the club's language on both screens, whatever the browsers asked for.
    assert "Pöydät" in pages.visible_text(tv, "[data-tv-section=tables]")
    assert overlay.locator("[data-table-number='1'] .rg-round").inner_text().lower().startswith("kierros")
    assert overlay.locator("[data-table-number='2'] .rg-turn .rg-run").inner_text().lower().startswith("sarja 9")
    for name, page in (("tv", tv), ("overlay", overlay), ("phone-1", first), ("phone-2", second)):
        page.screenshot(path=str(artifacts_dir / f"club-night-{name}.png"))
        assert page.errors == [], (name, page.errors)
    pages.assert_clean_log(server)
