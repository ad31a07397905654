"""The whole product in a real Chromium against a real daphne: a guest creates a match in the lobby,
a second guest joins it from the match page, they play from the lag to several shots with the mouse on
the canvas, and a third visitor watches and sees the same scores, ball positions and shot list; the
shot list is the same after a player's reload and for a spectator who comes late."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import driver, flow, pages
from tests.support.daphne import DaphneServer
from tests.support.services import PAGE_POLL_MS

pytestmark = pytest.mark.browser


@pytest.mark.slow(45)
def test_two_guests_play_and_a_spectator_watches(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    server = daphne_factory()
    # alice creates the match in the lobby, bob joins from the match page, carol (a portrait phone) watches.
    players, carol, url = pages.two_players_and_a_spectator(
        chromium, server, spectator_viewport={"width": 430, "height": 900}
    )
    alice, bob = players.values()
    assert [driver.root_data(p)["role"] for p in (alice, bob, carol)] == ["player", "player", "spectator"]

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

    # Four shots after the two lags: six rows in the shot list, enough to see order and words kept.
    result = flow.play(players, carol, shots_wanted=4, max_moves=40)
    assert result["shots"] >= 4, result
    for page in (alice, bob, carol):
        driver.wait_ready(page)
    scores, balls = driver.same_view([alice, bob, carol])
    assert scores and balls
    assert driver.actions(carol) == []
    for name, page in (("player1", alice), ("player2", bob), ("spectator", carol)):
        colours = flow.screenshot_nonblank(page, artifacts_dir / f"live-{name}.jpg")
        assert colours > 200, f"{name}'s table looks blank ({colours} colours)"
    live = pages.shot_list(carol)
    shot_rows = [r for r in live if r.split()[1] != "lag"]  # a row reads: who, what, points, why
    assert len(live) >= 6 and len(shot_rows) >= 4, live
    assert all(r.strip() for r in live)

    # A player reloads: the same list, word for word (not "No shots yet"). Each page names the pockets
    # as it draws the table, so the player's laptop and the spectator's portrait phone say the same
    # shots with their own pocket words (in the calls and in the verdicts that name a pocket): the same
    # rows, each by the same player.
    before = pages.shot_list(alice)
    assert len(before) == len(live)
    for mine, theirs in zip(before, live, strict=True):
        assert mine.split()[0] == theirs.split()[0]
    alice.reload()
    driver.wait_ready(alice)
    assert pages.shot_list(alice) == before
    assert pages.visible_text(alice, ".kz-history-count") == str(len(live))

    # A spectator who comes late sees the whole list too.
    late = pages.new_page(chromium, pages.PHONE_PORTRAIT)
    pages.watch(late, url)
    driver.wait_ready(late)
    assert pages.shot_list(late) == live
    assert pages.region_colours(late, ".kz-shots", artifacts_dir / "live-shot-list-phone.png") > 20
    for page in (alice, bob, carol, late):
        assert not page.errors, page.errors
    pages.assert_clean_log(server)
