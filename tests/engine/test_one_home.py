"""One home per concept in the engine: event kinds, strike limits, the table as the client receives it."""

from __future__ import annotations

import json
import math

import pytest

from game.engine.balls import BallState
from game.engine.event_kinds import MOTION_STATES, EventKind, is_transition, transition
from game.engine.physics import Strike, StrikeError, simulate
from game.engine.strike_limits import STRIKE_LIMITS
from game.engine.table import kaisa_table
from tests.engine.golden_cases import all_cases

TABLE = kaisa_table()
R = TABLE.ball_radius

#: ARCHITECTURE.md 3: the event kinds on the wire.
CONTRACT_KINDS = {"strike", "ball_ball", "ball_cushion", "ball_jaw", "ball_pocket"}


def test_event_kinds_are_the_contract_strings() -> None:
    assert {str(k) for k in EventKind} >= CONTRACT_KINDS
    assert EventKind.BALL_CUSHION == "ball_cushion"
    assert json.dumps(EventKind.BALL_POCKET) == '"ball_pocket"'
    assert transition("sliding", "rolling") is EventKind.SLIDING_TO_ROLLING
    assert is_transition(EventKind.ROLLING_TO_STATIONARY) and not is_transition(EventKind.BALL_JAW)
    assert MOTION_STATES[-1] == "pocketed"


def test_every_event_the_physics_emits_has_a_shared_kind_and_wire_string() -> None:
    seen: set[str] = set()
    for k, (_name, layout, strike) in enumerate(all_cases()):
        if k % 5:
            continue
        shot = simulate(TABLE, layout, strike)
        for event in shot.events:
            assert isinstance(event.kind, EventKind)
            wire = event.as_dict()["kind"]
            assert type(wire) is str and wire == event.kind.value
            seen.add(wire)
    assert CONTRACT_KINDS <= seen
    assert {"sliding_to_rolling", "rolling_to_stationary"} <= seen


def test_rules_read_the_same_event_kinds() -> None:
    from game.engine.rules import events as rule_events

    assert rule_events.BALL_CUSHION is EventKind.BALL_CUSHION
    assert rule_events.BALL_POCKET is EventKind.BALL_POCKET
    assert rule_events.BALL_AIRBORNE is EventKind.BALL_AIRBORNE


def test_strike_limits_as_sent_to_the_client() -> None:
    d = STRIKE_LIMITS.as_dict()
    assert d == {"min_speed_exclusive": 0.0, "max_speed": 9.0, "max_tip_offset": 0.6, "max_angle": 2 * math.pi}
    assert json.loads(json.dumps(d)) == d


def test_protocol_uses_the_engine_strike_limits() -> None:
    from game.realtime import protocol

    assert protocol.MAX_SPEED == STRIKE_LIMITS.max_speed
    assert protocol.MAX_TIP_OFFSET == STRIKE_LIMITS.max_tip_offset
    assert protocol.MAX_ANGLE == STRIKE_LIMITS.max_angle


BALLS = {"white1": BallState((1.0, 0.7))}


@pytest.mark.parametrize(
    "strike",
    [
        Strike("white1", STRIKE_LIMITS.max_speed, 0.3),
        Strike("white1", 2.0, STRIKE_LIMITS.max_angle),
        Strike("white1", 2.0, -STRIKE_LIMITS.max_angle),
        Strike("white1", 2.0, 0.0, STRIKE_LIMITS.max_tip_offset, 0.0),
        Strike("white1", 2.0, 0.0, 0.36, 0.48),
    ],
)
def test_the_physics_accepts_strikes_at_the_limits(strike: Strike) -> None:
    assert simulate(TABLE, BALLS, strike).duration > 0


@pytest.mark.parametrize(
    "strike",
    [
        Strike("white1", STRIKE_LIMITS.max_speed + 1e-6, 0.3),
        Strike("white1", 0.0, 0.3),
        Strike("white1", 2.0, STRIKE_LIMITS.max_angle + 1e-6),
        Strike("white1", 2.0, 0.0, STRIKE_LIMITS.max_tip_offset + 1e-6, 0.0),
        Strike("white1", 2.0, 0.0, 0.43, 0.43),
    ],
)
def test_the_physics_refuses_strikes_beyond_the_limits(strike: Strike) -> None:
    with pytest.raises(StrikeError):
        simulate(TABLE, BALLS, strike)
