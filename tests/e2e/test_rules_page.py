"""The rules page in a real Chromium against a real daphne (issue 15, point 6): `/rules/#K-6.2` opens on
that rule, shown and marked; the scoring table shows each ball's swatch in its colour and the points; no
Content-Security-Policy violation; the header's link leads there; a replay's verdict links its rule ids to
them. Screenshots: test-artifacts/rules-*.jpg.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import pages
from tests.e2e.test_security_pages import VIOLATIONS
from tests.support.daphne import DaphneServer

#: The colour at the middle of an element's screenshot, as (r, g, b).
CENTRE_COLOUR = """async (b64) => {
  const img = new Image();
  img.src = 'data:image/png;base64,' + b64;
  await img.decode();
  const c = document.createElement('canvas');
  c.width = img.width; c.height = img.height;
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const d = ctx.getImageData(Math.floor(img.width / 2), Math.floor(img.height / 2), 1, 1).data;
  return [d[0], d[1], d[2]];
}"""


def centre_colour(page: Any, locator: Any) -> tuple[int, int, int]:
    import base64

    png = locator.screenshot()
    r, g, b = page.evaluate(CENTRE_COLOUR, base64.b64encode(png).decode())
    return int(r), int(g), int(b)


@pytest.mark.browser
def test_the_rules_page_opens_on_a_rule_and_shows_the_scoring_table(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    server = daphne_factory(DEBUG="false")
    context = chromium.new_context(viewport={"width": 1280, "height": 860})
    context.add_init_script(VIOLATIONS)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))

        # The home page's rules in brief lead to the full rules; so does the header of any page.
        page.goto(f"{server.url}/")
        more = page.locator(".home-rules a", has_text="Read the full rules")
        assert more.is_visible()
        page.locator(".home-rules").screenshot(path=str(artifacts_dir / "rules-home-brief.jpg"))
        page.locator(".site-nav a", has_text="Rules").click()
        page.wait_for_url(f"{server.url}/rules/")
        assert page.locator("main h1").inner_text() == "The rules of Kaisa as Kaiza plays them"
        contents = page.locator("nav.rules-contents").inner_text()
        assert "4. Scoring" in contents and "(K-5)" not in contents
        page.screenshot(path=str(artifacts_dir / "rules-top.jpg"))

        # An address with a rule id opens on that rule: in view, marked, its words visible.
        page.goto(f"{server.url}/rules/#K-6.2")
        page.wait_for_load_state("networkidle")
        rule = page.locator('[id="K-6.2"]')
        assert rule.is_visible()
        assert rule.inner_text().startswith("K-6.2 These shots score nothing and end the visit")
        box = rule.bounding_box()
        assert box is not None and 0 <= box["y"] < 860 / 2, box  # scrolled to, near the top
        marked = rule.evaluate("(el) => getComputedStyle(el).borderLeftColor")
        other = page.locator('[id="K-6.3"]').evaluate("(el) => getComputedStyle(el).borderLeftColor")
        assert marked != other, (marked, other)
        page.screenshot(path=str(artifacts_dir / "rules-K-6.2.jpg"))

        # The scoring table: rows with a swatch in the ball's colour and the points, as a person reads them.
        table = page.locator("table.ball-table")
        table.scroll_into_view_if_needed()
        text = table.inner_text()
        for words in ("The opponent's white", "A red", "The kaisa", "1 + S", "3 + S", "9 + S", "−6"):
            assert words in text, text
        swatches = {kind: page.locator(f"table.ball-table .ball-swatch-{kind}") for kind in ("white", "red", "kaisa")}
        colours = {}
        for kind, swatch in swatches.items():
            box = swatch.bounding_box()
            assert box is not None and box["width"] >= 12 and box["height"] >= 12, (kind, box)
            colours[kind] = centre_colour(page, swatch)
        r, g, b = colours["red"]
        assert r > 150 and g < 110 and b < 110, colours
        r, g, b = colours["kaisa"]
        assert r > 180 and g > 130 and b < 90, colours
        r, g, b = colours["white"]
        assert min(r, g, b) > 200, colours
        table.screenshot(path=str(artifacts_dir / "rules-scoring-table.jpg"))

        # A phone: the contents above the rules, the table still readable (scrolls on its own).
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"{server.url}/rules/#K-5.3")
        page.wait_for_load_state("networkidle")
        assert page.locator('[id="K-5.3"]').is_visible()
        # Nothing runs off the side of the screen (the table scrolls inside its own box).
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        page.screenshot(path=str(artifacts_dir / "rules-phone.jpg"))

        assert page.evaluate("window.__csp") == []

        # A replay's shot list: a verdict's rule id is a link that opens the rules on that rule.
        page.set_viewport_size({"width": 1280, "height": 860})
        match_id = pages.django_run(
            server.env,
            "result = play_engine_match(make_player('Alice'), make_player('Bob'), inputs=10).pk",
            factories=True,
        )
        page.goto(f"{server.url}/m/{match_id}/replay/")
        link = page.locator(".shot-list .shot-rules a.rule-link").first
        assert link.is_visible()
        rule_id = link.inner_text()
        assert rule_id.startswith("K-")
        page.locator(".replay-log").screenshot(path=str(artifacts_dir / "rules-replay-links.jpg"))
        link.click()
        page.wait_for_url(f"{server.url}/rules/#{rule_id}")
        assert page.locator(f'[id="{rule_id}"]').inner_text().startswith(rule_id)
        assert page.evaluate("window.__csp") == []
        assert errors == []
    finally:
        context.close()
