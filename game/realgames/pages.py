"""The pages that follow real games, nobody signed in: a game's live page (`/realgames/<id>/`) and the
stream overlays (OBS browser sources) of a table (`/clubs/<slug>/tables/<number>/overlay/`) and of an event's
tables (`/tournaments/<id>/overlay/`, `?tables=1,3` for some of them). Thin: `boards` reads, the
templates lay out, the page scripts follow the sockets (docs/clubs-and-events.md, "Live games and the
stream overlay").

The live page speaks its reader's language; an overlay speaks the club's, like the club's TV (it is
part of the club's stream, whatever the streaming computer's browser says).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import URLPattern, path, reverse
from django.utils import timezone, translation
from django.utils.translation import gettext, pgettext

from game.models.realgames import RealGame, ScoringTable
from game.models.tournaments import Tournament
from game.realgames import boards
from game.tournaments.visibility import require_visible

T = "game/realgames/"

#: The words of a game's status as its live page says them.
STATUS_WORDS = {
    RealGame.Status.WAITING: lambda: gettext("Not started yet"),
    RealGame.Status.PLAYING: lambda: gettext("Playing"),
    RealGame.Status.FINISHED: lambda: pgettext("real game", "Finished"),
}


def _now_ms() -> int:
    return int(timezone.now().timestamp() * 1000)


def real_game_live(request: HttpRequest, game_id: int) -> HttpResponse:
    """A real game as it is being played: its board, the clock and the last shots in words."""
    game = boards.real_game_for_page(game_id=game_id)
    if game is None:
        raise Http404("No such game")
    if game.pairing is not None:
        require_visible(request, game.pairing.tournament)  # a hidden event's game is not found
    shown = boards.board(game)
    language = translation.get_language() or "en"
    shots = [
        {**shot, "words": _said(shot.get("words"), language), "player": _player(shown["game"], shot.get("player"))}
        for shot in shown["game"]["last_shots"]
    ]
    context = {
        "game": shown["game"],
        "version": shown["version"],
        "shots": shots,
        "status_text": STATUS_WORDS[RealGame.Status(game.status)](),
        "socket_path": f"/ws/realgame/{game.pk}/",
        "now_ms": _now_ms(),
    }
    return render(request, T + "live.html", context)


def _said(words: Any, language: str) -> str:
    """A shot's words in the reader's language (the view carries them in every language)."""
    if isinstance(words, dict):
        return str(words.get(language) or words.get("en") or "")
    return str(words or "")


def _player(view: dict[str, Any], player: Any) -> str:
    """The name of a shot's player (the view names the seat)."""
    if isinstance(player, int) and 0 <= player < len(view["players"]):
        return str(view["players"][player]["name"])
    return str(player)


def _overlay(request: HttpRequest, *, language: str, context: dict[str, Any]) -> HttpResponse:
    with translation.override(language):
        context = {**context, "idle_text": gettext("No game on this table yet"), "now_ms": _now_ms()}
        template = T + ("_overlay_boards.html" if request.GET.get("part") else "overlay.html")
        response = render(request, template, context)
    response["Content-Language"] = language
    return response


def table_overlay(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """One table's game over the stream: names, scores, the current run, the clock and the round. The
    table by the club's address and its number, as a director types it into the streaming program."""
    table = ScoringTable.objects.select_related("club").filter(club__slug=slug, number=number).first()
    if table is None:
        raise Http404("No such table")
    context = {
        "title": f"{table.club.name} · {table.name or table.number}",
        "boards": boards.table_boards(table=table, user=request.user, session=getattr(request, "session", None)),
        "socket_path": f"/ws/realtable/{table.pk}/",
        "parts_url": reverse("real_table_overlay", args=[slug, number]) + "?part=1",
        "layout": "table",
    }
    return _overlay(request, language=table.club.language, context=context)


def table_numbers(raw: str | None) -> list[int] | None:
    """`?tables=1,3`: the table numbers asked for (at most the overlay's tables), None for all; what is
    not a table number is left out, never an error (an OBS source's address is typed by hand)."""
    if not raw:
        return None
    numbers = [int(part) for part in raw.split(",") if part.strip().isdigit() and 0 < int(part) < 100]
    return sorted(set(numbers))[: boards.OVERLAY_TABLES] or None


def event_overlay(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """An event's tables over the stream, several in one layout (`?tables=1,3` for some of them)."""
    tournament = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404("No such tournament")
    require_visible(request, tournament)  # `?k=<secret>` in the source's address for a link-only event
    numbers = table_numbers(request.GET.get("tables"))
    query = f"?tables={','.join(map(str, numbers))}&part=1" if numbers else "?part=1"
    context = {
        "title": tournament.name,
        "boards": boards.event_boards(tournament=tournament, numbers=numbers),
        "socket_path": f"/ws/realevent/{tournament.pk}/",
        "parts_url": reverse("real_event_overlay", args=[tournament.pk]) + query,
        "layout": "event",
    }
    return _overlay(request, language=tournament.club.language, context=context)


urlpatterns: list[URLPattern] = [
    path("realgames/<int:game_id>/", real_game_live, name="real_game_live"),
    path("clubs/<slug:slug>/tables/<int:number>/overlay/", table_overlay, name="real_table_overlay"),
    path("tournaments/<int:tournament_id>/overlay/", event_overlay, name="real_event_overlay"),
]
