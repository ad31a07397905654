"""K-5: scoring, row by row of the K-5.3 table, with the flags of K-5.3 and K-5.5, judged on events."""

from __future__ import annotations

import pytest

from game.engine.rules import Call, Ruleset, judge_shot, table_for
from game.engine.rules.scoring import call_points
from tests.rules.fakes import E

TABLE = table_for(0.068)
RS = Ruleset()

# Object ball, carom balls, points: K-5.3 "This reproduces the inherited table" plus the plain rows.
ROWS = [
    ("white2", [], 2),
    ("red1", [], 3),
    ("kaisa", [], 6),
    ("white2", ["red1"], 4),
    ("white2", ["red1", "red2"], 7),
    ("white2", ["kaisa"], 7),
    ("red1", ["white2"], 5),
    ("red1", ["red2"], 6),
    ("red1", ["kaisa"], 9),
    ("red1", ["kaisa", "white2"], 11),
    ("red1", ["kaisa", "red2"], 12),
    ("red1", ["kaisa", "white2", "red2"], 14),
    ("kaisa", ["white2"], 11),
    ("kaisa", ["red1"], 12),
    ("kaisa", ["white2", "red1"], 14),
    ("kaisa", ["red1", "red2"], 15),
    ("kaisa", ["white2", "red1", "red2"], 17),
]

BEFORE = {"white1": (0.5, 0.4), "white2": (1.9, 0.3), "red1": (1.2, 0.5), "red2": (2.0, 1.0), "kaisa": (1.42, 0.71)}


def pot_events(obj: str, pocket: str, caroms: list[str]) -> list:
    events = [E("ball_ball", "white1", obj)]
    events += [E("ball_ball", "white1", c) for c in caroms]
    events.append(E("ball_pocket", obj, where=pocket))
    return events


@pytest.mark.parametrize(("obj", "caroms", "points"), ROWS)
def test_k5_3_every_row_of_the_scoring_table(obj: str, caroms: list[str], points: int) -> None:
    """K-5.3 (and K-5.1, K-5.2): fulfilled call + carom set -> exact points."""
    assert call_points(obj, caroms, RS) == points
    v = judge_shot(
        call=Call(obj, "foot_left"),
        cue="white1",
        before=BEFORE,
        events=_timed(pot_events(obj, "foot_left", caroms)),
        table=TABLE,
        ruleset=RS,
    )
    assert v.scored and v.fulfilled and v.points == points and v.penalty == 0
    assert sorted(v.caroms) == sorted(caroms)
    assert "K-5.3" in v.rules and not v.turn_passes


def _timed(events: list) -> list:
    from game.engine.rules.events import HandEvent

    out = [HandEvent(0.0, "strike", ("white1",))]
    return out + [HandEvent(float(i + 1), e.kind, e.balls, e.where, e.point) for i, e in enumerate(events)]


def test_k5_1_each_carom_ball_counts_once_and_only_after_the_object_ball() -> None:
    """K-5.1: touching red2 twice counts once; a ball touched before the object ball is no carom."""
    events = _timed(
        [
            E("ball_ball", "white1", "red1"),
            E("ball_ball", "white1", "red2"),
            E("ball_ball", "white1", "red2"),
            E("ball_pocket", "red1", where="foot_left"),
        ]
    )
    v = judge_shot(call=Call("red1", "foot_left"), cue="white1", before=BEFORE, events=events, table=TABLE, ruleset=RS)
    assert v.points == 6 and v.caroms == ("red2",)


def test_k5_3_reason_in_words() -> None:
    """The verdict says what happened, naming balls and pockets as players do."""
    v = judge_shot(
        call=Call("red1", "foot_left"),
        cue="white1",
        before=BEFORE,
        events=_timed(pot_events("red1", "foot_left", ["kaisa"])),
        table=TABLE,
        ruleset=RS,
    )
    assert v.reason == "Potted the red in the top right pocket with a carom on the kaisa: 9 points"
    assert v.as_dict()["rules"] == ["K-4.2", "K-5.1", "K-5.3", "K-6.1"]


@pytest.mark.parametrize(
    ("caroms", "points"), [([], 6), (["white2"], 8), (["red1"], 9), (["white2", "red1", "red2"], 14)]
)
def test_k5_3_kaisa_carom_base_flag_6_is_plain_addition(caroms: list[str], points: int) -> None:
    """K-5.3 flag ``kaisa_carom_base`` = 6: kaisa + caroms is plain addition."""
    assert call_points("kaisa", caroms, Ruleset(kaisa_carom_base=6)) == points


@pytest.mark.parametrize("obj", ["red1", "kaisa", "white2"])
def test_k5_4_kiss_scores_the_object_value_only(obj: str) -> None:
    """K-5.4: a called kiss pots the ball for its value only, caroms ignored (one carom set or one kiss)."""
    via = "red2"
    events = _timed(
        [
            E("ball_ball", "white1", obj),
            E("ball_ball", obj, via),
            E("ball_ball", "white1", "kaisa" if obj != "kaisa" else "red1"),
            E("ball_pocket", obj, where="foot_left"),
        ]
    )
    v = judge_shot(
        call=Call(obj, "foot_left", via=via), cue="white1", before=BEFORE, events=events, table=TABLE, ruleset=RS
    )
    assert v.fulfilled and v.caroms == ()
    assert v.points == {"red1": 3, "kaisa": 6, "white2": 2}[obj]
    assert "K-5.4" in v.rules


def test_k5_4_combination_scores_the_object_value_only() -> None:
    """K-5.4: cue -> red2 -> red1 into the pocket: 3 points."""
    events = _timed(
        [E("ball_ball", "white1", "red2"), E("ball_ball", "red2", "red1"), E("ball_pocket", "red1", where="foot_right")]
    )
    v = judge_shot(
        call=Call("red1", "foot_right", via="red2"), cue="white1", before=BEFORE, events=events, table=TABLE, ruleset=RS
    )
    assert v.fulfilled and v.points == 3 and "combination" in v.reason


@pytest.mark.parametrize(("bonus", "points"), [(0, 6), (6, 12)])
def test_k5_5_banked_kaisa_plain_6_and_bank_bonus_flag(bonus: int, points: int) -> None:
    """K-5.5: kaisa off a cushion scores its plain 6 (flag kaisa_bank_bonus 6 makes it 12), caroms aside."""
    events = _timed(
        [
            E("ball_ball", "white1", "kaisa"),
            E("ball_ball", "white1", "red1"),
            E("ball_cushion", "kaisa", where="foot"),
            E("ball_pocket", "kaisa", where="middle_left"),
        ]
    )
    v = judge_shot(
        call=Call("kaisa", "middle_left", object_cushions=1),
        cue="white1",
        before=BEFORE,
        events=events,
        table=TABLE,
        ruleset=Ruleset(kaisa_bank_bonus=bonus),
    )
    assert v.fulfilled and v.points == points and "K-5.5" in v.rules


def test_k5_5_kaisa_by_combination_scores_plain_6() -> None:
    events = _timed(
        [
            E("ball_ball", "white1", "red1"),
            E("ball_ball", "red1", "kaisa"),
            E("ball_pocket", "kaisa", where="foot_left"),
        ]
    )
    v = judge_shot(
        call=Call("kaisa", "foot_left", via="red1"), cue="white1", before=BEFORE, events=events, table=TABLE, ruleset=RS
    )
    assert v.points == 6


def test_k5_6_carom_ball_that_drops_scores_its_carom_value() -> None:
    """K-5.6: the carom kaisa drops: still 9 for red + kaisa, the shot stays legal."""
    events = _timed(
        [
            E("ball_ball", "white1", "red1"),
            E("ball_ball", "white1", "kaisa"),
            E("ball_pocket", "red1", where="foot_left"),
            E("ball_pocket", "kaisa", where="middle_left"),
        ]
    )
    v = judge_shot(call=Call("red1", "foot_left"), cue="white1", before=BEFORE, events=events, table=TABLE, ruleset=RS)
    assert v.points == 9 and not v.turn_passes and "K-5.6" in v.rules


def test_k5_6_other_ball_that_drops_scores_nothing() -> None:
    """K-5.6: a ball that is neither the object ball nor a carom ball drops: it scores nothing."""
    events = _timed(
        [
            E("ball_ball", "white1", "red1"),
            E("ball_pocket", "red1", where="foot_left"),
            E("ball_pocket", "red2", where="foot_right"),
        ]
    )
    v = judge_shot(call=Call("red1", "foot_left"), cue="white1", before=BEFORE, events=events, table=TABLE, ruleset=RS)
    assert v.points == 3 and "the other red dropped too and scores nothing" in v.reason


def test_k5_1_unfulfilled_call_scores_nothing() -> None:
    events = _timed(
        [
            E("ball_ball", "white1", "red1"),
            E("ball_ball", "white1", "kaisa"),
            E("ball_pocket", "red1", where="foot_right"),
        ]
    )
    v = judge_shot(call=Call("red1", "foot_left"), cue="white1", before=BEFORE, events=events, table=TABLE, ruleset=RS)
    assert not v.scored and v.points == 0 and v.turn_passes and "bottom right pocket" in v.reason
