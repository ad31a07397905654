"""Geometry facts about a finished shot that the event list alone does not carry.

Between two consecutive events every ball moves on one quadratic (the physics' motion segments), so
three ``position_at`` samples per interval give the exact extreme of a coordinate: no stepping, no
reaching into the simulation beyond the public ``Shot`` contract (``events``, ``duration``,
``position_at``, ``pocketed``).
"""

from __future__ import annotations

import math
from typing import Any

from game.engine.balls import Vec2
from game.engine.rules.events import BALL_POCKET
from game.engine.table import TableSpec, point_segment_distance

#: A ball centre within R + this of a cushion nose is in contact with it (m).
CONTACT_TOLERANCE = 0.001
#: Following a ball back from the pocket: at most this much travel (m) between two samples ...
TRAVEL_STEP = 0.001
#: ... and at most this much time (s); the speed is measured over SPEED_PROBE (s) after each event.
MAX_STEP = 0.02
SPEED_PROBE = 1e-4
#: Travel (m, in ball diameters) a ball may make between leaving the rail and dropping.
POCKET_APPROACH = 3.0


def _times(shot: Any, ball: str) -> list[float]:
    end = float(shot.duration)
    for e in shot.events:
        if e.kind == BALL_POCKET and e.balls and e.balls[0] == ball:
            end = min(end, float(e.time))
    times = sorted({0.0, end, *(float(e.time) for e in shot.events if 0.0 <= e.time <= end)})
    return times


def coordinate_extent(shot: Any, ball: str, axis: int) -> tuple[float, float]:
    """(min, max) of the ball centre's x (axis 0) or y (axis 1) during the shot, exact per segment."""
    times = _times(shot, ball)
    low, high = math.inf, -math.inf
    for t0, t1 in zip(times, times[1:] + times[-1:], strict=True):
        a = shot.position_at(ball, t0)[axis]
        low, high = min(low, a), max(high, a)
        if t1 <= t0:
            continue
        tm = (t0 + t1) / 2
        m = shot.position_at(ball, tm)[axis]
        b = shot.position_at(ball, t1)[axis]
        low, high = min(low, m, b), max(high, m, b)
        # Parabola through (0, a), (1/2, m), (1, b): f(s) = a + p s + q s^2.
        q = 2 * (a + b - 2 * m)
        p = b - a - q
        if q != 0:
            s = -p / (2 * q)
            if 0 < s < 1:
                v = a + p * s + q * s * s
                low, high = min(low, v), max(high, v)
    return low, high


def crossed_home_line(shot: Any, ball: str, table: TableSpec) -> bool:
    """K-7.2: did the ball's centre get beyond the home line during the shot?"""
    return coordinate_extent(shot, ball, 0)[1] > table.home_line_x


#: A cushion nose as `_touching_cushion` reads it: (id, a, b, dx, dy, dx² + dy²), b - a = (dx, dy).
Nose = tuple[str, Vec2, Vec2, float, float, float]


def _noses(table: TableSpec) -> list[Nose]:
    """The table's cushion noses with their direction and squared length, made once per walk back (a
    pot's takes ~150 samples, each tested against every nose)."""
    out = []
    for cushion in table.cushions:
        a, b = cushion.a, cushion.b
        dx, dy = b[0] - a[0], b[1] - a[1]
        out.append((cushion.id, a, b, dx, dy, dx * dx + dy * dy))
    return out


def _touching_cushion(point: tuple[float, float], noses: list[Nose], limit: float) -> str | None:
    """The cushion whose straight nose the ball touches (not its end, where the jaw rounding begins)."""
    px, py = point
    for cushion_id, a, b, dx, dy, denom in noses:
        t = ((px - a[0]) * dx + (py - a[1]) * dy) / denom
        if 0.0 < t < 1.0 and point_segment_distance(point, a, b) <= limit:
            return cushion_id
    return None


def rolled_in_along_cushion(shot: Any, ball: str, table: TableSpec) -> bool:
    """K-6.2: was the ball in contact with a cushion over at least one diameter just before it dropped?

    Followed back from the drop: after at most ``POCKET_APPROACH`` diameters of travel between the jaws
    the ball must be on a rail, and stay on that rail for one diameter of travel.

    The walk back samples the path every ``TRAVEL_STEP`` of travel (at most ``MAX_STEP`` s apart) and
    stops on every event time, where the speed may jump: sampling every millisecond instead cost a
    slow pot 2000 samples (16 ms, on the server's input path), a fast one a few mm between samples.
    """
    drop = None
    for e in shot.events:
        if e.kind == BALL_POCKET and e.balls and e.balls[0] == ball:
            drop = float(e.time)
            break
    if drop is None:
        return False
    D = 2 * table.ball_radius
    noses, limit = _noses(table), table.ball_radius + CONTACT_TOLERANCE
    # Event times before the drop, latest first: the walk back lands on each of them.
    stops = sorted({float(e.time) for e in shot.events if 0.0 < float(e.time) < drop}, reverse=True)
    t = drop
    prev = shot.position_at(ball, t)
    speed = _speed_before(shot, ball, t, prev)
    travel = 0.0
    contact_from: float | None = None
    rail: str | None = None
    while t > 0:
        t_next, crossed = _step_back(t, speed, stops)
        point = shot.position_at(ball, t_next)
        moved = math.hypot(point[0] - prev[0], point[1] - prev[1])
        travel += moved
        speed = _speed_before(shot, ball, t_next, point) if crossed else moved / (t - t_next)
        t, prev = t_next, point
        touching = _touching_cushion(point, noses, limit)
        if contact_from is None and touching is not None:
            contact_from, rail = travel, touching
        decided = _along_the_rail(touching, rail, travel, contact_from, D)
        if decided is not None:
            return decided
        if travel == 0.0 and t < drop - 1.0:
            return False
    return False


def _step_back(t: float, speed: float, stops: list[float]) -> tuple[float, bool]:
    """The time of the walk's next sample before ``t``, and whether it is an event time (``stops``,
    latest first, from which the times at or after ``t`` are dropped)."""
    step = MAX_STEP if speed <= TRAVEL_STEP / MAX_STEP else TRAVEL_STEP / speed
    t_next = max(0.0, t - step)
    while stops and stops[0] >= t:
        stops.pop(0)
    crossed = bool(stops) and stops[0] > t_next
    return (stops[0] if crossed else t_next), crossed


def _along_the_rail(
    touching: str | None, rail: str | None, travel: float, contact_from: float | None, D: float
) -> bool | None:
    """After a sample of the walk back: False once the ball is too far from the drop without a rail or
    has left its rail, True once it has followed the rail one diameter, None to walk on."""
    if contact_from is None:
        return False if travel > POCKET_APPROACH * D else None
    if touching != rail:
        return False
    if travel - contact_from >= D:
        return True
    return None


def _speed_before(shot: Any, ball: str, t: float, at: tuple[float, float]) -> float:
    """The ball's speed just before time t (m/s), from a sample SPEED_PROBE s earlier."""
    if t <= 0.0:
        return 0.0
    h = min(SPEED_PROBE, t)
    before = shot.position_at(ball, t - h)
    return math.hypot(at[0] - before[0], at[1] - before[1]) / h
