"""Counting a finished team match into its members' records: games played, won and lost,
best breaks, and, only when a club tournament rated the match, their ratings (docs/teams.md).

`game.matches.services.results.results_record` hands team matches here (a hook game.apps registers),
in the same transaction that finishes the match. The decision whether the result is rated is simpler
than a one-to-one match's: team matches are casual unless created rated (which only a tournament
does, through `team_match_create(rated=True)`); a rated one is refused for an aborted match or a
guest member. The one-to-one farming guards (two-shot minimum, the pair's daily limit) do not apply:
the tournament makes the pairings.
"""

from __future__ import annotations

from django.utils import timezone

from game.models import Match, MatchResult, Profile, TeamSeat
from game.ratings.services import team_rating_update


def team_results_record(*, match: Match, breaks: dict[str, int]) -> list[dict]:
    """Count the match into every member's profile (locked here); ``breaks`` are the best breaks by
    member name (``results.best_breaks``: a member's visits are his own). Returns the rating changes."""
    seats = list(TeamSeat.objects.filter(match=match).order_by("team", "order").values_list("user_id", "team"))
    profiles = {p.user_id: p for p in Profile.objects.select_for_update().filter(user_id__in=[u for u, _ in seats])}
    finished = match.status == Match.Status.FINISHED
    winner_team = None
    if match.winner_id is not None:
        winner_team = 0 if match.winner_id == match.player1_id else 1
    played_at = match.finished_at or timezone.now()
    teams: list[list[Profile]] = [[], []]
    for user_id, team in seats:
        profile = profiles.get(user_id)
        if profile is None:
            continue
        teams[team].append(profile)
        profile.count_match(
            played_at=played_at,
            best_break=breaks.get(profile.display_name, 0),
            finished=finished,
            won=None if winner_team is None else winner_team == team,
        )
    reason: str | None = None
    if not match.rated:
        reason = "casual"
    elif not finished:
        reason = "aborted"
    elif any(p.is_guest for team in teams for p in team) or any(len(t) != match.team_size for t in teams):
        reason = "guest"
    MatchResult.objects.create(
        match=match,
        rated=reason is None,
        unrated_reason=reason or "",
        player1_best_break=max((breaks.get(p.display_name, 0) for p in teams[0]), default=0),
        player2_best_break=max((breaks.get(p.display_name, 0) for p in teams[1]), default=0),
    )
    if reason is not None:
        return []
    first_score = 0.5 if winner_team is None else float(winner_team == 0)
    return team_rating_update(match=match, teams=teams, first_score=first_score, rated_by_tournament=match.rated)
