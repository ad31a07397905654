"""Helpers for the match-lifecycle page tests: open pages as two guests and a spectator, set up a match
through the lobby, read what a person sees (visible text, screenshot regions), and check the server log.
"""

from __future__ import annotations

import base64
import re
import time
from pathlib import Path
from typing import Any

from tests.e2e import driver
from tests.support import django_shell
from tests.support.daphne import DaphneServer
from tests.support.services import PAGE_POLL_MS

DESKTOP = {"width": 1400, "height": 860}
PHONE_PORTRAIT = {"width": 390, "height": 844}

#: Counts the distinct colours in a screenshot region (a blank or flat region has a handful).
REGION_COLOURS = """async (b64) => {
  const img = new Image();
  img.src = 'data:image/png;base64,' + b64;
  await img.decode();
  const c = document.createElement('canvas');
  c.width = img.width; c.height = img.height;
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const d = ctx.getImageData(0, 0, c.width, c.height).data;
  const seen = new Set();
  for (let i = 0; i < d.length; i += 4) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
  return seen.size;
}"""


#: Every `step`-th pixel's red, green and blue of a canvas, as base64 (`canvas_sample`).
CANVAS_SAMPLE = """([selector, step]) => {
  const c = document.querySelector(selector);
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  const out = new Uint8Array(3 * Math.ceil(d.length / (4 * step)));
  let n = 0;
  for (let i = 0; i < d.length; i += 4 * step) { out[n++] = d[i]; out[n++] = d[i + 1]; out[n++] = d[i + 2]; }
  let text = '';
  for (let i = 0; i < n; i += 8192) text += String.fromCharCode(...out.subarray(i, Math.min(n, i + 8192)));
  return btoa(text);
}"""


def canvas_sample(page: Any, selector: str, step: int) -> bytes:
    """A coarse sample of a canvas's pixels (every `step`-th pixel's red, green, blue) to see whether the
    drawing changed. It crosses Playwright's protocol as one string: as a list of numbers (tens of
    thousands on a phone's canvas) Playwright's Python side checked each number, 2 CPU-s of a replay test."""
    return base64.b64decode(page.evaluate(CANVAS_SAMPLE, [selector, step]))


def new_page(chromium: Any, viewport: dict[str, int] | None = None, scale: float = 1) -> Any:
    """A page in a context of its own. Phone-sized pages are drawn at scale 1 unless a test is about the
    drawing at a phone's density (tests/e2e/test_phone_layouts.py at 3, test_aim_line.py and
    test_match_page.py at 2): at 2 a page rasters and composites four times the pixels, and the match
    tests' phone pages made about a tenth of their CPU-seconds so."""
    context = chromium.new_context(viewport=viewport or DESKTOP, device_scale_factor=scale)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def django_run(env: dict[str, str], code: str, *, factories: bool = False) -> Any:
    """Runs `code` (which sets `result`) with Django on the server's database, `factories` with
    tests.support.community_factories imported first; returns result (tests.support.django_shell: one
    process per server environment, not one per snippet)."""
    return django_shell.django_run(env, code, factories=factories)


def create_match(page: Any, base_url: str, *, time_limit_min: int | None = None, shot_clock: int | None = None) -> str:
    """The creator makes a match in the lobby form; returns the match page URL."""
    page.goto(f"{base_url}/lobby/")
    if time_limit_min is not None:
        page.fill("#id_time_limit", str(time_limit_min))
    if shot_clock is not None:
        page.fill("#id_shot_clock", str(shot_clock))
    page.click("#lobby-create-form button[type=submit]")
    page.wait_for_url("**/m/*/")
    page.wait_for_selector("#kaiza-match[data-version], #kaiza-match[data-phase]")
    return str(page.url)


def match_id_of(url: str) -> str:
    return url.rstrip("/").split("/")[-1]


def set_ruleset(server: DaphneServer, match_id: str, ruleset: dict[str, Any]) -> None:
    """Test rules on the open match (a lowered target, fewer shoot-out visits): `_start` reads them."""
    django_run(
        server.env,
        "from game.models import Match\n"
        f"m = Match.objects.get(pk={match_id!r})\n"
        f"m.ruleset = {ruleset!r}\n"
        "m.save(update_fields=['ruleset'])\n"
        "result = True",
    )


def join(page: Any, url: str) -> None:
    page.goto(url)
    page.click(".kz-join")
    page.wait_for_url(url)
    page.wait_for_selector("#kaiza-match[data-version]")


def watch(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#kaiza-match[data-phase]")


def two_players_and_a_spectator(
    chromium: Any,
    server: DaphneServer,
    *,
    time_limit_min: int | None = None,
    shot_clock: int | None = None,
    ruleset: dict[str, Any] | None = None,
    creator_url: str | None = None,
    spectator_viewport: dict[str, int] | None = None,
) -> tuple[dict[str, Any], Any, str]:
    """A started match: {name: page} of the two seated guests, the spectator's page, the match URL."""
    alice = new_page(chromium)
    url = create_match(alice, creator_url or server.url, time_limit_min=time_limit_min, shot_clock=shot_clock)
    if ruleset:
        set_ruleset(server, match_id_of(url), ruleset)
    bob = new_page(chromium, {"width": 844, "height": 390})
    join(bob, url.replace(creator_url or server.url, server.url))
    carol = new_page(chromium, spectator_viewport or PHONE_PORTRAIT)
    watch(carol, url.replace(creator_url or server.url, server.url))
    for page in (alice, bob, carol):
        page.wait_for_function(
            "() => document.querySelector('#kaiza-match').dataset.phase === 'lag'", timeout=60000, polling=PAGE_POLL_MS
        )
    players = {driver.root_data(p)["me"]: p for p in (alice, bob)}
    assert len(players) == 2, players
    return players, carol, url


def clock_seconds(page: Any, selector: str) -> int:
    """The seconds a clock on the page shows ("Match 19:58", "0:07"): its last m:ss."""
    text = visible_text(page, selector)
    found = re.findall(r"(\d+):(\d\d)", text)
    assert found, f"no m:ss in {selector}: {text!r}"
    minutes, seconds = found[-1]
    return int(minutes) * 60 + int(seconds)


def visible_text(page: Any, selector: str) -> str:
    """What a person reads in the element: its inner text, and only if it is visible."""
    loc = page.locator(selector)
    if not loc.count() or not loc.first.is_visible():
        return ""
    return str(loc.first.inner_text())


def region_colours(page: Any, selector: str, path: Path | None = None) -> int:
    """Screenshot of the element (saved to `path`); the number of distinct colours in it."""
    import base64

    shot = page.locator(selector).first.screenshot(path=str(path) if path else None)
    return int(page.evaluate(REGION_COLOURS, base64.b64encode(shot).decode()))


def open_sheet(page: Any) -> bool:
    """On a phone, a player taps "More" to reach the shots, replay, sound and chat (the sheet);
    elsewhere they are in view already. True when the sheet was opened."""
    more = page.locator(".kz-more")
    if not more.count() or not more.first.is_visible():
        return False
    if page.locator("#kaiza-match").get_attribute("data-sheet") != "open":
        more.first.click()
        page.wait_for_selector("#kaiza-match[data-sheet='open']")
    return True


def close_sheet(page: Any) -> None:
    """Taps "More" again to go back to the table (nothing when no sheet is open)."""
    if page.locator("#kaiza-match").get_attribute("data-sheet") == "open":
        page.locator(".kz-more").first.click()
        page.wait_for_selector("#kaiza-match[data-sheet='closed']")


CUT_OFF_JS = """(root) => {
  const width = document.documentElement.clientWidth;
  const cut = [];
  const reported = [];
  for (const el of root.querySelectorAll("*")) {
    if (reported.some((r) => r.contains(el))) continue; // its container is reported already
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || getComputedStyle(el).visibility === "hidden") continue;
    if (box.width <= 1 && box.height <= 1) continue; // visually hidden, for screen readers only
    if (el.matches("input, textarea") && box.right <= width + 1 && box.left >= -1) continue; // its text scrolls in it
    const name = `${el.tagName.toLowerCase()}: ${(el.innerText || "").trim().slice(0, 40)}`;
    let why = null;
    const sideways = el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "visible";
    if (box.right > width + 1 || box.left < -1) why = `reaches ${Math.round(box.left)}..${Math.round(box.right)}`;
    else if (sideways) why = "scrolls sideways";
    if (why) {
      cut.push(`${name} ${why}`);
      reported.push(el);
    }
  }
  return cut;
}"""


def cut_off(page: Any, selector: str) -> list[str]:
    """What a person cannot read without scrolling sideways inside `selector`: elements reaching past
    the viewport's edges, and boxes whose content is wider than they are (cut or scrolled)."""
    return list(page.eval_on_selector(selector, CUT_OFF_JS))


def names_shown(page: Any) -> list[tuple[str, int]]:
    """The players' names on the scoreboard, each with how many pixels of it are cut off (0 or less: whole)."""
    shown = page.eval_on_selector_all(".kz-name", "els => els.map((e) => [e.innerText, e.scrollWidth - e.clientWidth])")
    return [(str(name), int(over)) for name, over in shown]


def broken_across_lines(page: Any, selector: str) -> list[str]:
    """The visible texts of `selector` that the page wraps onto two lines or more ("K-" at a line's end,
    "7.1" at the next one's start): a short token a person should read in one piece."""
    broken = page.eval_on_selector_all(
        selector, "els => els.filter((e) => e.getClientRects().length > 1).map((e) => e.innerText)"
    )
    return [str(text) for text in broken]


def shot_list(page: Any) -> list[str]:
    """The shot list's rows as a person reads them: the words, whatever the layout's line breaks (a phone
    lays a row's rule ids out as finger-sized targets, each on a line of its own when the row wraps)."""
    return [" ".join(str(t).split()) for t in page.locator(".kz-shots li").all_inner_texts()]


def wait_text(page: Any, selector: str, needle: str, timeout: float = 30.0) -> str:
    """Waits until the visible text of `selector` contains `needle`; returns the text."""
    deadline = time.monotonic() + timeout
    text = ""
    while time.monotonic() < deadline:
        text = visible_text(page, selector)
        if needle.lower() in text.lower():
            return text
        time.sleep(0.1)
    raise AssertionError(f"{selector!r} never showed {needle!r}; last: {text!r}")


def assert_clean_log(server: DaphneServer) -> None:
    if server.log_path and server.log_path.exists():
        log = server.log_path.read_text(errors="replace")
        assert "Traceback" not in log, log[-4000:]


WATCH_LOST = """() => {
  const root = document.querySelector('#kaiza-match');
  window.__kzLostAt = null;
  const seen = () => {
    if (root.dataset.lost === 'yes' && window.__kzLostAt === null) window.__kzLostAt = performance.now();
  };
  new MutationObserver(seen).observe(root, { attributes: true, attributeFilter: ['data-lost'] });
  return performance.now();
}"""


def watch_for_lost(page: Any) -> float:
    """Starts noting (in the page's own clock) when the connection-lost overlay appears; returns now."""
    return float(page.evaluate(WATCH_LOST))


def lost_after(page: Any, since: float) -> float:
    """Seconds from `since` (the page's clock) until the overlay appeared."""
    at = page.evaluate("() => window.__kzLostAt")
    assert at is not None, "the overlay never appeared"
    return (float(at) - since) / 1000


RECORD_TEXTS = """(selectors) => {
  window.__kzTexts = window.__kzTexts || [];
  const note = () => {
    for (const sel of selectors) {
      const el = document.querySelector(sel);
      if (el && el.offsetParent !== null && !el.hidden) {
        const t = el.innerText.trim();
        if (t && window.__kzTexts.at(-1) !== t) window.__kzTexts.push(t);
      }
    }
  };
  note();
  const root = document.querySelector('#kaiza-match');
  new MutationObserver(note).observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
}"""


def record_texts(page: Any, selectors: list[str]) -> None:
    """From now on, note every text the elements show while visible (for moments too short to poll)."""
    page.evaluate(RECORD_TEXTS, selectors)


def recorded_texts(page: Any) -> list[str]:
    return [str(t) for t in page.evaluate("() => window.__kzTexts || []")]
