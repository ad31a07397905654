"""Challenges from a profile: send one, accept or decline one. The words a refusal shows are
the service's (game/lobby/services/challenges.py), translated like the lobby's (match_error_words)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import URLPattern, path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from game.common.ratelimit import rate_limited
from game.lobby.services.challenges import challenge_accept, challenge_create, challenge_decline
from game.matches.forms import match_error_words
from game.matches.services import MatchError
from game.realtime import fanout as realtime


@require_POST
@login_required
@rate_limited("match_create")
def challenge_send(request: HttpRequest, display_name: str) -> HttpResponse:
    limit = request.POST.get("time_limit", "")
    # "" is no limit; anything not a whole number becomes -1, which the service refuses (bad_value).
    time_limit = None if limit == "" else int(limit) if limit.isdigit() and len(limit) < 9 else -1
    try:
        match = challenge_create(
            user=request.user,  # type: ignore[arg-type]
            opponent_name=display_name,
            rated=request.POST.get("rated") == "on",
            time_limit=time_limit,
        )
    except MatchError as exc:
        messages.error(request, match_error_words(exc))
        return redirect(f"/players/{display_name}/")
    messages.success(request, _("Challenge sent: the match starts when %(player)s accepts.") % {"player": display_name})
    return redirect("match", match_id=match.pk)


@require_POST
@login_required
def challenge_answer(request: HttpRequest, match_id: str, answer: str) -> HttpResponse:
    try:
        if answer == "accept":
            applied = challenge_accept(match_id=match_id, user=request.user)  # type: ignore[arg-type]
        else:
            applied = challenge_decline(match_id=match_id, user=request.user)
    except MatchError as exc:
        messages.error(request, match_error_words(exc))
        return redirect("home")
    realtime.after_commit_sync(match_id, applied.events)
    if answer == "accept":
        return redirect("match", match_id=match_id)
    messages.info(request, _("Challenge declined."))
    return redirect("home")


urlpatterns: list[URLPattern] = [
    path("players/<name:display_name>/challenge/", challenge_send, name="challenge_send"),
    path("challenges/<matchid:match_id>/accept/", challenge_answer, {"answer": "accept"}, name="challenge_accept"),
    path("challenges/<matchid:match_id>/decline/", challenge_answer, {"answer": "decline"}, name="challenge_decline"),
]
