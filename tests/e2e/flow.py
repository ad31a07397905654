"""The match played through the UI, shared by the harness test and the live-server test."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.e2e import driver

TOAST_TEXT = "() => { const t = document.querySelector('.kz-toast'); return t.hidden ? '' : t.textContent; }"
COUNT_COLOURS = """() => {
  const c = document.querySelector('.kz-canvas');
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  const seen = new Set();
  for (let i = 0; i < d.length; i += 4 * 7) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
  return seen.size;
}"""


def play(players: dict[str, Any], watcher: Any, shots_wanted: int, max_moves: int = 40) -> dict[str, Any]:
    """Two players move in turn (lag, break choice, placements, shots) until `shots_wanted` called shots
    were played; after every move the two players and the spectator must show the same position."""
    pages = [*players.values(), watcher]
    played: list[str] = []
    shots = 0
    for _ in range(max_moves):
        for page in pages:
            driver.wait_ready(page)
        movers = [(name, page) for name, page in players.items() if driver.actions(page)]
        if not movers:
            if driver.root_data(watcher).get("phase") == "finished":
                break
            time.sleep(0.2)
            continue
        name, page = movers[0]
        before = driver.version(page)
        act = driver.take_turn(page, name)
        played.append(f"{name}:{act}")
        deadline = time.time() + 60
        while driver.version(page) <= before:
            err = page.evaluate(TOAST_TEXT)
            assert not err or "slow down" in err, f"{name} {act} refused: {err} (moves so far {played})"
            assert time.time() < deadline, f"{name} {act}: no event came back"
            time.sleep(0.05)
        target = driver.version(page)
        for p in pages:
            driver.wait_version(p, target)
        driver.same_view(pages)
        if act == "shoot":
            shots += 1
            if shots >= shots_wanted:
                break
    return {"moves": played, "shots": shots}


def screenshot_nonblank(page: Any, path: Path) -> int:
    """Save a screenshot and return how many distinct colours it has (a blank page has a handful)."""
    page.screenshot(path=str(path))
    colours = page.evaluate(COUNT_COLOURS)
    return int(colours)
