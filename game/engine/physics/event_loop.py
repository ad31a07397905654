"""The event loop of one shot: candidate event times per ball, the earliest one, and its handler.

Every ball follows its closed-form polynomial (``motion.MovingBall``). Each ball keeps three kinds of
candidates: its next motion transition, its next table contact (cushion, facing, jaw tip or capture line)
and, per pair of balls, their next contact. The loop takes the earliest candidate, hands it to the handler
for its kind, and recomputes only the candidates of the balls that event changed
(https://github.com/ekiefl/pooltool/pull/133), so an event costs O(N) and not O(N^2).

Resting contacts (K-6.2). A ball at rest frozen to a cushion (``TableSpec.frozen_cushion``) that is set
moving into it, by the cue or by another ball, does not hit the cushion: the rubber was already pressed
against it. The rubber's reaction is resolved as for any contact, at once (or after the fraction of a
millimetre the ball may lie off the rail), but it is not reported as a ``ball_cushion`` event. Otherwise a
frozen object ball would always show a cushion contact at the moment of impact: a simple pot of it would
read as a bank and K-6.2's frozen-ball rule could never apply. The ball stays "resting against" that rail
for further contacts with it as long as it has not got farther than ``FROZEN_TOLERANCE`` from it (a cue ball
following the object ball into the rail squeezes it in more than once), until its first motion
transition, a contact with any other table feature, or a ball-ball contact later than the moment it was set
moving: a frozen ball kissed back into its rail later, or returning to it, hits it.

A candidate is a tuple ``(time, tier, ball, target kind, target index)`` compared as a whole, so ties
resolve deterministically: by time, then tier (transitions, pocket drops, collisions), then ball index,
then transition before ball before table feature, then the other ball's or the feature's index.
"""

from __future__ import annotations

import math
from enum import IntEnum

from game.engine.event_kinds import MOTION_STATES, EventKind, transition
from game.engine.physics.collisions.ball_ball import resolve_ball_ball
from game.engine.physics.collisions.cushion import resolve_cushion
from game.engine.physics.errors import SimulationCapError
from game.engine.physics.events import TIER_COLLISION, TIER_POCKET, TIER_TRANSITION, Event, pair_time, table_time
from game.engine.physics.geometry import FeatureKind, Line, Round, TableGeometry
from game.engine.physics.motion import POCKETED, ROLLING, SLIDING, SPINNING, MovingBall, extent
from game.engine.physics.params import PhysicsParams
from game.engine.table import FROZEN_TOLERANCE, TableSpec

_INF = math.inf


class Target(IntEnum):
    """What a candidate event involves besides its ball (also its rank among ties)."""

    TRANSITION = 0
    BALL = 1
    TABLE = 2


# Enum members as module constants: a member looked up on its class costs ~10x a global in the hot loop.
_TRANSITION, _BALL, _TABLE = Target.TRANSITION, Target.BALL, Target.TABLE
_CAPTURE = FeatureKind.CAPTURE
_BALL_BALL, _BALL_JAW, _BALL_POCKET = EventKind.BALL_BALL, EventKind.BALL_JAW, EventKind.BALL_POCKET

#: (time, tier, ball index, target, other ball index or table feature index)
Candidate = tuple[float, int, int, Target, int]
_NEVER: Candidate = (_INF, 0, 0, _TRANSITION, 0)

#: The event kind of each motion transition, by (old state, new state) numbers.
_TRANSITIONS: dict[tuple[int, int], EventKind] = {
    (old, new): transition(MOTION_STATES[old], MOTION_STATES[new])
    for old in range(POCKETED)
    for new in range(POCKETED)
    if old != new
}


class EventLoop:
    """One shot in progress: the balls, their cached candidates, and the events so far."""

    __slots__ = (
        "D",
        "R",
        "active",
        "count",
        "cushion_lines",
        "drops",
        "events",
        "geo",
        "movers",
        "n",
        "now",
        "pair_c",
        "pair_keys",
        "params",
        "pocketed",
        "resting",
        "table",
        "table_c",
        "trans",
    )

    def __init__(
        self,
        table: TableSpec,
        movers: list[MovingBall],
        geo: TableGeometry,
        params: PhysicsParams,
        events: list[Event],
        struck: int | None = None,
    ) -> None:
        """``struck``: index of the ball the cue just set moving from rest, if any."""
        n = len(movers)
        self.table = table
        self.movers = movers
        self.n = n
        self.geo = geo
        self.params = params
        self.R = geo.R
        self.D = 2.0 * geo.R
        self.events = events
        self.pocketed: dict[str, str] = {}
        self.drops: dict[str, tuple[float, str]] = {}
        self.active = [True] * n
        #: Line index of each straight cushion, by cushion id.
        self.cushion_lines = geo.cushion_lines
        #: Per ball: (line index of the cushion it was resting against, time it was set moving), or None.
        self.resting: list[tuple[int, float] | None] = [None] * n
        if struck is not None:
            self._mark_resting(struck, 0.0)
        self.now = 0.0
        #: Events handled so far (``PhysicsParams.max_events`` caps them).
        self.count = 0
        self.trans: list[Candidate] = [_NEVER] * n
        self.table_c: list[Candidate] = [_NEVER] * n
        self.pair_c: dict[tuple[int, int], Candidate] = {}
        for i in range(n):
            for j in range(i + 1, n):
                self.pair_c[(i, j)] = _NEVER
        self.refresh(list(range(n)), 0.0)
        self.pair_keys = sorted(self.pair_c)

    # --- candidates ---------------------------------------------------------------------------------

    def refresh(self, involved: list[int], now: float) -> None:
        """Recompute the candidates of the balls in ``involved`` (their polynomials just changed)."""
        movers, active, n, pair_c = self.movers, self.active, self.n, self.pair_c
        trans, table_c, geo = self.trans, self.table_c, self.geo
        for i in involved:
            b = movers[i]
            if not active[i]:
                trans[i] = table_c[i] = _NEVER
                for j in range(n):
                    if j != i:
                        pair_c[(i, j) if i < j else (j, i)] = _NEVER
                continue
            trans[i] = (b.t_end, TIER_TRANSITION, i, _TRANSITION, -1)
            t, feature, kind = table_time(b, now, geo)
            tier = TIER_POCKET if kind == _CAPTURE else TIER_COLLISION
            table_c[i] = (t, tier, i, _TABLE, feature)
        done = set()
        D = self.D
        for i in involved:
            for j in range(n):
                if j == i or not active[j] or not active[i]:
                    continue
                key = (i, j) if i < j else (j, i)
                if key in done:
                    continue
                done.add(key)
                t = pair_time(movers[key[0]], movers[key[1]], now, D)
                pair_c[key] = (t, TIER_COLLISION, key[0], _BALL, key[1])

    def earliest(self) -> Candidate:
        """The earliest cached candidate (``time`` inf when nothing will happen any more)."""
        if not self.n:
            return _NEVER
        best = min(self.trans)
        cand = min(self.table_c)
        if cand < best:
            best = cand
        pair_c = self.pair_c
        for key in self.pair_keys:
            cand = pair_c[key]
            if cand < best:
                best = cand
        return best

    # --- the loop -----------------------------------------------------------------------------------

    def run(self) -> None:
        """Handle events in time order until every ball rests or drops; raise SimulationCapError at a cap."""
        while self.step() is not None:
            pass

    def step(self) -> Candidate | None:
        """Handle the earliest event and return its candidate, or None when every ball rests or dropped;
        raise SimulationCapError at a cap. The aim preview (aim.py) steps the loop until the balls it
        follows have each met something."""
        t, tier, i, target, j = self.earliest()
        if t == _INF:
            return None
        params = self.params
        if t > params.max_time:
            raise SimulationCapError(f"shot still moving after {params.max_time} s of simulated time")
        self.count += 1
        if self.count > params.max_events:
            raise SimulationCapError(f"shot exceeded {params.max_events} events")
        if t < self.now:
            t = self.now
        self.now = t
        if target == _TRANSITION:
            self.on_transition(i, t)
        elif target == _BALL:
            self.on_ball_ball(i, j, t)
        elif j < len(self.geo.lines):
            self.on_line(i, j, t)
        else:
            self.on_jaw_tip(i, self.geo.rounds[j - len(self.geo.lines)], t)
        return t, tier, i, target, j

    # --- handlers -----------------------------------------------------------------------------------

    def drop(self, i: int, t: float, where: str, x: float, y: float) -> None:
        """Ball ``i`` leaves the table into pocket ``where`` (the capture line, or at rest over the hole)."""
        b = self.movers[i]
        b.state = POCKETED
        b.t_end = _INF
        self.active[i] = False
        self.pocketed[b.id] = where
        self.drops[b.id] = (t, where)
        self.events.append(Event(t, _BALL_POCKET, (b.id,), where, (x, y)))

    def _mark_resting(self, i: int, t: float) -> None:
        """Ball ``i`` is set moving at ``t`` from rest: note the cushion it rests against, if any."""
        b = self.movers[i]
        cushion = self.table.frozen_cushion((b.x, b.y))
        self.resting[i] = None if cushion is None else (self.cushion_lines[cushion], t)

    def _stayed_against(self, i: int, line: Line, since: float, t: float) -> bool:
        """True if ball ``i`` has stayed within ``FROZEN_TOLERANCE`` of the cushion ``line`` from ``since``
        to ``t`` (it never left the rail it was resting against), from its exact segments."""
        nx, ny, ax, ay, offset = line.nx, line.ny, line.ax, line.ay, line.offset
        segments = self.movers[i].segments
        end = t
        for k in range(len(segments) - 1, -1, -1):
            t0, x, y, vx, vy, accx, accy = segments[k]
            if t0 < end:
                # The gap to the rail over this segment: g0 + gv s + ga s^2 / 2 for s in [0, end - t0].
                g0 = nx * (x - ax) + ny * (y - ay) - offset
                _lo, hi = extent(g0, nx * vx + ny * vy, nx * accx + ny * accy, end - t0)
                if hi > FROZEN_TOLERANCE:
                    return False
            if t0 <= since:
                return True
            end = t0
        return True

    def on_transition(self, i: int, t: float) -> None:
        """Ball ``i``'s motion state ends: sliding turns to rolling, rolling stops, spinning stops."""
        self.resting[i] = None
        b = self.movers[i]
        old = b.state
        x, y, vx, vy, wx, wy, wz = settled(b, t)
        new = b.set_motion(t, x, y, vx, vy, wx, wy, wz)
        self.events.append(Event(t, _TRANSITIONS[(old, new)], (b.id,)))
        if new <= SPINNING:
            hole = over_hole(self.geo, x, y)
            if hole is not None:
                self.drop(i, t, hole, x, y)
        self.refresh([i], t)

    def on_ball_ball(self, i: int, j: int, t: float) -> None:
        """Balls ``i`` and ``j`` touch: the frictional inelastic impulse, then a micrometre apart."""
        b, b2 = self.movers[i], self.movers[j]
        for k, ball in ((i, b), (j, b2)):
            if ball.state <= SPINNING:
                self._mark_resting(k, t)
            else:
                mark = self.resting[k]
                if mark is not None and mark[1] != t:
                    self.resting[k] = None
        after1, after2, point, first_leads = ball_contact(b, b2, t, self.params)
        order = (b.id, b2.id) if first_leads else (b2.id, b.id)
        b.set_motion(t, *after1)
        b2.set_motion(t, *after2)
        self.events.append(Event(t, _BALL_BALL, order, None, point))
        self.refresh([i, j], t)

    def on_line(self, i: int, index: int, t: float) -> None:
        """Ball ``i`` reaches straight feature ``index``: it drops at a capture line, else bounces off the
        rubber (a cushion it was resting against: silently, see the module docstring)."""
        line: Line = self.geo.lines[index]
        mark = self.resting[i]
        resting = mark is not None and mark[0] == index and self._stayed_against(i, line, mark[1], t)
        # The mark outlives only the rail's own reactions (the squeeze of a cue ball following the object
        # ball into the rail can press it in more than once).
        self.resting[i] = mark if resting else None
        b = self.movers[i]
        x, y, vx, vy, wx, wy, wz = b.kinematics(t)
        if line.kind == _CAPTURE:
            self.drop(i, t, line.where, x, y)
            self.refresh([i], t)
            return
        x, y, kx, ky, px, py = line_contact(line, x, y, self.R, self.params.separation)
        kind = None if resting else line.kind.event_kind
        self._bounce(i, kind, line.where, t, x, y, (vx, vy), (wx, wy, wz), kx, ky, px, py)

    def on_jaw_tip(self, i: int, tip: Round, t: float) -> None:
        """Ball ``i`` touches a rounded jaw tip: it bounces off the cylinder, a micrometre clear of it."""
        self.resting[i] = None
        b = self.movers[i]
        x, y, vx, vy, wx, wy, wz = b.kinematics(t)
        x, y, kx, ky, px, py = tip_contact(tip, x, y, self.R, self.params.separation)
        self._bounce(i, _BALL_JAW, tip.where, t, x, y, (vx, vy), (wx, wy, wz), kx, ky, px, py)

    def _bounce(
        self,
        i: int,
        kind: EventKind | None,
        where: str,
        t: float,
        x: float,
        y: float,
        v: tuple[float, float],
        w: tuple[float, float, float],
        kx: float,
        ky: float,
        px: float,
        py: float,
    ) -> None:
        """The rubber's impulse on ball ``i`` (toward the rubber along (kx, ky)), and its event unless
        ``kind`` is None (a resting contact)."""
        p = self.params
        geo = self.geo
        nvx, nvy, nwx, nwy, nwz = resolve_cushion(kx, ky, v, w, self.R, geo.sin_t, geo.cos_t, p.e_c, p.f_c)
        b = self.movers[i]
        b.set_motion(t, x, y, nvx, nvy, nwx, nwy, nwz)
        if kind is not None:
            self.events.append(Event(t, kind, (b.id,), where, (px, py)))
        self.refresh([i], t)


# --- the geometry of one event, shared with the aim preview (aim.py) ---------------------------------------


Kinematics = tuple[float, float, float, float, float, float, float]


def ball_contact(
    b: MovingBall, b2: MovingBall, t: float, p: PhysicsParams
) -> tuple[Kinematics, Kinematics, tuple[float, float], bool]:
    """Two balls touching at ``t``: each one's (x, y, vx, vy, wx, wy, wz) after the frictional inelastic
    impulse, a micrometre apart; the contact point; and whether ``b`` is the one that moved into the other."""
    R = b.R
    D, sep = 2.0 * R, p.separation
    x1, y1, v1x, v1y, w1x, w1y, w1z = b.kinematics(t)
    x2, y2, v2x, v2y, w2x, w2y, w2z = b2.kinematics(t)
    dx, dy = x2 - x1, y2 - y1
    dist = math.hypot(dx, dy)
    if dist == 0.0:
        dx, dy, dist = 1.0, 0.0, 1.0
    nx, ny = dx / dist, dy / dist
    (a1x, a1y, a1wx, a1wy, a1wz), (a2x, a2y, a2wx, a2wy, a2wz) = resolve_ball_ball(
        nx, ny, (v1x, v1y), (w1x, w1y, w1z), (v2x, v2y), (w2x, w2y, w2z), R, p.e_b, p.u_b_a, p.u_b_b, p.u_b_c
    )
    cpx, cpy = x1 + 0.5 * dist * nx, y1 + 0.5 * dist * ny
    if dist < D + sep:
        push = 0.5 * (D + sep - dist)
        x1, y1 = x1 - push * nx, y1 - push * ny
        x2, y2 = x2 + push * nx, y2 + push * ny
    first_leads = v1x * nx + v1y * ny >= -(v2x * nx + v2y * ny)
    return (x1, y1, a1x, a1y, a1wx, a1wy, a1wz), (x2, y2, a2x, a2y, a2wx, a2wy, a2wz), (cpx, cpy), first_leads


def settled(b: MovingBall, t: float) -> tuple[float, float, float, float, float, float, float]:
    """(x, y, vx, vy, wx, wy, wz) of ball ``b`` as its motion state ends at ``t``: a slide ends rolling (the
    spin locked to the speed), a roll ends at rest, a spin in place ends still."""
    R = b.R
    old = b.state
    x, y, vx, vy, wx, wy, wz = b.kinematics(t)
    if old == SLIDING:
        wx, wy = -vy / R, vx / R
    elif old == ROLLING:
        vx = vy = wx = wy = 0.0
    else:
        wz = 0.0
    return x, y, vx, vy, wx, wy, wz


def over_hole(geo: TableGeometry, x: float, y: float) -> str | None:
    """The pocket a ball at rest at (x, y) drops into, or None: a ball at rest in a pocket's jaws stays
    there unless its centre is beyond the line through the jaw tip centres, i.e. over the hole (it can
    only get there between the jaws)."""
    ix0, ix1, iy0, iy1 = geo.inner
    if ix0 <= x <= ix1 and iy0 <= y <= iy1:
        return None
    mouth = min(geo.mouths, key=lambda m: (m.x - x) ** 2 + (m.y - y) ** 2)
    if (x - mouth.x) * mouth.axis_x + (y - mouth.y) * mouth.axis_y > 0.0:
        return mouth.pocket
    return None


def line_contact(
    line: Line, x: float, y: float, R: float, sep: float
) -> tuple[float, float, float, float, float, float]:
    """A centre at (x, y) touching straight feature ``line``: the centre a micrometre clear of it, the unit
    direction (kx, ky) toward the rubber and the contact point (px, py)."""
    lnx, lny = line.nx, line.ny
    kx, ky = -lnx, -lny
    px, py = x + R * kx, y + R * ky
    gap = lnx * (x - line.ax) + lny * (y - line.ay) - line.offset
    if gap < sep:
        x += (sep - gap) * lnx
        y += (sep - gap) * lny
    return x, y, kx, ky, px, py


def tip_contact(
    tip: Round, x: float, y: float, R: float, sep: float
) -> tuple[float, float, float, float, float, float]:
    """The same as :func:`line_contact` for a rounded jaw tip."""
    dx, dy = tip.cx - x, tip.cy - y
    dist = math.hypot(dx, dy)
    kx, ky = dx / dist, dy / dist
    px, py = x + R * kx, y + R * ky
    if dist < tip.reach + sep:
        x -= (tip.reach + sep - dist) * kx
        y -= (tip.reach + sep - dist) * ky
    return x, y, kx, ky, px, py
