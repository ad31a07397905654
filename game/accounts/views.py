"""Accounts around allauth: the sign-up page's guard, and guests made on the spot.

allauth serves every account page under /accounts/ (kaiza_site/urls.py). Its sign-up page sits behind
one guard here: a registered player is sent to the lobby (a second account is not what they want),
while a guest sees the form and keeps the guest account, matches and seats included
(game/accounts/allauth_adapter.py). allauth's login page stays open to a logged-in guest, who may have an
account to log into.
"""

from __future__ import annotations

from typing import Any

from allauth.account.views import SignupView
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

from game.accounts.services import guest_create, profile_ensure
from game.common.ratelimit import rate_limit_consume

_allauth_signup = SignupView.as_view()


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated and not profile_ensure(user=request.user).is_guest:
        return redirect("lobby")
    return _allauth_signup(request)


def player_user(request: HttpRequest) -> Any:
    """The request's user, or a fresh guest logged into this session (limited per client address:
    `guest_create` in settings.KAIZA_RATE_LIMITS; a refusal is the 429 page)."""
    if request.user.is_authenticated:
        profile_ensure(user=request.user)
        return request.user
    rate_limit_consume(request, "guest_create")
    guest = guest_create()
    login(request, guest, backend="django.contrib.auth.backends.ModelBackend")
    return guest
