"""The match page in a real Chromium, with the match played by the engine in-process (harness.py):
two players play from the lag to several shots with the mouse on the canvas, a spectator watches."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e import driver, flow
from tests.e2e.harness import EngineMatch, open_page
from tests.support.services import PAGE_POLL_MS

pytestmark = pytest.mark.browser


@pytest.mark.slow(36)
def test_players_and_spectator_play_and_see_the_same_match(chromium: Any, artifacts_dir: Path) -> None:
    match = EngineMatch()
    alice = open_page(chromium, match, "alice", "player")
    bob = open_page(chromium, match, "bob", "player", viewport={"width": 844, "height": 390}, device_scale_factor=2)
    carol = open_page(chromium, match, "carol", "spectator", viewport={"width": 430, "height": 900})
    errors: list[str] = []
    for page in (alice, bob, carol):
        page.on("pageerror", lambda e: errors.append(str(e)))

    result = flow.play({"alice": alice, "bob": bob}, carol, shots_wanted=4)

    assert result["shots"] >= 4, result
    assert result["moves"][:2] == ["alice:lag", "bob:lag"] or result["moves"][0].endswith(":lag")
    assert not errors, errors
    assert driver.root_data(carol)["role"] == "spectator"
    assert driver.actions(carol) == []
    # The spectator's shot list has a row for every input played (lags, the break choice, placements,
    # shots), each with the server's words for it; the newest on top.
    rows = carol.locator(".kz-shots li")
    entries = [e["d"]["entry"] for e in match.events if e["d"].get("entry")]
    assert rows.count() == len(entries) >= 6, (rows.count(), len(entries))
    newest = rows.first.inner_text()
    assert entries[-1]["player"] in newest and entries[-1]["words"]["en"] in newest, (newest, entries[-1])
    for name, page in (("alice", alice), ("bob", bob), ("spectator", carol)):
        colours = flow.screenshot_nonblank(page, artifacts_dir / f"harness-{name}.jpg")
        assert colours > 200, f"{name}'s table looks blank ({colours} colours)"


def test_illegal_placement_is_shown_and_not_sent(chromium: Any) -> None:
    match = EngineMatch()
    match.play("alice", "lag", {"strike": {"angle": 0.0, "speed": 2.2, "side": 0, "height": 0}}, None)
    match.play("bob", "lag", {"strike": {"angle": 0.0, "speed": 2.6, "side": 0, "height": 0}}, None)
    winner = match.state()["pending"][0][0]
    match.play(winner, "choose_break", {"take": True}, None)
    placer = match.state()["pending"][0][0]
    page = open_page(chromium, match, placer, "player")
    driver.wait_ready(page)
    assert driver.actions(page) == ["place"]
    before = match.version
    driver.click_world(page, 1.0, 0.71)  # not beyond the centre: K-3.3
    page.wait_for_selector(".kz-toast:not([hidden])")
    assert "beyond the centre" in page.text_content(".kz-toast")
    assert match.version == before
    driver.click_world(page, 2.6, 0.71)
    driver.wait_version(page, before + 1)
    assert driver.balls(page)["white2"] == [2.6, 0.71]


def test_a_stage_collapsed_to_nothing_keeps_the_table_and_raises_nothing(chromium: Any, artifacts_dir: Path) -> None:
    """A stage of height 0 (a page not laid out yet, a layout that hides it for a moment) once made the
    renderer build a table canvas 0 pixels high, where the cloth pattern throws (CI, team tournament
    page). The renderer now declines an empty box; the table comes back with the box."""
    match = EngineMatch()
    page = open_page(chromium, match, "alice", "player")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    driver.wait_ready(page)
    before = page.get_attribute("canvas", "data-transform")
    for height in ("0px", "0.4px"):
        page.evaluate(f"() => {{ document.querySelector('.kz-stage').style.height = '{height}'; }}")
        page.wait_for_function(
            "() => document.querySelector('.kz-stage').getBoundingClientRect().height < 1", polling=PAGE_POLL_MS
        )
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        assert errors == []
        assert page.get_attribute("canvas", "data-transform") == before  # the last fit kept
    page.evaluate("() => { document.querySelector('.kz-stage').style.height = ''; }")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert errors == []
    colours = flow.screenshot_nonblank(page, artifacts_dir / "harness-stage-restored.jpg")
    assert colours > 200, f"the table did not come back ({colours} colours)"


#: Counts what changes in the page from now on: every DOM mutation, by element class and kind.
WATCH_WRITES = """() => {
  window.__writes = [];
  new MutationObserver((records) => {
    for (const r of records) {
      const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      const name = typeof el.className === "string" ? el.className : el.tagName;
      window.__writes.push(`${name} ${r.type} ${r.attributeName || ""}`);
    }
  }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
}"""


def test_a_match_at_rest_changes_nothing_on_its_pages(chromium: Any) -> None:
    """A player to shoot and a spectator, both pages still, no clock running: the HUD and the controls are
    brought up to date several times a second, and nothing in either page changes. Writing the same words
    and attributes again repainted an idle page four times a second, for as long as it stayed open."""
    match = EngineMatch()
    match.play("alice", "lag", {"strike": {"angle": 0.0, "speed": 2.2, "side": 0, "height": 0}}, None)
    match.play("bob", "lag", {"strike": {"angle": 0.0, "speed": 2.6, "side": 0, "height": 0}}, None)
    match.play(match.state()["pending"][0][0], "choose_break", {"take": True}, None)
    while (state := match.state())["pending"][0][1] == "place":
        name = state["pending"][0][0]
        placement = state["constraints"][name]["placement"]
        shown = {k: v for k, v in state.items() if k != "constraints"}
        x, y = driver.free_spot(shown, name, opening=placement["region"]["kind"] == "opening")
        match.play(name, "place", {"ball": placement["ball"], "x": x, "y": y}, None)
    shooter = match.state()["pending"][0][0]
    player = open_page(chromium, match, shooter, "player")
    spectator = open_page(chromium, match, "carol", "spectator", viewport={"width": 430, "height": 900})
    for page in (player, spectator):
        driver.wait_ready(page)
    assert driver.actions(player) == ["shoot"]
    for page in (player, spectator):
        page.evaluate(WATCH_WRITES)
    # Five of the HUD's updates (every 250 ms) on each page.
    player.wait_for_timeout(1300)
    for role, page in (("player", player), ("spectator", spectator)):
        assert page.evaluate("window.__writes") == [], role
