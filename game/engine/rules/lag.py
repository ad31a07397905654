"""The lag for the break (K-3.1), judged per player and then between the two players.

Online the two lags are simulated independently on the same layout, each with only the lagging
player's white besides the colours. The first-joined player lags on the side y < W/2, the other on
y > W/2; each white starts at a fixed point of the home on its side: x = L/8 (half way to the home
line), y = W/4 or 3W/4.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from game.engine.rules.events import BALL_BALL, BALL_CUSHION, EventLike
from game.engine.rules.trace import coordinate_extent
from game.engine.rules.words import lag_words
from game.engine.table import TableSpec

LONG_CUSHIONS: tuple[str, ...] = ("right_home", "right_foot", "left_home", "left_foot")
FOOT_CUSHION = "foot"
#: The lagging players' whites are labelled like this in the lag simulations (cue balls are not yet
#: assigned: K-3.2 assigns them after the lag).
LAG_BALLS: tuple[str, str] = ("white1", "white2")


def lag_start(table: TableSpec, side: int) -> tuple[float, float]:
    """The fixed start of a player's lag white: in the home, in the middle of his half."""
    y = table.width / 4 if side == 0 else 3 * table.width / 4
    return (round(table.home_line_x / 2, 6), round(y, 6))


@dataclass(frozen=True)
class LagResult:
    """One player's lag: lost (and why) or the distance from the home cushion (m).

    ``code`` says what happened (``lag_`` + pocketed, touched_ball, long_cushion, crossed, short or
    stopped); ``reason`` is its words, kept in the snapshot as before (``code`` is not).
    """

    lost: bool
    distance: float | None
    reason: str
    code: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"lost": self.lost, "distance": self.distance, "reason": self.reason}


def judge_lag(
    *,
    ball: str,
    side: int,
    events: Sequence[EventLike],
    pocketed: bool,
    final: tuple[float, float] | None,
    y_extent: tuple[float, float],
    table: TableSpec,
) -> LagResult:
    """K-3.1 for one lag. A lag that never reaches the foot cushion also loses: it is no lag."""
    if pocketed or final is None:
        return _lost("lag_pocketed")
    code = _contact_fault(ball, events) or _place_fault(ball, side, events, y_extent, table)
    if code is not None:
        return _lost(code)
    distance = round(final[0] - table.ball_radius, 6) + 0.0
    return LagResult(False, distance, lag_words("lag_stopped", distance), "lag_stopped")


def _lost(code: str) -> LagResult:
    return LagResult(True, None, lag_words(code, None), code)


def _contact_fault(ball: str, events: Sequence[EventLike]) -> str | None:
    """The lag ball touched another ball or a long cushion (the first of them)."""
    for e in events:
        if e.kind == BALL_BALL and ball in e.balls:
            return "lag_touched_ball"
        if e.kind == BALL_CUSHION and e.balls and e.balls[0] == ball and e.where in LONG_CUSHIONS:
            return "lag_long_cushion"
    return None


def _place_fault(
    ball: str, side: int, events: Sequence[EventLike], y_extent: tuple[float, float], table: TableSpec
) -> str | None:
    """The lag ball crossed into the other player's half, or never reached the foot cushion."""
    half = table.width / 2
    if (side == 0 and y_extent[1] > half) or (side == 1 and y_extent[0] < half):
        return "lag_crossed"
    if not any(e.kind == BALL_CUSHION and e.balls and e.balls[0] == ball and e.where == FOOT_CUSHION for e in events):
        return "lag_short"
    return None


def judge_lag_shot(shot: Any, *, ball: str, side: int, table: TableSpec) -> LagResult:
    """K-3.1 for one simulated lag shot of ``ball`` from ``side`` (the online lag and the computer's
    lag search judge the same way)."""
    final = shot.final.get(ball)
    return judge_lag(
        ball=ball,
        side=side,
        events=shot.events,
        pocketed=ball in shot.pocketed,
        final=None if final is None else final.position,
        y_extent=coordinate_extent(shot, ball, 1),
        table=table,
    )


def decide_lag(first: LagResult, second: LagResult, tolerance: float) -> int | None:
    """Index of the lag winner (0 or 1), or None for a re-lag (both lose, or a tie within 1 mm)."""
    if first.lost and second.lost:
        return None
    if first.lost:
        return 1
    if second.lost:
        return 0
    assert first.distance is not None and second.distance is not None
    if abs(first.distance - second.distance) <= tolerance:
        return None
    return 0 if first.distance < second.distance else 1
