"""The match page on a phone in portrait, and a match opened with the keyboard alone.

The match is played by the real engine in-process (harness.py); the opponent moves through the engine,
the page under test only through what a person does (a phone's viewport, or keys).
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from tests.e2e import driver, steered
from tests.e2e.harness import ROOT, EngineMatch, open_page, wait_idle
from tests.e2e.pages import PHONE_PORTRAIT, REGION_COLOURS
from tests.support.services import PAGE_POLL_MS

pytestmark = pytest.mark.browser

ARTIFACTS = ROOT / "test-artifacts"
RAIL = 0.042 + 0.13  # static/game/js/transform.js RAIL: the drawn table is the cloth plus the rails

#: Every visible tap target's box (a checkbox's is its label), and the page's ball-pick radius.
TARGETS = """() => {
  const seen = (el) => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; };
  const out = [];
  for (const el of document.querySelectorAll('#kaiza-match button, #kaiza-match input, #kaiza-match .kz-spin-pad')) {
    if (!seen(el)) continue;
    const box = (el.type === 'checkbox' && el.closest('label')) || el;
    const r = box.getBoundingClientRect();
    out.push({name: el.className.baseVal ?? el.className, w: r.width, h: r.height,
              top: r.top, bottom: r.bottom, left: r.left, right: r.right});
  }
  return {targets: out, pick: Number(document.querySelector('.kz-canvas').dataset.pickRadiusPx)};
}"""

#: Counts the pointer, mouse and touch events the page receives (none may happen in a keyboard test).
COUNT_POINTERS = """() => {
  window.kzPointerEvents = 0;
  for (const t of ['pointerdown', 'pointerup', 'pointermove', 'mousedown', 'mouseup', 'mousemove',
                   'touchstart', 'touchend', 'wheel'])
    window.addEventListener(t, () => { window.kzPointerEvents += 1; }, {capture: true});
}"""


def _strike(angle: float, speed: float) -> dict[str, Any]:
    return {"strike": {"angle": angle, "speed": speed, "side": 0, "height": 0}}


def _table_box(page: Any) -> tuple[float, float, float, float]:
    """The drawn table (cloth and rails) in page pixels: left, top, right, bottom."""
    corners = [driver.to_page(page, x, y) for x in (-RAIL, driver.L + RAIL) for y in (-RAIL, driver.W + RAIL)]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return min(xs), min(ys), max(xs), max(ys)


def _assert_in_view(page: Any, shot_name: str) -> None:
    vw, vh = PHONE_PORTRAIT["width"], PHONE_PORTRAIT["height"]
    left, top, right, bottom = _table_box(page)
    assert left >= -0.5 and top >= -0.5 and right <= vw + 0.5 and bottom <= vh + 0.5, (left, top, right, bottom)
    assert right - left >= 0.85 * vw, f"the table is not full width: {right - left:.0f} px"
    found = page.evaluate(TARGETS)
    assert found["pick"] * 2 >= 44, found["pick"]
    for t in found["targets"]:
        assert t["w"] >= 44 and t["h"] >= 44, t
    shot = page.locator(shot_name)
    assert shot.is_visible()
    box = shot.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= vh and box["x"] + box["width"] <= vw, box
    # The shoot control is not covered by anything: the element under its centre is itself.
    hit = page.evaluate(
        "([x, y, sel]) => document.elementFromPoint(x, y).closest(sel) !== null",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, shot_name],
    )
    assert hit, f"{shot_name} is covered"


def test_phone_portrait_controls_in_view(chromium: Any) -> None:
    match = EngineMatch()
    page = open_page(chromium, match, "alice", "player", viewport=PHONE_PORTRAIT, device_scale_factor=3)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    driver.wait_ready(page)
    assert page.evaluate("() => document.querySelector('#kaiza-match').dataset.orientation") == "portrait"
    assert page.evaluate("() => window.scrollY") == 0

    # The lag: the Lag button and the power slider docked under the table, all in view.
    _assert_in_view(page, ".kz-lag")
    assert page.locator(".kz-power-input").is_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    lag_png = page.screenshot(path=str(ARTIFACTS / "phone-portrait-lag.png"))
    assert len(lag_png) > 10_000

    # Alice wins the lag and takes the break; Bob places white •• (K-3.3): Alice's ball in hand in the
    # home, which is drawn at the bottom: the hint says "below the line", never "left of".
    match.play("alice", "lag", _strike(0.0, 2.5), None)
    match.play("bob", "lag", _strike(0.0, 2.8), None)
    match.play("alice", "choose_break", {"take": True}, None)
    x, y = driver.free_spot(match.state(), "bob", opening=True)
    match.play("bob", "place", {"ball": "white2", "x": x, "y": y}, None)
    page.wait_for_function(
        "() => document.querySelector('#kaiza-match').dataset.actions.includes('place')", polling=PAGE_POLL_MS
    )
    wait_idle(page)
    steered.settle(page)
    hint = page.inner_text(".kz-hint")
    assert "below the line" in hint and "left of" not in hint, hint
    assert page.locator(".kz-shoot").is_hidden(), "a disabled Shoot shows during placement"
    # The lag's result bubble is up, and covers no pocket (the foot pockets are at the top in portrait).
    bubble = page.locator(".kz-verdict")
    assert bubble.is_visible() and "wins the lag" in bubble.inner_text()
    vb = bubble.bounding_box()
    for pocket in sorted(driver.TABLE.pockets):
        px, py = driver.to_page(page, *driver.mouth_centre(pocket))
        clear = (
            px + 12 < vb["x"]
            or px - 12 > vb["x"] + vb["width"]
            or py + 12 < vb["y"]
            or py - 12 > vb["y"] + vb["height"]
        )
        assert clear, (pocket, (px, py), vb)

    # While the finger drags the ball, the loupe shows the spot magnified; letting go places it.
    home = driver.to_page(page, 0.35, 0.4)
    page.mouse.move(home[0] + 20, home[1])
    page.mouse.down()
    page.mouse.move(*home, steps=4)
    steered.settle(page)
    loupe = page.locator(".kz-loupe")
    assert loupe.is_visible()
    lbox = loupe.bounding_box()
    assert lbox["width"] >= 100 and lbox["y"] >= 0
    page.screenshot(path=str(ARTIFACTS / "phone-portrait-loupe.jpg"))
    colours = page.evaluate(REGION_COLOURS, _b64(page.screenshot(clip=lbox)))
    assert colours > 40, f"the loupe looks blank: {colours} colours"
    page.mouse.up()
    page.wait_for_function(
        "() => document.querySelector('#kaiza-match').dataset.actions.includes('shoot')", polling=PAGE_POLL_MS
    )
    wait_idle(page)
    _assert_in_view(page, ".kz-shoot")
    page.screenshot(path=str(ARTIFACTS / "phone-portrait-shoot.jpg"))

    # A tap a finger's width beside a ball still picks it (the pick radius, not the ball's 3.4 cm).
    red2 = driver.balls(page)["red2"]
    near = driver.to_page(page, red2[0], red2[1])
    page.mouse.click(near[0] + 16, near[1] + 4)
    steered.settle(page)
    assert page.inner_text(".kz-call-text").lower().startswith(("red", "the red")), page.inner_text(".kz-call-text")
    assert not errors, errors


def _b64(png: bytes) -> str:
    import base64

    return base64.b64encode(png).decode()


def _press(page: Any, key: str, times: int = 1) -> None:
    for _ in range(times):
        page.keyboard.press(key)


def _tab_to(page: Any, selector: str) -> None:
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement && document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def _placed(page: Any) -> dict[str, Any]:
    steered.settle(page)
    out: dict[str, Any] = page.evaluate(
        "() => ({ok: document.querySelector('.kz-canvas').dataset.placement,"
        " why: document.querySelector('.kz-why').textContent,"
        " pos: JSON.parse(document.querySelector('.kz-canvas').dataset.placingPos || 'null')})"
    )
    return out


def _aim_by_keys(page: Any, target: float) -> None:
    """Turn the cue with Ctrl+arrows (2°), then arrows (0.1°), then Shift+arrows (0.1 mrad)."""
    for step, mod in ((math.radians(2), "Control+"), (math.radians(0.1), ""), (1e-4, "Shift+")):
        delta = math.remainder(target - steered.shown_angle(page), 2 * math.pi)
        key = "ArrowLeft" if delta > 0 else "ArrowRight"
        _press(page, f"{mod}{key}", int(abs(delta) // step))
    final = math.remainder(target - steered.shown_angle(page), 2 * math.pi)
    assert abs(final) < 3e-4, final


def test_keyboard_only_match(chromium: Any) -> None:
    match = EngineMatch()
    page = open_page(chromium, match, "alice", "player")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    driver.wait_ready(page)
    page.evaluate(COUNT_POINTERS)
    # Real names and readable labels: the cushion steppers say what they count; labels at least 14 px.
    names = page.eval_on_selector_all(".kz-step", "els => els.map((e) => e.getAttribute('aria-label'))")
    assert names == [
        "fewer object-ball cushions",
        "more object-ball cushions",
        "fewer cue-ball cushions",
        "more cue-ball cushions",
    ]
    sizes = page.eval_on_selector_all(
        ".kz-card-title, .kz-stepper span, .kz-hint, .kz-spin-label, .kz-keep",
        "els => els.map((e) => parseFloat(getComputedStyle(e).fontSize))",
    )
    assert sizes and min(sizes) >= 14, sizes
    # On her turn the table has the focus, drawn visibly.
    assert page.evaluate("() => document.activeElement.matches('.kz-canvas')")
    assert page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle") != "none"

    # The "keep spin and power" setting is reached by Tab, ticked by Space, remembered in this browser.
    _tab_to(page, ".kz-keep-strike")
    page.keyboard.press("Space")
    assert page.evaluate("() => localStorage.getItem('kaiza.keepStrike')") == "yes"
    page.keyboard.press("Space")
    assert page.evaluate("() => localStorage.getItem('kaiza.keepStrike')") == "no"
    page.locator(".kz-canvas").focus()

    # The lag: Space strikes at the shown power (Bob's is harder, so Alice's lies nearer the home cushion).
    page.keyboard.press("Space")
    match.play("bob", "lag", _strike(0.0, 2.8), None)
    page.wait_for_function(
        "() => document.querySelector('#kaiza-match').dataset.actions === 'choose_break'", polling=PAGE_POLL_MS
    )
    wait_idle(page)
    _tab_to(page, ".kz-take-break")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('#kaiza-match').dataset.actions !== 'choose_break'", polling=PAGE_POLL_MS
    )
    x, y = driver.free_spot(match.state(), "bob", opening=True)
    match.play("bob", "place", {"ball": "white2", "x": x, "y": y}, None)
    page.wait_for_function(
        "() => (document.querySelector('#kaiza-match').dataset.actions || '').includes('place')", polling=PAGE_POLL_MS
    )
    wait_idle(page)
    hint = page.inner_text(".kz-hint")
    assert "left of the line" in hint, hint  # the home is drawn on the left on a desktop

    # Ball in hand in the home (K-7.1) by arrow keys: 1 mm a press, 10 mm with Shift.
    page.locator(".kz-canvas").focus()  # focus(), not a click: no pointer event
    page.keyboard.press("ArrowUp")
    start = _placed(page)
    assert start["ok"] == "legal", start
    page.keyboard.press("ArrowUp")
    one = _placed(page)
    assert abs(one["pos"][1] - start["pos"][1] - 0.001) < 1e-6 and one["pos"][0] == start["pos"][0], (start, one)
    _press(page, "Shift+ArrowUp", 38)  # clear of red 1 on the home spot, for the shot below
    # Right, past the home line: drawn illegal with the reason in words; the server's line, not ours.
    _press(page, "Shift+ArrowRight", 40)
    over = _placed(page)
    assert over["ok"] == "illegal" and "home" in over["why"].lower(), over
    assert abs(over["pos"][0] - min(start["pos"][0] + 0.4, driver.L - driver.R)) < 1e-6
    page.keyboard.press("Enter")  # refused on the page: nothing is sent
    steered.settle(page)
    assert not any(e["t"] == "placed" and e["d"]["player"] == "alice" for e in match.events)
    _press(page, "Shift+ArrowLeft", 25)
    back = _placed(page)
    assert back["ok"] == "legal", back
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => (document.querySelector('#kaiza-match').dataset.actions || '').includes('shoot')", polling=PAGE_POLL_MS
    )
    wait_idle(page)
    placed = next(e for e in match.events if e["t"] == "placed" and e["d"]["player"] == "alice")["d"]
    assert abs(placed["x"] - back["pos"][0]) < 1e-6 and abs(placed["y"] - back["pos"][1]) < 1e-6

    # Aim with the keys at a legal opening call (K-3.4); the call follows the aim line; Space shoots.
    state = driver.shown_state(page)
    choice = driver.choose_shot(state, "alice")
    assert choice, "no straight opening shot"
    ball, pocket, angle = choice
    _aim_by_keys(page, angle)
    page.wait_for_function("() => !document.querySelector('.kz-shoot').disabled", timeout=5000, polling=PAGE_POLL_MS)
    call_text = page.inner_text(".kz-call-text")
    assert steered.POCKET_WORDS[pocket] in call_text, (call_text, pocket)
    # P steps to the other pocket the server allows for this ball (a call of one's own), P again back.
    page.keyboard.press("p")
    steered.settle(page)
    other = page.inner_text(".kz-call-text")
    assert other != call_text and "not allowed" not in other, other
    assert page.get_attribute(".kz-call-text", "data-auto") == "no"
    page.keyboard.press("p")
    steered.settle(page)
    assert page.inner_text(".kz-call-text") == call_text
    # The power slider keeps its keys: Left/Right change the power and do not turn the cue.
    before_angle = page.inner_text(".kz-angle")
    _tab_to(page, ".kz-power-input")
    power0 = page.input_value(".kz-power-input")
    page.keyboard.press("ArrowRight")
    steered.settle(page)
    assert page.input_value(".kz-power-input") != power0
    assert page.inner_text(".kz-angle") == before_angle
    page.keyboard.press("Space")
    page.wait_for_function(
        "() => Number(document.querySelector('#kaiza-match').dataset.version) > 0 &&"
        " document.querySelector('#kaiza-match').dataset.animating === 'no'",
        polling=PAGE_POLL_MS,
    )
    shot = next(
        (e for e in match.events if e["t"] == "shot" and e["d"]["player"] == "alice" and e["d"]["kind"] == "shot"), None
    )
    assert shot is not None, [e["t"] for e in match.events]
    assert shot["d"]["call"]["ball"] == ball and shot["d"]["call"]["pocket"] == pocket
    assert abs(shot["d"]["strike"]["angle"] - angle) < 3e-4
    # Spin and power start afresh for the next shot (the "keep" box is not ticked).
    wait_idle(page)
    assert page.inner_text(".kz-speed") == "2.5 m/s"
    assert page.evaluate("() => window.kzPointerEvents") == 0
    page.screenshot(path=str(ARTIFACTS / "keyboard-after-break.jpg"))
    assert not errors, errors
