"""A 2 vs 2 team match in a real Chromium against a real daphne: a guest opens it in the
lobby ("Players per side"), three guests take their places from the match page ("Join team 1/2"),
a fifth visitor watches. The HUD names both teams with their members in playing order, marks the
member at the table, and only that member's page may act; they play the lag and a few shots with the
mouse."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e import driver, flow
from tests.support.services import PAGE_POLL_MS

pytestmark = pytest.mark.browser

TEAM_2_LIST_HAS = "(name) => document.querySelector('.kz-team-side[data-team=\"1\"] ol').innerText.includes(name)"
MEMBERS = "() => [...document.querySelectorAll('.kz-player')].map(p => p.querySelector('.kz-members').innerText)"


def _page(chromium: Any, viewport: dict[str, int] | None = None) -> Any:
    context = chromium.new_context(viewport=viewport or {"width": 1280, "height": 820})
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


@pytest.mark.slow(39)
def test_team_match_page_shows_teams_and_the_player_at_the_table(
    chromium: Any, live_server_url: str, artifacts_dir: Path
) -> None:
    ann = _page(chromium)
    ann.goto(f"{live_server_url}/lobby/")
    ann.select_option("#id_team_size", "2")
    ann.click("#lobby-create-form button[type=submit]")
    ann.wait_for_url("**/m/*/")
    match_url = ann.url
    ann.wait_for_selector("#kaiza-match[data-version]")
    assert "open place" in ann.text_content(".kz-team-lobby")

    joiners = []
    for team in ("Join team 2", "Join team 1", "Join team 2"):
        page = _page(chromium)
        page.goto(match_url)
        page.click(f"button:has-text('{team}')")
        page.wait_for_url(match_url)
        joiners.append(page)
        if len(joiners) == 1:  # ann's waiting page follows the join without a reload
            bob_name = driver.root_data(page)["me"]
            ann.wait_for_function(
                TEAM_2_LIST_HAS,
                arg=bob_name,
                timeout=10000,
                polling=PAGE_POLL_MS,
            )
            assert flow.screenshot_nonblank(ann, artifacts_dir / "team-waiting.jpg") > 50
            assert ann.locator(".kz-team-side .kz-team-open").count() == 2  # one open place a team
    bob, amy, ben = joiners
    watcher = _page(chromium, {"width": 1000, "height": 760})
    watcher.goto(match_url)
    pages = [ann, amy, bob, ben, watcher]
    for page in pages:
        page.wait_for_function(
            "() => document.querySelector('#kaiza-match').dataset.phase === 'lag'", timeout=20000, polling=PAGE_POLL_MS
        )
    names = {
        key: driver.root_data(page)["me"] for key, page in (("ann", ann), ("amy", amy), ("bob", bob), ("ben", ben))
    }
    assert driver.root_data(watcher)["role"] == "spectator"

    # The lag: the first member of each team (ann, bob) may act; their team-mates may not.
    assert driver.actions(ann) == ["lag"] and driver.actions(bob) == ["lag"]
    assert driver.actions(amy) == [] and driver.actions(ben) == []
    members = watcher.evaluate(MEMBERS)
    assert members[0].split() == ["▶", names["ann"], names["amy"]], members
    assert members[1].split() == ["▶", names["bob"], names["ben"]], members
    names_shown = [t.strip() for t in watcher.locator(".kz-player .kz-name").all_inner_texts()]
    assert names_shown == [f"{names['ann']} +1", f"{names['bob']} +1"]

    players = {names[key]: page for key, page in (("ann", ann), ("amy", amy), ("bob", bob), ("ben", ben))}
    result = flow.play(players, watcher, shots_wanted=3)
    assert result["shots"] >= 3, result
    movers = [m.split(":")[0] for m in result["moves"]]
    assert set(movers[:2]) == {names["ann"], names["bob"]}  # the lag by the first players

    state = driver.shown_state(watcher)
    if state["phase"] != "finished":
        acting = state["pending"][0][0]
        team = next(i for i, t in enumerate(state["teams"]) if acting in t)
        # Only the member at the table has actions; the watcher's HUD marks him and names his team.
        for name, page in players.items():
            assert bool(driver.actions(page)) == (name == acting), (name, acting)
        assert f"▶ {acting}" in watcher.evaluate(MEMBERS)[team]
        assert f"{acting} ({state['players'][team]['name']})" in watcher.text_content(".kz-turn")
    scores, balls = driver.same_view(pages)
    assert scores and balls
    for name, page in (("member", amy), ("spectator", watcher)):
        colours = flow.screenshot_nonblank(page, artifacts_dir / f"team-{name}.jpg")
        assert colours > 200, f"{name}'s table looks blank ({colours} colours)"
    for page in pages:
        assert not page.errors, page.errors
