"""The stroke noise the analysis values every shot under: one Gaussian model for every player.

A shot is worth what it scores *on average when played by a human hand*, not what it scores at its
exact numbers: Kaisa's corner pockets are 72 mm for a 68 mm ball (K-1.3), so a shot that drops only at
its exact angle is worth much less than one that forgives. The analysis therefore plays each strike
many times with independent Gaussian errors on its angle, its speed and its tip offset, drawn from the
same distribution for the best shot and the played one and for both players, and averages what the
rules award.

Why these sigmas (they are written on the analysis page as :meth:`StrokeNoise.as_dict` gives them):

- ``ANGLE_SIGMA = 0.001`` rad (1 mrad, 1.5 mm of aim error at 1.5 m): the computer player's level 3
  (``LEVEL_SPECS[3].angle_noise``), a sound club player. Measured on a 30-degree cut into a corner
  (object ball 0.5 m from the pocket, cue ball 0.8 m behind it): the angles that pot it make a window
  1.75 mrad wide, so level 5's 0.25 mrad pots it 96 % of the time and would rate knife-edge shots as
  high as forgiving ones, level 1's 4 mrad pots it 20 % and shrinks every shot towards the fouls; with
  the whole model below it drops 61 % (a 45-degree cut: 45 %), so the figure tells a forgiving
  choice from a risky one.
- ``SPEED_SIGMA = 0.05`` (5 % of the cue speed): level 3's ``speed_noise`` again; pace decides the
  position and whether a slow ball reaches the pocket, rarely the pot itself (alone it never missed
  that cut).
- ``TIP_SIGMA = 0.01`` (1 % of the ball radius, a third of a millimetre, on side and on height): the
  bot's levels strike their tip offsets exactly, a hand does not, and an offset squirts and throws the
  ball (physics-notes, TP A-31). It is small because the engine's squirt is strong: 0.03 alone dropped
  that cut to 33 %, more than the aim error; 0.01 alone costs about what 1 mrad of aim does (83 % against
  60 %).

Each error is drawn independently for every sample; a noisy strike is brought back inside
:data:`~game.engine.strike_limits.STRIKE_LIMITS` (speed and tip offset clamped, angle wrapped), so it is
always one the rules accept. :data:`ZERO_NOISE` plays the strike exactly (one simulation, the
engine's own result).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass

from game.engine.strike_limits import STRIKE_LIMITS

#: Standard deviation of the cue direction (rad): the bot's level 3; see the module docstring.
ANGLE_SIGMA = 0.001
#: Standard deviation of the cue speed as a fraction of it: the bot's level 3.
SPEED_SIGMA = 0.05
#: Standard deviation of each tip offset component (side, height), as a fraction of the ball radius.
TIP_SIGMA = 0.01
#: The smallest speed a noisy strike keeps (m/s): the limits exclude 0.
MIN_NOISY_SPEED = 0.05


@dataclass(frozen=True, slots=True)
class StrokeNoise:
    """Independent Gaussian errors on a strike: ``angle`` (rad), ``speed`` (fraction of the speed),
    ``tip`` (fraction of the radius, on side and on height)."""

    angle: float = ANGLE_SIGMA
    speed: float = SPEED_SIGMA
    tip: float = TIP_SIGMA

    @property
    def is_zero(self) -> bool:
        return self.angle == 0.0 and self.speed == 0.0 and self.tip == 0.0

    def as_dict(self) -> dict[str, float]:
        """JSON-ready, what a page prints: ``{"angle_rad", "speed_fraction", "tip_fraction"}``."""
        return {"angle_rad": self.angle, "speed_fraction": self.speed, "tip_fraction": self.tip}

    def describe(self) -> str:
        """The model in one English sentence (the page's words come from its own catalogue)."""
        return (
            f"Gaussian stroke noise: angle sigma {self.angle * 1000:g} mrad, speed sigma {self.speed:.0%}, "
            f"tip offset sigma {self.tip:.0%} of the ball radius"
        )

    def apply(self, strike: Mapping[str, float], rng: random.Random) -> dict[str, float]:
        """One noisy stroke around ``strike`` (a parsed strike dict), inside the strike limits."""
        angle = strike["angle"] + rng.gauss(0.0, self.angle)
        speed = strike["speed"] * (1.0 + rng.gauss(0.0, self.speed))
        side = strike["side"] + rng.gauss(0.0, self.tip)
        height = strike["height"] + rng.gauss(0.0, self.tip)
        offset = math.hypot(side, height)
        if offset > STRIKE_LIMITS.max_tip_offset:
            shrink = STRIKE_LIMITS.max_tip_offset / offset
            side, height = side * shrink, height * shrink
        return {
            "angle": math.remainder(angle, 2.0 * math.pi),
            "speed": min(STRIKE_LIMITS.max_speed, max(MIN_NOISY_SPEED, speed)),
            "side": side,
            "height": height,
        }


#: The noise of every analysis (the page states it).
STROKE_NOISE = StrokeNoise()
#: No noise: the strike played exactly as given.
ZERO_NOISE = StrokeNoise(0.0, 0.0, 0.0)
