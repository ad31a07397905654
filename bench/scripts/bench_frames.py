"""Frame-time benchmark of the match page: Chromium animates real engine shots, the page's
requestAnimationFrame deltas are recorded while the balls roll.

Prints, per viewport: frames, p50 / p95 / max frame interval (ms), dropped frames (intervals longer
than 1.5 vsyncs), long animation frames (> 50 ms), and the JSON size of the shot messages played.
It needs no server: tests/e2e/harness.py serves the page and answers the socket with the engine.

    .venv/bin/python bench/scripts/bench_frames.py [--shots 3] [--speed 7.5]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

RECORDER = """() => {
  const root = document.querySelector('#kaiza-match');
  const rec = { deltas: [], long: 0, last: null, on: false };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (rec.on && e.duration > 50) rec.long += 1;
  }).observe({ type: 'long-animation-frame', buffered: false });
  function frame(t) {
    const moving = root.dataset.animating === 'yes';
    if (moving && rec.last !== null) rec.deltas.push(t - rec.last);
    rec.on = moving;
    rec.last = moving ? t : null;
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);
  return new Promise((resolve) => { root.__bench = rec; resolve(true); });
}"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return math.nan
    k = (len(ordered) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=int, default=3, help="hard opening-style shots per viewport")
    parser.add_argument("--speed", type=float, default=7.5, help="cue speed of the shots (m/s)")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    from tests.e2e.harness import EngineMatch, chromium_launch, open_page, wait_idle

    viewports = [
        ("desktop 1400x860 @1x", {"width": 1400, "height": 860}, 1),
        ("laptop 1440x900 @2x", {"width": 1440, "height": 900}, 2),
        ("phone landscape 844x390 @3x", {"width": 844, "height": 390}, 3),
        ("phone portrait 390x844 @3x", {"width": 390, "height": 844}, 3),
    ]
    rows = []
    sizes: list[int] = []
    with sync_playwright() as pw:
        browser = chromium_launch(pw)
        for label, viewport, scale in viewports:
            match = EngineMatch()
            m = match.match
            m.lag("alice", {"angle": 0.0, "speed": 2.2, "side": 0, "height": 0})
            m.lag("bob", {"angle": 0.0, "speed": 2.6, "side": 0, "height": 0})
            breaker = m.pending()[0][0]
            m.choose_break(breaker, True)
            m.place(m.pending()[0][0], "white2", (2.6, 0.71))
            page = open_page(
                browser, match, "carol", "spectator", viewport=viewport, device_scale_factor=scale, animation_rate=1
            )
            page.evaluate(RECORDER)
            deltas: list[float] = []
            long_frames = 0
            for i in range(args.shots):
                player, action = match.match.pending()[0]
                if action == "place":
                    ball = match.match.cue_ball_of(player)
                    for y in (0.3, 0.5, 1.0, 1.2, 0.71):
                        try:
                            match.play(player, "place", {"ball": ball, "x": 0.4, "y": y}, None)
                            break
                        except Exception:
                            continue
                    player, action = match.match.pending()[0]
                cue_ball = match.match.cue_ball_of(player)
                assert cue_ball is not None, player
                cue = match.match.balls[cue_ball]
                target = match.match.balls["kaisa"] or match.match.balls["red2"]
                assert cue is not None and target is not None, "both on the table after a placement"
                angle = math.atan2(target[1] - cue[1], target[0] - cue[0]) + 0.02 * (i % 3 - 1)
                call = {"ball": "kaisa", "pocket": "foot_left"}
                try:
                    match.play(
                        player,
                        "shoot",
                        {"call": call, "strike": {"angle": angle, "speed": args.speed, "side": 0.0, "height": 0.2}},
                        None,
                    )
                except Exception:
                    call = {"ball": "red2", "pocket": "foot_right"}
                    match.play(
                        player,
                        "shoot",
                        {"call": call, "strike": {"angle": angle, "speed": args.speed, "side": 0.0, "height": 0.2}},
                        None,
                    )
                page.wait_for_function(
                    "() => document.querySelector('#kaiza-match').dataset.animating === 'yes'", timeout=10000
                )
                wait_idle(page, timeout=60)
                rec = page.evaluate(
                    "() => { const r = document.querySelector('#kaiza-match').__bench;"
                    " const out = {deltas: r.deltas.slice(), long: r.long};"
                    " r.deltas.length = 0; r.long = 0; return out; }"
                )
                deltas.extend(rec["deltas"])
                long_frames += rec["long"]
            sizes.extend(match.shot_sizes)
            vsync = statistics.median(deltas) if deltas else math.nan
            dropped = sum(1 for d in deltas if d > 1.5 * 1000 / 60)
            rows.append(
                (
                    label,
                    len(deltas),
                    percentile(deltas, 0.5),
                    percentile(deltas, 0.95),
                    max(deltas) if deltas else math.nan,
                    dropped,
                    long_frames,
                    vsync,
                )
            )
            page.context.close()
        browser.close()

    print(f"{'viewport':32} {'frames':>7} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7} {'dropped':>8} {'long':>5}")
    for label, n, p50, p95, mx, dropped, long_frames, _ in rows:
        print(f"{label:32} {n:7d} {p50:7.1f} {p95:7.1f} {mx:7.1f} {dropped:8d} {long_frames:5d}")
    if sizes:
        print(
            f"\nshot messages: {len(sizes)}, JSON bytes median {int(statistics.median(sizes))}, "
            f"min {min(sizes)}, max {max(sizes)}"
        )
    print(
        json.dumps(
            {
                "rows": [
                    dict(
                        zip(
                            ("viewport", "frames", "p50_ms", "p95_ms", "max_ms", "dropped", "long_frames"),
                            r[:7],
                            strict=True,
                        )
                    )
                    for r in rows
                ],
                "shot_bytes": sizes,
            }
        )
    )


if __name__ == "__main__":
    main()
