"""The pages' shared template context (game/common/context_processors.py): the test servers' shot rate
reaches every page that rolls shots, and a real server's settings never speed a shot up."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
FREE_TABLES = ("/learn/", "/practice/")


@pytest.mark.django_db
def test_a_real_server_rolls_shots_in_real_time(client: Client) -> None:
    for path in FREE_TABLES:
        html = client.get(path).content.decode()
        assert 'class="kz-match' in html, path
        assert "data-animation-rate" not in html, path
    # KAIZA_ANIMATION_RATE counts only on a test server (KAIZA_TEST_CLOCK): set alone, it is ignored.
    env = {k: v for k, v in os.environ.items() if k not in {"KAIZA_TEST_CLOCK", "DATABASE_URL", "REDIS_URL"}}
    env.update(DJANGO_SETTINGS_MODULE="kaiza_site.settings", KAIZA_ANIMATION_RATE="16")
    code = "import django; django.setup(); from django.conf import settings; print(settings.KAIZA_ANIMATION_RATE)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "1.0", out


@pytest.mark.django_db
def test_a_test_servers_rate_reaches_the_free_tables(client: Client, settings: Any) -> None:
    """The tutorial, practice and puzzle pages roll shots as fast as the match page on a test server
    (their browser tests waited for every shot in real time before)."""
    settings.KAIZA_ANIMATION_RATE = 16.0
    for path in FREE_TABLES:
        assert 'data-animation-rate="16"' in client.get(path).content.decode(), path
