"""A match page whose socket is refused for too many (close 4429) says why, in words, in the
reader's language, and connects once a place is free (look at test-artifacts/socket-refused-*.jpg).

Real Chromium against a real daphne whose cap is one socket per user on a match: the guest who made
the match opens it in a second tab of the same browser (same session, same user).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from game.realtime.socket_lifecycle import REFUSED_REASONS
from tests.e2e.pages import create_match
from tests.support.daphne import DaphneServer
from tests.support.services import PAGE_POLL_MS

pytestmark = pytest.mark.browser


@pytest.mark.slow(18)
def test_a_refused_match_page_says_why_in_three_languages(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    server = daphne_factory(KAIZA_SOCKET_LIMITS='{"match": {"user": 1, "ip": 1}}')
    errors: list[str] = []
    for language in ("en", "fi", "ru"):
        with translation.override(language):
            words = translation.gettext(REFUSED_REASONS["match"])
        context = chromium.new_context(viewport={"width": 1280, "height": 860}, locale=language)
        try:
            first = context.new_page()
            url = create_match(first, server.url)
            # The first tab's socket holds the match's one place before the second tab comes (the page
            # may render before its socket is in: on a loaded CI host the second tab once got in first).
            first.wait_for_selector("#kaiza-match[data-connection='open']", timeout=20_000)
            second = context.new_page()
            second.on("pageerror", lambda exc: errors.append(str(exc)))
            second.goto(url)
            # The refusal and its words, read together in the page: the page retries with the usual
            # backoff, and a retry under way may show the plain "reconnecting" words for a moment (a
            # retry's close that is not a refusal says nothing of why; CI once read the card then).
            second.wait_for_function(
                """(words) => { const root = document.querySelector('#kaiza-match');
                    const text = document.querySelector('.kz-lost .kz-lost-text');
                    return root.dataset.refused === 'yes' && text && text.innerText === words; }""",
                arg=words,
                timeout=15_000,
                polling=PAGE_POLL_MS,
            )
            card = second.locator(".kz-lost")
            assert card.is_visible()
            box = card.bounding_box()
            assert box is not None and box["width"] > 100 and box["height"] > 20
            second.screenshot(path=str(artifacts_dir / f"socket-refused-{language}.jpg"))
            # The empty shot list's words (a CSS ::before of data-empty) are the page's language too.
            with translation.override(language):
                empty = translation.gettext("No shots yet")
            assert second.evaluate(
                "() => getComputedStyle(document.querySelector('.kz-shots'), '::before').content"
            ) == json.dumps(empty, ensure_ascii=False)
            assert language == "en" or empty != "No shots yet", "no translation of the empty shot list"
            assert first.locator("#kaiza-match").get_attribute("data-refused") is None, "the first tab plays on"
            if language == "en":
                # The first tab closes: the second's next try (the usual backoff) gets in.
                first.close()
                second.wait_for_selector("#kaiza-match[data-connection='open']", timeout=20_000)
                # The refusal's words stay until the snapshot that follows the open socket (state.js
                # `receive`): a frame or two later, not within the open.
                second.wait_for_selector("#kaiza-match:not([data-refused])", timeout=10_000)
                assert not card.is_visible()
            assert errors == []
        finally:
            context.close()
