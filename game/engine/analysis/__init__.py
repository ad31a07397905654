"""The engine as a coach: every shot valued in expected points under one stated stroke noise.

- :mod:`~game.engine.analysis.noise`: the Gaussian stroke noise (angle, speed, tip offset), the same
  for every player, with the reasons for its sigmas.
- :mod:`~game.engine.analysis.expected`: :func:`expected_points`, a strike re-simulated under the noise
  on the exact engine, the rules' points (penalties negative, K-8.1) averaged.
- :mod:`~game.engine.analysis.best`: :func:`best_shots`, the strongest level's search without a
  deadline, its best candidates ranked by expected points; :func:`engine_board`, the analysis board's
  three best with what each does played exactly.
- :mod:`~game.engine.analysis.report`: :func:`analyse_shot` (best against played, points lost never
  negative) and :func:`analyse_match` (per player: expected points per shot, points lost, accuracy).

Pure Python, no Django, no clock, no I/O: plain data in, frozen picklable results out, the same numbers
in any process, so the computer player's process pool can run it away from the event loop.
"""

from game.engine.analysis.best import ANALYSIS_LEVEL, ANALYSIS_SIMULATIONS, ANALYSIS_SPEC, best_shots, engine_board
from game.engine.analysis.expected import DEFAULT_SAMPLES, AnalysisError, ShotValue, expected_points
from game.engine.analysis.noise import ANGLE_SIGMA, SPEED_SIGMA, STROKE_NOISE, TIP_SIGMA, ZERO_NOISE, StrokeNoise
from game.engine.analysis.report import (
    ACCURACY_MARGIN,
    MatchAnalysis,
    PlayedShot,
    PlayerSummary,
    ShotAnalysis,
    analyse_match,
    analyse_played,
    analyse_shot,
    analyse_with_motion,
    exact_motion,
    motion_in_record,
    played_shots,
    summarise_match,
)
from game.engine.analysis.sample import sample_match

__all__ = [
    "ACCURACY_MARGIN",
    "ANALYSIS_LEVEL",
    "ANALYSIS_SIMULATIONS",
    "ANALYSIS_SPEC",
    "ANGLE_SIGMA",
    "DEFAULT_SAMPLES",
    "SPEED_SIGMA",
    "STROKE_NOISE",
    "TIP_SIGMA",
    "ZERO_NOISE",
    "AnalysisError",
    "MatchAnalysis",
    "PlayedShot",
    "PlayerSummary",
    "ShotAnalysis",
    "ShotValue",
    "StrokeNoise",
    "analyse_match",
    "analyse_played",
    "analyse_shot",
    "analyse_with_motion",
    "best_shots",
    "engine_board",
    "exact_motion",
    "expected_points",
    "motion_in_record",
    "played_shots",
    "sample_match",
    "summarise_match",
]
