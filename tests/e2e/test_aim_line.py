"""The aim as a player meets it in a real Chromium: the practice table's line at the report's angles, a
phone's words and its fine-tuning drag, and the ball in hand's ghost with the line from it.

The line's physics is tests/engine/test_aim_preview.py's (node against the engine); here the page draws
what it computes (the canvas's `data-aim-line`: "<ball> <end> <where>") and says it in the device's
words. Screenshots: test-artifacts/aim-*.png.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import driver, steered
from tests.e2e.harness import EngineMatch, open_page, wait_idle
from tests.support.daphne import DaphneServer
from tests.support.services import PAGE_POLL_MS

pytestmark = pytest.mark.browser

PRACTICE = "/practice/?p=AjoT8g4K-OQSdpASdpAoIXASdpAdTAASdpA"
PHONE = {"width": 390, "height": 844}
#: Where the first seat's white lies for the lag (K-3.1; state.js lagStart): half the home line's x, W/4.
LAG_START = (round(driver.TABLE.home_line_x / 2, 6), round(driver.W / 4, 6))
KEYS_AND_CLICKS = ("Space", "click", "Click", "keys", "Shift")


def _aim_line(page: Any) -> str:
    steered.settle(page)
    return str(page.evaluate("() => document.querySelector('.kz-canvas').dataset.aimLine"))


@pytest.mark.slow(20)
def test_practice_line_shows_the_jaw_the_pot_and_the_cushion(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    """The report's position: the red on the rear spot cut into the top right pocket. A ghost ball drew a
    pot at 19.10° and 19.20°; the engine hits the jaw and the cushion there, and pots at 19.13°."""
    server = daphne_factory()
    context = chromium.new_context(viewport={"width": 1280, "height": 860}, device_scale_factor=2)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.url + PRACTICE)
    page.wait_for_function(
        "() => document.querySelector('#kaiza-practice').dataset.state === 'ready'", polling=PAGE_POLL_MS
    )
    for degrees, line in (
        (19.10, "red2 jaw foot_left"),
        (19.13, "red2 pocket foot_left"),
        (19.20, "red2 cushion foot"),
    ):
        steered.refine_aim(page, math.radians(degrees))
        assert _aim_line(page) == line, degrees
        page.screenshot(
            path=str(artifacts_dir / f"aim-practice-{degrees:.2f}.png"),
            clip={"x": 560, "y": 250, "width": 380, "height": 300},
        )
    # The call follows the line: the red into the top right pocket, the page's own words.
    assert page.inner_text(".kz-call-text") == "red → top right"
    assert errors == []
    context.close()


def _touch_drag(page: Any, points: list[tuple[float, float]], during: Callable[[], None] | None = None) -> None:
    """A finger pressed at points[0], moved through the rest and lifted (Chromium's touch events: the page
    gets pointer events of type "touch"); `during` runs before the finger lifts."""
    cdp = page.context.new_cdp_session(page)
    x, y = points[0]
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for x, y in points[1:]:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    if during:
        during()
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_phone_says_tap_and_that_a_far_drag_fine_tunes(chromium: Any, artifacts_dir: Path) -> None:
    match = EngineMatch()
    page = open_page(chromium, match, "alice", "player", viewport=PHONE, device_scale_factor=2, touch=True)
    driver.wait_ready(page)
    # The lag's hint, in a phone's words: near to turn, far to fine-tune; no keys, no clicks.
    hint = page.inner_text(".kz-hint")
    assert "Drag near the ball to turn, far from it to fine-tune; hold the white and pull back." in hint, hint
    assert not any(word in hint for word in KEYS_AND_CLICKS), hint
    cue = LAG_START
    angle = steered.shown_angle(page)

    # A drag that starts far from the ball turns the cue a little and says so while it lasts.
    far = (cue[0] + 1.2, cue[1])
    said: list[str] = []

    def read_pill() -> None:
        steered.settle(page)
        pill = page.locator(".kz-pullmeter")
        said.append(pill.inner_text() if pill.is_visible() else "")
        page.screenshot(path=str(artifacts_dir / "aim-phone-fine.png"))

    start = driver.to_page(page, *far)
    _touch_drag(page, [start, *[(start[0] + 6 * i, start[1]) for i in range(1, 6)]], during=read_pill)
    assert said == ["Fine-tuning the aim · drag near the ball to turn it"], said
    turned = math.degrees(abs(math.remainder(steered.shown_angle(page) - angle, math.tau)))
    assert 0.001 < turned < 0.5, turned
    assert page.locator(".kz-pullmeter").is_hidden()

    # Near the ball the cue points at the finger.
    near = (cue[0] + 0.3 * math.cos(1.0), cue[1] + 0.3 * math.sin(1.0))
    _touch_drag(page, [driver.to_page(page, cue[0] + 0.3, cue[1]), driver.to_page(page, *near)])
    assert abs(math.remainder(steered.shown_angle(page) - 1.0, math.tau)) < 0.01
    assert driver.actions(page) == ["lag"] and match.events == [], "no drag shot"
    page.screenshot(path=str(artifacts_dir / "aim-phone-lag.png"))


def test_ball_in_hand_shows_a_ghost_and_the_line_from_it(chromium: Any, artifacts_dir: Path) -> None:
    """The break from hand: the white follows the pointer in the home as a ghost with the aim line from it
    (red beyond the home line, and no line); once placed, the balls the break may not call are hatched
    and, while nothing is called, the hint says why in the server's words."""
    match = EngineMatch()
    page = open_page(chromium, match, "alice", "player", device_scale_factor=1)
    driver.wait_ready(page)
    match.play("alice", "lag", {"strike": {"angle": 0.0, "speed": 2.3, "side": 0.0, "height": 0.0}}, None)
    match.play("bob", "lag", {"strike": {"angle": 0.0, "speed": 3.4, "side": 0.0, "height": 0.0}}, None)
    chooser = match.state()["pending"][0][0]
    match.play(chooser, "choose_break", {"take": chooser == "alice"}, None)
    x, y = driver.free_spot(match.state(), "bob", opening=True)
    match.play("bob", "place", {"ball": "white2", "x": x, "y": y}, None)
    page.wait_for_function(
        "() => (document.querySelector('#kaiza-match').dataset.actions || '') === 'place'", polling=PAGE_POLL_MS
    )
    wait_idle(page)
    assert _aim_line(page) == ""

    spot = (0.45, 0.45)
    page.mouse.move(*driver.to_page(page, *spot))
    line = _aim_line(page)
    assert line, "a ghost in the home draws the line from it"
    page.screenshot(path=str(artifacts_dir / "aim-hand-ghost.png"))
    page.mouse.move(*driver.to_page(page, 1.2, 0.45))
    assert _aim_line(page) == "", "beyond the home line: the ghost is red and draws no line"
    page.screenshot(path=str(artifacts_dir / "aim-hand-ghost-refused.png"))

    page.mouse.click(*driver.to_page(page, *spot))
    page.wait_for_function(
        "() => (document.querySelector('#kaiza-match').dataset.actions || '').includes('shoot')", polling=PAGE_POLL_MS
    )
    wait_idle(page)
    hint = page.locator(".kz-hint")
    assert hint.is_visible()
    text = hint.inner_text()
    assert "Hatched balls may not be called: the opening shot must call the kaisa" in text, text
    page.screenshot(path=str(artifacts_dir / "aim-hand-hatched.png"))
