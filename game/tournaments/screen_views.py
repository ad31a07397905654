"""The screens of an event at a club that nobody signs in to: the TV page (the tables, the draw, the
latest results and the standings on one screen) and the wall chart to print. Both speak the club's
language (`Club.language`), whatever the browser asks for, and the club's time zone (the site's
middleware, game/clubs/time_zone.py). Thin: the selectors read, the templates lay out.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import URLPattern, path
from django.utils import timezone, translation

from game.models.tournaments import Tournament
from game.tournaments.selectors import tournaments as selectors
from game.tournaments.selectors.chart import wall_chart
from game.tournaments.selectors.club import latest_results, tables_view
from game.tournaments.selectors.tournaments import tournament_summary
from game.tournaments.visibility import require_visible

T = "game/tournaments/"


#: Seconds a TV page shows a page of a section that has more rows than room, before the next.
TV_PAGE_SECONDS = 12


def _tv_context(tournament: Tournament) -> dict[str, Any]:
    summary = tournament_summary(tournament=tournament)
    draw = selectors.draw_view(tournament=tournament)
    tables = tables_view(tournament=tournament)
    return {
        "tournament": tournament,
        "summary": summary,
        "tables": tables,
        "in_progress": [] if tables else _in_progress(tournament, draw),
        "chart": wall_chart(tournament=tournament),
        "draw": draw,
        "results": latest_results(tournament=tournament),
        "standings": selectors.standings(tournament=tournament),
        "bracket": tournament.format in selectors.ELIMINATIONS,
        "swiss": tournament.format == Tournament.Format.SWISS,
        "limit_minutes": summary["clock"]["minutes"],
        "now_ms": int(timezone.now().timestamp() * 1000),  # the table clocks are wall-clock records
        "page_seconds": TV_PAGE_SECONDS,
    }


def _in_progress(tournament: Tournament, draw: dict[str, Any] | None) -> list[dict[str, Any]]:
    """An online event's games being played (a drawn one's, or the current round's), live scores."""
    if draw is not None:
        return list(draw["in_progress"])
    current = selectors.current_round(tournament=tournament)
    return [p for p in (current or {}).get("pairings", []) if not p["done"] and p["second"]]


def tournament_tv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """An event on a club's TV: the tables in play, the draw, the latest results and the standings
    on one screen without the site's menu, in the club's language (nobody signs in to a TV, and
    its browser's language is whatever the set came with). `?part=1` is the screen's changing part,
    fetched again when the tournament socket says so."""
    tournament = Tournament.objects.select_related("club", "winner").filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404("No such tournament")
    require_visible(request, tournament)
    language = tournament.club.language
    with translation.override(language):
        template = T + ("_tv_parts.html" if request.GET.get("part") else "tv.html")
        response = render(request, template, _tv_context(tournament))
    response["Content-Language"] = language
    return response


#: The paper sizes the wall chart prints on (its print CSS names a page for each; A4 unless asked).
CHART_PAPERS = ("a4", "a3")


def tournament_chart(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The wall chart of a drawn event to print (A4 or A3 landscape, `?paper=a3`): the whole draw so
    far, a line per player and a column per round, and at the end the placings with every tie-break;
    in the club's language, like the TV (it hangs on the club's wall). Other formats have no chart."""
    tournament = Tournament.objects.select_related("club", "winner").filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404("No such tournament")
    require_visible(request, tournament)
    language = tournament.club.language
    with translation.override(language):
        chart = wall_chart(tournament=tournament)
        if chart is None:
            raise Http404("This tournament has no draw to chart")
        paper = request.GET.get("paper", "a4")
        context = {
            "tournament": tournament,
            "summary": tournament_summary(tournament=tournament),
            "chart": chart,
            "draw": selectors.draw_view(tournament=tournament),
            "standings": selectors.standings(tournament=tournament),
            "paper": paper if paper in CHART_PAPERS else "a4",
            "printed_at": timezone.now(),
        }
        response = render(request, T + "chart.html", context)
    response["Content-Language"] = language
    return response


urlpatterns: list[URLPattern] = [
    path("tournaments/<int:tournament_id>/tv/", tournament_tv, name="tournament_tv"),
    path("tournaments/<int:tournament_id>/chart/", tournament_chart, name="tournament_chart"),
]
