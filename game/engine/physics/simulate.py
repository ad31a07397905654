"""One shot: from a ball layout and a strike to a finished ``Shot`` (the loop itself is ``event_loop.py``).

Leckie & Greenspan's event-based scheme (as in pooltool): every ball follows its closed-form polynomial;
the next event is the earliest of all cached candidates (motion transitions, ball-ball contacts, table
contacts); only the balls of that event get new polynomials, and only the candidates that involve them
are recomputed (https://github.com/ekiefl/pooltool/pull/133), so an event costs O(N) and not O(N^2).

Robustness (the failures pooltool met and fixed:
https://github.com/ekiefl/pooltool/issues/39, https://github.com/ekiefl/pooltool/issues/78,
https://github.com/ekiefl/pooltool/issues/154, https://github.com/ekiefl/pooltool/issues/217,
https://github.com/ekiefl/pooltool/issues/257, https://github.com/ekiefl/pooltool/pull/354):
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
from game.engine.event_kinds import EventKind
from game.engine.physics.cue import launch
from game.engine.physics.errors import StrikeError
from game.engine.physics.event_loop import EventLoop
from game.engine.physics.events import Event
from game.engine.physics.geometry import geometry_for
from game.engine.physics.motion import POCKETED, MovingBall
from game.engine.physics.params import PhysicsParams
from game.engine.physics.segments import ExactSegment, Shot
from game.engine.physics.strike import Strike
from game.engine.table import TableSpec

#: Changes whenever physics results change (models, defaults, geometry, rounding).
ENGINE_VERSION = "kaiza-physics-2"

#: How far (m) a start position may lie off the cloth or inside another ball and still be nudged back;
#: more than that is an impossible layout.
_START_SLACK = 5e-4


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
    """Start centres, nudged onto the cloth and out of each other (de-penetration, as
    https://github.com/ekiefl/pooltool/issues/217 asks).

    A ball left hanging in a pocket's jaws by the previous shot keeps its place; any other centre off the
    cloth by more than ``_START_SLACK`` is an impossible layout.
    """
    R = table.ball_radius
    bounds = (R, table.length - R, R, table.width - R)
    pos, hanging = _placed_on_cloth(table, balls, ids, bounds)
    D = 2.0 * R
    for _ in range(20):
        moved = False
        for i in range(len(ids)):
            for j in range(i + 1, len(ids)):
                moved = _pushed_apart(pos, hanging, ids, i, j, D, bounds) or moved
        if not moved:
            break
    return pos


#: The cloth's rectangle for a ball's centre (m): lowest x, highest x, lowest y, highest y.
_Bounds = tuple[float, float, float, float]


def _placed_on_cloth(
    table: TableSpec, balls: Mapping[str, BallState], ids: list[str], bounds: _Bounds
) -> tuple[list[list[float]], list[bool]]:
    """Each centre clamped onto the cloth, and whether the ball hangs in a pocket's jaws (then it keeps
    its place: clamping would pull it out of the pocket it is falling into)."""
    lo_x, hi_x, lo_y, hi_y = bounds
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
    return pos, hanging


def _pushed_apart(
    pos: list[list[float]], hanging: list[bool], ids: list[str], i: int, j: int, D: float, bounds: _Bounds
) -> bool:
    """Push balls ``i`` and ``j`` apart along their line of centres when they overlap by rounding (each
    half the overlap, plus a nanometre); whether they moved. A deeper overlap is an impossible layout."""
    dx, dy = pos[j][0] - pos[i][0], pos[j][1] - pos[i][1]
    dist = math.hypot(dx, dy)
    if dist >= D:
        return False
    if D - dist > _START_SLACK:
        raise StrikeError(f"{ids[i]} and {ids[j]} overlap")
    if dist == 0.0:
        dx, dy, dist = 1.0, 0.0, 1.0
    push = 0.5 * (D - dist) + 1e-9
    ux, uy = dx / dist, dy / dist
    lo_x, hi_x, lo_y, hi_y = bounds
    for k, sign in ((i, -1.0), (j, 1.0)):
        nx, ny = pos[k][0] + sign * push * ux, pos[k][1] + sign * push * uy
        if not hanging[k]:
            nx, ny = min(max(nx, lo_x), hi_x), min(max(ny, lo_y), hi_y)
        pos[k] = [nx, ny]
    return True


def simulate(
    table: TableSpec,
    balls: Mapping[str, BallState],
    strike: Strike | None = None,
    params: PhysicsParams = PhysicsParams(),  # noqa: B008 - frozen, immutable default
) -> Shot:
    """Simulate one shot until every ball rests (or drops); see ARCHITECTURE.md 3 for the contract.

    Raises StrikeError for bad input and SimulationCapError when a cap is hit.
    """
    loop = shot_loop(table, balls, strike, params)
    loop.run()
    events = loop.events
    final, exact = _at_rest(loop.movers, loop.now)
    duration = events[-1].time if events else 0.0
    return Shot(events, final, loop.pocketed, duration, exact, loop.drops, ENGINE_VERSION)


def shot_loop(
    table: TableSpec,
    balls: Mapping[str, BallState],
    strike: Strike | None = None,
    params: PhysicsParams = PhysicsParams(),  # noqa: B008 - frozen, immutable default
) -> EventLoop:
    """The shot at time 0, before its first event: the balls set out (the struck one launched, the strike
    event recorded) in the loop that ``simulate`` runs to the end and the aim preview (aim.py) steps.

    Raises StrikeError for bad input.
    """
    ids = _check_layout(table, balls)
    if strike is not None and strike.ball not in balls:
        raise StrikeError(f"struck ball {strike.ball!r} is not on the table")
    geo = geometry_for(table)
    events: list[Event] = []
    movers = _set_out(table, balls, ids, strike, params, events)
    struck = ids.index(strike.ball) if strike is not None else None
    return EventLoop(table, movers, geo, params, events, struck)


def _set_out(
    table: TableSpec,
    balls: Mapping[str, BallState],
    ids: list[str],
    strike: Strike | None,
    params: PhysicsParams,
    events: list[Event],
) -> list[MovingBall]:
    """The balls at time 0: the struck one launched by the cue (and the strike event), the others as given."""
    R = table.ball_radius
    u_s_g, u_r_g = params.u_s * params.g, params.u_r * params.g
    movers = [MovingBall(i, ids[i], R, params.spin_decel, u_s_g, u_r_g) for i in range(len(ids))]
    starts = _start_positions(table, balls, ids)
    launch_state = None
    if strike is not None:
        launch_state = launch(strike.speed, strike.angle, strike.side, strike.height, R, table.ball_mass, params)
    for i, b in enumerate(movers):
        state = balls[ids[i]]
        x, y = starts[i]
        if launch_state is not None and strike is not None and ids[i] == strike.ball:
            vx, vy, wx, wy, wz = launch_state
            ca, sa = math.cos(strike.angle), math.sin(strike.angle)
            events.append(Event(0.0, EventKind.STRIKE, (ids[i],), None, (x - R * ca, y - R * sa)))
        else:
            vx, vy = state.velocity
            wx, wy, wz = state.spin
        b.set_motion(0.0, x, y, vx, vy, wx, wy, wz)
    return movers


def _at_rest(movers: list[MovingBall], now: float) -> tuple[dict[str, BallState], dict[str, list[ExactSegment]]]:
    """Final states, snapped to micrometres (the authoritative start of the next shot), and the exact segments
    ending on those snapped positions."""
    final: dict[str, BallState] = {}
    exact: dict[str, list[ExactSegment]] = {}
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
    return final, exact
