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


def test_reload_keeps_the_shot_list(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    server = daphne_factory()
    players, carol, url = pages.two_players_and_a_spectator(chromium, server)
    result = flow.play(players, carol, shots_wanted=6, max_moves=60)
    assert result["shots"] >= 6, result
    for page in [*players.values(), carol]:
        driver.wait_ready(page)
    live = pages.shot_list(carol)
    shot_rows = [r for r in live if " lag" not in r.split("\n")[0]]
    assert len(live) >= 6 and len(shot_rows) >= 6, live
    assert all(r.strip() for r in live)

    # A player reloads: the same list, word for word (not "No shots yet").
    name, player = next(iter(players.items()))
    before = pages.shot_list(player)
    assert before == live
    player.reload()
    driver.wait_ready(player)
    assert pages.shot_list(player) == live
    assert pages.visible_text(player, ".kz-history-count") == str(len(live))

    # A spectator who comes late sees the whole list too.
    late = pages.new_page(chromium, pages.PHONE_PORTRAIT, scale=2)
    pages.watch(late, url)
    driver.wait_ready(late)
    assert pages.shot_list(late) == live
    assert pages.region_colours(late, ".kz-shots", artifacts_dir / "lifecycle-shot-list-phone.png") > 20
    for page in (player, late, carol):
        assert not page.errors, page.errors
    pages.assert_clean_log(server)


def _end_card_seen(viewers: dict[str, Any], winner: str, words: str, artifacts: Path, tag: str) -> None:
    """Each viewer (two players and a spectator) reads the winner's name and how it ended in the card."""
    for role, page in viewers.items():
        page.wait_for_selector(".kz-end", state="visible", timeout=60000)
        title = pages.visible_text(page, ".kz-end-title")
        reason = pages.visible_text(page, ".kz-end-reason")
        me = driver.root_data(page).get("me")
        assert title == ("You win!" if me == winner else f"{winner} wins"), (role, title)
        assert winner in reason, (role, reason)
        assert words in reason.lower(), (role, reason)
        assert pages.visible_text(page, ".kz-end-score"), role
        colours = pages.region_colours(page, ".kz-end-card", artifacts / f"lifecycle-end-{tag}-{role}.png")
        assert colours > 30, f"{role}'s end card looks blank ({colours} colours)"


def _accept_dialogs(page: Any) -> None:
    page.on("dialog", lambda dialog: dialog.accept())


def test_end_card_shows_the_result(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    server = daphne_factory()

    # 1. A resignation (in the lag).
    players, carol, url = pages.two_players_and_a_spectator(chromium, server)
    (quitter, q_page), (winner, w_page) = list(players.items())
    _accept_dialogs(q_page)
    q_page.click(".kz-resign")
    _end_card_seen({"loser": q_page, "winner": w_page, "spectator": carol}, winner, "resigned", artifacts_dir, "resign")
    # A reload after the finish shows the same card (from the snapshot's result).
    carol.reload()
    _end_card_seen({"spectator": carol}, winner, "resigned", artifacts_dir, "resign-reload")
    assert pages.visible_text(carol, ".kz-end-rated") == "Casual match: no rating change"

    # 2. The shot clock, three expiries in a row after the break: the server's clock ends the match.
    players, carol, url = pages.two_players_and_a_spectator(chromium, server, shot_clock=10)
    everyone = [*players.values(), carol]
    shots = 0
    for _ in range(12):
        movers = [(n, p) for n, p in players.items() if driver.actions(p)]
        if not movers:
            for p in everyone:
                driver.wait_ready(p)
            continue
        name, page = movers[0]
        act = _move(page, name, [p for p in everyone if p is not page])
        shots += act == "shoot"
        if shots:
            break
    assert shots == 1, "the break was played"
    # Nobody shoots now: the clock warns in its last 10 s and says what an expiry does.
    carol.wait_for_selector(".kz-shotclock[data-urgent='yes']", timeout=20000)
    tooltip = carol.get_attribute(".kz-shotclock", "title") or ""
    assert "visit passes to the opponent" in tooltip and "3 expiries in a row" in tooltip, tooltip
    pages.wait_text(carol, ".kz-notice", "shot clock", timeout=20000)
    carol.wait_for_selector(".kz-end", state="visible", timeout=90000)
    title = pages.visible_text(carol, ".kz-end-title")
    assert title.endswith(" wins"), title
    winner = title.removesuffix(" wins")
    assert winner in players
    _end_card_seen({**players, "spectator": carol}, winner, "shot clock", artifacts_dir, "shot-clock")

    # 3. A win to the target (lowered to 2: the first scoring shot wins), then rematch and replay.
    players, carol, url = pages.two_players_and_a_spectator(chromium, server, ruleset={"target_score": 2})
    flow.play(players, carol, shots_wanted=40, max_moves=80)
    carol.wait_for_selector(".kz-end", state="visible", timeout=60000)
    winner = pages.visible_text(carol, ".kz-end-title").removesuffix(" wins")
    assert winner in players, winner
    _end_card_seen({**players, "spectator": carol}, winner, "reached 2", artifacts_dir, "target")
    phone = pages.new_page(chromium, pages.PHONE_PORTRAIT, scale=2)
    pages.watch(phone, url)
    phone.wait_for_selector(".kz-end", state="visible", timeout=20000)
    phone.screenshot(path=str(artifacts_dir / "lifecycle-end-phone.png"))
    assert not any(p.errors for p in [*players.values(), carol, phone])

    # Rematch: the one who asks goes to the new match, the other is invited on the card.
    (asker, a_page), (invited, i_page) = list(players.items())
    assert carol.locator(".kz-rematch").is_hidden(), "a spectator offers no rematch"
    a_page.click(".kz-rematch")
    a_page.wait_for_url(lambda u: u.rstrip("/") != url.rstrip("/") and "/m/" in u, timeout=20000)
    new_url = a_page.url
    pages.wait_text(i_page, ".kz-end-rematch", f"{asker} offers a rematch", timeout=20000)
    i_page.click(".kz-rematch-go")
    i_page.wait_for_url(new_url, timeout=20000)
    for page in (a_page, i_page):
        page.wait_for_function("() => document.querySelector('#kaiza-match').dataset.phase === 'lag'", timeout=20000)
        assert driver.root_data(page)["role"] == "player"
    pages.wait_text(carol, ".kz-end-rematch", "Watch the rematch", timeout=20000)

    # Replay: the card's button opens the finished match's replay.
    carol.click(".kz-replay")
    carol.wait_for_url("**/replay/")
    carol.wait_for_selector("[data-replay] canvas")
    assert winner in carol.inner_text("h1")
    pages.assert_clean_log(server)
