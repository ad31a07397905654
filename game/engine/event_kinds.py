"""The kinds of shot events: one vocabulary for the physics that emits them and the rules that read them.

The values are the strings on the wire and in ``shot.events`` (ARCHITECTURE.md 3); ``EventKind`` is a
``StrEnum``, so a kind compares equal to its string and serialises as it. Motion transitions are named
"<from>_to_<to>" over the motion states; :func:`transition` gives the member for a pair of states.
"""

from __future__ import annotations

from enum import StrEnum


class EventKind(StrEnum):
    """Every event kind a shot may report (the physics emits the first five and the transitions)."""

    STRIKE = "strike"
    BALL_BALL = "ball_ball"
    BALL_CUSHION = "ball_cushion"
    #: Jaw tips and pocket facings (never a cushion for counting, K-10.4).
    BALL_JAW = "ball_jaw"
    BALL_POCKET = "ball_pocket"
    #: K-10.2: a ball leaving the cloth (jump); the planar physics never emits it.
    BALL_AIRBORNE = "ball_airborne"
    #: K-10.2: a ball leaving the table over a cushion; the planar physics never emits it.
    BALL_OFF_TABLE = "ball_off_table"
    #: K-6.2: cue faults a later stroke model may report; the physics never emits them.
    PUSH = "push"
    DOUBLE_HIT = "double_hit"
    # Motion transitions "<from>_to_<to>" between different states.
    STATIONARY_TO_SPINNING = "stationary_to_spinning"
    STATIONARY_TO_SLIDING = "stationary_to_sliding"
    STATIONARY_TO_ROLLING = "stationary_to_rolling"
    SPINNING_TO_STATIONARY = "spinning_to_stationary"
    SPINNING_TO_SLIDING = "spinning_to_sliding"
    SPINNING_TO_ROLLING = "spinning_to_rolling"
    SLIDING_TO_STATIONARY = "sliding_to_stationary"
    SLIDING_TO_SPINNING = "sliding_to_spinning"
    SLIDING_TO_ROLLING = "sliding_to_rolling"
    ROLLING_TO_STATIONARY = "rolling_to_stationary"
    ROLLING_TO_SPINNING = "rolling_to_spinning"
    ROLLING_TO_SLIDING = "rolling_to_sliding"


#: Motion state names in the order of ``physics.motion``'s state numbers (pocketed last).
MOTION_STATES: tuple[str, ...] = ("stationary", "spinning", "sliding", "rolling", "pocketed")


def transition(old: str, new: str) -> EventKind:
    """The transition kind from motion state ``old`` to ``new`` (names from ``MOTION_STATES``)."""
    return EventKind(f"{old}_to_{new}")


def is_transition(kind: str) -> bool:
    """True for a motion transition kind ("sliding_to_rolling", ...)."""
    return "_to_" in kind
