"""Counting a finished match into the players' records: stats, best break, ratings (through hooks).

The contract with the online layer (game/matches/services/inputs.py): it calls `results_record(match=...)`
inside the same transaction that sets the match to "finished" or "aborted" (with `winner` set when there
is one), so the result and the ratings commit together or not at all.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from game.matches.hooks import HOOKS
from game.matches.selectors.match_result import recorded_rating_changes
from game.models import Match, MatchResult, Shot


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


@transaction.atomic
def results_record(*, match: Match) -> list[dict]:
    """Counts a finished or aborted match into its players' profiles; for a rated, finished match
    also moves their ratings unless the ratings' rules refuse it (the MatchResult says why). Returns
    the rating changes (empty for casual, aborted or refused).

    How a result counts is the ratings' (one-to-one: game.ratings.results) and the teams' (team
    matches: game.teams.results), handed over as hooks (game.matches.hooks): the match code knows
    neither. Both count a player's games through `Profile.count_match`.

    - finished: games_played +1 for every player, games_won/games_lost by `match.winner` (none on a draw).
    - aborted: no result to count (played/won/lost and ratings untouched), but best break and
      last_played_at still reflect what was played.
    - Idempotent: the MatchResult row (created by the hook) marks the match as counted; a second call
      changes nothing and returns the same rating changes as the first.
    """
    if match.status not in (Match.Status.FINISHED, Match.Status.ABORTED):
        raise ValueError(f"match {match.id} is {match.status}: only finished or aborted matches have a result")
    existing = MatchResult.objects.filter(match=match).first()
    if existing is not None:
        return recorded_rating_changes(match=match)
    breaks = best_breaks(shots=Shot.objects.filter(match=match).order_by("seq"))
    count = HOOKS.team_result if match.team_size else HOOKS.pair_result
    return count(match=match, breaks=breaks)
