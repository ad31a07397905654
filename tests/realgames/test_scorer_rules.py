"""The scorer's points come from the engine's rules: every row of K-5.3's table, the kiss and bank
rows (K-5.4, K-5.5), the K-8 fouls, the K-6.2 nothing-scores cases, K-6.4, K-9.1 and K-9.2, each
entered as a scorer taps it (the wire's tap dicts) and priced by game/engine/rules/real_table.py."""

from __future__ import annotations

from typing import Any

import pytest

from game.engine.rules.errors import RuleError
from game.engine.rules.real_table import (
    FINISHED,
    RealState,
    apply_real_shot,
    new_real_state,
    parse_real_shot,
    undo,
    verdict_words,
)
from game.engine.rules.ruleset import Ruleset

RULES = Ruleset()


def pot(ball: str, *caroms: str, pocket: str = "foot_left", **extra: Any) -> dict[str, Any]:
    return {"kind": "pot", "ball": ball, "pocket": pocket, "caroms": list(caroms), **extra}


def tapped(state: RealState, tap: dict[str, Any], ruleset: Ruleset = RULES) -> tuple[RealState, Any]:
    return apply_real_shot(state, parse_real_shot(tap), ruleset)


#: K-5.3's inherited table, as the scorer taps each row: (called ball, caroms) -> points.
TABLE_ROWS: list[tuple[str, tuple[str, ...], int]] = [
    ("white", (), 2),
    ("white", ("red",), 4),
    ("white", ("red", "red"), 7),
    ("white", ("kaisa",), 7),
    ("red", (), 3),
    ("red", ("white",), 5),
    ("red", ("red",), 6),
    ("red", ("kaisa",), 9),
    ("red", ("kaisa", "white"), 11),
    ("red", ("kaisa", "red"), 12),
    ("red", ("kaisa", "white", "red"), 14),
    ("kaisa", (), 6),
    ("kaisa", ("white",), 11),
    ("kaisa", ("red",), 12),
    ("kaisa", ("white", "red"), 14),
    ("kaisa", ("red", "red"), 15),
    ("kaisa", ("white", "red", "red"), 17),
]


@pytest.mark.parametrize(("ball", "caroms", "points"), TABLE_ROWS)
def test_scorer_points_come_from_the_rules(ball: str, caroms: tuple[str, ...], points: int) -> None:
    """K-5.3: each row of the table, through the scorer's tap; the shooter goes on (K-6.1)."""
    state, verdict = tapped(new_real_state(("Aino", "Bertta")), pot(ball, *caroms))
    assert verdict.points == points and verdict.penalty == 0
    assert "K-5.3" in verdict.rules and "K-6.1" in verdict.rules
    assert state.players[0].score == points and state.players[0].run == points
    assert state.turn == 0
    assert verdict_words(verdict.as_dict(), "fi") and verdict_words(verdict.as_dict(), "ru")


def test_scorer_points_come_from_the_rules_flags_move_them() -> None:
    """K-5.3 flag: a club with plain addition (`kaisa_carom_base` 6) gets kaisa+white 8, not 11: the
    scorer reads the ruleset, it holds no table of its own."""
    plain = Ruleset(kaisa_carom_base=6)
    _state, verdict = tapped(new_real_state(("Aino", "Bertta")), pot("kaisa", "white"), plain)
    assert verdict.points == 8


def test_scorer_kiss_combination_and_bank() -> None:
    """K-5.4: a kiss or combination scores the ball's value alone; K-5.5: the kaisa off a cushion 6
    (12 with the `kaisa_bank_bonus` flag 6)."""
    start = new_real_state(("Aino", "Bertta"))
    _s, kiss = tapped(start, pot("red", way="kiss", via="kaisa"))
    assert (kiss.points, "K-5.4" in kiss.rules) == (3, True)
    _s, combo = tapped(start, pot("kaisa", way="combination", via="red"))
    assert (combo.points, "K-5.5" in combo.rules) == (6, True)
    _s, bank = tapped(start, pot("kaisa", way="bank", cushions=2))
    assert (bank.points, "K-5.5" in bank.rules) == (6, True)
    _s, bonus = tapped(start, pot("kaisa", way="bank", cushions=1), Ruleset(kaisa_bank_bonus=6))
    assert bonus.points == 12
    with pytest.raises(RuleError):
        parse_real_shot(pot("red", "white", way="kiss", via="kaisa"))  # K-5.4: never both


@pytest.mark.parametrize(("first_hit", "penalty"), [(None, 2), ("white", 2), ("red", 3), ("kaisa", 6)])
@pytest.mark.parametrize("foul", ["cue_ball_pocketed", "cue_ball_off_table"])
def test_scorer_fouls_cost_the_first_ball_hit(foul: str, first_hit: str | None, penalty: int) -> None:
    """K-8.1: own cue ball pocketed or off the table: minus the first ball hit's value (2 if none),
    the score may go negative, the visit ends (K-8.3: nothing scores)."""
    state, verdict = tapped(new_real_state(("Aino", "Bertta")), {"kind": "foul", "foul": foul, "first_hit": first_hit})
    assert (verdict.points, verdict.penalty) == (0, penalty)
    assert "K-8.1" in verdict.rules
    assert state.players[0].score == -penalty and state.players[0].fouls == 1
    assert state.turn == 1 and state.players[1].visits == 1


def test_scorer_wrong_cue_ball_and_touch() -> None:
    """K-6.6: the other white played: no points, the visit ends; K-8.2: a touch ends the visit, minus
    the `touch_penalty` flag."""
    state, played = tapped(new_real_state(("Aino", "Bertta")), {"kind": "foul", "foul": "wrong_cue_ball"})
    assert (played.points, played.rules, state.turn) == (0, ("K-6.6",), 1)
    state, touch = tapped(state, {"kind": "touch"}, Ruleset(touch_penalty=2))
    assert (touch.penalty, touch.rules, state.players[1].score, state.turn) == (2, ("K-8.2",), -2, 0)


@pytest.mark.parametrize(
    "fault",
    ["rolled_along_cushion", "object_jumped", "push_or_double_hit", "frozen_to_cushion", "kiss_off_frozen_ball"],
)
def test_scorer_nothing_scores_cases(fault: str) -> None:
    """K-6.2: the ball went in, but scores nothing; the visit ends, no penalty."""
    state, verdict = tapped(new_real_state(("Aino", "Bertta")), {"kind": "nothing", "fault": fault, "ball": "red"})
    assert (verdict.points, verdict.penalty, verdict.fault) == (0, 0, fault)
    assert verdict.rules == ("K-6.2",)
    assert state.players[0].score == 0 and state.turn == 1


def test_scorer_miss_ends_the_visit() -> None:
    """K-4.2/K-6.1: the called ball stayed up: nothing scores, the other player's visit."""
    state, verdict = tapped(new_real_state(("Aino", "Bertta")), {"kind": "miss", "ball": "red"})
    assert (verdict.points, state.turn, state.players[1].visits) == (0, 1, 1)
    assert "K-6.1" in verdict.rules


def test_scorer_middle_pocket_kaisa_twice_is_refused() -> None:
    """K-6.4: a second direct middle-pocket kaisa in one visit is refused, nothing changes; a bank
    is allowed; the next visit may pot it directly again."""
    state, _v = tapped(new_real_state(("Aino", "Bertta")), pot("kaisa", pocket="middle_left"))
    with pytest.raises(RuleError) as refused:
        tapped(state, pot("kaisa", pocket="middle_right"))
    assert refused.value.code == "middle_kaisa_twice" and "K-6.4" in refused.value.message
    state, bank = tapped(state, pot("kaisa", pocket="middle_right", way="bank", cushions=1))
    assert bank.points == 6
    state, _miss = tapped(state, {"kind": "miss", "ball": "red"})
    state, _v = tapped(state, pot("kaisa", pocket="middle_left"))
    assert state.players[1].score == 6


def test_scorer_target_and_plain_white() -> None:
    """K-9.1: the first at the target after a scored call wins at once; K-9.2: a plain white never
    wins, and from 59 it passes the turn."""
    state = new_real_state(("Aino", "Bertta"), handicaps=(55, 59))
    state, plain = tapped(state, {"kind": "miss", "ball": "red"})
    state, plain = tapped(state, pot("white"))
    assert (plain.points, plain.wins, "K-9.2" in plain.rules) == (2, False, True)
    assert state.players[1].score == 61 and state.turn == 0 and state.phase != FINISHED
    state, win = tapped(state, pot("red", "white"))
    assert win.wins and "K-9.1" in win.rules
    assert (state.phase, state.winner, state.finish) == (FINISHED, 0, "target_reached")
    with pytest.raises(RuleError):
        tapped(state, pot("red"))


def test_scorer_undo() -> None:
    """Undo takes back exactly the last tap: the state is the others replayed, whatever it was
    (a pot, a foul that passed the turn, the winning shot)."""
    start = new_real_state(("Aino", "Bertta"), handicaps=(50, 0))
    taps = [pot("red", "kaisa"), {"kind": "foul", "foul": "cue_ball_pocketed", "first_hit": "kaisa"}, pot("kaisa")]
    states = [start]
    for tap in taps:
        states.append(tapped(states[-1], tap)[0])
    for i in range(len(taps), 0, -1):
        assert undo(states[i], RULES).as_dict() == {**states[i - 1].as_dict()}
    with pytest.raises(RuleError):
        undo(start, RULES)


def test_scorer_clock_extra_visits_and_shootout() -> None:
    """K-11.1: time up mid-round: the round ends with white2's visit, then two extra visits each
    (white2's owner last), then K-11.2's shoot-out: its starter tapped, only kaisa pots into a corner
    score (K-11.3: +6, own cue ball -6), the higher after the visits wins (K-11.4)."""
    short = Ruleset(shootout_visits=1)
    state, _v = tapped(new_real_state(("Aino", "Bertta")), {"kind": "time_up"}, short)
    miss = {"kind": "miss", "ball": "red"}
    state, _v = tapped(state, miss, short)  # Aino's visit: the round goes on to Bertta
    assert state.phase == "play"
    state, _v = tapped(state, miss, short)  # Bertta's ends the round
    assert state.phase == "extra_visits" and state.extra_visits == (0, 1, 0, 1)
    for _ in range(4):
        state, _v = tapped(state, miss, short)
    assert state.phase == "shootout_lag"
    with pytest.raises(RuleError):
        tapped(state, pot("kaisa"), short)
    state, _v = tapped(state, {"kind": "shootout_starter", "starter": 1}, short)
    assert state.turn == 1
    with pytest.raises(RuleError):
        tapped(state, pot("red"), short)
    state, so_pot = tapped(state, pot("kaisa", pocket="home_left"), short)
    assert so_pot.points == 6 and "K-11.3" in so_pot.rules
    state, _v = tapped(state, miss, short)
    state, foul = tapped(state, {"kind": "foul", "foul": "cue_ball_pocketed", "first_hit": "kaisa"}, short)
    assert foul.penalty == 6
    assert (state.phase, state.winner, state.finish) == (FINISHED, 1, "shootout_higher")


def test_scorer_runs_per_visit() -> None:
    """A run is a visit's points (less its penalties): the scorer's runs for the score sheet."""
    from game.engine.rules.real_table import visit_runs

    state = new_real_state(("Aino", "Bertta"))
    for tap in (pot("red", "kaisa"), pot("kaisa"), {"kind": "miss", "ball": "red"}, pot("white"), {"kind": "touch"}):
        state, _v = tapped(state, tap)
    state, _v = tapped(state, pot("red"))
    state, _v = tapped(state, {"kind": "foul", "foul": "cue_ball_pocketed", "first_hit": "kaisa"})
    assert visit_runs(state) == ((15, -3), (2,))
