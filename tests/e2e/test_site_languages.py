"""The site in Finnish and Russian in a real Chromium against a real daphne: a browser whose
language is Finnish or Russian gets the home page and a match page in that language, drawn (not blank,
Cyrillic in real glyphs: look at test-artifacts/languages-*.jpg), and the header's switcher changes the
language of the page it is on. The JS client's own words are another branch's (i18n-client); this test
reads what the server renders.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import pages
from tests.e2e.test_security_pages import VIOLATIONS, non_blank
from tests.support.daphne import DaphneServer

#: Per language: words the home page and the match page show (from game/locale), and the header's.
WORDS = {
    "fi": {
        "home": ["Kaisaa verkossa.", "Pelaa tietokonetta vastaan", "Näin kaisaa pelataan"],
        "match": ["Lyönnit"],
        "header": ["Pelaa", "Katso", "Seurat", "Rankinglista", "Säännöt"],
    },
    "ru": {
        "home": ["Кайза онлайн.", "Играть с компьютером", "Как играют в кайзу"],
        "match": ["Удары"],
        "header": ["Играть", "Смотреть", "Клубы", "Таблица лидеров", "Правила"],
    },
}


@pytest.mark.browser
@pytest.mark.slow(27)
def test_home_and_match_pages_in_finnish_and_russian(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    server = daphne_factory()
    ids = pages.django_run(server.env, "result = seed_demo()", factories=True)
    errors: list[str] = []
    for language, words in WORDS.items():
        # The browser's own language (Accept-Language) decides a first visit.
        context = chromium.new_context(viewport={"width": 1280, "height": 860}, locale=language)
        context.add_init_script(VIOLATIONS)
        try:
            page = context.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))

            page.goto(f"{server.url}/")
            assert page.locator("html").get_attribute("lang") == language
            text = page.locator("body").inner_text()
            for word in words["home"] + words["header"]:
                assert word.casefold() in text.casefold(), (language, word)
            assert "Play the computer" not in text and "How Kaisa is played" not in text
            current = page.locator("[data-language-switcher] button.current")
            assert current.inner_text() == language.upper()
            page.screenshot(path=str(artifacts_dir / f"languages-home-{language}.jpg"))
            assert non_blank(page, ".home-hero") and non_blank(page, ".site-header")

            page.goto(f"{server.url}/m/{ids['live']}/")
            page.wait_for_selector("canvas.kz-canvas")
            page.wait_for_timeout(800)  # the client draws the position it receives
            assert page.locator("html").get_attribute("lang") == language
            text = page.locator("body").inner_text()
            for word in words["match"] + words["header"]:
                assert word.casefold() in text.casefold(), (language, word)
            page.screenshot(path=str(artifacts_dir / f"languages-match-{language}.jpg"))
            # The shot list reads as a played match's: each row names its player and says what happened
            # (the seeded match's rows once read only "lyönti" / "удар", nine times).
            rows = pages.shot_list(page)
            assert len(rows) >= 9 and all(("Aino" in row or "Eero" in row) and len(row.split()) > 3 for row in rows), (
                rows
            )
            assert non_blank(page, "canvas.kz-canvas") and non_blank(page, ".kz-panel")
            assert page.evaluate("window.__csp") == []
        finally:
            context.close()

    # The switcher: a Finnish browser chooses Russian on the leaderboard and stays there, in Russian;
    # the choice outlives the page (cookie).
    context = chromium.new_context(viewport={"width": 1280, "height": 860}, locale="fi")
    try:
        page = context.new_page()
        page.goto(f"{server.url}/leaderboard/")
        assert page.locator("main h1").inner_text() == "Rankinglista"
        page.locator("[data-language-switcher] button[value=ru]").click()
        page.wait_for_load_state("load")
        assert page.url == f"{server.url}/leaderboard/"
        assert page.locator("html").get_attribute("lang") == "ru"
        assert page.locator("main h1").inner_text() == "Таблица лидеров"
        page.screenshot(path=str(artifacts_dir / "languages-switched-ru.jpg"))
        page.goto(f"{server.url}/clubs/")
        assert page.locator("main h1").inner_text() == "Клубы"
    finally:
        context.close()
    assert errors == []


#: Per language: what the tournament page (a double elimination: its SVG bracket) and a team match
#: waiting for players show (the words of game/locale).
TOURNAMENT_WORDS = {
    "fi": {
        "tournament": ["Kaksoiscup", "Sarjataulukko", "Kaavio", "Kierros 1"],
        "bracket": ["Voittajien kierros 1", "Häviäjien kierros 1", "Finaali"],
        "team": ["Odotetaan joukkueita", "Joukkue 1", "vapaa paikka"],
    },
    "ru": {
        "tournament": ["С двойным выбыванием", "Турнирная таблица", "Сетка", "Тур 1"],
        "bracket": ["Верхняя сетка, тур 1", "Нижняя сетка, тур 1", "Финал"],
        "team": ["Ожидание команд", "Команда 1", "свободное место"],
    },
}


@pytest.mark.browser
@pytest.mark.slow(17)
def test_tournament_bracket_and_team_match_in_finnish_and_russian(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path
) -> None:
    server = daphne_factory()
    ids = pages.django_run(
        server.env,
        "from tests.site.test_i18n_site import seed_tournaments_and_teams\n"
        "result = seed_tournaments_and_teams(seed_demo())",
        factories=True,
    )
    errors: list[str] = []
    for language, words in TOURNAMENT_WORDS.items():
        context = chromium.new_context(viewport={"width": 1280, "height": 1000}, locale=language)
        context.add_init_script(VIOLATIONS)
        try:
            page = context.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(f"{server.url}/tournaments/{ids['bracket']}/")
            assert page.locator("html").get_attribute("lang") == language
            text = page.locator("body").inner_text()
            for word in words["tournament"]:
                assert word in text, (language, word)
            assert "Double elimination" not in text and "Standings" not in text
            labels = page.locator("[data-bracket] svg text").all_text_contents()
            for word in words["bracket"]:
                assert word in labels, (language, word, labels)
            page.locator("[data-bracket]").scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts_dir / f"languages-tournament-{language}.jpg"), full_page=True)
            assert non_blank(page, "[data-bracket]")

            page.goto(f"{server.url}/m/{ids['team match']}/")
            page.wait_for_selector(".kz-team-lobby")
            text = page.locator(".kz-waiting").inner_text()
            for word in words["team"]:
                assert word.casefold() in text.casefold(), (language, word)  # card titles are upper case
            page.screenshot(path=str(artifacts_dir / f"languages-team-match-{language}.jpg"))
            assert non_blank(page, ".kz-team-lobby")
            assert page.evaluate("window.__csp") == []
        finally:
            context.close()
    assert errors == []
