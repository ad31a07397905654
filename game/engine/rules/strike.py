"""Validating the strike a player sends (ARCHITECTURE section 3) before the physics sees it.

The physics raises its own ``StrikeError`` too; checking here first gives the player a precise
``RuleError`` code and keeps junk (bools, strings, NaN, extra keys) away from the simulation.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from game.engine.rules.errors import RuleError

STRIKE_KEYS: tuple[str, ...] = ("angle", "speed", "side", "height")
MAX_SPEED = 9.0  # m/s, the physics contract's upper bound
MAX_TIP_OFFSET = 0.6  # fraction of the radius: beyond it the cue miscues
MAX_ANGLE = 1000.0  # radians; anything larger is junk, not aim


def _number(data: Mapping[str, object], key: str, default: float | None) -> float:
    value = data.get(key, default)
    if value is None:
        raise RuleError("bad_strike", f"the strike needs {key}")
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RuleError("bad_strike", f"strike {key} must be a number")
    value = float(value)
    if not math.isfinite(value):
        raise RuleError("bad_strike", f"strike {key} must be finite")
    return value


def parse_strike(data: object) -> dict[str, float]:
    """The strike as ``{"angle", "speed", "side", "height"}`` floats, or ``RuleError``."""
    if not isinstance(data, Mapping):
        raise RuleError("bad_strike", "the strike must be an object with angle and speed")
    for key in data:
        if key not in STRIKE_KEYS:
            raise RuleError("bad_strike", f"unknown strike field {key!r}")
    angle = _number(data, "angle", None)
    speed = _number(data, "speed", None)
    side = _number(data, "side", 0.0)
    height = _number(data, "height", 0.0)
    if abs(angle) > MAX_ANGLE:
        raise RuleError("bad_strike", "strike angle is out of range")
    if not 0.0 < speed <= MAX_SPEED:
        raise RuleError("bad_strike", f"strike speed must be in (0, {MAX_SPEED:g}] m/s")
    if math.hypot(side, height) > MAX_TIP_OFFSET:
        raise RuleError("miscue", f"the tip offset must be at most {MAX_TIP_OFFSET} of the radius")
    return {"angle": angle, "speed": speed, "side": side, "height": height}
