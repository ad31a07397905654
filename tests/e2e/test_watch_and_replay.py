"""End to end in Chromium against a real daphne: find a live match on the Watch page, see it update,
watch it on the match page (counted as a spectator), then replay a finished match shot by shot and
download its record. Screenshots of every community page go to test-artifacts/community-*.jpg."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import pages
from tests.support.community_factories import DEMO_PASSWORD
from tests.support.daphne import DaphneServer
from tests.support.services import PAGE_POLL_MS


def shoot(page: Any, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"community-{name}.jpg"), full_page=True)


@pytest.mark.browser
@pytest.mark.slow(20)
def test_watch_a_live_match_and_replay_a_finished_one(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    from playwright.sync_api import expect

    server = daphne_factory()
    ids = pages.django_run(
        server.env,
        "from game.models import Match\n"
        "result = seed_demo()\n"
        "result['final'] = Match.objects.get(pk=result['finished']).snapshot",
        factories=True,
    )
    final = ids["final"]
    context = chromium.new_context(viewport={"width": 1280, "height": 860}, accept_downloads=True)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))

        # The Watch page lists both live matches, highest rated first, and follows the score live.
        page.goto(f"{server.url}/watch/")
        rows = page.locator("tbody[data-live-rows] tr[data-match]")
        expect(rows).to_have_count(2)
        expect(rows.first).to_have_attribute("data-match", ids["live"])
        live_row = page.locator(f'tr[data-match="{ids["live"]}"]')
        expect(live_row).to_contain_text("Aino")
        expect(live_row).to_contain_text("Helsinki Kaisa Club")
        featured = page.locator("[data-featured]")
        expect(featured).to_have_attribute("data-featured", ids["live"])
        page.wait_for_function(
            """() => { const c = document.querySelector('[data-featured-canvas]');
                if (!c || c.width < 200) return false;
                return c.getContext('2d').getImageData(c.width / 2, c.height / 2, 1, 1).data[3] > 0; }""",
            polling=PAGE_POLL_MS,
        )
        shoot(page, artifacts_dir, "watch")
        pages.django_run(server.env, f"set_live_score({ids['live']!r}, 0, 33)\nresult = True", factories=True)
        expect(live_row.locator(".score")).to_contain_text("33", timeout=12_000)
        expect(featured.locator('[data-seat="0"]')).to_have_text("33")

        # Watching it: the match page shows the players, and the Watch page counts the spectator.
        live_row.get_by_role("link", name="Watch").click()
        page.wait_for_url(f"**/m/{ids['live']}/")
        expect(page.locator("#kaiza-match .kz-name").first).to_contain_text("Aino", timeout=10_000)
        other = context.new_page()
        other.goto(f"{server.url}/watch/")
        watching = other.locator(f'tr[data-match="{ids["live"]}"] td.num').nth(1)
        expect(watching).to_have_text("1", timeout=12_000)
        other.close()

        # Replaying the finished match: jump to the end, then play from the start.
        page.goto(f"{server.url}/m/{ids['finished']}/replay/")
        replay = page.locator("[data-replay]")
        steps = page.locator("[data-shot-list] li[data-index]")
        count = steps.count()
        assert count >= 10
        page.click('[data-action="last"]')
        expect(replay).to_have_attribute("data-index", str(count))
        scores = [p["score"] for p in final["players"]]
        expect(page.locator('[data-score="0"]')).to_have_text(str(scores[0]))
        expect(page.locator('[data-score="1"]')).to_have_text(str(scores[1]))
        expect(page.locator("[data-verdict]")).to_contain_text("resigned")
        page.click('[data-action="first"]')
        page.select_option("[data-speed]", "4")
        page.click('[data-action="play"]')
        expect(replay).to_have_attribute("data-state", "playing")
        page.wait_for_function(
            "() => Number(document.querySelector('[data-replay]').dataset.index) >= 6",
            timeout=20_000,
            polling=PAGE_POLL_MS,
        )
        painted = page.evaluate(
            """() => { const c = document.querySelector('[data-canvas]');
                const d = c.getContext('2d').getImageData(c.width / 2 - 40, c.height / 2 - 40, 80, 80).data;
                let lit = 0; for (let i = 0; i < d.length; i += 4) lit += d[i] + d[i + 1] + d[i + 2] > 60;
                return lit; }"""
        )
        assert painted > 1000, "the table was not drawn"
        page.click('[data-action="play"]')
        page.click(f'[data-shot-list] li[data-index="{min(6, count)}"]')
        shoot(page, artifacts_dir, "replay")

        # Paused, the replay draws nothing more (it drew the whole table sixty times a second); the next
        # shot rolls on frames again, and the loop rests once it has.
        page.evaluate(
            """() => { window.__tableDraws = 0; const draw = CanvasRenderingContext2D.prototype.drawImage;
                CanvasRenderingContext2D.prototype.drawImage = function (...args) {
                  if (this.canvas.matches('[data-canvas]')) window.__tableDraws += 1;
                  return draw.apply(this, args); }; }"""
        )
        page.wait_for_timeout(500)
        assert page.evaluate("window.__tableDraws") == 0, "a paused replay keeps drawing"
        page.click('[data-action="next"]')
        page.wait_for_function("() => window.__tableDraws > 5", timeout=5_000, polling=PAGE_POLL_MS)
        # The shot has rolled once no draw came for 300 ms (the old loop never stopped: this timed out).
        page.wait_for_function(
            """() => { const seen = window.__drawsSeen || (window.__drawsSeen = { n: -1, at: 0 });
                const now = performance.now();
                if (window.__tableDraws !== seen.n) { seen.n = window.__tableDraws; seen.at = now; return false; }
                return now - seen.at > 300; }""",
            timeout=10_000,
            polling=PAGE_POLL_MS,
        )
        rested = page.evaluate("window.__tableDraws")
        page.wait_for_timeout(500)
        assert page.evaluate("window.__tableDraws") == rested, "the replay keeps drawing after the shot"

        with page.expect_download() as download_info:
            page.click("[data-download]")
        record = json.loads(Path(download_info.value.path()).read_text())
        assert record["final_snapshot"] == final and len(record["inputs"]) == count

        # The other pages, as a logged-in club owner.
        page.goto(f"{server.url}/accounts/login/")
        page.fill("#id_login", "aino")
        page.fill("#id_password", DEMO_PASSWORD)
        page.locator("main form button[type=submit], main form input[type=submit]").first.click()
        page.wait_for_load_state()
        for name, path in [
            ("leaderboard", "/leaderboard/"),
            ("player", "/players/Aino/"),
            ("clubs", "/clubs/"),
            ("club", f"/clubs/{ids['club']}/"),
            ("club-new", "/clubs/new/"),
        ]:
            response = page.goto(f"{server.url}{path}")
            assert response is not None and response.status == 200, path
            shoot(page, artifacts_dir, name)
        expect(page.locator("main")).to_contain_text("Create a club")
        page.goto(f"{server.url}/clubs/{ids['club']}/")
        expect(page.locator("main")).to_contain_text("Requests to join")
        page.set_viewport_size({"width": 390, "height": 844})
        mobile = [("club-mobile", f"/clubs/{ids['club']}/"), ("replay-mobile", f"/m/{ids['finished']}/replay/")]
        for name, path in mobile:
            page.goto(f"{server.url}{path}")
            shoot(page, artifacts_dir, name)
        assert not errors, errors
    finally:
        context.close()
