"""Fouls (K-8, K-6.6, K-7.2) and the no-score faults of K-6.2, read from the event list.

A foul (the verdict's ``foul``) ends the visit and voids everything the shot pocketed (K-8.3); only the
own-cue-ball fouls and a touch cost points. The K-6.2 faults are not fouls: they score nothing and end
the visit, without a penalty, and are reported in the verdict's ``fault``. Jump, push and double-hit
cannot happen in the planar physics (K-10.2) but are keyed on event kinds so a later model can feed them.
"""

from __future__ import annotations

from collections.abc import Sequence

from game.engine.rules.events import (
    BALL_AIRBORNE,
    BALL_OFF_TABLE,
    DOUBLE_HIT,
    PUSH,
    STRIKE,
    EventLike,
)

#: Every value the verdict's ``foul`` can take, with the rule that defines it.
FOULS: dict[str, str] = {
    "cue_ball_pocketed": "K-8.1",
    "cue_ball_off_table": "K-8.1",
    "touched_ball": "K-8.2",
    "wrong_cue_ball": "K-6.6",
    "hand_attack": "K-7.2",
}

#: Every value of the verdict's ``fault`` (no score, visit ends, no penalty: K-6.2).
FAULTS: dict[str, str] = {
    "rolled_along_cushion": "K-6.2",
    "object_jumped": "K-6.2",
    "push_or_double_hit": "K-6.2",
    "frozen_to_cushion": "K-6.2",
    "kiss_off_frozen_ball": "K-6.2",
}


def struck_ball(events: Sequence[EventLike]) -> str | None:
    for e in events:
        if e.kind == STRIKE and e.balls:
            return e.balls[0]
    return None


def left_table(events: Sequence[EventLike], ball: str) -> bool:
    """K-10.2: a ball that left the table other than through a pocket (never, in planar physics)."""
    return any(e.kind == BALL_OFF_TABLE and e.balls and e.balls[0] == ball for e in events)


def jumped(events: Sequence[EventLike], ball: str) -> bool:
    return any(e.kind in (BALL_AIRBORNE, BALL_OFF_TABLE) and e.balls and e.balls[0] == ball for e in events)


def cue_fault(events: Sequence[EventLike]) -> bool:
    """K-6.2: a push or a double hit, as reported by a stroke model."""
    return any(e.kind in (PUSH, DOUBLE_HIT) for e in events)
