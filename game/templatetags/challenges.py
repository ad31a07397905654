"""The visitor's open challenges for the header badge and the home page, read once per request
(the same pattern as the tournament badge, game/templatetags/tournaments.py)."""

from __future__ import annotations

from typing import Any

from django import template

from game.lobby.selectors import challenges_for

register = template.Library()


@register.simple_tag(takes_context=True)
def challenges_received(context: template.Context) -> list[dict[str, Any]]:
    request = context.get("request")
    if request is None:
        return []
    cached = getattr(request, "_challenges_received", None)
    if cached is None:
        cached = challenges_for(user=getattr(request, "user", None))
        request._challenges_received = cached
    return cached
