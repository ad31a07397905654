"""The puzzle pages: the daily puzzle, one puzzle by its number, the streak, and the
one JSON endpoint an answer is posted to.

Thin: each page serves the puzzle to its viewer (game.puzzles.services.puzzle_serve, the token the
answer must carry) and renders the position for static/game/js/pages/puzzle.js, the free table's client; the
answer endpoint counts the request against the address's limit and hands the body to
``puzzle_answer``. A guest (no account, or a guest account) solves without a rating.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.views.decorators.http import require_POST

from game.common.ratelimit import RateLimited, rate_limit_consume
from game.engine.physics.aim import table_for_client
from game.engine.table import kaisa_table
from game.models import Puzzle, PuzzleServing
from game.puzzles.selectors import (
    Viewer,
    daily_puzzle,
    next_streak_puzzle,
    puzzle_practice_code,
    puzzle_rating_of,
    puzzle_start,
    puzzle_themes,
    streak_after,
    viewer_for,
)
from game.puzzles.services import puzzle_answer, puzzle_serve


def _viewer(request: HttpRequest) -> Viewer:
    """The request's viewer; a visitor without a session gets one, so his serving is his own."""
    if not request.user.is_authenticated and not request.session.session_key:
        request.session.save()
    return viewer_for(user=request.user, session_key=request.session.session_key)


def _page(request: HttpRequest, puzzle: Puzzle | None, viewer: Viewer, mode: str, streak: int = 0) -> HttpResponse:
    serving = puzzle_serve(puzzle=puzzle, viewer=viewer, mode=mode, streak=streak) if puzzle is not None else None
    rating = puzzle_rating_of(viewer=viewer)
    context: dict[str, Any] = {
        "puzzle": puzzle,
        "mode": mode,
        "streak": streak,
        "rating": round(rating.rating) if rating is not None else None,
        "signed_in": viewer.signed_in,
        # With no puzzle to serve: whether the viewer solved them all or there are none at all.
        "puzzles_exist": puzzle is not None or Puzzle.objects.exists(),
    }
    if puzzle is not None and serving is not None:
        context.update(
            {
                "themes": puzzle_themes(puzzle=puzzle),
                "practice_url": f"{reverse('practice')}?p={puzzle_practice_code(puzzle=puzzle)}",
                "start": {**puzzle_start(puzzle=puzzle), "token": serving.token},
                "table": table_for_client(kaisa_table()),
                "next_url": reverse("puzzle_streak") if mode == PuzzleServing.Mode.STREAK else None,
            }
        )
    return render(request, "game/puzzle.html", context)


def puzzle_daily(request: HttpRequest) -> HttpResponse:
    """GET /puzzles/: the day's puzzle (the same for everyone all day)."""
    viewer = _viewer(request)
    return _page(request, daily_puzzle(day=timezone.localdate()), viewer, PuzzleServing.Mode.DAILY)


def puzzle_one(request: HttpRequest, puzzle_id: int) -> HttpResponse:
    """GET /puzzles/<n>/: one puzzle."""
    puzzle = Puzzle.objects.filter(pk=puzzle_id).first()
    if puzzle is None:
        raise Http404("no such puzzle")
    return _page(request, puzzle, _viewer(request), PuzzleServing.Mode.SINGLE)


def puzzle_streak(request: HttpRequest) -> HttpResponse:
    """GET /puzzles/streak/[?after=<token>]: the next puzzle of a streak. The count goes on from the
    viewer's own solved serving named by ``after`` (anything else starts again at 0), so nobody can
    claim a streak he did not solve."""
    viewer = _viewer(request)
    streak = streak_after(viewer=viewer, token=request.GET.get("after"))
    puzzle = next_streak_puzzle(viewer=viewer, rating=puzzle_rating_of(viewer=viewer))
    return _page(request, puzzle, viewer, PuzzleServing.Mode.STREAK, streak)


@require_POST
def puzzle_try(request: HttpRequest) -> JsonResponse:
    """POST /puzzles/answer/ with a JSON body (game.puzzles.services.puzzle_answer): 200 with the shot
    to draw and the verdict, 400 with an error in words for a refused answer, 429 past the limit."""
    try:
        rate_limit_consume(request, "puzzle_answer")
    except RateLimited:
        return JsonResponse(
            {"ok": False, "error": {"code": "rate_limited", "message": "too many requests"}}, status=429
        )
    answer = puzzle_answer(viewer=_viewer(request), body=request.body, language=get_language())
    return JsonResponse(answer.as_dict(), status=400 if answer.error is not None else 200)


urlpatterns: list[URLPattern] = [
    path("puzzles/", puzzle_daily, name="puzzle_daily"),
    path("puzzles/streak/", puzzle_streak, name="puzzle_streak"),
    path("puzzles/answer/", puzzle_try, name="puzzle_answer"),
    path("puzzles/<int:puzzle_id>/", puzzle_one, name="puzzle"),
]
