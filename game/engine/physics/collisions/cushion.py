"""Ball against a cushion, a jaw tip or a pocket facing: an impulse model in the manner of Han (2005).

The rubber meets the ball at the nose height ``h`` (42 mm, K-1.6), above the centre of a 68 mm ball, so the
contact direction from the centre is ``k = (cos t k_h, sin t)`` with ``sin t = h / R - 1`` and ``k_h`` the
horizontal direction toward the rubber. With ``u = v + w x R k`` the velocity of the ball's surface at the
contact and ``c = u.k`` its approach speed:

- normal impulse ``(1 + e_c) m c`` along ``-k``;
- tangential: the impulse that stops the slip ``u_t`` needs ``|u_t| / A`` with ``A = 7 / (2 m)`` (a sphere's
  effective inverse mass at its surface); Coulomb friction caps it at ``f_c`` times the normal impulse,
  beyond which the ball slides along the rubber (Han's sliding case).

The impulse changes the spin through ``R k x P / I`` in 3D, so a cushion converts topspin, draw and side
into each other as it does on a real table; the vertical velocity is dropped (planar model, K-10.2).
Han's paper checks sticking against the normal impulse without the friction coefficient; we use the
consistent Coulomb test (Kiefl's blog lists corrections to the paper).
Jaw tips (vertical cylinders) and facings use the same model with their own ``k_h``.
"""

from __future__ import annotations

import math

Vec5 = tuple[float, float, float, float, float]


def resolve_cushion(
    kx: float,
    ky: float,
    v: tuple[float, float],
    w: tuple[float, float, float],
    R: float,
    sin_t: float,
    cos_t: float,
    e_c: float,
    f_c: float,
) -> Vec5:
    """New (vx, vy, wx, wy, wz) of a ball hitting rubber in the horizontal direction (kx, ky) (unit)."""
    vx, vy = v
    wx, wy, wz = w
    Kx, Ky, Kz = kx * cos_t, ky * cos_t, sin_t
    rx, ry, rz = R * Kx, R * Ky, R * Kz
    # u = v + w x r
    ux = vx + (wy * rz - wz * ry)
    uy = vy + (wz * rx - wx * rz)
    uz = wx * ry - wy * rx
    c = ux * Kx + uy * Ky + uz * Kz
    if c <= 0.0:
        return vx, vy, wx, wy, wz
    pn = (1.0 + e_c) * c  # normal impulse per unit mass
    tx, ty, tz = ux - c * Kx, uy - c * Ky, uz - c * Kz
    slip = math.sqrt(tx * tx + ty * ty + tz * tz)
    stick = slip * (2.0 / 7.0)
    if slip == 0.0:
        px, py, pz = -pn * Kx, -pn * Ky, -pn * Kz
    else:
        pt = stick if stick <= f_c * pn else f_c * pn
        px = -pn * Kx - pt * tx / slip
        py = -pn * Ky - pt * ty / slip
        pz = -pn * Kz - pt * tz / slip
    # dw = (r x P) / I, I = 2/5 m R^2, P per unit mass.
    k = 2.5 / (R * R)
    wx += k * (ry * pz - rz * py)
    wy += k * (rz * px - rx * pz)
    wz += k * (rx * py - ry * px)
    return vx + px, vy + py, wx, wy, wz
