"""The rules page in Finnish and Russian in a real Chromium against a real daphne: the reader's
language (Accept-Language, or the `django_language` cookie the header's switcher sets) picks the text, a
verdict's address `/rules/#K-6.2` opens on the same rule in each language, and the scoring table shows
each ball as a disc in its colour with its points. Screenshots: test-artifacts/rules-{fi,ru}-*.jpg.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_rules_page import assert_table_fits_a_phone, centre_colour
from tests.e2e.test_security_pages import VIOLATIONS
from tests.support.daphne import DaphneServer

#: (title, the start of K-6.2, the table's rows as a reader sees them, the contents' "4. Scoring").
LANGUAGES = {
    "fi": (
        "Kaisan säännöt niin kuin Kaiza ne pelaa",
        "K-6.2 Nämä lyönnit eivät tuo pisteitä",
        ("Vastustajan valkoinen", "Punainen", "Kaisa", "1 + S", "3 + S", "9 + S", "−6"),
        "4. Pisteet",
    ),
    "ru": (
        "Правила кайзы, как в неё играет Kaiza",
        "K-6.2 Эти удары не приносят очков",
        ("Биток соперника (белый)", "Красный", "Кайза", "1 + S", "3 + S", "9 + S", "−6"),
        "4. Очки",
    ),
}


@pytest.mark.browser
@pytest.mark.parametrize("language", ["fi", "ru"])
def test_the_rules_page_in_the_readers_language(
    daphne_factory: Callable[..., DaphneServer], chromium: Any, artifacts_dir: Path, language: str
) -> None:
    title, rule_start, row_words, scoring = LANGUAGES[language]
    server = daphne_factory()
    context = chromium.new_context(viewport={"width": 1280, "height": 860}, locale=language)
    context.add_init_script(VIOLATIONS)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.set_extra_http_headers({"Accept-Language": language})
        page.goto(f"{server.url}/rules/")
        assert page.locator("main h1").inner_text() == title
        assert scoring in page.locator("nav.rules-contents").inner_text()
        page.screenshot(path=str(artifacts_dir / f"rules-{language}-top.jpg"))

        # A verdict's link lands on the same rule, in this language.
        page.goto(f"{server.url}/rules/#K-6.2")
        page.wait_for_load_state("networkidle")
        rule = page.locator('[id="K-6.2"]')
        assert rule.is_visible() and rule.inner_text().startswith(rule_start)
        box = rule.bounding_box()
        assert box is not None and 0 <= box["y"] < 860 / 2, box
        page.screenshot(path=str(artifacts_dir / f"rules-{language}-K-6.2.jpg"))

        # The scoring table: a disc per ball in its colour, the points in every language the same.
        table = page.locator("table.ball-table")
        table.scroll_into_view_if_needed()
        text = table.inner_text()
        for words in row_words:
            assert words in text, text
        colours = {}
        for kind in ("white", "red", "kaisa"):
            swatch = page.locator(f"table.ball-table .ball-swatch-{kind}")
            box = swatch.bounding_box()
            assert box is not None and box["width"] >= 12 and abs(box["width"] - box["height"]) < 1, (kind, box)
            colours[kind] = centre_colour(page, swatch)
        r, g, b = colours["red"]
        assert r > 150 and g < 110 and b < 110, colours
        r, g, b = colours["kaisa"]
        assert r > 180 and g > 130 and b < 90, colours
        assert min(colours["white"]) > 200, colours
        table.screenshot(path=str(artifacts_dir / f"rules-{language}-scoring-table.jpg"))
        # On a phone: a card per ball, each value beside its heading in this language.
        rows = assert_table_fits_a_phone(page, server.url, artifacts_dir / f"rules-{language}-phone-table.png")
        assert [row[0] for row in rows] == list(row_words[:3]), rows
        page.set_viewport_size({"width": 1280, "height": 860})

        # An English browser: English rules, until the switcher's cookie asks for this language.
        english = chromium.new_context(locale="en-US")
        try:
            other = english.new_page()
            other.goto(f"{server.url}/rules/")
            assert other.locator("main h1").inner_text() == "The rules of Kaisa as Kaiza plays them"
            english.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
            other.goto(f"{server.url}/")  # a new document: /rules/#… from /rules/ would only scroll
            other.goto(f"{server.url}/rules/#K-6.2")
            assert other.locator("main h1").inner_text() == title
            assert other.locator('[id="K-6.2"]').inner_text().startswith(rule_start)
        finally:
            english.close()
        assert page.evaluate("window.__csp") == []
        assert errors == []
    finally:
        context.close()
