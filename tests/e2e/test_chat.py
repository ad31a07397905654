"""The match chat end to end: two guests playing and a signed-in spectator, in Chromium, through a
real daphne. Each channel reaches the right people (the players' chat everyone, the spectators' chat
spectators only), quick phrases are buttons, text is shown as text, a player's mute hides the other's
messages on their screen (and survives a reload, which also brings the chat back), and a spectator's
report lands in the database. Screenshots: test-artifacts/chat-*.jpg."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import driver, pages
from tests.support.daphne import DaphneServer
from tests.support.services import PAGE_POLL_MS

pytestmark = pytest.mark.browser

LOG = ".kz-chat-log"
CAROL_PASSWORD = "carol-chat-pw-12345"


def log_lines(page: Any) -> list[str]:
    """The chat lines a person sees (hidden, muted lines are not read)."""
    return [str(t) for t in page.locator(f"{LOG} li:visible .kz-chat-text").all_inner_texts()]


def wait_line(page: Any, text: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if text in log_lines(page):
            return
        time.sleep(0.1)
    raise AssertionError(f"never saw {text!r}; the chat shows {log_lines(page)!r}")


def say(page: Any, text: str) -> None:
    page.fill(".kz-chat-input", text)
    page.press(".kz-chat-input", "Enter")


@pytest.mark.slow(26)
def test_players_and_spectators_chat(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    server = daphne_factory()
    pages.django_run(
        server.env,
        "from game.accounts.services import user_signup\n"
        f"user_signup(username='carol', password={CAROL_PASSWORD!r}, display_name='Carol')\n"
        "result = True",
    )
    alice = pages.new_page(chromium)
    url = pages.create_match(alice, server.url)
    bob = pages.new_page(chromium, {"width": 844, "height": 390})
    pages.join(bob, url)
    carol = pages.new_page(chromium, pages.PHONE_PORTRAIT)
    carol.goto(f"{server.url}/accounts/login/")
    carol.fill("#id_login", "carol")
    carol.fill("#id_password", CAROL_PASSWORD)
    carol.locator("main form button[type=submit], main form input[type=submit]").first.click()
    carol.wait_for_load_state()
    pages.watch(carol, url)
    for page in (alice, bob, carol):
        page.wait_for_function(
            "() => document.querySelector('#kaiza-match').dataset.phase === 'lag'", timeout=60000, polling=PAGE_POLL_MS
        )
    alice_name, bob_name = driver.root_data(alice)["me"], driver.root_data(bob)["me"]
    assert driver.root_data(carol)["role"] == "spectator"

    # The players' chat: everyone reads it; markup stays text. Bob's phone keeps the chat behind
    # "More": the line he has not seen puts a count on it, gone once he opens the sheet.
    say(alice, "Good luck <b>Bob</b>")
    bob.wait_for_function(
        "() => document.querySelector('.kz-more-count')?.textContent === '1'", timeout=15000, polling=PAGE_POLL_MS
    )
    assert pages.visible_text(bob, ".kz-more-count") == "1"
    assert bob.locator(".kz-more").get_attribute("aria-label") == "More: 1 new chat message"
    bob.screenshot(path=str(artifacts_dir / "chat-bob-more-count.jpg"))
    assert pages.open_sheet(bob)
    assert pages.visible_text(bob, ".kz-more-count") == ""
    for page in (alice, bob, carol):
        wait_line(page, "Good luck <b>Bob</b>")
        assert page.locator(f"{LOG} b").count() == 0
    # A quick phrase (a button for phones): sent as a code, worded on every screen.
    bob.locator(".kz-chat-phrase", has_text="Thanks").click()
    for page in (alice, bob, carol):
        wait_line(page, "Thanks")
    assert pages.visible_text(carol, LOG).count(bob_name) == 1

    # The spectators' chat: the spectator reads it, the players never get it.
    carol.locator(".kz-chat-phrases").wait_for()
    say(carol, "Watching from Oulu")
    wait_line(carol, "Watching from Oulu")
    assert "Carol (spectator)" in pages.visible_text(carol, LOG)
    time.sleep(1.0)
    for page in (alice, bob):
        assert "Watching from Oulu" not in pages.visible_text(page, ".kz-chat")

    # Alice mutes Bob: his lines go from her screen only, and stay gone after a reload, which also
    # brings the chat back from the server.
    alice.locator(f'{LOG} li[data-from="{bob_name}"] .kz-chat-mute').first.click()
    assert "Thanks" not in log_lines(alice)
    assert f"Unmute {bob_name}" in pages.visible_text(alice, ".kz-chat-muted")
    say(bob, "can you hear me")
    wait_line(carol, "can you hear me")
    wait_line(bob, "can you hear me")
    time.sleep(0.5)
    assert "can you hear me" not in log_lines(alice)
    alice.reload()
    alice.wait_for_selector("#kaiza-match[data-version]")
    wait_line(alice, "Good luck <b>Bob</b>")
    assert "Thanks" not in log_lines(alice) and "can you hear me" not in log_lines(alice)
    assert alice.locator(f'{LOG} li[data-from="{bob_name}"]').count() == 2  # received, hidden

    # Carol reports Alice's message: the button says so and the report is a row for the admin.
    line = carol.locator(f'{LOG} li[data-from="{alice_name}"]').first
    line.locator(".kz-chat-report").click()
    pages.wait_text(carol, f'{LOG} li[data-from="{alice_name}"]', "Reported")
    pages.wait_text(carol, ".kz-chat-status", "report was sent")
    reports = pages.django_run(
        server.env,
        "from game.models.chat import ChatReport\n"
        "result = [[r.message.text, r.message.author_name, r.reporter.username] "
        "for r in ChatReport.objects.select_related('message', 'reporter')]",
    )
    assert reports == [["Good luck <b>Bob</b>", alice_name, "carol"]]

    # On the phone every chat control is a thumb's target (44 CSS px).
    heights = carol.evaluate(
        "() => [...document.querySelectorAll('.kz-chat button, .kz-chat input')]"
        ".filter((b) => b.offsetParent).map((b) => Math.min(b.getBoundingClientRect().height,"
        " b.getBoundingClientRect().width))"
    )
    assert len(heights) >= 8 and min(heights) >= 44, heights

    # For the eye: each screen's chat card (LOOK at them).
    for name, page in (("alice", alice), ("bob", bob), ("carol", carol)):
        card = page.locator(".kz-chat")
        card.scroll_into_view_if_needed()
        card.screenshot(path=str(artifacts_dir / f"chat-{name}.jpg"))
        assert pages.region_colours(page, ".kz-chat") > 20
    carol.screenshot(path=str(artifacts_dir / "chat-carol-page.jpg"), full_page=True)
    for page in (alice, bob, carol):
        assert not page.errors, page.errors
    pages.assert_clean_log(server)
