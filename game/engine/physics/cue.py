"""Cue strike: how a tip speed and offsets become the ball's launch velocity and spin.

Dr. Dave Alciatore's TP A-30: a level cue of effective mass ``m_c`` meets the ball (mass ``m``) with tip speed
``V`` at offsets ``(side, height)`` (fractions of R). The contact is a collision with restitution ``e`` (1 for
the ideal elastic tip of A-30, about 0.75 for leather) along the cue line, and the ball's effective mass
at an off-centre point is smaller, so

    v = (1 + e) V / (1 + m / m_c + 5/2 (side^2 + height^2)),
    w = 5/2 v / R * (side z + height (z x e_cue)),

``side > 0`` is right english (the ball then turns counter-clockwise seen from above, w_z > 0) and
``height > 0`` is follow (top spin). Squirt (TP A-31): the ball leaves at an angle ``a`` off the cue line,
away from the side of the english, with ``tan a = 5/2 s sqrt(1 - s^2) / (1 + m / m_e + 5/2 (1 - s^2))``
for side offset ``s`` and the cue's end mass ``m_e``. The limits (offsets beyond 0.6 R miscue) are
``strike_limits.STRIKE_LIMITS``.
"""

from __future__ import annotations

import math

from game.engine.physics.errors import StrikeError
from game.engine.physics.params import PhysicsParams
from game.engine.strike_limits import STRIKE_LIMITS


def check_strike_numbers(speed: float, angle: float, side: float, height: float) -> None:
    """Raise StrikeError unless the numbers describe a playable strike."""
    for name, value in (("speed", speed), ("angle", angle), ("side", side), ("height", height)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise StrikeError(f"strike {name} must be a finite number")
    limits = STRIKE_LIMITS
    if not limits.speed_ok(speed):
        raise StrikeError(f"strike speed must lie in (0, {limits.max_speed}] m/s")
    if not limits.angle_ok(angle):
        raise StrikeError(f"strike angle must lie within +-{limits.max_angle:.6f} rad")
    if not limits.tip_offset_ok(side, height):
        raise StrikeError(f"tip offset beyond {limits.max_tip_offset} R: miscue")


def launch(
    speed: float, angle: float, side: float, height: float, R: float, m: float, params: PhysicsParams
) -> tuple[float, float, float, float, float]:
    """(vx, vy, wx, wy, wz) of the struck ball; see the module docstring."""
    check_strike_numbers(speed, angle, side, height)
    ex, ey = math.cos(angle), math.sin(angle)
    v = (1.0 + params.tip_restitution) * speed / (1.0 + m / params.cue_mass + 2.5 * (side * side + height * height))
    k = 2.5 * v / R
    wz = k * side
    wx, wy = -k * height * ey, k * height * ex
    s = side
    squirt = math.atan2(2.5 * s * math.sqrt(1.0 - s * s), 1.0 + m / params.cue_end_mass + 2.5 * (1.0 - s * s))
    ca, sa = math.cos(squirt), math.sin(squirt)
    dx, dy = ex * ca - ey * sa, ex * sa + ey * ca
    return v * dx, v * dy, wx, wy, wz
