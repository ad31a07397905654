"""The practice table (`/practice/`, issue 17): the page and its one JSON endpoint.

Thin: positions, codes and shots are :mod:`game.site.selectors.practice` (the engine, nothing stored); these
views read the link's position, count each request against the address's limit, and answer JSON the
page's module (`static/game/js/practice.js`) draws.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import URLPattern, path
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from game.common.ratelimit import RateLimited, rate_limit_consume
from game.engine.rules import RuleError
from game.engine.table import kaisa_table
from game.site.selectors.free_table import refused_by_rules
from game.site.selectors.practice import practice_play, practice_state, read_position, start_position

#: The balls as the page's "Put back" buttons name them (players read words, never ids).
BALL_NAMES = (
    ("white1", _("the white with one dot")),
    ("white2", _("the white with two dots")),
    ("red1", _("a red")),
    ("red2", _("a red")),
    ("kaisa", _("the kaisa")),
)


def practice(request: HttpRequest) -> HttpResponse:
    """GET /practice/?p=<code>: the table at the link's position, or at the start with why the link was
    refused (a malformed link changes nothing: the page opens anyway)."""
    code = request.GET.get("p")
    link_error = None
    position = start_position()
    if code is not None:
        read = read_position(code)
        if isinstance(read, RuleError):
            link_error = refused_by_rules(read, get_language()).error
        else:
            position = read
    return render(
        request,
        "game/practice.html",
        {
            "start": practice_state(position),
            "table": kaisa_table().as_dict(),
            "link_error": link_error,
            "ball_names": BALL_NAMES,
        },
    )


@require_POST
def practice_try(request: HttpRequest) -> JsonResponse:
    """POST /practice/play/ with a JSON body (game.site.selectors.practice.practice_play): 200 with the event to
    draw and the next position, 400 with an error code for a refused request, 429 past the address's
    limit."""
    try:
        rate_limit_consume(request, "practice_try")
    except RateLimited:
        return JsonResponse(
            {"ok": False, "error": {"code": "rate_limited", "message": "too many requests"}}, status=429
        )
    answer = practice_play(body=request.body, language=get_language())
    return JsonResponse(answer.as_dict(), status=400 if answer.error is not None else 200)


urlpatterns: list[URLPattern] = [
    path("practice/", practice, name="practice"),
    path("practice/play/", practice_try, name="practice_play"),
]
