"""The aim preview: where a strike first touches something, and where the object ball goes from there.

A player aims with the line this draws, so it has to tell the truth on a table whose corner pockets leave
4 mm to spare: a geometric ghost ball, blind to throw and squirt, drew pots that hit the jaw. The preview
is made of the engine's own pieces: the cue's launch with squirt (``cue.launch``), the cloth's closed-form
motion (``motion.MovingBall``), the contact times (``events.pair_time``, ``events.table_time``), the
frictional ball-ball impulse that makes cut-induced throw, and the rubber's impulse at the jaws. It follows
one ball at a time among the others at rest:

- the cue ball, until it touches a ball, the table (a cushion, a jaw, the capture line) or stops;
- the object ball, from that contact through the jaw contacts of the pocket it meets, until it drops
  (``pocket``), meets a straight cushion or another pocket's jaws, touches a ball or stops: a ball rattled
  in off a jaw is a pot;
- the cue ball again from the contact, until the next thing it touches or its rest.

Up to the first contact the preview is the engine's shot event for event; after it, each ball's path is
the engine's until the two moving balls meet again, which no line can show. ``static/game/js/aim.js``
mirrors this module step for step for the browser (docs/decisions/aim-preview.md says why the browser
computes it); the tests check the mirror against this on seeded strikes and this against ``simulate``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from game.engine.balls import BALL_IDS, Vec2
from game.engine.physics.collisions.cushion import resolve_cushion
from game.engine.physics.cue import launch
from game.engine.physics.event_loop import ball_contact, line_contact, over_hole, settled, tip_contact
from game.engine.physics.events import TIER_COLLISION, TIER_POCKET, TIER_TRANSITION, pair_time, table_time
from game.engine.physics.geometry import FeatureKind, TableGeometry, geometry_for
from game.engine.physics.motion import SPINNING, MovingBall
from game.engine.physics.params import PhysicsParams
from game.engine.physics.strike import Strike
from game.engine.table import TableSpec

_INF = math.inf

#: How many jaw contacts the object ball's path follows before it gives up (a rattle takes 2 to 4).
MAX_JAW_CONTACTS = 12

#: Path piece: (t0, t1, x, y, vx, vy, ax, ay), the centre at t0 + s being (x, y) + v s + a s^2 / 2.
Piece = tuple[float, float, float, float, float, float, float, float]


@dataclass(frozen=True, slots=True)
class Run:
    """One ball's path in the preview and how it ends.

    ``end``: "ball" (it touches ``where``, a ball id), "cushion" (``where`` the cushion id), "jaw" (a jaw tip
    or facing of pocket ``where``), "pocket" (it drops into ``where``), "rest", or "limit" (too many jaw
    contacts to follow). ``at`` is the centre where it ends, ``point`` the contact point (None at rest),
    ``jaws`` the contact point and time (x, y, t) of each jaw it went through on the way, all of pocket
    ``jaw_pocket``.
    """

    pieces: tuple[Piece, ...]
    end: str
    where: str | None
    at: Vec2
    point: Vec2 | None
    time: float
    jaws: tuple[tuple[float, float, float], ...] = ()
    jaw_pocket: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "pieces": [list(p) for p in self.pieces],
            "end": self.end,
            "where": self.where,
            "at": list(self.at),
            "point": None if self.point is None else list(self.point),
            "time": self.time,
            "jaws": [list(p) for p in self.jaws],
            "jaw_pocket": self.jaw_pocket,
        }


@dataclass(frozen=True, slots=True)
class AimPreview:
    """The preview of one strike; see the module docstring.

    ``cue`` the cue ball's path to its first contact; when that is a ball (``hit``), ``direction`` is the
    object ball's unit departure direction, ``throw`` its angle from the line of centres (radians,
    counter-clockwise positive: what cut-induced and spin-induced throw add to the ghost ball's line),
    ``object`` its path and ``cue_after`` the cue ball's path from the contact.
    """

    cue: Run
    hit: str | None = None
    direction: Vec2 | None = None
    throw: float = 0.0
    object: Run | None = None
    cue_after: Run | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "cue": self.cue.as_dict(),
            "hit": self.hit,
            "direction": None if self.direction is None else list(self.direction),
            "throw": self.throw,
            "object": None if self.object is None else self.object.as_dict(),
            "cue_after": None if self.cue_after is None else self.cue_after.as_dict(),
        }


def physics_for_client(table: TableSpec, params: PhysicsParams = PhysicsParams()) -> dict[str, float]:  # noqa: B008
    """The coefficients the browser's mirror (``aim.js``) needs besides the table's geometry, JSON-ready."""
    return {
        "ball_mass": table.ball_mass,
        "g": params.g,
        "u_s": params.u_s,
        "u_r": params.u_r,
        "spin_decel": params.spin_decel,
        "e_b": params.e_b,
        "u_b_a": params.u_b_a,
        "u_b_b": params.u_b_b,
        "u_b_c": params.u_b_c,
        "e_c": params.e_c,
        "f_c": params.f_c,
        "cue_mass": params.cue_mass,
        "tip_restitution": params.tip_restitution,
        "cue_end_mass": params.cue_end_mass,
        "separation": params.separation,
    }


def table_for_client(table: TableSpec, params: PhysicsParams = PhysicsParams()) -> dict[str, Any]:  # noqa: B008
    """What a page that draws the table and its aim line receives: the geometry (``TableSpec.as_dict``) and,
    under ``physics``, the coefficients of :func:`physics_for_client`."""
    return {**table.as_dict(), "physics": physics_for_client(table, params)}


def aim_preview(
    table: TableSpec,
    balls: Mapping[str, Vec2 | None],
    strike: Strike,
    params: PhysicsParams = PhysicsParams(),  # noqa: B008 - frozen, immutable default
) -> AimPreview:
    """The preview of ``strike`` with the balls at rest at ``balls`` (None: off the table); see the module
    docstring. Raises StrikeError for a strike the engine would refuse."""
    geo = geometry_for(table)
    R = table.ball_radius
    u_s_g, u_r_g = params.u_s * params.g, params.u_r * params.g
    movers: dict[str, MovingBall] = {}
    for index, ball_id in enumerate(BALL_IDS):
        pos = balls.get(ball_id)
        if pos is None:
            continue
        b = MovingBall(index, ball_id, R, params.spin_decel, u_s_g, u_r_g)
        b.set_motion(0.0, pos[0], pos[1], 0.0, 0.0, 0.0, 0.0, 0.0)
        movers[ball_id] = b
    cue = movers[strike.ball]
    cue.segments.clear()
    cue.set_motion(
        0.0, cue.x, cue.y, *launch(strike.speed, strike.angle, strike.side, strike.height, R, table.ball_mass, params)
    )
    others = [b for b in movers.values() if b is not cue]
    first = _run(cue, others, geo, params, 0.0, jaws=False)
    if first.end != "ball" or first.where is None:
        return AimPreview(first)
    obj = movers[first.where]
    obj.segments.clear()
    after_cue, after_obj, _point, _leads = ball_contact(cue, obj, first.time, params)
    cue.segments.clear()
    cue.set_motion(first.time, *after_cue)
    obj.set_motion(first.time, *after_obj)
    nx, ny = after_obj[0] - after_cue[0], after_obj[1] - after_cue[1]
    speed = math.hypot(after_obj[2], after_obj[3])
    dx, dy = after_obj[2] / speed, after_obj[3] / speed
    throw = math.atan2(nx * dy - ny * dx, nx * dx + ny * dy)
    rest = [b for b in others if b is not obj]
    object_run = _run(obj, rest, geo, params, first.time, jaws=True)
    cue_run = _run(cue, rest, geo, params, first.time, jaws=False)
    return AimPreview(first, obj.id, (dx, dy), throw, object_run, cue_run)


def _run(
    b: MovingBall, others: list[MovingBall], geo: TableGeometry, params: PhysicsParams, now: float, jaws: bool
) -> Run:
    """Follow ball ``b`` among ``others`` at rest from ``now`` until it touches something or stops; through
    the jaw tips and facings of the first pocket it meets when ``jaws``. Candidates are ordered as the event
    loop orders them: (time, tier, lower ball index, transition / ball / table, the other index)."""
    R, D, sep = geo.R, 2.0 * geo.R, params.separation
    i = b.index
    jaw_points: list[tuple[float, float, float]] = []
    jaw_pocket: str | None = None
    while True:
        best = (b.t_end, TIER_TRANSITION, i, 0, -1)
        t, feature, kind = table_time(b, now, geo)
        cand = (t, TIER_POCKET if kind == FeatureKind.CAPTURE else TIER_COLLISION, i, 2, feature)
        if cand < best:
            best = cand
        for other in others:
            j = other.index
            cand = (pair_time(b, other, now, D), TIER_COLLISION, min(i, j), 1, max(i, j))
            if cand < best:
                best = cand
        t, _tier, low, target, high = best
        if t == _INF:
            return _end(b, jaw_points, jaw_pocket, "rest", None, now, None)
        now = t
        if target == 0:
            state = b.set_motion(now, *settled(b, now))
            if state <= SPINNING:
                hole = over_hole(geo, b.x, b.y)
                return _end(b, jaw_points, jaw_pocket, "rest" if hole is None else "pocket", hole, now, None)
            continue
        if target == 1:
            hit = next(o for o in others if o.index == (high if low == i else low))
            x, y = b.position(now)
            return _end(b, jaw_points, jaw_pocket, "ball", hit.id, now, (0.5 * (x + hit.x), 0.5 * (y + hit.y)))
        x, y, vx, vy, wx, wy, wz = b.kinematics(now)
        if high < len(geo.lines):
            line = geo.lines[high]
            if line.kind == FeatureKind.CAPTURE:
                return _end(b, jaw_points, jaw_pocket, "pocket", line.where, now, (x, y))
            x, y, kx, ky, px, py = line_contact(line, x, y, R, sep)
            where, is_jaw = line.where, line.kind == FeatureKind.FACING
        else:
            tip = geo.rounds[high - len(geo.lines)]
            x, y, kx, ky, px, py = tip_contact(tip, x, y, R, sep)
            where, is_jaw = tip.where, True
        if not (is_jaw and jaws) or (jaw_pocket is not None and where != jaw_pocket):
            return _end(b, jaw_points, jaw_pocket, "jaw" if is_jaw else "cushion", where, now, (px, py))
        jaw_pocket = where
        jaw_points.append((px, py, now))
        if len(jaw_points) > MAX_JAW_CONTACTS:
            return _end(b, jaw_points, jaw_pocket, "limit", where, now, (px, py))
        out = resolve_cushion(kx, ky, (vx, vy), (wx, wy, wz), R, geo.sin_t, geo.cos_t, params.e_c, params.f_c)
        b.set_motion(now, x, y, *out)


def _end(
    b: MovingBall,
    jaw_points: list[tuple[float, float, float]],
    jaw_pocket: str | None,
    end: str,
    where: str | None,
    t: float,
    point: Vec2 | None,
) -> Run:
    """The run of ``b`` so far (its segments up to ``t``) ending there."""
    segs = b.segments
    pieces = tuple((s[0], segs[k + 1][0] if k + 1 < len(segs) else t, *s[1:]) for k, s in enumerate(segs) if s[0] <= t)
    return Run(pieces, end, where, b.position(t), point, t, tuple(jaw_points), jaw_pocket)
