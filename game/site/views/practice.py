"""The practice table (`/practice/`): the page and its one JSON endpoint.

Thin: positions, codes and shots are :mod:`game.practice.selectors.positions` (the engine, nothing stored); these
views read the link's position, count each request against the address's limit, and answer JSON the
page's module (`static/game/js/pages/practice.js`) draws.
"""

from __future__ import annotations

import logging
from concurrent.futures.process import BrokenProcessPool

from asgiref.sync import sync_to_async
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import URLPattern, path
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from game.common.engine_questions import QuestionRefused, busy_words, engine_question, refusal_response
from game.common.ratelimit import RateLimited, asker_keys, rate_limit_consume
from game.engine.analysis import STROKE_NOISE, engine_board
from game.engine.physics.aim import table_for_client
from game.engine.rules import RuleError
from game.engine.table import kaisa_table
from game.practice.selectors.free_table import TableAnswer, refused_by_rules
from game.practice.selectors.positions import practice_play, practice_state, read_position, start_position
from game.site.selectors.engine_board import board_reply, keep_answer, kept_answer, read_question

logger = logging.getLogger(__name__)

#: Longest wait for the engine's answer on the board (s): a question takes 1-3 s on a slow host, and
#: the queue it may wait in is short (game.common.engine_pool.ask_engine refuses past it at once); the
#: computer players' moves go first and can add some.
ASK_TIMEOUT = 30.0

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
            "table": table_for_client(kaisa_table()),
            "link_error": link_error,
            "ball_names": BALL_NAMES,
            "noise": {
                "angle_mrad": f"{STROKE_NOISE.angle * 1000:g}",
                "speed_percent": f"{STROKE_NOISE.speed * 100:g}",
                "tip_percent": f"{STROKE_NOISE.tip * 100:g}",
            },
        },
    )


@require_POST
def practice_try(request: HttpRequest) -> JsonResponse:
    """POST /practice/play/ with a JSON body (game.practice.selectors.positions.practice_play): 200 with the event to
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


def _asked(request: HttpRequest) -> list[str]:
    """Count the question against the limits per minute (RateLimited past them) and say who asks."""
    rate_limit_consume(request, "practice_ask")
    return asker_keys(request)


def _refused(code: str, message: str, status: int, **extra: object) -> JsonResponse:
    return JsonResponse({"ok": False, "error": {"code": code, "message": message, **extra}}, status=status)


@require_POST
async def practice_ask(request: HttpRequest) -> JsonResponse:
    """POST /practice/ask/ with ``{"position": code}``: the analysis board's answer,
    the engine's three best shots (game.site.selectors.engine_board), searched in the engine pool so the
    server's loop never waits on it; 400 with the reason for a refused question, 429 past the limits
    per minute, 409 while the same person or address waits for an answer already, 503 at once when the
    engine's queue is full (with how many are ahead) or when it could not answer in time; the refusals
    said in the reader's language (game.common.engine_questions). Nothing is stored. The refusals of the
    limits and of the queue are normal operation under a flood: they stay out of the server's log."""
    try:
        askers = await sync_to_async(_asked)(request)
    except RateLimited:
        return refusal_response(request, _refused("rate_limited", "too many requests", 429))
    language = get_language()
    question = read_question(request.body, language)
    if isinstance(question, TableAnswer):
        return JsonResponse(question.as_dict(), status=400)
    answer = kept_answer(question.code)
    if answer is None:
        try:
            answer = await engine_question(engine_board, question.snapshot(), askers=askers, timeout=ASK_TIMEOUT)
        except QuestionRefused as refused:
            return refusal_response(request, _refused(refused.code, refused.message, refused.status, **refused.extra))
        except (TimeoutError, BrokenProcessPool) as exc:
            logger.warning("the analysis board got no answer for %s: %r", question.code, exc)
            return _refused("engine_busy", busy_words(), 503)
        keep_answer(question.code, answer)
    return JsonResponse(board_reply(question, answer, language))


urlpatterns: list[URLPattern] = [
    path("practice/", practice, name="practice"),
    path("practice/play/", practice_try, name="practice_play"),
    path("practice/ask/", practice_ask, name="practice_ask"),
]
