"""Physics benchmark: time ``simulate`` over a fixed seeded set of Kaisa shots from realistic positions.

Run ``python -m bench.physics`` (no Django needed) or ``python manage.py bench_physics``. It prints
median, p95 and max milliseconds per shot (wall clock, and the thread's CPU time, which stays honest when
other processes share the machine), events per shot and the JSON size of the segments. The shots
are the same on every run (seeded ``random.Random``), so figures are comparable across commits.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Iterator
from typing import Protocol

from game.engine.balls import BALL_IDS, BallState
from game.engine.physics import ENGINE_VERSION, Strike, simulate
from game.engine.table import TableSpec, kaisa_table

DEFAULT_SHOTS = 1000
DEFAULT_SEED = 20240601


def random_layout(rng: random.Random, table: TableSpec) -> dict[str, BallState]:
    """Five balls at random non-overlapping places on the cloth (a few near cushions, as in play)."""
    R = table.ball_radius
    placed: dict[str, BallState] = {}
    for ball_id in BALL_IDS:
        while True:
            if rng.random() < 0.15:
                # Frozen or near-frozen to a cushion.
                side = rng.randrange(4)
                along = rng.uniform(0.1, 0.9)
                gap = rng.choice((0.0, 0.0005, 0.003))
                x, y = [
                    (R + gap, along * table.width),
                    (table.length - R - gap, along * table.width),
                    (along * table.length, R + gap),
                    (along * table.length, table.width - R - gap),
                ][side]
            else:
                x = rng.uniform(R + 0.01, table.length - R - 0.01)
                y = rng.uniform(R + 0.01, table.width - R - 0.01)
            if all(math.dist((x, y), s.position) >= 2 * R + 1e-4 for s in placed.values()):
                placed[ball_id] = BallState((x, y))
                break
    return placed


def random_strike(rng: random.Random, layout: dict[str, BallState], table: TableSpec) -> Strike:
    """A strike of white1 aimed at another ball with a random cut, speed, side and height."""
    R = table.ball_radius
    cue = layout["white1"].position
    target = layout[rng.choice(("white2", "red1", "red2", "kaisa"))].position
    dx, dy = target[0] - cue[0], target[1] - cue[1]
    dist = math.hypot(dx, dy)
    cut = rng.uniform(-0.9, 0.9)  # fraction of a full ball off centre
    angle = math.atan2(dy, dx) + math.asin(max(-1.0, min(1.0, cut * 2 * R / dist)))
    speed = rng.choice((rng.uniform(0.6, 2.0), rng.uniform(1.5, 4.0), rng.uniform(3.0, 7.0)))
    r = 0.5 * math.sqrt(rng.random())
    phi = rng.uniform(0, 2 * math.pi)
    return Strike("white1", speed, angle, r * math.cos(phi), r * math.sin(phi))


def bench_cases(n: int, seed: int, table: TableSpec) -> Iterator[tuple[dict[str, BallState], Strike]]:
    rng = random.Random(seed)
    for _ in range(n):
        layout = random_layout(rng, table)
        yield layout, random_strike(rng, layout, table)


class Writer(Protocol):
    """Where the report goes: a text stream, or anything with its `write` (Django's command output)."""

    def write(self, text: str, /) -> object: ...


def run(n: int = DEFAULT_SHOTS, seed: int = DEFAULT_SEED, out: Writer = sys.stdout) -> dict[str, float]:
    """Run the benchmark and print a table; returns the figures."""
    table = kaisa_table()
    cases = list(bench_cases(n, seed, table))
    simulate(table, *cases[0])  # warm-up
    times: list[float] = []
    cpu: list[float] = []
    events: list[int] = []
    sizes: list[int] = []
    durations: list[float] = []
    pocketed = 0
    clock = time.perf_counter
    cpu_clock = time.thread_time
    for layout, strike in cases:
        cpu_start = cpu_clock()
        start = clock()
        shot = simulate(table, layout, strike)
        segments = shot.segments
        times.append((clock() - start) * 1000.0)
        cpu.append((cpu_clock() - cpu_start) * 1000.0)
        events.append(len(shot.events))
        sizes.append(len(json.dumps(segments, separators=(",", ":"))))
        durations.append(shot.duration)
        pocketed += len(shot.pocketed)
    times.sort()

    def pct(values: list[float], q: float) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    figures = {
        "shots": float(n),
        "median_ms": statistics.median(times),
        "p95_ms": pct(times, 0.95),
        "max_ms": times[-1],
        "cpu_median_ms": statistics.median(cpu),
        "cpu_p95_ms": pct(cpu, 0.95),
        "cpu_max_ms": max(cpu),
        "events_median": statistics.median(events),
        "events_p95": pct([float(e) for e in events], 0.95),
        "events_max": float(max(events)),
        "json_median_bytes": statistics.median(sizes),
        "json_p95_bytes": pct([float(s) for s in sizes], 0.95),
        "json_max_bytes": float(max(sizes)),
        "duration_median_s": statistics.median(durations),
        "pocketed_total": float(pocketed),
    }
    lines = [
        f"kaiza physics benchmark ({ENGINE_VERSION}): {n} shots, seed {seed}",
        f"{'':16}{'median':>10}{'p95':>10}{'max':>10}",
        f"{'ms per shot':16}{figures['median_ms']:10.2f}{figures['p95_ms']:10.2f}{figures['max_ms']:10.2f}",
        f"{'cpu ms per shot':16}{figures['cpu_median_ms']:10.2f}{figures['cpu_p95_ms']:10.2f}"
        f"{figures['cpu_max_ms']:10.2f}",
        f"{'events per shot':16}{figures['events_median']:10.0f}{figures['events_p95']:10.0f}"
        f"{figures['events_max']:10.0f}",
        f"{'segments JSON B':16}{figures['json_median_bytes']:10.0f}{figures['json_p95_bytes']:10.0f}"
        f"{figures['json_max_bytes']:10.0f}",
        f"median simulated duration {figures['duration_median_s']:.2f} s, balls pocketed {pocketed}",
    ]
    for line in lines:
        out.write(line + "\n")
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shots", type=int, default=DEFAULT_SHOTS)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = parser.parse_args(argv)
    run(args.shots, args.seed)


if __name__ == "__main__":
    main()
