"""The limits of a cue strike, in one place for the physics, the rules, the protocol and the client.

A strike is ``speed`` (cue tip speed at impact, m/s), ``angle`` (cue direction, rad), ``side`` and
``height`` (tip offset from the ball centre as fractions of the radius). The physics contract
(ARCHITECTURE.md 3): ``0 < speed <= max_speed`` and ``|(side, height)| <= max_tip_offset`` (beyond it the
cue miscues). An angle is accepted within one turn either way, ``|angle| <= max_angle``: a client that
normalises its aim never gets near it, and anything larger is junk, not aim.

The server sends :meth:`StrikeLimits.as_dict` to the client (``constraints()["strike_limits"]``) so the
client draws and clamps with the same numbers instead of keeping its own copies.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Slack on the tip offset: a client that clamps to exactly ``max_tip_offset`` may send a
#: (side, height) whose hypot rounds a few ulps above it.
TIP_OFFSET_SLACK = 1e-9


@dataclass(frozen=True, slots=True)
class StrikeLimits:
    """What a strike may be; see the module docstring. Each layer raises its own error on a breach."""

    max_speed: float = 9.0
    max_tip_offset: float = 0.6
    max_angle: float = 2.0 * math.pi

    def speed_ok(self, speed: float) -> bool:
        return 0.0 < speed <= self.max_speed

    def angle_ok(self, angle: float) -> bool:
        return abs(angle) <= self.max_angle

    def tip_offset_ok(self, side: float, height: float) -> bool:
        return math.hypot(side, height) <= self.max_tip_offset + TIP_OFFSET_SLACK

    def as_dict(self) -> dict[str, float]:
        """JSON-ready: ``{"min_speed_exclusive": 0.0, "max_speed", "max_tip_offset", "max_angle"}``."""
        return {
            "min_speed_exclusive": 0.0,
            "max_speed": self.max_speed,
            "max_tip_offset": self.max_tip_offset,
            "max_angle": self.max_angle,
        }


#: The limits of every strike in Kaiza.
STRIKE_LIMITS = StrikeLimits()
