"""Property tests (hypothesis): scores move only by amounts the rules allow (K-5, K-8, K-9.2), a refused
input never changes the snapshot (K-4.3), and a replay reproduces the final state."""

from __future__ import annotations

import itertools
import json
import math
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine.rules import Call, Match, RuleError, Ruleset, call_points, judge_shot, table_for
from game.engine.rules.events import HandEvent
from tests.rules.helpers import START, dump, position

T = table_for(0.068)
RS = Ruleset()
BALLS = ("white1", "white2", "red1", "red2", "kaisa")
OBJECTS = ("white2", "red1", "red2", "kaisa")
POCKETS = ("home_right", "home_left", "middle_right", "middle_left", "foot_right", "foot_left")
CUSHIONS = ("head", "foot", "right_home", "right_foot", "left_home", "left_foot")
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def allowed_points() -> set[int]:
    amounts = {0}
    for obj in OBJECTS:
        others = [b for b in OBJECTS if b != obj]
        for n in range(len(others) + 1):
            for caroms in itertools.combinations(others, n):
                amounts.add(call_points(obj, caroms, RS))
        amounts.add(call_points(obj, (), RS, via="red1" if obj != "red1" else "red2"))
        amounts.add(call_points(obj, (), RS, object_cushions=1))
    return amounts


ALLOWED = allowed_points()
PENALTIES = {0, 2, 3, 6}

event = st.one_of(
    st.tuples(st.just("ball_ball"), st.sampled_from(BALLS), st.sampled_from(BALLS)).filter(lambda e: e[1] != e[2]),
    st.tuples(st.just("ball_cushion"), st.sampled_from(BALLS), st.sampled_from(CUSHIONS)),
    st.tuples(st.just("ball_jaw"), st.sampled_from(BALLS), st.sampled_from(POCKETS)),
    st.tuples(st.just("ball_pocket"), st.sampled_from(BALLS), st.sampled_from(POCKETS)),
)
call = st.builds(
    Call,
    st.sampled_from(OBJECTS),
    st.sampled_from(POCKETS),
    st.integers(0, 2),
    st.integers(0, 2),
    st.sampled_from((None, "red1", "red2", "kaisa")),
)


def to_events(raw: list[tuple[str, str, str]]) -> list[HandEvent]:
    out = [HandEvent(0.0, "strike", ("white1",))]
    dropped: set[str] = set()
    for i, (kind, a, b) in enumerate(raw):
        if a in dropped or (kind == "ball_ball" and b in dropped):
            continue
        if kind == "ball_ball":
            out.append(HandEvent(float(i + 1), kind, (a, b)))
        else:
            out.append(HandEvent(float(i + 1), kind, (a,), b))
            if kind == "ball_pocket":
                dropped.add(a)
    return out


@FAST
@given(call, st.lists(event, max_size=12), st.integers(-20, 70), st.booleans())
def test_k5_k8_scores_change_only_by_allowed_amounts(c: Call, raw: list, score: int, hand: bool) -> None:
    if c.via == c.ball:
        return
    v = judge_shot(
        call=c,
        cue="white1",
        before={b: tuple(p) for b, p in START.items()},
        events=to_events(raw),
        table=T,
        ruleset=RS,
        score_before=score,
        from_hand=hand,
    )
    assert v.points in ALLOWED and v.penalty in PENALTIES
    assert not (v.points and v.penalty)
    assert v.scored == (v.points > 0)
    if v.foul or v.fault or v.replay:
        assert v.points == 0
    if v.wins:
        assert score + v.points >= RS.target_score and not v.plain_white
    if v.plain_white:
        assert v.points == RS.white_plain
    assert v.rules and v.reason


junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.sampled_from(BALLS + POCKETS + ("alice", "bob")),
)
strike_dict = st.dictionaries(st.sampled_from(("angle", "speed", "side", "height", "spin")), junk, max_size=5)
call_dict = st.dictionaries(
    st.sampled_from(("ball", "pocket", "object_cushions", "cue_cushions", "via", "x")), junk, max_size=6
)


@SLOW
@given(
    st.sampled_from(("alice", "bob", "carol", None)),
    call_dict,
    strike_dict,
    st.sampled_from(("white1", "white2", "red1", "cue", None)),
    st.tuples(junk, junk),
)
def test_k4_3_refused_input_never_changes_the_snapshot(player: Any, c: Any, s: Any, ball: Any, pos: Any) -> None:
    for action in (
        lambda m: m.shoot(player, c, s),
        lambda m: m.place(player, ball, pos),
        lambda m: m.lag(player, s),
        lambda m: m.choose_break(player, c),
    ):
        for m in (position(), position(balls=dict(START, white1=None)), Match.new(("alice", "bob"))):
            before = dump(m)
            try:
                action(m)
            except RuleError as err:
                assert err.code and err.message
                assert dump(m) == before


@SLOW
@given(
    st.lists(
        st.tuples(
            st.floats(-math.pi, math.pi), st.floats(0.5, 6.0), st.sampled_from(OBJECTS), st.sampled_from(POCKETS)
        ),
        min_size=1,
        max_size=4,
    )
)
def test_replay_from_first_snapshot_reproduces_final_state(shots: list) -> None:
    m = position(balls=dict(START, white1=None))
    first = m.snapshot()
    log: list[tuple[str, tuple]] = []
    for i, (angle, speed, ball, pocket) in enumerate(shots):
        player, action = m.pending()[0] if m.pending() else (None, None)
        if player is None:
            break
        try:
            if action == "place":
                args: tuple = (player, m.cue_ball_of(player), (0.3, 0.2 + 0.15 * i))
                m.place(*args)
                log.append(("place", args))
            args = (player, {"ball": ball, "pocket": pocket, "object_cushions": 1}, {"angle": angle, "speed": speed})
            m.shoot(*args)
            log.append(("shoot", args))
        except RuleError:
            continue
    again = Match.from_snapshot(json.loads(json.dumps(first)))
    for method, args in log:
        getattr(again, method)(*args)
    assert dump(again) == dump(m)
