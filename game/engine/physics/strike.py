"""The cue strike as the players give it (ARCHITECTURE.md 3)."""

from __future__ import annotations

from dataclasses import dataclass

from game.engine.balls import CUE_BALL_IDS
from game.engine.physics.cue import check_strike_numbers
from game.engine.physics.errors import StrikeError


@dataclass(frozen=True, slots=True)
class Strike:
    """A cue strike on ``ball``.

    ``speed``: cue tip speed at impact, m/s, 0 < speed <= 9. ``angle``: direction of the cue in radians,
    0 = +x, counter-clockwise. ``side``, ``height``: tip offset from the ball centre as fractions of the
    radius (right english and follow positive), ``|(side, height)| <= 0.6``. The limits live in
    ``strike_limits.STRIKE_LIMITS``; ``simulate`` (or ``check``) raises StrikeError beyond them.
    """

    ball: str
    speed: float
    angle: float = 0.0
    side: float = 0.0
    height: float = 0.0

    def check(self) -> None:
        """Raise StrikeError unless this strike is playable (the ball's presence is checked by simulate)."""
        if not isinstance(self.ball, str) or not self.ball:
            raise StrikeError("strike ball must be a ball id")
        check_strike_numbers(self.speed, self.angle, self.side, self.height)

    @property
    def on_cue_ball(self) -> bool:
        return self.ball in CUE_BALL_IDS
