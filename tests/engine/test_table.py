"""The Kaisa table geometry (K-1, K-2) and its JSON form for the client."""

from __future__ import annotations

import json
import math

import pytest

from game.engine.balls import BALL_IDS, BallSpec, BallState
from game.engine.table import CUSHION_IDS, POCKET_IDS, kaisa_table


def test_dimensions_spots_and_pockets() -> None:
    t = kaisa_table()
    assert (t.length, t.width, t.ball_radius, t.ball_mass, t.cushion_height) == (2.84, 1.42, 0.034, 0.220, 0.042)
    assert t.home_line_x == pytest.approx(0.71)
    assert t.spots == {
        "front": (0.71, 0.71),
        "center": (1.42, 0.71),
        "rear": pytest.approx((2.13, 0.71)),
        "head_cushion": (0.068, 0.71),
        "foot_cushion": pytest.approx((2.772, 0.71)),
    }
    assert {k: p.center for k, p in t.pockets.items()} == {
        "home_right": (0.0, 0.0),
        "home_left": (0.0, 1.42),
        "middle_right": (1.42, 0.0),
        "middle_left": (1.42, 1.42),
        "foot_right": (2.84, 0.0),
        "foot_left": (2.84, 1.42),
    }
    assert tuple(t.pockets) == POCKET_IDS
    assert tuple(c.id for c in t.cushions) == CUSHION_IDS


@pytest.mark.parametrize("pocket", POCKET_IDS)
def test_mouth_clearance_between_the_jaw_tips(pocket: str) -> None:
    t = kaisa_table()
    p = t.pockets[pocket]
    gap = math.dist(*p.mouth) - 2 * p.jaw_radius
    expected = 0.072 if pocket.startswith(("home", "foot")) else 0.082
    assert gap == pytest.approx(expected, abs=1e-12)
    assert p.jaw_radius == (0.005 if expected == 0.072 else 0.011)
    # The capture line lies behind the line of the jaw tip centres, away from the cloth.
    mid = ((p.mouth[0][0] + p.mouth[1][0]) / 2, (p.mouth[0][1] + p.mouth[1][1]) / 2)
    cap = ((p.capture[0][0] + p.capture[1][0]) / 2, (p.capture[0][1] + p.capture[1][1]) / 2)
    depth = (cap[0] - mid[0]) * p.axis[0] + (cap[1] - mid[1]) * p.axis[1]
    assert depth > 0


def test_cushions_end_where_the_jaw_tips_begin() -> None:
    t = kaisa_table()
    ends = [c.a for c in t.cushions] + [c.b for c in t.cushions]
    for end in ends:
        touching = [j for j in t.jaws if abs(math.dist(end, j.center) - j.radius) < 1e-12]
        assert len(touching) == 1


def test_as_dict_has_exactly_the_client_keys_and_is_json() -> None:
    d = kaisa_table().as_dict()
    assert set(d) == {
        "length",
        "width",
        "ball_radius",
        "cushion_height",
        "home_line_x",
        "frozen_tolerance",
        "spots",
        "pockets",
        "cushions",
        "jaws",
        "facings",
    }
    assert set(d["spots"]) == {"front", "center", "rear", "head_cushion", "foot_cushion"}
    for p in d["pockets"].values():
        assert set(p) == {"center", "mouth", "capture", "mouth_center", "axis", "mouth_width", "jaw_radius"}
        assert len(p["mouth"]) == 2 and len(p["capture"]) == 2
    assert {c["id"] for c in d["cushions"]} == set(CUSHION_IDS)
    assert all(set(c) == {"id", "a", "b", "normal"} for c in d["cushions"])
    assert len(d["jaws"]) == 12 and all(set(j) == {"pocket", "center", "radius"} for j in d["jaws"])
    assert len(d["facings"]) == 12 and all(set(f) == {"pocket", "a", "b", "normal"} for f in d["facings"])
    assert json.loads(json.dumps(d)) == d


def test_the_table_is_sent_whole_so_the_client_derives_nothing() -> None:
    """The client used to derive the cushion normals (twice), the pocket axes and mouth centres itself."""
    t = kaisa_table()
    d = t.as_dict()
    L, W = t.length, t.width
    for c in d["cushions"]:
        nx, ny = c["normal"]
        assert math.hypot(nx, ny) == pytest.approx(1.0)
        # Into the cloth: from the nose's middle toward the table's centre.
        mx, my = (c["a"][0] + c["b"][0]) / 2, (c["a"][1] + c["b"][1]) / 2
        assert nx * (L / 2 - mx) + ny * (W / 2 - my) > 0
        # Perpendicular to the nose.
        assert nx * (c["b"][0] - c["a"][0]) + ny * (c["b"][1] - c["a"][1]) == pytest.approx(0.0, abs=1e-9)
    for pid, p in d["pockets"].items():
        (ax, ay), (bx, by) = p["mouth"]
        assert p["mouth_center"] == pytest.approx([(ax + bx) / 2, (ay + by) / 2], abs=1e-6)
        ux, uy = p["axis"]
        assert math.hypot(ux, uy) == pytest.approx(1.0, abs=1e-6)
        # The axis points out of the table, through the capture line.
        (c1x, c1y), (c2x, c2y) = p["capture"]
        cx, cy = (c1x + c2x) / 2 - p["mouth_center"][0], (c1y + c2y) / 2 - p["mouth_center"][1]
        assert ux * cx + uy * cy > 0, pid
        assert p["mouth_width"] == t.pockets[pid].mouth_width


def test_frozen_cushion_is_exact_contact_within_the_tolerance_and_not_on_a_jaw() -> None:
    t = kaisa_table()
    R = t.ball_radius
    assert t.frozen_cushion((1.0, R)) == "right_home"
    assert t.frozen_cushion((1.0, R + 0.5e-4)) == "right_home"
    assert t.frozen_cushion((1.0, R + 2e-4)) is None
    assert t.frozen_cushion((R, 0.7)) == "head"
    assert t.frozen_cushion((t.length - R, 0.7)) == "foot"
    assert t.frozen_cushion((2.0, t.width - R)) == "left_foot"
    assert t.frozen_cushion((1.0, 0.7)) is None
    # Beyond the end of the nose the contact point would be on the jaw rounding.
    assert t.frozen_cushion((t.length / 2, R)) is None


def test_ball_fits_and_nearest_cushion() -> None:
    t = kaisa_table()
    R = t.ball_radius
    assert t.ball_fits((R, R))
    assert t.ball_fits((1.0, 0.7))
    assert not t.ball_fits((R - 1e-4, 0.7))
    assert not t.ball_fits((1.0, t.width - R + 1e-4))
    assert t.nearest_cushion((1.0, R)) == (pytest.approx(R), "right_home")
    assert t.nearest_cushion((2.0, t.width - 0.05)) == (pytest.approx(0.05), "left_foot")
    assert t.distance_to_nearest_cushion((0.1, 0.7)) == pytest.approx(0.1)
    assert t.in_home((0.71, 0.3)) and not t.in_home((0.7101, 0.3))


def test_ball_diameter_flag_and_overrides() -> None:
    t = kaisa_table(ball_diameter=0.067)
    assert t.ball_radius == pytest.approx(0.0335)
    assert t.ball == BallSpec(radius=0.0335, mass=0.22)
    assert t.spots["head_cushion"] == (pytest.approx(0.067), 0.71)
    with pytest.raises(TypeError):
        kaisa_table(pocket_size=1.0)
    with pytest.raises(ValueError):
        kaisa_table(ball_diameter=0.067, ball_radius=0.03)


def test_ball_state_normalises_to_float_tuples() -> None:
    s = BallState([1, 2])  # type: ignore[arg-type]
    assert s.position == (1.0, 2.0) and s.velocity == (0.0, 0.0) and s.spin == (0.0, 0.0, 0.0)
    assert isinstance(s.position[0], float)
    assert BALL_IDS == ("white1", "white2", "red1", "red2", "kaisa")


def test_ball_position_valid_allows_hanging_in_the_jaws_only() -> None:
    t = kaisa_table()
    R = t.ball_radius
    L = t.length
    assert t.ball_position_valid((1.0, 0.7))
    # Over the middle pocket opening, centre 5 mm beyond the cushion line, clear of both jaw tips.
    assert t.ball_position_valid((L / 2, R - 0.005))
    assert not t.ball_fits((L / 2, R - 0.005))
    # Beyond the line of the jaw tip centres: over the hole.
    assert not t.ball_position_valid((L / 2, -0.02))
    # Into a cushion or a jaw tip.
    assert not t.ball_position_valid((1.0, R - 0.002))
    assert not t.ball_position_valid((L / 2 - 0.06, R - 0.002))
