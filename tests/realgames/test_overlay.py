"""The stream overlay (an OBS browser source) in a real Chromium against a real daphne: its page is
transparent everywhere but on its boards (the screenshot's alpha is 0 outside them: the stream's
picture shows through untouched), its words are big enough to read on a 1280x720 stream (and the same
layout at 1920x1080), one table's overlay and an event's several tables in one layout, each following
its table's scorer without a reload. Screenshots: test-artifacts/overlay-*.png (docs/img/overlay.png
is one of them).
"""

from __future__ import annotations

import base64
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

#: The boards' boxes (CSS pixels) and the rendered size of what a viewer reads on each.
BOARDS = """() => [...document.querySelectorAll('[data-real-game]')].map((board) => {
  const r = board.getBoundingClientRect();
  const size = (s) => { const e = board.querySelector(s); return e ? parseFloat(getComputedStyle(e).fontSize) : 0; };
  const text = (s) => board.querySelector(s)?.textContent.trim() ?? '';
  return {
    box: [r.left, r.top, r.right, r.bottom], id: Number(board.dataset.realGame),
    name: size('[data-rg-name]'), score: size('[data-rg-score]'), clock: size('[data-rg-clock]'),
    round: size('[data-rg-round]'), run: size('[data-rg-run]'),
    names: [text('[data-rg-name="0"]'), text('[data-rg-name="1"]')],
    scores: [text('[data-rg-score="0"]'), text('[data-rg-score="1"]')],
    clockText: text('[data-rg-clock]'), roundText: text('[data-rg-round]'), version: Number(board.dataset.version),
  };
})"""

#: Of a transparent PNG (base64) and the boards' boxes in its pixels: the pixels drawn (alpha > 0)
#: outside every box, and the share of the boxes' pixels drawn.
ALPHA = """async ([b64, boxes]) => {
  const img = new Image();
  img.src = 'data:image/png;base64,' + b64;
  await img.decode();
  const c = document.createElement('canvas');
  c.width = img.width; c.height = img.height;
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const d = ctx.getImageData(0, 0, c.width, c.height).data;
  let outside = 0, inside = 0, insideDrawn = 0;
  for (let y = 0; y < c.height; y++) for (let x = 0; x < c.width; x++) {
    const a = d[4 * (y * c.width + x) + 3];
    const inBox = boxes.some(([l, t, r, b]) =>
      x >= Math.floor(l) && x < Math.ceil(r) && y >= Math.floor(t) && y < Math.ceil(b));
    if (inBox) { inside++; if (a > 0) insideDrawn++; } else if (a > 0) outside++;
  }
  return {outside, inside, drawn: inside ? insideDrawn / inside : 0, width: c.width, height: c.height};
}"""


def alpha_outside(page: Any, path: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A screenshot without the page's background (as OBS composes it) and its alpha, read in the browser."""
    boards = page.evaluate(BOARDS)
    shot = page.screenshot(path=str(path), omit_background=True)
    reader = page.context.new_page()
    try:
        alpha = reader.evaluate(ALPHA, [base64.b64encode(shot).decode(), [b["box"] for b in boards]])
    finally:
        reader.close()
    return boards, alpha


def open_overlay(chromium: Any, url: str, width: int, height: int) -> Any:
    page = pages.new_page(chromium, {"width": width, "height": height})
    page.goto(url)
    page.wait_for_function("() => document.body.dataset.connection === 'live'", polling=PAGE_POLL_MS)
    return page


def on_a_stream(chromium: Any, url: str, artifacts: Path) -> None:
    """The overlay as a stream shows it, over a picture of the cloth (the docs' screenshot,
    docs/img/overlay.png): the picture painted under the page only for this shot."""
    context = chromium.new_context(viewport={"width": 1280, "height": 720}, bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_function("() => document.body.dataset.connection === 'live'", polling=PAGE_POLL_MS)
        page.add_style_tag(content=STREAM_PICTURE)
        page.screenshot(path=str(artifacts / "overlay-on-a-stream-720.png"))
    finally:
        context.close()


#: A stand-in for the camera's picture: a table's cloth under a lamp.
STREAM_PICTURE = """html { background: radial-gradient(ellipse at 50% 35%, #3f8f5c 0%, #23613b 45%, #0d2416 100%); }
html::before { content: ""; position: fixed; inset: 9% 12% 22%; border: 2.2vh solid #5a3a22; border-radius: 1vh; }"""


def assert_readable(boards: list[dict[str, Any]], height: int) -> None:
    """At 720 lines the names are at least 20 px tall, the scores 28 px, the clock, the round and the
    run 15 px (a 1080 stream scales them by its height: the same share of the frame)."""
    scale = height / 720
    for board in boards:
        assert board["name"] >= 20 * scale and board["score"] >= 28 * scale, board
        assert min(board["clock"], board["round"], board["run"]) >= 15 * scale, board


def test_overlay_is_transparent_and_readable(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    server = daphne_factory()
    made = club_event_on_tables(server, tag="obs", language="fi", table_word="Pöytä")
    scorers = [Scorer(server, token) for token in made["tokens"]]
    try:
        scorers[0].tap({"kind": "pot", "ball": "red", "pocket": "foot_left"})
        scorers[1].tap({"kind": "pot", "ball": "white", "pocket": "home_left"})
        table = open_overlay(chromium, f"{server.url}/clubs/{made['club']}/tables/1/overlay/", 1280, 720)
        event = open_overlay(chromium, f"{server.url}/tournaments/{made['tournament']}/overlay/", 1280, 720)
        big = open_overlay(chromium, f"{server.url}/tournaments/{made['tournament']}/overlay/?tables=1,2", 1920, 1080)
        backgrounds = "() => [document.documentElement, document.body].map((e) => getComputedStyle(e).backgroundColor)"
        assert table.evaluate(backgrounds) == ["rgba(0, 0, 0, 0)"] * 2

        # One table: one board, the stream's picture untouched around it.
        boards, alpha = alpha_outside(table, artifacts_dir / "overlay-table-720.png")
        assert [b["id"] for b in boards] == [made["games"][0]] and (alpha["width"], alpha["height"]) == (1280, 720)
        assert alpha["outside"] == 0 and alpha["drawn"] > 0.97, alpha
        assert boards[0]["names"] == made["players"][0] and boards[0]["roundText"] == "1"
        assert re.fullmatch(r"6[45]:\d\d", boards[0]["clockText"]), boards[0]
        assert_readable(boards, 720)

        # The event: both tables side by side in one layout, each board the same sizes.
        for page, height, name in ((event, 720, "overlay-event-720.png"), (big, 1080, "overlay-event-1080.png")):
            boards, alpha = alpha_outside(page, artifacts_dir / name)
            assert sorted(b["id"] for b in boards) == sorted(made["games"]) and alpha["outside"] == 0, alpha
            assert alpha["drawn"] > 0.97 and alpha["inside"] < 0.25 * alpha["width"] * alpha["height"], alpha
            assert_readable(boards, height)
            left, right = sorted(boards, key=lambda b: b["box"][0])
            assert left["box"][2] <= right["box"][0] and abs(left["box"][1] - right["box"][1]) < 1  # one row

        # A tap at table 2 reaches its boards at once: the event's overlays, not table 1's.
        before = {b["id"]: b for b in event.evaluate(BOARDS)}[made["games"][1]]
        ack = scorers[1].tap({"kind": "pot", "ball": "kaisa", "pocket": "foot_right"})
        for page in (event, big):
            page.wait_for_function(
                '([id, v]) => Number(document.querySelector(`[data-real-game="${id}"]`).dataset.version) >= v',
                arg=[made["games"][1], ack["version"]],
                polling=PAGE_POLL_MS,
            )
        after = {b["id"]: b for b in event.evaluate(BOARDS)}[made["games"][1]]
        assert int(after["scores"][0]) == int(before["scores"][0]) + ack["verdict"]["points"]
        assert table.evaluate(BOARDS)[0]["id"] == made["games"][0]
        on_a_stream(chromium, f"{server.url}/tournaments/{made['tournament']}/overlay/", artifacts_dir)
    finally:
        for scorer in scorers:
            scorer.close()
    for page in (table, event, big):
        assert page.errors == [], page.errors
    pages.assert_clean_log(server)
