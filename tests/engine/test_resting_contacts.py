"""K-6.2 in the physics: a ball resting against a cushion that is pushed into it does not hit it anew.

A ball frozen to a rail can only be struck from the cloth side, so the cue ball always drives it into
the rail (or exactly along it). The rail's reaction is real and is resolved, but it is not a collision
event: otherwise every frozen object ball showed a ``ball_cushion`` at the moment of impact and a simple
pot of it read as a bank, so the K-6.2 frozen-ball rule never applied to a real shot.
"""

from __future__ import annotations

import math

import pytest

from game.engine.balls import BallState
from game.engine.physics import Shot, Strike, simulate
from game.engine.table import FROZEN_TOLERANCE, kaisa_table

TABLE = kaisa_table()
R = TABLE.ball_radius
L, W = TABLE.length, TABLE.width

#: (rail, red frozen to it, white on the cloth): the white drives the red into the rail at an angle.
RAILS = {
    "head": ((R, 0.7), (0.5, 0.95)),
    "foot": ((L - R, 0.7), (L - 0.5, 0.45)),
    "right_home": ((1.0, R), (0.6, 0.4)),
    "left_foot": ((2.0, W - R), (2.4, W - 0.4)),
}


def _drive(red: tuple[float, float], white: tuple[float, float], speed: float = 3.0) -> Shot:
    angle = math.atan2(red[1] - white[1], red[0] - white[0])
    balls = {"red1": BallState(red), "white1": BallState(white)}
    return simulate(TABLE, balls, Strike("white1", speed, angle, 0.0, 0.0))


def _cushions_of(shot: Shot, ball: str) -> list[tuple[float, str | None]]:
    return [(e.time, e.where) for e in shot.events if e.kind == "ball_cushion" and e.balls[0] == ball]


@pytest.mark.parametrize("rail", sorted(RAILS))
def test_a_frozen_ball_driven_into_its_rail_reports_no_cushion_contact_at_impact(rail: str) -> None:
    red, white = RAILS[rail]
    assert TABLE.frozen_cushion(red) == rail
    shot = _drive(red, white)
    hit = next(e for e in shot.events if e.kind == "ball_ball")
    assert set(hit.balls) == {"white1", "red1"}
    assert all(t > hit.time + 1e-3 for t, _where in _cushions_of(shot, "red1"))
    # The rail still pushed back: just after the impact the red moves away from the rail it rested on.
    cushion = next(c for c in TABLE.cushions if c.id == rail)
    x0, y0 = shot.position_at("red1", hit.time)
    x1, y1 = shot.position_at("red1", hit.time + 0.01)
    assert (x1 - x0) * cushion.normal[0] + (y1 - y0) * cushion.normal[1] > 0


def test_a_ball_off_the_rail_by_more_than_the_tolerance_does_hit_it() -> None:
    red, white = RAILS["right_home"]
    gap = 5 * FROZEN_TOLERANCE
    shot = _drive((red[0], red[1] + gap), (white[0], white[1] + gap))
    hit = next(e for e in shot.events if e.kind == "ball_ball")
    first = _cushions_of(shot, "red1")[0]
    assert first[1] == "right_home" and first[0] - hit.time < 1e-3


def test_a_ball_within_the_tolerance_counts_as_resting() -> None:
    red, white = RAILS["right_home"]
    gap = 0.5 * FROZEN_TOLERANCE
    shot = _drive((red[0], red[1] + gap), (white[0], white[1] + gap))
    hit = next(e for e in shot.events if e.kind == "ball_ball")
    assert all(t > hit.time + 1e-3 for t, _where in _cushions_of(shot, "red1"))


def test_a_frozen_cue_ball_struck_into_its_rail_reports_only_the_later_contacts() -> None:
    balls = {"white1": BallState((1.3, R))}
    shot = simulate(TABLE, balls, Strike("white1", 4.0, -1.2))
    contacts = _cushions_of(shot, "white1")
    assert contacts and contacts[0][0] > 0.1
    # It left its rail at once: the first contact is with the opposite long rail.
    assert contacts[0][1].startswith("left_")
    assert any(where.startswith("right_") for _t, where in contacts[1:] if where)


def test_a_frozen_ball_deflected_back_into_its_rail_later_hits_it() -> None:
    """The resting contact ends once the ball has moved on: a later contact with the same rail counts."""
    balls = {
        "white1": BallState((0.2, R)),
        "red1": BallState((0.5, R)),
        "red2": BallState((0.85, R + 0.04)),
    }
    shot = simulate(TABLE, balls, Strike("white1", 3.0, 0.0))
    kisses = [e for e in shot.events if e.kind == "ball_ball" and set(e.balls) == {"red1", "red2"}]
    assert kisses
    first_hit = next(e for e in shot.events if e.kind == "ball_ball")
    assert all(t >= kisses[0].time for t, _where in _cushions_of(shot, "red1"))
    later = _cushions_of(shot, "red1")
    assert later and later[0] == (kisses[0].time, "right_home") and kisses[0].time > first_hit.time


def test_a_frozen_ball_pushed_along_its_rail_reports_nothing_and_stays_on_the_cloth() -> None:
    balls = {"white1": BallState((0.6, R)), "red1": BallState((1.0, R))}
    shot = simulate(TABLE, balls, Strike("white1", 2.5, 0.0))
    hit = next(e for e in shot.events if e.kind == "ball_ball")
    assert all(t > hit.time + 1e-3 for t, _where in _cushions_of(shot, "red1"))
    for t in (hit.time, hit.time + 0.05, hit.time + 0.2):
        assert shot.position_at("red1", t)[1] >= R - 1e-6


def test_a_cue_ball_squeezing_the_frozen_ball_into_its_rail_makes_one_resting_contact() -> None:
    """Bench shot 64: white2 drives red1 (frozen to the head cushion) into it and follows it, so the red
    bounces off the rail, meets white2 again at the same instant and is pressed into the rail once more
    68 microseconds later without having left it: still the resting contact, not a new cushion contact."""
    from tests.engine.golden_cases import all_cases

    _name, layout, strike = next(c for c in all_cases() if c[0] == "bench-0064")
    assert TABLE.frozen_cushion(layout["red1"].position) == "head"
    shot = simulate(TABLE, layout, strike)
    hit = next(e for e in shot.events if e.kind == "ball_ball" and "red1" in e.balls)
    again = [e for e in shot.events if e.kind == "ball_ball" and e.time == hit.time and "red1" in e.balls]
    assert len(again) == 2
    assert all(t > hit.time + 0.01 for t, _where in _cushions_of(shot, "red1"))
