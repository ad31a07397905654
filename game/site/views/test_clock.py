"""The test-only endpoint that moves a server process's game clock (game.common.clock).

Mounted by game/urls.py only when `settings.KAIZA_TEST_CLOCK` is on (the browser tests' servers set
`KAIZA_TEST_CLOCK=1`); otherwise the URL does not exist (404), which
`test_test_clock_endpoint_absent_in_production` checks against the settings a deployment runs with.
The deadlines the advance makes due fire at the next poll of the process's clock runner (within a
second), through the same path as ever: the endpoint fires nothing itself.
"""

from __future__ import annotations

import json
import math

from django.http import HttpRequest, JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from game.common import clock

__all__ = ["advance_clock", "urlpatterns"]


@csrf_exempt
@require_POST
def advance_clock(request: HttpRequest) -> JsonResponse:
    """POST {"seconds": s}: the game clock moves s seconds forward; answers the clock's new offset
    and time. A bad body is a 400 with the reason, and the clock does not move."""
    try:
        body = json.loads(request.body or b"{}")
        seconds = float(body["seconds"])
        if not math.isfinite(seconds):
            raise ValueError("seconds must be finite")
        offset = clock.advance(seconds)
    except (ValueError, KeyError, TypeError) as exc:
        return JsonResponse({"error": f'expected {{"seconds": 0 < s <= {clock.MAX_STEP:.0f}}}: {exc}'}, status=400)
    return JsonResponse({"offset": offset, "now": clock.game_now()})


urlpatterns = [path("test/clock/advance", advance_clock, name="test_clock_advance")]
