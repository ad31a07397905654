"""The rules page in the reader's language. `/rules/` is docs/rules.md, docs/rules.fi.md or
docs/rules.ru.md by the request's language (Accept-Language, or the switcher's `django_language` cookie),
English for any other; every language has the same anchors, so a verdict's `/rules/#K-6.2` lands on the
same rule whatever the reader reads, and each has the scoring table as a table of balls and points."""

from __future__ import annotations

import re

import pytest

from game.site.selectors.rules_document import RULES_PATHS, render, rules_document, rules_language
from tests.site.test_rules_page import Page, cited_rule_ids

#: Words only that language's page has (its title), so a page in the wrong language fails.
TITLES = {
    "en": "The rules of Kaisa as Kaiza plays them",
    "fi": "Kaisan säännöt niin kuin Kaiza ne pelaa",
    "ru": "Правила кайзы, как в неё играет Kaiza",
}
#: The scoring table's ball column per language: (heading, white, red, kaisa) as the rows name them.
BALL_ROWS = {
    "en": ("Ball", "The opponent's white", "A red", "The kaisa"),
    "fi": ("Pallo", "Vastustajan valkoinen", "Punainen", "Kaisa"),
    "ru": ("Шар", "Биток соперника (белый)", "Красный", "Кайза"),
}


def _page(client, language: str, *, cookie: bool = False) -> tuple[str, Page]:
    if cookie:
        client.cookies["django_language"] = language
        response = client.get("/rules/")
    else:
        response = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    html = response.content.decode()
    return html, Page(html)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fi", "ru"])
def test_each_language_has_every_rule_id_and_the_scoring_table(client, language: str) -> None:
    html, page = _page(client, language)
    assert TITLES[language] in html
    for other, title in TITLES.items():
        if other != language:
            assert title not in html, (language, other)
    cited = cited_rule_ids()
    missing = sorted(rule for rule in cited if rule not in page.ids)
    assert not missing, f"{language}: rule ids without an anchor: {missing}"
    for rule in cited:
        tag, attributes = page.ids[rule]
        assert (tag, attributes.get("class")) == ("p", "rule") if "." in rule else tag in ("h2", "h3"), rule
    # The scoring table (K-5.2, K-5.3, K-5.5, K-8.1): a swatch per ball and the same points in every language.
    heading, white, red, kaisa = BALL_ROWS[language]
    tables = [t for t in page.tables if t and t[0] and t[0][0][0] == heading]
    assert len(tables) == 1, page.tables
    _, *rows = tables[0]
    balls = {cells[0][0]: ([text for text, _ in cells[1:]], cells[0][1]) for cells in rows}
    assert balls[white][0] == ["2", "2", "1 + S", "−2"] and "ball-swatch-white" in balls[white][1]
    assert balls[red][0] == ["3", "3", "3 + S", "−3"] and "ball-swatch-red" in balls[red][1]
    assert balls[kaisa][0][:2] == ["6", "6"] and balls[kaisa][0][2].startswith("9 + S")
    assert balls[kaisa][0][3] == "−6" and "ball-swatch-kaisa" in balls[kaisa][1]
    assert page.inline_styles == 0 and "<script" not in html


@pytest.mark.django_db
def test_every_language_has_the_same_anchors_in_the_same_order(client) -> None:
    ids = {}
    for language in ("en", "fi", "ru"):
        _, page = _page(client, language)
        ids[language] = [i for i in page.ids if i.startswith("K-")]
        assert len(ids[language]) == 64, (language, len(ids[language]))
    assert ids["fi"] == ids["en"] and ids["ru"] == ids["en"]
    # The documents themselves, not only the page: the rendering finds the same anchors in each file.
    anchors = {language: rules_document(language).anchors for language in RULES_PATHS}
    assert anchors["fi"] == anchors["en"] == anchors["ru"]
    # And each heading's section id, for the contents.
    sections = {language: [sid for sid, _ in rules_document(language).sections] for language in RULES_PATHS}
    assert sections["fi"] == sections["en"] == sections["ru"]


@pytest.mark.django_db
def test_the_language_comes_from_the_cookie_and_falls_back_to_english(client) -> None:
    html, _ = _page(client, "ru", cookie=True)
    assert TITLES["ru"] in html and 'lang="ru"' in html
    client.cookies.pop("django_language")
    html, _ = _page(client, "de")  # no German rules: English
    assert TITLES["en"] in html and 'lang="en"' in html
    html, _ = _page(client, "fi-FI,fi;q=0.9")
    assert TITLES["fi"] in html


def test_rules_language_reads_a_region_and_refuses_the_unknown() -> None:
    assert rules_language("fi-fi") == "fi" and rules_language("ru") == "ru"
    assert rules_language("de") == "en" and rules_language(None) == "en" and rules_language("") == "en"


def test_the_ball_table_is_found_in_each_language_and_only_by_its_first_column() -> None:
    for heading, ball, kind in (("Pallo", "Punainen", "red"), ("Шар", "Кайза", "kaisa"), ("Ball", "A white", "white")):
        document = render(f"| {heading} | Pisteet |\n|---|--:|\n| {ball} | 3 |\n")
        assert f"ball-swatch-{kind}" in document.html and 'class="ball-table"' in document.html
    assert "ball-swatch" not in render("| Kuula | x |\n|---|---|\n| Punainen | 3 |\n").html


def _outside_code(html: str) -> str:
    """The page's text with code, scripts, styles and tags taken out."""
    html = re.sub(r"<(code|script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fi", "ru"])
def test_each_rules_page_is_wholly_in_its_language(client, language: str) -> None:
    """The Russian page ended in "В коде", a section of module names (state.py, legality.py…)
    for developers; the page stops before it in every language (the files keep it for their readers)."""
    html, page = _page(client, language)
    assert "in-the-code" not in page.ids
    assert not re.search(r"\b\w+\.py\b", html), re.findall(r"\b\w+\.py\b", html)
    for heading in ("In the code", "Koodissa", "В коде"):
        assert heading not in html, (language, heading)
    if language == "ru":
        # No Latin word outside code in the page's main part but the brand (the rule ids are K-…).
        main = html[html.index("<main") : html.index("</main>")]
        latin = set(re.findall(r"[A-Za-z]{2,}", _outside_code(main).replace('class="', ""))) - {"Kaiza"}
        assert not latin, latin
    # The document's files still have the developers' section, after the marker.
    assert "in-the-code" in RULES_PATHS[language].read_text()
