"""The table flattened into named tuples for the hot loop of contact detection.

A ball's centre can only touch a cushion, a jaw, a facing or a capture line when it leaves the open
rectangle (R, L - R) x (R, W - R): every one of those lies outside it. So a ball whose path stays strictly
inside needs no table test at all, and otherwise only the features whose boxes its path box meets.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from game.engine.event_kinds import EventKind
from game.engine.table import TableSpec


class FeatureKind(IntEnum):
    """What a table feature is, and so what touching it means."""

    #: A straight cushion nose: a bounce, reported as ``ball_cushion`` (``where`` = cushion id).
    CUSHION = 0
    #: A straight pocket facing: a bounce, reported as ``ball_jaw`` (``where`` = pocket id).
    FACING = 1
    #: A pocket's capture line: the ball drops, ``ball_pocket``.
    CAPTURE = 2
    #: A rounded jaw tip (a vertical cylinder): a bounce, reported as ``ball_jaw``.
    JAW_TIP = 3

    @property
    def event_kind(self) -> EventKind:
        return _EVENT_KINDS[self]


_EVENT_KINDS = {
    FeatureKind.CUSHION: EventKind.BALL_CUSHION,
    FeatureKind.FACING: EventKind.BALL_JAW,
    FeatureKind.CAPTURE: EventKind.BALL_POCKET,
    FeatureKind.JAW_TIP: EventKind.BALL_JAW,
}

#: Path box (x0, x1, y0, y1): where a ball centre touching the feature can be.
Box = tuple[float, float, float, float]


class Line(NamedTuple):
    """A straight feature (cushion nose, facing or capture line) as the hot loop unpacks it.

    A centre touches it when ``n.(p - a) = offset`` with ``(p - a).d`` in ``[0, length]``; ``n`` (unit)
    points to where the ball may be, ``d`` (unit) runs along it.
    """

    kind: FeatureKind
    where: str
    ax: float
    ay: float
    nx: float
    ny: float
    dx: float
    dy: float
    length: float
    offset: float
    box: Box


class Round(NamedTuple):
    """A jaw tip: a centre touches it when ``|p - c| = reach = R + rho``."""

    where: str
    cx: float
    cy: float
    reach: float
    box: Box


#: ``Line`` and ``Round`` as plain tuples, for the hot loop (see ``TableGeometry.line_rows``).
LineRow = tuple[FeatureKind, str, float, float, float, float, float, float, float, float, Box]
RoundRow = tuple[str, float, float, float, Box]


class Mouth(NamedTuple):
    """The middle of the line through a pocket's jaw tip centres and the pocket's outward axis."""

    pocket: str
    x: float
    y: float
    axis_x: float
    axis_y: float


class TableGeometry:
    """Features of one table in a fixed order: cushions, then per pocket its facings, capture and jaws."""

    __slots__ = (
        "L",
        "R",
        "W",
        "cos_t",
        "cushion_lines",
        "inner",
        "line_rows",
        "lines",
        "mouths",
        "round_rows",
        "rounds",
        "sin_t",
    )

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
            lines.append(_line(FeatureKind.CUSHION, c.id, c.a, c.b, c.normal, R))
        for f in table.facings:
            lines.append(_line(FeatureKind.FACING, f.pocket, f.a, f.b, f.normal, R))
        for p in table.pockets.values():
            (x1, y1), (x2, y2) = p.capture
            nx, ny = -p.axis[0], -p.axis[1]
            lines.append(_line(FeatureKind.CAPTURE, p.id, (x1, y1), (x2, y2), (nx, ny), 0.0))
        rounds: list[Round] = []
        for j in table.jaws:
            reach = R + j.radius
            cx, cy = j.center
            rounds.append(Round(j.pocket, cx, cy, reach, (cx - reach, cx + reach, cy - reach, cy + reach)))
        self.lines = tuple(lines)
        #: The same as plain tuples for the contact search: unpacking a tuple subclass takes CPython's
        #: slow path, and the search unpacks every feature of the table for every ball it tests.
        self.line_rows: tuple[LineRow, ...] = tuple(
            (ln.kind, ln.where, ln.ax, ln.ay, ln.nx, ln.ny, ln.dx, ln.dy, ln.length, ln.offset, ln.box) for ln in lines
        )
        #: Index in ``lines`` of each straight cushion, by cushion id.
        self.cushion_lines = {line.where: k for k, line in enumerate(lines) if line.kind == FeatureKind.CUSHION}
        #: Each pocket's mouth: a ball that comes to rest beyond that line is over the hole.
        self.mouths = tuple(
            Mouth(p.id, 0.5 * (p.mouth[0][0] + p.mouth[1][0]), 0.5 * (p.mouth[0][1] + p.mouth[1][1]), *p.axis)
            for p in table.pockets.values()
        )
        self.rounds = tuple(rounds)
        self.round_rows: tuple[RoundRow, ...] = tuple((r.where, r.cx, r.cy, r.reach, r.box) for r in rounds)


def _line(
    kind: FeatureKind,
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
    return Line(kind, where, a[0], a[1], nx, ny, dx, dy, length, offset, box)


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
