"""The analysis of one played shot and of a whole match: the engine's best shot against the one played,
both valued under the same stroke noise, and per player the figures the page shows.

Plain data in and out (a :class:`PlayedShot` is a snapshot, a player, a call and a strike; the results
are frozen dataclasses of numbers, strings and dicts), so a process pool can run :func:`analyse_shot`
shot by shot and :func:`summarise_match` put the results together: ``analyse_match`` is exactly that in
one process.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from game.engine.analysis.best import ANALYSIS_SIMULATIONS, ranked_shots
from game.engine.analysis.expected import (
    DEFAULT_SAMPLES,
    AnalysisError,
    ShotValue,
    checked_shot,
    position_match,
    value_of,
)
from game.engine.analysis.noise import STROKE_NOISE, StrokeNoise
from game.engine.replay import record_shots
from game.engine.rules import RuleError

#: A shot is "accurate" when it loses at most this many expected points to the best: about the
#: standard error of two 24-sample estimates, so a shot is not called inaccurate on sampling noise.
ACCURACY_MARGIN = 1.0

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class PlayedShot:
    """One stored shot as plain data: the position before it, its shooter, the call and the strike sent."""

    snapshot: Mapping[str, Any]
    player: str
    call: Mapping[str, Any]
    strike: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class ShotAnalysis:
    """One shot: the engine's best (the played shot itself when that is worth more) and the played one,
    valued under the same noise; ``points_lost`` = best minus played, never negative."""

    player: str
    best: ShotValue
    played: ShotValue
    best_is_played: bool

    @property
    def points_lost(self) -> float:
        return self.best.expected_points - self.played.expected_points

    def as_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "best": self.best.as_dict(),
            "played": self.played.as_dict(),
            "best_is_played": self.best_is_played,
            "points_lost": round(self.points_lost, 4),
        }


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One player over a match: shots analysed, mean expected points of the played shots, expected points
    lost in all, and the share of shots within :data:`ACCURACY_MARGIN` of the best."""

    player: str
    shots: int
    expected_points_per_shot: float
    points_lost: float
    accuracy: float

    def as_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "shots": self.shots,
            "expected_points_per_shot": round(self.expected_points_per_shot, 4),
            "points_lost": round(self.points_lost, 4),
            "accuracy": round(self.accuracy, 4),
        }


@dataclass(frozen=True, slots=True)
class MatchAnalysis:
    """A match's analysis: every shot in order, each player's summary, and the model it was made under."""

    shots: tuple[ShotAnalysis, ...]
    players: tuple[PlayerSummary, ...]
    noise: StrokeNoise
    samples: int
    accuracy_margin: float

    def as_dict(self) -> dict[str, Any]:
        return {
            "shots": [s.as_dict() for s in self.shots],
            "players": [p.as_dict() for p in self.players],
            "noise": self.noise.as_dict(),
            "samples": self.samples,
            "accuracy_margin": self.accuracy_margin,
        }


def analyse_shot(
    snapshot: Mapping[str, Any],
    played: Mapping[str, Any],
    noise: StrokeNoise = STROKE_NOISE,
    samples: int = DEFAULT_SAMPLES,
    simulations: int = ANALYSIS_SIMULATIONS,
) -> ShotAnalysis:
    """The best shot in ``snapshot`` against ``played`` (``{"call", "strike"}``, optionally ``"player"``).

    A played call the rules refuse, or a strike outside the strike limits, is an AnalysisError."""
    match, player = position_match(snapshot)
    named = played.get("player")
    if named is not None and named != player:
        raise AnalysisError("not_your_turn", f"{named!r} is not the player to shoot here ({player!r} is)")
    call, strike = checked_shot(match, player, played.get("call"), played.get("strike"))
    own = value_of(match, player, call, strike, noise, samples)
    searched = ranked_shots(match, player, 1, noise, samples, simulations)
    best = searched[0] if searched else own
    if own.expected_points >= best.expected_points:
        return ShotAnalysis(player, own, own, True)
    return ShotAnalysis(player, best, own, False)


def analyse_played(
    shot: PlayedShot,
    noise: StrokeNoise = STROKE_NOISE,
    samples: int = DEFAULT_SAMPLES,
    simulations: int = ANALYSIS_SIMULATIONS,
) -> ShotAnalysis:
    """:func:`analyse_shot` of a :class:`PlayedShot` (one argument: what a pool maps over)."""
    return analyse_shot(
        shot.snapshot, {"player": shot.player, "call": shot.call, "strike": shot.strike}, noise, samples, simulations
    )


def exact_motion(snapshot: Mapping[str, Any], call: Mapping[str, Any], strike: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's shot played exactly (no noise) in ``snapshot``: ``{"segments", "cue_ball", "verdict"}``,
    the physics' wire segments the replay page animates as it animates a played shot, so the page
    draws what the engine computed and never simulates. The engine is deterministic: the same
    position, call and strike always give these segments. AnalysisError if the rules refuse it."""
    match, player = position_match(snapshot)
    parsed_call, parsed_strike = checked_shot(match, player, call, strike)
    seat = match.state.names.index(player)
    cue_ball = str((snapshot.get("players") or [{}, {}])[seat].get("cue_ball") or "")
    try:
        outcome = match.shoot(player, call=parsed_call, strike=parsed_strike)
    except RuleError as exc:
        raise AnalysisError(exc.code, f"the strike cannot be played here: {exc.message}") from exc
    shot = outcome.shot
    return {
        "segments": shot.segments if shot is not None else {},
        "cue_ball": cue_ball,
        "verdict": dict(outcome.verdict),
    }


def analyse_with_motion(
    shot: PlayedShot,
    noise: StrokeNoise = STROKE_NOISE,
    samples: int = DEFAULT_SAMPLES,
    simulations: int = ANALYSIS_SIMULATIONS,
) -> tuple[ShotAnalysis, dict[str, Any] | None]:
    """:func:`analyse_played` and the best shot's :func:`exact_motion` in one pool job (one position read,
    one round trip); the motion is None when the rules refuse to play it (never expected: the search
    only proposes shots the rules accept)."""
    analysis = analyse_played(shot, noise, samples, simulations)
    try:
        motion = exact_motion(shot.snapshot, analysis.best.call, analysis.best.strike)
    except AnalysisError:
        motion = None
    return analysis, motion


def motion_in_record(
    record: Mapping[str, Any], index: int, call: Mapping[str, Any], strike: Mapping[str, Any]
) -> dict[str, Any] | None:
    """:func:`exact_motion` of ``call`` and ``strike`` in the position before the ``index``-th shot
    (from 0, counting ``shoot`` inputs) of a stored match's input ``record``: the best shot's motion of
    an analysis stored before the motions were kept, made when a page first asks for it. The position
    is the record replayed (CPU work: one pool job); None when the rules refuse the strike there, as
    :func:`analyse_with_motion` stores it. AnalysisError if the record has no such shot."""
    shots = record_shots(record)
    if not 0 <= index < len(shots):
        raise AnalysisError("no_such_shot", f"the match has {len(shots)} shots, not a shot {index + 1}")
    try:
        return exact_motion(shots[index]["snapshot"], call, strike)
    except AnalysisError:
        return None


def summarise_match(
    analyses: Sequence[ShotAnalysis],
    players: Iterable[str] = (),
    noise: StrokeNoise = STROKE_NOISE,
    samples: int = DEFAULT_SAMPLES,
) -> MatchAnalysis:
    """Per-player figures over analysed shots (``players`` first, in that order, even without a shot)."""
    order = list(dict.fromkeys([*players, *(a.player for a in analyses)]))
    summaries = []
    for name in order:
        own = [a for a in analyses if a.player == name]
        count = len(own)
        summaries.append(
            PlayerSummary(
                player=name,
                shots=count,
                expected_points_per_shot=sum(a.played.expected_points for a in own) / count if count else 0.0,
                points_lost=sum(a.points_lost for a in own),
                accuracy=sum(a.points_lost <= ACCURACY_MARGIN for a in own) / count if count else 0.0,
            )
        )
    return MatchAnalysis(tuple(analyses), tuple(summaries), noise, samples, ACCURACY_MARGIN)


def analyse_match(
    shots: Sequence[PlayedShot],
    *,
    progress: Progress | None = None,
    noise: StrokeNoise = STROKE_NOISE,
    samples: int = DEFAULT_SAMPLES,
) -> MatchAnalysis:
    """Every shot of a finished match analysed in order; ``progress(k, n)`` after shot k of n."""
    analyses = []
    for index, shot in enumerate(shots):
        analyses.append(analyse_played(shot, noise, samples))
        if progress is not None:
            progress(index + 1, len(shots))
    players = [p["name"] for p in shots[0].snapshot.get("players", [])] if shots else []
    return summarise_match(analyses, players, noise, samples)


def played_shots(records: Iterable[Mapping[str, Any]]) -> list[PlayedShot]:
    """:class:`PlayedShot` objects from plain dicts ``{"snapshot", "player", "call", "strike"}``."""
    return [PlayedShot(r["snapshot"], r["player"], r["call"], r["strike"]) for r in records]
