"""Counting a finished one-to-one match into both players' records and ratings.

`game.matches.services.results.results_record` hands one-to-one matches here (a hook game.apps
registers), inside the transaction that sets the match to "finished" or "aborted", so the result and
the ratings commit together or not at all. Team matches go to game.teams.results.
"""

from __future__ import annotations

from django.utils import timezone

from game.models import Match, MatchResult, Profile
from game.ratings.selectors import unrated_reason
from game.ratings.services import rating_update


def _score_of_first(match: Match) -> float:
    if match.winner_id is None:
        return 0.5
    return 1.0 if match.winner_id == match.player1_id else 0.0


def _unrated_reason(*, match: Match, finished: bool, first: Profile | None, second: Profile | None) -> str | None:
    """Why the result moves no rating, or None: one decision, with both profiles locked
    (game/ratings/selectors.py holds the rules)."""
    if not match.rated:
        return "casual"
    if not finished:
        return "aborted"
    if first is None or second is None:
        return "guest"
    return unrated_reason(match=match)


def pair_results_record(*, match: Match, breaks: dict[str, int]) -> list[dict]:
    """Count the match into both players' profiles (locked here); ``breaks`` are the best breaks by
    player name. For a rated, finished match also move their Glicko-2 ratings unless `unrated_reason`
    refuses it (two-shot minimum, guests, unverified e-mail, the pair's daily limit: the MatchResult
    says why). Returns the rating changes (empty for casual, aborted or refused)."""
    player_ids = [pid for pid in (match.player1_id, match.player2_id) if pid is not None]
    profiles = {p.user_id: p for p in Profile.objects.select_for_update().filter(user_id__in=player_ids)}
    finished = match.status == Match.Status.FINISHED
    played_at = match.finished_at or timezone.now()
    for user_id in player_ids:
        profile = profiles.get(user_id)
        if profile is not None:
            profile.count_match(
                played_at=played_at,
                best_break=breaks.get(profile.display_name, 0),
                finished=finished,
                won=None if match.winner_id is None else match.winner_id == user_id,
            )

    first = profiles.get(match.player1_id) if match.player1_id else None
    second = profiles.get(match.player2_id) if match.player2_id else None
    reason = _unrated_reason(match=match, finished=finished, first=first, second=second)
    MatchResult.objects.create(
        match=match,
        rated=reason is None,
        unrated_reason=reason or "",
        player1_best_break=breaks.get(first.display_name, 0) if first else 0,
        player2_best_break=breaks.get(second.display_name, 0) if second else 0,
    )
    if reason is not None:
        return []
    assert first is not None and second is not None
    return rating_update(match=match, first=first, second=second, first_score=_score_of_first(match))
