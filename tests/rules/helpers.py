"""Small builders for match tests: hand-written positions and scripted shots."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from game.engine.rules import Match, Simulator
from game.engine.rules.events import HandEvent
from tests.rules.fakes import make_shot

START = {"white1": [0.5, 0.4], "white2": [1.9, 0.3], "red1": [1.2, 0.5], "red2": [2.0, 1.0], "kaisa": [1.42, 0.71]}


def position(
    phase: str = "play",
    *,
    turn: int = 0,
    scores: tuple[int, int] = (0, 0),
    balls: Mapping[str, Any] | None = None,
    simulate: Simulator | None = None,
    **extra: Any,
) -> Match:
    """A hand-written position (ARCHITECTURE 3): alice has white1, bob white2; ``simulate`` a scripted
    simulator (tests/rules/fakes.py) or None for the real physics."""
    data = {
        "phase": phase,
        "players": [
            {"name": "alice", "cue_ball": "white1", "score": scores[0]},
            {"name": "bob", "cue_ball": "white2", "score": scores[1]},
        ],
        "turn": turn,
        "balls": dict(START if balls is None else balls),
    }
    data.update(extra)
    if simulate is None:
        return Match.from_snapshot(data)
    return Match.from_snapshot(data, simulate=simulate)


def dump(match: Match) -> str:
    return json.dumps(match.snapshot(), sort_keys=True)


def shot(
    events: Sequence[HandEvent], moves: Mapping[str, Any] | None = None, via: Mapping[str, Any] | None = None
) -> Any:
    """A scripted shot relative to whatever position the match hands the simulator."""

    def build(balls: Mapping[str, Any], cue: str) -> Any:
        return make_shot(
            {b: tuple(p) for b, p in balls.items()},
            cue,
            events,
            {b: tuple(p) for b, p in (moves or {}).items()},
            {b: [tuple(p) for p in ps] for b, ps in (via or {}).items()},
        )

    return build
