"""Reading a shot's event list (K-10.1): the only window the rules have onto the physics.

The physics ``Event`` has ``time, kind, balls, where, point``. :class:`HandEvent` has the same shape so
tests and tools can judge hand-built event lists without simulating. Kinds the planar physics never
emits (K-10.2) are named here so a later airborne model can feed the same rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

# The event kinds have one home shared with the physics (K-10.2 airborne/off-table, K-6.2 push/double hit).
from game.engine.event_kinds import EventKind

STRIKE = EventKind.STRIKE
BALL_BALL = EventKind.BALL_BALL
BALL_CUSHION = EventKind.BALL_CUSHION
BALL_JAW = EventKind.BALL_JAW
BALL_POCKET = EventKind.BALL_POCKET
BALL_AIRBORNE = EventKind.BALL_AIRBORNE
BALL_OFF_TABLE = EventKind.BALL_OFF_TABLE
PUSH = EventKind.PUSH
DOUBLE_HIT = EventKind.DOUBLE_HIT


class EventLike(Protocol):
    """What the rules read of an event (read-only, so the physics Event and HandEvent both fit)."""

    @property
    def time(self) -> float: ...
    @property
    def kind(self) -> str: ...
    @property
    def balls(self) -> tuple[str, ...]: ...
    @property
    def where(self) -> str | None: ...
    @property
    def point(self) -> tuple[float, float] | None: ...


@dataclass(frozen=True)
class HandEvent:
    """An event written by hand (tests, tools); same fields as the physics Event."""

    time: float
    kind: str
    balls: tuple[str, ...]
    where: str | None = None
    point: tuple[float, float] | None = None


def ev(
    kind: str, *balls: str, where: str | None = None, point: tuple[float, float] | None = None, t: float = 0.0
) -> HandEvent:
    """Shorthand for hand-built event lists: ``ev("ball_ball", "white1", "red1")``."""
    return HandEvent(t, kind, tuple(balls), where, point)


def hand_events(*items: HandEvent) -> list[HandEvent]:
    """Give hand-built events increasing times so order and time agree."""
    return [HandEvent(float(i), e.kind, e.balls, e.where, e.point) for i, e in enumerate(items)]


def involving(events: Sequence[EventLike], ball: str, kind: str) -> list[EventLike]:
    return [e for e in events if e.kind == kind and ball in e.balls]


def other_ball(event: EventLike, ball: str) -> str:
    """The other ball of a ball-ball contact."""
    a, b = event.balls[0], event.balls[1]
    return b if a == ball else a


def drop_index(events: Sequence[EventLike], ball: str) -> int | None:
    """Index of the ball's ``ball_pocket`` event, or None if it did not drop."""
    for i, e in enumerate(events):
        if e.kind == BALL_POCKET and e.balls and e.balls[0] == ball:
            return i
    return None


def cushion_count(events: Sequence[EventLike]) -> int:
    """Cushion contacts of one ball's cushion events, a rattle on one cushion counting once.

    A ball rolling along a rail can produce several contacts with the same cushion in a row; they are one
    contact for the call (K-4.2). Jaw and facing contacts are ``ball_jaw`` and never reach here (K-10.4).
    """
    count = 0
    last: str | None = None
    for e in events:
        if e.where != last:
            count += 1
            last = e.where
    return count
