"""How much the `constraints` in every `state` cost the server: ``Match.constraints`` for both players,
timed on typical positions (the opening from hand, play with the cue ball on the table, ball in hand in
the home, the shoot-out), and the JSON size they add to each state.

The server computes them once per state change (``game.matches.selectors.match_state.state_of``), so this is the
price of one change. Pure engine, no Django:

    .venv/bin/python bench/scripts/bench_constraints.py [--repeat 30]

Prints per position: median and max milliseconds for both players, and the bytes of JSON added.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from game.engine.rules import Match  # noqa: E402

PLAYERS = [{"name": "alice", "cue_ball": "white1", "score": 12}, {"name": "bob", "cue_ball": "white2", "score": 7}]
SPOTTED = {"red1": [0.71, 0.71], "red2": [2.13, 0.71], "kaisa": [1.42, 0.71]}


def positions() -> dict[str, dict[str, Any]]:
    """Hand-written positions (ARCHITECTURE section 3), one per kind of state a player meets."""
    return {
        "opening break, white1 in hand": {
            "phase": "play",
            "players": PLAYERS,
            "turn": 0,
            "balls": {**SPOTTED, "white1": None, "white2": [1.6, 1.25]},
            "visit": {"opening": True, "from_hand": True},
        },
        "play, cue ball on the table": {
            "phase": "play",
            "players": PLAYERS,
            "turn": 0,
            "balls": {**SPOTTED, "white1": [0.5, 0.4], "white2": [2.5, 1.1]},
        },
        "ball in hand, red in the home": {
            "phase": "play",
            "players": PLAYERS,
            "turn": 1,
            "balls": {**SPOTTED, "red1": [0.4, 0.3], "white1": [1.9, 0.3], "white2": None},
        },
        "ball in hand, placed": {
            "phase": "play",
            "players": PLAYERS,
            "turn": 1,
            "balls": {**SPOTTED, "red1": [0.4, 0.3], "white1": [1.9, 0.3], "white2": [0.3, 1.0]},
            "visit": {"from_hand": True},
        },
        "shoot-out, in hand": {
            "phase": "shootout",
            "players": PLAYERS,
            "turn": 0,
            "balls": {"kaisa": [1.42, 0.71], "white1": None, "white2": [2.4, 0.5], "red1": None, "red2": None},
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    print(f"{'position':34} {'median ms':>10} {'max ms':>8} {'bytes':>7}")
    for label, position in positions().items():
        match = Match.from_snapshot(position)
        names = [p["name"] for p in position["players"]]
        times = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            out = {name: match.constraints(name) for name in names}
            times.append((time.perf_counter() - started) * 1000)
        size = len(json.dumps(out, separators=(",", ":")))
        print(f"{label:34} {statistics.median(times):10.2f} {max(times):8.2f} {size:7d}")


if __name__ == "__main__":
    main()
