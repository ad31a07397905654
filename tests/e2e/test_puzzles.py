"""The daily puzzle in a real Chromium against a real daphne: a puzzle made on the
server's database from the hand-made position where a red pot is certain (tests/puzzles/conftest.py), a
signed-in player follows the home page's card, calls, aims and shoots with the page's own controls, reads
"Solved!" and his rating's change; on a phone the puzzle's controls are within the screen.
Screenshots: test-artifacts/puzzle-*.jpg."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import driver, pages
from tests.e2e.steered import aim_on_cloth, refine_aim, settle
from tests.puzzles.conftest import POSITION
from tests.support.daphne import DaphneServer
from tests.support.services import PAGE_POLL_MS

#: The puzzle of the one-shot match, made as the analysis receiver makes it, and a player with a password.
SETUP = """
from game.engine.analysis import analyse_shot
from game.puzzles.services import puzzles_from_analysis
from tests.puzzles.conftest import POSITION, PLAYED
from tests.support.community_factories import DEMO_PASSWORD, make_match, make_player
report = {"shots": [analyse_shot(POSITION, PLAYED).as_dict()]}
(puzzle,) = puzzles_from_analysis(make_match(make_player("Alice"), make_player("Bob")), report, shots=[PLAYED])
solver = make_player("Solver")
solver.set_password(DEMO_PASSWORD)
solver.save()
result = {"id": puzzle.pk, "call": puzzle.call, "strike": puzzle.strike, "target": puzzle.target}
"""


def wait_ready(page: Any) -> None:
    page.wait_for_function(
        "() => document.querySelector('#kaiza-puzzle').dataset.state === 'ready'", timeout=30000, polling=PAGE_POLL_MS
    )


def sign_in(page: Any, base_url: str) -> None:
    from tests.support.community_factories import DEMO_PASSWORD

    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_login", "solver")
    page.fill("#id_password", DEMO_PASSWORD)
    page.locator("main form button[type=submit], main form input[type=submit]").first.click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


@pytest.mark.browser
@pytest.mark.slow(25)
def test_daily_puzzle_can_be_solved(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    server = daphne_factory()
    made = pages.django_run(server.env, SETUP)
    strike = made["strike"]
    # The page's stroke is struck at the ball's centre, the best shot's a little above it: the red is as
    # sure either way (the puzzle's success under the analysis' noise is 1).
    call, angle, speed = made["call"], float(strike["angle"]), float(strike["speed"])
    page = pages.new_page(chromium)
    sign_in(page, server.url)

    # The home page's card leads to the day's puzzle.
    page.goto(f"{server.url}/")
    card = pages.visible_text(page, "[data-daily-puzzle]")
    assert "Daily puzzle" in card and f"score at least {made['target']} points from here" in card, card
    page.locator("[data-daily-puzzle] a", has_text="Solve the daily puzzle").click()
    page.wait_for_url("**/puzzles/")
    wait_ready(page)
    assert page.locator("h1").inner_text() == "Daily puzzle"
    assert f"Score at least {made['target']} points from here with one shot." in pages.visible_text(
        page, ".kz-puzzle-goal"
    )
    assert pages.visible_text(page, ".kz-puzzle-rating") == "Your puzzle rating: 1500"
    assert page.locator(".kz-practice-result").is_hidden()

    # Call the red into its pocket, aim with a drag and the arrow keys, pull the cue back and let go.
    cue = tuple(POSITION["balls"]["white1"])
    driver.click_world(page, *POSITION["balls"][call["ball"]])
    driver.click_world(page, *driver.mouth_centre(call["pocket"]))
    settle(page)
    assert page.evaluate("document.querySelector('.kz-call-text').dataset.auto") == "no"
    aim_on_cloth(page, cue, angle)
    refine_aim(page, angle)
    page.wait_for_function("() => !document.querySelector('.kz-shoot').disabled", timeout=5000, polling=PAGE_POLL_MS)
    page.screenshot(path=str(artifacts_dir / "puzzle-aim.jpg"))
    driver.pull_and_release(page, cue, angle, speed)
    # The answer's motion is drawn, then the board stands back ("judged": one shot per serving).
    page.wait_for_function(
        "() => { const r = document.querySelector('#kaiza-puzzle');"
        " return r.dataset.outcome && r.dataset.state === 'judged'; }",
        timeout=30000,
        polling=PAGE_POLL_MS,
    )
    assert page.locator("#kaiza-puzzle").get_attribute("data-outcome") == "solved"
    assert pages.visible_text(page, ".kz-puzzle-outcome-title") == "Solved!"
    outcome = pages.visible_text(page, ".kz-practice-outcome")
    assert "Points scored: 3" in outcome, outcome
    rating = int(pages.visible_text(page, ".kz-puzzle-rating-value"))
    assert rating > 1500 and f"Your puzzle rating: {rating} (+{rating - 1500})" in outcome, outcome
    page.screenshot(path=str(artifacts_dir / "puzzle-solved.jpg"))
    # The rating is stored: the page opened again shows it.
    page.goto(f"{server.url}/puzzles/")
    wait_ready(page)
    assert pages.visible_text(page, ".kz-puzzle-rating") == f"Your puzzle rating: {rating}"

    # On a phone the puzzle's controls are within the screen, nothing scrolls sideways.
    phone = pages.new_page(chromium, pages.PHONE_PORTRAIT)
    phone.goto(f"{server.url}/puzzles/{made['id']}/")
    wait_ready(phone)
    settle(phone)
    for part in (".kz-stage", ".kz-panel"):
        assert pages.cut_off(phone, part) == [], part
    shoot = phone.locator(".kz-shoot")
    shoot.scroll_into_view_if_needed()
    box = shoot.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= pages.PHONE_PORTRAIT["width"], box
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    phone.screenshot(path=str(artifacts_dir / "puzzle-phone.jpg"), full_page=True)
    for p in (page, phone):
        assert p.errors == []
    pages.assert_clean_log(server)
