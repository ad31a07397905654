"""Textbook laws of billiards physics that the engine must reproduce closely."""

from __future__ import annotations

import math

import pytest

from game.engine.balls import BallState
from game.engine.physics import PhysicsParams, Strike, simulate
from game.engine.physics.collisions.ball_ball import resolve_ball_ball
from tests.engine.physics_helpers import IDEAL, TABLE, R, angle_between, still, velocity_after, velocity_before


def first(shot, kind):  # type: ignore[no-untyped-def]
    return next(e for e in shot.events if e.kind == kind)


@pytest.mark.parametrize("speed", [0.5, 2.0, 3.5])
def test_stun_ball_rolls_on_at_five_sevenths(speed: float) -> None:
    shot = simulate(TABLE, {"white1": BallState((0.2, 0.7), velocity=(speed, 0.0))})
    ev = first(shot, "sliding_to_rolling")
    vx, vy = velocity_after(shot, "white1", ev.time)
    assert vx == pytest.approx(5 / 7 * speed, rel=1e-9)
    assert vy == 0.0
    # Slide time 2 v / (7 u_s g).
    assert ev.time == pytest.approx(2 * speed / (7 * 0.2 * 9.81), rel=1e-9)


def test_rolling_ball_stops_after_v2_over_2_ur_g() -> None:
    v = 0.7
    shot = simulate(TABLE, {"white1": BallState((0.2, 0.7), velocity=(v, 0.0), spin=(0.0, v / R, 0.0))})
    assert [e.kind for e in shot.events] == ["rolling_to_stationary"]
    assert shot.final["white1"].position[0] == pytest.approx(0.2 + v * v / (2 * 0.01 * 9.81), abs=1e-6)
    assert shot.duration == pytest.approx(v / (0.01 * 9.81), rel=1e-12)


def test_spin_about_vertical_decays() -> None:
    shot = simulate(TABLE, {"white1": BallState((1.0, 0.7), spin=(0.0, 0.0, 20.0))})
    assert [e.kind for e in shot.events] == ["spinning_to_stationary"]
    assert shot.duration == pytest.approx(2.0, rel=1e-12)
    assert shot.final["white1"].position == (1.0, 0.7)


@pytest.mark.parametrize("cut", [0.2, 0.5, 0.8])
def test_stun_cut_separates_at_ninety_degrees(cut: float) -> None:
    shot = simulate(
        TABLE,
        {"white1": BallState((1.0, 0.7), velocity=(2.0, 0.0)), "red1": still(1.0 + 3 * R, 0.7 + 2 * R * cut)},
        params=IDEAL,
    )
    hit = first(shot, "ball_ball")
    a = velocity_after(shot, "white1", hit.time)
    b = velocity_after(shot, "red1", hit.time)
    assert angle_between(a, b) == pytest.approx(90.0, abs=1e-6)


@pytest.mark.parametrize("cut", [0.3, 0.5, 0.7])
def test_stun_cut_with_real_coefficients_separates_near_ninety(cut: float) -> None:
    shot = simulate(
        TABLE, {"white1": BallState((1.0, 0.7), velocity=(3.0, 0.0)), "red1": still(1.0 + 3 * R, 0.7 + 2 * R * cut)}
    )
    hit = first(shot, "ball_ball")
    a = velocity_after(shot, "white1", hit.time)
    b = velocity_after(shot, "red1", hit.time)
    # Restitution 0.95 leaves the cue ball 2.5 % of the normal speed, and throw adds a little.
    assert angle_between(a, b) == pytest.approx(90.0, abs=10.0)
    assert angle_between(a, b) < 90.0


@pytest.mark.parametrize(("params", "tol"), [(IDEAL, 0.3), (PhysicsParams(), 2.0)])
def test_rolling_half_ball_hit_deflects_cue_ball_about_34_degrees(params: PhysicsParams, tol: float) -> None:
    v = 1.5
    balls = {
        "white1": BallState((0.8, 0.7), velocity=(v, 0.0), spin=(0.0, v / R, 0.0)),
        "red1": still(1.3, 0.7 + R),  # half-ball: offset of one radius
    }
    shot = simulate(TABLE, balls, params=params)
    hit = first(shot, "ball_ball")
    roll = next(
        e for e in shot.events if e.kind == "sliding_to_rolling" and e.balls == ("white1",) and e.time > hit.time
    )
    after = velocity_after(shot, "white1", roll.time)
    expected = math.degrees(math.atan(math.sin(math.radians(30)) * math.cos(math.radians(30)) / (0.25 + 0.4)))
    assert expected == pytest.approx(33.7, abs=0.05)
    assert angle_between((1.0, 0.0), after) == pytest.approx(expected, abs=tol)


def test_head_on_stun_stops_the_cue_ball() -> None:
    balls = {"white1": BallState((1.0, 0.7), velocity=(2.0, 0.0)), "red1": still(1.0 + 2 * R + 0.002, 0.7)}
    shot = simulate(TABLE, balls, params=IDEAL)
    hit = first(shot, "ball_ball")
    assert velocity_after(shot, "white1", hit.time) == pytest.approx((0.0, 0.0), abs=1e-12)
    # Sliding over the 2 mm before contact gives it a trace of top spin: it creeps on by micrometres.
    assert shot.position_at("white1", hit.time + 0.5) == pytest.approx((1.002, 0.7), abs=1e-4)
    # With real restitution the cue ball creeps on only a little.
    real = simulate(TABLE, balls)
    hit = first(real, "ball_ball")
    assert 0.0 < real.position_at("white1", hit.time + 3.0)[0] - 1.002 < 0.02


def test_object_ball_takes_the_cue_ball_speed_head_on() -> None:
    balls = {"white1": BallState((1.0, 0.7), velocity=(2.0, 0.0)), "red1": still(1.0 + 2 * R + 0.002, 0.7)}
    shot = simulate(TABLE, balls, params=IDEAL)
    hit = first(shot, "ball_ball")
    before = velocity_before(shot, "white1", hit.time)
    assert velocity_after(shot, "red1", hit.time)[0] == pytest.approx(before[0], rel=1e-12)


@pytest.mark.parametrize("seed", range(40))
def test_momentum_is_conserved_in_ball_ball_contacts(seed: int) -> None:
    import random

    rng = random.Random(seed)
    ang = rng.uniform(0, 2 * math.pi)
    nx, ny = math.cos(ang), math.sin(ang)
    v1 = (rng.uniform(-5, 5) + 5 * nx, rng.uniform(-5, 5) + 5 * ny)
    v2 = (rng.uniform(-1, 1), rng.uniform(-1, 1))
    w1 = tuple(rng.uniform(-150, 150) for _ in range(3))
    w2 = tuple(rng.uniform(-50, 50) for _ in range(3))
    p = PhysicsParams()
    a, b = resolve_ball_ball(nx, ny, v1, w1, v2, w2, R, p.e_b, p.u_b_a, p.u_b_b, p.u_b_c)  # type: ignore[arg-type]
    assert a[0] + b[0] == pytest.approx(v1[0] + v2[0], abs=1e-12)
    assert a[1] + b[1] == pytest.approx(v1[1] + v2[1], abs=1e-12)
    # Energy never grows.
    k_before = v1[0] ** 2 + v1[1] ** 2 + v2[0] ** 2 + v2[1] ** 2 + 0.4 * R * R * sum(w * w for w in (*w1, *w2))
    k_after = a[0] ** 2 + a[1] ** 2 + b[0] ** 2 + b[1] ** 2 + 0.4 * R * R * sum(w * w for w in (*a[2:], *b[2:]))
    assert k_after <= k_before + 1e-9


def test_momentum_is_conserved_in_simulated_contacts() -> None:
    balls = {
        "white1": BallState((0.5, 0.5), velocity=(3.0, 1.2), spin=(10.0, -20.0, 30.0)),
        "red1": still(1.0, 0.7),
    }
    shot = simulate(TABLE, balls)
    hit = first(shot, "ball_ball")
    before = [velocity_before(shot, b, hit.time) for b in ("white1", "red1")]
    after = [velocity_after(shot, b, hit.time) for b in ("white1", "red1")]
    for k in range(2):
        assert before[0][k] + before[1][k] == pytest.approx(after[0][k] + after[1][k], abs=1e-9)


def test_cut_induced_throw_appears_with_ball_friction() -> None:
    balls = {"white1": BallState((1.0, 0.7), velocity=(1.0, 0.0)), "red1": still(1.0 + 3 * R, 0.7 + R)}
    ideal = simulate(TABLE, balls, params=IDEAL)
    real = simulate(TABLE, balls)
    t_i, t_r = first(ideal, "ball_ball").time, first(real, "ball_ball").time
    d_ideal = velocity_after(ideal, "red1", t_i)
    d_real = velocity_after(real, "red1", t_r)
    throw = angle_between(d_ideal, d_real)
    assert 1.0 < throw < 6.0  # a half-ball hit at slow speed throws a few degrees (TP A-14)


@pytest.mark.parametrize("spin", [0.0, 40.0, -40.0])
def test_perpendicular_cushion_hit_returns_on_its_own_line(spin: float) -> None:
    shot = simulate(TABLE, {"white1": BallState((1.0, 0.7), velocity=(-2.0, 0.0), spin=(0.0, spin, 0.0))})
    hit = first(shot, "ball_cushion")
    assert hit.where == "head"
    assert hit.point == pytest.approx((0.0, 0.7), abs=1e-9)
    vx, vy = velocity_after(shot, "white1", hit.time)
    assert vx > 0.0 and vy == 0.0
    assert shot.final["white1"].position[1] == 0.7


def test_cushion_rebound_speed_is_plausible() -> None:
    shot = simulate(TABLE, {"white1": BallState((1.0, 0.7), velocity=(0.0, 2.0))})
    hit = first(shot, "ball_cushion")
    before = velocity_before(shot, "white1", hit.time)
    after = velocity_after(shot, "white1", hit.time)
    assert hit.where == "left_home"
    assert 0.6 < -after[1] / before[1] < 0.9


def test_cue_strike_center_ball_and_english() -> None:
    shot = simulate(TABLE, {"white1": still(0.5, 0.7)}, Strike("white1", 2.0, 0.0))
    assert shot.events[0].kind == "strike"
    v = velocity_after(shot, "white1", 0.0)
    m, M, e = 0.22, 0.5, 0.75
    assert v[0] == pytest.approx((1 + e) * 2.0 / (1 + m / M), rel=1e-12)
    assert v[1] == 0.0
    # Right english squirts the ball left (counter-clockwise), a little.
    shot = simulate(TABLE, {"white1": still(0.5, 0.7)}, Strike("white1", 2.0, 0.0, side=0.5))
    vx, vy = velocity_after(shot, "white1", 0.0)
    assert 0.5 < math.degrees(math.atan2(vy, vx)) < 3.0
    # Draw comes back: a low hit into a near ball makes the cue ball recoil.
    balls = {"white1": still(0.5, 0.7), "red1": still(0.8, 0.7)}
    draw = simulate(TABLE, balls, Strike("white1", 3.0, 0.0, height=-0.5))
    hit = next(e for e in draw.events if e.kind == "ball_ball")
    assert draw.position_at("white1", hit.time + 1.0)[0] < 0.6
    follow = simulate(TABLE, balls, Strike("white1", 3.0, 0.0, height=0.5))
    hit = next(e for e in follow.events if e.kind == "ball_ball")
    assert follow.position_at("white1", hit.time + 1.0)[0] > 0.95
