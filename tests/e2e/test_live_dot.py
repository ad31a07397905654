"""The "Live" dot (the watch page, the home page's featured match, club, player and tournament pages):
its ring pulses by transform and opacity only, which the compositor moves without repainting the page
(an animated box-shadow repainted its layer every frame for as long as the page stayed open), and it
rests for a reader who asks for less motion (`prefers-reduced-motion`), as the urgent shot clock does."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support.daphne import DaphneServer

pytestmark = pytest.mark.browser

#: Every running animation of the page: its element's class, its pseudo-element and the properties it moves.
ANIMATIONS = """() => document.getAnimations().filter((a) => a.playState === 'running').map((a) => ({
  target: a.effect.target.className,
  pseudo: a.effect.pseudoElement,
  props: [...new Set(a.effect.getKeyframes().flatMap((k) => Object.keys(k)))]
    .filter((p) => !['offset', 'computedOffset', 'easing', 'composite'].includes(p)),
}))"""


def _around(page: Any, selector: str, path: Path) -> bytes:
    """A screenshot of the square around the element (the ring grows past the dot's own box)."""
    box = page.locator(selector).bounding_box()
    assert box is not None and box["width"] > 4, box
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    return bytes(page.screenshot(path=str(path), clip={"x": x - 16, "y": y - 16, "width": 32, "height": 32}))


def test_the_live_dot_pulses_without_repaints_and_rests_for_less_motion(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    server = daphne_factory()
    for motion in ("no-preference", "reduce"):
        context = chromium.new_context(viewport={"width": 1280, "height": 800}, reduced_motion=motion)
        try:
            page = context.new_page()
            page.goto(f"{server.url}/watch/")
            dot = ".live-status .pulse"
            assert page.locator(dot).is_visible()
            running = page.evaluate(ANIMATIONS)
            assert not [a for a in running if "boxShadow" in a["props"]], running  # a repaint every frame
            shots = [_around(page, dot, artifacts_dir / f"live-dot-{motion}-{n}.png") for n in range(3)]
            time.sleep(0.25)
            shots.append(_around(page, dot, artifacts_dir / f"live-dot-{motion}-3.png"))
            pulses = [a for a in running if a["target"] == "pulse"]
            if motion == "reduce":
                assert pulses == [], running
                assert len(set(shots)) == 1, "the dot rests: every look the same"
            else:
                assert pulses and all(set(a["props"]) <= {"transform", "opacity"} for a in pulses), pulses
                assert all(a["pseudo"] == "::after" for a in pulses), pulses
                assert len(set(shots)) > 1, "the ring moves"
        finally:
            context.close()
