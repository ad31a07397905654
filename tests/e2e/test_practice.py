"""The practice table (`/practice/`) in a real Chromium against a real daphne: open a position
from its link, drag a ball (and see a refused drop say why), call and shoot with the page's own controls
(judged by the server's engine), read the verdict, undo back to the position, copy the link and open it in
a new page to get the same position; then start from a replayed match's shot. Screenshots:
test-artifacts/practice-*.jpg."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from game.practice.selectors.positions import Position, read_position
from tests.e2e import driver, pages
from tests.e2e.pages import cut_off
from tests.e2e.steered import aim_on_cloth, refine_aim, settle
from tests.e2e.test_security_pages import VIOLATIONS
from tests.e2e.test_tutorial import cloth, colour_at
from tests.practice.test_practice import POT, SHOT_POT, code
from tests.support.daphne import DaphneServer
from tests.support.services import PAGE_POLL_MS


def data(page: Any) -> dict[str, str]:
    return page.evaluate("() => ({...document.querySelector('#kaiza-practice').dataset})")


def wait_ready(page: Any) -> None:
    page.wait_for_function(
        "() => document.querySelector('#kaiza-practice').dataset.state === 'ready'", timeout=30000, polling=PAGE_POLL_MS
    )


def position(page: Any) -> Position:
    read = read_position(data(page)["position"])
    assert isinstance(read, Position), read
    return read


def drag(page: Any, start: tuple[float, float], end: tuple[float, float]) -> None:
    sx, sy = driver.to_page(page, *start)
    ex, ey = driver.to_page(page, *end)
    page.mouse.move(sx, sy)
    page.mouse.down()
    for i in range(1, 13):
        page.mouse.move(sx + (ex - sx) * i / 12, sy + (ey - sy) * i / 12)
    page.mouse.up()


def wait_position_change(page: Any, old: str) -> None:
    page.wait_for_function(
        "(old) => { const d = document.querySelector('#kaiza-practice').dataset;"
        " return d.position !== old && d.state === 'ready'; }",
        arg=old,
        timeout=30000,
        polling=PAGE_POLL_MS,
    )


@pytest.mark.browser
@pytest.mark.slow(54)
def test_practice_table_round_trip(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    server = daphne_factory()
    match_id = pages.django_run(
        server.env, "result = play_engine_match(make_player('Alice'), make_player('Bob'), inputs=10).pk", factories=True
    )
    context = chromium.new_context(viewport={"width": 1280, "height": 860})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    context.add_init_script(VIOLATIONS)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{server.url}/practice/?p={code(POT)}")
        wait_ready(page)
        assert page.locator("h1").inner_text() == "Practice table"
        assert data(page)["position"] == code(POT)
        assert not cloth(colour_at(page, POT["red1"])) and not cloth(colour_at(page, POT["kaisa"]))

        # Drag the kaisa 30 cm up the table: the server sets it there.
        page.locator(".kz-practice-arrange").click()
        assert page.locator(".kz-practice-arrange").get_attribute("aria-pressed") == "true"
        before = data(page)["position"]
        target = (1.42, 1.05)
        drag(page, POT["kaisa"], target)
        wait_position_change(page, before)
        moved = position(page)
        kaisa = moved.balls["kaisa"]
        assert kaisa is not None and abs(kaisa[0] - target[0]) < 0.01 and abs(kaisa[1] - target[1]) < 0.01, kaisa
        assert cloth(colour_at(page, POT["kaisa"])) and not cloth(colour_at(page, kaisa))
        assert page.locator(".kz-practice-undo").is_enabled()
        page.screenshot(path=str(artifacts_dir / "practice-moved.jpg"))

        # A drop onto another ball is refused with the reason, and nothing changes.
        arranged = data(page)["position"]
        drag(page, kaisa, POT["red2"])
        try:
            page.wait_for_function(
                "() => document.querySelector('.kz-practice-result').dataset.kind === 'refused'",
                timeout=10000,
                polling=PAGE_POLL_MS,
            )
        except Exception:
            page.screenshot(path=str(artifacts_dir / "practice-stuck.jpg"))
            raise AssertionError((data(page), page.locator(".kz-practice-outcome").inner_text())) from None
        assert "overlap" in page.locator(".kz-practice-outcome").inner_text()
        assert data(page)["position"] == arranged
        page.locator(".kz-practice-result").screenshot(path=str(artifacts_dir / "practice-refused.jpg"))

        # Back to shooting: call the red into the bottom right pocket and pot it.
        page.locator(".kz-practice-arrange").click()
        cue = POT["white1"]
        assert cue is not None
        driver.click_world(page, *POT["red1"])
        driver.click_world(page, *driver.mouth_centre("foot_right"))
        settle(page)
        assert page.evaluate("document.querySelector('.kz-call-text').dataset.auto") == "no"
        angle, speed = SHOT_POT["strike"]["angle"], SHOT_POT["strike"]["speed"]
        aim_on_cloth(page, cue, angle)
        refine_aim(page, angle)
        page.screenshot(path=str(artifacts_dir / "practice-aim.jpg"))
        driver.pull_and_release(page, cue, angle, speed)
        page.wait_for_function(
            "(old) => { const d = document.querySelector('#kaiza-practice').dataset;"
            " return d.position !== old && d.state === 'ready'"
            " && document.querySelector('.kz-practice-result').dataset.kind === 'verdict'; }",
            arg=arranged,
            timeout=30000,
            polling=PAGE_POLL_MS,
        )
        verdict = page.locator(".kz-practice-outcome").inner_text()
        assert "3" in verdict, verdict
        assert cloth(colour_at(page, POT["red1"])), "the potted red is gone from its place"
        page.screenshot(path=str(artifacts_dir / "practice-verdict.jpg"))

        # Undo: back to the position before the shot, the red where it was; again: before the move.
        page.locator(".kz-practice-undo").click()
        settle(page)
        assert data(page)["position"] == arranged
        assert not cloth(colour_at(page, POT["red1"]))
        assert f"p={arranged}" in page.url
        page.screenshot(path=str(artifacts_dir / "practice-undone.jpg"))

        # Copy the link; a new page opens the same position.
        page.locator(".kz-practice-copy").click()
        page.wait_for_function(
            "() => document.querySelector('.kz-practice-result').dataset.kind === 'copied'", polling=PAGE_POLL_MS
        )
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied == page.locator(".kz-practice-link-input").input_value() and f"p={arranged}" in copied
        other = context.new_page()
        other.on("pageerror", lambda exc: errors.append(str(exc)))
        other.goto(copied)
        wait_ready(other)
        assert data(other)["position"] == arranged and position(other).balls == moved.balls
        assert not cloth(colour_at(other, kaisa)) and cloth(colour_at(other, POT["kaisa"]))
        other.screenshot(path=str(artifacts_dir / "practice-link.jpg"))

        page.locator(".kz-practice-undo").click()
        settle(page)
        assert data(page)["position"] == code(POT) and page.locator(".kz-practice-undo").is_disabled()

        # No call: the same stroke is played by the physics and not judged (K-4.1); the red drops and
        # waits off the table until it is put back on its spot.
        page.locator(".kz-practice-uncalled-input").check()
        refine_aim(page, angle)
        driver.pull_and_release(page, cue, angle, speed)
        page.wait_for_function(
            "(old) => { const d = document.querySelector('#kaiza-practice').dataset;"
            " return d.position !== old && d.state === 'ready'"
            " && document.querySelector('.kz-practice-result').dataset.kind === 'verdict'; }",
            arg=code(POT),
            timeout=30000,
            polling=PAGE_POLL_MS,
        )
        assert "No call" in page.locator(".kz-practice-outcome").inner_text()
        assert position(page).balls["red1"] is None
        restore = page.locator('.kz-practice-restore[data-ball="red1"]')
        assert restore.is_visible() and restore.inner_text() == "Put back: a red"
        page.screenshot(path=str(artifacts_dir / "practice-uncalled.jpg"))
        uncalled = data(page)["position"]
        restore.click()
        wait_position_change(page, uncalled)
        assert position(page).balls["red1"] is not None and restore.is_hidden()

        # A malformed link opens the start position and says why.
        other.goto(f"{server.url}/practice/?p=nonsense")
        wait_ready(other)
        assert "That link does not hold a position" in other.locator(".kz-practice-result").inner_text()

        # In Finnish on a phone: the words translated, nothing off the side of the screen.
        fi = context.new_page()
        fi.set_extra_http_headers({"Accept-Language": "fi"})
        fi.set_viewport_size({"width": 390, "height": 844})
        fi.goto(f"{server.url}/practice/?p={arranged}")
        wait_ready(fi)
        assert fi.locator("h1").inner_text() == "Harjoituspöytä"
        assert fi.locator(".kz-practice-arrange").inner_text() == "Siirrä palloja"
        settle(fi)
        assert fi.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        fi.screenshot(path=str(artifacts_dir / "practice-fi-phone.jpg"), full_page=True)

        # The analysis board, from a shared link with ask=1, in Finnish on the phone:
        # three shots in words with their figures; "Show this shot" plays the sure red (K-5.3: 3 points).
        fi.goto(f"{server.url}/practice/?p={code(POT)}&ask=1")
        wait_ready(fi)
        fi.wait_for_function(
            "() => document.querySelectorAll('.kz-board-shot').length === 3", timeout=60000, polling=PAGE_POLL_MS
        )
        lines = fi.locator(".kz-board-line").all_inner_texts()
        assert all("odotusarvo" in line and "pistettä" in line and "%" in line for line in lines), lines
        sentences = fi.locator(".kz-board-sentence").all_inner_texts()
        red = next(i for i, text in enumerate(sentences) if text.startswith("Punainen oikeaan alakulmapussiin"))
        assert "ask=1" in fi.url
        assert cut_off(fi, ".kz-board") == [] and fi.evaluate(
            "document.documentElement.scrollWidth <= window.innerWidth + 1"
        )
        fi.locator(".kz-board").screenshot(path=str(artifacts_dir / "practice-board-fi.jpg"))
        fi.locator(".kz-board-show").nth(red).click()
        fi.wait_for_function(
            "() => document.querySelector('.kz-practice-result').dataset.kind === 'verdict'",
            timeout=30000,
            polling=PAGE_POLL_MS,
        )
        assert fi.locator(".kz-practice-outcome").inner_text() == sentences[red]

        # From a replay: each shot's "Practise this shot" opens the position before it.
        page.goto(f"{server.url}/m/{match_id}/replay/")
        link = page.locator("a[data-practice]").first
        href = link.get_attribute("href") or ""
        assert link.inner_text() == "Practise this shot" and "/practice/?p=" in href
        link.click()
        page.wait_for_url("**/practice/?p=*")
        wait_ready(page)
        assert data(page)["position"] == href.split("p=", 1)[1]
        assert page.locator(".kz-practice-result").is_hidden()
        replayed = position(page)
        for ball, at in replayed.balls.items():
            if at is not None:
                assert not cloth(colour_at(page, at)), (ball, at)
        page.screenshot(path=str(artifacts_dir / "practice-from-replay.jpg"))
        assert page.evaluate("window.__csp") == []
        assert errors == []
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.slow(25)
def test_placed_white_is_asked_about_linked_and_kept_on_reload(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    """After a scratch (the white in hand, K-7.1) a click in the home places it; the link then holds it,
    "Ask the engine" answers about that position instead of asking for the white, and a reload keeps it."""
    server = daphne_factory()
    in_hand = code({**POT, "white1": None})
    page = chromium.new_page(viewport={"width": 1280, "height": 860})
    try:
        page.goto(f"{server.url}/practice/?p={in_hand}")
        wait_ready(page)
        page.locator(".kz-board-ask").click()
        # "The engine is thinking…" shows first, then the answer: wait for the answer's words.
        pages.wait_text(page, ".kz-board-status", "Place your white")
        driver.click_world(page, 0.4, 0.5)
        wait_position_change(page, in_hand)
        placed = position(page)
        white = placed.balls["white1"]
        assert white is not None and abs(white[0] - 0.4) < 0.01 and abs(white[1] - 0.5) < 0.01, white
        assert placed.from_hand
        assert placed.code in page.locator(".kz-practice-link-input").input_value()
        page.locator(".kz-board-ask").click()
        page.wait_for_selector(".kz-board-shots li", timeout=60000)
        assert "Place your white" not in page.locator(".kz-board").inner_text()
        page.screenshot(path=str(artifacts_dir / "practice-asked-after-placing.png"))
        page.reload()
        wait_ready(page)
        assert position(page) == placed
        assert not cloth(colour_at(page, white)), "the placed white is gone after a reload"
    finally:
        page.close()
    pages.assert_clean_log(server)


@pytest.mark.browser
@pytest.mark.slow(20)
def test_engine_answer_follows_the_position_and_undo_takes_back_a_rolling_shot(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    """The engine's answer is about the position it was asked about: moving a ball hides it, Undo back to
    that position shows it again. Undo while the balls still roll (shots roll in real time here) takes
    the shot back: the table as it was before it, the balls at rest."""
    server = daphne_factory(KAIZA_ANIMATION_RATE="1")
    page = chromium.new_page(viewport={"width": 1280, "height": 860})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{server.url}/practice/?p={code(POT)}")
        wait_ready(page)
        page.locator(".kz-board-ask").click()
        page.wait_for_selector(".kz-board-shots li", timeout=60000)
        answer = page.locator(".kz-board-shots").inner_text()

        page.locator(".kz-practice-arrange").click()
        drag(page, POT["kaisa"], (1.42, 1.05))
        wait_position_change(page, code(POT))
        assert page.locator(".kz-board-shots").is_hidden() and page.locator(".kz-board-status").is_hidden()
        moved = data(page)["position"]
        page.locator(".kz-practice-undo").click()
        wait_position_change(page, moved)
        assert data(page)["position"] == code(POT)
        assert page.locator(".kz-board-shots").is_visible() and page.locator(".kz-board-shots").inner_text() == answer

        # A hard shot, and Undo before the balls stop.
        page.locator(".kz-practice-arrange").click()
        cue = POT["white1"]
        angle = SHOT_POT["strike"]["angle"]
        aim_on_cloth(page, cue, angle)
        refine_aim(page, angle)
        driver.pull_and_release(page, cue, angle, 6.0)
        page.wait_for_function(
            "() => document.querySelector('#kaiza-practice').dataset.state === 'trying'",
            timeout=5000,
            polling=PAGE_POLL_MS,
        )
        page.wait_for_timeout(400)  # the answer is in, the balls roll (several seconds at this speed)
        undo = page.locator(".kz-practice-undo")
        assert undo.is_enabled(), "Undo is off while the balls roll"
        undo.click()
        wait_ready(page)
        assert data(page)["position"] == code(POT)
        page.wait_for_timeout(300)
        for ball, at in POT.items():
            assert not cloth(colour_at(page, at)), (ball, at)
        assert page.locator(".kz-board-shots").is_visible()
        page.screenshot(path=str(artifacts_dir / "practice-undo-rolling.png"))
        assert errors == []
    finally:
        page.close()
    pages.assert_clean_log(server)
