"""HTTP views: thin; reads through selectors, writes through services."""

from __future__ import annotations

import asyncio

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from game.selectors.live import featured_match
from game.selectors.matches import matches_in_progress_for

BOT_LEVELS = (1, 2, 3, 4, 5)


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "game/home.html", {
        "featured": featured_match(),
        "bot_levels": BOT_LEVELS,
        "in_progress": matches_in_progress_for(user=request.user),
    })


async def _channel_layer_round_trip() -> None:
    layer = get_channel_layer()
    channel = await layer.new_channel("healthz.")
    await layer.send(channel, {"type": "healthz.probe"})
    message = await asyncio.wait_for(layer.receive(channel), timeout=2.0)
    if message.get("type") != "healthz.probe":
        raise RuntimeError("channel layer returned a different message")


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """Checks what a match needs: the database answers and the channel layer carries a message."""
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
    return JsonResponse(
        {"status": "ok" if healthy else "error", "checks": checks, "database_vendor": connection.vendor},
        status=200 if healthy else 503,
    )
