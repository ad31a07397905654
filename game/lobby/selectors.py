"""Reads about challenges (game/lobby/services/challenges.py): the ones waiting for a player's answer,
for the header badge and the home page list (game/templatetags/challenges.py)."""

from __future__ import annotations

from typing import Any

from game.models import Match

CHALLENGES_SHOWN = 10


def challenges_for(*, user: Any) -> list[dict[str, Any]]:
    """Open challenges to ``user``, oldest first: who challenges, casual or rated, the time limit."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    rows = (
        Match.objects.filter(challenged=user, status=Match.Status.OPEN)
        .select_related("player1__profile")
        .order_by("created_at", "pk")[:CHALLENGES_SHOWN]
    )
    return [
        {
            "id": match.pk,
            "from": match.player1.profile.display_name if match.player1 else "?",
            "rated": match.rated,
            "minutes": match.time_limit // 60 if match.time_limit else None,
        }
        for match in rows
    ]
