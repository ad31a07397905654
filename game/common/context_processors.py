"""Template context every page gets.

`animation_rate`: how many times faster than real time the pages roll shots. 1 on every real server;
a test server (`KAIZA_TEST_CLOCK`) may set `KAIZA_ANIMATION_RATE` so the browser tests spend less time
and fewer frames on each shot (the page still snaps to the server's result). One setting for every
page that animates shots: the match page and the free tables (tutorial, practice, puzzles).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest


def animation_rate(request: HttpRequest) -> dict[str, Any]:
    return {"animation_rate": settings.KAIZA_ANIMATION_RATE}
