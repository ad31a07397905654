"""Lobby and match pages: thin views over services (writes) and selectors (reads).

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
from game.matches.clock_presets import GAME_MINUTES, NO_LIMIT, EventClockError, event_clock_make, preset_choices
from game.matches.selectors.match_state import match_table
from game.matches.selectors.matches import (
    computer_level_against,
    match_get,
    match_open_list,
    match_role,
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


def match_error_words(error: MatchError) -> str:
    """A refused create, join or cancel in the reader's language: the service's own words, which it
    marks for translation (gettext_noop); a message it does not mark stays as it is. Names and numbers
    fill the translated words' placeholders."""
    words = _(error.template)
    return words % error.params if error.params else words


def _setting(**words: Any) -> WholeNumberField:
    """An optional whole number of the clock; `words`: its label and help text."""
    return WholeNumberField(required=False, **words)


class EventClockForm(forms.Form):
    """An event's clock and target (K-11), shared by the tournament and the match forms: a
    preset, and any of its numbers replaced. Each number is read as typed, digits 0 to 9
    (WholeNumberField); the ranges are checked once, by
    game/matches/clock_presets.py (its words become the form's errors); `cleaned_data["clock"]` is the
    EventClock, or None for a match with no preset but its minutes (the K-11 limit of old: the warning
    at the same share of it as 60 of 65)."""

    #: The clock of a form sent without one (a match: none; the tournament form: the Kaisa rules).
    DEFAULT_CLOCK = NO_LIMIT
    clock = forms.ChoiceField(
        choices=preset_choices(with_no_limit=True),
        required=False,
        initial=NO_LIMIT,
        label=gettext_lazy("Time limit"),
        help_text=gettext_lazy(
            "A game with a time limit ends on time and is then decided by extra and shoot-out visits, as club"
            " events play it. With no time limit the game goes on until someone reaches the target."
        ),
    )
    time_limit = _setting(
        label=gettext_lazy("Game time (minutes)"),
        help_text=gettext_lazy(
            "Leave it empty for the time limit's own (the Kaisa rules: 65 minutes, a warning 5 minutes before the"
            " end). With no time limit above, minutes here give the game a time limit of its own."
        ),
    )
    warning_minutes = _setting(
        label=gettext_lazy("Warning (minutes before the end)"),
        help_text=gettext_lazy("empty: as the time limit sets it"),
    )
    extra_visits = _setting(
        label=gettext_lazy("Extra visits each"), help_text=gettext_lazy("empty: as the time limit sets it")
    )
    shootout_visits = _setting(
        label=gettext_lazy("Shoot-out visits each"), help_text=gettext_lazy("empty: as the time limit sets it")
    )
    target_score = _setting(
        label=gettext_lazy("Target score"), help_text=gettext_lazy("empty: as the time limit sets it (60)")
    )

    SETTINGS = ("warning_minutes", "extra_visits", "shootout_visits", "target_score")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        given = {name: data.get(name) for name in self.SETTINGS}
        minutes = data.get("time_limit")
        data["clock"] = data.get("clock") or self.DEFAULT_CLOCK
        if data["clock"] == NO_LIMIT and all(v is None for v in given.values()):
            data["clock"] = None  # no preset: `time_limit` alone, or no limit at all
            if minutes is not None and not GAME_MINUTES[0] <= minutes <= GAME_MINUTES[1]:
                words = _("the game time is %(least)s to %(most)s minutes")
                self.add_error("time_limit", words % {"least": GAME_MINUTES[0], "most": GAME_MINUTES[1]})
            return data
        try:
            data["clock"] = event_clock_make(preset=data["clock"], game_minutes=minutes, **given)
        except EventClockError as error:
            for words, params in error.problems:
                self.add_error(None, _(words) % params if params else _(words))
        return data


def legacy_time_limit(data: dict[str, Any]) -> int | None:
    """The seconds of a form's limit given without a clock (`EventClockForm`), else None."""
    return data["time_limit"] * 60 if data["clock"] is None and data["time_limit"] else None


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


def match_page(request: HttpRequest, match_id: str) -> HttpResponse:
    match = match_get(match_id=match_id)
    if match is None:
        raise Http404(_("There is no such match."))
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
