"""What a new player still tripped on, in a real Chromium against a real daphne.

- The header's language switch translates the match page wholly: the page's own words come from the JS
  catalogue at `/jsi18n/<lang>/`, so the English copy the browser cached before the switch is never
  used again (it was: one URL, a fixed Last-Modified, a 304). No English is left on the page after a
  switch: the phase line, the turn line, the hint under the controls, the spin label, the sound button,
  the spectator count, the shot list's lag entries. Screenshot: test-artifacts/new-player-switched-fi.jpg.
- "Play again" on the end card after a game against the computer: one click, a new match against the
  same level, the player lands in it.
- A visitor watching a match becomes a guest from the chat card and is back at the same match, watching,
  able to chat.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polib
import pytest

from tests.e2e import driver, pages
from tests.support.daphne import DaphneServer
from tests.support.services import PAGE_POLL_MS

pytestmark = pytest.mark.browser

LOCALE = Path(__file__).resolve().parents[2] / "game" / "locale"
#: Words the issue saw in English after the switch; each must be gone.
ENGLISH_SEEN = ["lag for the break", "your turn", "centre", "sound on", "watching", "shots", "lag"]
#: Their Finnish words (from game/locale/fi djangojs.po and django.po), each on the page.
FINNISH = ["teikkaus", "katsojaa", "lyönnit", "ääni päällä"]


def _english_msgids(language: str = "fi") -> set[str]:
    """Every English message of the site's and the client's catalogues that `language` says otherwise."""
    found: set[str] = set()
    for domain in ("django", "djangojs"):
        for entry in polib.pofile(str(LOCALE / language / "LC_MESSAGES" / f"{domain}.po")):
            for msgid, msgstr in ((entry.msgid, entry.msgstr), (entry.msgid_plural, entry.msgstr_plural.get(0, ""))):
                if msgid and msgstr and msgid.casefold() != msgstr.casefold() and "%(" not in msgid:
                    found.add(msgid.casefold())
    return found


def _text_nodes(page: Any, selector: str) -> list[str]:
    """The visible text nodes of the region, each trimmed, as a person reads them (CSS capitals applied
    by the browser are not, so compare case-free)."""
    return page.evaluate(
        """(sel) => {
          const out = [];
          const walk = document.createTreeWalker(document.querySelector(sel), NodeFilter.SHOW_TEXT);
          for (let n = walk.nextNode(); n; n = walk.nextNode()) {
            const el = n.parentElement;
            const text = n.textContent.trim();
            if (!text || !el || el.closest('script, [hidden]')) continue;
            const box = el.getBoundingClientRect();
            if (box.width === 0 || box.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
            out.push(text);
          }
          return out;
        }""",
        selector,
    )


def _play_the_computer(page: Any, server: DaphneServer, level: int = 1) -> str:
    if page.url.rstrip("/") != server.url:
        page.goto(f"{server.url}/")
    page.select_option("#bot-level", str(level))
    page.locator("[data-play-computer]").click()
    page.wait_for_url(re.compile(r".*/m/[a-z0-9]+/$"))
    page.wait_for_selector("#kaiza-match[data-version]")
    return str(page.url)


@pytest.mark.slow(31)
def test_language_switch_translates_the_match_page(
    chromium: Any, daphne_factory: Callable[..., DaphneServer], artifacts_dir: Path
) -> None:
    server = daphne_factory()
    context = chromium.new_context(locale="en-US", viewport=pages.DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # A visitor who chose English in the header earlier (the cookie says en): the browser caches the
    # English catalogue of an English page.
    page.goto(f"{server.url}/")
    page.locator("[data-language-switcher] button[value=en]").click()
    page.wait_for_load_state("load")
    page.goto(f"{server.url}/watch/")
    assert page.locator("html").get_attribute("lang") == "en"
    page.wait_for_function("() => window.django && django.gettext('Sound on') === 'Sound on'", polling=PAGE_POLL_MS)
    catalogues: list[str] = []
    page.on("response", lambda r: catalogues.append(f"{r.status} {r.url}") if "/jsi18n/" in r.url else None)
    # The header's switch, then a match (the computer, from the Finnish home page).
    page.goto(f"{server.url}/")
    page.locator("[data-language-switcher] button[value=fi]").click()
    page.wait_for_load_state("load")
    assert page.locator("html").get_attribute("lang") == "fi"
    _play_the_computer(page, server)
    page.wait_for_function("() => document.querySelector('#kaiza-match').dataset.phase === 'lag'", polling=PAGE_POLL_MS)
    me = driver.root_data(page)["me"]
    # My lag and the computer's: the shot list gets its lag entries, the page goes on to the break.
    if "lag" in driver.actions(page):
        driver.take_turn(page, me)
    page.wait_for_function(
        "() => document.querySelectorAll('.kz-shots li').length >= 2", timeout=60000, polling=PAGE_POLL_MS
    )
    page.wait_for_function(
        "() => document.querySelector('#kaiza-match').dataset.animating === 'no'", polling=PAGE_POLL_MS
    )

    nodes = _text_nodes(page, "#kaiza-match")
    text = "\n".join(nodes).casefold()
    page.screenshot(path=str(artifacts_dir / "new-player-switched-fi.jpg"))
    english = _english_msgids()
    left = sorted({node for node in nodes if node.casefold() in english})
    assert not left, f"English left on the Finnish match page: {left}; catalogues fetched: {catalogues}"
    for word in ENGLISH_SEEN:
        assert not re.search(rf"\b{re.escape(word)}\b", text), (word, nodes)
    for word in FINNISH:
        assert word in text, (word, nodes)
    assert any("teikkaus" in row.casefold() for row in pages.shot_list(page)), pages.shot_list(page)

    # And on to Russian from the match page itself: the page comes back wholly Russian.
    page.locator("[data-language-switcher] button[value=ru]").click()
    page.wait_for_load_state("load")
    page.wait_for_selector("#kaiza-match[data-version]")
    page.wait_for_function("() => document.querySelectorAll('.kz-shots li').length >= 2", polling=PAGE_POLL_MS)
    nodes = _text_nodes(page, "#kaiza-match")
    left = sorted({node for node in nodes if node.casefold() in _english_msgids("ru")})
    assert not left, f"English left on the Russian match page: {left}"
    assert "звук вкл." in "\n".join(nodes).casefold(), nodes
    # The strike's speed in Russian units ("м/с"; it read "m/s" in every language).
    speed = page.locator(".kz-speed").text_content() or ""
    assert re.fullmatch(r"\d+\.\d м/с", speed), speed
    page.screenshot(path=str(artifacts_dir / "new-player-switched-ru.jpg"))
    assert errors == []
    context.close()


def test_play_again_against_the_computer(
    chromium: Any, daphne_factory: Callable[..., DaphneServer], artifacts_dir: Path
) -> None:
    server = daphne_factory()
    page = pages.new_page(chromium)
    page.on("dialog", lambda dialog: dialog.accept())  # "Resign this match?"
    first = _play_the_computer(page, server, level=2)
    page.wait_for_function("() => document.querySelector('#kaiza-match').dataset.phase === 'lag'", polling=PAGE_POLL_MS)
    assert "Bot-L2" in pages.visible_text(page, ".kz-scoreboard")
    assert not page.locator(".kz-play-again").is_visible()  # only on the end card
    page.locator(".kz-resign").click()
    page.wait_for_selector(".kz-end:not([hidden])")
    page.wait_for_function(
        "() => getComputedStyle(document.querySelector('.kz-end')).opacity === '1'", polling=PAGE_POLL_MS
    )  # faded in
    card = pages.visible_text(page, ".kz-end-card")
    assert "Play again" in card and "Rematch" not in card, card
    play_again = page.locator(".kz-play-again")
    assert play_again.is_visible() and play_again.bounding_box()["width"] >= 44
    page.screenshot(path=str(artifacts_dir / "new-player-play-again.jpg"))

    # A spectator of the finished match reads the card without the button: it is the player's.
    watcher = pages.new_page(chromium)
    watcher.goto(first)
    watcher.wait_for_selector(".kz-end:not([hidden])")
    assert watcher.locator(".kz-play-again").count() == 0

    # One click: a new match against the computer at the same level, the player in it.
    play_again.click()
    page.wait_for_url(lambda url: re.search(r"/m/[a-z0-9]+/$", url) is not None and url != first)
    page.wait_for_selector("#kaiza-match[data-version]")
    page.wait_for_function("() => document.querySelector('#kaiza-match').dataset.phase === 'lag'", polling=PAGE_POLL_MS)
    assert page.url != first
    assert driver.root_data(page)["role"] == "player"
    assert "Bot-L2" in pages.visible_text(page, ".kz-scoreboard")
    assert not page.locator(".kz-end").is_visible()
    assert page.errors == [] and watcher.errors == []


def test_visitor_spectator_can_chat_as_guest(
    chromium: Any, daphne_factory: Callable[..., DaphneServer], artifacts_dir: Path
) -> None:
    server = daphne_factory()
    player = pages.new_page(chromium)
    url = _play_the_computer(player, server)
    visitor = pages.new_page(chromium)
    pages.watch(visitor, url)
    chat = ".kz-chat"
    before = pages.visible_text(visitor, chat)
    assert "Sign in or play as a guest to chat." in before and "Chat as a guest" in before, before
    assert visitor.locator(".kz-chat-input").count() == 0
    visitor.locator(chat).screenshot(path=str(artifacts_dir / "new-player-chat-visitor.jpg"))

    visitor.locator(".kz-chat-as-guest").click()
    visitor.wait_for_url(re.compile(re.escape(url) + r"(#.*)?$"))
    visitor.wait_for_selector("#kaiza-match[data-phase]")
    assert driver.root_data(visitor)["role"] == "spectator"
    guest = pages.visible_text(visitor, ".site-user .user-name")
    assert guest.startswith("Guest-"), guest
    assert "Sign in or play as a guest" not in pages.visible_text(visitor, chat)
    visitor.fill(".kz-chat-input", "hyvä lyönti, tervehdys katsomosta")
    visitor.locator(".kz-chat-send").click()
    pages.wait_text(visitor, ".kz-chat-log", "tervehdys katsomosta")
    assert guest in pages.visible_text(visitor, ".kz-chat-log")
    visitor.locator(chat).screenshot(path=str(artifacts_dir / "new-player-chat-guest.jpg"))
    assert visitor.errors == [] and player.errors == []
