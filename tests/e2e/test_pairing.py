"""Company around matches (issue 17) in a real Chromium against a real daphne: quick pairing from the
lobby (two signed-up players seek the same choices and land on the same new match) and the rematch
from the end card (colours swapped, the opponent accepts from his own end card)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import driver, flow
from tests.e2e.pages import assert_clean_log, new_page, region_colours, visible_text
from tests.support.daphne import DaphneServer

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
    page.wait_for_function("() => document.getElementById('lobby-status').textContent.length > 0")
    page.select_option("#seek-time-limit", time_limit)
    page.click("#seek-start")


def test_quick_pairing_matches_two_seekers(
    chromium: Any, daphne_factory: Callable[..., DaphneServer], artifacts_dir: Path
) -> None:
    server = daphne_factory()
    ann, bob = new_page(chromium), new_page(chromium, {"width": 390, "height": 844}, scale=2)
    sign_up(ann, server.url, "Ann")
    sign_up(bob, server.url, "Bob")

    seek(ann, server.url, "3900")
    ann.wait_for_function(
        "() => !document.getElementById('seek-waiting').hidden || document.getElementById('seek-error').textContent"
    )
    assert visible_text(ann, "#seek-error") == "", (visible_text(ann, "#seek-error"), ann.url, ann.errors)
    waiting = visible_text(ann, "#seek-status")
    assert "Looking for an opponent" in waiting and "±100" in waiting, waiting
    assert ann.locator("#seek-cancel").is_visible() and not ann.locator("#seek-form").is_visible()
    ann.wait_for_function("() => /0:0[2-9]/.test(document.getElementById('seek-status').textContent)")  # ticks
    assert region_colours(ann, "#quick-pairing", artifacts_dir / "pairing-waiting.png") > 20
    ann.screenshot(path=str(artifacts_dir / "pairing-waiting-page.png"))

    # Cancel and seek again: the card goes back to its choices, then waits again.
    ann.click("#seek-cancel")
    ann.wait_for_selector("#seek-form:not([hidden])")
    ann.select_option("#seek-time-limit", "3900")
    ann.click("#seek-start")
    ann.wait_for_selector("#seek-waiting:not([hidden])")

    seek(bob, server.url, "3900")
    for page in (ann, bob):
        page.wait_for_url("**/m/*/", timeout=20000)
        page.wait_for_function("() => document.querySelector('#kaiza-match').dataset.phase === 'lag'", timeout=30000)
    assert ann.url == bob.url
    assert {driver.root_data(ann)["me"], driver.root_data(bob)["me"]} == {"Ann", "Bob"}
    assert driver.actions(ann) == ["lag"] and driver.actions(bob) == ["lag"]
    assert flow.screenshot_nonblank(bob, artifacts_dir / "pairing-matched-phone.png") > 50
    for page in (ann, bob):
        assert page.errors == []
    assert_clean_log(server)
