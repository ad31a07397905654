"""Drive the match page like a player: everything goes through the canvas and the buttons.

World coordinates (metres) are turned into page pixels with the transform the page publishes on the
canvas (`data-transform`); the shots to play are chosen with the engine's own call checks so the test
plays legal Kaisa, and the ghost-ball aim is computed here independently of the client's geometry.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from game.engine.rules import Match, RuleError
from game.engine.strike_limits import STRIKE_LIMITS
from game.engine.table import kaisa_table
from tests.support.services import PAGE_POLL_MS

TABLE = kaisa_table()
R = TABLE.ball_radius
L, W = TABLE.length, TABLE.width
# The page's softest stroke and longest pull (static/game/js/state.js, input/pointer.js); the top speed is
# the server's (constraints.strike_limits), so the driver reads the engine's one home for it.
MIN_SPEED, MAX_PULL = 0.2, 0.3
MAX_SPEED = STRIKE_LIMITS.max_speed
# Pointer moves in a drag: the cue points at the pointer's last place and the pull's power is its last
# distance, so a few steps make the gesture; each is a round trip and frames on every page.
AIM_STEPS, PULL_STEPS = 3, 3


def root_data(page: Any) -> dict[str, str]:
    return page.evaluate("() => ({...document.querySelector('#kaiza-match').dataset})")


def page_mapper(page: Any) -> Callable[[float, float], tuple[float, float]]:
    """World metres to page pixels with the transform the page publishes now: read once for a whole
    gesture (each read is a round trip to the page)."""
    info = page.evaluate(
        """() => { const c = document.querySelector('.kz-canvas'); const r = c.getBoundingClientRect();
                   return {m: JSON.parse(c.dataset.transform), left: r.left, top: r.top}; }"""
    )
    m, left, top = info["m"], info["left"], info["top"]
    return lambda x, y: (left + m["a"] * x + m["c"] * y + m["e"], top + m["b"] * x + m["d"] * y + m["f"])


def to_page(page: Any, x: float, y: float) -> tuple[float, float]:
    return page_mapper(page)(x, y)


def wait_ready(page: Any, timeout: float = 30.0) -> None:
    page.wait_for_function(
        "() => { const d = document.querySelector('#kaiza-match').dataset; return d.version && d.animating === 'no'; }",
        timeout=timeout * 1000,
        polling=PAGE_POLL_MS,
    )


def wait_version(page: Any, version: int, timeout: float = 60.0) -> None:
    page.wait_for_function(
        "(v) => { const d = document.querySelector('#kaiza-match').dataset;"
        " return Number(d.version) >= v && d.animating === 'no'; }",
        arg=version,
        timeout=timeout * 1000,
        polling=PAGE_POLL_MS,
    )


def _root_field(page: Any, name: str) -> str:
    """One of the match root's data fields (root_data carries them all, the whole shown state too)."""
    return str(page.evaluate("(name) => document.querySelector('#kaiza-match').dataset[name] || ''", name))


def actions(page: Any) -> list[str]:
    return _root_field(page, "actions").split()


def balls(page: Any) -> dict[str, list[float] | None]:
    return json.loads(root_data(page).get("balls") or "{}")


def power_for(speed: float) -> float:
    return math.sqrt((speed - MIN_SPEED) / (MAX_SPEED - MIN_SPEED))


def pull(page: Any, cue: tuple[float, float], angle: float, speed: float) -> None:
    """Press and hold the cue ball until the page shows the pull-back's power meter (a press alone is
    no pull), then draw the cue straight back, still held (`page.mouse.up()` shoots)."""
    pulled = power_for(speed) * MAX_PULL
    at = page_mapper(page)
    sx, sy = at(*cue)
    ex, ey = at(cue[0] - math.cos(angle) * pulled, cue[1] - math.sin(angle) * pulled)
    page.mouse.move(sx, sy)
    page.mouse.down()
    page.wait_for_function(
        "() => document.querySelector('.kz-pullmeter:not([hidden])') !== null", timeout=5000, polling=PAGE_POLL_MS
    )
    # The power is the pointer's last distance from the press: a few steps draw it back as a hand does
    # (each step is a round trip and frames on every page).
    for i in range(1, PULL_STEPS + 1):
        page.mouse.move(sx + (ex - sx) * i / PULL_STEPS, sy + (ey - sy) * i / PULL_STEPS)


def pull_and_release(page: Any, cue: tuple[float, float], angle: float, speed: float) -> None:
    """Press on the cue ball, draw the cue straight back, let go: the shot."""
    pull(page, cue, angle, speed)
    page.mouse.up()


def shown_aim(page: Any) -> float | None:
    """The aim the page shows in its readout (radians), or None where the readout is hidden (a phone)."""
    readout = page.query_selector(".kz-angle")
    if readout is None or not readout.is_visible():
        return None
    try:
        return math.radians(float(readout.inner_text().rstrip("°")))
    except ValueError:
        return None


def aim(page: Any, cue: tuple[float, float], angle: float) -> None:
    """Drag on the cloth away from the cue ball: the cue turns to point at the finger.

    The press must be on the cloth, not on the drawn cue: a drag that starts on the cue swings it round
    the ball instead, and the cue lies behind the ball, along the aim + pi, which is just where
    the old aim's opposite would press. So the drag starts beside the wanted line, off the cue's, on the
    table, and ends on the wanted line."""
    current = shown_aim(page)
    cue_line = None if current is None else current + math.pi

    def on_table(x: float, y: float) -> bool:
        return -0.03 <= x <= L + 0.03 and -0.03 <= y <= W + 0.03

    def clear_of_cue(a: float) -> bool:
        return cue_line is None or abs(math.remainder(a - cue_line, 2 * math.pi)) > 0.3

    start, radius = angle + 0.5, 0.6
    for r in (0.6, 0.4, 0.25):
        picks = [angle + d for d in (0.5, -0.5, 1.0, -1.0)]
        fits = [a for a in picks if clear_of_cue(a) and on_table(cue[0] + math.cos(a) * r, cue[1] + math.sin(a) * r)]
        if fits:
            start, radius = fits[0], r
            break
    at = page_mapper(page)
    page.mouse.move(*at(cue[0] + math.cos(start) * radius, cue[1] + math.sin(start) * radius))
    page.mouse.down()
    for i in range(1, AIM_STEPS + 1):
        a = start + (angle - start) * i / AIM_STEPS
        page.mouse.move(*at(cue[0] + math.cos(a) * radius, cue[1] + math.sin(a) * radius))
    page.mouse.up()


def sweep(page: Any, cue: tuple[float, float], start: float, end: float, steps: int = 24) -> None:
    """Press on the cloth away from the cue ball and turn the cue from `start` to `end` radians, a
    step every 25 ms (the page sends its aims as it would for a person's drag)."""

    def at(angle: float) -> tuple[float, float]:
        return to_page(page, cue[0] + math.cos(angle) * 0.7, cue[1] + math.sin(angle) * 0.7)

    page.mouse.move(*at(start))
    page.mouse.down()
    for i in range(1, steps + 1):
        page.mouse.move(*at(start + (end - start) * i / steps))
        page.wait_for_timeout(25)
    page.mouse.up()


#: The other player's cue angle as the page draws it ("" when it draws none).
DRAWN_REMOTE_AIM = "() => document.querySelector('canvas').dataset.remoteAim || ''"


def click_world(page: Any, x: float, y: float) -> None:
    page.mouse.click(*to_page(page, x, y))


def mouth_centre(pocket_id: str) -> tuple[float, float]:
    (x1, y1), (x2, y2) = TABLE.pockets[pocket_id].mouth
    return ((x1 + x2) / 2, (y1 + y2) / 2)


def _clear(a: tuple[float, float], b: tuple[float, float], others: list[tuple[float, float]]) -> bool:
    """No ball centre within 2R of the segment a-b (a ball travelling a->b touches none)."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    n2 = dx * dx + dy * dy or 1e-12
    for ox, oy in others:
        t = max(0.0, min(1.0, ((ox - ax) * dx + (oy - ay) * dy) / n2))
        if math.hypot(ax + t * dx - ox, ay + t * dy - oy) < 2 * R + 0.004:
            return False
    return True


def side_of(state: dict[str, Any], me: str) -> int:
    """My side in the state: my seat, or in a team match my team (docs/teams.md)."""
    names = [p["name"] for p in state["players"]]
    if me in names:
        return names.index(me)
    return next(i for i, members in enumerate(state.get("teams") or []) if me in members)


def my_cue_ball(state: dict[str, Any], me: str) -> str | None:
    cue: str | None = state["players"][side_of(state, me)]["cue_ball"]
    return cue


def choose_shot(state: dict[str, Any], me: str) -> tuple[str, str, float] | None:
    """A legal call (ball, pocket) with a clear straight ghost-ball line, and the aim angle."""
    engine = Match.from_snapshot({k: v for k, v in state.items() if k != "pending"})
    cue_id = my_cue_ball(state, me)
    positions = {k: tuple(v) for k, v in state["balls"].items() if v}
    cue = positions[cue_id]
    best: tuple[float, str, str, float] | None = None
    for ball in engine.callable_balls():
        if ball == cue_id or ball not in positions:
            continue
        for pocket in engine.legal_pockets(ball):
            try:
                engine.check_call(me, {"ball": ball, "pocket": pocket})
            except RuleError:
                continue
            target = positions[ball]
            mx, my = mouth_centre(pocket)
            d = math.hypot(mx - target[0], my - target[1])
            ux, uy = (mx - target[0]) / d, (my - target[1]) / d
            ghost = (target[0] - ux * 2 * R, target[1] - uy * 2 * R)
            vx, vy = ghost[0] - cue[0], ghost[1] - cue[1]
            dist = math.hypot(vx, vy)
            if dist < 3 * R:
                continue
            cut = math.degrees(math.acos(max(-1.0, min(1.0, (vx * ux + vy * uy) / dist))))
            if cut > 50:
                continue
            others = [p for k, p in positions.items() if k not in (cue_id, ball)]
            if not _clear(cue, ghost, others) or not _clear(target, (mx, my), others):
                continue
            score = cut + 10 * (dist + d)
            if best is None or score < best[0]:
                best = (score, ball, pocket, math.atan2(vy, vx))
    return None if best is None else (best[1], best[2], best[3])


def free_spot(state: dict[str, Any], me: str, opening: bool) -> tuple[float, float]:
    """A legal placement for my cue ball: in the home, or past the centre for the opening (K-3.3)."""
    engine = Match.from_snapshot({k: v for k, v in state.items() if k != "pending"})
    cue_id = my_cue_ball(state, me) or "white2"
    xs = [2.6, 2.45, 2.3] if opening else [0.45, 0.3, 0.6, 0.2]
    ys = [0.71, 0.45, 0.95, 0.3, 1.1] if opening else [0.3, 0.5, 1.0, 0.2, 1.2, 0.71]
    for x in xs:
        for y in ys:
            try:
                probe = Match.from_snapshot(engine.snapshot())
                probe.place(me, cue_id, (x, y))
                return (x, y)
            except RuleError:
                continue
    raise AssertionError("no legal spot found")


def shown_state(page: Any) -> dict[str, Any]:
    return json.loads(root_data(page).get("state") or "null")


def version(page: Any) -> int:
    return int(_root_field(page, "version") or 0)


def lag_strike(state: dict[str, Any], me: str, lag_speed: float = 2.3) -> tuple[tuple[float, float], float]:
    """Where `me` lags from and how hard: the two players' speeds differ, or the lag is a tie."""
    seat = side_of(state, me)
    start = (round(TABLE.home_line_x / 2, 6), round(W / 4 if seat == 0 else 3 * W / 4, 6))
    return start, lag_speed + 0.35 * seat


def take_turn(page: Any, me: str, lag_speed: float = 2.3, shot_speed: float = 2.4) -> str:
    """Do whatever the page says is my move; returns the action played."""
    act = actions(page)[0]
    state = shown_state(page)
    if act == "lag":
        start, speed = lag_strike(state, me, lag_speed)
        aim(page, start, 0.0)
        pull_and_release(page, start, 0.0, speed)
    elif act == "choose_break":
        page.click(".kz-take-break")
    elif act == "place":
        spot = free_spot(state, me, opening=state["phase"] == "opening_placement")
        click_world(page, *spot)
    elif act == "shoot":
        cue_id = my_cue_ball(state, me)
        cue = tuple(state["balls"][cue_id])
        pick = choose_shot(state, me)
        if pick is None:
            # Nothing clean: call any legal pot and hit that ball full.
            engine = Match.from_snapshot({k: v for k, v in state.items() if k != "pending"})
            for ball in engine.callable_balls():
                pockets = [p for p in engine.legal_pockets(ball) if _call_ok(engine, me, ball, p)]
                if ball != cue_id and state["balls"].get(ball) and pockets:
                    tx, ty = state["balls"][ball]
                    pick = (ball, pockets[0], math.atan2(ty - cue[1], tx - cue[0]))
                    break
        assert pick is not None, "no legal call at all"
        ball, pocket, angle = pick
        click_world(page, *state["balls"][ball])
        click_world(page, *mouth_centre(pocket))
        aim(page, cue, angle)
        page.wait_for_function(
            "() => !document.querySelector('.kz-shoot').disabled", timeout=5000, polling=PAGE_POLL_MS
        )
        pull_and_release(page, cue, angle, shot_speed)
    return act


def _call_ok(engine: Match, me: str, ball: str, pocket: str) -> bool:
    try:
        engine.check_call(me, {"ball": ball, "pocket": pocket})
    except RuleError:
        return False
    return True


def same_view(pages: list[Any]) -> tuple[str, str]:
    """Scores and ball positions every page shows; asserts they agree."""
    seen = [(root_data(p).get("scores"), root_data(p).get("balls"), root_data(p).get("version")) for p in pages]
    assert all(s == seen[0] for s in seen), f"the views differ: {seen}"
    return seen[0][0], seen[0][1]
