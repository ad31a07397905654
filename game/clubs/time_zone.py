"""A club's pages speak the club's time zone (`Club.time_zone`, Finland's by default): every page,
form and log under a club's address (`/clubs/<slug>/...`) or one of its events' (`/tournaments/<id>/...`)
is rendered and read with Django's current time zone set to the club's, so a time shown is the club's
wall clock and a time typed (the new-event form's start) is read as one. Django's supported path for a
zone per request: a middleware that activates it (docs: "Selecting the current time zone").

The site's clock and database stay in UTC; files (KaisaKaavio's `KellonAika`) take the zone from the
club itself (game/tournaments/services/kaavio.py), not from the request.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from zoneinfo import ZoneInfo

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from game.models import Club, zone_or_default
from game.models.tournaments import Tournament


def page_zone(view_kwargs: dict[str, Any]) -> ZoneInfo | None:
    """The zone of the club whose page the URL names (None: no club's page, the site's UTC)."""
    tournament_id = view_kwargs.get("tournament_id")
    if isinstance(tournament_id, int):
        name = Tournament.objects.filter(pk=tournament_id).values_list("club__time_zone", flat=True).first()
    elif isinstance(view_kwargs.get("slug"), str):
        name = Club.objects.filter(slug=view_kwargs["slug"]).values_list("time_zone", flat=True).first()
    else:
        return None
    return zone_or_default(name) if name is not None else None


class ClubTimeZoneMiddleware:
    """Activates the club's zone for the view of a club's page, and the site's again after it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., Any],
        view_args: tuple[Any, ...],
        view_kwargs: dict[str, Any],
    ) -> None:
        zone = page_zone(view_kwargs)
        if zone is not None:
            timezone.activate(zone)
