"""Company around matches in a real Chromium against a real daphne: quick pairing from the
lobby (two signed-up players seek the same choices and land on the same new match) and the rematch
from the end card (colours swapped, the opponent accepts from his own end card)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import driver, flow
from tests.e2e.pages import (
    assert_clean_log,
    new_page,
    region_colours,
    two_players_and_a_spectator,
    visible_text,
    wait_text,
)
from tests.support.daphne import DaphneServer
from tests.support.services import PAGE_POLL_MS

pytestmark = pytest.mark.browser

PASSWORD = "kaisa-pw-2024"


def sign_up(page: Any, base_url: str, name: str) -> None:
    page.goto(f"{base_url}/accounts/signup/")
    page.fill("#id_username", name.lower())
    page.fill("#id_display_name", name)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("button:has-text('Create my account')")
    page.wait_for_url(lambda url: "/signup/" not in url)


def seek(page: Any, base_url: str, time_limit: str) -> None:
    page.goto(f"{base_url}/lobby/")
    page.wait_for_function("() => document.getElementById('lobby-status').textContent.length > 0", polling=PAGE_POLL_MS)
    page.select_option("#seek-time-limit", time_limit)
    page.click("#seek-start")


@pytest.mark.slow(17)
def test_quick_pairing_matches_two_seekers(
    chromium: Any, daphne_factory: Callable[..., DaphneServer], artifacts_dir: Path
) -> None:
    server = daphne_factory()
    ann, bob = new_page(chromium), new_page(chromium, {"width": 390, "height": 844}, scale=2)
    sign_up(ann, server.url, "Ann")
    sign_up(bob, server.url, "Bob")

    seek(ann, server.url, "3900")
    ann.wait_for_function(
        "() => !document.getElementById('seek-waiting').hidden || document.getElementById('seek-error').textContent",
        polling=PAGE_POLL_MS,
    )
    assert visible_text(ann, "#seek-error") == "", (visible_text(ann, "#seek-error"), ann.url, ann.errors)
    waiting = visible_text(ann, "#seek-status")
    assert "Looking for an opponent" in waiting and "±100" in waiting, waiting
    assert ann.locator("#seek-cancel").is_visible() and not ann.locator("#seek-form").is_visible()
    ann.wait_for_function(
        "() => /0:0[2-9]/.test(document.getElementById('seek-status').textContent)", polling=PAGE_POLL_MS
    )  # ticks
    assert region_colours(ann, "#quick-pairing", artifacts_dir / "pairing-waiting.png") > 20
    ann.screenshot(path=str(artifacts_dir / "pairing-waiting-page.jpg"))

    # Cancel and seek again: the card goes back to its choices, then waits again.
    ann.click("#seek-cancel")
    ann.wait_for_selector("#seek-form:not([hidden])")
    ann.select_option("#seek-time-limit", "3900")
    ann.click("#seek-start")
    ann.wait_for_selector("#seek-waiting:not([hidden])")

    seek(bob, server.url, "3900")
    for page in (ann, bob):
        page.wait_for_url("**/m/*/", timeout=20000)
        page.wait_for_function(
            "() => document.querySelector('#kaiza-match').dataset.phase === 'lag'", timeout=30000, polling=PAGE_POLL_MS
        )
    assert ann.url == bob.url
    assert {driver.root_data(ann)["me"], driver.root_data(bob)["me"]} == {"Ann", "Bob"}
    assert driver.actions(ann) == ["lag"] and driver.actions(bob) == ["lag"]
    assert flow.screenshot_nonblank(bob, artifacts_dir / "pairing-matched-phone.jpg") > 50
    for page in (ann, bob):
        assert page.errors == []
    assert_clean_log(server)


@pytest.mark.slow(10)
def test_rematch_from_the_end_card(
    chromium: Any, daphne_factory: Callable[..., DaphneServer], artifacts_dir: Path
) -> None:
    """One player resigns; the other asks for a rematch from the end card and is taken to the new
    match; the resigner reads the offer on his own card and accepts. The new match keeps the settings
    (time limit, shot clock) and swaps the seats: the old seat 1 takes seat 0."""
    server = daphne_factory()
    players, carol, url = two_players_and_a_spectator(chromium, server, time_limit_min=30, shot_clock=45)
    first_seat = [p["name"] for p in driver.shown_state(carol)["players"]]
    (_, l_page), (winner, w_page) = list(players.items())
    l_page.on("dialog", lambda dialog: dialog.accept())
    l_page.click(".kz-resign")
    for page in (l_page, w_page, carol):
        page.wait_for_selector(".kz-end", state="visible", timeout=30000)
    assert carol.locator(".kz-rematch").is_hidden(), "a spectator offers no rematch"
    assert w_page.locator(".kz-rematch").is_visible()

    w_page.click(".kz-rematch")
    w_page.wait_for_url(lambda u: "/m/" in u and u.rstrip("/") != url.rstrip("/"), timeout=20000)
    new_url = w_page.url
    offer = wait_text(l_page, ".kz-end-rematch", f"{winner} offers a rematch", timeout=20000)
    assert region_colours(l_page, ".kz-end-card", artifacts_dir / "pairing-rematch-offer.png") > 30, offer
    l_page.click(".kz-rematch-go")
    l_page.wait_for_url(new_url, timeout=20000)
    for page in (w_page, l_page):
        page.wait_for_function(
            "() => document.querySelector('#kaiza-match').dataset.phase === 'lag'", timeout=20000, polling=PAGE_POLL_MS
        )
        assert driver.root_data(page)["role"] == "player"
    state = driver.shown_state(l_page)
    assert [p["name"] for p in state["players"]] == first_seat[::-1]  # seats swapped: the other lags first
    hud = visible_text(l_page, "#kaiza-match")
    assert re.search(r"Match (30:00|29:[0-5]\d)", hud), hud  # the same K-11 time limit, running
    assert flow.screenshot_nonblank(l_page, artifacts_dir / "pairing-rematch-started.jpg") > 50
    assert not any(p.errors for p in (l_page, w_page, carol))
    assert_clean_log(server)


@pytest.mark.slow(14)
def test_challenge_from_a_profile(
    chromium: Any, daphne_factory: Callable[..., DaphneServer], artifacts_dir: Path
) -> None:
    """Ann challenges Bob from his profile; Bob sees the header badge and the challenge on the home page,
    accepts, and both are at the table of the new match."""
    server = daphne_factory()
    ann, bob = new_page(chromium), new_page(chromium)
    sign_up(ann, server.url, "Ann")
    sign_up(bob, server.url, "Bob")
    ann.goto(f"{server.url}/players/Bob/")
    assert "Challenge" in visible_text(ann, "#challenge-form")
    assert region_colours(ann, ".challenge-send", artifacts_dir / "pairing-challenge-form.png") > 10
    ann.select_option("#challenge-time-limit", "3900")
    ann.click("#challenge-form button[type=submit]")
    ann.wait_for_url("**/m/*/")
    match_url = ann.url

    bob.goto(f"{server.url}/")
    assert visible_text(bob, "[data-challenge-badge]") == "1"
    offer = visible_text(bob, "#challenges")
    assert "Ann challenges you" in offer and "65 min" in offer, offer
    assert region_colours(bob, "#challenges", artifacts_dir / "pairing-challenge-home.png") > 10
    bob.click("#challenges button:has-text('Accept')")
    bob.wait_for_url(match_url)
    for page in (ann, bob):
        page.wait_for_function(
            "() => document.querySelector('#kaiza-match').dataset.phase === 'lag'", timeout=30000, polling=PAGE_POLL_MS
        )
    assert driver.actions(ann) == ["lag"] and driver.actions(bob) == ["lag"]
    assert not (ann.errors or bob.errors)
    assert_clean_log(server)
