"""The JS client's own words (`static/game/js/i18n.js`): Django's JavaScriptCatalog, cached truthfully.

Pages load `/jsi18n/<lang>/`, the language in force on the page (the `django_language` cookie, then
`Accept-Language`) written into the URL. A browser caches by URL, so after the header's language switch
the page asks for another URL and cannot reuse the English copy: with one URL for every language and a
fixed Last-Modified, a conditional request after the switch was answered 304 and the match page stayed
half English.

Each response carries an ETag made of its language and a digest of the compiled catalogues (the same
in every process, new with every deploy that changes a word) and `Cache-Control: no-cache`, so the
browser revalidates each time and gets a cheap 304 while nothing changed. The bare `/jsi18n/` (kept for
anything that still asks for it) answers in the request's language with that language in its ETag
and `Vary: Cookie, Accept-Language`, so it is never 304 with another language's words either.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpRequest
from django.http.response import HttpResponseBase
from django.urls import URLPattern, path
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.views.decorators.http import condition
from django.views.i18n import JavaScriptCatalog

from game.accounts.language import supported_language

LOCALE = Path(__file__).resolve().parents[1] / "locale"


def _catalogue_digest() -> str:
    """A digest of every compiled JS catalogue: equal in every process of one deploy."""
    digest = hashlib.sha256()
    for mo in sorted(LOCALE.glob("*/LC_MESSAGES/djangojs.mo")):
        digest.update(mo.parent.parent.name.encode())
        digest.update(mo.read_bytes())
    return digest.hexdigest()[:16]


CATALOGUE_DIGEST = _catalogue_digest()
_catalogue = JavaScriptCatalog.as_view(domain="djangojs")


def _etag(language: str) -> str:
    return f"{language}-{CATALOGUE_DIGEST}"


def _language_etag(request: HttpRequest, lang: str) -> str | None:
    return _etag(lang) if supported_language(lang) else None


@condition(etag_func=_language_etag)
def catalogue_in(request: HttpRequest, lang: str) -> HttpResponseBase:
    """GET /jsi18n/<lang>/: the catalogue in ``lang`` whatever the cookie says; 404 for a language the
    site does not speak."""
    if not supported_language(lang):
        raise Http404("no such language")
    with translation.override(lang):
        response = _catalogue(request)
    patch_cache_control(response, no_cache=True)
    return response


@condition(etag_func=lambda request: _etag(translation.get_language() or settings.LANGUAGE_CODE))
def catalogue_of_request(request: HttpRequest) -> HttpResponseBase:
    """GET /jsi18n/: the catalogue in the request's language (cookie, then Accept-Language)."""
    response = _catalogue(request)
    patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    return response


urlpatterns: list[URLPattern] = [
    path("jsi18n/", catalogue_of_request, name="javascript-catalog"),
    path("jsi18n/<str:lang>/", catalogue_in, name="javascript-catalog-in"),
]
