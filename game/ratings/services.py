"""Rating writes: apply Glicko-2 (game/common/glicko2.py) to both players of a rated match.

Called only from `results_record`, inside the transaction that finishes the match, so a rating never
moves without its RatingChange row and never moves twice for one match (one row per user and match is
a database constraint).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.utils import timezone

from game.common import glicko2
from game.matches.selectors.match_result import rating_change_dict
from game.models import Match, Profile, RatingChange
from game.ratings.selectors import provisional_gain_left


def _rating_of(profile: Profile) -> glicko2.Rating:
    return glicko2.Rating(profile.rating, profile.rating_deviation, profile.rating_volatility)


def rating_update(*, match: Match, first: Profile, second: Profile, first_score: float) -> list[dict]:
    """Moves both profiles' ratings for one match, writes their RatingChange rows, and returns
    [{"player", "before", "after", "delta"}] for the `finished` message (ratings rounded for display).

    `first`/`second` must be locked (select_for_update) by the caller; this saves them. A gain against
    a provisional opponent is capped by what is left of the winner's daily allowance
    (`provisional_gain_left`, game/ratings/rules.py): an established throwaway gives little.
    """
    before_first, before_second = _rating_of(first), _rating_of(second)
    after_first, after_second = glicko2.rate_match(before_first, before_second, first_score=first_score)
    at = match.finished_at or timezone.now()
    after_first = _capped(first, before_first, after_first, opponent=before_second, at=at)
    after_second = _capped(second, before_second, after_second, opponent=before_first, at=at)
    return _apply(match, [(first, after_first), (second, after_second)])


def _capped(
    profile: Profile, before: glicko2.Rating, after: glicko2.Rating, *, opponent: glicko2.Rating, at: datetime
) -> glicko2.Rating:
    """`after`, its gain cut to the day's allowance when the opponent's rating is provisional (only
    the rating: the deviation and volatility are Glicko-2's, the result was still information)."""
    if after.rating <= before.rating or not opponent.provisional:
        return after
    left = provisional_gain_left(user_id=profile.user_id, at=at)
    return glicko2.Rating(min(after.rating, before.rating + left), after.deviation, after.volatility)


def team_rating_update(
    *, match: Match, teams: Sequence[Sequence[Profile]], first_score: float, rated_by_tournament: bool
) -> list[dict]:
    """Moves every member's rating for one rated team match (docs/teams.md): each member
    against the other team's mean rating, one Glicko-2 period (``glicko2.rate_team_match``). Team
    matches are casual unless a club tournament rates them: ``rated_by_tournament`` is the flag it
    passes (through ``team_match_create(rated=True)``), and without it nothing moves.

    Profiles must be locked by the caller; returns one change per member, team 0 first."""
    if not rated_by_tournament:
        return []
    first, second = ([_rating_of(p) for p in team] for team in teams)
    after_first, after_second = glicko2.rate_team_match(first, second, first_score=first_score)
    pairs = [*zip(teams[0], after_first, strict=True), *zip(teams[1], after_second, strict=True)]
    return _apply(match, pairs)


def _apply(match: Match, pairs: Sequence[tuple[Profile, glicko2.Rating]]) -> list[dict]:
    """Write the RatingChange rows and the profiles' new ratings; the changes for the `finished` event."""
    changes: list[dict] = []
    for profile, after in pairs:
        before = _rating_of(profile)
        RatingChange.objects.create(
            user_id=profile.user_id,
            match=match,
            rating_before=before.rating,
            rating_after=after.rating,
            deviation_before=before.deviation,
            deviation_after=after.deviation,
            volatility_before=before.volatility,
            volatility_after=after.volatility,
        )
        profile.rating = after.rating
        profile.rating_deviation = after.deviation
        profile.rating_volatility = after.volatility
        profile.rated_games += 1
        profile.save(update_fields=["rating", "rating_deviation", "rating_volatility", "rated_games"])
        changes.append(rating_change_dict(player=profile.display_name, before=before.rating, after=after.rating))
    return changes
