"""Which analysed positions become puzzles (game/engine/analysis/puzzles.py, pure)."""

from __future__ import annotations

import copy
from typing import Any

from game.engine.analysis.puzzles import (
    OTHER,
    SOLVER,
    exact_verdict,
    puzzle_candidates,
    puzzle_position,
    solves,
    themes_of,
)
from tests.puzzles.conftest import CALL, POSITION

Analysed = tuple[list[dict[str, Any]], dict[str, Any]]


def test_a_robust_best_shot_worth_more_than_the_played_one_makes_a_puzzle(analysed: Analysed) -> None:
    shots, report = analysed
    best = report["shots"][0]["best"]
    assert best["success"] >= 0.6 and best["expected_points"] - report["shots"][0]["played"]["expected_points"] >= 2
    (candidate,) = puzzle_candidates(shots, report["shots"])
    assert candidate.target == 3  # a red with no carom (K-5.3)
    assert candidate.call["ball"] == "red1" and candidate.strike == best["strike"]
    assert candidate.themes == ()
    # The position keeps the balls, names the solver as the free table does, and drops the scores.
    assert [p["name"] for p in candidate.snapshot["players"]] == [SOLVER, OTHER]
    assert [p["score"] for p in candidate.snapshot["players"]] == [0, 0]
    assert candidate.snapshot["balls"] == POSITION["balls"]
    # Deterministic: the same input, the same candidates.
    assert puzzle_candidates(shots, report["shots"]) == [candidate]


def test_no_puzzle_when_the_best_is_not_robust_or_not_clearly_better(analysed: Analysed) -> None:
    shots, report = analysed
    shaky = copy.deepcopy(report["shots"])
    shaky[0]["best"]["success"] = 0.5
    assert puzzle_candidates(shots, shaky) == []
    close = copy.deepcopy(report["shots"])
    close[0]["played"]["expected_points"] = close[0]["best"]["expected_points"] - 1.5
    assert puzzle_candidates(shots, close) == []
    assert puzzle_candidates(shots, report["shots"], min_gain=3.5) == []
    played_best = copy.deepcopy(report["shots"])
    played_best[0]["best_is_played"] = True
    assert puzzle_candidates(shots, played_best) == []


def test_a_best_strike_that_misses_when_played_exactly_is_no_puzzle(analysed: Analysed) -> None:
    shots, report = analysed
    wrong = copy.deepcopy(report["shots"])
    wrong[0]["best"]["strike"] = {"angle": 0.0, "speed": 1.5, "side": 0.0, "height": 0.0}
    assert puzzle_candidates(shots, wrong) == []


def test_only_the_shooter_in_the_play_phase_makes_a_puzzle() -> None:
    assert puzzle_position(POSITION, "Bob") is None
    assert puzzle_position({**POSITION, "phase": "shootout"}, "Alice") is None
    assert puzzle_position(POSITION, "Alice") is not None


def test_themes_come_from_the_verdict() -> None:
    verdict = {
        "call": {"ball": "kaisa", "pocket": "middle_left", "object_cushions": 1, "cue_cushions": 0, "via": "red1"},
        "caroms": ["red2"],
    }
    assert themes_of(verdict, {"visit": {"from_hand": True}}) == ("bank", "carom", "kaisa", "two_balls", "from_hand")
    plain = {"call": {"ball": "red1", "pocket": "foot_left", "object_cushions": 0, "via": None}, "caroms": []}
    assert themes_of(plain, {"visit": {"from_hand": False}}) == ()


def test_a_verdict_solves_only_at_the_target_or_more() -> None:
    position = puzzle_position(POSITION, "Alice")
    assert position is not None
    miss = exact_verdict(position, CALL, {"angle": 0.0, "speed": 1.5})
    assert not solves(miss, 3)
    assert solves({"scored": True, "points": 3, "penalty": 0, "foul": None}, 3)
    assert not solves({"scored": True, "points": 2, "penalty": 0, "foul": None}, 3)
    assert not solves({"scored": False, "points": 0, "penalty": 3, "foul": "cue_ball_pocketed"}, 3)
