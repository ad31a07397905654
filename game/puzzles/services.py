"""Puzzle writes: storing a match's puzzles, serving one to a viewer, judging an answer.

- :func:`puzzles_from_analysis` is **the hook of the stored match analysis**: when a match's analysis is
  done, call it with the match and the report (``MatchAnalysis`` or its ``as_dict()``); it stores the
  puzzles of a rated finished match once (a second call adds nothing) and returns them. It does CPU work
  (replaying the match for its positions, one exact simulation per candidate): call it where the
  analysis runs, off the event loop. It is a plain public function so the lead can connect it to the
  analysis's "done" signal in ``game/apps.py``.
- :func:`puzzles_starter_ensure` loads the starter puzzles shipped with the site
  (``starter_puzzles.json``, made from seeded computer matches by ``manage.py starter_puzzles``) when
  the site has no puzzle at all: a fresh install offers a daily puzzle and a streak at once.
- :func:`puzzle_serve` makes the one row an answer may be for (its token goes in the page).
- :func:`puzzle_answer` judges an answer: the strike played exactly on the served puzzle's position
  (engine/analysis/puzzles.py), solved when it scores the target or more; a signed-in solver's and the
  puzzle's puzzle ratings move on his first answer to that puzzle (Glicko-2, each its own rating period,
  as a match does; match ratings untouched). An answer for a puzzle not served to this viewer, a second
  answer, a strike outside the strike limits or a malformed body is refused with words, and nothing is
  stored.
"""

from __future__ import annotations

import json
import math
import secrets
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from game.common.glicko2 import Rating, Result, rate
from game.engine.analysis.puzzles import MIN_GAIN, MIN_SUCCESS, SOLVER, points_scored, puzzle_candidates, solves
from game.engine.analysis.report import MatchAnalysis
from game.engine.rules import Match as EngineMatch
from game.engine.rules import RuleError
from game.engine.strike_limits import STRIKE_LIMITS
from game.matches.selectors.replays import match_replay_record, replay_shots
from game.models import Match, MatchResult, Puzzle, PuzzleRating, PuzzleServing
from game.practice.selectors.free_table import (
    TableAnswer,
    frame,
    placed_event,
    read_body,
    refused,
    refused_by_rules,
    shot_event,
    verdict_words,
)
from game.puzzles.selectors import Viewer
from game.realtime import protocol

#: What an answer's body may carry: the served token, the shot, and a placement first (from hand).
ANSWER_KEYS = frozenset({"token", "place", "shoot"})


def match_makes_puzzles(match: Match) -> bool:
    """Only a rated finished match makes puzzles (a casual one may be played carelessly on purpose)."""
    if match.status != Match.Status.FINISHED or not match.rated:
        return False
    result = MatchResult.objects.filter(match=match).first()
    return result is None or result.rated


def puzzles_from_analysis(
    match: Match,
    report: MatchAnalysis | Mapping[str, Any],
    *,
    shots: Sequence[Mapping[str, Any]] | None = None,
    min_success: float = MIN_SUCCESS,
    min_gain: float = MIN_GAIN,
) -> list[Puzzle]:
    """Store the puzzles of ``match`` from its analysis (see the module docstring). ``shots`` are the
    analysed positions (replay_shots' form, in the report's order); replayed from the match when None.
    An unrated or unfinished match stores nothing and returns []."""
    if not match_makes_puzzles(match):
        return []
    analyses = report.as_dict()["shots"] if isinstance(report, MatchAnalysis) else list(report.get("shots") or [])
    if shots is None:
        shots = replay_shots(record=match_replay_record(match=match))
    candidates = puzzle_candidates(shots, analyses, min_success=min_success, min_gain=min_gain)
    Puzzle.objects.bulk_create(
        [
            Puzzle(
                match=match,
                shot_index=c.shot_index,
                snapshot=c.snapshot,
                target=c.target,
                call=c.call,
                strike=c.strike,
                themes=list(c.themes),
                best_expected=c.best_expected,
                played_expected=c.played_expected,
                success=c.success,
            )
            for c in candidates
        ],
        ignore_conflicts=True,  # one puzzle per shot (the constraint): a second call stores nothing
    )
    return list(Puzzle.objects.filter(match=match).order_by("shot_index"))


#: The starter puzzles shipped with the site (written by ``manage.py starter_puzzles``).
STARTER_FILE = Path(__file__).with_name("starter_puzzles.json")


def starter_puzzles() -> list[dict[str, Any]]:
    """The shipped starter puzzles, as written (each a PuzzleCandidate's ``as_dict`` and its source)."""
    return list(json.loads(STARTER_FILE.read_text(encoding="utf-8"))["puzzles"])


def puzzles_starter_ensure() -> int:
    """Load the starter puzzles when the site has no puzzle at all; returns how many it added. Any
    number of processes may do it at once: each starter puzzle's number is unique, so a second load
    adds nothing."""
    if Puzzle.objects.exists():
        return 0
    rows = [
        Puzzle(
            match=None,
            starter=number,
            shot_index=int(entry["shot_index"]),
            snapshot=entry["snapshot"],
            target=int(entry["target"]),
            call=entry["call"],
            strike=entry["strike"],
            themes=list(entry["themes"]),
            best_expected=float(entry["best_expected"]),
            played_expected=float(entry["played_expected"]),
            success=float(entry["success"]),
        )
        for number, entry in enumerate(starter_puzzles(), start=1)
    ]
    before = Puzzle.objects.count()
    Puzzle.objects.bulk_create(rows, ignore_conflicts=True)
    return Puzzle.objects.count() - before


def puzzle_serve(
    *, puzzle: Puzzle, viewer: Viewer, mode: str = PuzzleServing.Mode.SINGLE, streak: int = 0
) -> PuzzleServing:
    """The serving of ``puzzle`` to ``viewer``: the one not yet answered in this mode when there is one
    (a reload keeps its token), else a new one."""
    owner: dict[str, Any] = (
        {"user": viewer.user, "session_key": ""}
        if viewer.signed_in
        else {"user": None, "session_key": viewer.session_key}
    )
    open_one = PuzzleServing.objects.filter(puzzle=puzzle, mode=mode, answered_at=None, **owner).first()
    if open_one is not None:
        if open_one.streak != streak:
            open_one.streak = streak
            open_one.save(update_fields=["streak"])
        return open_one
    return PuzzleServing.objects.create(
        token=secrets.token_urlsafe(16), puzzle=puzzle, mode=mode, streak=streak, **owner
    )


def strike_limits_error(shoot: object) -> str | None:
    """Words for a strike outside the strike limits (speed, tip offset, angle), None when it is inside
    or not a strike at all (the socket's parser then says what is wrong with its shape)."""
    strike = shoot.get("strike") if isinstance(shoot, dict) else None
    if not isinstance(strike, dict) or "angle" not in strike or "speed" not in strike:
        return None
    values = {key: strike.get(key, 0.0) for key in ("angle", "speed", "side", "height")}
    if not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in values.values()):
        return None
    limits = STRIKE_LIMITS
    if (
        limits.speed_ok(float(values["speed"]))
        and limits.angle_ok(float(values["angle"]))
        and limits.tip_offset_ok(float(values["side"]), float(values["height"]))
    ):
        return None
    return _(
        "That strike is outside the strike limits: the speed must be above 0 and at most %(speed)s m/s, "
        "and the tip at most %(tip)s of the ball's radius from its centre."
    ) % {"speed": f"{limits.max_speed:g}", "tip": f"{limits.max_tip_offset:g}"}


def puzzle_answer(*, viewer: Viewer, body: str | bytes, language: str | None = "en") -> TableAnswer:
    """Judge one request of the puzzle page: JSON ``{"token", "shoot": {call, strike}}`` (with
    ``"place": {ball, x, y}`` first when the white is in hand; a ``place`` alone answers the placed
    event and stores nothing). Never raises; a refusal stores nothing."""
    raw = read_body(body, ANSWER_KEYS)
    if isinstance(raw, TableAnswer):
        return raw
    token = raw.get("token")
    if not isinstance(token, str) or not token or len(token) > 64:
        return refused("not_served", _("That puzzle was not served to you: open it from the puzzles page."))
    if "shoot" in raw and (words := strike_limits_error(raw["shoot"])) is not None:
        return refused("out_of_limits", words)
    with transaction.atomic():
        serving = PuzzleServing.objects.select_for_update().select_related("puzzle").filter(token=token).first()
        if serving is None or not viewer.owns(serving):
            return refused("not_served", _("That puzzle was not served to you: open it from the puzzles page."))
        if serving.answered_at is not None:
            return refused("answered", _("You have answered this puzzle already: open the next one."))
        engine = EngineMatch.from_snapshot(dict(serving.puzzle.snapshot))
        try:
            if "place" in raw:
                place = frame("place", raw["place"])
                if isinstance(place, protocol.Invalid):
                    return refused(place.code, place.message)
                assert isinstance(place, protocol.Place)
                engine.place(SOLVER, place.ball, (place.x, place.y))
                if "shoot" not in raw:
                    return TableAnswer(event=placed_event(engine, place.ball))
            if "shoot" not in raw:
                return refused("bad_shape", _("Send your shot: a call and a strike."))
            shoot = frame("shoot", raw["shoot"])
            if isinstance(shoot, protocol.Invalid):
                return refused(shoot.code, shoot.message)
            assert isinstance(shoot, protocol.Shoot)
            event, verdict = shot_event(engine, shoot)
        except RuleError as refusal:
            return refused_by_rules(refusal, language)
        return _judged(serving, viewer, event, verdict, language)


def _judged(
    serving: PuzzleServing, viewer: Viewer, event: dict[str, Any], verdict: dict[str, Any], language: str | None
) -> TableAnswer:
    """Store the answer on its serving, count it on the puzzle, move the ratings (a signed-in viewer)."""
    puzzle = serving.puzzle
    solved = solves(verdict, puzzle.target)
    serving.answered_at = timezone.now()
    serving.solved = solved
    serving.points = points_scored(verdict)
    serving.answer = {"call": event["d"]["call"], "strike": event["d"]["strike"]}
    Puzzle.objects.filter(pk=puzzle.pk).update(attempts=F("attempts") + 1, solved_count=F("solved_count") + int(solved))
    rating: dict[str, Any] | None = None
    answered_before = (
        PuzzleServing.objects.filter(puzzle=puzzle, user=viewer.user).exclude(answered_at=None).exists()
        if viewer.rated
        else True
    )
    if not answered_before:
        # Only a player's first answer to a puzzle is rated: solving it again (the daily puzzle reloaded,
        # the answer now known) would farm the rating.
        rating = _rate(serving, viewer, solved)
    serving.save()
    return TableAnswer(
        event=event,
        words=verdict_words(verdict, language),
        extra={
            "solved": solved,
            "points": serving.points,
            "target": puzzle.target,
            "rating": rating,
            "streak": serving.streak + 1 if solved else serving.streak,
            "mode": serving.mode,
        },
    )


def _rate(serving: PuzzleServing, viewer: Viewer, solved: bool) -> dict[str, Any]:
    """Glicko-2 on both sides, each the other's opponent before the answer: a solve is the player's win."""
    row, _created = PuzzleRating.objects.select_for_update().get_or_create(user=viewer.user)
    puzzle = Puzzle.objects.select_for_update().get(pk=serving.puzzle_id)
    player = Rating(row.rating, row.deviation, row.volatility)
    own = Rating(puzzle.rating, puzzle.deviation, puzzle.volatility)
    score = 1.0 if solved else 0.0
    player_after = rate(player, [Result(opponent=own, score=score)])
    puzzle_after = rate(own, [Result(opponent=player, score=1.0 - score)])
    row.rating, row.deviation, row.volatility = player_after.rating, player_after.deviation, player_after.volatility
    if solved:
        row.solved += 1
    else:
        row.missed += 1
    row.save()
    puzzle.rating, puzzle.deviation, puzzle.volatility = (
        puzzle_after.rating,
        puzzle_after.deviation,
        puzzle_after.volatility,
    )
    puzzle.save(update_fields=["rating", "deviation", "volatility"])
    serving.rating_before = player.rating
    serving.rating_after = player_after.rating
    return {
        "before": round(player.rating),
        "after": round(player_after.rating),
        "delta": round(player_after.rating - player.rating),
    }
