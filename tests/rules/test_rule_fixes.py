"""The rule fixes of the typed rules rewrite on real simulated shots: K-6.2 for a ball frozen to a rail, K-7.2's first
cue-ball cushion outside the home, and the K-7.2 call refusals before the shot."""

from __future__ import annotations

import pytest

from game.engine.rules import Match, RuleError, table_for
from tests.rules.helpers import START, position

T = table_for(0.068)
R = T.ball_radius
PLAYERS = [{"name": "alice", "cue_ball": "white1", "score": 10}, {"name": "bob", "cue_ball": "white2", "score": 20}]


def _frozen_red_shot(object_cushions: int) -> tuple[Match, dict]:
    """A red frozen to the right long rail, driven into it by the cue ball and out across the table
    into the top right corner (a shot recorded in tests/rules/data/corpus.json, "rail-202")."""
    m = Match.from_snapshot(
        {
            "phase": "play",
            "turn": 0,
            "players": PLAYERS,
            "balls": {
                "white1": [1.0972, 0.5207],
                "white2": [0.3, 1.3],
                "red1": [1.5336, R],
                "red2": [0.5, 0.9],
                "kaisa": [1.42, 0.9],
            },
        }
    )
    call = {"ball": "red1", "pocket": "foot_left", "object_cushions": object_cushions}
    out = m.shoot("alice", call, {"angle": -0.841588, "speed": 2.792})
    assert out.shot is not None and out.shot.pocketed.get("red1") == "foot_left"
    return m, out.verdict


def test_k6_2_frozen_ball_in_real_play() -> None:
    """K-6.2: a simple pot of a ball frozen to a cushion scores nothing and ends the visit. The physics
    reports no new cushion contact for the frozen red at impact, so the direct call is judged a simple
    pot of a frozen ball (it used to fail as "1 cushion"), and a one-cushion bank call is not made (it
    used to score 3)."""
    m, direct = _frozen_red_shot(0)
    assert T.frozen_cushion((1.5336, R)) == "right_foot"
    assert direct["fault"] == "frozen_to_cushion" and direct["rules"] == ["K-6.2"]
    assert not direct["scored"] and direct["turn_passes"] and m.scores == {"alice": 10, "bob": 20}
    assert "frozen to a cushion" in direct["reason"]
    m, bank = _frozen_red_shot(1)
    assert not bank["scored"] and bank["points"] == 0 and bank["turn_passes"]
    assert bank["params"]["failure"] == "object_cushions" and bank["params"]["counted"] == 0
    assert m.scores["alice"] == 10 and m.current_player == "bob"


def _from_hand(obj: tuple[float, float], cue: tuple[float, float], balls: dict) -> Match:
    m = Match.from_snapshot({"phase": "play", "turn": 0, "players": PLAYERS, "balls": {**balls, "red1": list(obj)}})
    m.place("alice", "white1", cue)
    return m


def test_k7_2_first_cushion_outside_the_home() -> None:
    """K-7.2 (the seed's rule): from hand, a called cue-ball cushion must be struck beyond the home line.
    The same kind of shot pots the called red both times; only the one whose first cushion is outside
    the home scores."""
    others = {"white1": None, "white2": [2.6, 0.2], "red2": [0.9, 1.3], "kaisa": [2.4, 1.0]}
    m = _from_hand((1.1, 0.6), (0.1, 0.45), others)
    call = {"ball": "red1", "pocket": "foot_left", "cue_cushions": 1}
    m.check_call("alice", call)  # allowed before the shot: the call can be made legally
    out = m.shoot("alice", call, {"angle": -0.761365, "speed": 3.0})
    first = next(e for e in out.shot.events if e.kind == "ball_cushion" and e.balls[0] == "white1")
    assert first.point[0] <= T.home_line_x  # the cue ball's first cushion was inside the home ...
    assert out.shot.pocketed.get("red1") == "foot_left"  # ... and the red dropped as called
    v = out.verdict
    assert not v["scored"] and v["turn_passes"] and "K-7.2" in v["rules"]
    assert v["params"]["failure"] == "hand_cushion_in_home" and "beyond the home line" in v["reason"]
    assert m.scores["alice"] == 10

    others = {"white1": None, "white2": [2.6, 1.3], "red2": [0.9, 1.3], "kaisa": [1.42, 0.71]}
    m = _from_hand((2.2, 0.5), (0.3, 0.7), others)
    out = m.shoot(
        "alice", {"ball": "red1", "pocket": "foot_right", "cue_cushions": 1}, {"angle": -0.570239, "speed": 4.5}
    )
    first = next(e for e in out.shot.events if e.kind == "ball_cushion" and e.balls[0] == "white1")
    assert first.point[0] > T.home_line_x
    assert out.verdict["scored"] and out.verdict["points"] == 5  # red + carom on bob's white


def test_k7_2_calls_from_hand_refused_before_the_shot() -> None:
    """K-7.2 before the shot: from hand a ball in the home may only be called off a cue-ball cushion, a
    kiss or combination call on it included (it used to be accepted when the kiss ball lay beyond the
    line); a kiss off a ball in the home onto a ball beyond it is fine; a middle pocket only as a bank.
    Constraints say the same, with the reason."""
    m = position(balls=dict(START, white1=None, red1=[0.6, 0.5], red2=[0.5, 1.0]))
    m.place("alice", "white1", (0.3, 0.3))
    for call in (
        {"ball": "red1", "pocket": "foot_left"},
        {"ball": "red1", "pocket": "foot_left", "via": "red2"},
        {"ball": "red1", "pocket": "foot_left", "via": "kaisa"},
        {"ball": "kaisa", "pocket": "middle_left"},
    ):
        with pytest.raises(RuleError) as err:
            m.check_call("alice", call)
        assert err.value.code == "hand_restriction" and "K-7.2" in err.value.message
    m.check_call("alice", {"ball": "red1", "pocket": "foot_left", "cue_cushions": 1})
    m.check_call("alice", {"ball": "red1", "pocket": "foot_left", "cue_cushions": 1, "via": "kaisa"})
    m.check_call("alice", {"ball": "kaisa", "pocket": "foot_left", "via": "red1"})  # kiss off a home ball
    calls = m.constraints("alice")["calls"]
    assert calls["red1"]["pockets"]["foot_left"]["ways"] == [["cue_cushions"]]
    assert "beyond the home line" in calls["red1"]["pockets"]["foot_left"]["why"]
    assert calls["kaisa"]["pockets"]["middle_left"]["ways"] == [["object_cushions"]]
    assert calls["kaisa"]["pockets"]["foot_left"]["ways"] == [[]]
