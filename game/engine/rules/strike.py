"""Validating the strike a player sends (ARCHITECTURE section 3) before the physics sees it.

The limits live in :mod:`game.engine.strike_limits` (one home for the physics, the rules, the protocol
and the client, which gets them through ``Match.constraints``); checking them here first gives the player
a precise ``RuleError`` code and keeps junk (bools, strings, NaN, extra keys) away from the simulation.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from game.engine.physics.strike import Strike
from game.engine.rules.errors import RuleError, refuse
from game.engine.strike_limits import STRIKE_LIMITS

STRIKE_KEYS: tuple[str, ...] = ("angle", "speed", "side", "height")
MAX_SPEED = STRIKE_LIMITS.max_speed
MAX_TIP_OFFSET = STRIKE_LIMITS.max_tip_offset
MAX_ANGLE = STRIKE_LIMITS.max_angle


@dataclass(frozen=True, slots=True)
class StrikeInput:
    """A strike as a player gives it: the cue's direction, speed and tip offset (the fields of
    ``Strike``); the ball is always the shooter's own white, so the rules add it (:meth:`on`). The
    websocket parses a frame straight into one (game.realtime.protocol); ``Match.shoot`` and
    ``Match.lag`` take one, or the dict form, which :func:`parse_strike` turns into one."""

    angle: float
    speed: float
    side: float = 0.0
    height: float = 0.0

    def as_dict(self) -> dict[str, float]:
        # By hand: `asdict` deep-copies, and every relayed aim and stored shot builds one.
        return {"angle": self.angle, "speed": self.speed, "side": self.side, "height": self.height}

    def on(self, ball: str) -> Strike:
        """The physics' strike of this cue on ``ball``."""
        return Strike(ball=ball, speed=self.speed, angle=self.angle, side=self.side, height=self.height)


def strike_limits() -> dict[str, float]:
    """The limits as the client gets them (``constraints()["strike_limits"]``)."""
    return STRIKE_LIMITS.as_dict()


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


def parse_strike(data: object) -> StrikeInput:
    """The strike (a :class:`StrikeInput`, or its dict form ``{"angle", "speed", "side"?, "height"?}``)
    checked against the limits, or ``RuleError``."""
    if isinstance(data, StrikeInput):
        return check_strike(data)
    if not isinstance(data, Mapping):
        raise RuleError("bad_strike", "the strike must be an object with angle and speed")
    for key in data:
        if key not in STRIKE_KEYS:
            raise RuleError("bad_strike", f"unknown strike field {key!r}")
    strike = StrikeInput(
        angle=_number(data, "angle", None),
        speed=_number(data, "speed", None),
        side=_number(data, "side", 0.0),
        height=_number(data, "height", 0.0),
    )
    return check_strike(strike)


def check_strike(strike: StrikeInput) -> StrikeInput:
    """A typed strike within the limits (K-10.3's miscue beyond the tip offset), or ``RuleError``."""
    angle, speed, side, height = strike.angle, strike.speed, strike.side, strike.height
    for key, value in (("angle", angle), ("speed", speed), ("side", side), ("height", height)):
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise RuleError("bad_strike", f"strike {key} must be a finite number")
    if not STRIKE_LIMITS.angle_ok(angle):
        raise RuleError("bad_strike", "strike angle is out of range")
    if not STRIKE_LIMITS.speed_ok(speed):
        raise refuse("bad_strike", "strike_speed", max_speed=MAX_SPEED)
    if not STRIKE_LIMITS.tip_offset_ok(side, height):
        raise refuse("miscue", max_tip_offset=MAX_TIP_OFFSET)
    return strike
