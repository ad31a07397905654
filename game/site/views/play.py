"""Lobby and match pages: thin views over services (writes) and selectors (reads).

They are the site's, not the matches': a page composes several domains (the player's clubs, the
team forms, quick pairing's time limits, the chat's phrases) around the match, and the match code
imports none of those (tests/architecture/test_packages.py).

A visitor without an account who creates or joins a casual match is given a guest user on the spot
and logged in (`game.accounts.views.player_user`), so playing a friend takes one click; signing up
later converts that same user. Creating and joining are rate-limited (game/common/ratelimit.py).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.functional import Promise
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from game.accounts.services import profile_ensure
from game.accounts.views import player_user
from game.chat.phrases import phrase_words
from game.clubs.selectors import club_get, clubs_for_user
from game.common.forms import WholeNumberField
from game.common.ratelimit import rate_limited
from game.engine.physics.aim import table_for_client
from game.lobby.services import SEEK_TIME_LIMITS
from game.matches.forms import EventClockForm, legacy_time_limit, match_error_words
from game.matches.selectors.match_state import match_table
from game.matches.selectors.matches import (
    computer_level_against,
    match_get,
    match_open_list,
    match_role,
    match_visible,
    matches_in_progress_for,
)
from game.matches.services import MatchError, match_cancel, match_create, match_join
from game.realtime import fanout as realtime
from game.realtime import protocol
from game.teams.selectors import TEAM_SIZES, team_info
from game.teams.services import team_match_join, team_match_open

BOT_CHOICES: list[tuple[str, str | Promise]] = [("human", gettext_lazy("A person (invite link or the open list)"))] + [
    (str(level), format_lazy(gettext_lazy("Computer, level {level}"), level=level)) for level in range(1, 6)
]


#: 1 vs 1, or a team match (2 vs 2 to 4 vs 4, the sizes the engine allows).
TEAM_SIZE_CHOICES = [(n, format_lazy(gettext_lazy("{n} vs {n}"), n=n)) for n in (1, *TEAM_SIZES)]


class CreateMatchForm(EventClockForm):
    rated = forms.BooleanField(required=False, label=gettext_lazy("Rated"), help_text=gettext_lazy("needs an account"))
    shot_clock = WholeNumberField(
        required=False,
        min_value=5,
        max_value=600,
        label=gettext_lazy("Shot clock (seconds)"),
        help_text=gettext_lazy("the seconds each shot may take; leave it empty for no shot clock"),
    )
    opponent = forms.ChoiceField(choices=BOT_CHOICES, initial="human", label=gettext_lazy("Opponent"))
    team_size = forms.TypedChoiceField(
        choices=TEAM_SIZE_CHOICES,
        coerce=int,
        initial=1,
        required=False,
        empty_value=None,
        label=gettext_lazy("Players per side"),
    )
    #: A club's slug: the match counts for that club (its members only). Free text here, the
    #: service checks the membership, so a forged value gets the same clear refusal.
    club = forms.CharField(required=False, max_length=64, label=gettext_lazy("Club"))


def lobby(request: HttpRequest) -> HttpResponse:
    is_guest = False
    if request.user.is_authenticated:
        is_guest = profile_ensure(user=request.user).is_guest
    return render(
        request,
        "game/lobby.html",
        {
            "form": CreateMatchForm(),
            "open_matches": match_open_list(),
            "is_guest": is_guest,
            "in_progress": matches_in_progress_for(user=request.user),
            "seek_time_limits": seek_time_limit_choices(),
            "clubs": clubs_for_user(user=request.user),
        },
    )


def seek_time_limit_choices() -> list[tuple[int | None, str]]:
    """Quick pairing's time limits (game/lobby/services/seeks.py decides which) in the reader's words."""
    return [
        (
            limit,
            _("No time limit")
            if limit is None
            else _("%(minutes)s minutes (the Kaisa rules)") % {"minutes": limit // 60},
        )
        for limit in SEEK_TIME_LIMITS
    ]


@require_POST
@rate_limited("match_create")
def lobby_create(request: HttpRequest) -> HttpResponse:
    form = CreateMatchForm(request.POST)
    if not form.is_valid():
        labels = {name: field.label or name for name, field in form.fields.items()}
        problems = (
            f"{labels[k]}: {' '.join(str(e) for e in v)}" if k in labels else " ".join(str(e) for e in v)
            for k, v in form.errors.items()
        )
        messages.error(request, "; ".join(problems))
        return redirect("lobby")
    data = form.cleaned_data
    if data["rated"] and not request.user.is_authenticated:
        messages.error(request, _("Rated matches need an account: sign up or log in first."))
        return redirect("lobby")
    opponent = data["opponent"]
    club = None
    if data["club"]:
        club = club_get(slug=data["club"])
        if club is None:
            messages.error(request, _("There is no such club."))
            return redirect("lobby")
        if opponent != "human" or (data["team_size"] and data["team_size"] > 1):
            messages.error(request, _("A club match is one person against another."))
            return redirect("lobby")
    if data["team_size"] and data["team_size"] > 1:
        return _team_create(request, data)
    user = player_user(request)
    try:
        match, events = match_create(
            user=user,
            rated=bool(data["rated"]),
            time_limit=legacy_time_limit(data),
            clock=data["clock"],
            shot_clock=data["shot_clock"],
            club=club,
            opponent_bot_level=None if opponent == "human" else int(opponent),
        )
    except MatchError as exc:
        messages.error(request, match_error_words(exc))
        return redirect("lobby")
    realtime.after_commit_sync(match.id, events, lobby=opponent == "human")
    return redirect("match", match_id=match.id)


def _team_create(request: HttpRequest, data: dict[str, Any]) -> HttpResponse:
    """A team match from the lobby: casual (only a club tournament rates team matches), people only."""
    if data["rated"]:
        messages.error(request, _("Team matches are casual: only a club tournament rates them."))
        return redirect("lobby")
    if data["opponent"] != "human":
        messages.error(request, _("Team matches are played by people: choose a person as the opponent."))
        return redirect("lobby")
    try:
        match = team_match_open(
            user=player_user(request),
            team_size=data["team_size"],
            time_limit=legacy_time_limit(data),
            clock=data["clock"],
            shot_clock=data["shot_clock"],
        )
    except MatchError as exc:
        messages.error(request, match_error_words(exc))
        return redirect("lobby")
    realtime.after_commit_sync(match.id, [], lobby=True)
    return redirect("match", match_id=match.id)


@require_POST
@rate_limited("match_join")
def team_join_view(request: HttpRequest, match_id: str) -> HttpResponse:
    """Take a place in one team of an open team match (the last place starts it)."""
    match = match_get(match_id=match_id)
    if match is None:
        raise Http404("no such match")
    require_match_visible(request, match_id)
    team = request.POST.get("team", "")
    try:
        applied = team_match_join(
            match_id=match_id, user=player_user(request), team=int(team) if team in ("0", "1") else -1
        )
    except MatchError as exc:
        messages.error(request, match_error_words(exc))
        return redirect("match", match_id=match_id)
    realtime.after_commit_sync(match_id, applied.events, lobby=applied.lobby_changed)
    return redirect("match", match_id=match_id)


#: A query parameter carrying the secret of a link-only event (game/tournaments/visibility.py reads it).
EVENT_KEY_PARAMETER = "k"


def require_match_visible(request: HttpRequest, match_id: str) -> None:
    """A match of an event hidden from this visitor is not found, as a match that does not exist (its
    players always see it); an event's secret in the address is kept in the session, as on its pages."""
    session = getattr(request, "session", None)
    key = request.GET.get(EVENT_KEY_PARAMETER)
    if not match_visible(match_id=match_id, user=request.user, session=session, key=key):
        raise Http404(_("There is no such match."))


def match_page(request: HttpRequest, match_id: str) -> HttpResponse:
    match = match_get(match_id=match_id)
    if match is None:
        raise Http404(_("There is no such match."))
    require_match_visible(request, match_id)
    role, seat, me = match_role(match=match, user=request.user)
    can_join = role == "spectator" and match.status == match.Status.OPEN and match.player2_id is None
    teams = team_info(match=match) if match.team_size else None
    if teams is not None:
        can_join = False  # a team match is joined by choosing a team (team_join_view)
    return render(
        request,
        "game/match.html",
        {
            "match_id": match.id,
            "ws_path": f"/ws/match/{match.id}/",
            "me": me,
            "role": role,
            "table": table_for_client(match_table(match=match)),
            "match": match,
            "can_join": can_join,
            "join_url": f"/m/{match.id}/join/",
            "teams": teams,
            "can_join_team": teams is not None and role == "spectator" and match.status == match.Status.OPEN,
            "team_join_url": f"/m/{match.id}/team-join/",
            "invite_url": request.build_absolute_uri(f"/m/{match.id}/"),
            "computer_level": computer_level_against(match=match, seat=seat) if role == "player" else None,
            "chat_phrases": phrase_words(),
            "chat_max": protocol.MAX_CHAT_CHARS,
        },
    )


@require_POST
@rate_limited("match_join")
def match_join_view(request: HttpRequest, match_id: str) -> HttpResponse:
    match = match_get(match_id=match_id)
    if match is None:
        raise Http404(_("There is no such match."))
    require_match_visible(request, match_id)
    if match.rated and not request.user.is_authenticated:
        messages.error(request, _("This match is rated: sign up or log in to join it."))
        return redirect("match", match_id=match_id)
    user = player_user(request)
    try:
        applied = match_join(match_id=match_id, user=user)
    except MatchError as exc:
        messages.error(request, match_error_words(exc))
        return redirect("match", match_id=match_id)
    realtime.after_commit_sync(match_id, applied.events, lobby=applied.lobby_changed)
    return redirect("match", match_id=match_id)


@require_POST
def match_chat_as_guest(request: HttpRequest, match_id: str) -> HttpResponse:
    """POST /m/<id>/chat-as-guest/: a visitor watching a match becomes a guest (the same guest as a
    first game's, limited per address: `guest_create`) and is back at the match, watching, with the
    spectators' chat to write in. A signed-in reader is only sent back."""
    if match_get(match_id=match_id) is None:
        raise Http404(_("There is no such match."))
    require_match_visible(request, match_id)
    player_user(request)
    return redirect(f"{reverse('match', kwargs={'match_id': match_id})}#kz-chat-title")


@require_POST
def match_cancel_view(request: HttpRequest, match_id: str) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect("match", match_id=match_id)
    try:
        applied = match_cancel(match_id=match_id, user=request.user)
    except MatchError as exc:
        messages.error(request, match_error_words(exc))
        return redirect("match", match_id=match_id)
    realtime.after_commit_sync(match_id, applied.events, lobby=applied.lobby_changed)
    return redirect("lobby")


urlpatterns: list[URLPattern] = [
    path("lobby/", lobby, name="lobby"),
    path("lobby/create/", lobby_create, name="lobby_create"),
    path("m/<matchid:match_id>/", match_page, name="match"),
    path("m/<matchid:match_id>/join/", match_join_view, name="match_join"),
    path("m/<matchid:match_id>/team-join/", team_join_view, name="team_join"),
    path("m/<matchid:match_id>/cancel/", match_cancel_view, name="match_cancel"),
    path("m/<matchid:match_id>/chat-as-guest/", match_chat_as_guest, name="match_chat_as_guest"),
]
