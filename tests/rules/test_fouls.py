"""K-8 fouls, K-6.2 faults, K-6.6 and K-7.2: every foul and fault value of the verdict."""

from __future__ import annotations

import pytest

from game.engine.rules import FAULTS, FOULS, Call, Ruleset, judge_shot, table_for
from game.engine.rules.events import HandEvent
from tests.rules.fakes import E

TABLE = table_for(0.068)
RS = Ruleset()
R = TABLE.ball_radius
BEFORE = {"white1": (0.5, 0.4), "white2": (1.9, 0.3), "red1": (1.2, 0.5), "red2": (2.0, 1.0), "kaisa": (1.42, 0.71)}


def timed(*events: HandEvent, cue: str = "white1") -> list[HandEvent]:
    out = [HandEvent(0.0, "strike", (cue,))]
    return out + [HandEvent(float(i + 1), e.kind, e.balls, e.where, e.point) for i, e in enumerate(events)]


def judge(call: Call, events: list[HandEvent], **kw: object):
    args = {"call": call, "cue": "white1", "before": BEFORE, "events": events, "table": TABLE, "ruleset": RS}
    args.update(kw)
    return judge_shot(**args)  # type: ignore[arg-type]


@pytest.mark.parametrize(("first", "penalty"), [(None, 2), ("red1", 3), ("kaisa", 6), ("white2", 2)])
def test_k8_1_cue_ball_pocketed_penalty_is_first_ball_value(first: str | None, penalty: int) -> None:
    """K-8.1: minus 2 with no ball hit, else minus the first ball's value; K-8.3 nothing scores."""
    events = [] if first is None else [E("ball_ball", "white1", first), E("ball_pocket", first, where="foot_left")]
    events.append(E("ball_pocket", "white1", where="home_right"))
    call = Call(first or "red1", "foot_left")
    v = judge(call, timed(*events))
    assert v.foul == "cue_ball_pocketed" and v.penalty == penalty and v.points == 0
    assert v.turn_passes and not v.scored and v.rules == ("K-8.1", "K-8.3")


def test_k8_1_cue_ball_off_table_keyed_on_event_kind() -> None:
    """K-8.1 / K-10.2: a cue ball leaving the table (only an airborne model can report it)."""
    v = judge(Call("red1", "foot_left"), timed(E("ball_ball", "white1", "red1"), E("ball_off_table", "white1")))
    assert v.foul == "cue_ball_off_table" and v.penalty == 3


def test_k6_6_wrong_cue_ball() -> None:
    """K-6.6: the strike hit white2: no points, the visit ends, no penalty."""
    events = timed(E("ball_ball", "white2", "red1"), E("ball_pocket", "red1", where="foot_left"), cue="white2")
    v = judge(Call("red1", "foot_left"), events)
    assert v.foul == "wrong_cue_ball" and v.points == 0 and v.penalty == 0 and v.turn_passes


def test_k7_2_hand_attack_on_a_home_ball_without_cushion() -> None:
    """K-7.2: from hand the cue ball hit red1 in the home directly: foul hand_attack, no points."""
    before = dict(BEFORE, white1=(0.3, 0.3), red1=(0.6, 0.5))
    events = timed(E("ball_ball", "white1", "red1"), E("ball_pocket", "red1", where="foot_left"))
    v = judge(Call("red1", "foot_left"), events, before=before, from_hand=True)
    assert v.foul == "hand_attack" and v.points == 0 and v.turn_passes
    # Off a cushion beyond the home line it is legal.
    events = timed(
        E("ball_cushion", "white1", where="right_foot", point=(1.0, 0.0)),
        E("ball_ball", "white1", "red1"),
        E("ball_pocket", "red1", where="foot_left"),
    )
    v = judge(Call("red1", "foot_left", cue_cushions=1), events, before=before, from_hand=True)
    assert v.scored and v.points == 3
    # A first cushion inside the home does not make it legal.
    events = timed(
        E("ball_cushion", "white1", where="right_home", point=(0.5, 0.0)),
        E("ball_ball", "white1", "red1"),
        E("ball_pocket", "red1", where="foot_left"),
    )
    v = judge(Call("red1", "foot_left", cue_cushions=1), events, before=before, from_hand=True)
    assert v.foul == "hand_attack"


def test_k7_2_replay_when_cue_ball_stays_in_the_home() -> None:
    """K-7.2: the cue ball did not cross the home line: replay, same player, no penalty."""
    v = judge(Call("red1", "foot_left"), timed(), from_hand=True, cue_crossed_home_line=False)
    assert v.replay and not v.turn_passes and v.penalty == 0 and v.rules == ("K-7.2",)


def test_k7_2_replay_takes_precedence_over_a_pocketed_cue_ball() -> None:
    """K-7.2 read literally: a cue ball from hand that never crossed the home line is replayed, even if
    it dropped into a home pocket (no K-8.1 penalty)."""
    events = timed(E("ball_pocket", "white1", where="home_right"))
    v = judge(Call("red1", "foot_left"), events, from_hand=True, cue_crossed_home_line=False)
    assert v.replay and v.penalty == 0 and v.foul is None


def test_k6_2_push_or_double_hit() -> None:
    v = judge(
        Call("red1", "foot_left"),
        timed(E("double_hit", "white1"), E("ball_ball", "white1", "red1"), E("ball_pocket", "red1", where="foot_left")),
    )
    assert v.fault == "push_or_double_hit" and v.points == 0 and v.turn_passes and v.foul is None


def test_k6_2_object_ball_jumped() -> None:
    v = judge(
        Call("red1", "foot_left"),
        timed(
            E("ball_ball", "white1", "red1"), E("ball_airborne", "red1"), E("ball_pocket", "red1", where="foot_left")
        ),
    )
    assert v.fault == "object_jumped" and v.points == 0 and v.turn_passes


def test_k6_2_rolled_in_along_a_cushion() -> None:
    events = timed(E("ball_ball", "white1", "red1"), E("ball_pocket", "red1", where="foot_left"))
    v = judge(Call("red1", "foot_left"), events, rolled_in=("red1",))
    assert v.fault == "rolled_along_cushion" and v.points == 0 and v.turn_passes and v.penalty == 0


def test_k6_2_simple_pot_of_a_frozen_ball() -> None:
    """K-6.2: red1 frozen to the left long cushion: a simple pot scores nothing; a bank would."""
    before = dict(BEFORE, red1=(2.2, TABLE.width - R))
    events = timed(E("ball_ball", "white1", "red1"), E("ball_pocket", "red1", where="foot_left"))
    v = judge(Call("red1", "foot_left"), events, before=before)
    assert v.fault == "frozen_to_cushion" and v.points == 0
    events = timed(
        E("ball_ball", "white1", "red1"),
        E("ball_cushion", "red1", where="foot"),
        E("ball_pocket", "red1", where="foot_left"),
    )
    assert judge(Call("red1", "foot_left", object_cushions=1), events, before=before).points == 3


def test_k6_2_frozen_against_the_jaw_rounding_is_not_frozen() -> None:
    """K-6.2: a ball whose cushion contact point lies on a jaw is not frozen."""
    jaw = next(j for j in TABLE.jaws if j.pocket == "foot_left" and j.center[1] > TABLE.width)
    ux, uy = 0.05, -1.0
    norm = (ux * ux + uy * uy) ** 0.5
    d = R + jaw.radius
    red1 = (jaw.center[0] + d * ux / norm, jaw.center[1] + d * uy / norm)
    # It touches the nose only at the nose's very end, i.e. where the jaw rounding starts.
    from game.engine.table import point_segment_distance

    nose = next(c for c in TABLE.cushions if c.id == "left_foot")
    assert point_segment_distance(red1, nose.a, nose.b) <= R + 1e-4
    events = timed(E("ball_ball", "white1", "red1"), E("ball_pocket", "red1", where="foot_left"))
    assert judge(Call("red1", "foot_left"), events, before=dict(BEFORE, red1=red1)).points == 3


def test_k6_2_kiss_off_a_frozen_ball() -> None:
    before = dict(BEFORE, red2=(2.5, TABLE.width - R))
    events = timed(
        E("ball_ball", "white1", "red1"), E("ball_ball", "red1", "red2"), E("ball_pocket", "red1", where="foot_left")
    )
    v = judge(Call("red1", "foot_left", via="red2"), events, before=before)
    assert v.fault == "kiss_off_frozen_ball" and v.points == 0


def test_k6_3_carom_ball_leaving_the_table_ends_the_visit_but_scores() -> None:
    events = timed(
        E("ball_ball", "white1", "red1"),
        E("ball_ball", "white1", "kaisa"),
        E("ball_off_table", "kaisa"),
        E("ball_pocket", "red1", where="foot_left"),
    )
    v = judge(Call("red1", "foot_left"), events)
    assert v.points == 9 and v.turn_passes and "K-6.3" in v.rules


def test_every_foul_and_fault_value_is_listed_with_its_rule() -> None:
    assert set(FOULS) == {"cue_ball_pocketed", "cue_ball_off_table", "touched_ball", "wrong_cue_ball", "hand_attack"}
    assert set(FAULTS.values()) == {"K-6.2"}
