"""The lag's suggested strike (K-3.1): the straight speed that sends the white to the foot cushion and
back to stop nearest the home cushion, measured with the real physics, not guessed.

A newcomer's default power (2.5 m/s) comes back 1.6 m from the cushion and loses to anyone; and the
distance is not monotonic in the speed (above about 1.7 m/s the white reaches the home cushion and
rolls out again), so no round number is a good lag. The server offers this speed in the lag phase's
constraints (``constraints()["lag"]``) and the computer's lag starts from it too (game.engine.bot).
It is advice, not a rule: any speed may be played.
"""

from __future__ import annotations

import math
from functools import lru_cache

from game.engine.balls import BallState
from game.engine.physics import Strike, simulate
from game.engine.physics.errors import SimulationCapError, StrikeError
from game.engine.rules.lag import LAG_BALLS, judge_lag_shot, lag_start
from game.engine.table import TableSpec, kaisa_table

Colours = tuple[tuple[str, float, float], ...]
#: The speed offered when no straight lag wins at all (a layout whose colours block every lane).
FALLBACK_SPEED = 2.5


def lag_distance(table: TableSpec, side: int, colours: Colours, speed: float) -> float:
    """How far from the home cushion a straight lag at ``speed`` stops (inf if it loses, K-3.1)."""
    ball = LAG_BALLS[side]
    balls = {name: BallState((x, y)) for name, x, y in colours}
    balls[ball] = BallState(lag_start(table, side))
    try:
        shot = simulate(table, balls, Strike(ball=ball, speed=speed, angle=0.0, side=0.0, height=0.0))
    except (StrikeError, SimulationCapError):
        return math.inf
    result = judge_lag_shot(shot, ball=ball, side=side, table=table)
    return math.inf if result.lost or result.distance is None else result.distance


@lru_cache(maxsize=16)
def best_lag_speed(ball_diameter: float, side: int, colours: Colours) -> float:
    """The straight lag speed that stops nearest the home cushion: a coarse search (1.0 to 4.45 m/s,
    0.15 apart) and a fine one around the best (0.015 apart), about 25 ms once per layout, then
    remembered."""
    table = kaisa_table(ball_diameter=ball_diameter)
    scored = [(lag_distance(table, side, colours, 1.0 + 0.15 * i), 1.0 + 0.15 * i) for i in range(24)]
    best_distance, best_speed = min(scored)
    if not math.isfinite(best_distance):
        return FALLBACK_SPEED
    fine = [best_speed + 0.015 * i for i in range(-6, 7)]
    return min((lag_distance(table, side, colours, s), s) for s in fine)[1]
