"""Fine aim on the match page, with the match played by the engine in-process
(harness.py): Shift with the arrow keys or while dragging turns the cue 0.1 mrad a step, the readout
shows the angle to 0.01°, and the strike sent keeps the full precision."""

from __future__ import annotations

import math
from typing import Any

import pytest

from tests.e2e import driver, steered
from tests.e2e.harness import EngineMatch, open_page

pytestmark = pytest.mark.browser


def _angle(page: Any) -> float:
    steered.settle(page)
    return float(page.inner_text(".kz-angle").rstrip("°"))


def test_fine_aim_keys_and_drag(chromium: Any) -> None:
    match = EngineMatch()
    page = open_page(chromium, match, "alice", "player")
    driver.wait_ready(page)
    assert driver.actions(page) == ["lag"]
    assert page.inner_text(".kz-angle") == "0.00°"
    page.locator(".kz-canvas").focus()

    for _ in range(10):
        page.keyboard.press("Shift+ArrowLeft")
    assert _angle(page) == round(math.degrees(10e-4), 2)  # 10 × 0.1 mrad = 0.06°
    assert page.locator(".kz-fine").is_visible()
    page.keyboard.press("ArrowLeft")
    assert abs(_angle(page) - (math.degrees(10e-4) + 0.1)) < 0.006
    assert page.locator(".kz-fine").is_hidden()

    # A drag with Shift held: 12 px across the aim line turn the cue about 1.2 mrad (0.07°), where a
    # plain drag there would swing it by degrees.
    seat_x, seat_y = round(driver.TABLE.home_line_x / 2, 6), round(driver.W / 4, 6)
    start = driver.to_page(page, seat_x + 1.2, seat_y)
    before = _angle(page)
    page.keyboard.down("Shift")
    page.mouse.move(*start)
    page.mouse.down()
    for i in range(1, 7):
        page.mouse.move(start[0], start[1] - 2 * i)
    page.mouse.up()
    page.keyboard.up("Shift")
    turned = abs(_angle(page) - before)
    assert 0.03 <= turned <= 0.12, turned

    # The strike keeps its full precision on the wire.
    page.keyboard.press("Space")
    driver.wait_version(page, 2)
    sent = match.events[-1]["d"]["strike"]["angle"]
    shown = _angle(page)
    assert abs(math.degrees(sent) % 360 - shown) < 0.006
    assert abs(math.degrees(sent) * 100 - round(math.degrees(sent) * 100)) > 1e-6, "not rounded to 0.01°"
