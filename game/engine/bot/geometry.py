"""Table geometry the computer player reasons with before it simulates anything.

The search cannot afford to simulate every ball, pocket, speed and spin, so it first ranks the
(object ball, pocket) pairs with the ghost-ball picture: where the cue ball must be at contact, how
thin the cut is, whether a ball stands in either path, and how squarely the object ball meets the
pocket mouth (Kaisa's corner mouths are only 4 mm wider than a ball, so the approach angle matters as
much as the distance). These estimates only order the search and price a position left to a player;
what a shot actually does is always decided by the physics.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from game.engine.table import TableSpec, point_segment_distance

Vec2 = tuple[float, float]

#: Thinnest cut the bot considers (rad): beyond it the ghost ball is not reachable reliably.
MAX_CUT = math.radians(80.0)
#: How far behind the line through the jaw tips the object ball is aimed (m).
POCKET_AIM_DEPTH = 0.02
#: Widest angle (rad) between the object ball's path and a pocket's axis that still drops the ball.
MAX_APPROACH = {"corner": math.radians(50.0), "middle": math.radians(60.0)}
#: A blocked path keeps this fraction of its estimate: the search still sees it as a last resort.
BLOCKED_FACTOR = 0.05
#: Carom-free value of potting each kind of ball (K-5.3), used only to rank candidates.
PLAIN_VALUE = {"white": 2.0, "red": 3.0, "kaisa": 6.0}


@dataclass(frozen=True)
class AimLine:
    """One ghost-ball aim: cue at ``cue`` sends ``ball`` into ``pocket``.

    ``angle`` is the cue direction (rad), ``cut`` the cut angle, ``cue_distance`` the cue ball's travel to
    the ghost ball, ``object_distance`` the object ball's travel to the pocket, ``ease`` the estimated
    chance (0..1) of the pot and ``value`` that chance times the ball's plain value.
    """

    ball: str
    pocket: str
    angle: float
    cut: float
    cue_distance: float
    object_distance: float
    ease: float
    value: float
    blocked: bool


def ball_kind(ball: str) -> str:
    if ball.startswith("white"):
        return "white"
    if ball.startswith("red"):
        return "red"
    return "kaisa"


def unit(dx: float, dy: float) -> tuple[float, float, float]:
    n = math.hypot(dx, dy)
    if n == 0.0:
        return 1.0, 0.0, 0.0
    return dx / n, dy / n, n


def wrap(angle: float) -> float:
    """An angle folded into (-pi, pi]."""
    return math.atan2(math.sin(angle), math.cos(angle))


def pocket_aim_point(table: TableSpec, pocket: str) -> Vec2:
    """A point just inside the mouth, on the pocket's axis: where the object ball is sent."""
    spec = table.pockets[pocket]
    (ax, ay), (bx, by) = spec.mouth
    return ((ax + bx) / 2 + POCKET_AIM_DEPTH * spec.axis[0], (ay + by) / 2 + POCKET_AIM_DEPTH * spec.axis[1])


def pocket_kind(pocket: str) -> str:
    return "middle" if pocket.startswith("middle") else "corner"


def path_blocked(
    start: Vec2, end: Vec2, balls: Mapping[str, Vec2 | None], ignore: Iterable[str], clearance: float
) -> bool:
    """True when a ball centre (other than ``ignore``) lies within ``clearance`` of the segment."""
    skip = set(ignore)
    for ball, pos in balls.items():
        if ball in skip or pos is None:
            continue
        if point_segment_distance(pos, start, end) < clearance:
            return True
    return False


def contact_direction(cue: Vec2, angle: float, target: Vec2, radius: float) -> float | None:
    """Direction (rad) the target ball leaves in when the cue ball rolls from ``cue`` at ``angle``.

    Ideal frictionless picture: the object ball leaves along the line of centres at contact. None when
    the cue ball misses the target. Used for the slope of the aim correction, not for prediction.
    """
    ux, uy = math.cos(angle), math.sin(angle)
    fx, fy = target[0] - cue[0], target[1] - cue[1]
    along = fx * ux + fy * uy
    across2 = fx * fx + fy * fy - along * along
    reach = (2 * radius) ** 2 - across2
    if along <= 0 or reach < 0:
        return None
    s = along - math.sqrt(reach)
    gx, gy = cue[0] + s * ux, cue[1] + s * uy
    return math.atan2(target[1] - gy, target[0] - gx)


def aim_slope(cue: Vec2, angle: float, target: Vec2, radius: float) -> float | None:
    """d(object ball direction)/d(cue angle) in the ideal picture, by a central difference."""
    h = 2e-5
    plus = contact_direction(cue, angle + h, target, radius)
    minus = contact_direction(cue, angle - h, target, radius)
    if plus is None or minus is None:
        return None
    slope = wrap(plus - minus) / (2 * h)
    return slope if abs(slope) > 1e-6 else None


def aim_line(
    table: TableSpec, balls: Mapping[str, Vec2 | None], cue_ball: str, cue: Vec2, ball: str, pocket: str
) -> AimLine | None:
    """The ghost-ball aim for ``ball`` into ``pocket`` from ``cue``, or None if it is no shot at all."""
    target = balls.get(ball)
    if target is None:
        return None
    R = table.ball_radius
    D = 2 * R
    aim = pocket_aim_point(table, pocket)
    ox, oy, object_distance = unit(aim[0] - target[0], aim[1] - target[1])
    ghost = (target[0] - D * ox, target[1] - D * oy)
    if not table.ball_fits(ghost, tolerance=0.004):
        return None
    cx, cy, cue_distance = unit(ghost[0] - cue[0], ghost[1] - cue[1])
    if cue_distance < 1e-4:
        return None
    cut = math.acos(max(-1.0, min(1.0, cx * ox + cy * oy)))
    if cut > MAX_CUT:
        return None
    axis = table.pockets[pocket].axis
    approach = math.acos(max(-1.0, min(1.0, ox * axis[0] + oy * axis[1])))
    limit = MAX_APPROACH[pocket_kind(pocket)]
    if approach > limit:
        return None
    blocked = path_blocked(cue, ghost, balls, (cue_ball, ball), D) or path_blocked(
        target, aim, balls, (cue_ball, ball), D
    )
    ease = (
        math.cos(cut) ** 1.5
        * math.exp(-object_distance / 1.6)
        * math.exp(-cue_distance / 4.0)
        * math.cos(approach / limit * math.pi / 2) ** 0.5
    )
    if blocked:
        ease *= BLOCKED_FACTOR
    value = ease * PLAIN_VALUE[ball_kind(ball)]
    return AimLine(ball, pocket, math.atan2(cy, cx), cut, cue_distance, object_distance, ease, value, blocked)


def aim_lines(
    table: TableSpec,
    balls: Mapping[str, Vec2 | None],
    cue_ball: str,
    cue: Vec2,
    targets: Iterable[str],
    pockets: Iterable[str],
) -> list[AimLine]:
    """Every ghost-ball aim from ``cue``, best first."""
    pockets = tuple(pockets)
    found = [
        line
        for ball in targets
        for pocket in pockets
        if (line := aim_line(table, balls, cue_ball, cue, ball, pocket)) is not None
    ]
    found.sort(key=lambda line: (-line.value, line.ball, line.pocket))
    return found


def best_value(
    table: TableSpec,
    balls: Mapping[str, Vec2 | None],
    cue_ball: str,
    cue: Vec2,
    targets: Iterable[str],
    pockets: Iterable[str],
) -> float:
    """The best estimated pot value from ``cue``: how easy a position is for the player at it."""
    best = 0.0
    pockets = tuple(pockets)
    for ball in targets:
        for pocket in pockets:
            line = aim_line(table, balls, cue_ball, cue, ball, pocket)
            if line is not None and line.value > best:
                best = line.value
    return best


def estimate_speed(table: TableSpec, line: AimLine, rolling_decel: float = 0.0981) -> float:
    """A cue tip speed (m/s) that brings the object ball to the pocket with some pace left.

    Rough energy budget: the object ball needs sqrt(2 a d) at the ball for distance d (plus margin),
    gets about cos(cut) of the cue ball's speed, the cue ball loses some on its way, and a centre hit
    gives the ball about 1.2 times the tip speed. The search multiplies this by a few factors.
    """
    margin = 0.35
    object_speed = math.sqrt(2 * rolling_decel * (line.object_distance + margin)) / 0.71
    cue_speed = object_speed / max(0.25, math.cos(line.cut))
    cue_speed = math.sqrt(cue_speed**2 + 2 * rolling_decel * line.cue_distance / 0.71)
    return max(0.5, min(6.0, cue_speed / 1.2))
