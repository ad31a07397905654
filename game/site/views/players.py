"""The players' pages: the global leaderboard and a player's profile (stats, rating chart, recent and
live matches, clubs, the challenge form). A page of the site that reads several domains' public reads."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import URLPattern, path
from django.utils.translation import gettext as _

from game.accounts import selectors as player_selectors
from game.clubs import selectors as club_selectors
from game.matches.selectors import live as live_selectors
from game.realgames.stats import account_real_stats
from game.site.views.play import seek_time_limit_choices

T = "game/community/"


# --- Leaderboard and profiles ---------------------------------------------------------------------


def leaderboard(request: HttpRequest) -> HttpResponse:
    page = player_selectors.leaderboard_global(page=request.GET.get("page"))
    return render(
        request,
        T + "leaderboard.html",
        {
            "page": page,
            "min_games": player_selectors.LEADERBOARD_MIN_RATED_GAMES,
            "active_days": player_selectors.LEADERBOARD_ACTIVE_DAYS,
        },
    )


def player(request: HttpRequest, display_name: str) -> HttpResponse:
    profile = player_selectors.player_get(display_name=display_name)
    if profile is None:
        raise Http404(_("No such player"))
    history = player_selectors.player_rating_history(user=profile.user)
    return render(
        request,
        T + "player.html",
        {
            "profile": profile,
            "stats": player_selectors.player_stats(profile=profile),
            "chart": player_selectors.rating_chart(history=history),
            "recent": player_selectors.player_recent_matches(user=profile.user, viewer=request.user),
            "challenge_time_limits": seek_time_limit_choices(),
            "clubs": club_selectors.clubs_for_user(user=profile.user),
            "real": account_real_stats(user=profile.user),
            "live": [
                m
                for m in live_selectors.live_matches(viewer=request.user)
                if profile.display_name in (m["players"][0]["name"], m["players"][1]["name"])
            ],
        },
    )


urlpatterns: list[URLPattern] = [
    path("leaderboard/", leaderboard, name="leaderboard"),
    path("players/<name:display_name>/", player, name="player"),
]
