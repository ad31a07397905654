"""The phase machine on scripted shots: lag (K-3.1) to finish (K-9), turn flow (K-6), ball in hand
(K-7), fouls applied to scores (K-8). Real physics: test_real_shots.py."""

from __future__ import annotations

import json

import pytest

from game.engine.rules import Match, RuleError
from tests.rules.fakes import STRIKE, E, Script
from tests.rules.helpers import START, dump, position, shot

POT_RED = [E("ball_ball", "white1", "red1"), E("ball_pocket", "red1", where="foot_left")]
RED_CALL = {"ball": "red1", "pocket": "foot_left"}


def lag_shot(ok: bool, final_x: float, side: int):
    label = ("white1", "white2")[side]
    events = [E("ball_cushion", label, where="foot")] if ok else [E("ball_pocket", label, where="foot_left")]
    return shot(events, moves={label: (final_x, 0.355 if side == 0 else 1.065)})


def test_k3_1_lag_both_lose_relag_then_winner_chooses() -> None:
    """K-3.1: both lose -> lag again; a tie within 1 mm -> again; then the nearer lag wins."""
    script = Script()
    m = Match.new(("alice", "bob"), simulate=script)
    with script:
        script.push(lag_shot(False, 0, 0))
        script.push(lag_shot(False, 0, 1))
        script.push(lag_shot(True, 0.3, 0))
        script.push(lag_shot(True, 0.3005, 1))
        script.push(lag_shot(True, 0.4, 1))
        script.push(lag_shot(True, 0.3, 0))
        assert m.pending() == [("alice", "lag"), ("bob", "lag")]
        m.lag("alice", STRIKE)
        assert m.pending() == [("bob", "lag")]
        with pytest.raises(RuleError) as err:
            m.lag("alice", STRIKE)
        assert err.value.code == "already_lagged"
        assert m.lag("bob", STRIKE).verdict["relag"]
        m.lag("alice", STRIKE)
        assert m.lag("bob", STRIKE).verdict["relag"]  # 0.5 mm apart: equal
        m.lag("bob", STRIKE)
        out = m.lag("alice", STRIKE)
        assert out.verdict["lag_winner"] == "alice" and m.phase == "choose_break"
        # Each lag was simulated with the colours and only the lagger's white, on his side (K-3.1).
        first = script.calls[0]
        assert sorted(first["balls"]) == ["kaisa", "red1", "red2", "white1"]
        assert first["balls"]["white1"][1] < 0.71 and script.calls[1]["balls"]["white2"][1] > 0.71
    assert m.pending() == [("alice", "choose_break")]


def test_k3_2_k3_3_k3_4_opening() -> None:
    """K-3.2 cue balls; K-3.3 the non-breaker places white2; K-3.4 the breaker places white1 in the home
    and may only call the kaisa or the rear red into a foot pocket."""
    script = Script()
    m = Match.from_snapshot(
        {
            "phase": "choose_break",
            "players": [{"name": "alice", "score": 0}, {"name": "bob", "score": 0}],
            "turn": 1,
            "balls": {"red1": [0.71, 0.71], "red2": [2.13, 0.71], "kaisa": [1.42, 0.71]},
        },
        simulate=script,
    )
    m.choose_break("bob", False)  # bob passes the break: alice breaks with white1
    assert m.cue_ball_of("alice") == "white1" and m.cue_ball_of("bob") == "white2"
    assert m.phase == "opening_placement" and m.pending() == [("bob", "place")]
    for bad in [(1.3, 0.3), (2.0, 1.0), (2.0, 0.42), (2.83, 0.71), (2.13, 0.75)]:
        with pytest.raises(RuleError) as err:
            m.place("bob", "white2", bad)
        assert err.value.code == "illegal_placement"
    m.place("bob", "white2", (2.0, 0.3))
    assert m.phase == "play" and m.pending() == [("alice", "place")]
    with pytest.raises(RuleError) as err:
        m.place("alice", "white1", (0.8, 0.3))
    assert err.value.code == "illegal_placement"
    m.place("alice", "white1", (0.5, 0.3))
    for call in (
        {"ball": "red1", "pocket": "foot_left"},
        {"ball": "kaisa", "pocket": "middle_left"},
        {"ball": "white2", "pocket": "foot_left"},
    ):
        with pytest.raises(RuleError) as err:
            m.check_call("alice", call)
        assert err.value.code in ("opening_call", "hand_restriction")
    assert m.legal_pockets("kaisa") == ["foot_right", "foot_left"]
    assert m.legal_pockets("red2") == ["foot_right", "foot_left"]
    with script:
        script.push(
            shot(
                [E("ball_ball", "white1", "kaisa"), E("ball_pocket", "kaisa", where="foot_left")],
                moves={"white1": (1.0, 0.5)},
            )
        )
        out = m.shoot("alice", {"ball": "kaisa", "pocket": "foot_left"}, STRIKE)
    assert out.verdict["points"] == 6 and m.scores == {"alice": 6, "bob": 0}
    assert m.balls["kaisa"] == (1.42, 0.71)  # respotted on the centre (K-7.3)
    assert not m.snapshot()["visit"]["opening"]


def test_k6_1_visit_goes_on_then_passes() -> None:
    script = Script()
    m = position(simulate=script)
    with script:
        script.push(shot(POT_RED))
        script.push(shot([E("ball_ball", "white1", "red1")]))
        m.shoot("alice", RED_CALL, STRIKE)
        assert m.pending() == [("alice", "shoot")] and m.snapshot()["visit"]["shots"] == 1
        out = m.shoot("alice", RED_CALL, STRIKE)
    assert out.verdict["turn_passes"] and m.pending() == [("bob", "shoot")]
    snap = m.snapshot()
    assert snap["players"][0]["best_break"] == 3 and snap["visit"]["shots"] == 0


def test_k8_1_penalty_goes_negative_and_cue_ball_in_hand() -> None:
    """K-8.1: minus the first ball's value, scores may go negative; K-7.1 the white comes back in hand."""
    script = Script()
    m = position(simulate=script)
    with script:
        script.push(
            shot(
                [
                    E("ball_ball", "white1", "kaisa"),
                    E("ball_pocket", "kaisa", where="middle_left"),
                    E("ball_pocket", "white1", where="foot_right"),
                ]
            )
        )
        out = m.shoot("alice", {"ball": "kaisa", "pocket": "middle_left"}, STRIKE)
        assert out.verdict["penalty"] == 6 and out.verdict["foul"] == "cue_ball_pocketed"
        assert m.scores["alice"] == -6 and m.balls["kaisa"] == (1.42, 0.71)  # K-8.3 respotted
        assert m.in_hand == ["white1"] and m.pending() == [("bob", "shoot")]
        script.push(shot([E("ball_ball", "white2", "red2")]))
        m.shoot("bob", {"ball": "red2", "pocket": "foot_left"}, STRIKE)
    assert m.pending() == [("alice", "place")]
    with pytest.raises(RuleError) as err:
        m.shoot("alice", RED_CALL, STRIKE)
    assert err.value.code == "cue_ball_in_hand"
    m.place("alice", "white1", (0.3, 0.3))
    assert m.pending() == [("alice", "shoot")]


def test_k7_1_opponent_white_stays_off_until_its_owner_visits() -> None:
    """K-7.1 with K-9.2: white2 potted plain (2 points, visit goes on), it stays off; bob places it."""
    script = Script()
    m = position(simulate=script)
    with script:
        script.push(shot([E("ball_ball", "white1", "white2"), E("ball_pocket", "white2", where="foot_right")]))
        out = m.shoot("alice", {"ball": "white2", "pocket": "foot_right"}, STRIKE)
        assert out.verdict["points"] == 2 and not out.verdict["turn_passes"]
        assert m.balls["white2"] is None and m.in_hand == ["white2"]
        with pytest.raises(RuleError) as err:
            m.shoot("alice", {"ball": "white2", "pocket": "foot_right"}, STRIKE)
        assert err.value.code == "ball_not_on_table"
        script.push(shot([]))
        m.shoot("alice", RED_CALL, STRIKE)
    assert m.pending() == [("bob", "place")]
    with pytest.raises(RuleError) as err:
        m.place("bob", "white2", (2.0, 0.3))
    assert err.value.code == "illegal_placement"
    m.place("bob", "white2", (0.2, 1.2))
    m.place("bob", "white2", (0.25, 1.2))  # may be moved again before the shot
    assert m.balls["white2"] == (0.25, 1.2)


def test_k7_2_replay_restores_and_hand_restrictions() -> None:
    """K-7.2: not crossing the home line -> replay; middle pocket from hand only as a bank; home balls
    only off a cushion."""
    balls = dict(START, white1=None, red1=[0.6, 0.5])
    script = Script()
    m = position(balls=balls, simulate=script)
    m.place("alice", "white1", (0.3, 0.3))
    with pytest.raises(RuleError) as err:
        m.check_call("alice", {"ball": "kaisa", "pocket": "middle_left"})
    assert err.value.code == "hand_restriction"
    m.check_call("alice", {"ball": "kaisa", "pocket": "middle_left", "object_cushions": 1})
    with pytest.raises(RuleError) as err:
        m.check_call("alice", {"ball": "red1", "pocket": "foot_left"})
    assert err.value.code == "hand_restriction"
    m.check_call("alice", {"ball": "red1", "pocket": "foot_left", "cue_cushions": 1})
    before = dump(m)
    with script:
        script.push(shot([E("ball_cushion", "white1", where="head")], moves={"white1": (0.2, 0.3)}))
        out = m.shoot("alice", {"ball": "kaisa", "pocket": "foot_left"}, STRIKE)
    assert out.verdict["replay"] and out.verdict["rules"] == ["K-7.2"]
    after = m.snapshot()
    assert after["balls"] == json.loads(before)["balls"] and after["turn"] == 0
    assert m.pending() == [("alice", "shoot")]


def test_k6_4_middle_kaisa_twice_refused_then_bank_allowed() -> None:
    script = Script()
    m = position(simulate=script)
    with script:
        script.push(shot([E("ball_ball", "white1", "kaisa"), E("ball_pocket", "kaisa", where="middle_left")]))
        m.shoot("alice", {"ball": "kaisa", "pocket": "middle_left"}, STRIKE)
    before = dump(m)
    for pocket in ("middle_left", "middle_right"):
        with pytest.raises(RuleError) as err:
            m.shoot("alice", {"ball": "kaisa", "pocket": pocket}, STRIKE)
        assert err.value.code == "middle_kaisa_twice"
    assert dump(m) == before
    m.check_call("alice", {"ball": "kaisa", "pocket": "middle_left", "object_cushions": 1})
    m.check_call("alice", {"ball": "kaisa", "pocket": "middle_left", "via": "red1"})
    m.check_call("alice", {"ball": "kaisa", "pocket": "foot_left"})


@pytest.mark.parametrize(
    ("score", "passes", "flag"),
    [(56, False, True), (58, False, True), (59, True, True), (60, True, True), (59, False, False)],
)
def test_k9_2_plain_white_never_wins(score: int, passes: bool, flag: bool) -> None:
    """K-9.2: a plain white scores 2 and never wins; from 59 up the turn passes (flag)."""
    script = Script()
    m = position(scores=(score, 0), ruleset={"plain_white_at_59_passes": flag}, simulate=script)
    with script:
        script.push(shot([E("ball_ball", "white1", "white2"), E("ball_pocket", "white2", where="foot_right")]))
        out = m.shoot("alice", {"ball": "white2", "pocket": "foot_right"}, STRIKE)
    assert out.verdict["points"] == 2 and out.verdict["plain_white"] and "K-9.2" in out.verdict["rules"]
    assert m.scores["alice"] == score + 2 and m.phase == "play" and m.winner is None
    assert out.verdict["turn_passes"] is passes


def test_k9_1_white_with_carom_wins_at_60() -> None:
    script = Script()
    m = position(scores=(56, 0), simulate=script)
    with script:
        script.push(
            shot(
                [
                    E("ball_ball", "white1", "white2"),
                    E("ball_ball", "white1", "red1"),
                    E("ball_pocket", "white2", where="foot_right"),
                ]
            )
        )
        out = m.shoot("alice", {"ball": "white2", "pocket": "foot_right"}, STRIKE)
    assert out.verdict["points"] == 4 and out.verdict["wins"]
    assert m.phase == "finished" and m.winner == "alice" and m.pending() == []
    with pytest.raises(RuleError) as err:
        m.shoot("bob", RED_CALL, STRIKE)
    assert err.value.code == "game_over"


def test_k9_1_win_after_plain_white_left_the_score_above_60() -> None:
    """K-9.1: at 61 after a plain white, the next fulfilled call wins at once."""
    script = Script()
    m = position(scores=(61, 0), simulate=script)
    with script:
        script.push(shot(POT_RED))
        m.shoot("alice", RED_CALL, STRIKE)
    assert m.winner == "alice"


def test_k9_3_resign_and_forfeit() -> None:
    m = position()
    out = m.resign("bob")
    assert m.winner == "alice" and out.verdict["rules"] == ["K-9.3"] and m.phase == "finished"
    m = position()
    m.forfeit("alice", "absent past the reconnect grace time")
    assert m.winner == "bob" and "grace" in m.snapshot()["finish_reason"]


def test_k8_2_touch_foul_with_flag() -> None:
    m = position(ruleset={"touch_penalty": 3})
    out = m.touch_foul("alice")
    assert out.verdict["foul"] == "touched_ball" and out.verdict["penalty"] == 3
    assert m.scores["alice"] == -3 and m.pending() == [("bob", "shoot")]
    m = position()
    assert m.touch_foul("alice").verdict["penalty"] == 0


def test_k7_3_k7_4_match_respots_and_returns_kaisa() -> None:
    """K-7.3: the kaisa potted while white2 sits on the centre spot goes to the next free spot (front);
    K-7.4: it goes back to the centre once that is free, the kaisa not having moved."""
    balls = dict(START, white2=[1.42, 0.71], kaisa=[2.5, 1.2])
    script = Script()
    m = position(balls=balls, simulate=script)
    with script:
        script.push(
            shot(
                [E("ball_ball", "white1", "kaisa"), E("ball_pocket", "kaisa", where="foot_left")],
                moves={"white1": (0.9, 0.9)},
            )
        )
        m.shoot("alice", {"ball": "kaisa", "pocket": "foot_left"}, STRIKE)
        assert m.balls["kaisa"] == (0.71, 0.71)  # front spot
        assert m.snapshot()["kaisa_spotted_at"] == [0.71, 0.71]
        # white2 leaves the centre spot; the kaisa, unmoved, goes back (K-7.4).
        script.push(shot([E("ball_ball", "white1", "red2")], moves={"white2": (2.5, 0.3)}))
        m.shoot("alice", {"ball": "red2", "pocket": "foot_left"}, STRIKE)
    assert m.balls["kaisa"] == (1.42, 0.71) and m.snapshot()["kaisa_spotted_at"] is None


def test_snapshot_round_trip_and_hand_written_defaults() -> None:
    m = position()
    snap = m.snapshot()
    assert Match.from_snapshot(snap).snapshot() == snap
    assert json.dumps(snap, sort_keys=True) == json.dumps(
        Match.from_snapshot(json.loads(json.dumps(snap))).snapshot(), sort_keys=True
    )
    assert snap["visit"] == {"shots": 0, "middle_kaisa": False, "points": 0, "from_hand": False, "opening": False}
    assert snap["in_hand"] == [] and snap["winner"] is None and snap["clock"]["limit"] is None
    assert snap["ruleset"]["kaisa_carom_base"] == 9
    hand = position(balls=dict(START, white1=None))
    assert hand.in_hand == ["white1"] and hand.pending() == [("alice", "place")]


def test_a_snapshots_last_verdict_is_copied_whole_and_shares_nothing() -> None:
    """The last verdict is deep-copied on every snapshot read and write (`_tree_copy`, twice per input):
    JSON's own dicts, lists and scalars by their exact type, anything else as `copy.deepcopy` would; the
    state and the snapshot never share a container, so changing one never changes the other."""
    import copy
    from collections import OrderedDict
    from types import MappingProxyType

    class Words(str):
        pass

    verdict = {
        "reason": "alice pots the kaisa",
        "points": 6,
        "foul": None,
        "ok": True,
        "rules": ["K-5.3", "K-6.2"],
        "params": {"owners": {"white1": "alice"}, "at": (1.5, [0.25, -0.0])},
        "kept": OrderedDict(a=[1, {"b": 2}]),
        "frozen": MappingProxyType({"c": [3]}),
        "said": Words("sanat"),
    }
    expected = copy.deepcopy({**verdict, "kept": dict(verdict["kept"]), "frozen": dict(verdict["frozen"])})
    m = Match.from_snapshot({**position().snapshot(), "last_verdict": verdict})
    snap = m.snapshot()
    assert snap["last_verdict"] == expected and type(snap["last_verdict"]["kept"]) is dict
    assert str(snap["last_verdict"]["params"]["at"][1][1]) == "-0.0"
    verdict["rules"].append("K-9.1")
    verdict["params"]["owners"]["white2"] = "bob"
    verdict["kept"]["a"][1]["b"] = 20
    snap["last_verdict"]["params"]["at"][1].append(9)
    again = m.snapshot()["last_verdict"]
    assert again == expected and again["rules"] == ["K-5.3", "K-6.2"]


@pytest.mark.parametrize(
    "data",
    [
        None,
        {},
        {"phase": "nope", "players": [], "turn": 0, "balls": {}},
        {"phase": "play", "players": [{"name": "a"}], "turn": 0, "balls": {}},
        {
            "phase": "play",
            "players": [
                {"name": "a", "cue_ball": "white1", "score": 0},
                {"name": "b", "cue_ball": "white2", "score": "x"},
            ],
            "turn": 0,
            "balls": {},
        },
        {
            "phase": "play",
            "players": [
                {"name": "a", "cue_ball": "white1", "score": 0},
                {"name": "b", "cue_ball": "white2", "score": 0},
            ],
            "turn": 0,
            "balls": {"ghost": [1, 1]},
        },
        {
            "phase": "play",
            "players": [
                {"name": "a", "cue_ball": "white1", "score": 0},
                {"name": "b", "cue_ball": "white2", "score": 0},
            ],
            "turn": 2,
            "balls": {},
        },
    ],
)
def test_from_snapshot_refuses_malformed(data: object) -> None:
    with pytest.raises(RuleError) as err:
        Match.from_snapshot(data)  # type: ignore[arg-type]
    assert err.value.code in ("bad_snapshot", "bad_players")
