"""K-4: call parsing (refusals with codes) and fulfilment judged from hand-built event lists."""

from __future__ import annotations

import math

import pytest

from game.engine.rules import Call, RuleError, judge_call, parse_call
from game.engine.rules.events import HandEvent
from tests.rules.fakes import E


def timed(*events: HandEvent) -> list[HandEvent]:
    out = [HandEvent(0.0, "strike", ("white1",))]
    return out + [HandEvent(float(i + 1), e.kind, e.balls, e.where, e.point) for i, e in enumerate(events)]


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (None, "bad_call"),
        ("red1", "bad_call"),
        ({}, "bad_call"),
        ({"ball": "red1"}, "bad_call"),
        ({"pocket": "foot_left"}, "bad_call"),
        ({"ball": "red9", "pocket": "foot_left"}, "unknown_ball"),
        ({"ball": "red1", "pocket": "corner"}, "unknown_pocket"),
        ({"ball": 1, "pocket": "foot_left"}, "bad_call"),
        ({"ball": "red1", "pocket": "foot_left", "object_cushions": "1"}, "bad_call"),
        ({"ball": "red1", "pocket": "foot_left", "object_cushions": True}, "bad_call"),
        ({"ball": "red1", "pocket": "foot_left", "object_cushions": None}, "bad_call"),
        ({"ball": "red1", "pocket": "foot_left", "object_cushions": 1.0}, "bad_call"),
        ({"ball": "red1", "pocket": "foot_left", "cue_cushions": -1}, "bad_call"),
        ({"ball": "red1", "pocket": "foot_left", "cue_cushions": 10**9}, "bad_call"),
        ({"ball": "red1", "pocket": "foot_left", "via": "red1"}, "bad_call"),
        ({"ball": "red1", "pocket": "foot_left", "via": "ghost"}, "unknown_ball"),
        ({"ball": "red1", "pocket": "foot_left", "via": 3}, "bad_call"),
        ({"ball": "red1", "pocket": "foot_left", "carom": "kaisa"}, "bad_call"),
        ({"ball": "red1", "pocket": "foot_left", "object_cushions": math.nan}, "bad_call"),
    ],
)
def test_k4_1_parse_call_refusals(data: object, code: str) -> None:
    """K-4.1/K-4.3: every malformed call is a RuleError with a code and a message."""
    with pytest.raises(RuleError) as err:
        parse_call(data)
    assert err.value.code == code and err.value.message


def test_k4_1_defaults() -> None:
    call = parse_call({"ball": "kaisa", "pocket": "middle_left"})
    assert call == Call("kaisa", "middle_left", 0, 0, None)
    assert parse_call(call) == call


def test_k4_2_direct_pot_fulfilled() -> None:
    j = judge_call(
        Call("red1", "foot_left"),
        "white1",
        timed(E("ball_ball", "white1", "red1"), E("ball_pocket", "red1", where="foot_left")),
    )
    assert j.fulfilled and j.first_hit == "red1"


@pytest.mark.parametrize(
    ("events", "words"),
    [
        ([], "touched no ball"),
        ([E("ball_ball", "white1", "red2")], "red first"),
        ([E("ball_ball", "white1", "kaisa")], "the kaisa first"),
        ([E("ball_ball", "white1", "red1")], "did not drop"),
        ([E("ball_ball", "white1", "red1"), E("ball_pocket", "red1", where="foot_right")], "bottom right pocket"),
        (
            [
                E("ball_ball", "white1", "red1"),
                E("ball_cushion", "red1", where="foot"),
                E("ball_pocket", "red1", where="foot_left"),
            ],
            "1 cushion before dropping",
        ),
        (
            [
                E("ball_ball", "white1", "red1"),
                E("ball_ball", "red1", "kaisa"),
                E("ball_pocket", "red1", where="foot_left"),
            ],
            "no kiss was called",
        ),
        (
            [
                E("ball_cushion", "white1", where="head"),
                E("ball_ball", "white1", "red1"),
                E("ball_pocket", "red1", where="foot_left"),
            ],
            "1 cushion before the first ball",
        ),
    ],
)
def test_k4_2_unfulfilled_calls(events: list[HandEvent], words: str) -> None:
    """K-4.2: each way a call fails, and the reason says which."""
    j = judge_call(Call("red1", "foot_left"), "white1", timed(*events))
    assert not j.fulfilled and words in j.failure_words


def test_k4_2_cushion_counts_and_jaws_do_not_count() -> None:
    """K-4.2 with K-10.4: jaw contacts are no cushions; a rattle along one cushion counts once."""
    events = timed(
        E("ball_cushion", "white1", where="foot", point=(2.84, 0.5)),
        E("ball_cushion", "white1", where="left_foot", point=(2.0, 1.42)),
        E("ball_ball", "white1", "red1"),
        E("ball_cushion", "red1", where="head"),
        E("ball_cushion", "red1", where="head"),
        E("ball_jaw", "red1", where="home_left"),
        E("ball_pocket", "red1", where="home_left"),
    )
    j = judge_call(Call("red1", "home_left", object_cushions=1, cue_cushions=2), "white1", events)
    assert j.fulfilled, j.failure
    assert j.cue_cushions_before_hit == 2 and j.first_cushion_point == (2.84, 0.5)


def test_k4_2_kiss_must_happen() -> None:
    call = Call("red1", "foot_left", via="red2")
    missing = timed(E("ball_ball", "white1", "red1"), E("ball_pocket", "red1", where="foot_left"))
    assert "did not happen" in judge_call(call, "white1", missing).failure_words
    done = timed(
        E("ball_ball", "white1", "red1"), E("ball_ball", "red1", "red2"), E("ball_pocket", "red1", where="foot_left")
    )
    assert judge_call(call, "white1", done).mode == "kiss"
    stranger = timed(
        E("ball_ball", "white1", "red1"),
        E("ball_ball", "red1", "red2"),
        E("ball_ball", "red1", "kaisa"),
        E("ball_pocket", "red1", where="foot_left"),
    )
    assert not judge_call(call, "white1", stranger).fulfilled


def test_k4_2_combination_must_drive_the_object_ball() -> None:
    call = Call("red1", "foot_left", via="red2")
    failed = timed(
        E("ball_ball", "white1", "red2"),
        E("ball_ball", "red2", "kaisa"),
        E("ball_ball", "kaisa", "red1"),
        E("ball_pocket", "red1", where="foot_left"),
    )
    j = judge_call(call, "white1", failed)
    assert j.mode == "combination" and not j.fulfilled


def test_k6_7_touching_ball_played_into_counts_as_first_hit() -> None:
    """K-6.7: a cue ball touching red1 played into it: red1 is the first ball hit (contact at t = 0)."""
    events = [
        HandEvent(0.0, "strike", ("white1",)),
        HandEvent(0.0, "ball_ball", ("white1", "red1")),
        HandEvent(1.0, "ball_pocket", ("red1",), "foot_left"),
    ]
    assert judge_call(Call("red1", "foot_left"), "white1", events).fulfilled
