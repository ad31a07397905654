"""The reader's language: the header's switcher, and a signed-in player's choice kept on the profile.

Django decides each request's language in `LocaleMiddleware`: the `django_language` cookie if the browser
has one, else `Accept-Language`, else `settings.LANGUAGE_CODE`. What Django lacks is the player who
chose Finnish at home and signs in on a new browser: the cookie is per browser. So:

- `set_language` is Django's own view (it checks the language against settings.LANGUAGES and keeps
  `next` on our site) and then, for a signed-in player, writes the choice on `Profile.language`;
- `ProfileLanguageMiddleware` (after LocaleMiddleware and authentication) applies the profile's
  language when the browser has no cookie yet, and the `user_logged_in` receiver applies it at
  log-in, over whatever the browser had as a guest: the account's choice is the player's.
Guests and visitors keep theirs in the cookie only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from game.models import Profile

SUPPORTED = tuple(code for code, _name in settings.LANGUAGES)
#: The request attribute through which a log-in or the middleware asks for the cookie to be written.
_COOKIE_WANTED = "_kaiza_language_cookie"
#: The session's note that this signed-in player has no profile language (Accept-Language decides).
_NO_CHOICE = "kaiza_no_profile_language"


def supported_language(code: str | None) -> str | None:
    """`code` if the site speaks it, else None (an unknown or empty value changes nothing)."""
    return code if code in SUPPORTED else None


def profile_language(user: Any) -> str | None:
    """The language a signed-in player chose, or None (visitors, or no choice made yet)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    stored = Profile.objects.filter(user_id=user.pk).values_list("language", flat=True).first()
    return supported_language(stored)


def _apply(request: HttpRequest, code: str) -> None:
    translation.activate(code)
    request.LANGUAGE_CODE = code
    setattr(request, _COOKIE_WANTED, code)


def _set_cookie(response: HttpResponse, code: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


class ProfileLanguageMiddleware:
    """A browser without a language cookie takes the signed-in player's profile language (one query,
    only on that first request: the answer is stored in the cookie, or "no choice" in the session)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        session = getattr(request, "session", None)
        if settings.LANGUAGE_COOKIE_NAME not in request.COOKIES and not (session and session.get(_NO_CHOICE)):
            user = getattr(request, "user", None)
            code = profile_language(user)
            if code is not None:
                _apply(request, code)
            elif session is not None and user is not None and user.is_authenticated:
                session[_NO_CHOICE] = True  # asked once per session: no query on every page
        response = self.get_response(request)
        wanted = getattr(request, _COOKIE_WANTED, None)
        if wanted is not None:
            _set_cookie(response, wanted)
        return response


def profile_language_at_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """Receiver of `user_logged_in` (connected in game.apps): logging in on any browser brings the
    account's language (the cookie is written on the way out)."""
    code = profile_language(user)
    if request is not None and code is not None:
        _apply(request, code)


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's `set_language` (valid language, `next` kept on this site), then the profile remembers it."""
    response = django_set_language(request)
    code = supported_language(request.POST.get("language"))
    user = request.user
    if code is not None and user.is_authenticated:
        Profile.objects.filter(user_id=user.pk).update(language=code)
    return response
