"""Scripted shots for judging and match tests without the physics.

A :class:`FakeShot` has the public surface of the physics ``Shot`` the rules read (``events``,
``final``, ``pocketed``, ``duration``, ``position_at``); balls move on straight lines between waypoints.
A :class:`Script` is a simulator (``Match(..., simulate=script)``) handing out a queue of such shots, so
phase-machine tests are exact and fast; tests/rules/test_real_shots.py plays the real physics.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from game.engine.balls import BallState
from game.engine.rules.events import HandEvent
from game.engine.rules.strike import StrikeInput

Vec2 = tuple[float, float]


@dataclass
class FakeShot:
    events: list[HandEvent]
    final: dict[str, BallState]
    pocketed: dict[str, str]
    duration: float
    paths: dict[str, list[tuple[float, Vec2]]] = field(default_factory=dict)
    segments: dict[str, Any] = field(default_factory=dict)

    def position_at(self, ball: str, t: float) -> Vec2:
        path = self.paths[ball]
        if t <= path[0][0]:
            return path[0][1]
        for (t0, p0), (t1, p1) in itertools.pairwise(path):
            if t0 <= t <= t1:
                f = 0.0 if t1 == t0 else (t - t0) / (t1 - t0)
                return (p0[0] + f * (p1[0] - p0[0]), p0[1] + f * (p1[1] - p0[1]))
        return path[-1][1]


def E(kind: str, *balls: str, where: str | None = None, point: Vec2 | None = None) -> HandEvent:
    """An event without a time; :func:`make_shot` numbers them 1, 2, 3 ..."""
    return HandEvent(0.0, kind, tuple(balls), where, point)


def make_shot(
    before: Mapping[str, Vec2 | None],
    cue: str,
    events: Sequence[HandEvent],
    moves: Mapping[str, Vec2] | None = None,
    via: Mapping[str, Sequence[Vec2]] | None = None,
) -> FakeShot:
    """A shot from ``before``: a strike on ``cue``, ``events`` at t = 1, 2, ...; ``moves`` final places.

    Balls with a ``ball_pocket`` event are pocketed (at their event time); ``via`` adds waypoints
    (evenly spaced in time) between a ball's start and its end.
    """
    timed = [HandEvent(0.0, "strike", (cue,), None, None)]
    timed += [HandEvent(float(i + 1), e.kind, e.balls, e.where, e.point) for i, e in enumerate(events)]
    duration = float(len(timed))
    moves = dict(moves or {})
    pocketed: dict[str, str] = {}
    drop_time: dict[str, float] = {}
    for e in timed:
        if e.kind == "ball_pocket":
            pocketed[e.balls[0]] = str(e.where)
            drop_time[e.balls[0]] = e.time
    final: dict[str, BallState] = {}
    paths: dict[str, list[tuple[float, Vec2]]] = {}
    for ball, pos in before.items():
        if pos is None:
            continue
        end = moves.get(ball, pos)
        stop = drop_time.get(ball, duration)
        points = [pos, *((via or {}).get(ball, ())), end]
        paths[ball] = [(stop * i / (len(points) - 1), p) for i, p in enumerate(points)]
        if ball not in pocketed:
            final[ball] = BallState(position=end)
    return FakeShot(timed, final, pocketed, duration, paths)


class Script:
    """A simulator for ``Match(..., simulate=script)``: the queue of shots it hands out, and what it was
    asked to play. As a context manager it checks at the end that every pushed shot was played."""

    def __init__(self) -> None:
        self.queue: list[Any] = []
        self.calls: list[dict[str, Any]] = []

    def push(self, shot: Any) -> None:
        self.queue.append(shot)

    def __call__(self, table: Any, balls: Mapping[str, Vec2], strike: StrikeInput, ball: str) -> Any:
        self.calls.append({"balls": dict(balls), "strike": strike.as_dict(), "ball": ball})
        item = self.queue.pop(0)
        if callable(item):
            item = item(balls, ball)
        if isinstance(item, Exception):
            raise item
        return item

    def __enter__(self) -> Script:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        if kind is None:
            assert not self.queue, f"{len(self.queue)} scripted shot(s) were never played"


STRIKE = {"angle": 0.0, "speed": 2.0, "side": 0.0, "height": 0.0}
