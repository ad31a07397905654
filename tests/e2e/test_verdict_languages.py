"""Verdicts in each reader's language, end to end: in a real Chromium against a real daphne,
a Finnish player (Accept-Language fi), a Russian player (the `django_language` cookie, over an English
browser) and an English spectator at one match read the same verdict of a shot, in the HUD's verdict
line and as the shot list's entry, each in their language: the words the server made once from the
verdict's code and params (the event's `words` map). A reload keeps the list in the reader's language;
the page's own words (the phase name) come from the djangojs catalogue. Screenshots:
test-artifacts/verdict-languages-{fi,ru,en}.jpg."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import driver, flow, pages
from tests.support.daphne import DaphneServer
from tests.support.services import PAGE_POLL_MS

pytestmark = pytest.mark.browser


def _page(chromium: Any, *, locale: str, cookie_language: str | None, server: DaphneServer, **kw: Any) -> Any:
    context = chromium.new_context(locale=locale, viewport=kw.get("viewport", pages.DESKTOP))
    if cookie_language:
        context.add_cookies([{"name": "django_language", "value": cookie_language, "url": server.url}])
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def _stored_shot(server: DaphneServer, match_id: str) -> dict[str, Any]:
    """The last called shot's stored event, as the server kept it (its verdict's `words`)."""
    return pages.django_run(
        server.env,
        "from game.models import MatchEvent\n"
        f"e = MatchEvent.objects.filter(match_id={match_id!r}, type='shot').exclude(data__kind='lag')"
        ".order_by('-version').first()\n"
        "result = {'v': e.version, 'verdict': e.data['verdict'], 'entry': e.data['entry']}",
    )


def _newest_row(page: Any, needle: str, timeout: float = 20.0) -> str:
    """The shot list's row (as a person reads it) that holds `needle`, waiting for it."""
    deadline = time.monotonic() + timeout
    rows: list[str] = []
    while time.monotonic() < deadline:
        rows = pages.shot_list(page)
        found = [row for row in rows if needle in row]
        if found and page.locator(".kz-shots li").first.is_visible():
            return found[0]
        time.sleep(0.1)
    raise AssertionError(f"no shot-list row with {needle!r}; rows: {rows[:4]}")


@pytest.mark.slow(39)
def test_verdict_in_each_readers_language(
    chromium: Any, daphne_factory: Callable[..., DaphneServer], artifacts_dir: Path
) -> None:
    server = daphne_factory()
    aino = _page(chromium, locale="fi-FI", cookie_language=None, server=server)
    url = pages.create_match(aino, server.url)
    boris = _page(
        chromium, locale="en-US", cookie_language="ru", server=server, viewport={"width": 1200, "height": 800}
    )
    pages.join(boris, url)
    eve = _page(chromium, locale="en-GB", cookie_language=None, server=server, viewport={"width": 1200, "height": 800})
    pages.watch(eve, url)
    readers = {"fi": aino, "ru": boris, "en": eve}
    for page in readers.values():
        page.wait_for_function(
            "() => document.querySelector('#kaiza-match').dataset.phase === 'lag'", timeout=60000, polling=PAGE_POLL_MS
        )
    assert [page.evaluate("() => document.documentElement.lang") for page in readers.values()] == ["fi", "ru", "en"]
    # The page's own words from the djangojs catalogue: the phase's name (shown in capitals by the CSS).
    assert pages.visible_text(aino, ".kz-phase").lower() == "teikkaus"
    assert pages.visible_text(boris, ".kz-phase").lower() == "розыгрыш начального удара"
    assert pages.visible_text(eve, ".kz-phase").lower() == "lag for the break"

    players = {driver.root_data(p)["me"]: p for p in (aino, boris)}
    played = flow.play(players, eve, shots_wanted=1)
    assert played["shots"] == 1, played
    shot = _stored_shot(server, pages.match_id_of(url))
    words = shot["verdict"]["words"]
    assert words["en"] == shot["verdict"]["reason"] and shot["entry"]["words"] == words
    assert len({words["en"], words["fi"], words["ru"]}) == 3, words
    for page in readers.values():
        driver.wait_version(page, shot["v"])

    # The same verdict, each in their language: the shot list's entry (and the verdict line while shown).
    for lang, page in readers.items():
        row = _newest_row(page, words[lang])
        for other in {"en", "fi", "ru"} - {lang}:
            assert words[other] not in row, (lang, row)
        line = pages.visible_text(page, ".kz-verdict")
        assert not line or words[lang] in line, (lang, line)
    assert any(row.startswith(f"{name} teikkaus") for row in pages.shot_list(aino) for name in players), (
        "the lag entries in Finnish",
        pages.shot_list(aino),
    )
    assert any("Розыгрыш начального удара" in row for row in pages.shot_list(boris)), "the lag entries in Russian"

    for lang, page in readers.items():
        colours = pages.region_colours(page, "#kaiza-match", artifacts_dir / f"verdict-languages-{lang}.png")
        assert colours > 200, f"the {lang} page looks blank ({colours} colours)"

    # A reload: the list comes from the snapshot's stored entries, still in the reader's language.
    boris.reload()
    boris.wait_for_selector("#kaiza-match[data-version]")
    driver.wait_version(boris, shot["v"])
    assert words["ru"] in _newest_row(boris, words["ru"])
    assert pages.visible_text(boris, ".kz-phase").lower() == "игра"
    for page in readers.values():
        assert not page.errors, page.errors
    pages.assert_clean_log(server)
