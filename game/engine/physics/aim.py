"""The aim preview: where a strike first touches something, and where the object ball goes from there.

A player aims with the line this draws, so it has to tell the truth on a table whose corner pockets leave
4 mm to spare: a geometric ghost ball, blind to throw and squirt, drew pots that hit the jaw. The preview
is the engine's own shot, stepped event by event (``simulate.shot_loop``) only as long as the balls it
follows have not met anything yet:

- the cue ball, until it touches a ball, the table (a cushion, a jaw, the capture line) or stops;
- the object ball, from that contact through the jaw contacts of the pocket it meets, until it drops
  (``pocket``), meets a straight cushion or another pocket's jaws, touches a ball or stops: a ball rattled
  in off a jaw is a pot;
- the cue ball again from the contact, until the next thing it touches or its rest.

Being the engine's shot, it plays what the engine plays where a line drawn from one ball alone could not:
a ball frozen to a cushion and pushed into it rolls on along the rail (a resting contact, K-6.2, is no
event); at the impact the object ball's line goes on through the balls that touched it at the start (a
cluster, or the cue ball itself, K-6.7) and through the cue ball squeezing it against its rail or
pushing it twice, and so does the cue ball's; a ball the cue ball or the object ball set moving is where
the engine has it when another meets it. ``static/game/js/aim.js`` mirrors this module and the loop it steps
for the browser (docs/decisions/aim-preview.md says why the browser computes it); the tests check the
mirror against this on seeded strikes and this against ``simulate``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from game.engine.balls import BallState, Vec2
from game.engine.event_kinds import EventKind
from game.engine.physics.event_loop import EventLoop
from game.engine.physics.events import Event
from game.engine.physics.motion import SPINNING, MovingBall
from game.engine.physics.params import PhysicsParams
from game.engine.physics.simulate import shot_loop
from game.engine.physics.strike import Strike
from game.engine.table import FROZEN_TOLERANCE, TableSpec

#: How many jaw contacts the object ball's path follows before it gives up (a rattle takes 2 to 4).
MAX_JAW_CONTACTS = 12

#: Path piece: (t0, t1, x, y, vx, vy, ax, ay), the centre at t0 + s being (x, y) + v s + a s^2 / 2.
Piece = tuple[float, float, float, float, float, float, float, float]


@dataclass(frozen=True, slots=True)
class Run:
    """One ball's path in the preview and how it ends.

    ``end``: "ball" (it touches ``where``, a ball id), "cushion" (``where`` the cushion id), "jaw" (a jaw tip
    or facing of pocket ``where``), "pocket" (it drops into ``where``), "rest", or "limit" (too many jaw
    contacts to follow). ``at`` is the centre where it ends, ``point`` the contact point (None at rest),
    ``jaws`` the contact point and time (x, y, t) of each jaw it went through on the way, all of pocket
    ``jaw_pocket``.
    """

    pieces: tuple[Piece, ...]
    end: str
    where: str | None
    at: Vec2
    point: Vec2 | None
    time: float
    jaws: tuple[tuple[float, float, float], ...] = ()
    jaw_pocket: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "pieces": [list(p) for p in self.pieces],
            "end": self.end,
            "where": self.where,
            "at": list(self.at),
            "point": None if self.point is None else list(self.point),
            "time": self.time,
            "jaws": [list(p) for p in self.jaws],
            "jaw_pocket": self.jaw_pocket,
        }


@dataclass(frozen=True, slots=True)
class AimPreview:
    """The preview of one strike; see the module docstring.

    ``cue`` the cue ball's path to its first contact; when that is a ball (``hit``), ``direction`` is the
    object ball's unit departure direction, ``throw`` its angle from the line of centres (radians,
    counter-clockwise positive: what cut-induced and spin-induced throw add to the ghost ball's line),
    ``object`` its path and ``cue_after`` the cue ball's path from the contact.
    """

    cue: Run
    hit: str | None = None
    direction: Vec2 | None = None
    throw: float = 0.0
    object: Run | None = None
    cue_after: Run | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "cue": self.cue.as_dict(),
            "hit": self.hit,
            "direction": None if self.direction is None else list(self.direction),
            "throw": self.throw,
            "object": None if self.object is None else self.object.as_dict(),
            "cue_after": None if self.cue_after is None else self.cue_after.as_dict(),
        }


def physics_for_client(table: TableSpec, params: PhysicsParams = PhysicsParams()) -> dict[str, float]:  # noqa: B008
    """The coefficients the browser's mirror (``aim.js``) needs besides the table's geometry, JSON-ready."""
    return {
        "ball_mass": table.ball_mass,
        "g": params.g,
        "u_s": params.u_s,
        "u_r": params.u_r,
        "spin_decel": params.spin_decel,
        "e_b": params.e_b,
        "u_b_a": params.u_b_a,
        "u_b_b": params.u_b_b,
        "u_b_c": params.u_b_c,
        "e_c": params.e_c,
        "f_c": params.f_c,
        "cue_mass": params.cue_mass,
        "tip_restitution": params.tip_restitution,
        "cue_end_mass": params.cue_end_mass,
        "separation": params.separation,
        "max_events": params.max_events,
        "max_time": params.max_time,
    }


def table_for_client(table: TableSpec, params: PhysicsParams = PhysicsParams()) -> dict[str, Any]:  # noqa: B008
    """What a page that draws the table and its aim line receives: the geometry (``TableSpec.as_dict``) and,
    under ``physics``, the coefficients of :func:`physics_for_client`."""
    return {**table.as_dict(), "physics": physics_for_client(table, params)}


def aim_preview(
    table: TableSpec,
    balls: Mapping[str, Vec2 | None],
    strike: Strike,
    params: PhysicsParams = PhysicsParams(),  # noqa: B008 - frozen, immutable default
) -> AimPreview:
    """The preview of ``strike`` with the balls at rest at ``balls`` (None: off the table); see the module
    docstring. Raises StrikeError for a strike or a layout the engine would refuse."""
    loop = shot_loop(table, {b: BallState(p) for b, p in balls.items() if p is not None}, strike, params)
    movers = {b.id: b for b in loop.movers}
    cue = movers[strike.ball]
    (first,) = _follow(loop, [_Follow(cue, 0.0)])
    if first.end != "ball" or first.where is None:
        return AimPreview(first)
    obj = movers[first.where]
    # The contact just resolved: each ball's motion starts at it, a micrometre apart.
    nx, ny = obj.x - cue.x, obj.y - cue.y
    speed = math.hypot(obj.vx, obj.vy)
    dx, dy = (obj.vx / speed, obj.vy / speed) if speed > 0.0 else (nx / math.hypot(nx, ny), ny / math.hypot(nx, ny))
    throw = math.atan2(nx * dy - ny * dx, nx * dx + ny * dy)
    # The impact: the cue ball and the balls that touched the object ball at the start meet it again at
    # once (a squeeze against its rail, a push, a cluster); each line goes on through those contacts.
    reach = 2.0 * table.ball_radius + FROZEN_TOLERANCE
    cluster = frozenset(
        b.id for b in loop.movers if b is not obj and math.dist(b.segments[0][1:3], obj.segments[0][1:3]) <= reach
    )
    object_run, cue_run = _follow(
        loop,
        [
            _Follow(obj, first.time, jaws=True, cluster=cluster | {cue.id}),
            _Follow(cue, first.time, cluster=frozenset({obj.id})),
        ],
    )
    return AimPreview(first, obj.id, (dx, dy), throw, object_run, cue_run)


@dataclass(slots=True)
class _Follow:
    """A ball the preview follows from ``start``: what it has met so far, and its run once it ends.

    ``jaws``: the object ball goes on through the jaw contacts of the first pocket it meets. ``cluster``:
    the balls it goes on through at the impact, as long as it has met nothing else."""

    ball: MovingBall
    start: float
    jaws: bool = False
    cluster: frozenset[str] = frozenset()
    jaw_points: list[tuple[float, float, float]] = field(default_factory=list)
    jaw_pocket: str | None = None
    run: Run | None = None

    def end(self, end: str, where: str | None, t: float, at: Vec2, point: Vec2 | None) -> None:
        """Its run ends at ``t`` with its centre at ``at``: its pieces are its segments from its start."""
        segs = self.ball.segments
        pieces = tuple(
            (s[0], segs[k + 1][0] if k + 1 < len(segs) and segs[k + 1][0] < t else t, *s[1:])
            for k, s in enumerate(segs)
            if self.start <= s[0] and (s[0] < t or s[0] == self.start)
        )
        self.run = Run(pieces, end, where, at, point, t, tuple(self.jaw_points), self.jaw_pocket)

    def meets(self, event: Event, at: Vec2) -> None:
        """The engine reported ``event`` of this ball, its centre at ``at`` just before it: go on, or end."""
        kind, where, t = event.kind, event.where, event.time
        if kind == EventKind.BALL_BALL:
            other = next(b for b in event.balls if b != self.ball.id)
            if other not in self.cluster:
                self.end("ball", other, t, at, event.point)
            return
        self.cluster = frozenset()  # the impact is over once it meets anything else
        if kind == EventKind.BALL_POCKET:
            self.end("pocket", where, t, at, event.point)
        elif kind == EventKind.BALL_CUSHION:
            self.end("cushion", where, t, at, event.point)
        elif kind == EventKind.BALL_JAW:
            if not self.jaws or (self.jaw_pocket is not None and where != self.jaw_pocket):
                self.end("jaw", where, t, at, event.point)
                return
            assert event.point is not None
            self.jaw_pocket = where
            self.jaw_points.append((*event.point, t))
            if len(self.jaw_points) > MAX_JAW_CONTACTS:
                self.end("limit", where, t, at, event.point)
        elif self.ball.state <= SPINNING:
            self.end("rest", None, t, at, None)


def _follow(loop: EventLoop, follows: list[_Follow]) -> list[Run]:
    """Step the shot until each followed ball's run has ended; their runs. A ball already at rest ends at
    once; a ball that drops as it stops ends in the pocket (its drop follows its stop in the same step)."""
    for f in follows:
        if f.ball.state <= SPINNING:
            f.end("rest", None, f.start, f.ball.position(f.start), None)
    while live := [f for f in follows if f.run is None]:
        t = loop.earliest()[0]
        if _out_of_bounds(loop, t):
            for f in live:
                f.end("limit", None, loop.now, f.ball.position(loop.now), None)
            break
        before = [f.ball.position(max(t, loop.now)) for f in live]
        seen = len(loop.events)
        loop.step()
        _report(loop, loop.events[seen:], live, before)
    return [f.run for f in follows if f.run is not None]


def _out_of_bounds(loop: EventLoop, t: float) -> bool:
    """Whether the next event at ``t`` would be past the shot's caps (or there is none): the simulation
    would stop there, so the runs still open end as "limit"."""
    params = loop.params
    return t == math.inf or t > params.max_time or loop.count >= params.max_events


def _report(loop: EventLoop, events: list[Event], live: list[_Follow], before: list[Vec2]) -> None:
    """Tell each followed ball still running of the step's events that involve it (``before``: its centre
    just before the step)."""
    for event in events:
        for f, at in zip(live, before, strict=True):
            if f.run is None and f.ball.id in event.balls and not _stops_then_drops(loop, f, event):
                f.meets(event, at)


def _stops_then_drops(loop: EventLoop, f: _Follow, event: Event) -> bool:
    """A ball that comes to rest over a hole reports its stop, then its drop: the drop ends its run."""
    return event.kind not in _CONTACTS and f.ball.id in loop.pocketed


#: The events that are contacts (the rest are the motion transitions).
_CONTACTS = frozenset({EventKind.BALL_BALL, EventKind.BALL_CUSHION, EventKind.BALL_JAW, EventKind.BALL_POCKET})
