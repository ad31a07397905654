"""A fresh install is alive, in a real Chromium against a real daphne on a new database with the
showcase on (settings.KAIZA_SHOWCASE, as `make run` has it): the server's first poll loads the starter
puzzles, so the puzzle page shows one; the Watch page shows a computer match, and the computer players,
woken by the server's poll, play it on. Screenshots: test-artifacts/fresh-*.png."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import pages
from tests.support.daphne import DaphneServer

pytestmark = pytest.mark.browser


def _watch_json(server: DaphneServer) -> list[dict[str, Any]]:
    with urllib.request.urlopen(f"{server.url}/watch.json", timeout=10) as response:
        return list(json.loads(response.read())["matches"])


@pytest.mark.slow(15)
def test_fresh_install_shows_puzzles_and_a_computer_match(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    server = daphne_factory(KAIZA_SHOWCASE="1")
    page = pages.new_page(chromium)
    deadline = time.monotonic() + 20
    page.goto(f"{server.url}/puzzles/")
    while not page.locator("#kaiza-puzzle").count():  # the first poll runs within a second of the start
        assert time.monotonic() < deadline, page.locator("main").inner_text()
        time.sleep(0.5)
        page.reload()
    page.wait_for_selector("#kaiza-puzzle[data-state='ready']", timeout=30000)
    page.screenshot(path=str(artifacts_dir / "fresh-puzzle.png"))

    page.goto(f"{server.url}/watch/")
    row = page.locator("tr[data-match]")
    assert row.count() == 1, page.locator("main").inner_text()
    assert "Bot-L2" in row.inner_text() and "Bot-L3" in row.inner_text()
    match_id = row.get_attribute("data-match")
    # Nobody opened the match: the server's poll woke its players, and the first lag is played.
    deadline = time.monotonic() + 60
    while True:
        (live,) = _watch_json(server)
        assert live["id"] == match_id
        if live["version"] >= 2:
            break
        assert time.monotonic() < deadline, live
        time.sleep(1)
    page.reload()
    page.screenshot(path=str(artifacts_dir / "fresh-watch.png"))
    assert not page.errors, page.errors
    pages.assert_clean_log(server)
