"""``python manage.py bench_frames``: animation frame times of the match page in headless Chromium.

A thin wrapper around ``bench/scripts/bench_frames.py``, which drives the page through the e2e harness (the
real engine answers the socket, no server needed). It runs in its own process because Playwright's
sync API wants a thread with no event loop of its own.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bench_frames.py"


class Command(BaseCommand):
    help = "Frame times (p50/p95/max, dropped frames) while Chromium animates hard shots, and shot JSON sizes."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--shots", type=int, default=3)
        parser.add_argument("--speed", type=float, default=7.5)

    def handle(self, *args: Any, **options: Any) -> None:
        command = [sys.executable, str(SCRIPT), "--shots", str(options["shots"]), "--speed", str(options["speed"])]
        code = subprocess.call(command, cwd=SCRIPT.parents[2])
        if code:
            raise CommandError(f"bench_frames exited with {code}")
