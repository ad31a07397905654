"""By how much a called ball missed its pocket (the words of K-4.2's "did not drop"), read off the events.

A player who sees only "the red did not drop" cannot learn the shot; on a table whose corner pockets
leave 4 mm to spare he needs "the red hit the cushion 6 mm right of the jaw". For a direct call (no bank,
no kiss) whose ball did not drop, the first thing the ball met after it was struck says it:

- a jaw of the called pocket: it hit that jaw, the left or the right one, and stayed out;
- a cushion that ends at the called pocket: it hit the cushion so many millimetres from the jaw (from
  where the cushion's nose ends at the pocket to the ball's contact on it), to the left or the right.

Left and right are as the ball ran: seen from where it lay, is the contact to the left or the right of
the line to the middle of the pocket's mouth. That reads the same however a page draws the table.
Anything else (another ball first, a cushion by another pocket, no contact at all) has no measure here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from game.engine.rules.calls import Call
from game.engine.rules.events import BALL_BALL, BALL_CUSHION, BALL_JAW, EventLike
from game.engine.table import TableSpec

Vec2 = tuple[float, float]

#: A cushion "ends at" a pocket when its nose ends this close (m) to the pocket's mouth centre; the ends
#: lie 0.04 m (corner) and 0.05 m (middle) from it, the next pocket's more than a metre away.
_ADJACENT = 0.1


def _side(start: Vec2, mouth: Vec2, point: Vec2) -> str:
    """ "left" or "right": where ``point`` lies from the line from ``start`` to ``mouth``."""
    ax, ay = mouth[0] - start[0], mouth[1] - start[1]
    bx, by = point[0] - start[0], point[1] - start[1]
    return "left" if ax * by - ay * bx > 0.0 else "right"


def miss_of(
    call: Call, cue: str, before: Mapping[str, Vec2 | None], events: Sequence[EventLike], table: TableSpec
) -> dict[str, Any] | None:
    """``{"at": "jaw" | "cushion", "side": "left" | "right", "pocket", "mm" (cushion only), "cushion"}`` for
    a direct call whose ball missed its pocket, or None (see the module docstring)."""
    ball = call.ball
    start = before.get(ball)
    if not call.direct or start is None:
        return None
    struck = False
    for e in events:
        if e.kind == BALL_BALL and ball in e.balls:
            if struck:
                return None
            struck = cue in e.balls
            if not struck:
                return None
            continue
        if not struck or not e.balls or e.balls[0] != ball or e.kind not in (BALL_JAW, BALL_CUSHION):
            continue
        return _measure(call.pocket, e.kind, e.where, e.point, start, table)
    return None


def _measure(
    pocket_id: str, kind: str, where: str | None, point: Vec2 | None, start: Vec2, table: TableSpec
) -> dict[str, Any] | None:
    if point is None:
        return None
    pocket = table.pockets[pocket_id]
    mouth = pocket.mouth_center
    side = _side(start, mouth, point)
    if kind == BALL_JAW:
        return {"at": "jaw", "side": side, "pocket": pocket_id} if where == pocket_id else None
    cushion = next((c for c in table.cushions if c.id == where), None)
    if cushion is None:
        return None
    end = min((cushion.a, cushion.b), key=lambda p: math.dist(p, mouth))
    if math.dist(end, mouth) > _ADJACENT:
        return None
    mm = round(math.dist(point, end) * 1000)
    return {"at": "cushion", "side": side, "pocket": pocket_id, "mm": mm, "cushion": cushion.id}
