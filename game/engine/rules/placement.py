"""Where a ball may be put by hand: the opening placement (K-3.3) and ball in hand (K-7.1).

Positions are plain ``(x, y)`` tuples in metres; ``balls`` maps ids to positions (``None`` = off the
table). "Touching" uses a micrometre tolerance so a ball placed exactly one diameter away is legal.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from game.engine.rules.errors import RuleError, refuse
from game.engine.rules.words import refusal
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
        return refusal("place_beyond_centre")
    resting = resting_error(point, balls, table, ball)
    if resting is not None:
        return resting
    pocket = in_opening_corridor(point, table, corridor_width)
    if pocket is not None:
        return refusal("place_corridor", {"pocket": pocket})
    return None


def home_placement_error(point: Vec2, balls: Mapping[str, Vec2 | None], table: TableSpec, ball: str) -> str | None:
    """Why ``point`` is not a legal K-7.1 ball-in-hand position, or None if it is."""
    if not table.in_home(point):
        return refusal("place_in_home")
    return resting_error(point, balls, table, ball)


def resting_error(point: Vec2, balls: Mapping[str, Vec2 | None], table: TableSpec, ball: str) -> str | None:
    """Why a placed ball could not rest at ``point`` (off the cloth, touching a ball), or None: the part
    every placement rule (K-3.3, K-7.1) shares."""
    if not table.ball_fits(point):
        return refusal("place_on_cloth")
    other = touches_any(point, balls, table, ignore=ball)
    if other is not None:
        return refusal("place_touching", {"ball": other})
    return None


def frozen_cushion(point: Vec2, table: TableSpec) -> str | None:
    """K-6.2: the cushion a ball at ``point`` is frozen to, or None (the one definition is
    :meth:`TableSpec.frozen_cushion`, which the physics uses too)."""
    return table.frozen_cushion(point)


#: Two balls of a hand-set layout overlap when their centres are closer than D minus this (m): resting
#: balls that touch (frozen, K-6.7) are legal, and positions snapped to micrometres may close a touching
#: pair by up to 1.5 µm.
OVERLAP_TOLERANCE = 1e-5


def layout_error(balls: Mapping[str, Vec2 | None], table: TableSpec, cue: str | None = None) -> RuleError | None:
    """Why ``balls`` (a whole layout, e.g. the practice table's) is not a position balls could rest in, or
    None: every ball on the cloth or hanging in a pocket's jaws (:meth:`TableSpec.ball_position_valid`, as
    a shot's final position may leave it), no two overlapping (touching is fine). ``cue``, the shooter's
    white, is named "the cue ball" in the words."""
    placed = [(ball, at) for ball, at in balls.items() if at is not None]
    for ball, at in placed:
        if not (math.isfinite(at[0]) and math.isfinite(at[1])) or not table.ball_position_valid(at):
            return refuse("off_table", "place_on_cloth", ball=ball, cue=cue)
    for i, (ball, at) in enumerate(placed):
        for other, there in placed[i + 1 :]:
            if math.hypot(at[0] - there[0], at[1] - there[1]) < 2 * table.ball_radius - OVERLAP_TOLERANCE:
                return refuse("overlapping", "place_overlapping", ball=ball, other=other, cue=cue)
    return None
