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
