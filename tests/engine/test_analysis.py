"""The shot analysis: expected points under the stated stroke noise, the engine's best shot
against the played one, and the per-player figures of a match; deterministic in any process.

Samples are cut for speed (the figures' precision is not what is tested): what is tested is the
behaviour (best never below played, points lost never negative, zero noise is the engine, refusals).
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import pickle
import random
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from game.engine.analysis import (
    ACCURACY_MARGIN,
    ANGLE_SIGMA,
    SPEED_SIGMA,
    STROKE_NOISE,
    TIP_SIGMA,
    ZERO_NOISE,
    AnalysisError,
    PlayedShot,
    analyse_match,
    analyse_played,
    analyse_shot,
    best_shots,
    expected_points,
    played_shots,
    sample_match,
    summarise_match,
)
from game.engine.analysis.sample import sample_record
from game.engine.replay import record_shots
from game.engine.rules import Match
from game.engine.rules.strike import parse_strike
from game.engine.table import kaisa_table

ROOT = Path(__file__).resolve().parents[2]
TABLE = kaisa_table()
L, W = TABLE.length, TABLE.width
#: Few samples: the tests check behaviour, not the figures' precision.
SAMPLES = 8
#: A corner pot of red1 from 0.17 m, the cue ball 0.17 m straight behind it: it cannot miss.
CERTAIN_POT = {"call": {"ball": "red1", "pocket": "foot_left"}, "strike": {"angle": math.pi / 4, "speed": 1.2}}
#: The cue ball played away from red1 while calling it into the far corner: it cannot score.
HOPELESS = {"call": {"ball": "red1", "pocket": "home_right"}, "strike": {"angle": 5 * math.pi / 4, "speed": 1.0}}


def position(balls: dict[str, Any], *, phase: str = "play") -> dict[str, Any]:
    """A hand-written snapshot: "alice" (white1) to shoot, "bob" holds white2."""
    return {
        "phase": phase,
        "players": [
            {"name": "alice", "cue_ball": "white1", "score": 0},
            {"name": "bob", "cue_ball": "white2", "score": 0},
        ],
        "turn": 0,
        "balls": balls,
    }


def corner_position() -> dict[str, Any]:
    return position(
        {
            "white1": [L - 0.24, W - 0.24],
            "red1": [L - 0.12, W - 0.12],
            "white2": [0.4, 0.3],
            "red2": [0.5, 1.1],
            "kaisa": [L / 2, W / 2],
        }
    )


@pytest.fixture(scope="module")
def played_match() -> list[PlayedShot]:
    """The first 7 shots of the benchmark's bot match (deterministic: its searches have no deadline)."""
    return sample_match(shots=7)


def test_analysis_values_the_best_shot_at_least_as_high_as_the_played_one(played_match: list[PlayedShot]) -> None:
    """Over every shot of a bot-played match: the best is worth at least the played shot and at least the
    searched best, each value is the one expected_points gives for that call and strike on its own,
    and the points lost are the difference (never negative)."""
    assert len(played_match) == 7
    for shot in played_match:
        result = analyse_played(shot, samples=SAMPLES)
        own = expected_points(shot.snapshot, {"call": shot.call, "strike": shot.strike}, samples=SAMPLES)
        searched = best_shots(shot.snapshot, k=1, samples=SAMPLES)[0]
        assert result.played.expected_points == own.expected_points
        assert result.best.expected_points == max(searched.expected_points, own.expected_points)
        assert result.best.expected_points >= result.played.expected_points
        assert result.points_lost == result.best.expected_points - result.played.expected_points >= 0
        assert result.best_is_played == (own.expected_points >= searched.expected_points)
        if not result.best_is_played:
            again = expected_points(
                shot.snapshot, {"call": result.best.call, "strike": result.best.strike}, samples=SAMPLES
            )
            assert again.expected_points == result.best.expected_points


def test_a_certain_pot_is_worth_more_than_a_hopeless_shot() -> None:
    snapshot = corner_position()
    certain = expected_points(snapshot, CERTAIN_POT)
    hopeless = expected_points(snapshot, HOPELESS)
    assert certain.success == 1.0 and certain.expected_points == 3.0  # red: 3 (K-5.3), every sample
    assert hopeless.success == 0.0 and hopeless.expected_points <= 0.0
    assert certain.expected_points > hopeless.expected_points


def test_points_lost_are_never_negative_and_the_better_shot_is_the_best() -> None:
    """Played the hopeless shot, the point lost is the best's whole value; played the certain pot, which
    the search may not beat, nothing is lost (the best is then at least the pot's 3 points)."""
    snapshot = corner_position()
    poor = analyse_shot(snapshot, HOPELESS, samples=SAMPLES)
    assert not poor.best_is_played
    assert poor.points_lost == poor.best.expected_points - poor.played.expected_points > 3.0 - 1e-9
    good = analyse_shot(snapshot, CERTAIN_POT, samples=SAMPLES)
    assert good.points_lost >= 0.0
    assert good.best.expected_points >= good.played.expected_points == 3.0
    summary = summarise_match([poor, good], ["alice", "bob"])
    alice, bob = summary.players
    assert (alice.shots, bob.shots) == (2, 0)
    assert alice.points_lost == pytest.approx(poor.points_lost + good.points_lost)
    assert alice.expected_points_per_shot == pytest.approx((poor.played.expected_points + 3.0) / 2)
    assert alice.accuracy == (good.points_lost <= ACCURACY_MARGIN) / 2


def test_the_noise_is_stated_and_zero_noise_is_the_engine_itself(played_match: list[PlayedShot]) -> None:
    assert STROKE_NOISE.as_dict() == {
        "angle_rad": ANGLE_SIGMA,
        "speed_fraction": SPEED_SIGMA,
        "tip_fraction": TIP_SIGMA,
    }
    assert "1 mrad" in STROKE_NOISE.describe() and "5%" in STROKE_NOISE.describe()
    for shot in played_match[:4]:
        exact = Match.from_snapshot(dict(shot.snapshot)).shoot(shot.player, call=shot.call, strike=shot.strike).verdict
        value = expected_points(shot.snapshot, {"call": shot.call, "strike": shot.strike}, ZERO_NOISE)
        assert value.samples == 1
        assert value.expected_points == exact["points"] - exact["penalty"]
        assert value.success == float(exact["scored"] and not exact["penalty"])


def test_the_noise_is_applied_with_its_sigmas_and_within_the_strike_limits() -> None:
    rng = random.Random(7)
    strike = {"angle": 0.5, "speed": 2.0, "side": 0.1, "height": -0.2}
    draws = [STROKE_NOISE.apply(strike, rng) for _ in range(2000)]
    for draw in draws:
        assert parse_strike(draw).as_dict() == draw
    assert statistics.stdev(d["angle"] for d in draws) == pytest.approx(ANGLE_SIGMA, rel=0.1)
    assert statistics.stdev(d["speed"] / 2.0 for d in draws) == pytest.approx(SPEED_SIGMA, rel=0.1)
    assert statistics.stdev(d["side"] for d in draws) == pytest.approx(TIP_SIGMA, rel=0.1)
    edge = STROKE_NOISE.apply({"angle": 3.14159, "speed": 9.0, "side": 0.6, "height": 0.0}, rng)
    assert parse_strike(edge).as_dict() == edge
    # A 45-degree cut into a corner (object ball 0.5 m out, cue ball 0.8 m behind): certain at its exact
    # strike, only sometimes under the noise (the noise module measured 45 %).
    corner = (L - 0.5 / math.sqrt(2), W - 0.5 / math.sqrt(2))
    toward = math.atan2(W - corner[1], L - corner[0]) + math.pi + math.radians(45)
    cue = [corner[0] + 0.8 * math.cos(toward), corner[1] + 0.8 * math.sin(toward)]
    balls = {"white1": cue, "red1": list(corner), "white2": [0.3, 0.3], "red2": [0.3, 1.1], "kaisa": [L / 2, 0.2]}
    snapshot = position(balls)
    exact = next(v for v in best_shots(snapshot, k=3, noise=ZERO_NOISE) if v.call["ball"] == "red1")
    noisy = expected_points(snapshot, {"call": exact.call, "strike": exact.strike}, samples=24)
    assert exact.success == 1.0 and exact.expected_points == 3.0
    assert 0.0 < noisy.success < 1.0 and noisy.expected_points < exact.expected_points


@pytest.mark.parametrize(
    ("played", "code", "words"),
    [
        (
            {"call": {"ball": "red1", "pocket": "foot_left"}, "strike": {"angle": 0.0, "speed": 12.0}},
            "bad_strike",
            "strike limits",
        ),
        (
            {"call": {"ball": "red1", "pocket": "foot_left"}, "strike": {"angle": 0.0, "speed": 2.0, "side": 0.7}},
            "miscue",
            "strike limits",
        ),
        (
            {"call": {"ball": "red1", "pocket": "foot_left"}, "strike": {"angle": 0.0, "speed": 0.0}},
            "bad_strike",
            "strike limits",
        ),
        (
            {"call": {"ball": "white1", "pocket": "foot_left"}, "strike": {"angle": 0.0, "speed": 2.0}},
            None,
            "call is refused",
        ),
        (
            {"call": {"ball": "red1", "pocket": "nowhere"}, "strike": {"angle": 0.0, "speed": 2.0}},
            None,
            "call is refused",
        ),
        ({"player": "bob", **CERTAIN_POT}, "not_your_turn", "not the player"),
    ],
)
def test_an_illegal_call_or_a_strike_out_of_the_limits_is_refused(
    played: dict[str, Any], code: str | None, words: str
) -> None:
    snapshot = corner_position()
    for ask in (lambda: expected_points(snapshot, played), lambda: analyse_shot(snapshot, played)):
        with pytest.raises(AnalysisError) as refused:
            ask()
        assert words in refused.value.message
        if code is not None:
            assert refused.value.code == code


def test_a_position_with_nobody_to_shoot_is_refused() -> None:
    with pytest.raises(AnalysisError) as refused:
        best_shots(Match.new(players=("alice", "bob")).snapshot())
    assert refused.value.code == "nothing_to_shoot"


def _in_a_worker(shot: PlayedShot) -> dict[str, Any]:
    return analyse_played(shot, samples=SAMPLES).as_dict()


def test_the_analysis_is_the_same_in_another_process(played_match: list[PlayedShot]) -> None:
    """A spawned pool worker (a fresh interpreter, its own hash seed) and a subprocess with a fixed
    different PYTHONHASHSEED give exactly the numbers of this process; inputs and results pickle."""
    shots = played_match[3:4]
    here = [analyse_played(s, samples=SAMPLES) for s in shots]
    assert pickle.loads(pickle.dumps(here)) == here
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        there = pool.map(_in_a_worker, shots)
    assert there == [a.as_dict() for a in here]
    code = (
        "import json, sys\n"
        "from game.engine.analysis import PlayedShot, analyse_played\n"
        "data = json.load(sys.stdin)\n"
        f"print(json.dumps([analyse_played(PlayedShot(**d), samples={SAMPLES}).as_dict() for d in data]))\n"
    )
    data = [{"snapshot": s.snapshot, "player": s.player, "call": s.call, "strike": s.strike} for s in shots]
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", code],
            input=json.dumps(data),
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
            check=True,
        )
        assert json.loads(done.stdout) == json.loads(json.dumps([a.as_dict() for a in here]))


def test_analyse_match_reports_progress_and_per_player_figures(played_match: list[PlayedShot]) -> None:
    shots = played_match[:3]
    seen: list[tuple[int, int]] = []
    result = analyse_match(shots, progress=lambda done, total: seen.append((done, total)), samples=SAMPLES)
    assert seen == [(1, 3), (2, 3), (3, 3)]
    assert [p.player for p in result.players] == ["north", "south"]
    assert sum(p.shots for p in result.players) == 3
    for summary in result.players:
        own = [a for a in result.shots if a.player == summary.player]
        assert summary.points_lost == pytest.approx(sum(a.points_lost for a in own))
        assert summary.points_lost >= 0
        assert 0.0 <= summary.accuracy <= 1.0
    assert result.as_dict()["noise"] == STROKE_NOISE.as_dict()
    assert json.loads(json.dumps(result.as_dict()))["accuracy_margin"] == ACCURACY_MARGIN


def test_the_sample_record_replays_to_the_sample_matchs_shots() -> None:
    """bench_analysis starts from the sample match's input record, as the server starts from a stored
    match's: replayed, it gives exactly the positions, shooters and strikes of the sample match."""
    record = sample_record(shots=4)
    assert [entry["kind"] for entry in record["inputs"]][:2] == ["lag", "lag"]
    replayed = played_shots(record_shots(record))
    assert replayed == sample_match(shots=4)
