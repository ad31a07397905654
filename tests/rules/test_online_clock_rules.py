"""The engine's online rules: the shot clock's expiry, abort before the break, abandonment (K-9.3).

`Match.expire_shot_clock`, `Match.abort`, `Match.abandon` and `Match.abortable` are what the server's
clocks and the abort input call (game/matches/services/deadlines.py); each refusal leaves the match as it was.
"""

from __future__ import annotations

import pytest

from game.engine.rules import Match, RuleError
from game.engine.rules.match import TIMEOUTS_TO_LOSE
from tests.rules.helpers import START, dump, position


def test_expiry_in_play_passes_the_visit_and_keeps_every_ball() -> None:
    m = position(scores=(10, 7))
    balls = m.snapshot()["balls"]
    out = m.expire_shot_clock("alice", now=5.0)
    assert out.verdict["foul"] == "shot_clock" and out.verdict["penalty"] == 0 and out.verdict["turn_passes"]
    assert out.verdict["reason"] == "alice ran out of the shot clock (1 of 3): bob's turn"
    assert m.pending() == [("bob", "shoot")] and m.snapshot()["balls"] == balls
    assert m.scores == {"alice": 10, "bob": 7} and m.timeouts == {"alice": 1, "bob": 0}


def test_expiry_with_the_cue_ball_in_hand_leaves_it_in_hand() -> None:
    m = position(balls={**START, "white1": None})
    assert m.pending() == [("alice", "place")]
    m.expire_shot_clock("alice")
    assert m.pending() == [("bob", "shoot")] and m.balls["white1"] is None


def test_third_consecutive_expiry_loses_and_an_own_input_resets_the_count() -> None:
    m = position(scores=(10, 7))
    for _ in range(TIMEOUTS_TO_LOSE - 1):
        m.expire_shot_clock("alice")
        m.expire_shot_clock("bob")
    assert m.timeouts == {"alice": 2, "bob": 2}
    out = m.expire_shot_clock("alice")
    assert m.phase == "finished" and m.winner == "bob" and out.verdict["winner"] == "bob"
    assert m.snapshot()["finish_reason"] == "alice ran out of the shot clock 3 times in a row"

    m = position(balls={**START, "white1": None})
    m.expire_shot_clock("alice")
    m.expire_shot_clock("bob")
    m.place("alice", "white1", (0.3, 0.4))  # alice acts: her count starts again
    assert m.timeouts == {"alice": 0, "bob": 1}


def test_expiry_refused_for_a_player_the_rules_do_not_wait_for() -> None:
    m = position()
    before = dump(m)
    with pytest.raises(RuleError) as err:
        m.expire_shot_clock("bob")
    assert err.value.code == "not_pending" and dump(m) == before


@pytest.mark.parametrize(
    ("phase", "extra", "abortable"),
    [
        ("lag", {}, True),
        ("choose_break", {}, True),
        ("opening_placement", {}, True),
        ("play", {"visit": {"opening": True}}, True),
        ("play", {}, False),
        ("extra_visits", {}, False),
    ],
)
def test_abortable_until_the_first_shot_of_the_break(phase: str, extra: dict, abortable: bool) -> None:
    if phase in ("lag", "choose_break"):
        m = Match.from_snapshot(
            {
                "phase": phase,
                "players": [{"name": "alice"}, {"name": "bob"}],
                "turn": 0,
                "balls": {**START, "white1": None, "white2": None},
            }
        )
    else:
        m = position(phase, **extra)
    assert m.abortable is abortable
    before = dump(m)
    if abortable:
        out = m.abort("bob", now=1.0)
        assert m.phase == "finished" and m.winner is None and out.verdict["aborted"]
        assert m.snapshot()["finish_reason"] == "aborted by bob before the break"
    else:
        with pytest.raises(RuleError) as err:
            m.abort("bob")
        assert err.value.code == "not_abortable" and dump(m) == before


def test_expiry_before_the_break_aborts() -> None:
    m = Match.new(("alice", "bob"))
    out = m.expire_shot_clock("alice", now=3.0)
    assert out.verdict["aborted"] and m.phase == "finished" and m.winner is None


def test_abandon_one_absent_loses_both_absent_abort() -> None:
    m = position(scores=(3, 9))
    m.abandon(["bob"])
    assert m.winner == "alice" and m.snapshot()["finish_reason"] == "bob: left the match"
    m = position(scores=(3, 9))
    out = m.abandon(["alice", "bob"])
    assert out.verdict["aborted"] and m.winner is None and m.snapshot()["finish_reason"] == "both players left"
    m = Match.new(("alice", "bob"))
    m.abandon(["bob"])
    assert m.winner is None and m.snapshot()["finish_reason"] == "bob left before the break"


def test_shootout_lag_expiry_loses_the_lag() -> None:
    m = position("shootout", shootout={"stage": "lag"}, balls={**START, "white1": None, "white2": None})
    m.expire_shot_clock("alice")
    m.expire_shot_clock("bob")  # both late: lag again
    assert sorted(m.pending()) == [("alice", "lag"), ("bob", "lag")]
    assert m.timeouts == {"alice": 1, "bob": 1}


def test_snapshot_round_trips_the_counts() -> None:
    m = position()
    m.expire_shot_clock("alice")
    assert Match.from_snapshot(m.snapshot()).timeouts == {"alice": 1, "bob": 0}
    assert Match.from_snapshot(m.snapshot()).snapshot() == m.snapshot()
