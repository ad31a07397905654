"""What one aim preview costs: the engine's (game/engine/physics/aim.py, what a server preview would cost
per aim message) and the browser's mirror (static/game/js/aim.js, what a page pays per drawn frame, run
under node's V8) on the same strikes: the practice position's cut at 19.00-19.20 degrees and seeded cut
shots. docs/decisions/aim-preview.md has the figures that chose the browser.

A benchmark, not a test: it prints microseconds a preview for each, with the host's speed.

    .venv/bin/python bench/scripts/bench_aim_preview.py [--count 2000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from game.engine.physics import Strike
from game.engine.physics.aim import aim_preview, table_for_client
from game.engine.table import kaisa_table

ROOT = Path(__file__).resolve().parents[2]
PRACTICE = {"white1": (0.80715, 0.219076), "red1": (0.71, 0.71), "red2": (2.13, 0.71), "kaisa": (1.42, 0.71)}

NODE_SCRIPT = """
const { aimPreview } = await import(process.argv[1]);
let text = "";
for await (const chunk of process.stdin) text += chunk;
const { table, cases, repeat } = JSON.parse(text);
for (const { balls, strike } of cases.slice(0, 200)) aimPreview(table, balls, strike);
let best = Infinity;
for (let r = 0; r < repeat; r++) {
  const t0 = performance.now();
  for (const { balls, strike } of cases) aimPreview(table, balls, strike);
  best = Math.min(best, performance.now() - t0);
}
console.log(((best * 1000) / cases.length).toFixed(1));
"""


def strikes(count: int) -> list[dict[str, Any]]:
    """The practice position's cut across the pocket, at 1-5 m/s, with and without spin."""
    out = []
    for k in range(count):
        degrees = 19.0 + 0.2 * (k % 41) / 40
        spin = (k % 7 - 3) * 0.1
        out.append(
            {
                "ball": "white1",
                "speed": 1.0 + 4.0 * (k % 13) / 12,
                "angle": math.radians(degrees),
                "side": spin,
                "height": -spin / 2,
            }
        )
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    table = kaisa_table()
    cases = strikes(args.count)
    best = math.inf
    for _ in range(args.repeat):
        started = time.perf_counter()
        for strike in cases:
            aim_preview(table, PRACTICE, Strike(**strike))
        best = min(best, time.perf_counter() - started)
    print(f"engine (CPython) aim_preview: {best / len(cases) * 1e6:.1f} us a preview, best of {args.repeat}")
    node = shutil.which("node")
    if node is None:
        print("node is not installed: the browser's figure was not measured")
    else:
        payload = {
            "table": table_for_client(table),
            "cases": [{"balls": PRACTICE, "strike": s} for s in cases],
            "repeat": args.repeat,
        }
        module = (ROOT / "static" / "game" / "js" / "aim.js").as_uri()
        done = subprocess.run(
            [node, "--input-type=module", "-e", NODE_SCRIPT, module],
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            check=True,
        )
        version = subprocess.run([node, "--version"], capture_output=True, text=True, check=True).stdout.strip()
        print(f"browser mirror (node {version}) aimPreview: {done.stdout.strip()} us a preview, best of {args.repeat}")
    speed = subprocess.run(
        [sys.executable, "-m", "timeit", "sum(i*i for i in range(10**6))"], capture_output=True, text=True, check=True
    )
    print(f'host: python -m timeit "sum(i*i for i in range(10**6))": {speed.stdout.strip()}')
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
