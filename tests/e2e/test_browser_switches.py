"""The switches the page tests' Chromium really runs with (tests/support/services.py).

Chromium keeps only the last `--disable-features` of its command line and Playwright puts ours after
its own, so ours repeats Playwright's list; this test reads the browser's command line from /proc and
fails when a Playwright upgrade changes that list. It also checks what the extra features are for: a
new browser context opens no browser-UI page of its own (the address bar's WebUI popup, about 1.2 s of
CPU per context).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.support import services

pytestmark = pytest.mark.browser


def _descendants(root: int) -> list[int]:
    """Every process below `root` (the browser runs under Playwright's driver, under this process)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _browser_command_lines() -> list[list[str]]:
    lines = []
    for pid in _descendants(os.getpid()):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
        except OSError:
            continue
        if any(arg == "--remote-debugging-pipe" for arg in argv):
            lines.append(argv)
    return lines


def test_browser_keeps_playwrights_features_and_opens_no_ui_pages(chromium: Any) -> None:
    lines = _browser_command_lines()
    assert lines, "the test's Chromium was not found under this process"
    argv = lines[0]
    switches = [
        arg.removeprefix("--disable-features=").split(",") for arg in argv if arg.startswith("--disable-features=")
    ]
    assert len(switches) >= 2, f"Playwright's switch and ours: {switches}"
    playwrights, effective = set(switches[0]), set(switches[-1])
    assert playwrights == set(services.PLAYWRIGHT_DISABLED_FEATURES), (
        "Playwright's own --disable-features changed: update PLAYWRIGHT_DISABLED_FEATURES in "
        f"tests/support/services.py (Playwright passes {sorted(playwrights)})"
    )
    assert playwrights <= effective and set(services.KAIZA_DISABLED_FEATURES) <= effective, effective

    context = chromium.new_context()
    try:
        page = context.new_page()
        page.set_content("<h1>Kaisa</h1>")
        session = chromium.new_browser_cdp_session()
        targets = session.send("Target.getTargets")["targetInfos"]
        kinds = sorted({target["type"] for target in targets})
        assert [t["url"] for t in targets if t["type"] == "browser_ui"] == [], kinds
        assert "page" in kinds, kinds
    finally:
        context.close()
