"""The engine's analysis of a finished match, end to end in Chromium against a real daphne:
a signed-in player presses "Analyse" on the end card and sees the progress move shot by shot on the card
itself (the match socket's `analysis` messages), then the card's link to the replay, which shows the
analysis; "Show the engine's shot" draws the engine's best shot on the table and plays it, and the
match graph is there on a phone.

The analysis runs for real in the server's engine pool, with few samples and a small search
(KAIZA_ANALYSIS_SAMPLES / KAIZA_ANALYSIS_SIMULATIONS in the server's environment) so the test is quick
yet each shot takes long enough for its progress to be seen. Screenshots: test-artifacts/analysis-*.jpg.
"""

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

pytestmark = pytest.mark.browser

#: Every text a progress line shows (the end card's, the replay page's), kept in sessionStorage, so
#: the texts seen outlive a page's load.
PROGRESS_RECORDER = """(() => {
  const LINES = '.kz-end-analysis-line, [data-analysis-progress]';
  const note = (el) => {
    const seen = JSON.parse(sessionStorage.getItem('kzProgress') || '[]');
    const t = el.textContent.trim();
    if (t && seen.at(-1) !== t) { seen.push(t); sessionStorage.setItem('kzProgress', JSON.stringify(seen)); }
  };
  document.addEventListener('DOMContentLoaded', () => {
    for (const el of document.querySelectorAll(LINES)) {
      note(el);
      new MutationObserver(() => note(el)).observe(el, { childList: true, characterData: true, subtree: true });
    }
  });
})();"""


def _print(page: Any) -> bytes:
    """A coarse sample of the replay canvas's pixels (to see that the drawing changed)."""
    return pages.canvas_sample(page, "[data-replay] [data-canvas]", 53)


def _differing(a: bytes, b: bytes) -> int:
    return sum(1 for x, y in zip(a, b, strict=True) if abs(x - y) > 24)


@pytest.mark.slow(14)
def test_replay_shows_the_analysis(
    chromium: Any, daphne_factory: Callable[..., DaphneServer], artifacts_dir: Path
) -> None:
    server = daphne_factory(KAIZA_ANALYSIS_SAMPLES="3", KAIZA_ANALYSIS_SIMULATIONS="40")
    made = pages.django_run(
        server.env,
        "from tests.support.community_factories import DEMO_PASSWORD, make_player, play_engine_match\n"
        "from game.models import Shot\n"
        "aino, eero = make_player('Aino'), make_player('Eero')\n"
        "aino.set_password(DEMO_PASSWORD)\n"
        "aino.save(update_fields=['password'])\n"
        "match = play_engine_match(aino, eero, inputs=10, seed=5)\n"
        "result = {'id': str(match.pk), 'shots': Shot.objects.filter(match=match, kind='shoot').count()}",
    )
    match_id, shots = made["id"], int(made["shots"])
    assert shots >= 3, made

    context = chromium.new_context(viewport=pages.DESKTOP)
    context.add_init_script(PROGRESS_RECORDER)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server.url}/accounts/login/")
    page.fill("#id_login", "aino")
    page.fill("#id_password", DEMO_PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url("**/lobby/")

    # The finished match's end card offers "Analyse"; pressing it opens the replay with the progress.
    page.goto(f"{server.url}/m/{match_id}/")
    analyse = page.locator(".kz-end-card .kz-analyse")
    analyse.wait_for(state="visible", timeout=30000)
    page.screenshot(path=str(artifacts_dir / "analysis-end-card.jpg"))
    analyse.click()
    # The card itself shows the progress, shot by shot, then the link to the replay's analysis.
    card = page.locator(".kz-end-card")
    page.wait_for_selector('.kz-end-card[data-analysis-status="done"]', timeout=90000)
    assert page.url.rstrip("/").endswith(f"/m/{match_id}"), page.url  # the card, not another page
    link = card.locator(".kz-end-analysis-link")
    assert link.is_visible() and pages.visible_text(page, ".kz-end-analysis-line") == "Analysis done."
    assert not card.locator(".kz-analyse").is_visible()  # asked once: the button has done its work
    seen = json.loads(page.evaluate("() => sessionStorage.getItem('kzProgress') || '[]'"))
    page.screenshot(path=str(artifacts_dir / "analysis-end-card-done.jpg"))
    link.click()
    page.wait_for_url(f"**/m/{match_id}/replay/**")
    page.wait_for_selector('[data-analysis][data-status="done"]', timeout=10000)
    running = [t for t in seen if t.startswith("Analysing: shot ")]
    assert running, seen
    counted = [int(t.removeprefix("Analysing: shot ").split(" of ")[0]) for t in running]
    assert all(t.endswith(f" of {shots}") for t in running), seen
    assert counted == sorted(counted) and counted[-1] > counted[0], seen  # the progress moved
    for name in ("Aino", "Eero"):
        assert page.locator(f'[data-analysis-player="{name}"]').is_visible()
    assert page.locator("[data-shot-analysis]").count() == shots

    # The engine's shot, drawn on the table at that shot's position, then played.
    root = page.locator("[data-replay]")
    button = page.locator("[data-engine-shot]").nth(1)
    step = int(button.get_attribute("data-engine-shot") or 0)
    page.locator("[data-action=last]").click()
    before = _print(page)
    button.click()
    page.wait_for_function(
        "(n) => document.querySelector('[data-replay]').dataset.engineDrawn === String(n)",
        arg=step,
        timeout=10000,
        polling=PAGE_POLL_MS,
    )
    assert root.get_attribute("data-index") == str(step - 1)
    assert root.get_attribute("data-engine-state") == "shown"
    drawn = _print(page)
    assert _differing(before, drawn) > 20
    assert "The engine's shot: " in pages.visible_text(page, "[data-engine-words]")
    page.locator("[data-replay] .replay-stage").screenshot(path=str(artifacts_dir / "analysis-engine-shot.jpg"))
    page.select_option("[data-speed]", "4")  # the motion at 4x: the same segments, a shorter wait
    page.locator("[data-engine-play]").click()
    page.wait_for_function(
        "() => document.querySelector('[data-replay]').dataset.engineState !== 'shown'",
        timeout=5000,
        polling=PAGE_POLL_MS,
    )
    page.wait_for_function(
        "() => document.querySelector('[data-replay]').dataset.engineState === 'played'",
        timeout=30000,
        polling=PAGE_POLL_MS,
    )
    played = _print(page)
    assert _differing(drawn, played) > 5  # the balls moved (and the call's drawing is gone)
    page.locator("[data-action=next]").click()  # any step leaves the engine's shot
    page.wait_for_function(
        "() => !document.querySelector('[data-replay]').dataset.engineShot", timeout=5000, polling=PAGE_POLL_MS
    )
    assert errors == [], errors

    # The graph, on a phone: every player's score and expected points, inside the screen's width.
    phone = pages.new_page(chromium, pages.PHONE_PORTRAIT)
    phone.goto(f"{server.url}/m/{match_id}/replay/")
    graph = phone.locator("[data-analysis-graph] svg")
    graph.scroll_into_view_if_needed()
    graph.wait_for(state="visible", timeout=10000)
    box = graph.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= pages.PHONE_PORTRAIT["width"], box
    assert box["y"] >= 0 and box["y"] + box["height"] <= pages.PHONE_PORTRAIT["height"], box
    assert box["width"] >= 250 and box["height"] >= 100, box
    assert phone.locator("[data-analysis-graph] polyline").count() == 4
    phone.locator("[data-analysis-graph]").screenshot(path=str(artifacts_dir / "analysis-graph-phone.jpg"))
    assert phone.errors == [], phone.errors
    pages.assert_clean_log(server)
