"""The lag's suggested strike (K-3.1): a straight speed that sends the white to the foot cushion and
back to stop just short of the home cushion, measured with the real physics, not guessed.

A newcomer's default power (2.5 m/s) comes back 1.6 m from the cushion and loses to anyone; and the
distance is not monotonic in the speed (above the best speed, about 1.64 m/s, the white reaches the
home cushion and rolls out again), so no round number is a good lag. The server offers a speed in the
lag phase's constraints (``constraints()["lag"]``) and the computer's lag starts from the best one
(game.engine.bot). It is advice, not a rule: any speed may be played.

The two lags are mirror images (K-3.1: the same layout, one half each), so one speed offered to both
would tie every time two players keep it. Each player is offered his own good lag instead
(:func:`suggested_lag_speeds`): both a little softer than the best, where the distance falls steadily
with the speed, a few millimetres apart; a coin drawn from the players' names and the lag round says
who is offered the nearer one, so neither seat is favoured and a re-lag draws again.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
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


#: How much softer than the best speed each of the two suggested lags is (m/s). On the soft side of the
#: best the white stops short of the home cushion and the distance falls steadily with the speed, 4.4 mm
#: per 0.001 m/s on the standard layout: these stop about 9 and 22 mm from the cushion, both good lags,
#: 13 mm apart where K-3.1 calls two lags equal within 1 mm.
SUGGESTION_OFFSETS: tuple[float, float] = (0.002, 0.005)


@lru_cache(maxsize=16)
def best_lag_speed(ball_diameter: float, side: int, colours: Colours) -> float:
    """The straight lag speed that stops nearest the home cushion: a coarse search (1.0 to 4.45 m/s,
    0.15 apart), a fine one around the best (0.015 apart) and a finest (0.001 apart, the speed's
    resolution on the wire), about 50 ms once per layout, then remembered."""
    table = kaisa_table(ball_diameter=ball_diameter)
    scored = [(lag_distance(table, side, colours, 1.0 + 0.15 * i), 1.0 + 0.15 * i) for i in range(24)]
    best_distance, best_speed = min(scored)
    if not math.isfinite(best_distance):
        return FALLBACK_SPEED
    fine = [best_speed + 0.015 * i for i in range(-6, 7)]
    best_speed = min((lag_distance(table, side, colours, s), s) for s in fine)[1]
    finest = [round(best_speed + 0.001 * i, 3) for i in range(-15, 16)]
    return min((lag_distance(table, side, colours, s), s) for s in finest)[1]


def lag_coin(names: Sequence[str], lag_round: int) -> int:
    """0 or 1, the same in every process: which side is offered the nearer of the two suggested lags in
    this lag round (a hash of the players' names and the round, so a re-lag draws again)."""
    text = "\x1f".join([*names, str(lag_round)])
    return hashlib.sha256(text.encode("utf-8")).digest()[0] & 1


@lru_cache(maxsize=32)
def suggested_lag_speeds(ball_diameter: float, colours: Colours, coin: int) -> tuple[float, float]:
    """The speed offered to each side (0, 1): each side's best speed made softer by one of
    :data:`SUGGESTION_OFFSETS`, side ``coin`` by the smaller. A suggestion that would lose (a layout
    whose colours block the lane) falls back to the side's best speed."""
    table = kaisa_table(ball_diameter=ball_diameter)
    speeds: list[float] = []
    for side in (0, 1):
        best = best_lag_speed(ball_diameter, side, colours)
        offset = SUGGESTION_OFFSETS[0 if side == coin else 1]
        softer = round(best - offset, 3)
        speeds.append(softer if math.isfinite(lag_distance(table, side, colours, softer)) else best)
    return speeds[0], speeds[1]
