"""Real play's pages at a club: the club's records of a season (`/clubs/<slug>/records/`) and a register
player's page (`/clubs/<slug>/players/<id>/`) with what the player did at the club's real tables. Pages
that read the clubs' register and real play's statistics together, so they belong to the site. Both are a
club's pages: the club's time zone is on (game/clubs/time_zone.py), so days are the club's."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import URLPattern, path
from django.utils import timezone
from django.utils.translation import gettext as _

from game.clubs import selectors as club_selectors
from game.models import Club, ClubPlayer
from game.realgames.stats import club_player_real_stats, club_records, season_named, season_of

T = "game/community/"


def _club_or_404(slug: str) -> Club:
    club = club_selectors.club_get(slug=slug)
    if club is None:
        raise Http404(_("No such club"))
    return club


def club_records_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The season's highest runs, best games by points per visit and every player's season (`?season=`
    names a season by its first year; the current one otherwise)."""
    club = _club_or_404(slug)
    now = timezone.now()
    season = season_named(request.GET.get("season"), now=now, zone=club.zone)
    current = season_of(now, club.zone).first_year
    seasons = [year for year in range(current, current - 5, -1)]
    return render(
        request,
        T + "club_records.html",
        {"club": club, "records": club_records(club=club, season=season), "seasons": seasons},
    )


def club_player_page(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    club = _club_or_404(slug)
    player = ClubPlayer.objects.filter(pk=player_id, club=club).select_related("user__profile").first()
    if player is None:
        raise Http404(_("No such player"))
    account = None
    if player.user is not None and hasattr(player.user, "profile"):
        account = player.user.profile.display_name
    return render(
        request,
        T + "club_player.html",
        {"club": club, "player": player, "account": account, "real": club_player_real_stats(player=player)},
    )


urlpatterns: list[URLPattern] = [
    path("clubs/<slug:slug>/records/", club_records_page, name="club_records"),
    path("clubs/<slug:slug>/players/<int:player_id>/", club_player_page, name="club_player"),
]
