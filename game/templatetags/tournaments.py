"""Template tags that bring tournaments into pages other views render (the header, the home page, the
club page) without each of those views having to know about tournaments: each reads one selector."""

from __future__ import annotations

import secrets
from typing import Any

from django import template

from game.tournaments.selectors import tournaments as selectors
from game.tournaments.services.base import is_manager
from game.tournaments.visibility import listed_filter

register = template.Library()


@register.simple_tag(takes_context=True)
def tournament_matches_to_play(context: template.Context) -> list[dict[str, Any]]:
    """The visitor's tournament matches still to play (the header badge and the home page list),
    read once per request however many times the page asks."""
    request = context.get("request")
    if request is None:
        return []
    cached = getattr(request, "_tournament_to_play", None)
    if cached is None:
        user = getattr(request, "user", None)
        cached = selectors.to_play_for(user=user) if user is not None else []
        request._tournament_to_play = cached
    return cached


@register.simple_tag(takes_context=True)
def club_tournaments(context: template.Context, club: Any) -> list[dict[str, Any]]:
    """The club's events this visitor may see listed: a hidden or link-only event is left out."""
    request = context.get("request")
    manager = is_manager(club_id=club.pk, user=getattr(request, "user", None))
    return selectors.club_tournaments(club_id=club.pk, listed=listed_filter(manager=manager))


@register.simple_tag(takes_context=True)
def can_run_tournaments(context: template.Context, club: Any) -> bool:
    request = context.get("request")
    return is_manager(club_id=club.pk, user=getattr(request, "user", None))


@register.simple_tag
def result_entry_key() -> str:
    """A fresh key for one result form: the form's result is stored once under it, however often the
    phone sends it (game/tournaments/services/club.py result_key_seen)."""
    return secrets.token_urlsafe(18)


@register.filter
def players_of(rosters: dict[int, list[str]], entry_id: int) -> str:
    """A team's players, in the team's order, joined by commas (selectors/team_games.py `team_players`)."""
    return ", ".join(rosters.get(entry_id, ()))
