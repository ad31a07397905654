"""Shot puzzles from a match's analysis: which played positions make a puzzle, what it
asks, what it is about, and whether an answer solves it. Pure: plain data in and out, no Django.

A position becomes a puzzle candidate when the engine's best shot there is *robust* (it scores in at
least ``min_success`` of the noisy samples, :data:`MIN_SUCCESS`) and worth *clearly* more than what was
played (at least ``min_gain`` expected points more, :data:`MIN_GAIN`, twice the analysis's accuracy
margin so sampling noise alone never makes one). The puzzle asks "score at least N points from here", N
being what the best strike scores when played exactly (no noise) in the puzzle's position; a best shot
whose exact strike does not score (it succeeds under the noise, yet the exact one misses) is no puzzle,
so the stored best strike always solves its own puzzle.

The puzzle's position is the played one rebuilt as a hand-written snapshot (ARCHITECTURE section 3):
the shooter is :data:`SOLVER` ("player", the name the free table's client plays as) and the other seat
:data:`OTHER`, both at 0 points; the balls, the visit (from hand, a middle kaisa) and the ruleset are the
match's. So the players' names stay out of the puzzle, and a score near 60 (K-9.1) does not change it.
Only positions of the ``play`` phase count: a shoot-out pot is worth its own fixed points (K-11.3).

Deterministic: the same shots and analyses give the same candidates, in shot order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from game.engine.rules import Match, RuleError

#: The best shot must score in at least this share of the noisy samples.
MIN_SUCCESS = 0.6
#: ... and be worth at least this many expected points more than the played shot.
MIN_GAIN = 2.0
#: The seat names of a puzzle position (the free table's own: static/game/js/pages/free_table.js ``ME``).
SOLVER = "player"
OTHER = "partner"
#: The themes a puzzle can have, in the order they are listed.
THEMES = ("bank", "carom", "kaisa", "two_balls", "from_hand")


@dataclass(frozen=True, slots=True)
class PuzzleCandidate:
    """One puzzle: the position (the solver to shoot), the target, the engine's best call and strike,
    its themes, and the figures it was chosen by (the best and played expected points, the success)."""

    shot_index: int
    snapshot: dict[str, Any]
    target: int
    call: dict[str, Any]
    strike: dict[str, float]
    themes: tuple[str, ...]
    best_expected: float
    played_expected: float
    success: float

    def as_dict(self) -> dict[str, Any]:
        return {
            "shot_index": self.shot_index,
            "snapshot": self.snapshot,
            "target": self.target,
            "call": dict(self.call),
            "strike": dict(self.strike),
            "themes": list(self.themes),
            "best_expected": round(self.best_expected, 4),
            "played_expected": round(self.played_expected, 4),
            "success": round(self.success, 4),
        }


def puzzle_position(snapshot: Mapping[str, Any], player: str) -> dict[str, Any] | None:
    """The puzzle's snapshot of a played position (see the module docstring), or None when ``player``
    is not the one to shoot in a ``play`` phase position."""
    if snapshot.get("phase") != "play":
        return None
    players = snapshot.get("players") or []
    turn = snapshot.get("turn")
    if len(players) != 2 or turn not in (0, 1) or players[turn].get("name") != player:
        return None
    seats = [
        {"name": SOLVER if index == turn else OTHER, "cue_ball": seat.get("cue_ball"), "score": 0}
        for index, seat in enumerate(players)
    ]
    position: dict[str, Any] = {
        "phase": "play",
        "players": seats,
        "turn": turn,
        "balls": {ball: (list(at) if at is not None else None) for ball, at in dict(snapshot["balls"]).items()},
        "in_hand": list(snapshot.get("in_hand") or []),
    }
    for key in ("visit", "ruleset"):
        if isinstance(snapshot.get(key), Mapping):
            position[key] = dict(snapshot[key])
    return position


def exact_verdict(snapshot: Mapping[str, Any], call: Mapping[str, Any], strike: Mapping[str, Any]) -> dict[str, Any]:
    """The rules' verdict on ``strike`` played exactly (no noise) for the solver in a puzzle position;
    RuleError when the rules refuse the call or the strike (outside the strike limits, K-10.3)."""
    match = Match.from_snapshot(dict(snapshot))
    return dict(match.shoot(SOLVER, call=dict(call), strike=dict(strike)).verdict)


def points_scored(verdict: Mapping[str, Any]) -> int:
    """What a verdict scores for a puzzle: the points of a fulfilled call (K-5.3), 0 for anything else."""
    if not verdict.get("scored") or verdict.get("penalty") or verdict.get("foul"):
        return 0
    return int(verdict.get("points", 0))


def solves(verdict: Mapping[str, Any], target: int) -> bool:
    """Does a verdict solve a puzzle asking for ``target`` points?"""
    return points_scored(verdict) >= target > 0


def themes_of(verdict: Mapping[str, Any], snapshot: Mapping[str, Any]) -> tuple[str, ...]:
    """What a scoring shot is about, read from its verdict as the words read it (words/en.py ``_pot``):
    a bank when the call asks for cushions (object ball or cue ball, K-4.1), a carom when the cue ball
    went on to touch another ball (K-5.1), the kaisa when it is the called ball, two balls when the call
    goes through another ball (a kiss or a combination, K-5.4), from hand when the visit began with
    the white in hand (K-7.2)."""
    call = verdict.get("call") or {}
    found = {
        "bank": bool(call.get("object_cushions") or call.get("cue_cushions")),
        "carom": bool(verdict.get("caroms")),
        "kaisa": call.get("ball") == "kaisa",
        "two_balls": call.get("via") is not None,
        "from_hand": bool((snapshot.get("visit") or {}).get("from_hand")),
    }
    return tuple(theme for theme in THEMES if found[theme])


def puzzle_candidates(
    shots: Sequence[Mapping[str, Any]],
    analyses: Sequence[Mapping[str, Any]],
    *,
    min_success: float = MIN_SUCCESS,
    min_gain: float = MIN_GAIN,
) -> list[PuzzleCandidate]:
    """The puzzles of a match: ``shots`` as replay_shots gives them (``{"snapshot", "player", "call",
    "strike"}``, one per analysed shot) and ``analyses`` the report's shots in the same order
    (``ShotAnalysis.as_dict()``: ``best`` and ``played`` each with ``expected_points`` and ``success``)."""
    found: list[PuzzleCandidate] = []
    for index, (shot, analysis) in enumerate(zip(shots, analyses, strict=False)):
        best, played = analysis.get("best") or {}, analysis.get("played") or {}
        if analysis.get("best_is_played"):
            continue
        best_expected = float(best.get("expected_points", 0.0))
        played_expected = float(played.get("expected_points", 0.0))
        success = float(best.get("success", 0.0))
        if success < min_success or best_expected - played_expected < min_gain:
            continue
        position = puzzle_position(shot["snapshot"], str(shot["player"]))
        if position is None:
            continue
        try:
            verdict = exact_verdict(position, best["call"], best["strike"])
        except (RuleError, KeyError, TypeError):
            continue
        target = points_scored(verdict)
        if target <= 0:
            continue
        found.append(
            PuzzleCandidate(
                shot_index=index,
                snapshot=position,
                target=target,
                call=dict(verdict.get("call") or best["call"]),
                strike={key: float(value) for key, value in dict(best["strike"]).items()},
                themes=themes_of(verdict, position),
                best_expected=best_expected,
                played_expected=played_expected,
                success=success,
            )
        )
    return found
