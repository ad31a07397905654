"""Ball-ball contact: frictional and inelastic (Alciatore TP A-5, A-6, A-14; pooltool's default resolver).

Equal masses. In the frame of the line of centres ``n`` (from ball 1 to ball 2):

- the normal velocities become ``((1 -+ e) v1n + (1 +- e) v2n) / 2``, i.e. the normal impulse is
  ``J = (1 + e) m (v1 - v2).n / 2``;
- the surfaces slip at ``u = v1 - v2 + R (w1 + w2) x n`` (3D: spin about horizontal axes adds a vertical
  slip). A friction impulse ``u_b J`` opposes the tangential slip, with the speed-dependent coefficient
  ``u_b(|u_t|) = a + b exp(-c |u_t|)`` of TP A-14; this is what makes cut-induced and spin-induced throw;
- if that impulse would reverse the slip (it takes ``m |u_t| / 7`` to stop it, each ball contributing
  7/2 of effective inverse mass), the no-slip impulse is used instead.

The vertical part of the friction impulse only changes spins: the model is planar (K-10.2).
"""

from __future__ import annotations

import math

Vec5 = tuple[float, float, float, float, float]


def resolve_ball_ball(
    nx: float,
    ny: float,
    v1: tuple[float, float],
    w1: tuple[float, float, float],
    v2: tuple[float, float],
    w2: tuple[float, float, float],
    R: float,
    e_b: float,
    u_b_a: float,
    u_b_b: float,
    u_b_c: float,
) -> tuple[Vec5, Vec5]:
    """New (vx, vy, wx, wy, wz) pairs for balls 1 and 2 after contact along unit normal (nx, ny).

    Returns the inputs unchanged when the balls are not approaching along the normal.
    """
    v1x, v1y = v1
    v2x, v2y = v2
    w1x, w1y, w1z = w1
    w2x, w2y, w2z = w2
    dvx, dvy = v1x - v2x, v1y - v2y
    vn = dvx * nx + dvy * ny
    if vn <= 0.0:
        return (v1x, v1y, w1x, w1y, w1z), (v2x, v2y, w2x, w2y, w2z)
    j = 0.5 * (1.0 + e_b) * vn  # normal impulse per unit mass
    # Slip of ball 1's surface over ball 2's at the contact: u = dv + R (w1 + w2) x n, n = (nx, ny, 0).
    sx, sy, sz = w1x + w2x, w1y + w2y, w1z + w2z
    ux = dvx + R * (-sz * ny)
    uy = dvy + R * (sz * nx)
    uz = R * (sx * ny - sy * nx)
    un = ux * nx + uy * ny
    tx, ty, tz = ux - un * nx, uy - un * ny, uz
    slip = math.sqrt(tx * tx + ty * ty + tz * tz)
    nv1x, nv1y = v1x - j * nx, v1y - j * ny
    nv2x, nv2y = v2x + j * nx, v2y + j * ny
    if slip > 0.0:
        u_b = u_b_a + u_b_b * math.exp(-u_b_c * slip)
        jt = min(u_b * j, slip / 7.0)  # friction impulse per unit mass
        fx, fy, fz = -jt * tx / slip, -jt * ty / slip, -jt * tz / slip  # on ball 1
        nv1x += fx
        nv1y += fy
        nv2x -= fx
        nv2y -= fy
        # dw = (R n x P) / I with I = 2/5 m R^2; the same for both balls (see the module docstring).
        k = 2.5 / R
        dwx, dwy, dwz = k * (ny * fz), k * (-nx * fz), k * (nx * fy - ny * fx)
        w1x, w1y, w1z = w1x + dwx, w1y + dwy, w1z + dwz
        w2x, w2y, w2z = w2x + dwx, w2y + dwy, w2z + dwz
    return (nv1x, nv1y, w1x, w1y, w1z), (nv2x, nv2y, w2x, w2y, w2z)
