"""A real game's live page and an event's live and TV pages follow the table's scorer, in a real
Chromium against a real daphne: each tap reaches them over their sockets (ws/realgame/<id>/,
ws/realevent/<id>/) without a reload, with the score, the current run, the visits, whose turn it is,
the last shots in words with their points and rule ids, the running clock, and how many are watching.
Screenshots: test-artifacts/real-game-live-*.png.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import pages
from tests.realgames.live_support import Scorer, club_event_on_tables
from tests.support.daphne import DaphneServer
from tests.support.services import PAGE_POLL_MS

pytestmark = pytest.mark.browser

#: What the live page shows of its game: each seat's numbers, who is to shoot, the shots, the clock.
SHOWN = """() => {
  const text = (s) => document.querySelector(s)?.textContent.trim() ?? '';
  const seat = (n) => ({
    name: text(`[data-rg-name="${n}"]`), score: text(`[data-rg-score="${n}"]`), run: text(`[data-rg-run="${n}"]`),
    visits: text(`[data-rg-visits="${n}"]`),
    turn: document.querySelector(`tr[data-rg-seat="${n}"]`).classList.contains('rg-turn'),
  });
  return {
    seats: [seat(0), seat(1)], clock: text('[data-rg-clock]'),
    stage: document.querySelector('[data-rg-clock]').dataset.stage,
    shots: [...document.querySelectorAll('[data-rg-shot]')].map((li) => li.textContent.replace(/\\s+/g, ' ').trim()),
    watching: text('[data-rg-spectators]'), version: document.querySelector('[data-real-game]').dataset.version,
  };
}"""


def _wait_version(page: Any, version: int) -> None:
    page.wait_for_function(
        "(v) => Number(document.querySelector('[data-real-game]').dataset.version) >= v",
        arg=version,
        timeout=10_000,
        polling=PAGE_POLL_MS,
    )


def test_real_game_live_page_follows(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    server = daphne_factory()
    made = club_event_on_tables(server, tag="live")
    game_id, token = made["games"][0], made["tokens"][0]
    first, second = made["players"][0]
    live = pages.new_page(chromium, {"width": 1280, "height": 900})
    live.goto(f"{server.url}/realgames/{game_id}/")
    live.wait_for_function("() => document.body.dataset.connection === 'live'", polling=PAGE_POLL_MS)
    other = pages.new_page(chromium, {"width": 390, "height": 844})
    other.goto(f"{server.url}/realgames/{game_id}/")
    other.wait_for_function("() => document.body.dataset.connection === 'live'", polling=PAGE_POLL_MS)
    tv = pages.new_page(chromium, {"width": 1920, "height": 1080})
    tv.goto(f"{server.url}/tournaments/{made['tournament']}/tv/")
    tv.wait_for_function("() => document.body.dataset.connection === 'live'", polling=PAGE_POLL_MS)
    event = pages.new_page(chromium, {"width": 1280, "height": 900})
    event.goto(f"{server.url}/tournaments/{made['tournament']}/live/")
    before = live.evaluate(SHOWN)
    assert [s["name"] for s in before["seats"]] == [first, second] and before["shots"] == []
    assert before["seats"][0]["score"] == "0" and before["seats"][0]["turn"] is False  # not started yet

    scorer = Scorer(server, token)
    try:
        red = scorer.tap({"kind": "pot", "ball": "red", "pocket": "foot_left"})
        kaisa = scorer.tap({"kind": "pot", "ball": "kaisa", "pocket": "home_right"})
        _wait_version(live, kaisa["version"])
        points = red["verdict"]["points"] + kaisa["verdict"]["points"]
        assert red["verdict"]["points"] > 0 and kaisa["verdict"]["points"] > red["verdict"]["points"]
        seen = live.evaluate(SHOWN)
        assert seen["seats"][0] == {
            "name": first,
            "score": str(points),
            "run": str(points),
            "visits": "1",
            "turn": True,
        }
        assert seen["seats"][1]["score"] == "0" and seen["seats"][1]["turn"] is False
        # The newest shot first, in words, with its points and rule ids (the engine's verdict, said).
        assert seen["shots"][0].startswith(f"{first}: {kaisa['verdict']['words']['en']} +{kaisa['verdict']['points']}")
        assert all(rule in seen["shots"][0] for rule in kaisa["verdict"]["rules"]) and len(seen["shots"]) == 2
        # The event's clock (65 min) runs on the server from the first tap: the time left, counting down.
        assert re.fullmatch(r"6[45]:\d\d", seen["clock"]) and seen["stage"] == "running", seen
        live.wait_for_function(
            "(c) => document.querySelector('[data-rg-clock]').textContent !== c",
            arg=seen["clock"],
            polling=PAGE_POLL_MS,
        )
        assert seen["watching"] == "2"  # both pages, counted when the state was made

        miss = scorer.tap({"kind": "miss", "ball": "red"})
        _wait_version(live, miss["version"])
        _wait_version(other, miss["version"])
        after = live.evaluate(SHOWN)
        assert after["seats"][0]["turn"] is False and after["seats"][1]["turn"] is True
        assert after["seats"][0]["score"] == str(points) and after["seats"][1]["visits"] in ("0", "1")
        assert len(after["shots"]) == 3 and after["shots"][0].startswith(f"{first}: ")
        live.screenshot(path=str(artifacts_dir / "real-game-live-desktop.png"))
        other.screenshot(path=str(artifacts_dir / "real-game-live-phone.png"))
        assert other.evaluate("() => document.documentElement.scrollWidth") <= 390  # fits a phone

        # The event's TV and live pages: table 1's row follows the same game, beside the other table.
        row = '[data-table="1"][data-real-game]'
        tv.wait_for_function(
            "(p) => document.querySelector('[data-real-game] [data-rg-score=\"0\"]')?.textContent === p",
            arg=str(points),
            polling=PAGE_POLL_MS,
        )
        assert tv.locator(f"{row} [data-rg-name='1']").inner_text() == second
        assert re.fullmatch(r"6[45]:\d\d", tv.locator(f"{row} [data-rg-clock]").inner_text())
        assert tv.evaluate("() => document.documentElement.scrollHeight") <= 1080
        event.wait_for_function(
            "(p) => document.querySelector('[data-real-game] [data-rg-score=\"0\"]')?.textContent === p",
            arg=str(points),
            polling=PAGE_POLL_MS,
        )
        assert event.locator(f"{row} a[href='/realgames/{game_id}/']").count() == 1
        tv.screenshot(path=str(artifacts_dir / "real-game-live-tv.png"))
    finally:
        scorer.close()
    for page in (live, other, tv, event):
        assert page.errors == [], page.errors
    pages.assert_clean_log(server)
