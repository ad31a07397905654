"""Shared helpers for the physics tests: layouts, ideal parameters and invariant checks."""

from __future__ import annotations

import math

from game.engine.balls import BallState
from game.engine.physics import PhysicsParams, Shot
from game.engine.table import TableSpec, kaisa_table

TABLE = kaisa_table()
R = TABLE.ball_radius

#: Textbook collisions: perfectly elastic, frictionless ball-ball contact.
IDEAL = PhysicsParams(e_b=1.0, u_b_a=0.0, u_b_b=0.0)


def still(x: float, y: float) -> BallState:
    return BallState((x, y))


def velocity_after(shot: Shot, ball_id: str, t: float) -> tuple[float, float]:
    """Velocity of ``ball_id`` just after time ``t``: the exact segment starting at or before ``t``."""
    segs = [s for s in shot.exact_segments[ball_id] if s[0] <= t]
    t0, _x, _y, vx, vy, ax, ay = segs[-1]
    return vx + ax * (t - t0), vy + ay * (t - t0)


def velocity_before(shot: Shot, ball_id: str, t: float) -> tuple[float, float]:
    segs = [s for s in shot.exact_segments[ball_id] if s[0] < t]
    t0, _x, _y, vx, vy, ax, ay = segs[-1]
    return vx + ax * (t - t0), vy + ay * (t - t0)


def angle_between(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Unsigned angle in degrees between two vectors."""
    cross = a[0] * b[1] - a[1] * b[0]
    dot = a[0] * b[0] + a[1] * b[1]
    return abs(math.degrees(math.atan2(cross, dot)))


def sample_times(shot: Shot, step: float = 0.005) -> list[float]:
    """Every event time, a little after each, and a dense grid over the shot (tunnelling shows up)."""
    times = {e.time for e in shot.events} | {0.0, shot.duration}
    out = sorted(times | {t + 1e-4 for t in times})
    n = int(shot.duration / step) + 2
    out.extend(i * step for i in range(n))
    return sorted(out)


def check_invariants(shot: Shot, table: TableSpec = TABLE, overlap_tol: float = 3e-6) -> None:
    """No two balls overlap, no ball leaves the cloth except through a pocket, every ball rests."""
    Rb = table.ball_radius
    L, W = table.length, table.width
    drops = {e.balls[0]: e.time for e in shot.events if e.kind == "ball_pocket"}
    ids = list(shot.segments)
    for t in sample_times(shot):
        pos = {b: shot.position_at(b, t) for b in ids if not (b in drops and t >= drops[b])}
        for b, (x, y) in pos.items():
            # A contact parts both balls by the separation (1 µm), so a ball frozen on a cushion in a chain
            # is pushed that much toward the rubber at each contact: the same tolerance as two balls'.
            tol = overlap_tol
            inside = Rb - tol <= x <= L - Rb + tol and Rb - tol <= y <= W - Rb + tol
            if not inside:
                near = min(math.dist((x, y), p.center) for p in table.pockets.values())
                assert near < 0.09, f"{b} escaped at t={t}: {(x, y)}"
        keys = list(pos)
        for i, a in enumerate(keys):
            for b in keys[i + 1 :]:
                d = math.dist(pos[a], pos[b])
                assert d >= 2 * Rb - overlap_tol, f"{a} and {b} overlap by {2 * Rb - d} at t={t}"
    assert set(shot.final) | set(shot.pocketed) == set(ids)
    for b, state in shot.final.items():
        assert state.velocity == (0.0, 0.0)
        assert table.ball_position_valid(state.position, tolerance=2e-6), f"{b} rests off the table: {state.position}"
        assert shot.segments[b][-1][1:3] == [v if v != 0 else 0 for v in state.position]
