"""The reader's language at the edge: which of the rules' catalogues (game.engine.rules.words) a
socket's or a page's words are made in, and the `error` message said in it.

A page has Django's request language (LocaleMiddleware: the `django_language` cookie, then
Accept-Language). A socket has no middleware: :func:`scope_language` reads the same two headers of its
handshake, in the same order, so a player's socket speaks the language of the page that opened it.
"""

from __future__ import annotations

from collections.abc import Mapping
from http.cookies import CookieError, SimpleCookie
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

from game.engine.rules import words


def supported(code: str | None) -> str | None:
    """``code`` ("fi", "fi-FI", "ru-RU;q=…") as one of the settings' LANGUAGES, None if none fits."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code.strip().lower())
    except LookupError:
        return None


def scope_language(scope: Mapping[str, Any]) -> str:
    """A socket's language: the `django_language` cookie, else Accept-Language, else the default."""
    headers: dict[bytes, bytes] = {}
    for name, value in scope.get("headers") or []:
        headers.setdefault(bytes(name).lower(), bytes(value))
    raw_cookie = headers.get(b"cookie", b"").decode("latin-1")
    if raw_cookie:
        cookie: SimpleCookie = SimpleCookie()
        try:
            cookie.load(raw_cookie)
        except CookieError:  # a malformed Cookie header reads as no cookie
            cookie = SimpleCookie()
        morsel = cookie.get(settings.LANGUAGE_COOKIE_NAME)
        chosen = supported(morsel.value if morsel is not None else None)
        if chosen:
            return chosen
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _quality in parse_accept_lang_header(accept[:1000]):
        if code == "*":
            break
        chosen = supported(code)
        if chosen:
            return chosen
    return settings.LANGUAGE_CODE


def error_message(code: str, message: str, key: str | None, params: dict[str, Any] | None, language: str) -> str:
    """An `error`'s message in ``language``: a rules refusal from its key and params (the rules'
    catalogues); the services' own messages through Django's catalogue (gettext; English when a
    message has no translation yet), its ``params`` filling the translated placeholders."""
    if key is not None and key in words.CATALOGUES["en"].refusals:
        return words.refusal(key, params or {}, language)
    with translation.override(language):
        said = translation.gettext(message)
    return said % params if params and key is None else said
