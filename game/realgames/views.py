"""The scorer's page of a table (`/tables/<token>/score/`, the table's private link) and a club's
tables with their links (`/clubs/<slug>/tables/`, for the club's owner and admins). Thin: the socket
(game/realgames/consumer.py) carries the game; the page only draws what it is sent."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import URLPattern, path, reverse
from django.views.decorators.http import require_http_methods

from game.clubs import selectors as club_selectors
from game.models.realgames import ScoringTable
from game.realgames.services import free_game, game_for_table, scoring_table_add

#: The most tables a club lists (an event at the club has at most 32).
MAX_TABLES = 32
#: A player's name as the scorer types it for a game outside any event.
MAX_NAME = 40


def scorer(request: HttpRequest, token: str) -> HttpResponse:
    """GET: the scorer of the table's game; POST: start a game outside any event (two names)."""
    table = ScoringTable.objects.filter(token=token).select_related("club").first()
    if table is None:
        raise Http404("no such table")
    if request.method == "POST":
        names = tuple(" ".join(str(request.POST.get(key, "")).split())[:MAX_NAME] for key in ("first", "second"))
        if all(names):
            free_game(table=table, names=(names[0], names[1]))
        return HttpResponseRedirect(request.path)
    game = game_for_table(table)
    return render(
        request,
        "game/realgames/score.html",
        {"table": table, "game": game, "socket_path": f"/ws/tables/{table.token}/"},
    )


@require_http_methods(["GET", "POST"])
def club_tables(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's tables with each one's scorer link; the owner and admins add one more."""
    club = club_selectors.club_get(slug=slug)
    membership = None if club is None else club_selectors.club_membership(club=club, user=request.user)
    if club is None or not club_selectors.club_can_manage(membership=membership):
        raise Http404("no such club, or not its manager")
    tables = list(ScoringTable.objects.filter(club=club).order_by("number"))
    if request.method == "POST" and len(tables) < MAX_TABLES:
        number = max((t.number for t in tables), default=0) + 1
        scoring_table_add(club_id=club.pk, number=number)
        return HttpResponseRedirect(reverse("club_scoring_tables", args=[slug]))
    links = [(t, request.build_absolute_uri(reverse("table_scorer", args=[t.token]))) for t in tables]
    return render(
        request, "game/realgames/tables.html", {"club": club, "links": links, "full": len(tables) >= MAX_TABLES}
    )


urlpatterns: list[URLPattern] = [
    path("tables/<str:token>/score/", require_http_methods(["GET", "POST"])(scorer), name="table_scorer"),
    path("clubs/<slug:slug>/tables/", club_tables, name="club_scoring_tables"),
]
