"""The edges of a live match, in a real Chromium against a real daphne (issue 12): the end card every
viewer reads, the shot list after a reload or for a late spectator, a K-11 time limit and shoot-out
played through the page, and a silent network loss noticed and recovered from.

Assertions read what a person sees: `inner_text` of visible elements and screenshot regions that are
not blank; screenshots of the end card, the shoot-out and the connection-lost overlay go to
test-artifacts/lifecycle-*.png (desktop and phone portrait).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import driver, flow, pages
from tests.e2e.freeze_proxy import FreezeProxy
from tests.support.daphne import DaphneServer

pytestmark = pytest.mark.browser


def _move(page: Any, name: str, others: list[Any]) -> str:
    """`name` makes the move the page offers; every page then shows the resulting version."""
    before = driver.version(page)
    act = driver.take_turn(page, name)
    page.wait_for_function(
        "(v) => Number(document.querySelector('#kaiza-match').dataset.version) > v", arg=before, timeout=30000
    )
    target = driver.version(page)
    for p in [page, *others]:
        driver.wait_version(p, target)
    return act


def test_client_shows_connection_lost(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    server = daphne_factory()
    with FreezeProxy(server.port) as proxy:
        # alice reaches the server through the proxy; bob and the spectator directly.
        players, carol, url = pages.two_players_and_a_spectator(chromium, server, creator_url=proxy.url)
        alice_name = next(n for n, p in players.items() if p.url.startswith(proxy.url))
        bob_name = next(n for n in players if n != alice_name)
        alice, bob = players[alice_name], players[bob_name]
        for page in (alice, bob, carol):
            driver.wait_ready(page)
        start = driver.version(bob)

        # 1. Traffic freezes; bob lags meanwhile. alice's page notices within 8 s and stops input.
        since = pages.watch_for_lost(alice)
        proxy.freeze()
        _move(bob, bob_name, [carol])
        alice.wait_for_selector(".kz-lost", state="visible", timeout=8000)
        noticed = pages.lost_after(alice, since)
        assert noticed <= 8.0, noticed
        assert "Connection lost" in pages.visible_text(alice, ".kz-lost")
        assert "reconnecting" in pages.visible_text(alice, ".kz-lost").lower()
        assert driver.actions(alice) == [], "no shooting while cut off"
        assert pages.region_colours(alice, ".kz-stage", artifacts_dir / "lifecycle-lost-desktop.png") > 50
        assert driver.version(alice) == start, "the frozen page has not seen bob's lag"

        # 2. Traffic resumes: the page reconnects and catches up with bob's lag.
        proxy.thaw()
        alice.wait_for_selector(".kz-lost", state="hidden", timeout=20000)
        driver.wait_version(alice, start + 1)
        assert driver.actions(alice) == ["lag"]

        # 3. Frozen again just as alice lags: "sending…", the overlay, then after the thaw her lag is
        #    applied exactly once (the old socket's frame and the resend carry the same ack).
        since = pages.watch_for_lost(alice)
        proxy.freeze()
        driver.take_turn(alice, alice_name)
        alice.wait_for_selector(".kz-sending", state="visible", timeout=4000)
        assert pages.visible_text(alice, ".kz-sending") == "sending…"
        alice.wait_for_selector(".kz-lost", state="visible", timeout=8000)
        assert pages.lost_after(alice, since) <= 8.0
        assert driver.version(bob) == start + 1, "nothing reached the server while frozen"
        proxy.thaw()
        alice.wait_for_selector(".kz-lost", state="hidden", timeout=20000)
        for page in (alice, bob, carol):
            driver.wait_version(page, start + 2)
        time.sleep(6)  # longer than the resend interval: a doubled input would show up now
        assert {driver.version(p) for p in (alice, bob, carol)} == {start + 2}, "one lag, applied once"
        driver.same_view([alice, bob, carol])
        assert pages.visible_text(alice, ".kz-sending") == ""
        rows = pages.shot_list(carol)
        assert sum(1 for r in rows if r.startswith(alice_name)) == 1, rows
        assert pages.shot_list(alice) == rows, "the reconnected page lists the same shots"
        assert not alice.errors and not bob.errors and not carol.errors

        # The overlay on a phone, for the eye.
        phone = pages.new_page(chromium, pages.PHONE_PORTRAIT, scale=2)
        phone.goto(url.replace(server.url, proxy.url))
        driver.wait_ready(phone)
        proxy.freeze()
        phone.wait_for_selector(".kz-lost", state="visible", timeout=8000)
        phone.screenshot(path=str(artifacts_dir / "lifecycle-lost-phone.png"))
        proxy.thaw()
        phone.wait_for_selector(".kz-lost", state="hidden", timeout=20000)
    pages.assert_clean_log(server)
