"""Where a ball may be put by hand: the opening placement (K-3.3) and ball in hand (K-7.1).

Positions are plain ``(x, y)`` tuples in metres; ``balls`` maps ids to positions (``None`` = off the
table). "Touching" uses a micrometre tolerance so a ball placed exactly one diameter away is legal.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from game.engine.table import TableSpec, point_segment_distance

Vec2 = tuple[float, float]

#: Two balls closer than D + this touch (m); positions are snapped to micrometres.
TOUCH_TOLERANCE = 1e-6


def touching(a: Vec2, b: Vec2, table: TableSpec) -> bool:
    return math.hypot(a[0] - b[0], a[1] - b[1]) < 2 * table.ball_radius + TOUCH_TOLERANCE


def touches_any(
    point: Vec2, balls: Mapping[str, Vec2 | None], table: TableSpec, ignore: str | None = None
) -> str | None:
    """The first ball (fixed order of ``balls``) a ball at ``point`` would touch, or None."""
    for ball, pos in balls.items():
        if ball != ignore and pos is not None and touching(point, pos, table):
            return ball
    return None


def mouth_centre(table: TableSpec, pocket: str) -> Vec2:
    a, b = table.pockets[pocket].mouth
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def in_opening_corridor(point: Vec2, table: TableSpec, width_in_diameters: float) -> str | None:
    """K-3.3: the foot corner pocket whose corridor (centre spot to mouth centre) contains ``point``.

    The corridor is ``width_in_diameters`` ball diameters wide, so with the default 2 a ball whose
    centre lies within one diameter of the line would block a kaisa rolling along it.
    """
    half_width = width_in_diameters * table.ball_radius
    centre = table.spots["center"]
    for pocket in ("foot_right", "foot_left"):
        if point_segment_distance(point, centre, mouth_centre(table, pocket)) < half_width:
            return pocket
    return None


def opening_placement_error(
    point: Vec2, balls: Mapping[str, Vec2 | None], table: TableSpec, corridor_width: float, ball: str
) -> str | None:
    """Why ``point`` is not a legal K-3.3 placement, or None if it is."""
    if not point[0] > table.length / 2:
        return "white •• must be placed beyond the centre line (x > L/2)"
    resting = resting_error(point, balls, table, ball)
    if resting is not None:
        return resting
    pocket = in_opening_corridor(point, table, corridor_width)
    if pocket is not None:
        return f"the ball would block the corridor from the centre spot to {pocket.replace('_', ' ')}"
    return None


def home_placement_error(point: Vec2, balls: Mapping[str, Vec2 | None], table: TableSpec, ball: str) -> str | None:
    """Why ``point`` is not a legal K-7.1 ball-in-hand position, or None if it is."""
    if not table.in_home(point):
        return "a ball in hand must be placed in the home (x <= L/4)"
    return resting_error(point, balls, table, ball)


def resting_error(point: Vec2, balls: Mapping[str, Vec2 | None], table: TableSpec, ball: str) -> str | None:
    """Why a placed ball could not rest at ``point`` (off the cloth, touching a ball), or None: the part
    every placement rule (K-3.3, K-7.1) shares."""
    if not table.ball_fits(point):
        return "the ball must lie wholly on the cloth"
    other = touches_any(point, balls, table, ignore=ball)
    if other is not None:
        return f"the ball would touch {other}"
    return None


def frozen_cushion(point: Vec2, table: TableSpec, tolerance: float = 1e-4) -> str | None:
    """K-6.2: the cushion a ball at ``point`` is frozen to, or None.

    Frozen means the ball touches a straight cushion nose (centre within R + ``tolerance``). When the
    nearest point of the nose is its end, the contact point lies on the jaw rounding and the ball does
    not count as frozen ("unless its cushion contact point lies on a jaw").
    """
    R = table.ball_radius
    for cushion in table.cushions:
        (ax, ay), (bx, by) = cushion.a, cushion.b
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        t = ((point[0] - ax) * dx + (point[1] - ay) * dy) / length2
        if t <= 0.0 or t >= 1.0:
            continue
        if point_segment_distance(point, cushion.a, cushion.b) <= R + tolerance:
            return cushion.id
    return None
