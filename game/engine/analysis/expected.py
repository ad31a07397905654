"""Expected points of one called strike: the strike re-simulated under the stroke noise on the exact
engine (``Match.shoot`` on a copy of the position), the points the rules award averaged.

A sample is worth ``points - penalty`` of its verdict, the bot's own reading of a verdict
(:mod:`game.engine.bot.search`) without its position terms: a pot scores what K-5.3 says and a scratch
counts its K-8.1 deduction negative. What the position is worth to the next shot is left out on
purpose: the figure is points, the page says points.

**Deterministic.** The noise is drawn from a ``random.Random`` seeded by a SHA-256 of the canonical JSON
of the position, the call, the strike, the noise and the number of samples (never ``hash()``, which
differs between processes, nor the time), so the same question gives the same numbers in any process.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from game.engine.analysis.noise import STROKE_NOISE, StrokeNoise
from game.engine.rules import Match, RuleError
from game.engine.rules.strike import parse_strike

#: Samples per strike: the standard error of a 5-point pot dropping half the time is 0.5 points.
DEFAULT_SAMPLES = 24


class AnalysisError(ValueError):
    """A question the analysis refuses: ``code`` for programs (the rules' own code when the rules
    refused), ``message`` for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class ShotValue:
    """A called strike's worth under the noise: mean points (penalties negative), the share of samples
    that scored (call fulfilled, no foul), and how many samples were played."""

    call: dict[str, Any]
    strike: dict[str, float]
    expected_points: float
    success: float
    samples: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "call": dict(self.call),
            "strike": dict(self.strike),
            "expected_points": round(self.expected_points, 4),
            "success": round(self.success, 4),
            "samples": self.samples,
        }


def position_match(snapshot: Mapping[str, Any]) -> tuple[Match, str]:
    """The position as a match and the player due to shoot in it; AnalysisError if nobody is."""
    try:
        match = Match.from_snapshot(dict(snapshot))
    except RuleError as exc:
        raise AnalysisError(exc.code, f"the position cannot be read: {exc.message}") from exc
    for player, action in match.pending():
        if action == "shoot":
            return match, player
    raise AnalysisError("nothing_to_shoot", f"nobody is to shoot in this position (phase {match.phase})")


def checked_shot(match: Match, player: str, call: Any, strike: Any) -> tuple[dict[str, Any], dict[str, float]]:
    """The call as the rules parse it and the strike as a float dict, or AnalysisError: a strike
    outside the strike limits and a call the rules refuse here (K-4.3) are both refused."""
    try:
        parsed_strike = parse_strike(strike)
    except RuleError as exc:
        raise AnalysisError(exc.code, f"the strike is outside the strike limits: {exc.message}") from exc
    try:
        parsed_call = match.check_call(player, call)
    except RuleError as exc:
        raise AnalysisError(exc.code, f"the call is refused in this position: {exc.message}") from exc
    return parsed_call.as_dict(), parsed_strike.as_dict()


def stable_seed(*parts: Any) -> int:
    """A seed from the canonical JSON of ``parts``: the same in every process and on every machine."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def expected_points(
    snapshot: Mapping[str, Any],
    call_and_strike: Mapping[str, Any],
    noise: StrokeNoise = STROKE_NOISE,
    samples: int = DEFAULT_SAMPLES,
) -> ShotValue:
    """The expected points of ``call_and_strike`` (``{"call", "strike"}``, optionally ``"player"``,
    who must then be the one due to shoot) played in ``snapshot`` under ``noise``, over ``samples``
    noisy strikes; with :data:`~game.engine.analysis.noise.ZERO_NOISE`, the engine's exact result."""
    match, player = position_match(snapshot)
    named = call_and_strike.get("player")
    if named is not None and named != player:
        raise AnalysisError("not_your_turn", f"{named!r} is not the player to shoot here ({player!r} is)")
    call, strike = checked_shot(match, player, call_and_strike.get("call"), call_and_strike.get("strike"))
    return value_of(match, player, call, strike, noise, samples)


def value_of(
    match: Match, player: str, call: dict[str, Any], strike: dict[str, float], noise: StrokeNoise, samples: int
) -> ShotValue:
    """:func:`expected_points` on an already checked position, call and strike."""
    if samples < 1:
        raise AnalysisError("bad_samples", "the analysis needs at least one sample")
    if noise.is_zero:
        samples = 1
    rng = random.Random(stable_seed(match.snapshot(), player, call, strike, noise.as_dict(), samples))
    total = 0
    scored = 0
    for _ in range(samples):
        played = strike if noise.is_zero else noise.apply(strike, rng)
        try:
            verdict = Match(match.state).shoot(player, call=call, strike=played).verdict
        except RuleError:
            continue  # K-10.3: a strike the physics cannot finish is refused and scores nothing
        total += int(verdict.get("points", 0)) - int(verdict.get("penalty", 0))
        scored += bool(verdict.get("scored")) and not verdict.get("penalty")
    return ShotValue(call, strike, total / samples, scored / samples, samples)
