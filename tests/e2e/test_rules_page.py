"""The rules page in a real Chromium against a real daphne: `/rules/#K-6.2` opens on
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


#: The scoring table as a phone shows it: whether it scrolls sideways inside its box, whether any cell
#: leaves the screen, and each row's cells as read (a value beside its column's heading, CSS's ::before).
PHONE_TABLE = """() => {
  const table = document.querySelector('table.ball-table');
  const out = {scrolls: table.scrollWidth > table.clientWidth + 1, outside: [], rows: []};
  for (const row of table.querySelectorAll('tbody tr')) {
    const cells = [];
    for (const td of row.querySelectorAll('td')) {
      const r = td.getBoundingClientRect();
      if (r.left < -0.5 || r.right > innerWidth + 0.5) out.outside.push(td.textContent);
      const label = getComputedStyle(td, '::before').content;
      const shown = label && label !== 'none' && label !== 'normal' ? td.dataset.label + ': ' : '';
      cells.push(shown + td.textContent.trim());
    }
    out.rows.push(cells);
  }
  return out;
}"""


def assert_table_fits_a_phone(page: Any, server_url: str, path: Path) -> list[list[str]]:
    """On a phone upright (390 px) and on its side (844 px, the rules beside their contents) the scoring
    table fits the screen with nothing to scroll sideways inside it (it did: five columns in a box of
    their own), every value read beside its column's heading; its rows as read upright. Screenshots:
    `path`, and its `-landscape` twin."""
    rows: list[list[str]] = []
    for viewport, shot in (((390, 844), path), ((844, 390), path.with_stem(path.stem + "-landscape"))):
        page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
        page.goto(f"{server_url}/rules/#K-5.3")
        page.wait_for_load_state("networkidle")
        table = page.locator("table.ball-table")
        table.scroll_into_view_if_needed()
        found = page.evaluate(PHONE_TABLE)
        table.screenshot(path=str(shot))
        assert not found["scrolls"] and not found["outside"], (viewport, found)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), viewport
        for row in found["rows"]:
            assert len(row) == 5 and all(": " in cell for cell in row[1:]), (viewport, row)
        rows = rows or list(found["rows"])
    return rows


@pytest.mark.browser
def test_the_rules_page_opens_on_a_rule_and_shows_the_scoring_table(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    server = daphne_factory()
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

        # A phone: the contents above the rules, the table a card per ball, nothing to scroll sideways.
        rows = assert_table_fits_a_phone(page, server.url, artifacts_dir / "rules-phone-scoring-table.png")
        assert rows[2][0] == "The kaisa" and "Called and potted, with caroms: 9 + S" in rows[2][3], rows
        assert page.locator('[id="K-5.3"]').is_visible()
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
