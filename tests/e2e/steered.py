"""Shots chosen with the engine and played through the page, for tests that need a known outcome: a
shot that scores nothing and costs nothing (to keep a K-11 match level into sudden death), or one that
pockets the shooter's own cue ball (a penalty, to end a sudden death).

The engine in this process checks each candidate strike, and its neighbours within the aim and power
error of a mouse drag, so the page's slightly different strike has the same outcome. The page is then
driven like a player: click the ball and the pocket to call, drag to aim, pull the cue back to shoot.
"""

from __future__ import annotations

import math
from typing import Any, Literal

from game.engine.rules import Match, RuleError
from tests.e2e import driver
from tests.support.services import PAGE_POLL_MS

Want = Literal["nothing", "penalty"]
#: The aim error left after the keyboard's fine aim (the readout's 0.01°), and the power error of a
#: pull on the page, covered by the neighbours checked.
ANGLE_SLACK = 0.001
SPEED_SLACK = 0.1
#: The page's arrow-key steps (static/game/js/input/keyboard.js): 0.1°, and 0.1 mrad with Shift.
KEY_STEP = math.radians(0.1)
FINE_KEY_STEP = 1e-4


def _engine(state: dict[str, Any]) -> Match:
    return Match.from_snapshot({k: v for k, v in state.items() if k not in ("pending", "abortable")})


def _outcome(state: dict[str, Any], me: str, call: dict[str, Any], angle: float, speed: float) -> str | None:
    try:
        verdict = _engine(state).shoot(me, call=call, strike={"angle": angle, "speed": speed}).verdict
    except RuleError:
        return None
    if verdict.get("penalty"):
        return "penalty"
    if not verdict.get("points") and not verdict.get("scored") and verdict.get("turn_passes"):
        return "nothing"  # the visit ends with nothing scored (a replayed shot would not end it)
    return "other"


def _calls(state: dict[str, Any], me: str) -> list[dict[str, Any]]:
    engine = _engine(state)
    calls = []
    for ball in engine.callable_balls():
        for pocket in engine.legal_pockets(ball):
            calls.append({"ball": ball, "pocket": pocket})
    return calls


def find_strike(state: dict[str, Any], me: str, want: Want) -> tuple[dict[str, Any], float, float]:
    """(call, angle, speed) whose outcome, and its neighbours', is `want`."""
    cue_id = next(p["cue_ball"] for p in state["players"] if p["name"] == me)
    cue = state["balls"][cue_id]
    calls = _calls(state, me)
    assert calls, "no legal call"
    call = calls[0]
    if want == "penalty":
        # Straight at a pocket's centre: the own cue ball drops (K-8.1, K-11.3). From the home only a
        # shot that crosses the home line counts (K-7), so the home pockets are no use.
        centres = [pk.center for p, pk in sorted(driver.TABLE.pockets.items()) if not p.startswith("home")]
        candidates = [
            (math.atan2(c[1] - cue[1], c[0] - cue[0]) + k * 0.0005, s)
            for c in centres
            for k in (0, -1, 1, -2, 2, -3, 3, -4, 4, -6, 6)
            for s in (2.5, 1.8)
        ]
    else:
        candidates = [(math.radians(a), s) for s in (0.7, 0.9) for a in range(0, 360, 10)]
    for angle, speed in candidates:
        if reach(cue, angle) < 0.2:
            continue  # no room on the cloth to drag the aim
        probes = [
            (angle + da, speed * (1 + ds))
            for da in (0, -ANGLE_SLACK, ANGLE_SLACK)
            for ds in (0, -SPEED_SLACK, SPEED_SLACK)
        ]
        if all(_outcome(state, me, call, a, s) == want for a, s in probes):
            return call, angle, speed
    raise AssertionError(f"no robust strike giving {want} for {me} in {state.get('phase')}")


def reach(cue: tuple[float, float], angle: float) -> float:
    """How far (m) the cloth extends from the cue ball in the direction `angle`."""
    ux, uy = math.cos(angle), math.sin(angle)
    limits = []
    for c, u, top in ((cue[0], ux, driver.L), (cue[1], uy, driver.W)):
        if u > 1e-9:
            limits.append((top - c) / u)
        elif u < -1e-9:
            limits.append(-c / u)
    return min(limits) if limits else 0.0


def aim_on_cloth(page: Any, cue: tuple[float, float], angle: float) -> None:
    """Drag on the cloth in front of the cue ball, as far out as the cloth allows (finer aim)."""
    far = min(0.9, reach(cue, angle) - 0.01)
    near = max(driver.R * 3, far * 0.6)
    assert far > near, "no room to aim on the cloth"
    at = driver.page_mapper(page)
    p0 = at(cue[0] + math.cos(angle) * far, cue[1] + math.sin(angle) * far)
    p1 = at(cue[0] + math.cos(angle) * near, cue[1] + math.sin(angle) * near)
    page.mouse.move(*p0)
    page.mouse.down()
    for i in range(1, driver.AIM_STEPS + 1):
        page.mouse.move(p0[0] + (p1[0] - p0[0]) * i / driver.AIM_STEPS, p0[1] + (p1[1] - p0[1]) * i / driver.AIM_STEPS)
    page.mouse.up()


def settle(page: Any) -> None:
    """Two animation frames: the page has applied the input and redrawn its readouts."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def shown_angle(page: Any) -> float:
    """The aim the page shows (and sends), read from its readout in degrees to 0.01°."""
    settle(page)
    return math.radians(float(page.inner_text(".kz-angle").rstrip("°")))


def refine_aim(page: Any, target: float) -> None:
    """Turn the cue to `target` with the arrow keys, finishing in the fine mode (Shift, 0.1 mrad)."""
    for _ in range(3):
        delta = math.remainder(target - shown_angle(page), 2 * math.pi)
        if abs(delta) < FINE_KEY_STEP:
            return
        key = "ArrowLeft" if delta > 0 else "ArrowRight"  # left turns counter-clockwise
        coarse, rest = divmod(abs(delta), KEY_STEP)
        for _ in range(int(coarse)):
            page.keyboard.press(key)
        for _ in range(round(rest / FINE_KEY_STEP)):
            page.keyboard.press(f"Shift+{key}")
    final = math.remainder(target - shown_angle(page), 2 * math.pi)
    assert abs(final) < 2 * FINE_KEY_STEP, f"aim off by {final} rad"


def play(page: Any, me: str, want: Want) -> None:
    """Call, aim and shoot on the page a strike the engine says gives `want`."""
    state = driver.shown_state(page)
    call, angle, speed = find_strike(state, me, want)
    cue_id = next(p["cue_ball"] for p in state["players"] if p["name"] == me)
    cue = tuple(state["balls"][cue_id])
    make_call(page, state["balls"][call["ball"]], call["pocket"])
    aim_on_cloth(page, cue, angle)
    refine_aim(page, angle)
    page.wait_for_function("() => !document.querySelector('.kz-shoot').disabled", timeout=5000, polling=PAGE_POLL_MS)
    driver.pull_and_release(page, cue, angle, speed)


#: The pockets as the page's English names them (static/game/js/ui/words.js), as the table is drawn.
POCKET_WORDS = {
    "home_right": "bottom left",
    "home_left": "top left",
    "middle_right": "bottom middle",
    "middle_left": "top middle",
    "foot_right": "bottom right",
    "foot_left": "top right",
}
CALL_TEXT = "() => { const t = document.querySelector('.kz-call-text'); return [t.dataset.auto, t.textContent]; }"


def make_call(page: Any, ball_at: list[float], pocket: str) -> None:
    """Click the ball, then the pocket, until the page shows that call as the player's own."""
    words = POCKET_WORDS[pocket]
    seen: list[Any] = []
    for _ in range(3):
        page.wait_for_function(
            "() => { const d = document.querySelector('#kaiza-match').dataset;"
            " return d.animating === 'no' && (d.actions || '').split(' ').includes('shoot'); }",
            timeout=30000,
            polling=PAGE_POLL_MS,
        )
        driver.click_world(page, *ball_at)
        driver.click_world(page, *driver.mouth_centre(pocket))
        settle(page)
        auto, text = page.evaluate(CALL_TEXT)
        if auto == "no" and text.endswith(words):
            return
        seen.append((auto, text))
    raise AssertionError(f"the call {words} never showed: {seen}")


def place(page: Any, me: str) -> None:
    """Ball in hand (the shoot-out's every shot): a legal spot in the home, clicked on the cloth."""
    state = driver.shown_state(page)
    spot = driver.free_spot(state, me, opening=state["phase"] == "opening_placement")
    driver.click_world(page, *spot)
