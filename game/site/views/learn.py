"""The first-game tutorial (`/learn/`): the page, one try of a step, and "done".

Thin: the steps and the judging of a try are :mod:`game.site.selectors.tutorial` (the engine, nothing stored);
these views parse the request, count the try against the address's limit, and answer JSON the page's
module (`static/game/js/pages/learn.js`) draws. The session remembers only that the visitor finished or
dismissed the tutorial, so the home page stops offering it.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path
from django.utils.translation import get_language
from django.views.decorators.http import require_POST

from game.common.ratelimit import RateLimited, rate_limit_consume
from game.engine.physics.aim import table_for_client
from game.engine.table import kaisa_table
from game.site.selectors.tutorial import STEP_IDS, tutorial_steps, tutorial_try

#: The session key, and its values: the home page offers the tutorial while it is unset.
TUTORIAL_SESSION_KEY = "kaiza_tutorial"
TUTORIAL_ENDINGS = ("finished", "dismissed")


def tutorial_offered(request: HttpRequest) -> bool:
    """Whether the home page offers the tutorial: until this visitor finished or dismissed it."""
    return request.session.get(TUTORIAL_SESSION_KEY) not in TUTORIAL_ENDINGS


def learn(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "game/learn.html",
        {"steps": tutorial_steps(), "step_ids": STEP_IDS, "table": table_for_client(kaisa_table())},
    )


@require_POST
def learn_try(request: HttpRequest, step_id: str) -> JsonResponse:
    """POST /learn/<step>/try/ with a JSON body (game.site.selectors.tutorial.tutorial_try): 200 with the event
    to draw and the outcome, 400 with an error code for a refused try, 429 past the address's limit."""
    try:
        rate_limit_consume(request, "tutorial_try")
    except RateLimited:
        return JsonResponse({"ok": False, "error": {"code": "rate_limited", "message": "too many tries"}}, status=429)
    answer = tutorial_try(step_id=step_id, body=request.body, language=get_language())
    return JsonResponse(answer.as_dict(), status=400 if answer.error is not None else 200)


@require_POST
def learn_done(request: HttpRequest) -> HttpResponse:
    """POST /learn/done/ (``how``: finished or dismissed): the home page stops offering the tutorial.
    The page's module posts it when the last step is passed; the home page's "No thanks" posts a form."""
    how = request.POST.get("how", "finished")
    request.session[TUTORIAL_SESSION_KEY] = how if how in TUTORIAL_ENDINGS else "finished"
    if request.headers.get("Accept", "").startswith("application/json"):
        return JsonResponse({"ok": True})
    return redirect("home")


urlpatterns: list[URLPattern] = [
    path("learn/", learn, name="learn"),
    path("learn/done/", learn_done, name="learn_done"),
    path("learn/<slug:step_id>/try/", learn_try, name="learn_try"),
]
