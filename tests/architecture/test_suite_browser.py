"""The worker's Chromium (tests/conftest.py `_BrowserKeeper`): one browser for page tests run back to
back, closed after a test unless the next one is a page test, and nothing of Playwright left running
once it is closed, so that an asyncio test or an `async_to_sync` after the page tests still gets its
event loop."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, cast

import pytest
from asgiref.sync import async_to_sync

from tests.conftest import _BROWSER, pytest_runtest_teardown

pytestmark = pytest.mark.browser


@dataclass
class _Next:
    """What the teardown hook reads of the next test: its fixture names."""

    fixturenames: list[str]


async def _three() -> int:
    await asyncio.sleep(0)
    return 3


def test_one_browser_for_tests_back_to_back_and_no_loop_left_once_closed(chromium: Any) -> None:
    assert _BROWSER.get() is chromium, "a second test would launch a browser of its own"
    page = chromium.new_page()
    page.set_content("<p>kept</p>")
    assert page.inner_text("p") == "kept"
    page.close()
    with pytest.raises(RuntimeError):  # while Playwright runs, its loop holds this thread
        async_to_sync(_three)()
    _BROWSER.close()
    assert async_to_sync(_three)() == 3
    again = _BROWSER.get()  # the next page test gets a new one
    assert again is not chromium and again.is_connected()
    # After a test: kept when the next one is a page test, closed when it is not.
    for nextitem, kept in ((_Next(["chromium"]), True), (_Next(["settings"]), False)):
        teardown = pytest_runtest_teardown(cast(pytest.Item, None), cast(pytest.Item, nextitem))
        next(teardown)
        with pytest.raises(StopIteration):
            teardown.send(None)
        assert (_BROWSER.browser is again) == kept
    assert async_to_sync(_three)() == 3
