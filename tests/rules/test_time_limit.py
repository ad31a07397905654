"""K-11: the tournament time limit, the two extra visits with white2 last, and the shoot-out through
sudden death, on scripted shots (real physics: test_real_shots.py)."""

from __future__ import annotations

import math

import pytest

from game.engine.rules import Match, RuleError, words
from tests.rules.fakes import STRIKE, E, Script
from tests.rules.helpers import START, position, shot

MISS = shot([])
KAISA = {"ball": "kaisa", "pocket": "foot_left"}


def clock(limit: float = 10.0, warning: float = 8.0) -> dict:
    return {"limit": limit, "warning": warning, "started": 0.0, "last": 0.0, "warned": False, "expired": False}


def miss(m: Match, now: float | None = None) -> None:
    player = m.current_player
    if m.pending() == [(player, "place")]:
        m.place(player, m.cue_ball_of(player), (0.3, 0.3), now=now)
    m.shoot(player, KAISA, STRIKE, now=now)


def test_k11_1_new_match_clock_and_warning() -> None:
    m = Match.new(("alice", "bob"), time_limit=10, time_warning=8)
    assert m.snapshot()["clock"]["limit"] == 10.0
    assert Match.new(time_limit=True).snapshot()["clock"] == {**clock(3900.0, 3600.0), "started": None, "last": None}
    m.tick(now=100.0)
    m.tick(now=108.5)
    assert m.snapshot()["clock"]["warned"] and not m.snapshot()["clock"]["expired"]
    assert m.clock_status(now=109.0)["remaining"] == pytest.approx(1.0)
    with pytest.raises(RuleError) as err:
        m.tick(now=float("nan"))
    assert err.value.code == "bad_time"


def test_k11_1_limit_two_extra_visits_white2_last_then_shootout() -> None:
    """K-11.1: expiry during white1's visit lets the round finish; then white1, white2, white1, white2;
    K-11.2 then the shoot-out: kaisa on the centre spot, whites in hand, a new lag."""
    script = Script()
    m = position(clock=clock(), simulate=script)
    with script:
        for _ in range(8):
            script.push(MISS)
        miss(m, now=5.0)  # alice
        miss(m, now=9.0)  # bob: warned
        assert m.snapshot()["clock"]["warned"] and m.phase == "play"
        miss(m, now=11.0)  # alice: expired, but the round (bob's visit) finishes first
        assert m.snapshot()["clock"]["expired"] and m.phase == "play" and m.current_player == "bob"
        miss(m, now=12.0)  # bob ends the round
        assert m.phase == "extra_visits" and m.current_player == "alice"
        assert m.snapshot()["extra_visits"] == ["white1", "white2", "white1", "white2"]
        order = []
        for _ in range(4):
            order.append(m.cue_ball_of(m.current_player))
            miss(m, now=13.0)
    assert order == ["white1", "white2", "white1", "white2"]
    snap = m.snapshot()
    assert m.phase == "shootout" and snap["shootout"]["stage"] == "lag"
    assert snap["balls"] == {"white1": None, "white2": None, "red1": None, "red2": None, "kaisa": [1.42, 0.71]}
    assert m.pending() == [("alice", "lag"), ("bob", "lag")]


def test_k11_1_no_extra_visits_goes_from_the_round_to_the_shootout() -> None:
    """A club event's clock (game time, then the shoot-out visits, no extra visits): once the
    time is up, white2's visit ends the round and the K-11.2 shoot-out begins at once, with the words
    saying so in every language."""
    script = Script()
    m = position(clock=clock(), ruleset={"extra_visits_each": 0, "shootout_visits": 3}, simulate=script)
    with script:
        for _ in range(2):
            script.push(MISS)
        miss(m, now=11.0)  # alice: the time is up, the round goes on
        assert m.phase == "play" and m.current_player == "bob"
        miss(m, now=12.0)  # bob (white2) ends the round
    snap = m.snapshot()
    assert m.phase == "shootout" and snap["shootout"]["stage"] == "lag" and snap["extra_visits"] == []
    assert (
        words.text("time_up", {"extra_each": 0})
        == "Time is up: this round is finished, then the shoot-out (K-11.1, K-11.2)"
    )
    assert "1 more visit " in words.text("time_up", {"extra_each": 1})
    with pytest.raises(RuleError) as err:
        Match.new(ruleset={"extra_visits_each": -1})
    assert err.value.code == "bad_ruleset"
    with pytest.raises(RuleError):
        Match.new(ruleset={"shootout_visits": 0})


def test_k11_1_a_winner_during_extra_visits_ends_the_game() -> None:
    script = Script()
    m = position(phase="extra_visits", scores=(57, 0), clock=clock(), simulate=script)
    with script:
        script.push(shot([E("ball_ball", "white1", "red1"), E("ball_pocket", "red1", where="foot_left")]))
        m.shoot("alice", {"ball": "red1", "pocket": "foot_left"}, STRIKE)
    assert m.winner == "alice"


def test_k11_2_shootout_lag_and_choice_reassign_cue_balls() -> None:
    script = Script()
    m = position(phase="shootout", shootout={"stage": "lag"}, balls={"kaisa": [1.42, 0.71]}, simulate=script)
    with script:
        script.push(shot([E("ball_cushion", "white1", where="foot")], moves={"white1": (0.5, 0.3)}))
        script.push(shot([E("ball_cushion", "white2", where="foot")], moves={"white2": (0.2, 1.0)}))
        m.lag("alice", STRIKE)
        out = m.lag("bob", STRIKE)
        assert sorted(script.calls[0]["balls"]) == ["kaisa", "white1"]  # only the kaisa stays
    assert out.verdict["lag_winner"] == "bob" and m.pending() == [("bob", "choose_break")]
    m.choose_break("bob", False)  # alice starts and takes white1; bob gets white2
    assert m.cue_ball_of("alice") == "white1" and m.current_player == "alice"
    assert m.pending() == [("alice", "place")]
    m2 = Match.from_snapshot(m.snapshot())
    assert m2.snapshot() == m.snapshot()


def shootout(
    scores: tuple[int, int], visits: tuple[int, int] = (0, 0), simulate: Script | None = None, **extra: object
) -> Match:
    so = {"stage": "shoot", "visits": list(visits), **extra}
    return position(phase="shootout", scores=scores, shootout=so, balls={"kaisa": [1.42, 0.71]}, simulate=simulate)


def pot(cue: str) -> object:
    return shot([E("ball_ball", cue, "kaisa"), E("ball_pocket", "kaisa", where="foot_left")], moves={cue: (1.0, 0.3)})


def play(m: Match, item: object, script: object) -> dict:
    player = m.current_player
    cue = m.cue_ball_of(player)
    m.place(player, cue, (0.3, 0.3))
    script.push(item)  # type: ignore[attr-defined]
    return m.shoot(player, KAISA, STRIKE).verdict


def crossing_miss(cue: str) -> object:
    return shot([], moves={cue: (1.0, 0.3)})


def test_k11_2_k11_3_every_shot_from_hand_kaisa_back_on_centre() -> None:
    script = Script()
    m = shootout((40, 30), simulate=script)
    with pytest.raises(RuleError) as err:
        m.place("alice", "white1", (1.0, 0.3))
    assert err.value.code == "illegal_placement"
    m.place("alice", "white1", (0.3, 0.3))
    for call, code in (
        ({"ball": "kaisa", "pocket": "middle_left", "object_cushions": 1}, "shootout_call"),
        ({"ball": "white2", "pocket": "foot_left"}, "ball_not_on_table"),
    ):
        with pytest.raises(RuleError) as err:
            m.check_call("alice", call)
        assert err.value.code == code
    with script:
        script.push(pot("white1"))
        v = m.shoot("alice", KAISA, STRIKE).verdict
        assert v["points"] == 6 and "K-11.3" in v["rules"] and not v["turn_passes"]
        assert m.scores["alice"] == 46 and m.balls["kaisa"] == (1.42, 0.71)
        assert m.pending() == [("alice", "place")]  # from hand before every shot
        v = play(m, shot([E("ball_pocket", "white1", where="home_right")], via={"white1": [(1.0, 0.3)]}), script)
    assert v["penalty"] == 6 and m.scores["alice"] == 40 and m.current_player == "bob"


def test_k11_3_first_to_60_wins() -> None:
    script = Script()
    m = shootout((54, 58), simulate=script)
    with script:
        v = play(m, pot("white1"), script)
    assert v["wins"] and m.winner == "alice"


def test_k11_4_higher_score_after_ten_visits_each() -> None:
    script = Script()
    m = shootout((40, 46), visits=(9, 9), simulate=script)
    with script:
        play(m, crossing_miss("white1"), script)
        assert m.phase == "shootout"
        play(m, crossing_miss("white2"), script)
    assert m.winner == "bob"


def test_k11_4_sudden_death_answer_and_draw_level() -> None:
    """K-11.4: equal after 10 visits each -> sudden death; a pot below 60 gives the opponent one visit
    to win or draw level; level -> it goes on; an unanswered pot wins."""
    script = Script()
    m = shootout((40, 40), visits=(9, 9), simulate=script)
    with script:
        play(m, crossing_miss("white1"), script)
        play(m, crossing_miss("white2"), script)
        assert m.snapshot()["shootout"]["sudden_death"] and m.phase == "shootout"
        play(m, pot("white1"), script)  # alice 46
        play(m, crossing_miss("white1"), script)
        assert m.snapshot()["shootout"]["answer_by"] == 1
        play(m, pot("white2"), script)  # bob 46: level
        play(m, crossing_miss("white2"), script)
        assert m.phase == "shootout" and m.snapshot()["shootout"]["answer_by"] is None
        play(m, crossing_miss("white1"), script)  # alice nothing
        play(m, pot("white2"), script)  # bob 52
        play(m, crossing_miss("white2"), script)
        play(m, crossing_miss("white1"), script)  # alice fails to answer
    assert m.winner == "bob" and m.scores == {"alice": 46, "bob": 52}


def test_k11_4_sudden_death_first_penalty_loses() -> None:
    script = Script()
    m = shootout((40, 40), visits=(10, 10), sudden_death=True, simulate=script)
    with script:
        play(m, shot([E("ball_pocket", "white1", where="home_right")], via={"white1": [(1.0, 0.3)]}), script)
    assert m.winner == "bob"


def test_k11_4_sudden_death_pot_reaching_60_wins_at_once() -> None:
    script = Script()
    m = shootout((56, 56), visits=(10, 10), sudden_death=True, simulate=script)
    with script:
        play(m, pot("white1"), script)
    assert m.winner == "alice"


def test_k11_clock_in_snapshot_round_trips() -> None:
    m = position(clock=clock(), balls=START)
    assert Match.from_snapshot(m.snapshot()).snapshot() == m.snapshot()


def test_a_snapshots_ruleset_reads_back_as_written_whatever_was_read_before() -> None:
    """`Ruleset.from_dict` keeps the rulesets it built (one per snapshot read): equal-looking
    values that JSON writes apart (``-0.0`` and ``0.0``; ``1``, ``1.0`` and ``True``) still read as
    themselves, and a value refused once is refused every time, after a valid twin was kept."""
    from game.engine.rules.ruleset import Ruleset

    assert Ruleset.from_dict({"ball_diameter": 0.067}) is Ruleset.from_dict({"ball_diameter": 0.067})
    assert math.copysign(1, Ruleset.from_dict({"lag_tie_tolerance": 0.0}).as_dict()["lag_tie_tolerance"]) == 1
    assert math.copysign(1, Ruleset.from_dict({"lag_tie_tolerance": -0.0}).as_dict()["lag_tie_tolerance"]) == -1
    assert Ruleset.from_dict({"target_score": 50}).target_score == 50
    assert Ruleset.from_dict({"plain_white_at_59_passes": False}).plain_white_at_59_passes is False
    for junk in ({"target_score": 50.0}, {"target_score": True}, {"plain_white_at_59_passes": 0}, {"extra": 1}):
        for _ in range(2):
            with pytest.raises(RuleError) as err:
                Ruleset.from_dict(junk)
            assert err.value.code == "bad_ruleset"
    timed = Ruleset.from_dict({"time_limit": 600, "time_warning": 540}).as_dict()
    assert type(timed["time_limit"]) is float and timed["time_limit"] == 600.0  # an integer is taken as seconds
