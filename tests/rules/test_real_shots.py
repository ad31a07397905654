"""Real simulated shots through every phase (ARCHITECTURE section 3): the rules on the physics' events.

Aiming uses the ghost-ball point toward the pocket's mouth; since the pockets are tight (the jaws
decide), a helper tries a few cue-ball spots and speeds on copies of the match and keeps the first that
pots, so the tests do not hang on one physics constant.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any

from game.engine.rules import Match, table_for
from tests.rules.helpers import dump

T = table_for(0.068)
R = T.ball_radius
HOME_SPOTS = [(0.4, 0.3), (0.5, 0.5), (0.4, 1.1), (0.6, 0.9), (0.3, 0.7), (0.55, 0.25), (0.2, 0.4)]
SPEEDS = [2.0, 1.5, 2.5, 3.0]


def aim(cue: tuple[float, float], obj: tuple[float, float], pocket: str) -> float:
    (ax, ay), (bx, by) = T.pockets[pocket].mouth
    px, py = (ax + bx) / 2, (ay + by) / 2
    dx, dy = px - obj[0], py - obj[1]
    n = math.hypot(dx, dy)
    gx, gy = obj[0] - 2 * R * dx / n, obj[1] - 2 * R * dy / n
    return math.atan2(gy - cue[1], gx - cue[0])


def find_pot(m: Match, ball: str, pockets: Iterable[str], *, place: bool) -> dict[str, Any]:
    """Inputs (place, call, strike) that pot ``ball`` for the current player; asserts one exists."""
    player = m.current_player
    cue = m.cue_ball_of(player)
    assert cue is not None
    starts = HOME_SPOTS if place else [m.balls[cue]]
    for pocket in pockets:
        for start in starts:
            for speed in SPEEDS:
                trial = Match.from_snapshot(m.snapshot())
                try:
                    if place:
                        trial.place(player, cue, start)
                    target = trial.balls[ball]
                    assert target is not None and start is not None
                    strike = {"angle": aim(start, target, pocket), "speed": speed, "side": 0.0, "height": 0.0}
                    out = trial.shoot(player, {"ball": ball, "pocket": pocket}, strike)
                except Exception:
                    continue
                if out.verdict["scored"]:
                    return {"start": start, "call": {"ball": ball, "pocket": pocket}, "strike": strike}
    raise AssertionError(f"no pot of {ball} found")


def play_found(m: Match, found: dict[str, Any], *, place: bool) -> dict[str, Any]:
    player = m.current_player
    if place:
        m.place(player, m.cue_ball_of(player) or "", found["start"])
    return m.shoot(player, found["call"], found["strike"]).verdict


def lag_until_decided(m: Match) -> list[tuple[str, dict[str, float]]]:
    """Both players lag (alice softer than bob) until someone wins; returns the inputs."""
    inputs = []
    for speed_a, speed_b in ((1.5, 2.0), (2.0, 1.5), (1.5, 2.5)):
        for player, speed in (("alice", speed_a), ("bob", speed_b)):
            strike = {"angle": 0.0, "speed": speed}
            m.lag(player, strike)
            inputs.append((player, strike))
        if m.phase != "lag" and not (m.phase == "shootout" and m.snapshot()["shootout"]["stage"] == "lag"):
            return inputs
    raise AssertionError("the lag never decided")


def test_k3_real_lag_break_placement_and_opening_shot() -> None:
    """K-3.1 to K-3.4 and K-5.3 on real shots: lag, choice, placement, the break potting the kaisa."""
    m = Match.new(("alice", "bob"))
    out = m.lag("alice", {"angle": 0.0, "speed": 1.5})
    assert out.shot is not None and out.verdict["rules"] == ["K-3.1"]
    assert any(e.kind == "ball_cushion" and e.where == "foot" for e in out.shot.events)
    m.lag("bob", {"angle": 0.0, "speed": 2.0})
    assert m.phase == "choose_break"
    winner = m.pending()[0][0]
    m.choose_break(winner, True)
    other = m.pending()[0][0]
    assert m.cue_ball_of(winner) == "white1" and other != winner
    m.place(other, "white2", (2.0, 0.3))
    assert m.phase == "play" and m.pending() == [(winner, "place")]
    found = find_pot(m, "kaisa", ("foot_left", "foot_right"), place=True)
    verdict = play_found(m, found, place=True)
    assert verdict["scored"] and verdict["points"] >= 6 and "K-4.2" in verdict["rules"]
    assert m.scores[winner] == verdict["points"] and m.current_player == winner
    assert m.balls["kaisa"] is not None  # respotted (K-7.3)


def test_k3_1_real_lag_touching_a_long_cushion_loses() -> None:
    m = Match.new(("alice", "bob"))
    out = m.lag("alice", {"angle": -0.4, "speed": 2.0})
    assert out.verdict["lag"]["lost"] and "long cushion" in out.verdict["lag"]["reason"]


def test_k6_real_play_miss_passes_the_turn_and_replay_from_hand() -> None:
    """K-6.1 on a real miss; K-7.2 a cue ball from hand that stays in the home is replayed."""
    m = Match.from_snapshot(
        {
            "phase": "play",
            "turn": 0,
            "players": [
                {"name": "alice", "cue_ball": "white1", "score": 10},
                {"name": "bob", "cue_ball": "white2", "score": 12},
            ],
            "balls": {
                "white1": None,
                "white2": [2.3, 0.3],
                "red1": [1.0, 1.0],
                "red2": [2.13, 0.71],
                "kaisa": [1.42, 0.71],
            },
        }
    )
    m.place("alice", "white1", (0.4, 0.3))
    out = m.shoot("alice", {"ball": "kaisa", "pocket": "foot_left"}, {"angle": math.pi, "speed": 0.3})
    assert out.verdict["replay"] and m.current_player == "alice" and m.balls["white1"] == (0.4, 0.3)
    out = m.shoot("alice", {"ball": "kaisa", "pocket": "foot_left"}, {"angle": 0.0, "speed": 2.0})
    assert out.verdict["turn_passes"] and not out.verdict["scored"] and m.current_player == "bob"
    assert out.verdict["first_hit"] == "white2" and "white •• first" in out.verdict["reason"]  # words, not ids


def test_k9_real_winning_shot_finishes() -> None:
    m = Match.from_snapshot(
        {
            "phase": "play",
            "turn": 0,
            "players": [
                {"name": "alice", "cue_ball": "white1", "score": 57},
                {"name": "bob", "cue_ball": "white2", "score": 12},
            ],
            "balls": {
                "white1": None,
                "white2": [2.5, 1.2],
                "red1": [1.0, 1.2],
                "red2": [2.13, 0.2],
                "kaisa": [1.42, 0.71],
            },
        }
    )
    found = find_pot(m, "kaisa", ("foot_left", "foot_right"), place=True)
    verdict = play_found(m, found, place=True)
    assert verdict["wins"] and m.phase == "finished" and m.winner == "alice"


def test_k11_real_extra_visits_then_shootout_lag_and_pot() -> None:
    """K-11.1/K-11.2/K-11.3 on real shots: the last extra visit is white2's, then the shoot-out lag on the
    kaisa-only layout, the choice, and a real kaisa pot from hand."""
    m = Match.from_snapshot(
        {
            "phase": "extra_visits",
            "turn": 1,
            "extra_visits": ["white2"],
            "players": [
                {"name": "alice", "cue_ball": "white1", "score": 40},
                {"name": "bob", "cue_ball": "white2", "score": 40},
            ],
            "balls": {
                "white1": [0.5, 0.3],
                "white2": [0.5, 1.1],
                "red1": [1.0, 1.2],
                "red2": [2.13, 0.71],
                "kaisa": [1.42, 0.71],
            },
        }
    )
    out = m.shoot("bob", {"ball": "red2", "pocket": "foot_left"}, {"angle": -math.pi / 2 - 0.2, "speed": 0.8})
    assert out.shot is not None and not out.verdict["scored"]
    assert m.phase == "shootout" and m.pending() == [("alice", "lag"), ("bob", "lag")]
    lag_until_decided(m)
    chooser = m.pending()[0]
    assert chooser[1] == "choose_break"
    m.choose_break(chooser[0], True)
    assert m.cue_ball_of(chooser[0]) == "white1" and m.current_player == chooser[0]
    found = find_pot(m, "kaisa", ("foot_left", "foot_right", "home_left", "home_right"), place=True)
    verdict = play_found(m, found, place=True)
    assert verdict["points"] == 6 and "K-11.3" in verdict["rules"]
    assert m.scores[chooser[0]] == 46 and m.balls["kaisa"] == (1.42, 0.71)
    assert m.pending() == [(chooser[0], "place")]


def test_replay_reproduces_the_final_snapshot_byte_for_byte() -> None:
    """A match replayed from its first snapshot through its recorded inputs gives the same bytes."""
    m = Match.new(("alice", "bob"), time_limit=3900, now=0.0)
    first = m.snapshot()
    log: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    def do(method: str, *args: Any, now: float) -> Any:
        log.append((method, args, {"now": now}))
        return getattr(m, method)(*args, now=now)

    clock = 1.0
    for player, strike in lag_until_decided(Match.from_snapshot(first)):
        do("lag", player, strike, now=clock)
        clock += 5
    winner = m.pending()[0][0]
    do("choose_break", winner, False, now=clock)
    placer = m.pending()[0][0]
    do("place", placer, "white2", (2.0, 0.3), now=clock)
    angles = [0.05, 0.3, -0.2, 0.6, 0.1, -0.5, 0.9, 0.0]
    for i, angle in enumerate(angles):
        player, action = m.pending()[0]
        if action == "place":
            do("place", player, m.cue_ball_of(player), (0.4, 0.3 + 0.1 * (i % 5)), now=clock)
        call = {"ball": "kaisa", "pocket": "foot_left"}
        if m.snapshot()["visit"]["from_hand"] or m.snapshot()["visit"]["opening"]:
            call = {"ball": "kaisa", "pocket": "foot_left"}
        do("shoot", player, call, {"angle": angle, "speed": 2.0 + 0.2 * i, "side": 0.1, "height": 0.1}, now=clock)
        clock += 30
    final = dump(m)
    again = Match.from_snapshot(json.loads(json.dumps(first)))
    for method, args, kw in log:
        getattr(again, method)(*args, **kw)
    assert dump(again) == final
    assert Match.from_snapshot(m.snapshot()).snapshot() == m.snapshot()
