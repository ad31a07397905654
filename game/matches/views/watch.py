"""The Watch page (the live matches, polled by watch.js) and the replays of finished matches."""

from __future__ import annotations

import json

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import URLPattern, path
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from game.chat.selectors import chat_for_replay
from game.engine.table import kaisa_table
from game.matches.selectors import live as live_selectors
from game.matches.selectors import replays as replay_selectors
from game.models import Match

T = "game/community/"


# --- Live -----------------------------------------------------------------------------------------


def watch(request: HttpRequest) -> HttpResponse:
    live = live_selectors.live_matches()
    featured = {**live[0], "table": kaisa_table().as_dict()} if live else None
    return render(request, T + "watch.html", {"live": live, "featured": featured})


@never_cache
@require_GET
def watch_json(request: HttpRequest) -> JsonResponse:
    """What watch.js polls: the live list, small and uncached."""
    return JsonResponse({"matches": live_selectors.live_matches()})


# --- Replays --------------------------------------------------------------------------------------


def _replayable(match_id: str) -> Match:
    match = get_object_or_404(
        Match.objects.select_related("player1__profile", "player2__profile", "winner__profile", "club"), pk=match_id
    )
    if match.status not in replay_selectors.REPLAYABLE:
        raise Http404(_("This match is not over yet: watch it live instead."))
    return match


def replay(request: HttpRequest, match_id: str) -> HttpResponse:
    match = _replayable(match_id)
    steps = replay_selectors.match_replay_steps(match=match, language=translation.get_language() or "en")
    return render(
        request,
        T + "replay.html",
        {
            "match": match,
            "replay": steps,
            "table": kaisa_table().as_dict(),
            "shots": len(steps["steps"]),
            "chat": chat_for_replay(match=match),
        },
    )


@require_GET
def replay_json(request: HttpRequest, match_id: str) -> HttpResponse:
    """The input record as a download (Content-Disposition), named after the match."""
    match = _replayable(match_id)
    record = replay_selectors.match_replay_record(match=match)
    response = HttpResponse(json.dumps(record, indent=1, sort_keys=True), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="kaiza-{match.pk}.json"'
    return response


urlpatterns: list[URLPattern] = [
    path("watch/", watch, name="watch"),
    path("watch.json", watch_json, name="watch_json"),
    path("m/<matchid:match_id>/replay/", replay, name="replay"),
    path("m/<matchid:match_id>/replay.json", replay_json, name="replay_json"),
]
