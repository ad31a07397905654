"""The whole product in a real Chromium against a real daphne: a guest creates a match in the lobby,
a second guest joins it from the match page, they play from the lag to several shots with the mouse on
the canvas, and a third visitor watches and sees the same scores and ball positions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e import driver, flow
from tests.support.services import PAGE_POLL_MS

pytestmark = pytest.mark.browser


def _page(chromium: Any, viewport: dict[str, int]) -> Any:
    context = chromium.new_context(viewport=viewport)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


@pytest.mark.slow(39)
def test_two_guests_play_and_a_spectator_watches(chromium: Any, live_server_url: str, artifacts_dir: Path) -> None:
    alice = _page(chromium, {"width": 1400, "height": 860})
    alice.goto(f"{live_server_url}/lobby/")
    alice.click("#lobby-create-form button[type=submit]")
    alice.wait_for_url("**/m/*/")
    match_url = alice.url
    alice.wait_for_selector("#kaiza-match[data-version]")
    assert driver.root_data(alice)["role"] == "player"

    bob = _page(chromium, {"width": 844, "height": 390})
    bob.goto(match_url)
    bob.click(".kz-join")
    bob.wait_for_url(match_url)
    bob.wait_for_selector("#kaiza-match[data-version]")
    assert driver.root_data(bob)["role"] == "player"

    carol = _page(chromium, {"width": 430, "height": 900})
    carol.goto(match_url)
    carol.wait_for_selector("#kaiza-match[data-phase]")
    assert driver.root_data(carol)["role"] == "spectator"

    for page in (alice, bob, carol):
        page.wait_for_function(
            "() => document.querySelector('#kaiza-match').dataset.phase === 'lag'", timeout=20000, polling=PAGE_POLL_MS
        )
    players = {driver.root_data(p)["me"]: p for p in (alice, bob)}
    assert len(players) == 2

    # The spectator sees a player's cue sweep to where it stops: the server thins the aims for
    # spectators (game.realtime.hub) and the page glides the cue between them (state.remoteAimAngle). In the lag
    # the opponent aims too, so only the spectator's page draws the other player's cue.
    aimer = next(iter(players))
    assert carol.evaluate(driver.DRAWN_REMOTE_AIM) == ""
    cue, _speed = driver.lag_strike(driver.shown_state(players[aimer]), aimer)
    driver.sweep(players[aimer], cue, -0.35, 0.35)
    carol.wait_for_function(
        f"() => Math.abs(Number(({driver.DRAWN_REMOTE_AIM})()) - 0.35) < 0.01", timeout=10000, polling=PAGE_POLL_MS
    )
    carol.screenshot(path=str(artifacts_dir / "live-spectator-sees-the-aim.jpg"))

    result = flow.play(players, carol, shots_wanted=3)

    assert result["shots"] >= 3, result
    scores, balls = driver.same_view([alice, bob, carol])
    assert scores and balls
    assert carol.locator(".kz-shots li").count() >= 5  # two lags and the shots
    assert driver.actions(carol) == []
    for name, page in (("player1", alice), ("player2", bob), ("spectator", carol)):
        colours = flow.screenshot_nonblank(page, artifacts_dir / f"live-{name}.jpg")
        assert colours > 200, f"{name}'s table looks blank ({colours} colours)"
        assert not page.errors, page.errors
