"""HTTP views: thin; reads through selectors, writes through services."""

from __future__ import annotations

import asyncio

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.utils import timezone
from django.utils.translation import get_language
from django.views.decorators.cache import never_cache

from game.matches.selectors.live import featured_match
from game.matches.selectors.matches import matches_in_progress_for
from game.puzzles.selectors import daily_puzzle
from game.ratings import selectors as rating_eligibility
from game.ratings.rules import rating_rules
from game.site.selectors.rules_document import rules_document, rules_language
from game.site.views.learn import tutorial_offered

BOT_LEVELS = (1, 2, 3, 4, 5)


def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "game/home.html",
        {
            "featured": featured_match(viewer=request.user),
            "bot_levels": BOT_LEVELS,
            "in_progress": matches_in_progress_for(user=request.user),
            "offer_tutorial": tutorial_offered(request),
            "daily_puzzle": daily_puzzle(day=timezone.localdate()),
        },
    )


async def _channel_layer_round_trip() -> None:
    layer = get_channel_layer()
    channel = await layer.new_channel("healthz.")
    await layer.send(channel, {"type": "healthz.probe"})
    message = await asyncio.wait_for(layer.receive(channel), timeout=2.0)
    if message.get("type") != "healthz.probe":
        raise RuntimeError("channel layer returned a different message")


@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """Checks what a match needs: the database answers and the channel layer carries a message.

    The public answer is one word, "ok" (200) or "unavailable" (503): a probe needs no more, and an
    attacker learns nothing about the stack. Staff get the checks (with exception classes) as JSON.
    """
    checks: dict[str, str] = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        checks["database"] = "ok"
    except Exception as exc:  # a health check reports failures rather than raising them
        checks["database"] = f"error: {exc.__class__.__name__}"
    try:
        async_to_sync(_channel_layer_round_trip)()
        checks["channel_layer"] = "ok"
    except Exception as exc:
        checks["channel_layer"] = f"error: {exc.__class__.__name__}"
    healthy = all(value == "ok" for value in checks.values())
    status = 200 if healthy else 503
    if getattr(request.user, "is_staff", False):
        return JsonResponse(
            {"status": "ok" if healthy else "unavailable", "checks": checks, "database_vendor": connection.vendor},
            status=status,
        )
    return HttpResponse("ok" if healthy else "unavailable", content_type="text/plain", status=status)


# --- error pages, in the site's layout (kaiza_site/urls.py names them) ----------------------------------


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    """Rendered without the request's context: whatever failed must not fail this page too."""
    return HttpResponse(loader.get_template("500.html").render(), status=500)


def ratings_help(request: HttpRequest) -> HttpResponse:
    """What makes a result rated (game/ratings/selectors.py), in words."""
    return render(
        request,
        "game/ratings_help.html",
        {
            "reasons": rating_eligibility.reason_texts(),
            "rules": rating_rules(),
            "verification_on": rating_eligibility.verification_required(),
        },
    )


def rules(request: HttpRequest) -> HttpResponse:
    """The rules of Kaisa as Kaiza plays them: docs/rules.md, the one source, with an anchor per rule id
    (`/rules/#K-6.2`) that verdicts link to."""
    language = rules_language(get_language())
    return render(request, "game/rules.html", {"document": rules_document(language), "rules_language": language})
