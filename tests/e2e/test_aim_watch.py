"""A player's aim as a spectator sees it, against a real daphne: the player sweeps the cue in the lag;
the server thins the aims for spectators (10 a second, game.hub) and the spectator's page glides the
drawn cue between them (state.remoteAimAngle) and ends at the player's angle. (In the lag the opponent
aims too, so their page draws their own cue.)"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import driver, pages
from tests.support.daphne import DaphneServer

pytestmark = pytest.mark.browser

DRAWN = "() => document.querySelector('canvas').dataset.remoteAim || ''"


def sweep(page: Any, cue: tuple[float, float], start: float, end: float, steps: int = 24) -> None:
    """Press on the cloth away from the cue ball and turn the cue from `start` to `end` radians."""

    def at(angle: float) -> tuple[float, float]:
        return driver.to_page(page, cue[0] + math.cos(angle) * 0.7, cue[1] + math.sin(angle) * 0.7)

    page.mouse.move(*at(start))
    page.mouse.down()
    for i in range(1, steps + 1):
        page.mouse.move(*at(start + (end - start) * i / steps))
        page.wait_for_timeout(25)
    page.mouse.up()


def test_the_opponent_and_a_spectator_see_the_cue_swept_to_its_angle(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    server = daphne_factory()
    players, carol, _ = pages.two_players_and_a_spectator(chromium, server)
    names = list(players)
    aimer, other = players[names[0]], players[names[1]]
    before = carol.evaluate(DRAWN)
    driver.wait_ready(aimer)
    assert driver.actions(aimer) == ["lag"]
    cue, _speed = driver.lag_strike(driver.shown_state(aimer), names[0])
    end = 0.35
    assert before == ""  # nobody has aimed yet
    sweep(aimer, cue, -0.35, end)
    carol.wait_for_function(f"() => Math.abs(Number(({DRAWN})()) - {end}) < 0.01", timeout=10000)
    carol.screenshot(path=str(artifacts_dir / "aim-watch-spectator.png"))
    assert pages.region_colours(carol, "canvas", artifacts_dir / "aim-watch-spectator-canvas.png") > 10
    for page in (aimer, other, carol):
        assert page.errors == []
