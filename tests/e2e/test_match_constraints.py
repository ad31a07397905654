"""Legality drawn from the server's constraints, in a real Chromium against a real
daphne: at the opening shot (K-3.4) the page shows a forbidden call as not allowed, with the server's
reason in words, before anything is sent, and never sends it; a legal call goes out as before."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import driver, pages
from tests.support.daphne import DaphneServer
from tests.support.services import PAGE_POLL_MS

pytestmark = pytest.mark.browser

K34_WORDS = "the opening shot must call the kaisa or the red on the rear spot"


def _record_frames(page: Any) -> list[dict[str, Any]]:
    """Every frame the page sends on its match socket, decoded (Playwright's websocket events)."""
    sent: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        def on_frame(payload: Any) -> None:
            try:
                sent.append(json.loads(payload))
            except (TypeError, ValueError):
                pass

        ws.on("framesent", on_frame)

    page.on("websocket", on_socket)
    return sent


def _kinds(frames: list[dict[str, Any]]) -> list[str]:
    return [str(f.get("t")) for f in frames]


def _to_the_opening_shot(players: dict[str, Any]) -> tuple[str, Any]:
    """Lag, break choice and both opening placements through the UI; returns the breaker and his page."""
    for _ in range(12):
        for page in players.values():
            driver.wait_ready(page)
        movers = [(n, p) for n, p in players.items() if driver.actions(p)]
        if not movers:
            time.sleep(0.2)
            continue
        name, page = movers[0]
        if "shoot" in driver.actions(page):
            return name, page
        before = driver.version(page)
        driver.take_turn(page, name)
        deadline = time.monotonic() + 30
        while driver.version(page) <= before:
            assert time.monotonic() < deadline, f"{name}: no event came back"
            time.sleep(0.05)
    raise AssertionError("the opening shot never came")


@pytest.mark.slow(28)
def test_illegal_call_is_shown_before_the_shot(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    server = daphne_factory()
    alice = pages.new_page(chromium)
    alice_frames = _record_frames(alice)
    url = pages.create_match(alice, server.url)
    bob = pages.new_page(chromium)
    bob_frames = _record_frames(bob)
    pages.join(bob, url)
    for page in (alice, bob):
        page.wait_for_function(
            "() => document.querySelector('#kaiza-match').dataset.phase === 'lag'", timeout=60000, polling=PAGE_POLL_MS
        )
    players = {driver.root_data(p)["me"]: p for p in (alice, bob)}
    frames = {driver.root_data(alice)["me"]: alice_frames, driver.root_data(bob)["me"]: bob_frames}

    name, page = _to_the_opening_shot(players)
    sent = frames[name]
    state = driver.shown_state(page)
    assert state["visit"]["opening"] is True
    cue_id = next(p["cue_ball"] for p in state["players"] if p["name"] == name)
    cue = tuple(state["balls"][cue_id])
    front_red = next(b for b in ("red1", "red2") if state["balls"][b] == list(driver.TABLE.spots["front"]))
    version = driver.version(page)
    shoots_before = _kinds(sent).count("shoot")

    # The automatic call never suggests the forbidden ball: aim straight at the front red.
    red = state["balls"][front_red]
    driver.aim(page, cue, math.atan2(red[1] - cue[1], red[0] - cue[0]))
    time.sleep(0.8)  # the panel follows the state within 250 ms
    call_text = pages.visible_text(page, ".kz-call-text")
    assert "red" not in call_text, call_text

    # Hovering the greyed red tells why, in the server's words.
    page.mouse.move(*driver.to_page(page, *red))
    assert K34_WORDS in pages.wait_text(page, ".kz-why", K34_WORDS, timeout=10)
    page.mouse.move(*driver.to_page(page, 1.42, 1.2))

    # The player calls the front red into a foot pocket anyway: the call shows as not allowed, with why.
    driver.click_world(page, *red)
    driver.click_world(page, *driver.mouth_centre("foot_left"))
    call_text = pages.wait_text(page, ".kz-call-text", "red → top right", timeout=10)
    assert "not allowed" in call_text, call_text
    why = pages.wait_text(page, ".kz-why", K34_WORDS, timeout=10)
    assert "K-3.4" in why, why
    assert page.locator(".kz-shoot").is_disabled(), "Shoot must refuse a call the server forbids"
    pages.region_colours(page, ".kz-stage", artifacts_dir / "constraints-illegal-call.png")
    pages.region_colours(page, ".kz-controls", artifacts_dir / "constraints-illegal-call-panel.png")

    # Shooting it anyway (the cue pulled back and released, then Space): refused on the page, the reason
    # shown.
    driver.aim(page, cue, math.atan2(red[1] - cue[1], red[0] - cue[0]))
    driver.click_world(page, *red)
    driver.click_world(page, *driver.mouth_centre("foot_left"))
    driver.pull_and_release(page, cue, math.atan2(red[1] - cue[1], red[0] - cue[0]), 2.4)
    page.locator(".kz-canvas").focus()
    page.keyboard.press("Space")
    toast = pages.wait_text(page, ".kz-toast", K34_WORDS, timeout=10)
    assert "K-3.4" in toast, toast
    time.sleep(1.0)
    assert _kinds(sent).count("shoot") == shoots_before, [f for f in sent if f.get("t") == "shoot"]
    assert driver.version(page) == version, "the server moved on a call the page should have refused"

    # A legal call (the kaisa into a foot pocket) still goes out: the frame check can see a shot.
    page.click(".kz-clear-call")
    kaisa = state["balls"]["kaisa"]
    driver.click_world(page, *kaisa)
    # Hovering a middle pocket while the kaisa is called: never allowed at the opening, and why.
    page.mouse.move(*driver.to_page(page, *driver.mouth_centre("middle_left")))
    assert K34_WORDS in pages.wait_text(page, ".kz-why", K34_WORDS, timeout=10)
    driver.click_world(page, *driver.mouth_centre("foot_left"))
    page.mouse.move(*driver.to_page(page, 1.42, 1.2))
    page.wait_for_function("() => !document.querySelector('.kz-shoot').disabled", timeout=5000, polling=PAGE_POLL_MS)
    page.wait_for_function("() => document.querySelector('.kz-why').hidden", timeout=5000, polling=PAGE_POLL_MS)
    assert "not allowed" not in pages.visible_text(page, ".kz-call-text")
    angle = math.atan2(kaisa[1] - cue[1], kaisa[0] - cue[0])
    driver.aim(page, cue, angle)
    driver.pull_and_release(page, cue, angle, 2.4)
    deadline = time.monotonic() + 30
    while driver.version(page) <= version:
        assert time.monotonic() < deadline, "the legal shot never came back"
        time.sleep(0.05)
    shots = [f for f in sent if f.get("t") == "shoot"]
    assert len(shots) == shoots_before + 1, shots
    assert shots[-1]["d"]["call"]["ball"] == "kaisa" and shots[-1]["d"]["call"]["pocket"] == "foot_left"
    for page in players.values():
        assert not page.errors, page.errors
    pages.assert_clean_log(server)
