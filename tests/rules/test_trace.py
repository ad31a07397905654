"""The geometry facts read from a shot's path: K-6.2 rolled in along a cushion, K-7.2 crossing the home
line, K-3.1 the lag's side (exact extremes per segment)."""

from __future__ import annotations

import pytest

from game.engine.rules import table_for
from game.engine.rules.events import HandEvent
from game.engine.rules.trace import coordinate_extent, crossed_home_line, rolled_in_along_cushion
from tests.rules.fakes import FakeShot

T = table_for(0.068)
R = T.ball_radius
W = T.width
L = T.length


def path_shot(points: list[tuple[float, tuple[float, float]]], drop: str | None = None) -> FakeShot:
    end = points[-1][0]
    events = [HandEvent(0.0, "strike", ("red1",))]
    events += [HandEvent(t, "rolling_to_rolling", ("red1",)) for t, _ in points[1:-1]]
    if drop:
        events.append(HandEvent(end, "ball_pocket", ("red1",), drop))
    return FakeShot(events, {}, {"red1": drop} if drop else {}, end, {"red1": points})


def test_k6_2_rolled_in_along_the_rail() -> None:
    """Along the left rail for 0.4 m, then between the jaws into foot_left: rolled in."""
    shot = path_shot([(0.0, (2.2, W - R)), (1.0, (L - 0.06, W - R)), (1.1, (L - 0.01, W + 0.01))], "foot_left")
    assert rolled_in_along_cushion(shot, "red1", T)


def test_k6_2_straight_pot_from_the_cloth_is_not_rolled_in() -> None:
    shot = path_shot([(0.0, (2.0, 0.9)), (1.0, (L - 0.01, W + 0.01))], "foot_left")
    assert not rolled_in_along_cushion(shot, "red1", T)


def test_k6_2_touching_the_rail_for_less_than_a_diameter_is_not_rolled_in() -> None:
    shot = path_shot(
        [(0.0, (2.0, 0.9)), (1.0, (L - 0.09, W - R)), (1.05, (L - 0.06, W - R)), (1.1, (L - 0.01, W + 0.01))],
        "foot_left",
    )
    assert not rolled_in_along_cushion(shot, "red1", T)


def test_k7_2_crossing_the_home_line_and_coming_back() -> None:
    shot = path_shot([(0.0, (0.4, 0.3)), (1.0, (0.9, 0.3)), (2.0, (0.3, 0.3))])
    assert crossed_home_line(shot, "red1", T)
    stay = path_shot([(0.0, (0.4, 0.3)), (1.0, (0.7, 0.3)), (2.0, (0.3, 0.3))])
    assert not crossed_home_line(stay, "red1", T)
    assert coordinate_extent(shot, "red1", 0) == pytest.approx((0.3, 0.9))


def test_k6_2_the_contact_test_is_the_distance_to_the_nose_to_the_bit() -> None:
    """The walk back tests ~150 samples a pot against every nose with the projection made once
    (`_touching_cushion`); on points near every nose, inside it and beyond its ends, it names exactly
    the cushion the table's own `point_segment_distance` puts within contact, so no verdict moves."""
    import random

    from game.engine.rules.trace import CONTACT_TOLERANCE, _noses, _touching_cushion
    from game.engine.table import point_segment_distance

    limit = R + CONTACT_TOLERANCE
    noses = _noses(T)
    rng = random.Random(62)
    hits = misses = 0
    for cushion in T.cushions:
        (ax, ay), (bx, by) = cushion.a, cushion.b
        for _ in range(300):
            s = rng.uniform(-0.1, 1.1)
            point = (ax + s * (bx - ax) + rng.uniform(-2 * R, 2 * R), ay + s * (by - ay) + rng.uniform(-2 * R, 2 * R))
            expected = None
            for other in T.cushions:
                (cx, cy), (ex, ey) = other.a, other.b
                dx, dy = ex - cx, ey - cy
                t = ((point[0] - cx) * dx + (point[1] - cy) * dy) / (dx * dx + dy * dy)
                if 0.0 < t < 1.0 and point_segment_distance(point, other.a, other.b) <= limit:
                    expected = other.id
                    break
            assert _touching_cushion(point, noses, limit) == expected, (cushion.id, point)
            hits, misses = hits + (expected is not None), misses + (expected is None)
    assert hits > 500 and misses > 500
