"""A puzzle from a hand-made position where a pot is certain (tests/practice/test_practice.py's POT): the white
behind the red by the bottom right pocket, so the engine's best shot is a sure 3-point red and the played
shot (straight along the table) misses. The analysis is the real one, with its default 24 samples (with 8,
a lucky kaisa into a middle pocket is valued above the red)."""

from __future__ import annotations

from typing import Any

import pytest

from game.engine.analysis import analyse_shot

POSITION: dict[str, Any] = {
    "phase": "play",
    "players": [
        {"name": "Alice", "cue_ball": "white1", "score": 12},
        {"name": "Bob", "cue_ball": "white2", "score": 20},
    ],
    "turn": 0,
    "balls": {
        "white1": [2.4261, 0.3415],
        "white2": [1.0, 1.1],
        "red1": [2.72, 0.12],
        "red2": [0.71, 0.71],
        "kaisa": [1.42, 0.71],
    },
}
CALL = {"ball": "red1", "pocket": "foot_right"}
#: What was played: straight along the table, past the red.
PLAYED = {"snapshot": POSITION, "player": "Alice", "call": CALL, "strike": {"angle": 0.0, "speed": 1.5}}


@pytest.fixture(scope="session")
def analysed() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The shots and the report (``MatchAnalysis.as_dict()``'s ``shots``) of the one-shot match."""
    analysis = analyse_shot(POSITION, PLAYED)
    return [PLAYED], {"shots": [analysis.as_dict()]}
