"""A real game's summary read from the scorer's state alone: each visit's run as the engine counts it
(K-6.1: a visit lasts while the shooter scores; a foul's penalty, K-8.1, counts against it), points per
visit without the start score, and the whites in hand after a cue-ball foul (K-7.1)."""

from __future__ import annotations

from typing import Any

from game.realgames.summary import game_summary, whites_in_hand


def shot(player: int, points: int = 0, *, penalty: int = 0, passes: bool = False, **more: Any) -> dict[str, Any]:
    verdict = {"player": player, "points": points, "penalty": penalty, "turn_passes": passes, "wins": False, **more}
    return {"tap": {}, "verdict": {"code": "scored", **verdict}}


STATE = {
    "players": [
        {"name": "Aino", "score": 55, "handicap": 5, "visits": 3, "fouls": 1},
        {"name": "Bertta", "score": 3, "handicap": 0, "visits": 2, "fouls": 0},
    ],
    "turn": 1,
    "winner": None,
    "shots": [
        shot(0, 17),
        shot(0, 15),
        shot(0, penalty=2, passes=True, foul="cue_ball_pocketed"),  # 32 made, 2 lost: a run of 30
        shot(1, 3),
        shot(1, passes=True),
        shot(0, 12),
        shot(0, 9, passes=True),
        shot(1, passes=True),
    ],
}


def test_runs_are_each_visits_points_less_its_penalty() -> None:
    summary = game_summary(STATE)
    assert summary is not None
    aino, bertta = summary.players
    assert (aino.highest_run, aino.second_run, aino.points, aino.points_per_visit) == (30, 21, 50, 16.67)
    assert (bertta.runs, bertta.second_run) == ((3,), None)  # a visit of 0 is no run


def test_the_white_of_a_cue_ball_foul_is_in_hand_until_its_owners_next_shot() -> None:
    fouled = {**STATE, "shots": STATE["shots"][:3]}
    assert whites_in_hand(fouled) == {"white1"}
    assert whites_in_hand(STATE) == frozenset()  # Aino shot again: placed and played


def test_a_state_without_two_players_has_no_summary() -> None:
    assert game_summary({}) is None
    assert game_summary({"players": [{"name": "A"}]}) is None
