""" "Play the computer": one click from the home page, no account needed.

A visitor without an account gets a guest user logged into the session (the same guest service the
lobby uses), a casual match against the shared bot user of the chosen level is created and started at
once, and the browser lands on the match page; the bot runner takes its turns from there.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import URLPattern, path
from django.views.decorators.http import require_POST

from game.accounts.views import player_user
from game.common.ratelimit import rate_limited
from game.matches.forms import match_error_words
from game.matches.services import MatchError, match_create
from game.realtime import fanout as realtime

DEFAULT_LEVEL = 3


def _level(raw: str | None) -> int:
    try:
        level = int(raw or DEFAULT_LEVEL)
    except ValueError:
        return DEFAULT_LEVEL
    return min(5, max(1, level))


@require_POST
@rate_limited("match_create")
def play_computer(request: HttpRequest) -> HttpResponse:
    """POST /play/computer/ (optional ``level`` 1-5, default 3) -> redirect to /m/<id>/."""
    user = player_user(request)
    try:
        match, events = match_create(
            user=user,
            rated=False,
            time_limit=None,
            shot_clock=None,
            opponent_bot_level=_level(request.POST.get("level")),
        )
    except MatchError as exc:
        messages.error(request, match_error_words(exc))
        return redirect("home")
    realtime.after_commit_sync(match.id, events)
    return redirect("match", match_id=match.id)


urlpatterns: list[URLPattern] = [
    path("play/computer/", play_computer, name="play_computer"),
]
