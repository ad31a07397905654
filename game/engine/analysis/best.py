"""The engine's best shots in a position: the strongest computer level's search, then the most
promising of its candidates valued under the stroke noise and ranked by expected points.

The search (:func:`game.engine.bot.search.search_candidates`) is level 5's, with its time budget
replaced by a budget in simulations (:data:`ANALYSIS_SIMULATIONS`): it stops after that many shots,
never at a deadline, so the same position gives the same shots on a fast machine and on a busy one. The
search ranks by the bot's value (points plus the next shot's ease, minus the opponent's); the analysis
then re-values the best few by expected points alone, the figure it reports.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Mapping
from typing import Any

from game.engine.analysis.expected import (
    DEFAULT_SAMPLES,
    AnalysisError,
    ShotValue,
    position_match,
    stable_seed,
    value_of,
)
from game.engine.analysis.noise import STROKE_NOISE, StrokeNoise
from game.engine.bot.levels import LEVEL_SPECS, LEVELS, LevelSpec
from game.engine.bot.search import search_candidates
from game.engine.rules import Match, RuleError

#: The level whose search the analysis uses: the strongest.
ANALYSIS_LEVEL = LEVELS[-1]
#: The search's budget in simulations. Level 5's whole search plays up to 900 shots (12 pairs, 25
#: speed and spin variations, 3 tries each with the aim corrections). On every 4th position of the
#: sample match (10 positions) a cap of 240 found the uncapped search's best shot in 9 (the tenth
#: worth 1.75 expected points less), 120 in 5, 360 in all 10; but 360 took the 40-shot benchmark from
#: 29 s to 48 s on the same host, too near the issue's 60 s bar on a shared machine.
ANALYSIS_SIMULATIONS = 240
#: Its search with no deadline (see the module docstring).
ANALYSIS_SPEC: LevelSpec = dataclasses.replace(
    LEVEL_SPECS[ANALYSIS_LEVEL], budget=math.inf, max_simulations=ANALYSIS_SIMULATIONS
)
#: How many calls beyond the ``k`` asked for are valued under the noise, each with the strike the search
#: valued best for it: the search ranks by exact values, where a knife-edge kaisa outranks a red that
#: cannot miss, so its first calls are not always the noise's (in a position with a certain red pot
#: and a thin kaisa, the three best strikes overall were all the kaisa's, worth half the red's 3 points).
EXTRA_VALUED = 3


def best_shots(
    snapshot: Mapping[str, Any],
    k: int = 3,
    noise: StrokeNoise = STROKE_NOISE,
    samples: int = DEFAULT_SAMPLES,
    simulations: int = ANALYSIS_SIMULATIONS,
) -> list[ShotValue]:
    """Up to ``k`` shots for the player to shoot in ``snapshot``, best expected points first, each with
    its success probability under ``noise``: one strike per call (the search's best for that call), so
    the three are three different ideas. AnalysisError if nobody is to shoot there."""
    match, player = position_match(snapshot)
    return ranked_shots(match, player, k, noise, samples, simulations)


def search_spec(simulations: int = ANALYSIS_SIMULATIONS) -> LevelSpec:
    """:data:`ANALYSIS_SPEC` with another budget in simulations (tests search a few dozen shots)."""
    if simulations == ANALYSIS_SIMULATIONS:
        return ANALYSIS_SPEC
    if simulations < 1:
        raise AnalysisError("bad_simulations", "the search needs at least one simulation")
    return dataclasses.replace(ANALYSIS_SPEC, max_simulations=simulations)


def ranked_shots(
    match: Match, player: str, k: int, noise: StrokeNoise, samples: int, simulations: int = ANALYSIS_SIMULATIONS
) -> list[ShotValue]:
    """:func:`best_shots` on a position already read."""
    snapshot = match.snapshot()
    rng = random.Random(stable_seed(snapshot, player, "search"))
    distinct: list[tuple[dict[str, Any], dict[str, float]]] = []
    seen: set[str] = set()
    for candidate in search_candidates(snapshot, player, search_spec(simulations), rng):
        key = repr(sorted(candidate.call.items()))
        if key not in seen:
            seen.add(key)
            distinct.append((candidate.call, candidate.strike))
        if len(distinct) >= k + EXTRA_VALUED:
            break
    values = [value_of(match, player, call, strike, noise, samples) for call, strike in distinct]
    values.sort(key=lambda v: (-v.expected_points, -v.success))
    return values[:k]


def engine_board(
    snapshot: Mapping[str, Any], k: int = 3, noise: StrokeNoise = STROKE_NOISE, samples: int = DEFAULT_SAMPLES
) -> list[dict[str, Any]]:
    """The analysis board's answer: :func:`best_shots` as plain dicts, each with the
    verdict the rules give its strike played exactly (``exact``: what the shot does when it comes off,
    the page's words and its motion; None if the physics could not finish it), so a page can say what
    each shot is and replay it. What the server's engine pool runs: plain data in and out."""
    match, player = position_match(snapshot)
    answers = []
    for shot in ranked_shots(match, player, k, noise, samples):
        try:
            exact: dict[str, Any] | None = dict(
                Match(match.state).shoot(player, call=shot.call, strike=shot.strike).verdict
            )
        except RuleError:
            exact = None  # K-10.3: a strike the physics cannot finish scores nothing
        answers.append({**shot.as_dict(), "exact": exact})
    return answers
