"""The Watch page (the live matches, polled by watch.js) and the replays of finished matches."""

from __future__ import annotations

import json
import logging
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from asgiref.sync import sync_to_async
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path, reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from game.chat.selectors import chat_for_replay
from game.common.engine_questions import QuestionRefused, busy_words, engine_question, refusal_response
from game.common.ratelimit import asker_keys
from game.engine.analysis import AnalysisError, motion_in_record
from game.matches.forms import match_error_words
from game.matches.selectors import analysis as analysis_selectors
from game.matches.selectors import live as live_selectors
from game.matches.selectors import replays as replay_selectors
from game.matches.selectors.match_state import match_table
from game.matches.services import MatchError, analysis_request, analysis_store_motion, match_exhibition_ensure
from game.models import Match
from game.site.views.play import require_match_visible

T = "game/community/"
logger = logging.getLogger(__name__)


# --- Live -----------------------------------------------------------------------------------------


def _live_or_exhibition(viewer: Any) -> list[dict[str, Any]]:
    """The live matches this viewer's lists show; when there are none, a computer exhibition is started
    (when the site shows one, settings.KAIZA_SHOWCASE) so that the Watch page always has a match to watch."""
    live = live_selectors.live_matches(viewer=viewer)
    if not live and match_exhibition_ensure() is not None:
        live = live_selectors.live_matches(viewer=viewer)
    return live


def watch(request: HttpRequest) -> HttpResponse:
    live = _live_or_exhibition(request.user)
    featured = live_selectors.with_table(live[0]) if live else None
    return render(request, T + "watch.html", {"live": live, "featured": featured})


@never_cache
@require_GET
def watch_json(request: HttpRequest) -> JsonResponse:
    """What watch.js polls: the live list, small and uncached (and the next exhibition once one ends)."""
    return JsonResponse({"matches": _live_or_exhibition(request.user)})


# --- Replays --------------------------------------------------------------------------------------


def _replayable(request: HttpRequest, match_id: str) -> Match:
    match = get_object_or_404(
        Match.objects.select_related("player1__profile", "player2__profile", "winner__profile", "club"), pk=match_id
    )
    require_match_visible(request, match_id)
    if match.status not in replay_selectors.REPLAYABLE:
        raise Http404(_("This match is not over yet: watch it live instead."))
    return match


def replay(request: HttpRequest, match_id: str) -> HttpResponse:
    match = _replayable(request, match_id)
    language = translation.get_language() or "en"
    steps = replay_selectors.match_replay_steps(match=match, language=language)
    analysis = analysis_selectors.match_analysis_view(match=match, language=language, steps=steps["steps"])
    by_seq = (analysis or {}).get("by_seq") or {}
    for step in steps["steps"]:
        step["analysis"] = by_seq.get(step["seq"])
    return render(
        request,
        T + "replay.html",
        {
            "match": match,
            "replay": steps,
            "table": match_table(match=match).as_dict(),
            "shots": len(steps["steps"]),
            "chat": chat_for_replay(match=match),
            "analysis": analysis,
        },
    )


@require_GET
def replay_json(request: HttpRequest, match_id: str) -> HttpResponse:
    """The input record as a download (Content-Disposition), named after the match."""
    match = _replayable(request, match_id)
    record = replay_selectors.match_replay_record(match=match)
    response = HttpResponse(json.dumps(record, indent=1, sort_keys=True), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="kaiza-{match.pk}.json"'
    return response


# --- Shot analysis --------------------------------------------------------------------------------


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@require_POST
def analyse(request: HttpRequest, match_id: str) -> HttpResponse:
    """ "Analyse" on the end card and the replay page: the analysis asked for (once per match, however
    many ask). A form's post is sent to the replay page, which shows its progress live; the end card's
    script asks for JSON (``Accept: application/json``) and is answered the status and progress, then
    follows the match socket's ``analysis`` messages on the card. A refusal (a visitor without an
    account, an unfinished match, too many analyses waiting) is said in words (on the page, or as the
    JSON's ``error`` with 400); nothing is stored."""
    match = get_object_or_404(Match, pk=match_id)
    require_match_visible(request, match_id)
    try:
        requested = analysis_request(match_id=match.pk, user=request.user)
    except MatchError as exc:
        if _wants_json(request):
            return JsonResponse({"code": exc.code, "error": match_error_words(exc)}, status=400)
        messages.error(request, match_error_words(exc))
        if match.status not in replay_selectors.REPLAYABLE:
            return redirect("match", match_id=match.pk)
        return redirect(reverse("replay", args=[match.pk]) + "#analysis")
    if _wants_json(request):
        analysis = requested.analysis
        return JsonResponse(
            {
                "status": analysis.status,
                "done": analysis.done_shots,
                "total": analysis.total_shots,
                "replay": reverse("replay", args=[match.pk]) + "#analysis",
            }
        )
    return redirect(reverse("replay", args=[match.pk]) + "#analysis")


@never_cache
@require_GET
def analysis_json(request: HttpRequest, match_id: str) -> JsonResponse:
    """The analysis's status and progress (the replay page asks once when its socket opens)."""
    match = get_object_or_404(Match, pk=match_id)
    require_match_visible(request, match_id)
    view = analysis_selectors.match_analysis_view(match=match) or {"status": None, "done": 0, "total": 0}
    return JsonResponse({"status": view["status"], "done": view["done"], "total": view["total"]})


#: Longest wait for the engine pool to make an older analysis's engine shot (s): the match replayed to
#: that shot and the shot played once, well under a second of work when the pool is free.
MOTION_TIMEOUT = 20.0


@require_GET
async def engine_shot_json(request: HttpRequest, match_id: str, seq: int) -> JsonResponse:
    """The engine's best shot beside stored shot ``seq`` (call, strike, exact motion segments): the
    replay page draws and plays what this sends and never simulates. An analysis stored before the
    motions were kept has none: the motion is made in the engine pool when first asked (the match
    replayed to that shot, CPU work the event loop never does), stored, and sent. Making it is a
    person's question like "Ask the engine" and is admitted as one (game.common.engine_questions: one
    in flight per person and per address, a bounded queue): 409 or 503 at once with the words and the
    ``code``, kept out of the server's log. 404 with words when there is none (not analysed yet, not an
    analysed shot, a shot the rules refuse to play again), 503 when the engine could not answer in time."""
    match = await sync_to_async(_replayable)(request, match_id)
    language = translation.get_language() or "en"
    shot = await sync_to_async(analysis_selectors.engine_shot)(match=match, seq=seq, language=language)
    if shot is None:
        wanted = await sync_to_async(analysis_selectors.engine_shot_wanted)(match=match, seq=seq)
        if wanted is not None:
            askers = await sync_to_async(asker_keys)(request)
            record = await sync_to_async(replay_selectors.match_replay_record)(match=match)
            try:
                motion = await engine_question(
                    motion_in_record,
                    record,
                    wanted.index,
                    wanted.call,
                    wanted.strike,
                    askers=askers,
                    timeout=MOTION_TIMEOUT,
                )
            except QuestionRefused as refused:
                answer = JsonResponse({"error": refused.message, "code": refused.code}, status=refused.status)
                return refusal_response(request, answer)
            except (TimeoutError, BrokenProcessPool, AnalysisError) as exc:
                logger.warning("no engine shot made for match %s shot %s: %r", match.pk, seq, exc)
                return JsonResponse({"error": busy_words()}, status=503)
            store = sync_to_async(analysis_store_motion)
            await store(analysis_id=wanted.analysis_id, index=wanted.index, motion=motion)
            shot = await sync_to_async(analysis_selectors.engine_shot)(match=match, seq=seq, language=language)
    if shot is None:
        return JsonResponse({"error": _("The engine's shot is not there for this shot.")}, status=404)
    return JsonResponse(shot)


urlpatterns: list[URLPattern] = [
    path("watch/", watch, name="watch"),
    path("watch.json", watch_json, name="watch_json"),
    path("m/<matchid:match_id>/replay/", replay, name="replay"),
    path("m/<matchid:match_id>/replay.json", replay_json, name="replay_json"),
    path("m/<matchid:match_id>/analysis/", analyse, name="analyse"),
    path("m/<matchid:match_id>/analysis.json", analysis_json, name="analysis_json"),
    path("m/<matchid:match_id>/analysis/shot/<int:seq>.json", engine_shot_json, name="engine_shot_json"),
]
