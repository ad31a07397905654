"""A player on another tab hears of his turn: the tab's title says "Your turn" while the page is hidden
and comes back when it is shown, and the alert he turned on chimes and notifies once, in a real Chromium
against a real daphne. The page's visibility is the browser's signal (`visibilitychange` and
`document.visibilityState`), set here as a switch of tabs sets it; the browser's notifications are
granted and recorded as they are made. Screenshot: test-artifacts/your-turn-*.png."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import pages
from tests.support.daphne import DaphneServer
from tests.support.services import PAGE_POLL_MS

pytestmark = pytest.mark.browser

#: Every notification the page makes, with its words (the real one is still shown).
RECORD_NOTIFICATIONS = """
window.kzNotes = [];
if (window.Notification) {
  const Real = window.Notification;
  window.Notification = class extends Real {
    constructor(title, options) {
      super(title, options);
      window.kzNotes.push({ title, body: (options && options.body) || "" });
    }
  };
}
"""

#: The page goes to the background (another tab in front) or comes back.
SET_HIDDEN = """(hidden) => {
  if (hidden) {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
    Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
  } else {
    delete document.visibilityState;
    delete document.hidden;
  }
  document.dispatchEvent(new Event("visibilitychange"));
}"""


@pytest.mark.slow(18)
def test_your_turn_when_hidden(daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path) -> None:
    server = daphne_factory()
    context = chromium.new_context(viewport=pages.DESKTOP)
    context.grant_permissions(["notifications"], origin=server.url)
    context.add_init_script(RECORD_NOTIFICATIONS)
    alice = context.new_page()
    errors: list[str] = []
    alice.on("pageerror", lambda exc: errors.append(str(exc)))
    url = pages.create_match(alice, server.url)
    base = alice.title()
    assert "Your turn" not in base

    # alice turns the alert on (the browser grants notifications) and goes to another tab.
    alert = alice.locator(".kz-turn-alert")
    assert alert.is_visible() and alert.inner_text() == "Turn alert off"
    alert.click()
    assert alert.inner_text() == "Turn alert on" and alert.get_attribute("aria-pressed") == "true"
    assert alice.evaluate("() => Notification.permission") == "granted"
    alice.evaluate(SET_HIDDEN, True)
    assert alice.title() == base  # not her turn yet: nothing to say

    # bob joins: the lag starts and alice owes it. Her hidden tab says so, once, with a chime.
    bob = pages.new_page(chromium)
    pages.join(bob, url)
    alice.wait_for_function("() => document.title.startsWith('● Your turn')", timeout=30000, polling=PAGE_POLL_MS)
    assert alice.title() == f"● Your turn · {base}"
    notes = alice.evaluate("() => window.kzNotes")
    assert notes == [{"title": "Your turn", "body": f"Your turn: lag · {base}"}], notes
    assert alice.evaluate("() => document.querySelector('#kaiza-match').dataset.chimes") == "1"
    # bob sees his page: his title stays the page's own, and he made no notification.
    assert "Your turn" not in bob.title()

    # alice comes back: the title is the page's own again, and the page says it is her turn.
    alice.evaluate(SET_HIDDEN, False)
    alice.wait_for_function("(base) => document.title === base", arg=base, polling=PAGE_POLL_MS)
    alice.wait_for_selector(".kz-lag", state="visible")
    alice.screenshot(path=str(artifacts_dir / "your-turn-back.png"))
    # Hidden again while her turn lasts: the title reminds her, without a second chime or notification.
    alice.evaluate(SET_HIDDEN, True)
    assert alice.title() == f"● Your turn · {base}"
    assert len(alice.evaluate("() => window.kzNotes")) == 1
    assert alice.evaluate("() => document.querySelector('#kaiza-match').dataset.chimes") == "1"
    assert not errors and not bob.errors, (errors, bob.errors)
    context.close()
    pages.assert_clean_log(server)
