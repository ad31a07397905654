"""The golden shots of the physics: a fixed seeded set whose results are recorded in ``golden.json``.

The fixture pins the physics bit for bit across refactors: for every case the exact events (times and
contact points as full floats), the wire segments, the exact segments, the final positions and the drops
are hashed (SHA-256 of their canonical JSON; a float's JSON form is its shortest exact repr). A few cases
are also stored whole, so a failure shows what moved.

The cases: the first ``BENCH_SHOTS`` shots of ``python manage.py bench_physics`` (its seed), plus the
tricky ones the benchmark rarely draws: frozen clusters, balls frozen to each rail struck along and into
it, jaw rattles at full speed, a straight pot into each of the six pockets, a Newton's cradle.

History: the K-6.2 resting-contact change (physics 2) changed the events of 64 shots (56 bench, 8
frozen-rail/white cases) and nothing else: 66 ``ball_cushion`` events of balls frozen to that cushion at
rest are no longer reported (65 at the instant they were set moving, 1 a squeeze 68 us later without
leaving the rail, bench-0064); segments, exact segments, positions, drops and durations are identical.

Regenerate (only when a physics change is meant to change results, and say which shots changed and why
in the commit): ``.venv/bin/python -m tests.engine.golden_cases --write``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.physics import DEFAULT_SEED, bench_cases
from game.engine.balls import BALL_IDS, BallState
from game.engine.physics import Shot, Strike, simulate
from game.engine.table import kaisa_table

FIXTURE = Path(__file__).with_name("golden.json")
BENCH_SHOTS = 1000
#: Cases stored whole besides their hash (names).
FULL_RECORDS = ("bench-0000", "frozen-rail-right_home-into", "rattle-foot_left-+0.012", "pot-middle_left")

TABLE = kaisa_table()
R = TABLE.ball_radius
L, W = TABLE.length, TABLE.width

Case = tuple[str, dict[str, BallState], Strike]


def _still(x: float, y: float) -> BallState:
    return BallState((x, y))


def tricky_cases() -> Iterator[Case]:
    """Hand-made shots at the edges: frozen balls, jaws, each pocket."""
    # A frozen cluster: four balls touching in a diamond, the white frozen to the last one.
    cx, cy = 1.8, 0.71
    cluster = {
        "red1": _still(cx, cy),
        "red2": _still(cx + 2 * R, cy),
        "kaisa": _still(cx + R, cy + math.sqrt(3) * R),
        "white2": _still(cx + R, cy - math.sqrt(3) * R),
        "white1": _still(cx - 2 * R, cy),
    }
    for k, (speed, side, height) in enumerate(((2.0, 0.0, 0.0), (6.0, 0.3, -0.4), (9.0, -0.5, 0.3))):
        yield f"frozen-cluster-{k}", cluster, Strike("white1", speed, 0.05 * k, side, height)
    # A red frozen to each rail, the white driving it into the rail, and along the rail.
    rails = {
        "head": ((R, 0.7), (0.5, 0.95)),
        "foot": ((L - R, 0.7), (L - 0.5, 0.45)),
        "right_home": ((1.0, R), (0.6, 0.4)),
        "left_foot": ((2.0, W - R), (2.4, W - 0.4)),
    }
    for rail, (red, white) in rails.items():
        angle = math.atan2(red[1] - white[1], red[0] - white[0])
        balls = {"red1": _still(*red), "white1": _still(*white)}
        yield f"frozen-rail-{rail}-into", balls, Strike("white1", 3.0, angle, 0.2, 0.1)
    along = {"red1": _still(1.0, R), "white1": _still(0.6, R)}
    for k, side in enumerate((0.0, 0.3, -0.3)):
        yield f"frozen-rail-along-{k}", along, Strike("white1", 2.5, 0.0, side, 0.0)
    # A white frozen to the rail struck into it and away from it.
    for k, angle in enumerate((-1.2, -0.3, 0.4, 1.3)):
        yield f"frozen-white-{k}", {"white1": _still(1.3, R), "red1": _still(1.6, 0.5)}, Strike("white1", 4.0, angle)
    # Jaw rattles: at full speed just off the mouth centre of each corner and middle pocket.
    for pid, pocket in TABLE.pockets.items():
        mid = ((pocket.mouth[0][0] + pocket.mouth[1][0]) / 2, (pocket.mouth[0][1] + pocket.mouth[1][1]) / 2)
        ax, ay = pocket.axis
        for lateral in (-0.012, -0.006, 0.006, 0.012):
            start = (mid[0] - 0.4 * ax - lateral * ay, mid[1] - 0.4 * ay + lateral * ax)
            yield f"rattle-{pid}-{lateral:+.3f}", {"white1": _still(*start)}, Strike("white1", 9.0, math.atan2(ay, ax))
    # A straight pot into each pocket: the white drives a red along the pocket's axis.
    for pid, pocket in TABLE.pockets.items():
        mid = ((pocket.mouth[0][0] + pocket.mouth[1][0]) / 2, (pocket.mouth[0][1] + pocket.mouth[1][1]) / 2)
        ax, ay = pocket.axis
        red = (mid[0] - 0.3 * ax, mid[1] - 0.3 * ay)
        white = (red[0] - 0.4 * ax, red[1] - 0.4 * ay)
        balls = {"white1": _still(*white), "red1": _still(*red)}
        yield f"pot-{pid}", balls, Strike("white1", 2.0, math.atan2(ay, ax))
    # Newton's cradle along the table.
    cradle = {b: _still(0.5 + i * 2 * R, 0.71) for i, b in enumerate(BALL_IDS)}
    yield "cradle", cradle, Strike("white1", 3.0, 0.0)


def all_cases() -> Iterator[Case]:
    for k, (layout, strike) in enumerate(bench_cases(BENCH_SHOTS, DEFAULT_SEED, TABLE)):
        yield f"bench-{k:04d}", layout, strike
    yield from tricky_cases()


def record(shot: Shot) -> dict[str, Any]:
    """Everything a shot produces, as canonical JSON-ready data with exact floats."""
    return {
        "events": [
            [e.time, str(e.kind), list(e.balls), e.where, None if e.point is None else list(e.point)]
            for e in shot.events
        ],
        "segments": shot.segments,
        "exact": {b: [list(s) for s in segs] for b, segs in shot.exact_segments.items()},
        "final": {b: list(s.position) for b, s in shot.final.items()},
        "pocketed": shot.pocketed,
        "duration": shot.duration,
    }


def digest(rec: dict[str, Any]) -> str:
    text = json.dumps(rec, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def compute() -> dict[str, Any]:
    hashes: dict[str, str] = {}
    full: dict[str, Any] = {}
    for name, layout, strike in all_cases():
        rec = record(simulate(TABLE, layout, strike))
        hashes[name] = digest(rec)
        if name in FULL_RECORDS:
            full[name] = rec
    return {"hashes": hashes, "full": full}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true", help="rewrite the fixture from the current physics")
    args = parser.parse_args()
    data = compute()
    if args.write:
        FIXTURE.write_text(json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n")
        print(f"wrote {len(data['hashes'])} shots to {FIXTURE}")
        return
    stored = json.loads(FIXTURE.read_text())
    changed = [n for n, h in data["hashes"].items() if stored["hashes"].get(n) != h]
    print(f"{len(changed)} of {len(data['hashes'])} shots differ: {', '.join(changed)}")


if __name__ == "__main__":
    main()
