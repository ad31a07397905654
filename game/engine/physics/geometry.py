"""The table flattened into plain tuples for the hot loop of contact detection.

A ball's centre can only touch a cushion, a jaw, a facing or a capture line when it leaves the open
rectangle (R, L - R) x (R, W - R): every one of those lies outside it. So a ball whose path stays strictly
inside needs no table test at all, and otherwise only the features whose boxes its path box meets.
"""

from __future__ import annotations

from game.engine.table import TableSpec

#: Feature kinds.
CUSHION = 0
JAW_FACING = 1
CAPTURE = 2

KIND_NAMES: tuple[str, ...] = ("ball_cushion", "ball_jaw", "ball_pocket")

# A straight feature: (kind, where, ax, ay, nx, ny, dx, dy, length, offset, box)
#   contact when n.(p - a) = offset with (p - a).d in [0, length]; n points to where the ball may be.
# A round feature (jaw tip): (where, cx, cy, reach, box); contact when |p - c| = reach = R + rho.
# box = (x0, x1, y0, y1): where a centre touching the feature can be.
Line = tuple[int, str, float, float, float, float, float, float, float, float, tuple[float, float, float, float]]
Round = tuple[str, float, float, float, tuple[float, float, float, float]]


class TableGeometry:
    """Features of one table in a fixed order: cushions, then per pocket its facings, capture and jaws."""

    __slots__ = ("L", "R", "W", "cos_t", "inner", "lines", "mouths", "rounds", "sin_t")

    def __init__(self, table: TableSpec) -> None:
        R = table.ball_radius
        self.R = R
        self.L = table.length
        self.W = table.width
        sin_t = min(max(table.cushion_height / R - 1.0, -1.0), 1.0)
        self.sin_t = sin_t
        self.cos_t = (1.0 - sin_t * sin_t) ** 0.5
        # The ball path box must leave this open rectangle to reach any feature.
        self.inner = (R, table.length - R, R, table.width - R)
        lines: list[Line] = []
        for c in table.cushions:
            lines.append(_line(CUSHION, c.id, c.a, c.b, c.normal, R))
        for f in table.facings:
            lines.append(_line(JAW_FACING, f.pocket, f.a, f.b, f.normal, R))
        for p in table.pockets.values():
            (x1, y1), (x2, y2) = p.capture
            nx, ny = -p.axis[0], -p.axis[1]
            lines.append(_line(CAPTURE, p.id, (x1, y1), (x2, y2), (nx, ny), 0.0))
        rounds: list[Round] = []
        for j in table.jaws:
            reach = R + j.radius
            cx, cy = j.center
            rounds.append((j.pocket, cx, cy, reach, (cx - reach, cx + reach, cy - reach, cy + reach)))
        self.lines = tuple(lines)
        #: (pocket id, x, y, axis x, axis y): the middle of the line through each pocket's jaw tip centres
        #: and the pocket's outward axis. A ball that comes to rest beyond that line is over the hole.
        self.mouths = tuple(
            (p.id, 0.5 * (p.mouth[0][0] + p.mouth[1][0]), 0.5 * (p.mouth[0][1] + p.mouth[1][1]), *p.axis)
            for p in table.pockets.values()
        )
        self.rounds = tuple(rounds)


def _line(
    kind: int,
    where: str,
    a: tuple[float, float],
    b: tuple[float, float],
    normal: tuple[float, float],
    offset: float,
) -> Line:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = (dx * dx + dy * dy) ** 0.5
    dx, dy = dx / length, dy / length
    nx, ny = normal
    # Centres touching the segment lie on it shifted by offset along the normal.
    ox, oy = nx * offset, ny * offset
    xs = (a[0] + ox, b[0] + ox)
    ys = (a[1] + oy, b[1] + oy)
    eps = 1e-6
    box = (min(xs) - eps, max(xs) + eps, min(ys) - eps, max(ys) + eps)
    return (kind, where, a[0], a[1], nx, ny, dx, dy, length, offset, box)


_CACHE: dict[tuple[float, ...], TableGeometry] = {}


def geometry_for(table: TableSpec) -> TableGeometry:
    """The flattened geometry of ``table``, memoised by the table's inputs."""
    key = (
        table.length,
        table.width,
        table.ball_radius,
        table.cushion_height,
        table.corner_mouth,
        table.middle_mouth,
        table.corner_jaw_radius,
        table.middle_jaw_radius,
        table.capture_depth,
        table.facing_length,
    )
    geo = _CACHE.get(key)
    if geo is None:
        if len(_CACHE) > 32:
            _CACHE.clear()
        geo = _CACHE[key] = TableGeometry(table)
    return geo
