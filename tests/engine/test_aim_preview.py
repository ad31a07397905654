"""The aim line tells the truth: the browser's preview (static/game/js/aim.js, run under node) against the
engine's (game/engine/physics/aim.py) and both against the engine's shots (``simulate``).

Seeded cut shots into every pocket, aimed with an allowance for throw, a little error and spin, so some go
in and some hit a jaw or a cushion; and the practice position where a geometric ghost ball drew a pot at
19.10° and 19.20° while the red hit the jaw and the cushion.
"""

from __future__ import annotations

import json
import math
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

from game.engine.balls import BallState
from game.engine.physics import Strike, simulate
from game.engine.physics.aim import aim_preview, table_for_client
from game.engine.table import POCKET_IDS, kaisa_table
from tests.support import services

ROOT = Path(__file__).resolve().parents[2]
MIRROR = ROOT / "tests" / "engine" / "aim_mirror.mjs"
TABLE = kaisa_table()
R = TABLE.ball_radius
Layout = dict[str, Any]

#: The practice position of the report (/practice/?p=AjoT8g4K-OQSdpASdpAoIXASdpAdTAASdpA): white1 in
#: the home, the colours on their spots; the red on the rear spot cut into the top right pocket.
PRACTICE: Layout = {
    "white1": (0.80715, 0.219076),
    "white2": None,
    "red1": (0.71, 0.71),
    "red2": (2.13, 0.71),
    "kaisa": (1.42, 0.71),
}


def _inside(p: tuple[float, float], margin: float) -> bool:
    return margin <= p[0] <= TABLE.length - margin and margin <= p[1] <= TABLE.width - margin


def cut_cases(count: int, seed: int) -> list[tuple[Layout, dict[str, Any]]]:
    """Cut shots: an object ball 0.25-1.0 m from a pocket's mouth, the cue ball 0.3-1.2 m away at a cut of
    up to 55°, aimed to send the object ball at the mouth's centre with an error of about 0.05°, at 1-5 m/s
    with up to 0.3 R of side and height. The kaisa lies on the table out of the way when it fits."""
    rng = random.Random(seed)
    out: list[tuple[Layout, dict[str, Any]]] = []
    while len(out) < count:
        pocket = TABLE.pockets[rng.choice(POCKET_IDS)]
        mx, my = pocket.mouth_center
        ax, ay = -pocket.axis[0], -pocket.axis[1]
        spread = math.radians(35 if pocket.id.startswith("middle") else 25)
        heading = math.atan2(ay, ax) + rng.uniform(-spread, spread)
        d = rng.uniform(0.25, 1.0)
        obj = (mx + d * math.cos(heading), my + d * math.sin(heading))
        if not _inside(obj, 2.5 * R):
            continue
        ux, uy = mx - obj[0], my - obj[1]
        n = math.hypot(ux, uy)
        ux, uy = ux / n, uy / n
        cut = math.radians(rng.uniform(-55, 55))
        back = math.atan2(-uy, -ux) + cut
        dc = rng.uniform(0.3, 1.2)
        ghost = (obj[0] - 2 * R * ux, obj[1] - 2 * R * uy)
        cue = (ghost[0] + dc * math.cos(back), ghost[1] + dc * math.sin(back))
        if not _inside(cue, 1.5 * R) or math.dist(cue, obj) < 2.2 * R:
            continue
        layout: Layout = {"white1": cue, "red1": obj, "white2": None, "red2": None, "kaisa": None}
        far = (TABLE.length - obj[0], TABLE.width - obj[1])
        if min(math.dist(far, cue), math.dist(far, obj)) > 0.5 and _inside(far, 2 * R):
            layout["kaisa"] = far
        strike: dict[str, Any] = {
            "ball": "white1",
            "speed": round(rng.uniform(1.0, 5.0), 3),
            "angle": math.atan2(ghost[1] - cue[1], ghost[0] - cue[0]),
            "side": round(rng.uniform(-0.3, 0.3), 3),
            "height": round(rng.uniform(-0.3, 0.3), 3),
        }
        if not allow_for_throw(layout, strike, math.atan2(uy, ux)):
            continue
        strike["angle"] += math.radians(rng.gauss(0, 0.05))
        out.append((layout, strike))
    return out


def allow_for_throw(layout: Layout, strike: dict[str, Any], target: float) -> bool:
    """Turn the aim (secant steps on the engine's preview) until the object ball leaves toward ``target``, as
    a player who has learnt the throw does; False if no such aim was found near the ghost ball's."""

    def off(angle: float) -> float:
        preview = aim_preview(TABLE, layout, Strike(**{**strike, "angle": angle}))
        if preview.direction is None or preview.hit != "red1":
            return math.nan
        return math.remainder(math.atan2(preview.direction[1], preview.direction[0]) - target, math.tau)

    a0, a1 = strike["angle"], strike["angle"] + 1e-3
    f0, f1 = off(a0), off(a1)
    for _ in range(6):
        if not math.isfinite(f1) or f1 == f0:
            break
        a0, f0, a1 = a1, f1, a1 - f1 * (a1 - a0) / (f1 - f0)
        f1 = off(a1)
    strike["angle"] = a1
    return math.isfinite(f1) and abs(f1) < 1e-4


def browser_previews(cases: list[tuple[Layout, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The previews static/game/js/aim.js draws, computed by node from the page's own table."""
    node = shutil.which("node")
    services.require(node is not None, "node is not installed: the browser's aim preview cannot run")
    assert node is not None
    payload = {"table": table_for_client(TABLE), "cases": [{"balls": b, "strike": s} for b, s in cases]}
    done = subprocess.run(
        [node, str(MIRROR)], input=json.dumps(payload), capture_output=True, text=True, check=True, timeout=120
    )
    previews: list[dict[str, Any]] = json.loads(done.stdout)
    return previews


def engine_outcome(layout: Layout, strike: dict[str, Any]) -> dict[str, Any]:
    """What the engine's shot does: the first ball the cue ball hits; that ball's direction as it leaves the
    contact; where it first meets the table (a jaw, a cushion, the capture line) and the pocket it drops
    into, if any, before it touches another ball."""
    balls = {b: BallState(p) for b, p in layout.items() if p is not None}
    shot = simulate(TABLE, balls, Strike(**strike))
    cue = strike["ball"]
    contact = next((e for e in shot.events if e.kind == "ball_ball" and cue in e.balls), None)
    if contact is None:
        return {"hit": None}
    obj = next(b for b in contact.balls if b != cue)
    _pos, (vx, vy) = shot.ball_at(obj, contact.time)
    after = [e for e in shot.events if e.time > contact.time and obj in e.balls]
    kinds = ("ball_pocket", "ball_cushion", "ball_jaw", "ball_ball")
    first = next((e for e in after if e.kind in kinds), None)
    touched = next((e for e in after if e.kind == "ball_ball"), None)
    drop = next((e for e in after if e.kind == "ball_pocket"), None)
    potted = drop is not None and (touched is None or touched.time > drop.time)
    return {
        "hit": obj,
        "direction": math.atan2(vy, vx),
        "first": None if first is None else first.kind,
        "point": shot.final[obj].position if first is None else first.point,
        "pocket": drop.where if potted and drop is not None else None,
    }


def drawn_end(line: dict[str, Any]) -> tuple[float, float]:
    """Where the drawn object-ball line meets the table first: its first jaw, else where it ends."""
    run = line["object"]
    if run["jaws"]:
        return tuple(run["jaws"][0][:2])
    return tuple(run["point"] or run["at"])


def _angle(d: list[float]) -> float:
    return math.atan2(d[1], d[0])


def _degrees_apart(a: float, b: float) -> float:
    return abs(math.degrees(math.remainder(a - b, math.tau)))


def test_aim_line_matches_the_engine() -> None:
    seeded = cut_cases(60, seed=51)
    practice = [
        (PRACTICE, {"ball": "white1", "speed": 2.5, "angle": math.radians(deg), "side": 0.0, "height": 0.0})
        for deg in (19.10, 19.13, 19.20)
    ]
    cases = seeded + practice
    drawn = browser_previews(cases)
    pots, misses = 0, 0
    for (layout, strike), line in zip(cases, drawn, strict=True):
        engine = engine_outcome(layout, strike)
        mirror = aim_preview(TABLE, layout, Strike(**strike)).as_dict()
        # The browser computes what the engine's preview does (its table is rounded to micrometres).
        assert line["hit"] == mirror["hit"] == engine["hit"], (strike, line["hit"], engine["hit"])
        assert _degrees_apart(_angle(line["direction"]), _angle(mirror["direction"])) < 1e-6
        # The drawn object-ball direction is the engine's, throw and squirt included.
        assert _degrees_apart(_angle(line["direction"]), engine["direction"]) < 0.05, strike
        # The pocket verdict is the engine's; the line meets the table where the engine's ball does (or the
        # cue ball, when it catches the object ball up again on the way).
        pocket = line["object"]["where"] if line["object"]["end"] == "pocket" else None
        assert pocket == engine["pocket"], strike
        assert math.dist(drawn_end(line), engine["point"]) < 1e-3, strike
        pots += pocket is not None
        misses += pocket is None
    assert pots >= 10 and misses >= 10, (pots, misses)
    # The report's two angles: a geometric ghost ball drew a pot; the line now shows the jaw and the
    # cushion, as the engine plays them, and the pot between them at 19.13°.
    at_1910, at_1913, at_1920 = drawn[-3:]
    assert at_1910["object"]["jaws"] and at_1910["object"]["end"] != "pocket"
    assert (at_1913["object"]["end"], at_1913["object"]["where"]) == ("pocket", "foot_left")
    assert (at_1920["object"]["end"], at_1920["object"]["where"]) == ("cushion", "foot")
    assert not at_1920["object"]["jaws"]


def _on_cushion(rng: random.Random, gap: float = 1e-6) -> tuple[tuple[float, float], tuple[float, float]]:
    """A centre frozen to a straight cushion (K-6.2: within its tolerance of the nose, away from the jaws),
    and the cushion's normal into the cloth."""
    cushion = rng.choice(TABLE.cushions)
    (ax, ay), (bx, by) = cushion.a, cushion.b
    s = rng.uniform(0.15, 0.85)
    nx, ny = cushion.normal
    return (ax + s * (bx - ax) + (R + gap) * nx, ay + s * (by - ay) + (R + gap) * ny), (nx, ny)


def _touching(at: tuple[float, float], heading: float) -> tuple[float, float]:
    """The centre of a ball touching the one at ``at``, toward ``heading``: a micrometre apart, as the engine
    leaves two balls that came to rest against each other."""
    return (at[0] + (2 * R + 1e-6) * math.cos(heading), at[1] + (2 * R + 1e-6) * math.sin(heading))


def _strike(rng: random.Random, angle: float) -> dict[str, Any]:
    return {
        "ball": "white1",
        "speed": round(rng.uniform(0.8, 5.0), 3),
        "angle": angle,
        "side": round(rng.uniform(-0.3, 0.3), 3),
        "height": round(rng.uniform(-0.4, 0.4), 3),
    }


def frozen_and_touching_cases(count: int, seed: int) -> list[tuple[str, Layout, dict[str, Any]]]:
    """Positions a line from one ball alone gets wrong, each named: an object ball frozen to a cushion, hit
    at a cut that sends it along the rail or off it (rail pots among them); the cue ball frozen to a cushion,
    played into the rail or away from it; the cue ball touching the object ball, played into it (K-6.7);
    and a cluster: the object ball touching another ball."""
    rng = random.Random(seed)
    out: list[tuple[str, Layout, dict[str, Any]]] = []
    kinds = ("object frozen", "cue frozen", "cue touching", "cluster")
    while len(out) < count:
        kind = kinds[len(out) % len(kinds)]
        layout: Layout = {"white1": None, "white2": None, "red1": None, "red2": None, "kaisa": None}
        if kind == "object frozen":
            # Sent along its rail or into it (a frozen ball cannot be cut off its rail): pressed into the
            # rubber, it rolls on along the cushion.
            obj, (nx, ny) = _on_cushion(rng)
            ux, uy = (-ny, nx) if rng.random() < 0.5 else (ny, -nx)
            tilt = rng.uniform(0.0, 1.2)
            leave = math.atan2(math.cos(tilt) * uy - math.sin(tilt) * ny, math.cos(tilt) * ux - math.sin(tilt) * nx)
            ghost = (obj[0] - 2 * R * math.cos(leave), obj[1] - 2 * R * math.sin(leave))
            back = math.atan2(ghost[1] - obj[1], ghost[0] - obj[0]) + rng.uniform(-0.6, 0.6)
            reach = rng.uniform(0.3, 1.0)
            cue = (ghost[0] + reach * math.cos(back), ghost[1] + reach * math.sin(back))
            angle = math.atan2(ghost[1] - cue[1], ghost[0] - cue[0])
        elif kind == "cue frozen":
            cue, (nx, ny) = _on_cushion(rng)
            obj = (rng.uniform(3 * R, TABLE.length - 3 * R), rng.uniform(3 * R, TABLE.width - 3 * R))
            into = rng.random() < 0.6  # into the rail, off it and on: the rubber pressed already (K-6.2)
            angle = (
                math.atan2(-ny, -nx) + rng.uniform(-1.3, 1.3) if into else math.atan2(obj[1] - cue[1], obj[0] - cue[0])
            )
        elif kind == "cue touching":
            cue = (rng.uniform(4 * R, TABLE.length - 4 * R), rng.uniform(4 * R, TABLE.width - 4 * R))
            heading = rng.uniform(-math.pi, math.pi)
            obj = _touching(cue, heading)
            angle = heading + rng.uniform(-1.2, 1.2)
        else:
            obj = (rng.uniform(5 * R, TABLE.length - 5 * R), rng.uniform(5 * R, TABLE.width - 5 * R))
            layout["kaisa"] = _touching(obj, rng.uniform(-math.pi, math.pi))
            if rng.random() < 0.4:
                layout["red2"] = _touching(obj, rng.uniform(-math.pi, math.pi))
            back = rng.uniform(-math.pi, math.pi)
            cue = (obj[0] + rng.uniform(0.3, 0.9) * math.cos(back), obj[1] + rng.uniform(0.3, 0.9) * math.sin(back))
            angle = math.atan2(obj[1] - cue[1], obj[0] - cue[0]) + rng.uniform(-0.04, 0.04)
        layout["white1"], layout["red1"] = cue, obj
        placed = [p for p in layout.values() if p is not None]
        if not all(TABLE.ball_fits(p, 1e-5) for p in placed):
            continue
        if any(math.dist(p, q) < 2 * R for i, p in enumerate(placed) for q in placed[i + 1 :]):
            continue
        strike = _strike(rng, angle)
        if kind == "cue touching" and abs(math.remainder(angle - heading, math.tau)) > 1.0:
            strike["height"] = abs(strike["height"])  # played into it with follow: it may push twice
        out.append((kind, layout, strike))
    return out


def _engine_meets(shot: Any, ball: str, run: dict[str, Any]) -> bool:
    """Does the engine's shot report what the run ends with, for that ball, when and where it says?"""
    kinds = {"ball": "ball_ball", "cushion": "ball_cushion", "jaw": "ball_jaw", "pocket": "ball_pocket"}
    if run["end"] == "rest":
        return any(
            e.kind.endswith(("_to_stationary", "_to_spinning")) and e.balls == (ball,) and e.time == run["time"]
            for e in shot.events
        )
    return any(
        e.kind == kinds.get(run["end"])
        and ball in e.balls
        and e.time == run["time"]
        and (run["end"] != "ball" or run["where"] in e.balls)
        and (run["end"] == "ball" or e.where == run["where"])
        and math.dist(e.point, run["point"]) < 1e-9
        for e in shot.events
    )


def _path_is_the_engines(shot: Any, ball: str, run: dict[str, Any]) -> bool:
    """The run's pieces put the ball where the engine's segments do, all along it. (At a contact the engine's
    next segment starts a micrometre clear of it: 2 µm.)"""
    for t0, t1, x, y, vx, vy, ax, ay in run["pieces"]:
        for k in range(5):
            s = (t1 - t0) * k / 4
            at = (x + (vx + 0.5 * ax * s) * s, y + (vy + 0.5 * ay * s) * s)
            if math.dist(at, shot.position_at(ball, t0 + s)) > 2e-6:
                return False
    return math.dist(run["at"], shot.position_at(ball, run["time"])) < 2e-6


def test_frozen_and_touching_balls_preview_as_the_engine_plays_them() -> None:
    """K-6.2's resting contact and K-6.7's touching balls: a ball frozen to a cushion and pushed into it rolls
    on along the rail (the engine reports no cushion contact), a cue ball frozen to a rail is played off it,
    a cluster is pushed at the impact and the object ball goes on. The preview follows each ball as the
    engine's shot moves it and ends where the engine reports the ball's first contact or its rest; the
    browser's mirror draws the same."""
    cases = frozen_and_touching_cases(64, seed=62)
    drawn = browser_previews([(layout, strike) for _, layout, strike in cases])
    along_rail = off_rail = clusters = 0
    for (kind, layout, strike), line in zip(cases, drawn, strict=True):
        preview = aim_preview(TABLE, layout, Strike(**strike)).as_dict()
        shot = simulate(TABLE, {b: BallState(p) for b, p in layout.items() if p is not None}, Strike(**strike))
        runs = [("white1", preview["cue"], line["cue"])]
        if preview["hit"] is not None:
            runs += [
                (preview["hit"], preview["object"], line["object"]),
                ("white1", preview["cue_after"], line["cueAfter"]),
            ]
        assert line["hit"] == preview["hit"], (kind, strike)
        first = next((e for e in shot.events if e.kind == "ball_ball"), None)
        assert preview["hit"] == (None if first is None or preview["cue"]["end"] != "ball" else preview["cue"]["where"])
        for ball, run, mirrored in runs:
            # Where the engine's ball is, and the contact it reports: never a resting contact (no event).
            assert _engine_meets(shot, ball, run), (kind, strike, ball, run["end"], run["where"], run["time"])
            assert _path_is_the_engines(shot, ball, run), (kind, strike, ball)
            # The browser's mirror: the same end, at the same time and place (its table is rounded to
            # micrometres: a jaw met a few nanoseconds apart).
            assert (mirrored["end"], mirrored["where"]) == (run["end"], run["where"]), (kind, strike, ball)
            assert abs(mirrored["time"] - run["time"]) < 1e-5 and math.dist(mirrored["at"], run["at"]) < 1e-5
        if preview["direction"] is not None:
            assert _degrees_apart(_angle(line["direction"]), _angle(preview["direction"])) < 1e-6
        obj = preview["object"]
        went_on = obj is not None and obj["time"] - preview["cue"]["time"] > 0.05
        along_rail += kind == "object frozen" and went_on
        clusters += kind == "cluster" and went_on
        off_rail += kind == "cue frozen" and preview["hit"] is not None
    # The cases do what they are for: frozen object balls driven along or into their rail and going on,
    # cue balls played off the rail they were frozen to onto a ball, clusters whose object ball goes on
    # past the impact.
    assert along_rail >= 10 and off_rail >= 5 and clusters >= 10, (along_rail, off_rail, clusters)
