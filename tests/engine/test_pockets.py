"""Pockets: straight-in shots drop, the jaws decide close ones, and a rattled ball stays on the cloth."""

from __future__ import annotations

import math

import pytest

from game.engine.balls import BallState
from game.engine.physics import Strike, simulate
from tests.engine.physics_helpers import TABLE, R, check_invariants, still

CORNERS = {
    "home_right": ((0.0, 0.0), (1, 1)),
    "home_left": ((0.0, TABLE.width), (1, -1)),
    "foot_right": ((TABLE.length, 0.0), (-1, 1)),
    "foot_left": ((TABLE.length, TABLE.width), (-1, -1)),
}


@pytest.mark.parametrize("pocket", sorted(CORNERS))
@pytest.mark.parametrize("speed", [1.0, 3.0, 9.0])
def test_straight_in_shot_drops_in_a_corner(pocket: str, speed: float) -> None:
    (cx, cy), (sx, sy) = CORNERS[pocket]
    red = (cx + sx * 0.3, cy + sy * 0.3)
    cue = (cx + sx * 0.6, cy + sy * 0.6)
    angle = math.atan2(-sy, -sx)
    shot = simulate(TABLE, {"white1": still(*cue), "red1": still(*red)}, Strike("white1", speed, angle))
    assert shot.pocketed.get("red1") == pocket
    check_invariants(shot)


@pytest.mark.parametrize("pocket", ["middle_right", "middle_left"])
@pytest.mark.parametrize("speed", [1.0, 3.0, 9.0])
@pytest.mark.parametrize("cut_deg", [0.0, 20.0])
def test_straight_in_shot_drops_in_a_middle_pocket(pocket: str, speed: float, cut_deg: float) -> None:
    L, W = TABLE.length, TABLE.width
    sy = 1.0 if pocket == "middle_right" else -1.0
    edge = 0.0 if pocket == "middle_right" else W
    red = (L / 2, edge + sy * 0.3)
    # Line from the red to the pocket is straight across; the cue ball sits on the extension, or on a
    # line turned by cut_deg about the ghost ball position.
    ghost = (red[0], red[1] + sy * 2 * R)
    a = math.radians(cut_deg)
    cue = (ghost[0] + 0.4 * math.sin(a), ghost[1] + sy * 0.4 * math.cos(a))
    angle = math.atan2(ghost[1] - cue[1], ghost[0] - cue[0])
    shot = simulate(TABLE, {"white1": still(*cue), "red1": still(*red)}, Strike("white1", speed, angle))
    assert shot.pocketed.get("red1") == pocket
    check_invariants(shot)


def test_ball_rolled_straight_into_each_pocket_drops() -> None:
    for pocket in TABLE.pockets.values():
        mid = ((pocket.mouth[0][0] + pocket.mouth[1][0]) / 2, (pocket.mouth[0][1] + pocket.mouth[1][1]) / 2)
        ax, ay = pocket.axis
        start = (mid[0] - 0.5 * ax, mid[1] - 0.5 * ay)
        v = 1.0
        shot = simulate(
            TABLE, {"red1": BallState(start, velocity=(v * ax, v * ay), spin=(-v * ay / R, v * ax / R, 0.0))}
        )
        assert shot.pocketed == {"red1": pocket.id}
        assert shot.segments["red1"][-1][0] == "pocket"
        assert shot.segments["red1"][-1][2] == pocket.id


@pytest.mark.parametrize("offset_mm", [6.0, 8.0, 12.0])
@pytest.mark.parametrize("speed", [1.0, 4.0, 9.0])
def test_shot_at_the_jaw_rattles_out_and_stays_on_the_cloth(offset_mm: float, speed: float) -> None:
    """A ball aimed along the corner pocket's axis but a few mm off it hits a jaw tip and stays out."""
    c = 1 / math.sqrt(2)
    off = offset_mm / 1000
    start = (0.5 + off * c, 0.5 - off * c)
    shot = simulate(TABLE, {"white1": still(*start)}, Strike("white1", speed, math.atan2(-1, -1)))
    kinds = [e.kind for e in shot.events]
    assert "ball_jaw" in kinds
    assert shot.pocketed == {}
    assert TABLE.ball_fits(shot.final["white1"].position)
    check_invariants(shot)


def test_a_ball_within_the_clearance_drops_after_touching_a_jaw() -> None:
    c = 1 / math.sqrt(2)
    off = 0.0015  # 1.5 mm off the axis: 2 mm of clearance on each side
    start = (0.5 + off * c, 0.5 - off * c)
    shot = simulate(TABLE, {"white1": still(*start)}, Strike("white1", 1.0, math.atan2(-1, -1)))
    assert shot.pocketed == {"white1": "home_right"}


def test_ball_along_the_rail_into_the_corner_hits_the_jaw() -> None:
    """Kaisa pockets are barely wider than a ball: a ball running frozen along the rail is refused."""
    shot = simulate(TABLE, {"white1": BallState((0.5, R), velocity=(-2.0, 0.0), spin=(0.0, -2.0 / R, 0.0))})
    assert shot.events[0].kind == "ball_jaw"
    assert shot.events[0].where == "home_right"
    check_invariants(shot)


def test_pocket_event_and_drop_order() -> None:
    balls = {
        "white1": BallState((0.5, 0.5), velocity=(-1.0, -1.0)),
        "red1": BallState((TABLE.length - 0.5, 0.5), velocity=(2.0, -2.0)),
    }
    shot = simulate(TABLE, balls)
    drops = [e for e in shot.events if e.kind == "ball_pocket"]
    assert [e.balls[0] for e in drops] == list(shot.pocketed)
    assert set(shot.pocketed) == {"white1", "red1"}
    assert list(shot.pocketed) == ["red1", "white1"]
    assert shot.final == {}
    # position_at after the drop is the position at the drop.
    t = drops[0].time
    assert shot.position_at("red1", t + 5.0) == shot.position_at("red1", t)
