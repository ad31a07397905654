"""The event loop: from a ball layout and a strike to a finished ``Shot``.

Leckie & Greenspan's event-based scheme (as in pooltool): every ball follows its closed-form polynomial;
the next event is the earliest of all cached candidates (motion transitions, ball-ball contacts, table
contacts); only the balls of that event get new polynomials, and only the candidates that involve them
are recomputed (pooltool PR #133), so an event costs O(N) and not O(N^2).

Robustness (pooltool issues #39, #78, #154, #217, #257, PR #354):
- contact times only count while the bodies approach; touching bodies that separate are left alone;
- after every contact the bodies are moved a micrometre apart, and a start layout is de-penetrated;
- a slight overlap (from rounding) that starts to close counts as a contact now, so nothing tunnels;
- ties are ordered by (time, tier, ids) and balls are iterated in ``BALL_IDS`` order, never over sets;
- at most ``max_events`` events and ``max_time`` seconds: beyond that ``SimulationCapError``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from game.engine.balls import BALL_IDS, BallState
from game.engine.physics.collisions.ball_ball import resolve_ball_ball
from game.engine.physics.collisions.cushion import resolve_cushion
from game.engine.physics.cue import launch
from game.engine.physics.errors import SimulationCapError, StrikeError
from game.engine.physics.events import (
    TIER_COLLISION,
    TIER_POCKET,
    TIER_TRANSITION,
    Event,
    pair_time,
    table_time,
)
from game.engine.physics.geometry import CAPTURE, KIND_NAMES, geometry_for
from game.engine.physics.motion import POCKETED, ROLLING, SLIDING, SPINNING, STATE_NAMES, MovingBall
from game.engine.physics.params import PhysicsParams
from game.engine.physics.segments import Shot
from game.engine.physics.strike import Strike
from game.engine.table import TableSpec

#: Changes whenever physics results change (models, defaults, geometry, rounding).
ENGINE_VERSION = "kaiza-physics-1"

_INF = math.inf
#: How far (m) a start position may lie off the cloth or inside another ball and still be nudged back;
#: more than that is an impossible layout.
_START_SLACK = 5e-4

Candidate = tuple[float, int, int, int]


def _check_layout(table: TableSpec, balls: Mapping[str, BallState]) -> list[str]:
    unknown = [b for b in balls if b not in BALL_IDS]
    if unknown:
        raise StrikeError(f"unknown ball id(s): {', '.join(sorted(map(str, unknown)))}")
    ids = [b for b in BALL_IDS if b in balls]
    for ball_id in ids:
        state = balls[ball_id]
        numbers = (*state.position, *state.velocity, *state.spin)
        if not all(math.isfinite(v) for v in numbers):
            raise StrikeError(f"{ball_id}: non-finite position, velocity or spin")
    return ids


def _start_positions(table: TableSpec, balls: Mapping[str, BallState], ids: list[str]) -> list[list[float]]:
    """Start centres, nudged onto the cloth and out of each other (de-penetration, issue #217).

    A ball left hanging in a pocket's jaws by the previous shot keeps its place; any other centre off the
    cloth by more than ``_START_SLACK`` is an impossible layout.
    """
    R = table.ball_radius
    lo_x, hi_x, lo_y, hi_y = R, table.length - R, R, table.width - R
    pos: list[list[float]] = []
    hanging: list[bool] = []
    for ball_id in ids:
        x, y = balls[ball_id].position
        on_cloth = lo_x - _START_SLACK <= x <= hi_x + _START_SLACK and lo_y - _START_SLACK <= y <= hi_y + _START_SLACK
        in_jaws = not on_cloth and table.ball_position_valid((x, y), tolerance=1e-6)
        if not (on_cloth or in_jaws):
            raise StrikeError(f"{ball_id} is not on the cloth")
        hanging.append(in_jaws)
        pos.append([x, y] if in_jaws else [min(max(x, lo_x), hi_x), min(max(y, lo_y), hi_y)])
    D = 2.0 * R
    for _ in range(20):
        moved = False
        for i in range(len(ids)):
            for j in range(i + 1, len(ids)):
                dx, dy = pos[j][0] - pos[i][0], pos[j][1] - pos[i][1]
                dist = math.hypot(dx, dy)
                if dist >= D:
                    continue
                if D - dist > _START_SLACK:
                    raise StrikeError(f"{ids[i]} and {ids[j]} overlap")
                if dist == 0.0:
                    dx, dy, dist = 1.0, 0.0, 1.0
                push = 0.5 * (D - dist) + 1e-9
                ux, uy = dx / dist, dy / dist
                for k, sign in ((i, -1.0), (j, 1.0)):
                    nx, ny = pos[k][0] + sign * push * ux, pos[k][1] + sign * push * uy
                    if not hanging[k]:
                        nx, ny = min(max(nx, lo_x), hi_x), min(max(ny, lo_y), hi_y)
                    pos[k] = [nx, ny]
                moved = True
        if not moved:
            break
    return pos


def simulate(
    table: TableSpec,
    balls: Mapping[str, BallState],
    strike: Strike | None = None,
    params: PhysicsParams = PhysicsParams(),  # noqa: B008 - frozen, immutable default
) -> Shot:
    """Simulate one shot until every ball rests (or drops); see ARCHITECTURE.md 3 for the contract.

    Raises StrikeError for bad input and SimulationCapError when a cap is hit.
    """
    ids = _check_layout(table, balls)
    if strike is not None and strike.ball not in balls:
        raise StrikeError(f"struck ball {strike.ball!r} is not on the table")
    geo = geometry_for(table)
    R = table.ball_radius
    D = 2.0 * R
    sep = params.separation
    g = params.g
    u_s_g, u_r_g = params.u_s * g, params.u_r * g
    n = len(ids)
    movers = [MovingBall(i, ids[i], R, params.spin_decel, u_s_g, u_r_g) for i in range(n)]
    starts = _start_positions(table, balls, ids)
    events: list[Event] = []
    launch_state = None
    if strike is not None:
        launch_state = launch(strike.speed, strike.angle, strike.side, strike.height, R, table.ball_mass, params)
    for i, b in enumerate(movers):
        state = balls[ids[i]]
        x, y = starts[i]
        if launch_state is not None and strike is not None and ids[i] == strike.ball:
            vx, vy, wx, wy, wz = launch_state
            ca, sa = math.cos(strike.angle), math.sin(strike.angle)
            events.append(Event(0.0, "strike", (ids[i],), None, (x - R * ca, y - R * sa)))
        else:
            vx, vy = state.velocity
            wx, wy, wz = state.spin
        b.set_motion(0.0, x, y, vx, vy, wx, wy, wz)

    lines = geo.lines
    rounds = geo.rounds
    n_lines = len(lines)
    sin_t, cos_t = geo.sin_t, geo.cos_t
    e_b, u_b_a, u_b_b, u_b_c = params.e_b, params.u_b_a, params.u_b_b, params.u_b_c
    e_c, f_c = params.e_c, params.f_c
    max_events, max_time = params.max_events, params.max_time
    ix0, ix1, iy0, iy1 = geo.inner

    trans: list[Candidate] = [(_INF, 0, 0, 0)] * n
    table_c: list[Candidate] = [(_INF, 0, 0, 0)] * n
    pair_c: dict[tuple[int, int], Candidate] = {}
    active = [True] * n

    def drop(i: int, t: float, where: str, x: float, y: float) -> None:
        """The ball leaves the table into pocket `where` (the capture line, or at rest over the hole)."""
        b = movers[i]
        b.state = POCKETED
        b.t_end = _INF
        active[i] = False
        pocketed[b.id] = where
        drops[b.id] = (t, where)
        events.append(Event(t, "ball_pocket", (b.id,), where, (x, y)))

    def refresh(involved: list[int], now: float) -> None:
        for i in involved:
            b = movers[i]
            if not active[i]:
                trans[i] = table_c[i] = (_INF, 0, 0, 0)
                for j in range(n):
                    if j != i:
                        pair_c[(i, j) if i < j else (j, i)] = (_INF, 0, 0, 0)
                continue
            trans[i] = (b.t_end, TIER_TRANSITION, i, -1)
            t, feature, kind = table_time(b, now, geo)
            tier = TIER_POCKET if kind == CAPTURE else TIER_COLLISION
            table_c[i] = (t, tier, i, 100 + feature)
        done = set()
        for i in involved:
            for j in range(n):
                if j == i or not active[j] or not active[i]:
                    continue
                key = (i, j) if i < j else (j, i)
                if key in done:
                    continue
                done.add(key)
                t = pair_time(movers[key[0]], movers[key[1]], now, D)
                pair_c[key] = (t, TIER_COLLISION, key[0], key[1])

    for i in range(n):
        for j in range(i + 1, n):
            pair_c[(i, j)] = (_INF, 0, 0, 0)
    refresh(list(range(n)), 0.0)
    pair_keys = sorted(pair_c)

    pocketed: dict[str, str] = {}
    drops: dict[str, tuple[float, str]] = {}
    count = 0
    now = 0.0
    while True:
        best = min(trans) if n else (_INF, 0, 0, 0)
        cand = min(table_c) if n else best
        if cand < best:
            best = cand
        for key in pair_keys:
            cand = pair_c[key]
            if cand < best:
                best = cand
        t = best[0]
        if t == _INF:
            break
        if t > max_time:
            raise SimulationCapError(f"shot still moving after {max_time} s of simulated time")
        count += 1
        if count > max_events:
            raise SimulationCapError(f"shot exceeded {max_events} events")
        if t < now:
            t = now
        now = t
        tier, i, j = best[1], best[2], best[3]
        b = movers[i]
        if tier == TIER_TRANSITION:
            old = b.state
            x, y, vx, vy, wx, wy, wz = b.kinematics(t)
            if old == SLIDING:
                wx, wy = -vy / R, vx / R
            elif old == ROLLING:
                vx = vy = wx = wy = 0.0
            else:
                wz = 0.0
            new = b.set_motion(t, x, y, vx, vy, wx, wy, wz)
            events.append(Event(t, f"{STATE_NAMES[old]}_to_{STATE_NAMES[new]}", (b.id,)))
            if new <= SPINNING and not (ix0 <= x <= ix1 and iy0 <= y <= iy1):
                # At rest in a pocket's jaws: it stays there unless its centre is beyond the line through
                # the jaw tip centres, i.e. over the hole (it can only get there between the jaws).
                mouth = min(geo.mouths, key=lambda m: (m[1] - x) ** 2 + (m[2] - y) ** 2)
                if (x - mouth[1]) * mouth[3] + (y - mouth[2]) * mouth[4] > 0.0:
                    drop(i, t, mouth[0], x, y)
            refresh([i], t)
        elif j < 100:
            b2 = movers[j]
            x1, y1, v1x, v1y, w1x, w1y, w1z = b.kinematics(t)
            x2, y2, v2x, v2y, w2x, w2y, w2z = b2.kinematics(t)
            dx, dy = x2 - x1, y2 - y1
            dist = math.hypot(dx, dy)
            if dist == 0.0:
                dx, dy, dist = 1.0, 0.0, 1.0
            nx, ny = dx / dist, dy / dist
            (a1x, a1y, a1wx, a1wy, a1wz), (a2x, a2y, a2wx, a2wy, a2wz) = resolve_ball_ball(
                nx, ny, (v1x, v1y), (w1x, w1y, w1z), (v2x, v2y), (w2x, w2y, w2z), R, e_b, u_b_a, u_b_b, u_b_c
            )
            cpx, cpy = x1 + 0.5 * dist * nx, y1 + 0.5 * dist * ny
            if dist < D + sep:
                push = 0.5 * (D + sep - dist)
                x1, y1 = x1 - push * nx, y1 - push * ny
                x2, y2 = x2 + push * nx, y2 + push * ny
            first_speed = v1x * nx + v1y * ny
            second_speed = -(v2x * nx + v2y * ny)
            order = (b.id, b2.id) if first_speed >= second_speed else (b2.id, b.id)
            b.set_motion(t, x1, y1, a1x, a1y, a1wx, a1wy, a1wz)
            b2.set_motion(t, x2, y2, a2x, a2y, a2wx, a2wy, a2wz)
            events.append(Event(t, "ball_ball", order, None, (cpx, cpy)))
            refresh([i, j], t)
        else:
            feature = j - 100
            x, y, vx, vy, wx, wy, wz = b.kinematics(t)
            if feature < n_lines:
                kind, where, lax, lay, lnx, lny, _dx, _dy, _length, offset, _box = lines[feature]
                if kind == CAPTURE:
                    drop(i, t, where, x, y)
                    refresh([i], t)
                    continue
                kx, ky = -lnx, -lny
                px, py = x + R * kx, y + R * ky
                gap = lnx * (x - lax) + lny * (y - lay) - offset
                if gap < sep:
                    x += (sep - gap) * lnx
                    y += (sep - gap) * lny
            else:
                where, cx, cy, reach, _box = rounds[feature - n_lines]
                kind = 1
                dx, dy = cx - x, cy - y
                dist = math.hypot(dx, dy)
                kx, ky = dx / dist, dy / dist
                px, py = x + R * kx, y + R * ky
                if dist < reach + sep:
                    x -= (reach + sep - dist) * kx
                    y -= (reach + sep - dist) * ky
            nvx, nvy, nwx, nwy, nwz = resolve_cushion(kx, ky, (vx, vy), (wx, wy, wz), R, sin_t, cos_t, e_c, f_c)
            b.set_motion(t, x, y, nvx, nvy, nwx, nwy, nwz)
            events.append(Event(t, KIND_NAMES[kind], (b.id,), where, (px, py)))
            refresh([i], t)

    final: dict[str, BallState] = {}
    exact: dict[str, list[tuple[float, float, float, float, float, float, float]]] = {}
    for b in movers:
        segs = b.segments
        if b.state != POCKETED:
            rx, ry = round(b.x, 6) + 0.0, round(b.y, 6) + 0.0
            final[b.id] = BallState((rx, ry))
            last = segs[-1]
            if last[3] == 0.0 and last[4] == 0.0 and last[5] == 0.0 and last[6] == 0.0:
                segs[-1] = (last[0], rx, ry, 0.0, 0.0, 0.0, 0.0)
            else:
                segs.append((now, rx, ry, 0.0, 0.0, 0.0, 0.0))
        exact[b.id] = segs
    duration = events[-1].time if events else 0.0
    return Shot(events, final, pocketed, duration, exact, drops, ENGINE_VERSION)
