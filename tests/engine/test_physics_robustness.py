"""Hundreds of random and adversarial shots: nothing overlaps, nothing escapes, every shot stops."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from game.engine.balls import BALL_IDS, BallState
from game.engine.physics import Shot, SimulationCapError, Strike, StrikeError, simulate
from tests.engine.physics_helpers import TABLE, R, check_invariants, still

L, W = TABLE.length, TABLE.width


def _layout(points: list[tuple[float, float]]) -> dict[str, BallState] | None:
    balls: dict[str, BallState] = {}
    for ball_id, p in zip(BALL_IDS, points, strict=False):
        if any(math.dist(p, q.position) < 2 * R for q in balls.values()):
            return None
        balls[ball_id] = still(*p)
    return balls


coord = st.tuples(st.floats(R, L - R), st.floats(R, W - R))
strikes = st.builds(
    lambda speed, angle, r, phi: Strike("white1", speed, angle, r * math.cos(phi), r * math.sin(phi)),
    st.floats(0.05, 9.0),
    st.floats(-math.pi, math.pi),
    st.floats(0.0, 0.6),
    st.floats(-math.pi, math.pi),
)


def _run(balls: dict[str, BallState], strike: Strike) -> Shot:
    shot = simulate(TABLE, balls, strike)
    check_invariants(shot)
    return shot


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(points=st.lists(coord, min_size=2, max_size=5), strike=strikes)
def test_random_shots_never_overlap_or_escape(points: list[tuple[float, float]], strike: Strike) -> None:
    balls = _layout(points)
    if balls is None:
        return
    _run(balls, strike)


@st.composite
def clusters(draw: st.DrawFn) -> dict[str, BallState]:
    """Balls frozen together in a chain or a tight pack, often against a cushion or in a corner."""
    x = draw(st.floats(R, L - R))
    y = draw(st.floats(R, W - R))
    balls: dict[str, BallState] = {}
    for ball_id in BALL_IDS:
        for _ in range(20):
            if balls:
                anchor = draw(st.sampled_from(sorted(balls)))
                ang = draw(st.floats(0, 2 * math.pi))
                gap = draw(st.sampled_from([0.0, 0.0, 1e-6, 1e-4]))
                ax, ay = balls[anchor].position
                p = (ax + (2 * R + gap) * math.cos(ang), ay + (2 * R + gap) * math.sin(ang))
            else:
                p = (x, y)
            p = (min(max(p[0], R), L - R), min(max(p[1], R), W - R))
            if all(math.dist(p, b.position) >= 2 * R for b in balls.values()):
                balls[ball_id] = still(*p)
                break
    if "white1" not in balls:
        balls["white1"] = still(x, y)
    return balls


#: A chain frozen against the foot cushion, struck along the chain: each contact pushes both balls apart by
#: half the separation, so the first ball is pushed toward the rubber twice at the start.
CHAIN_ON_A_CUSHION = {
    "white1": still(R, 0.25),
    "white2": still(3 * R, 0.25),
    "red1": still(5 * R, 0.25),
    "red2": still(7 * R, 0.25),
    "kaisa": still(0.1914419206428783, 0.3145309541161799),
}


@settings(max_examples=120, deadline=None)
@given(balls=clusters(), strike=strikes)
@example(balls=CHAIN_ON_A_CUSHION, strike=Strike("white1", 1.0, 0.0, 0.0, 0.0))
def test_clusters_and_frozen_balls(balls: dict[str, BallState], strike: Strike) -> None:
    _run(balls, strike)


@settings(max_examples=80, deadline=None)
@given(
    along=st.floats(0.05, 0.95),
    side=st.integers(0, 3),
    angle=st.floats(-math.pi, math.pi),
    speed=st.floats(0.1, 9.0),
    height=st.floats(-0.6, 0.6),
)
def test_balls_on_a_rail(along: float, side: int, angle: float, speed: float, height: float) -> None:
    """A cue ball frozen to a cushion with another frozen beside it, struck anywhere, even into the rail."""
    x, y, dx, dy = [
        (R, along * W, 0, 1),
        (L - R, along * W, 0, 1),
        (along * L, R, 1, 0),
        (along * L, W - R, 1, 0),
    ][side]
    balls = {"white1": still(x, y)}
    ox, oy = x + 2 * R * dx, y + 2 * R * dy
    if R <= ox <= L - R and R <= oy <= W - R:
        balls["red1"] = still(ox, oy)
    _run(balls, Strike("white1", speed, angle, 0.0, height))


@settings(max_examples=80, deadline=None)
@given(
    pocket=st.sampled_from(sorted(TABLE.pockets)),
    lateral=st.floats(-0.06, 0.06),
    distance=st.floats(0.1, 0.6),
    tilt=st.floats(-0.5, 0.5),
    spin=st.floats(-0.6, 0.6),
)
def test_shots_into_the_jaws_at_full_speed(
    pocket: str, lateral: float, distance: float, tilt: float, spin: float
) -> None:
    p = TABLE.pockets[pocket]
    mid = ((p.mouth[0][0] + p.mouth[1][0]) / 2, (p.mouth[0][1] + p.mouth[1][1]) / 2)
    ax, ay = p.axis
    start = (mid[0] - distance * ax - lateral * ay, mid[1] - distance * ay + lateral * ax)
    if not TABLE.ball_fits(start):
        return
    angle = math.atan2(ay, ax) + tilt
    _run({"white1": still(*start)}, Strike("white1", 9.0, angle, spin, 0.0))


@pytest.mark.parametrize("speed", [0.5, 3.0, 9.0])
def test_newtons_cradle_along_the_table(speed: float) -> None:
    balls = {b: still(0.5 + i * 2 * R, 0.71) for i, b in enumerate(BALL_IDS)}
    shot = _run(balls, Strike("white1", speed, 0.0))
    assert len(shot.events) < 400


def test_cue_ball_frozen_into_a_corner_pair() -> None:
    balls = {"white1": still(R, R + 0.06), "red1": still(R, R + 0.06 + 2 * R), "red2": still(R + 2 * R, R + 0.06)}
    for angle in [i * math.pi / 8 for i in range(16)]:
        _run(balls, Strike("white1", 9.0, angle, 0.3, -0.5))


def test_every_ball_gets_a_segment_and_still_balls_one() -> None:
    balls = {"white1": still(0.5, 0.5), "kaisa": still(2.0, 1.0)}
    shot = simulate(TABLE, balls, Strike("white1", 1.0, math.pi))
    assert shot.segments["kaisa"] == [[0, 2.0, 1.0, 0, 0, 0, 0]]
    assert list(shot.segments) == ["white1", "kaisa"]


def test_no_strike_and_nothing_moving_is_an_empty_shot() -> None:
    shot = simulate(TABLE, {"white1": still(0.5, 0.5)})
    assert shot.events == [] and shot.duration == 0.0
    assert shot.final["white1"].position == (0.5, 0.5)


@pytest.mark.parametrize(
    "strike",
    [
        Strike("white1", 0.0, 0.0),
        Strike("white1", -1.0, 0.0),
        Strike("white1", 9.01, 0.0),
        Strike("white1", math.nan, 0.0),
        Strike("white1", 1.0, math.inf),
        Strike("white1", 1.0, 0.0, 0.5, 0.4),
        Strike("white1", 1.0, 0.0, 0.61, 0.0),
        Strike("white2", 1.0, 0.0),
    ],
)
def test_bad_strikes_are_refused(strike: Strike) -> None:
    with pytest.raises(StrikeError):
        simulate(TABLE, {"white1": still(0.5, 0.5)}, strike)


def test_strike_error_is_a_value_error_and_unknown_balls_are_refused() -> None:
    assert issubclass(StrikeError, ValueError)
    with pytest.raises(StrikeError):
        simulate(TABLE, {"cue": still(0.5, 0.5)})
    with pytest.raises(StrikeError):
        simulate(TABLE, {"white1": still(-0.5, 0.5)})


def test_offset_of_exactly_point_six_is_allowed() -> None:
    simulate(TABLE, {"white1": still(0.5, 0.5)}, Strike("white1", 9.0, 0.0, 0.6, 0.0))
    simulate(TABLE, {"white1": still(0.5, 0.5)}, Strike("white1", 9.0, 0.0, 0.0, -0.6))


def test_caps_raise_instead_of_freezing() -> None:
    from game.engine.physics import PhysicsParams

    balls = {"white1": still(0.5, 0.5), "red1": still(1.0, 0.7)}
    with pytest.raises(SimulationCapError):
        simulate(TABLE, balls, Strike("white1", 5.0, 0.3), PhysicsParams(max_events=3))
    with pytest.raises(SimulationCapError):
        simulate(TABLE, balls, Strike("white1", 5.0, 0.3), PhysicsParams(max_time=1.0))
    assert issubclass(SimulationCapError, RuntimeError)


def test_rest_state_is_rounded_to_micrometres_and_replays() -> None:
    balls = {"white1": still(0.5, 0.5), "red1": still(1.0, 0.7), "kaisa": still(1.42, 0.71)}
    shot = simulate(TABLE, balls, Strike("white1", 4.0, 0.35, 0.2, 0.1))
    for state in shot.final.values():
        for v in state.position:
            assert round(v, 6) == v
    again = simulate(TABLE, shot.final, Strike("white1", 2.0, 1.0))
    check_invariants(again)


def test_a_ball_rolling_along_a_cushion_makes_no_stream_of_events() -> None:
    """Frozen to the rail it rolls past the middle pocket (tangent to its jaw tips) without a contact."""
    v = 0.6
    balls = {
        "white1": BallState((0.3, R), velocity=(v, 0.0), spin=(0.0, v / R, 0.0)),
        "red1": still(0.5, W - R),  # parked against the other long cushion, struck along it
    }
    shot = _run(balls, Strike("red1", 0.4, 0.0))
    assert [e.kind for e in shot.events if e.balls[0] == "white1"] == ["rolling_to_stationary"]
    assert shot.final["white1"].position == pytest.approx((0.3 + v * v / (2 * 0.01 * 9.81), R), abs=1e-6)
    assert [e.kind for e in shot.events if e.balls[0] == "red1"] == [
        "strike",
        "sliding_to_rolling",
        "rolling_to_stationary",
    ]


def test_events_are_in_time_order_with_the_strike_first() -> None:
    balls = {b: still(0.4 + 0.4 * i, 0.3 + 0.2 * i) for i, b in enumerate(BALL_IDS)}
    shot = _run(balls, Strike("white1", 6.0, 0.55, -0.3, 0.3))
    assert shot.events[0].kind == "strike"
    times = [e.time for e in shot.events]
    assert times == sorted(times)
    assert shot.duration == times[-1]
