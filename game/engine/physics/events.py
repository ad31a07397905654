"""Events of a shot and the detection of the next contact times.

An ``Event`` is the contract between physics and rules (ARCHITECTURE.md 3): the rules read nothing else.

Contact times are computed from the current polynomials of the balls (``motion.MovingBall``) over the
window in which those polynomials hold (until the ball's next motion transition), after cheap rejects:
both paths' bounding boxes must come within reach, and for a table feature the path must leave the open
inner rectangle at all. The tiers order simultaneous events (``event_loop`` orders candidates by time,
tier, then indices): the cue strike (tier 0), then motion transitions (1), pocket drops (2), then
collisions (3).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from game.engine.event_kinds import EventKind
from game.engine.physics.geometry import FeatureKind, LineRow, RoundRow, TableGeometry
from game.engine.physics.motion import MovingBall
from game.engine.physics.quartic import earliest_contact2, earliest_contact4

TIER_STRIKE = 0
TIER_TRANSITION = 1
TIER_POCKET = 2
TIER_COLLISION = 3

_INF = math.inf
_JAW_TIP = FeatureKind.JAW_TIP

#: How far (m) a centre may be behind a straight feature and still count as touching it; farther is
#: its back side (a facing seen from the cloth, a capture line already crossed).
_LINE_DEEP = 0.005
#: A contact must reach this penetration depth (m) to count; shallower is a tangent graze by rounding.
_GRAZE = 1e-9
#: The same for squared-distance gap functions |d|^2 - r^2 ~ 2 r depth: multiply by r.
_GRAZE2 = 2e-9
#: Slack (m) on the ends of a straight feature; beyond them the jaw tip cylinders take over.
_EXTENT_SLACK = 1e-9


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened in a shot.

    ``kind``: an ``EventKind`` (a ``str``): "strike", "ball_ball", "ball_cushion", "ball_jaw" (jaw tips and
    pocket facings), "ball_pocket" or a motion transition "<from>_to_<to>" over "stationary", "spinning",
    "sliding", "rolling".
    ``balls``: ids involved, the moving or striking one first. ``where``: cushion id for ball_cushion,
    pocket id for ball_jaw and ball_pocket, else None. ``point``: the contact point (x, y) (for a
    ball_pocket the centre where it crossed the capture line, for a strike the tip contact on the
    ball's equator), None for transitions.
    """

    time: float
    kind: EventKind
    balls: tuple[str, ...]
    where: str | None = None
    point: tuple[float, float] | None = None

    def as_dict(self) -> dict[str, object]:
        """JSON-ready form (time to 1e-6 s, point to micrometres)."""
        return {
            "time": round(self.time, 6),
            "kind": str(self.kind),
            "balls": list(self.balls),
            "where": self.where,
            "point": None if self.point is None else [round(self.point[0], 6), round(self.point[1], 6)],
        }


def pair_time(b1: MovingBall, b2: MovingBall, now: float, D: float) -> float:
    """Absolute time of the next approaching contact of two balls (distance ``D`` = 2R), or inf."""
    s1 = b1.state
    s2 = b2.state
    if s1 <= 1 and s2 <= 1:
        return _INF
    t_end = b1.t_end if b1.t_end < b2.t_end else b2.t_end
    # Boxes of the two paths must come within D of each other.
    if b1.bx0 - D > b2.bx1 or b2.bx0 - D > b1.bx1 or b1.by0 - D > b2.by1 or b2.by0 - D > b1.by1:
        return _INF
    T = t_end - now
    if T < 0.0:
        T = 0.0
    d1 = now - b1.t0
    d2 = now - b2.t0
    ax1, ay1, ax2, ay2 = b1.ax, b1.ay, b2.ax, b2.ay
    v1x = b1.vx + ax1 * d1
    v1y = b1.vy + ay1 * d1
    v2x = b2.vx + ax2 * d2
    v2y = b2.vy + ay2 * d2
    cx = (b2.x + (b2.vx + 0.5 * ax2 * d2) * d2) - (b1.x + (b1.vx + 0.5 * ax1 * d1) * d1)
    cy = (b2.y + (b2.vy + 0.5 * ay2 * d2) * d2) - (b1.y + (b1.vy + 0.5 * ay1 * d1) * d1)
    bx, by = v2x - v1x, v2y - v1y
    ax, ay = 0.5 * (ax2 - ax1), 0.5 * (ay2 - ay1)
    c0 = cx * cx + cy * cy - D * D
    # Reach test: the gap cannot close faster than |dv| T + |da| T^2.
    if c0 > 0.0:
        gap = math.sqrt(cx * cx + cy * cy) - D
        reach = (math.sqrt(bx * bx + by * by) + math.sqrt(ax * ax + ay * ay) * T) * T
        if gap > reach:
            return _INF
    c1 = 2.0 * (bx * cx + by * cy)
    c2 = bx * bx + by * by + 2.0 * (ax * cx + ay * cy)
    c3 = 2.0 * (ax * bx + ay * by)
    c4 = ax * ax + ay * ay
    t = earliest_contact4(c4, c3, c2, c1, c0, T, _INF, D * _GRAZE2)
    return now + t if t != _INF else _INF


def table_time(b: MovingBall, now: float, geo: TableGeometry) -> tuple[float, int, FeatureKind | None]:
    """(absolute time, feature index, kind) of the ball's next contact with the table, or (inf, -1, None).

    Feature indices: 0.. for ``geo.lines`` then ``len(geo.lines)``.. for ``geo.rounds`` (jaw tips).
    """
    if b.state <= 1:
        return _INF, -1, None
    x0, x1, y0, y1 = geo.inner
    if b.bx0 > x0 and b.bx1 < x1 and b.by0 > y0 and b.by1 < y1:
        return _INF, -1, None
    T = b.t_end - now
    if T < 0.0:
        T = 0.0
    d = now - b.t0
    ax, ay = b.ax, b.ay
    vx = b.vx + ax * d
    vy = b.vy + ay * d
    px = b.x + (b.vx + 0.5 * ax * d) * d
    py = b.y + (b.vy + 0.5 * ay * d) * d
    path = (px, py, vx, vy, ax, ay, T)
    line_t, line_index, line_kind = _first_line_contact(b, path, geo.line_rows)
    jaw_t, jaw_index = _first_jaw_contact(b, path, geo.round_rows)
    if jaw_t < line_t:
        return now + jaw_t, len(geo.line_rows) + jaw_index, _JAW_TIP
    if line_index < 0:
        return _INF, -1, None
    return now + line_t, line_index, line_kind


#: A ball's path from now: position, velocity and acceleration (m, m/s, m/s^2), and the window T (s) in
#: which its polynomial holds.
_Path = tuple[float, float, float, float, float, float, float]


def _first_line_contact(
    b: MovingBall, path: _Path, lines: tuple[LineRow, ...]
) -> tuple[float, int, FeatureKind | None]:
    """(time from now, index, kind) of the path's first contact with a straight feature (a cushion, a
    pocket facing, a capture line), or (inf, -1, None).

    The gap to a line is a quadratic; a root counts only inside the segment's ends, since beyond them the
    jaw tips (``_first_jaw_contact``) take over.
    """
    px, py, vx, vy, ax, ay, T = path
    bx0, bx1, by0, by1 = b.bx0, b.bx1, b.by0, b.by1
    best = _INF
    best_index = -1
    best_kind: FeatureKind | None = None
    for index, line in enumerate(lines):
        kind, _where, lax, lay, nx, ny, dx, dy, length, offset, box = line
        if bx0 > box[1] or bx1 < box[0] or by0 > box[3] or by1 < box[2]:
            continue
        c0 = nx * (px - lax) + ny * (py - lay) - offset
        c1 = nx * vx + ny * vy
        c2 = 0.5 * (nx * ax + ny * ay)
        t = earliest_contact2(c2, c1, c0, T, _LINE_DEEP, _GRAZE)
        if t < best:
            qx = px + (vx + 0.5 * ax * t) * t - lax
            qy = py + (vy + 0.5 * ay * t) * t - lay
            s = qx * dx + qy * dy
            if -_EXTENT_SLACK <= s <= length + _EXTENT_SLACK:
                best, best_index, best_kind = t, index, kind
    return best, best_index, best_kind


def _first_jaw_contact(b: MovingBall, path: _Path, rounds: tuple[RoundRow, ...]) -> tuple[float, int]:
    """(time from now, index) of the path's first contact with a jaw tip, or (inf, -1).

    A jaw tip is a cylinder of radius ``reach`` around its centre: the squared-distance gap is a quartic.
    """
    px, py, vx, vy, ax, ay, T = path
    hx, hy = 0.5 * ax, 0.5 * ay
    bx0, bx1, by0, by1 = b.bx0, b.bx1, b.by0, b.by1
    best = _INF
    best_index = -1
    for index, rnd in enumerate(rounds):
        _where, cx, cy, reach, box = rnd
        if bx0 > box[1] or bx1 < box[0] or by0 > box[3] or by1 < box[2]:
            continue
        qx, qy = px - cx, py - cy
        c0 = qx * qx + qy * qy - reach * reach
        c1 = 2.0 * (vx * qx + vy * qy)
        c2 = vx * vx + vy * vy + 2.0 * (hx * qx + hy * qy)
        c3 = 2.0 * (hx * vx + hy * vy)
        c4 = hx * hx + hy * hy
        t = earliest_contact4(c4, c3, c2, c1, c0, T, _INF, reach * _GRAZE2)
        if t < best:
            best, best_index = t, index
    return best, best_index


__all__ = ["Event", "pair_time", "table_time"]
