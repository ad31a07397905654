"""Reads for the Watch page and the home page: live matches and the featured one.

Spectator counts come from the online layer's presence rows (MatchConnection: one per open socket,
seat null for a spectator, heartbeat in `seen_at`), counting people: distinct viewers, as the match
page's presence does (game.matches.selectors.matches.match_presence).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q
from django.db.models.functions import Coalesce

from game.common import glicko2
from game.common.glicko2 import rating_label
from game.common.names import profile_name
from game.engine.table import kaisa_table
from game.matches.hooks import HOOKS
from game.matches.selectors.match_state import fresh_since, match_scores, match_table
from game.models import Match, MatchConnection

LIVE_LIMIT = 100


def _spectator_counts(*, match_ids: list[str]) -> dict[str, int]:
    """Spectators per match from the online layer's MatchConnection rows: distinct viewers of the
    sockets without a seat whose heartbeat is fresh (a crashed process leaves rows that stop counting
    once stale); a row without a viewer counts alone (its channel name)."""
    if not match_ids:
        return {}
    fresh = fresh_since()  # the match page's window: both agree on who is there
    rows = (
        MatchConnection.objects.filter(match_id__in=match_ids, seat__isnull=True, seen_at__gte=fresh)
        .values("match_id")
        .annotate(n=Count(Coalesce("viewer", "channel_name"), distinct=True))
    )
    counts = {match_id: 0 for match_id in match_ids}
    counts.update({row["match_id"]: row["n"] for row in rows})
    return counts


def _player_row(*, user: Any, score: int, seat: int, turn: int | None) -> dict[str, Any]:
    profile = getattr(user, "profile", None) if user is not None else None
    rating = profile.rating if profile is not None else None
    deviation = profile.rating_deviation if profile is not None else glicko2.INITIAL_DEVIATION
    return {
        "name": profile_name(user=user),
        "score": score,
        "rating": round(rating) if rating is not None else None,
        "rating_label": rating_label(rating=rating, deviation=deviation) if rating is not None else "",
        "provisional": glicko2.is_provisional(deviation),
        "to_play": turn == seat,
    }


def live_match_row(*, match: Match, spectators: int | None) -> dict[str, Any]:
    """A live match as the Watch page and watch.json show it (JSON-ready)."""
    scores = match_scores(match=match)
    snapshot = match.snapshot or {}
    turn = snapshot.get("turn") if isinstance(snapshot.get("turn"), int) else None
    players = [
        _player_row(user=match.player1, score=scores[0], seat=0, turn=turn),
        _player_row(user=match.player2, score=scores[1], seat=1, turn=turn),
    ]
    ratings = [p["rating"] for p in players if p["rating"] is not None]
    return {
        "id": match.pk,
        "url": f"/m/{match.pk}/",
        "players": players,
        "phase": snapshot.get("phase", ""),
        "balls": snapshot.get("balls") if isinstance(snapshot.get("balls"), dict) else {},
        "rated": match.rated,
        "club": {"name": match.club.name, "slug": match.club.slug} if match.club else None,
        "spectators": spectators,
        "version": match.version,
        "average_rating": round(sum(ratings) / len(ratings)) if ratings else None,
        "started_at": match.started_at.isoformat() if match.started_at else None,
    }


def matches_unlisted(*, viewer: Any) -> Q:
    """The matches no list shows `viewer`: those of an event he may not see, or whose link is its only
    way in (the events' rule, through `HOOKS.events_unlisted`; no viewer: a visitor)."""
    return HOOKS.events_unlisted(user=viewer)


def live_matches(*, viewer: Any = None, club: Any = None, limit: int = LIVE_LIMIT) -> list[dict[str, Any]]:
    """Matches being played now (status active), highest rated first; those of an event this viewer
    may not see listed, or whose link is its only way in, left out (no viewer: a visitor's list)."""
    queryset = (
        Match.objects.filter(status=Match.Status.ACTIVE)
        .exclude(matches_unlisted(viewer=viewer))
        .select_related("player1__profile", "player2__profile", "club")
    )
    if club is not None:
        queryset = queryset.filter(club=club)
    matches = list(queryset.order_by("-updated_at")[:limit])
    counts = _spectator_counts(match_ids=[m.pk for m in matches])
    rows = [live_match_row(match=m, spectators=counts.get(m.pk)) for m in matches]
    rows.sort(key=lambda row: (not row["rated"], -(row["average_rating"] or 0)))
    return rows


def featured_match(*, viewer: Any = None) -> dict[str, Any] | None:
    """The live match for the home page: the highest rated live match (rated matches before casual ones,
    then by the players' average rating) this viewer's lists show, or None when nobody is playing."""
    rows = live_matches(viewer=viewer, limit=LIVE_LIMIT)
    if not rows:
        return None
    return with_table(rows[0])


def with_table(row: dict[str, Any]) -> dict[str, Any]:
    """A live match's row with the geometry of its table (its balls' size), so a page can draw its
    position without another request."""
    match = Match.objects.only("ruleset", "snapshot").filter(pk=row["id"]).first()
    table = match_table(match=match) if match is not None else kaisa_table()
    return {**row, "table": table.as_dict()}
