"""Closed-form motion of one ball on the cloth between events.

Motion states (Leckie & Greenspan; pooltool): stationary, spinning (turning about the vertical in place),
sliding, rolling, pocketed. While a state holds the centre moves with constant acceleration, so a
position is ``p0 + v0 dt + a dt^2 / 2`` and time is never stepped.

- Sliding: the contact point slips over the cloth at ``u = v + R z x w``; friction ``u_s m g`` opposes it,
  ``a = -u_s g u^``, and the spin about horizontal axes changes at ``(5 u_s g / 2R) (z x u^)``. The slip
  keeps its direction and shrinks at ``7/2 u_s g``, so sliding ends after ``2|u0| / (7 u_s g)``.
- Rolling: ``a = -u_r g v^``, spin locked to ``w_perp = z x v / R``; stops after ``|v0| / (u_r g)``.
- Spin about the vertical decays at ``spin_decel`` in every state, independently (it does not move the
  centre, so it needs no event of its own while the ball translates).

``MovingBall`` keeps one ball's current polynomial (also its current exact wire segment) and the time its
state ends. All values are plain floats on a ``__slots__`` object: this is the hot loop.
"""

from __future__ import annotations

import math

STATIONARY = 0
SPINNING = 1
SLIDING = 2
ROLLING = 3
POCKETED = 4

STATE_NAMES: tuple[str, ...] = ("stationary", "spinning", "sliding", "rolling", "pocketed")

#: Slip or speed below this (m/s) counts as zero: such a motion would last well under 1e-5 s.
EPS_V = 1e-7
#: Vertical spin below this (rad/s) counts as zero.
EPS_W = 1e-5

_INF = math.inf


class MovingBall:
    """One ball's state as a polynomial in time since ``t0`` plus its spin; see the module docstring."""

    __slots__ = (
        "R",
        "_spin_decel",
        "_u_r_g",
        "_u_s_g",
        "awx",
        "awy",
        "ax",
        "ay",
        "bx0",
        "bx1",
        "by0",
        "by1",
        "id",
        "index",
        "segments",
        "state",
        "t0",
        "t_end",
        "vx",
        "vy",
        "wx",
        "wy",
        "wz",
        "x",
        "y",
    )

    def __init__(self, index: int, ball_id: str, R: float, spin_decel: float, u_s_g: float, u_r_g: float) -> None:
        self._spin_decel = spin_decel
        self._u_s_g = u_s_g
        self._u_r_g = u_r_g
        self.index = index
        self.id = ball_id
        self.R = R
        self.state = STATIONARY
        self.t0 = 0.0
        self.x = self.y = self.vx = self.vy = self.ax = self.ay = 0.0
        self.wx = self.wy = self.wz = self.awx = self.awy = 0.0
        self.t_end = _INF
        self.bx0 = self.bx1 = self.by0 = self.by1 = 0.0
        #: Exact segments (t0, x, y, vx, vy, ax, ay), one per change of the polynomial.
        self.segments: list[tuple[float, float, float, float, float, float, float]] = []

    def position(self, t: float) -> tuple[float, float]:
        dt = t - self.t0
        return (
            self.x + (self.vx + 0.5 * self.ax * dt) * dt,
            self.y + (self.vy + 0.5 * self.ay * dt) * dt,
        )

    def kinematics(self, t: float) -> tuple[float, float, float, float, float, float, float]:
        """(x, y, vx, vy, wx, wy, wz) at time ``t`` (within the current state)."""
        dt = t - self.t0
        vx = self.vx + self.ax * dt
        vy = self.vy + self.ay * dt
        x = self.x + (self.vx + 0.5 * self.ax * dt) * dt
        y = self.y + (self.vy + 0.5 * self.ay * dt) * dt
        state = self.state
        if state == SLIDING:
            wx = self.wx + self.awx * dt
            wy = self.wy + self.awy * dt
        elif state == ROLLING:
            wx = -vy / self.R
            wy = vx / self.R
        else:
            wx = wy = 0.0
        return x, y, vx, vy, wx, wy, self.wz_at(t)

    def wz_at(self, t: float) -> float:
        wz = self.wz
        if wz == 0.0:
            return 0.0
        left = abs(wz) - self._spin_decel * (t - self.t0)
        return math.copysign(left, wz) if left > 0.0 else 0.0

    def set_motion(
        self,
        t: float,
        x: float,
        y: float,
        vx: float,
        vy: float,
        wx: float,
        wy: float,
        wz: float,
    ) -> int:
        """Start a new polynomial at time ``t`` from this state; classify it and find when it ends.

        Returns the new state. Appends the exact segment when the polynomial changes.
        """
        R = self.R
        ux = vx - R * wy
        uy = vy + R * wx
        slip = math.hypot(ux, uy)
        speed = math.hypot(vx, vy)
        if abs(wz) <= EPS_W:
            wz = 0.0
        if slip > EPS_V:
            state = SLIDING
            u_s_g = self._u_s_g
            uxh, uyh = ux / slip, uy / slip
            ax, ay = -u_s_g * uxh, -u_s_g * uyh
            k = 2.5 * u_s_g / R
            self.awx, self.awy = -k * uyh, k * uxh
            self.wx, self.wy = wx, wy
            t_end = t + slip / (3.5 * u_s_g)
        elif speed > EPS_V:
            state = ROLLING
            u_r_g = self._u_r_g
            ax, ay = -u_r_g * vx / speed, -u_r_g * vy / speed
            self.wx, self.wy = -vy / R, vx / R
            self.awx = self.awy = 0.0
            t_end = t + speed / u_r_g
        else:
            vx = vy = ax = ay = 0.0
            self.wx = self.wy = self.awx = self.awy = 0.0
            if wz != 0.0:
                state = SPINNING
                t_end = t + abs(wz) / self._spin_decel
            else:
                state = STATIONARY
                t_end = _INF
        previous = self.state
        self.state = state
        self.t0 = t
        self.x, self.y, self.vx, self.vy, self.ax, self.ay = x, y, vx, vy, ax, ay
        self.wz = wz
        self.t_end = t_end
        segments = self.segments
        static = state <= SPINNING
        if not (static and previous <= SPINNING and segments and segments[-1][1] == x and segments[-1][2] == y):
            segments.append((t, x, y, vx, vy, ax, ay))
        # Bounding box of the centre's path over [t, t_end] (for a cheap reject of contacts).
        if static:
            self.bx0 = self.bx1 = x
            self.by0 = self.by1 = y
        else:
            T = t_end - t
            self.bx0, self.bx1 = extent(x, vx, ax, T)
            self.by0, self.by1 = extent(y, vy, ay, T)
        return state


def extent(p: float, v: float, a: float, T: float) -> tuple[float, float]:
    """Min and max of p + v t + a t^2 / 2 over [0, T]."""
    end = p + (v + 0.5 * a * T) * T
    lo, hi = (p, end) if p <= end else (end, p)
    if a != 0.0:
        tc = -v / a
        if 0.0 < tc < T:
            mid = p + 0.5 * v * tc
            if mid < lo:
                lo = mid
            elif mid > hi:
                hi = mid
    return lo, hi
