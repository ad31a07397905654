"""Where the server clocks run: in every daphne process (tests/matches/test_server_clocks_daphne.py starts
real ones), and nowhere else: importing the application in a test or a command starts nothing."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from tests.support.daphne import PROJECT_DIR, server_env


def test_importing_the_application_outside_daphne_starts_no_clock() -> None:
    # The application is imported and an event loop runs a while (as in a test), but no reactor runs.
    code = (
        "import asyncio, kaiza_site.asgi, game.matches.clock_runner as r;"
        "asyncio.run(asyncio.sleep(0.3)); print(r._task)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=PROJECT_DIR,
        env=server_env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert out.stdout.split() == ["None"], out.stdout + out.stderr


@pytest.mark.django_db(transaction=True)
async def test_both_polls_walk_the_same_steps() -> None:
    """deadlines_fire_due (a test's or a command's poll) and the clock runner's fire_due (every daphne
    process's) walk one list of steps (poll_steps): a clock source registered once is polled by both,
    with the game clock's `now`, once each."""
    from channels.db import database_sync_to_async

    from game.matches.clock_runner import fire_due
    from game.matches.services.deadlines import CLOCK_SOURCES, clock_source_register, deadlines_fire_due

    heard: list[float] = []

    def source(now: float) -> tuple[list[Any], list[int]]:
        heard.append(now)
        return [], []

    clock_source_register(source)
    clock_source_register(source)  # once, however often registered
    try:
        assert await database_sync_to_async(deadlines_fire_due)(now=1000.0) == []
        assert await fire_due(now=2000.0) == 0
    finally:
        CLOCK_SOURCES.remove(source)
    assert heard == [1000.0, 2000.0]
