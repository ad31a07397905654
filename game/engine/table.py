"""The Kaisa table: playing area, cushions as straight segments, rounded jaw tips, pockets and spots.

Coordinates of K-2: origin at the playing-area corner of the home end, +x toward the foot, +y across,
metres. The playing area is the rectangle between the cushion noses, [0, L] x [0, W].

Geometry of a pocket (K-1.3 to K-1.5). Each pocket has two jaw tips: vertical cylinders of radius
``rho`` tangent to the cushion nose line, whose centres sit ``rho`` behind that line. The mouth width is
the clearance between the two tip cylinders (72 mm corner, 82 mm middle), so a 68 mm ball has 4 mm to
spare in a corner: the jaws decide what drops. From each tip a straight facing runs outward, parallel to
the pocket's axis, so the facings form a corridor as wide as the mouth. A ball is pocketed when its
centre crosses the capture line, which lies ``capture_depth`` behind the line through the two tip
centres and spans the corridor; a ball's centre can only get there between the jaws.

Cushion segment ids (the ``where`` of a ``ball_cushion`` event):

- ``head``: the home-end cushion, x = 0, between the two home corner pockets;
- ``foot``: the foot-end cushion, x = L;
- ``right_home`` / ``right_foot``: the long cushion at y = 0 (the side of pockets ``*_right``),
  between the home corner and the middle pocket / the middle pocket and the foot corner;
- ``left_home`` / ``left_foot``: the same on the long cushion at y = W.

Jaw tips and facings belong to their pocket (``where`` = pocket id, kind ``ball_jaw``); they are not
cushions for counting (K-10.4).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Any

from game.engine.balls import BallSpec, Vec2

#: Cushion ids in a fixed order (also the order of ``TableSpec.cushions``).
CUSHION_IDS: tuple[str, ...] = ("head", "foot", "right_home", "right_foot", "left_home", "left_foot")

#: Pocket ids of K-2.7 in a fixed order (also the order of ``TableSpec.pockets``).
POCKET_IDS: tuple[str, ...] = (
    "home_right",
    "home_left",
    "middle_right",
    "middle_left",
    "foot_right",
    "foot_left",
)

#: Spot names of K-2.
SPOT_NAMES: tuple[str, ...] = ("front", "center", "rear", "head_cushion", "foot_cushion")

#: K-6.2: a ball whose centre lies within ``R + FROZEN_TOLERANCE`` of a straight cushion nose is frozen to
#: it. A ball that came to rest against a rail sits a micrometre or so off it (the physics separates bodies
#: by a micrometre and rounds rest positions to micrometres), so this has to be more than exact contact.
FROZEN_TOLERANCE = 1e-4


@dataclass(frozen=True, slots=True)
class Cushion:
    """A straight cushion nose from ``a`` to ``b``; ``normal`` is the unit vector into the cloth."""

    id: str
    a: Vec2
    b: Vec2
    normal: Vec2


@dataclass(frozen=True, slots=True)
class Jaw:
    """A rounded jaw tip: a vertical cylinder of ``radius`` around ``center`` (m)."""

    pocket: str
    center: Vec2
    radius: float


@dataclass(frozen=True, slots=True)
class Facing:
    """A straight pocket facing from ``a`` (on the jaw tip) to ``b`` (deep in the pocket).

    ``normal`` points into the pocket's corridor, i.e. toward where a ball may be.
    """

    pocket: str
    a: Vec2
    b: Vec2
    normal: Vec2


@dataclass(frozen=True, slots=True)
class Pocket:
    """One pocket: ``center`` is the K-2.7 reference point (a corner or the middle of a long side).

    ``mouth`` holds the two jaw tip centres, ``axis`` the unit vector pointing out of the table along the
    pocket, ``capture`` the two ends of the capture line, ``mouth_width`` the clearance between the tips.
    """

    id: str
    center: Vec2
    mouth: tuple[Vec2, Vec2]
    capture: tuple[Vec2, Vec2]
    axis: Vec2
    mouth_width: float
    jaw_radius: float

    @property
    def mouth_center(self) -> Vec2:
        """The middle of the line through the two jaw tip centres."""
        (ax, ay), (bx, by) = self.mouth
        return (0.5 * (ax + bx), 0.5 * (ay + by))


def _r6(value: float) -> float:
    return round(value, 6) + 0.0


def _pt(point: Vec2) -> list[float]:
    return [_r6(point[0]), _r6(point[1])]


@dataclass(frozen=True)
class TableSpec:
    """A Kaisa table. Build it with :func:`kaisa_table`; the derived geometry is computed here.

    Inputs (SI units): playing area ``length`` x ``width`` between the cushion noses (K-1.1), ball
    radius and mass (K-1.2), ``cushion_height`` of the nose above the cloth (K-1.6), pocket mouths and
    jaw tip radii (K-1.3 to K-1.5), ``capture_depth`` of the capture line behind the jaw tip centres and
    ``facing_length`` of the facings.
    """

    length: float = 2.84
    width: float = 1.42
    ball_radius: float = 0.034
    ball_mass: float = 0.220
    cushion_height: float = 0.042
    corner_mouth: float = 0.072
    middle_mouth: float = 0.082
    corner_jaw_radius: float = 0.005
    middle_jaw_radius: float = 0.011
    capture_depth: float = 0.004
    facing_length: float = 0.1

    home_line_x: float = field(init=False)
    spots: dict[str, Vec2] = field(init=False)
    pockets: dict[str, Pocket] = field(init=False)
    cushions: tuple[Cushion, ...] = field(init=False)
    jaws: tuple[Jaw, ...] = field(init=False)
    facings: tuple[Facing, ...] = field(init=False)
    ball: BallSpec = field(init=False)

    def __post_init__(self) -> None:
        L, W, R = self.length, self.width, self.ball_radius
        if not (L > 8 * R and W > 8 * R and R > 0 and self.ball_mass > 0):
            raise ValueError("table too small for its balls")
        if not (self.corner_mouth > 2 * R and self.middle_mouth > 2 * R):
            raise ValueError("pocket mouths must be wider than a ball")
        D = 2 * R
        set_ = object.__setattr__
        set_(self, "ball", BallSpec(radius=R, mass=self.ball_mass))
        set_(self, "home_line_x", L / 4)
        set_(
            self,
            "spots",
            {
                "front": (L / 4, W / 2),
                "center": (L / 2, W / 2),
                "rear": (3 * L / 4, W / 2),
                "head_cushion": (D, W / 2),
                "foot_cushion": (L - D, W / 2),
            },
        )
        rc, rm = self.corner_jaw_radius, self.middle_jaw_radius
        # Distance from the corner to where the cushion nose ends (tangent point of the jaw tip):
        # the tip centres (-rc, s) and (s, -rc) are sqrt(2)(s + rc) apart, minus 2 rc of clearance.
        s = (self.corner_mouth + 2 * rc) / math.sqrt(2) - rc
        # Half the distance between the nose ends at a middle pocket.
        h = self.middle_mouth / 2 + rm
        set_(
            self,
            "cushions",
            (
                Cushion("head", (0.0, s), (0.0, W - s), (1.0, 0.0)),
                Cushion("foot", (L, s), (L, W - s), (-1.0, 0.0)),
                Cushion("right_home", (s, 0.0), (L / 2 - h, 0.0), (0.0, 1.0)),
                Cushion("right_foot", (L / 2 + h, 0.0), (L - s, 0.0), (0.0, 1.0)),
                Cushion("left_home", (s, W), (L / 2 - h, W), (0.0, -1.0)),
                Cushion("left_foot", (L / 2 + h, W), (L - s, W), (0.0, -1.0)),
            ),
        )
        c = 1 / math.sqrt(2)
        # (id, reference point, tip centre 1, tip centre 2, outward axis, mouth, jaw radius)
        layout = (
            ("home_right", (0.0, 0.0), (-rc, s), (s, -rc), (-c, -c), self.corner_mouth, rc),
            ("home_left", (0.0, W), (-rc, W - s), (s, W + rc), (-c, c), self.corner_mouth, rc),
            ("middle_right", (L / 2, 0.0), (L / 2 - h, -rm), (L / 2 + h, -rm), (0.0, -1.0), self.middle_mouth, rm),
            ("middle_left", (L / 2, W), (L / 2 - h, W + rm), (L / 2 + h, W + rm), (0.0, 1.0), self.middle_mouth, rm),
            ("foot_right", (L, 0.0), (L + rc, s), (L - s, -rc), (c, -c), self.corner_mouth, rc),
            ("foot_left", (L, W), (L + rc, W - s), (L - s, W + rc), (c, c), self.corner_mouth, rc),
        )
        pockets: dict[str, Pocket] = {}
        jaws: list[Jaw] = []
        facings: list[Facing] = []
        for pid, center, t1, t2, axis, mouth, rho in layout:
            mid = ((t1[0] + t2[0]) / 2, (t1[1] + t2[1]) / 2)
            half = mouth / 2
            for tip, other in ((t1, t2), (t2, t1)):
                dx, dy = other[0] - tip[0], other[1] - tip[1]
                n = math.hypot(dx, dy)
                nx, ny = dx / n, dy / n
                a = (tip[0] + rho * nx, tip[1] + rho * ny)
                b = (a[0] + self.facing_length * axis[0], a[1] + self.facing_length * axis[1])
                jaws.append(Jaw(pid, tip, rho))
                facings.append(Facing(pid, a, b, (nx, ny)))
            ux, uy = (t2[0] - t1[0]), (t2[1] - t1[1])
            un = math.hypot(ux, uy)
            ux, uy = ux / un, uy / un
            cx = mid[0] + self.capture_depth * axis[0]
            cy = mid[1] + self.capture_depth * axis[1]
            capture = ((cx - half * ux, cy - half * uy), (cx + half * ux, cy + half * uy))
            pockets[pid] = Pocket(pid, center, (t1, t2), capture, axis, mouth, rho)
        set_(self, "pockets", pockets)
        set_(self, "jaws", tuple(jaws))
        set_(self, "facings", tuple(facings))

    def as_dict(self) -> dict[str, Any]:
        """The whole geometry the browser client draws and aims with, JSON-ready (micrometres).

        Everything derived is sent as computed here, so the client derives nothing: each cushion's unit
        ``normal`` into the cloth, each pocket's outward unit ``axis`` and ``mouth_center`` (the middle of
        the line through its jaw tip centres), the ``facings`` with their normals into the pocket's
        corridor, and the K-6.2 ``frozen_tolerance``.
        """
        return {
            "length": self.length,
            "width": self.width,
            "ball_radius": self.ball_radius,
            "cushion_height": self.cushion_height,
            "home_line_x": _r6(self.home_line_x),
            "frozen_tolerance": FROZEN_TOLERANCE,
            "spots": {name: _pt(self.spots[name]) for name in SPOT_NAMES},
            "pockets": {
                pid: {
                    "center": _pt(p.center),
                    "mouth": [_pt(p.mouth[0]), _pt(p.mouth[1])],
                    "capture": [_pt(p.capture[0]), _pt(p.capture[1])],
                    "mouth_center": _pt(p.mouth_center),
                    "axis": _pt(p.axis),
                    "mouth_width": p.mouth_width,
                    "jaw_radius": p.jaw_radius,
                }
                for pid, p in self.pockets.items()
            },
            "cushions": [{"id": c.id, "a": _pt(c.a), "b": _pt(c.b), "normal": _pt(c.normal)} for c in self.cushions],
            "jaws": [{"pocket": j.pocket, "center": _pt(j.center), "radius": j.radius} for j in self.jaws],
            "facings": [
                {"pocket": f.pocket, "a": _pt(f.a), "b": _pt(f.b), "normal": _pt(f.normal)} for f in self.facings
            ],
        }

    def frozen_cushion(self, point: Vec2, tolerance: float = FROZEN_TOLERANCE) -> str | None:
        """K-6.2: the id of the cushion a ball centred at ``point`` is frozen to, or None.

        Frozen: the centre lies within ``R + tolerance`` of a straight cushion nose and the foot of its
        perpendicular falls strictly inside the nose segment. Where the nearest point of the nose is its
        end, the contact point lies on the jaw rounding and the ball is not frozen to the cushion ("unless
        its cushion contact point lies on a jaw"). The rules judge K-6.2 with this, and the physics uses it
        to tell a resting contact from a collision (a ball frozen to a rail and pushed into it does not hit
        it anew).
        """
        R = self.ball_radius
        reach = R + tolerance
        x, y = point
        if reach < x < self.length - reach and reach < y < self.width - reach:
            return None  # every cushion nose lies on an edge of the playing area
        for cushion in self.cushions:
            (ax, ay), (bx, by) = cushion.a, cushion.b
            dx, dy = bx - ax, by - ay
            t = ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)
            if t <= 0.0 or t >= 1.0:
                continue
            if point_segment_distance(point, cushion.a, cushion.b) <= reach:
                return cushion.id
        return None

    def ball_fits(self, point: Vec2, tolerance: float = 1e-9) -> bool:
        """True if a ball centred at ``point`` lies wholly on the cloth, touching no cushion or jaw.

        The inset rectangle [R, L - R] x [R, W - R] is exactly the set of such centres: a centre inside
        it is at least R + rho from every jaw tip and on the table side of every pocket mouth. Used for
        ball in hand and respotting; a ball touching a cushion (distance exactly R) fits.
        """
        R = self.ball_radius - tolerance
        x, y = point
        return R <= x <= self.length - R and R <= y <= self.width - R

    def ball_position_valid(self, point: Vec2, tolerance: float = 1e-6) -> bool:
        """True if a ball can physically rest with its centre at ``point``: wholly on the cloth
        (:meth:`ball_fits`), or hanging in a pocket's jaws, overlapping no cushion nose, jaw tip or
        facing and not beyond the line through the pocket's jaw tip centres (there it would drop).

        Final positions of a shot satisfy this; placements (ball in hand, respotting) use ``ball_fits``.
        """
        if self.ball_fits(point, tolerance):
            return True
        R = self.ball_radius - tolerance
        x, y = point
        if not (-R <= x <= self.length + R and -R <= y <= self.width + R):
            return False
        for cushion in self.cushions:
            if point_segment_distance(point, cushion.a, cushion.b) < R:
                return False
        for jaw in self.jaws:
            if math.dist(point, jaw.center) < R + jaw.radius:
                return False
        for facing in self.facings:
            if point_segment_distance(point, facing.a, facing.b) < R:
                return False
        for pocket in self.pockets.values():
            (ax, ay), (bx, by) = pocket.mouth
            depth = (x - 0.5 * (ax + bx)) * pocket.axis[0] + (y - 0.5 * (ay + by)) * pocket.axis[1]
            if depth > tolerance:
                return False
        return True

    def in_home(self, point: Vec2) -> bool:
        """K-2.2: a ball centre on the home line is in the home."""
        return point[0] <= self.home_line_x

    def nearest_cushion(self, point: Vec2) -> tuple[float, str]:
        """(distance from ``point`` to the nearest cushion nose segment in m, that cushion's id).

        The distance is from the ball centre, so a ball frozen to a cushion gives ``ball_radius``.
        Ties go to the first cushion in ``CUSHION_IDS`` order.
        """
        best = (math.inf, "")
        for cushion in self.cushions:
            d = point_segment_distance(point, cushion.a, cushion.b)
            if d < best[0]:
                best = (d, cushion.id)
        return best

    def distance_to_nearest_cushion(self, point: Vec2) -> float:
        """Distance (m) from ``point`` to the nearest cushion nose segment; see :meth:`nearest_cushion`."""
        return self.nearest_cushion(point)[0]


def point_segment_distance(p: Vec2, a: Vec2, b: Vec2) -> float:
    """Euclidean distance from point ``p`` to the segment ``a``-``b``."""
    abx, aby = b[0] - a[0], b[1] - a[1]
    apx, apy = p[0] - a[0], p[1] - a[1]
    denom = abx * abx + aby * aby
    t = 0.0 if denom == 0 else max(0.0, min(1.0, (apx * abx + apy * aby) / denom))
    return math.hypot(apx - t * abx, apy - t * aby)


_INPUT_FIELDS = frozenset(f.name for f in fields(TableSpec) if f.init)


def kaisa_table(**overrides: float) -> TableSpec:
    """The standard Kaisa table (K-1, K-2), with optional overrides of any ``TableSpec`` input.

    ``ball_diameter`` (K-1.2 flag, 0.068 m by default, 0.067 m the post-2016 size) may be given instead
    of ``ball_radius``.
    """
    params = dict(overrides)
    if "ball_diameter" in params:
        if "ball_radius" in params:
            raise ValueError("give ball_diameter or ball_radius, not both")
        params["ball_radius"] = float(params.pop("ball_diameter")) / 2
    unknown = sorted(set(params) - _INPUT_FIELDS)
    if unknown:
        raise TypeError(f"unknown table parameter(s): {', '.join(unknown)}")
    return TableSpec(**{k: float(v) for k, v in params.items()})
