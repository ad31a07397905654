"""Every refusal reason: RuleError with a code and a message, and the snapshot byte-identical after
(K-4.3, K-10.3; ARCHITECTURE section 3)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest

from game.engine.physics import PhysicsParams
from game.engine.rules import Match, RuleError, StrikeInput
from game.engine.rules.simulator import PhysicsSimulator, physics_simulator
from tests.rules.fakes import STRIKE, Script
from tests.rules.helpers import START, dump, position

CALL = {"ball": "red1", "pocket": "foot_left"}


def play() -> Match:
    return position()


def hand() -> Match:
    m = position(balls=dict(START, white1=None, red1=[0.6, 0.5]))
    m.place("alice", "white1", (0.3, 0.3))
    return m


def opening() -> Match:
    m = position(
        phase="opening_placement",
        turn=1,
        balls=dict(START, white1=None, white2=None, red1=[0.71, 0.71], red2=[2.13, 0.71]),
    )
    return m


def breaker() -> Match:
    m = opening()
    m.place("bob", "white2", (2.0, 0.3))
    m.place("alice", "white1", (0.3, 0.3))
    return m


def middle_kaisa() -> Match:
    return position(visit={"middle_kaisa": True, "shots": 1})


def lag() -> Match:
    return Match.new(("alice", "bob"))


def finished() -> Match:
    m = position()
    m.resign("bob")
    return m


def shootout() -> Match:
    m = position(phase="shootout", balls={"kaisa": [1.42, 0.71]}, shootout={"stage": "shoot"})
    m.place("alice", "white1", (0.3, 0.3))
    return m


def shoot(call: Any = CALL, strike: Any = STRIKE, player: Any = "alice") -> Callable[[Match], Any]:
    return lambda m: m.shoot(player, call, strike)


CASES: list[tuple[str, Callable[[], Match], Callable[[Match], Any], str]] = [
    ("unknown player", play, shoot(player="carol"), "unknown_player"),
    ("player not a string", play, shoot(player=None), "unknown_player"),
    ("wrong player", play, shoot(player="bob"), "not_your_turn"),
    ("shot during the lag", lag, shoot(), "wrong_phase"),
    ("place during the lag", lag, lambda m: m.place("alice", "white1", (0.3, 0.3)), "wrong_phase"),
    ("choose before the lag", lag, lambda m: m.choose_break("alice", True), "wrong_phase"),
    ("lag during play", play, lambda m: m.lag("alice", STRIKE), "wrong_phase"),
    ("game over", finished, shoot(), "game_over"),
    ("unknown ball", play, shoot({"ball": "blue", "pocket": "foot_left"}), "unknown_ball"),
    ("unknown pocket", play, shoot({"ball": "red1", "pocket": "side"}), "unknown_pocket"),
    ("own cue ball", play, shoot({"ball": "white1", "pocket": "foot_left"}), "own_cue_ball"),
    ("own cue ball as via", play, shoot({"ball": "red1", "pocket": "foot_left", "via": "white1"}), "own_cue_ball"),
    ("ball not on table", lambda: position(balls=dict(START, red1=None)), shoot(), "ball_not_on_table"),
    ("junk call key", play, shoot({**CALL, "carom": True}), "bad_call"),
    ("string cushions", play, shoot({**CALL, "object_cushions": "2"}), "bad_call"),
    ("bool cushions", play, shoot({**CALL, "cue_cushions": False}), "bad_call"),
    ("None cushions", play, shoot({**CALL, "cue_cushions": None}), "bad_call"),
    ("call not a dict", play, shoot("red1"), "bad_call"),
    ("NaN speed", play, shoot(strike={**STRIKE, "speed": math.nan}), "bad_strike"),
    ("inf angle", play, shoot(strike={**STRIKE, "angle": math.inf}), "bad_strike"),
    ("zero speed", play, shoot(strike={**STRIKE, "speed": 0.0}), "bad_strike"),
    ("speed too high", play, shoot(strike={**STRIKE, "speed": 9.01}), "bad_strike"),
    ("string speed", play, shoot(strike={**STRIKE, "speed": "2"}), "bad_strike"),
    ("bool speed", play, shoot(strike={**STRIKE, "speed": True}), "bad_strike"),
    ("missing angle", play, shoot(strike={"speed": 2.0}), "bad_strike"),
    ("junk strike key", play, shoot(strike={**STRIKE, "ball": "white2"}), "bad_strike"),
    ("strike not a dict", play, shoot(strike=[0, 2]), "bad_strike"),
    ("miscue", play, shoot(strike={**STRIKE, "side": 0.5, "height": 0.4}), "miscue"),
    ("opening call", breaker, shoot({"ball": "red2", "pocket": "middle_left"}), "opening_call"),
    ("opening front red", breaker, shoot({"ball": "red1", "pocket": "foot_left"}), "opening_call"),
    ("hand middle pocket", hand, shoot({"ball": "kaisa", "pocket": "middle_left"}), "hand_restriction"),
    ("hand home ball", hand, shoot({"ball": "red1", "pocket": "foot_left"}), "hand_restriction"),
    ("middle kaisa twice", middle_kaisa, shoot({"ball": "kaisa", "pocket": "middle_right"}), "middle_kaisa_twice"),
    (
        "shootout call",
        shootout,
        shoot({"ball": "kaisa", "pocket": "middle_right", "object_cushions": 1}),
        "shootout_call",
    ),
    ("cue ball in hand", lambda: position(balls=dict(START, white1=None)), shoot(), "cue_ball_in_hand"),
    ("opening placement in the corridor", opening, lambda m: m.place("bob", "white2", (2.0, 1.0)), "illegal_placement"),
    ("opening placement by the breaker", opening, lambda m: m.place("alice", "white1", (2.0, 0.3)), "not_your_turn"),
    (
        "place opponent's ball",
        lambda: position(balls=dict(START, white1=None)),
        lambda m: m.place("alice", "white2", (0.3, 0.3)),
        "not_in_hand",
    ),
    ("place a ball on the table", play, lambda m: m.place("alice", "white1", (0.3, 0.3)), "not_in_hand"),
    ("place unknown ball", play, lambda m: m.place("alice", "cue", (0.3, 0.3)), "unknown_ball"),
    (
        "place outside home",
        lambda: position(balls=dict(START, white1=None)),
        lambda m: m.place("alice", "white1", (1.0, 0.3)),
        "illegal_placement",
    ),
    (
        "place NaN",
        lambda: position(balls=dict(START, white1=None)),
        lambda m: m.place("alice", "white1", (math.nan, 0.3)),
        "bad_position",
    ),
    (
        "place junk",
        lambda: position(balls=dict(START, white1=None)),
        lambda m: m.place("alice", "white1", "here"),
        "bad_position",
    ),
    (
        "choose not bool",
        lambda: Match.from_snapshot(
            {
                "phase": "choose_break",
                "players": [{"name": "alice", "score": 0}, {"name": "bob", "score": 0}],
                "turn": 0,
                "balls": {},
            }
        ),
        lambda m: m.choose_break("alice", 1),
        "bad_input",
    ),
    (
        "choose by the loser",
        lambda: Match.from_snapshot(
            {
                "phase": "choose_break",
                "players": [{"name": "alice", "score": 0}, {"name": "bob", "score": 0}],
                "turn": 0,
                "balls": {},
            }
        ),
        lambda m: m.choose_break("bob", True),
        "not_your_turn",
    ),
    ("lag bad strike", lag, lambda m: m.lag("alice", {"angle": 0, "speed": -1}), "bad_strike"),
    ("bad now", play, lambda m: m.shoot("alice", CALL, STRIKE, now=math.inf), "bad_time"),
    ("touch out of turn", play, lambda m: m.touch_foul("bob"), "not_your_turn"),
    ("resign twice", finished, lambda m: m.resign("alice"), "game_over"),
    ("connected not bool", play, lambda m: m.set_connected("alice", "yes"), "bad_input"),
]


@pytest.mark.parametrize(("name", "setup", "action", "code"), CASES, ids=[c[0] for c in CASES])
def test_k4_3_refused_input_changes_nothing(
    name: str, setup: Callable[[], Match], action: Callable[[Match], Any], code: str
) -> None:
    match = setup()
    before = dump(match)
    with pytest.raises(RuleError) as err:
        action(match)
    assert err.value.code == code, err.value.message
    assert err.value.message
    assert dump(match) == before


def test_k10_3_the_event_cap_refuses_the_shot_and_keeps_the_position() -> None:
    """K-10.3: the real physics with a tiny event cap: the shot is rejected, the position restored."""
    m = Match.from_snapshot(position().snapshot(), simulate=PhysicsSimulator(PhysicsParams(max_events=3)))
    before = dump(m)
    with pytest.raises(RuleError) as err:
        m.shoot("alice", CALL, {"angle": 0.3, "speed": 4.0})
    assert err.value.code == "cap_hit" and dump(m) == before


def test_physics_strike_refusal_becomes_a_rule_error() -> None:
    """A strike the physics refuses (past the rules' own checks) is a RuleError, not a crash."""
    table = position().table
    with pytest.raises(RuleError) as err:
        physics_simulator(table, {"white1": (0.5, 0.5)}, StrikeInput(angle=0.0, speed=-1.0), "white1")
    assert err.value.code == "bad_strike"


def test_no_other_exception_escapes_a_broken_shot() -> None:
    script = Script()
    m = position(simulate=script)
    before = dump(m)
    script.push(object())  # not a shot at all
    with pytest.raises(RuleError) as err:
        m.shoot("alice", CALL, STRIKE)
    assert err.value.code == "internal_error" and dump(m) == before
    script.push(ZeroDivisionError())
    with pytest.raises(RuleError) as err:
        m.shoot("alice", CALL, STRIKE)
    assert err.value.code == "internal_error" and dump(m) == before
