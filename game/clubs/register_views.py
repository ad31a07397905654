"""A club's player register pages: the players with what they did at the club's events, the names
the walk-in field suggests as the director types, and joining a player to an account (every event
the player played becomes the account's). Thin: reads are game.clubs.selectors, the join is the
tournaments' (game.tournaments.services `club_player_link`)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from game.accounts.selectors import account_named
from game.clubs import selectors as club_selectors
from game.models import Club, ClubPlayer
from game.tournaments.services import TournamentError, club_player_link

T = "game/community/"


def _club_or_404(slug: str) -> Club:
    club = club_selectors.club_get(slug=slug)
    if club is None:
        raise Http404(_("No such club"))
    return club


def _manages(request: HttpRequest, club: Club) -> bool:
    return club_selectors.club_can_manage(membership=club_selectors.club_membership(club=club, user=request.user))


def club_players(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club_or_404(slug)
    return render(
        request,
        T + "players.html",
        {"club": club, "players": club_selectors.club_register(club=club), "can_manage": _manages(request, club)},
    )


@login_required
def club_players_search(request: HttpRequest, slug: str) -> HttpResponse:
    """The register's names holding what the director has typed (JSON: `players`, each `name` and
    `account`), for the walk-in field's suggestions."""
    club = _club_or_404(slug)
    if not _manages(request, club):
        return JsonResponse({"players": []}, status=403)
    query = request.GET.get("q", "")[:80]
    return JsonResponse({"players": club_selectors.club_players_search(club=club, query=query)})


@login_required
@require_POST
def club_player_join(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    club = _club_or_404(slug)
    if not ClubPlayer.objects.filter(pk=player_id, club=club).exists():
        raise Http404(_("No such player"))
    account = account_named(named=request.POST.get("account", ""))
    try:
        club_player_link(user=request.user, player_id=player_id, account=account)
    except TournamentError as error:
        if error.forbidden:
            return render(
                request,
                "game/community/forbidden.html",
                {"message": error.words(_), "back": f"/clubs/{club.slug}/players/"},
                status=403,
            )
        messages.error(request, error.words(_))
    else:
        messages.success(request, _("The player is joined to the account, with every event they played."))
    return redirect("club_players", slug=club.slug)


urlpatterns: list[URLPattern] = [
    path("clubs/<slug:slug>/players/", club_players, name="club_players"),
    path("clubs/<slug:slug>/players/search/", club_players_search, name="club_players_search"),
    path("clubs/<slug:slug>/players/<int:player_id>/join/", club_player_join, name="club_player_join"),
]
