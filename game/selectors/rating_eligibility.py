"""Whether a finished rated match moves ratings: one function every check goes through.

`results_record` asks :func:`unrated_reason` before it moves a rating; the result card shows the
reason's words (game/selectors/match_result.py), so a player always learns why a rated match counted
unrated.
"""

from __future__ import annotations

from game.models import Match, Shot

#: A loser who played fewer shots of his own than this did not really play (a resignation in the lag,
#: a walk-out after the break): the match is recorded but moves no rating.
MIN_SHOTS_FOR_RATING = 2
#: Endings that are real results whatever the shot count: the target reached, the time limit.
REAL_FINISHES: tuple[str, ...] = ("target", "time_limit", "shootout")


def unrated_reason(*, match: Match) -> str | None:
    """A reason code when this finished rated match must not move ratings, None when it may."""
    if match.winner_id is not None and match.result_code not in REAL_FINISHES:
        loser_id = match.player2_id if match.winner_id == match.player1_id else match.player1_id
        if Shot.objects.filter(match=match, player_id=loser_id, kind="shoot").count() < MIN_SHOTS_FOR_RATING:
            return "too_few_shots"
    return None
