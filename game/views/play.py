"""Accounts, lobby and match pages: thin views over services (writes) and selectors (reads).

A visitor without an account who creates or joins a casual match is given a guest user on the spot
and logged in, so playing a friend takes one click; signing up later converts that same user.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path
from django.views.decorators.http import require_POST

from game import realtime
from game.engine.table import kaisa_table
from game.models import Profile
from game.selectors.matches import match_get, match_open_list, match_role
from game.services.accounts import AccountError, guest_convert, guest_create, profile_ensure, user_signup
from game.services.matches import MatchError, match_cancel, match_create, match_join

BOT_CHOICES = [("human", "A person (invite link or the open list)")] + [
    (str(level), f"Computer, level {level}") for level in range(1, 6)
]


class SignupForm(forms.Form):
    username = forms.CharField(max_length=150)
    display_name = forms.CharField(max_length=32, required=False, help_text="shown at the table; default: username")
    password1 = forms.CharField(label="Password", widget=forms.PasswordInput)
    password2 = forms.CharField(label="Password again", widget=forms.PasswordInput)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("password1") and data.get("password1") != data.get("password2"):
            self.add_error("password2", "the passwords differ")
        elif data.get("password1"):
            try:
                validate_password(data["password1"])
            except ValidationError as exc:
                self.add_error("password1", exc)
        return data


class CreateMatchForm(forms.Form):
    rated = forms.BooleanField(required=False, help_text="needs an account")
    time_limit = forms.IntegerField(
        required=False, min_value=1, max_value=240, label="Time limit (minutes, K-11)",
        help_text="empty: none; the classic is 65 (60 + 5)",
    )
    shot_clock = forms.IntegerField(
        required=False, min_value=5, max_value=600, label="Shot clock (seconds)", help_text="empty: none"
    )
    opponent = forms.ChoiceField(choices=BOT_CHOICES, initial="human")


def _player_user(request: HttpRequest) -> Any:
    """The request's user, or a fresh guest logged into this session."""
    if request.user.is_authenticated:
        profile_ensure(user=request.user)
        return request.user
    guest = guest_create()
    login(request, guest, backend="django.contrib.auth.backends.ModelBackend")
    return guest


def signup(request: HttpRequest) -> HttpResponse:
    profile = Profile.objects.filter(user=request.user).first() if request.user.is_authenticated else None
    converting = bool(profile and profile.is_guest)
    if request.user.is_authenticated and not converting:
        return redirect("lobby")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if converting:
                guest_convert(user=request.user, username=data["username"], password=data["password1"],
                              display_name=data.get("display_name") or None)
                user = request.user
            else:
                user = user_signup(username=data["username"], password=data["password1"],
                                   display_name=data.get("display_name") or None)
        except AccountError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            # Re-login keeps the session valid after the password change of a converted guest.
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, "Welcome to Kaiza!")
            return redirect(request.GET.get("next") or "lobby")
    return render(request, "registration/signup.html", {"form": form, "converting": converting})


def lobby(request: HttpRequest) -> HttpResponse:
    is_guest = False
    if request.user.is_authenticated:
        is_guest = profile_ensure(user=request.user).is_guest
    return render(request, "game/lobby.html", {
        "form": CreateMatchForm(), "open_matches": match_open_list(), "is_guest": is_guest,
    })


@require_POST
def lobby_create(request: HttpRequest) -> HttpResponse:
    form = CreateMatchForm(request.POST)
    if not form.is_valid():
        messages.error(request, "; ".join(f"{k}: {' '.join(v)}" for k, v in form.errors.items()))
        return redirect("lobby")
    data = form.cleaned_data
    if data["rated"] and not request.user.is_authenticated:
        messages.error(request, "Rated matches need an account: sign up or log in first.")
        return redirect("lobby")
    user = _player_user(request)
    opponent = data["opponent"]
    try:
        match, events = match_create(
            user=user,
            rated=bool(data["rated"]),
            time_limit=data["time_limit"] * 60 if data["time_limit"] else None,
            shot_clock=data["shot_clock"],
            opponent_bot_level=None if opponent == "human" else int(opponent),
        )
    except MatchError as exc:
        messages.error(request, exc.message)
        return redirect("lobby")
    realtime.publish_sync(match.id, events, lobby=opponent == "human")
    return redirect("match", match_id=match.id)


def match_page(request: HttpRequest, match_id: str) -> HttpResponse:
    match = match_get(match_id=match_id)
    if match is None:
        raise Http404("no such match")
    role, _seat, me = match_role(match=match, user=request.user)
    can_join = role == "spectator" and match.status == match.Status.OPEN and match.player2_id is None
    return render(request, "game/match.html", {
        "match_id": match.id,
        "ws_path": f"/ws/match/{match.id}/",
        "me": me,
        "role": role,
        "table": kaisa_table().as_dict(),
        "match": match,
        "can_join": can_join,
        "join_url": f"/m/{match.id}/join/",
        "invite_url": request.build_absolute_uri(f"/m/{match.id}/"),
    })


@require_POST
def match_join_view(request: HttpRequest, match_id: str) -> HttpResponse:
    match = match_get(match_id=match_id)
    if match is None:
        raise Http404("no such match")
    if match.rated and not request.user.is_authenticated:
        messages.error(request, "This match is rated: sign up or log in to join it.")
        return redirect("match", match_id=match_id)
    user = _player_user(request)
    try:
        applied = match_join(match_id=match_id, user=user)
    except MatchError as exc:
        messages.error(request, exc.message)
        return redirect("match", match_id=match_id)
    realtime.publish_sync(match_id, applied.events, lobby=applied.lobby_changed)
    return redirect("match", match_id=match_id)


@require_POST
def match_cancel_view(request: HttpRequest, match_id: str) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect("match", match_id=match_id)
    try:
        applied = match_cancel(match_id=match_id, user=request.user)
    except MatchError as exc:
        messages.error(request, exc.message)
        return redirect("match", match_id=match_id)
    realtime.publish_sync(match_id, applied.events, lobby=applied.lobby_changed)
    return redirect("lobby")


urlpatterns: list[URLPattern] = [
    path("accounts/signup/", signup, name="signup"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("lobby/", lobby, name="lobby"),
    path("lobby/create/", lobby_create, name="lobby_create"),
    path("m/<matchid:match_id>/", match_page, name="match"),
    path("m/<matchid:match_id>/join/", match_join_view, name="match_join"),
    path("m/<matchid:match_id>/cancel/", match_cancel_view, name="match_cancel"),
]
