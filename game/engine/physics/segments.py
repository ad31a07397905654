"""The result of a shot and its motion segments on the wire (ARCHITECTURE.md 3 and 4).

Internally each ball keeps exact segments ``(t0, x, y, vx, vy, ax, ay)`` (full floats); ``position_at`` is
evaluated from those. On the wire a segment is ``[t0, x, y, vx, vy, ax, ay]`` with

- ``t0`` rounded to 1e-5 s, and ``x, y, vx, vy`` re-evaluated from the exact polynomial at that rounded
  time, so rounding the time moves no point of the path, it only moves the switch between two segments
  by at most 5 microseconds (at 11 m/s at most 0.06 mm, and only during those microseconds);
- positions to 1e-6 m, velocities and accelerations to 1e-6 m/s and m/s^2: over a 10 s segment the
  error stays below 0.5 um + 5 um + 25 um, well within 0.1 mm of the exact path;
- zeros written as the integer 0 (shorter JSON).

A ball's last segment is the one it rests in, at exactly its rounded final position; a pocketed ball's
list ends with ``["pocket", t, pocket_id]``. Two segments whose rounded times coincide keep the later.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

from game.engine.balls import BallState
from game.engine.physics.events import Event

ExactSegment = tuple[float, float, float, float, float, float, float]

TIME_DIGITS = 5
VALUE_DIGITS = 6


def _num(value: float, digits: int) -> float | int:
    r = round(value, digits)
    return 0 if r == 0.0 else r


def wire_segments(exact: list[ExactSegment]) -> list[list[Any]]:
    """The JSON-ready segments of one ball from its exact ones (see the module docstring)."""
    out: list[list[Any]] = []
    for t0, x, y, vx, vy, ax, ay in exact:
        tr = round(t0, TIME_DIGITS)
        dt = tr - t0
        if dt != 0.0 and (vx != 0.0 or vy != 0.0 or ax != 0.0 or ay != 0.0):
            x += (vx + 0.5 * ax * dt) * dt
            y += (vy + 0.5 * ay * dt) * dt
            vx += ax * dt
            vy += ay * dt
        row = [
            _num(tr, TIME_DIGITS),
            _num(x, VALUE_DIGITS),
            _num(y, VALUE_DIGITS),
            _num(vx, VALUE_DIGITS),
            _num(vy, VALUE_DIGITS),
            _num(ax, VALUE_DIGITS),
            _num(ay, VALUE_DIGITS),
        ]
        if out and out[-1][0] == row[0]:
            out[-1] = row
        else:
            out.append(row)
    return out


class Shot:
    """A simulated shot: events, final resting states, drops, duration and motion segments."""

    __slots__ = (
        "_drops",
        "_exact",
        "_segments",
        "_starts",
        "duration",
        "engine_version",
        "events",
        "final",
        "pocketed",
    )

    def __init__(
        self,
        events: list[Event],
        final: dict[str, BallState],
        pocketed: dict[str, str],
        duration: float,
        exact: dict[str, list[ExactSegment]],
        drops: dict[str, tuple[float, str]],
        engine_version: str,
    ) -> None:
        self.events = events
        self.final = final
        self.pocketed = pocketed
        self.duration = duration
        self.engine_version = engine_version
        self._exact = exact
        self._drops = drops
        self._segments: dict[str, list[list[Any]]] | None = None
        self._starts: dict[str, list[float]] = {}

    @property
    def segments(self) -> dict[str, list[list[Any]]]:
        """JSON-ready motion segments per ball (ARCHITECTURE.md 4), in ``BALL_IDS`` order."""
        if self._segments is None:
            out: dict[str, list[list[Any]]] = {}
            for ball_id, exact in self._exact.items():
                rows = wire_segments(exact)
                drop = self._drops.get(ball_id)
                if drop is not None:
                    rows.append(["pocket", _num(drop[0], TIME_DIGITS), drop[1]])
                out[ball_id] = rows
            self._segments = out
        return self._segments

    @property
    def exact_segments(self) -> dict[str, list[ExactSegment]]:
        """Unrounded segments per ball, for tools that need more than the wire precision."""
        return self._exact

    def _times(self, ball_id: str) -> list[float]:
        starts = self._starts.get(ball_id)
        if starts is None:
            starts = self._starts[ball_id] = [s[0] for s in self._exact[ball_id]]
        return starts

    def position_at(self, ball_id: str, t: float) -> tuple[float, float]:
        """Exact centre of ``ball_id`` at time ``t`` (s). Before 0: the start; after a drop: where it
        dropped; after the shot: its final (rounded) position."""
        exact = self._exact[ball_id]
        drop = self._drops.get(ball_id)
        if drop is not None and t > drop[0]:
            t = drop[0]
        i = bisect_right(self._times(ball_id), t) - 1
        if i < 0:
            i, t = 0, exact[0][0]
        t0, x, y, vx, vy, ax, ay = exact[i]
        dt = t - t0
        return x + (vx + 0.5 * ax * dt) * dt, y + (vy + 0.5 * ay * dt) * dt

    def ball_at(self, ball_id: str, t: float) -> tuple[tuple[float, float], tuple[float, float]]:
        """(position, velocity) of ``ball_id`` at time ``t`` from the exact segments."""
        exact = self._exact[ball_id]
        drop = self._drops.get(ball_id)
        if drop is not None and t >= drop[0]:
            return self.position_at(ball_id, drop[0]), (0.0, 0.0)
        i = max(bisect_right(self._times(ball_id), t) - 1, 0)
        t0, x, y, vx, vy, ax, ay = exact[i]
        dt = max(t - t0, 0.0)
        return (x + (vx + 0.5 * ax * dt) * dt, y + (vy + 0.5 * ay * dt) * dt), (vx + ax * dt, vy + ay * dt)
