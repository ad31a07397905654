"""Counting a finished match into the players' records: stats, best break, ratings.

The contract with the online layer (game/matches/services/inputs.py): it calls `results_record(match=...)`
inside the same transaction that sets the match to "finished" or "aborted" (with `winner` set when there
is one), so the result and the ratings commit together or not at all.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone

from game.matches.selectors.match_result import recorded_rating_changes
from game.models import Match, MatchResult, Profile, Shot
from game.ratings.selectors import unrated_reason
from game.ratings.services import rating_update
from game.teams.results import team_results_record


def best_breaks(*, shots: Iterable[Shot]) -> dict[str, int]:
    """Highest points each player scored in one visit, keyed by player name.

    A visit is the run of inputs by one player until a verdict with `turn_passes` true; the points of
    that last shot still belong to the visit (a scoring shot that ends the match counts). A change of
    shooter also ends a visit, so a missing or malformed verdict cannot merge two players' visits.
    """
    best: dict[str, int] = {}
    current_player: str | None = None
    running = 0
    for shot in shots:
        verdict = shot.verdict if isinstance(shot.verdict, dict) else None
        if verdict is None:
            continue
        if shot.player_name != current_player:
            current_player, running = shot.player_name, 0
        points = verdict.get("points", shot.points)
        if isinstance(points, int | float) and points > 0:
            running += int(points)
            best[shot.player_name] = max(best.get(shot.player_name, 0), running)
        else:
            best.setdefault(shot.player_name, 0)
        if verdict.get("turn_passes"):
            current_player, running = None, 0
    return best


def _score_of_first(match: Match) -> float:
    if match.winner_id is None:
        return 0.5
    return 1.0 if match.winner_id == match.player1_id else 0.0


@transaction.atomic
def results_record(*, match: Match) -> list[dict]:
    """Counts a finished or aborted match into both players' profiles; for a rated, finished match
    also moves their Glicko-2 ratings unless `unrated_reason` refuses it (two-shot minimum, guests,
    unverified e-mail, the pair's daily limit: the MatchResult says why). Returns the rating changes
    (empty for casual, aborted or refused).

    - finished: games_played +1 for both, games_won/games_lost by `match.winner` (none on a draw).
    - aborted: no result to count (played/won/lost and ratings untouched), but best break and
      last_played_at still reflect what was played.
    - Idempotent: the MatchResult row (created here) marks the match as counted; a second call changes
      nothing and returns the same rating changes as the first.
    """
    if match.status not in (Match.Status.FINISHED, Match.Status.ABORTED):
        raise ValueError(f"match {match.id} is {match.status}: only finished or aborted matches have a result")
    existing = MatchResult.objects.filter(match=match).first()
    if existing is not None:
        return recorded_rating_changes(match=match)

    if match.team_size:
        breaks = best_breaks(shots=Shot.objects.filter(match=match).order_by("seq"))
        return team_results_record(match=match, breaks=breaks)
    player_ids = [pid for pid in (match.player1_id, match.player2_id) if pid is not None]
    profiles = {p.user_id: p for p in Profile.objects.select_for_update().filter(user_id__in=player_ids)}
    breaks = best_breaks(shots=Shot.objects.filter(match=match).order_by("seq"))
    finished = match.status == Match.Status.FINISHED
    played_at = match.finished_at or timezone.now()

    for user_id in player_ids:
        profile = profiles.get(user_id)
        if profile is None:
            continue
        fields = ["last_played_at"]
        profile.last_played_at = played_at
        best = breaks.get(profile.display_name, 0)
        if best > profile.best_break:
            profile.best_break = best
            fields.append("best_break")
        if finished:
            profile.games_played += 1
            fields.append("games_played")
            if match.winner_id == user_id:
                profile.games_won += 1
                fields.append("games_won")
            elif match.winner_id is not None:
                profile.games_lost += 1
                fields.append("games_lost")
        profile.save(update_fields=fields)

    first = profiles.get(match.player1_id) if match.player1_id else None
    second = profiles.get(match.player2_id) if match.player2_id else None
    # One decision, with both profiles locked above: game/ratings/selectors.py.
    if not match.rated:
        reason: str | None = "casual"
    elif not finished:
        reason = "aborted"
    elif first is None or second is None:
        reason = "guest"
    else:
        reason = unrated_reason(match=match)
    rated = reason is None
    MatchResult.objects.create(
        match=match,
        rated=rated,
        unrated_reason=reason or "",
        player1_best_break=breaks.get(first.display_name, 0) if first else 0,
        player2_best_break=breaks.get(second.display_name, 0) if second else 0,
    )
    if not rated:
        return []
    assert first is not None and second is not None
    return rating_update(match=match, first=first, second=second, first_score=_score_of_first(match))
