"""Where the server clocks run: in every daphne process (tests/matches/test_server_clocks_daphne.py starts
real ones), and nowhere else: importing the application in a test or a command starts nothing."""

from __future__ import annotations

import subprocess
import sys

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
