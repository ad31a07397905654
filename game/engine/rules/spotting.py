"""Respotting pocketed colours (K-7.3) and the kaisa's return to the centre spot (K-7.4)."""

from __future__ import annotations

from collections.abc import Mapping

from game.engine.rules.names import RED_IDS
from game.engine.rules.placement import touches_any
from game.engine.table import TableSpec

Vec2 = tuple[float, float]

RED_SPOT_ORDER: tuple[str, ...] = ("front", "rear", "center", "head_cushion", "foot_cushion")
KAISA_SPOT_ORDER: tuple[str, ...] = ("center", "front", "rear", "head_cushion", "foot_cushion")

#: Step (m) of the search along the long centre line when no spot is free.
LINE_STEP = 0.0005


def spot_order(ball: str) -> tuple[str, ...]:
    return KAISA_SPOT_ORDER if ball == "kaisa" else RED_SPOT_ORDER


def free(point: Vec2, balls: Mapping[str, Vec2 | None], table: TableSpec, ignore: str) -> bool:
    """K-7.3: a spot is free if a ball there would touch no other ball."""
    return touches_any(point, balls, table, ignore=ignore) is None


def spot_position(ball: str, balls: Mapping[str, Vec2 | None], table: TableSpec) -> tuple[Vec2, str]:
    """Where ``ball`` is spotted given the other balls, and the spot's name ("line" if on no spot).

    No spot free: the nearest free point on the long centre line from the last spot tried toward the
    foot cushion; if even that stretch is full, the nearest free point back toward the head (the rules
    leave that case open; it needs four balls around the foot-cushion spot).
    """
    order = spot_order(ball)
    for name in order:
        point = table.spots[name]
        if free(point, balls, table, ball):
            return (round(point[0], 6) + 0.0, round(point[1], 6) + 0.0), name
    start_x, y = table.spots[order[-1]]
    for direction in (1.0, -1.0):
        step = 0
        while True:
            x = start_x + direction * step * LINE_STEP
            point = (round(x, 6) + 0.0, round(y, 6) + 0.0)
            if not table.ball_fits(point):
                break
            if free(point, balls, table, ball):
                return point, "line"
            step += 1
    raise RuntimeError("no free point on the long centre line")  # five balls always leave room


def respot(pocketed: list[str], balls: dict[str, Vec2 | None], table: TableSpec) -> dict[str, str]:
    """K-7.3: spot the pocketed colours in ``balls`` (changed in place): kaisa first, reds in id order.

    Returns ball -> spot name for the balls spotted.
    """
    spotted: dict[str, str] = {}
    for ball in ("kaisa", *RED_IDS):
        if ball in pocketed:
            balls[ball] = None
            point, name = spot_position(ball, balls, table)
            balls[ball] = point
            spotted[ball] = name
    return spotted


def kaisa_return(balls: dict[str, Vec2 | None], spotted_at: Vec2 | None, table: TableSpec) -> tuple[bool, Vec2 | None]:
    """K-7.4: move a kaisa spotted off the centre back to it once the spot is free and it has not moved.

    Returns (moved, the new ``spotted_at`` marker). The marker is dropped once the kaisa has moved or
    is back on the centre spot.
    """
    kaisa = balls.get("kaisa")
    if spotted_at is None or kaisa is None:
        return False, None
    if (kaisa[0], kaisa[1]) != (spotted_at[0], spotted_at[1]):
        return False, None
    centre = table.spots["center"]
    if free(centre, balls, table, "kaisa"):
        balls["kaisa"] = (round(centre[0], 6) + 0.0, round(centre[1], 6) + 0.0)
        return True, None
    return False, spotted_at
