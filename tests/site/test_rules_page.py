"""The rules are on the site. `/rules/` renders docs/rules.md (the one source) in the
site's layout; every rule id the code cites lands on its rule (`/rules/#K-6.2`); the scoring table is a
table of balls and points; verdicts rendered by the server link their rule ids there (the replay page)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.template import Context, Template

from tests.support.community_factories import make_player, play_engine_match

ROOT = Path(__file__).resolve().parents[2]
RULE_ID = re.compile(r"\bK-\d+(?:\.\d+)?\b")


class Page(HTMLParser):
    """The parts of a page these tests read: every id (and its element), links, the tables' cells."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: dict[str, tuple[str, dict[str, str]]] = {}
        self.links: list[tuple[str, str]] = []  # (href, class)
        self.tables: list[list[list[tuple[str, list[str]]]]] = []  # rows of (cell text, classes inside)
        self.inline_styles = 0
        self._link: str | None = None
        self._cell: list[str] | None = None
        self._cell_classes: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {k: v or "" for k, v in attrs}
        if "style" in attributes:
            self.inline_styles += 1
        if "id" in attributes:
            assert attributes["id"] not in self.ids, f"duplicate id {attributes['id']}"
            self.ids[attributes["id"]] = (tag, attributes)
        if tag == "a" and "href" in attributes:
            self.links.append((attributes["href"], attributes.get("class", "")))
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell, self._cell_classes = [], []
        elif self._cell is not None and attributes.get("class"):
            self._cell_classes.extend(attributes["class"].split())

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append((" ".join("".join(self._cell).split()), self._cell_classes))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def cited_rule_ids() -> dict[str, str]:
    """Every rule id cited in game/ (the engine's verdict `rules` lists, the words, the checks, the
    templates), with one file that cites it."""
    cited: dict[str, str] = {}
    for pattern in ("*.py", "*.html"):
        for path in sorted((ROOT / "game").rglob(pattern)):
            for rule in RULE_ID.findall(path.read_text(errors="replace")):
                cited.setdefault(rule, str(path.relative_to(ROOT)))
    return cited


@pytest.mark.django_db
def test_the_rules_page_has_an_anchor_for_every_rule_id_cited_in_the_code(client) -> None:
    response = client.get("/rules/")
    assert response.status_code == 200
    html = response.content.decode()
    page = Page(html)
    cited = cited_rule_ids()
    assert len(cited) > 40 and "K-6.2" in cited
    missing = {rule: path for rule, path in sorted(cited.items()) if rule not in page.ids}
    assert not missing, f"rule ids cited in game/ without an anchor on /rules/: {missing}"
    # The anchor is the rule itself (a paragraph that starts with its label) or its section's heading.
    for rule in cited:
        tag, attributes = page.ids[rule]
        if "." in rule:
            assert tag == "p" and attributes.get("class") == "rule", (rule, tag, attributes)
        else:
            assert tag in ("h2", "h3"), (rule, tag)
    assert ("#K-6.2", "rule-id") in page.links  # a rule's label links to itself
    # In the site's layout, under its Content-Security-Policy: no inline styles or scripts.
    assert 'class="site-header"' in html and "game/css/rules.css" in html
    assert page.inline_styles == 0 and "<script" not in html
    assert "The rules of Kaisa as Kaiza plays them" in html


@pytest.mark.django_db
def test_the_scoring_table_is_a_table_of_balls_and_points(client) -> None:
    page = Page(client.get("/rules/").content.decode())
    tables = [t for t in page.tables if t and t[0] and t[0][0][0] == "Ball"]
    assert len(tables) == 1, page.tables
    header, *rows = tables[0]
    assert [text for text, _ in header][:3] == ["Ball", "A carom on it", "Called and potted, no carom"]
    balls = {cells[0][0]: ([text for text, _ in cells[1:]], cells[0][1]) for cells in rows}
    # K-5.2 caroms, K-5.3 pots, K-5.5 the banked kaisa, K-8.1 the own white dropping after hitting it.
    assert balls["The opponent's white"][0] == ["2", "2", "1 + S", "−2"]
    assert balls["A red"][0] == ["3", "3", "3 + S", "−3"]
    assert balls["The kaisa"][0][:2] == ["6", "6"] and balls["The kaisa"][0][2].startswith("9 + S")
    assert balls["The kaisa"][0][3] == "−6"
    swatches = {name: classes for name, (_, classes) in balls.items()}
    assert "ball-swatch-white" in swatches["The opponent's white"]
    assert "ball-swatch-red" in swatches["A red"] and "ball-swatch-kaisa" in swatches["The kaisa"]


@pytest.mark.django_db
def test_the_rules_are_linked_from_the_header_the_footer_and_the_home_page(client) -> None:
    html = client.get("/").content.decode()
    header = html[html.index('<nav class="site-nav">') : html.index("</nav>")]
    footer = html[html.index('<footer class="site-footer">') :]
    brief = html[html.index('<section class="home-rules') :]
    brief = brief[: brief.index("</section>")]
    for part in (header, footer, brief):
        assert 'href="/rules/"' in part


def test_rule_links_makes_each_known_rule_id_a_link_and_nothing_else() -> None:
    rendered = Template("{% load rule_links %}{{ rules|rule_links }}").render(
        Context({"rules": ["K-5.3", "K-99.1", "<script>alert(1)</script>", 7]})
    )
    assert '<a class="rule-link" href="/rules/#K-5.3"' in rendered and ">K-5.3</a>" in rendered
    assert '<span class="rule-link">K-99.1</span>' in rendered  # no such rule: no link to nowhere
    assert "script" not in rendered and "7" not in rendered.replace("K-", "")
    assert Template("{% load rule_links %}{{ rules|rule_links }}").render(Context({"rules": None})) == ""


@pytest.mark.django_db
def test_the_replay_page_links_each_verdicts_rule_ids_to_the_rules_page(client) -> None:
    match = play_engine_match(make_player("Alice"), make_player("Bob"), inputs=10)
    html = client.get(f"/m/{match.pk}/replay/").content.decode()
    page = Page(html)
    rule_links = [href for href, css in page.links if css == "rule-link"]
    cited = [rule for shot in match.shots.order_by("seq") for rule in (shot.verdict or {}).get("rules") or []]
    assert cited, "the replayed match cites no rule"
    assert sorted(rule_links) == sorted(f"/rules/#{rule}" for rule in cited)
    anchors = Page(client.get("/rules/").content.decode()).ids
    assert all(href.split("#")[1] in anchors for href in rule_links)


def test_the_rendering_puts_each_anchor_on_what_it_names_and_links_only_known_ids() -> None:
    from game.site.selectors.rules_document import render

    document = render(
        "# Title\n\n"
        '<a id="K-1"></a>\n## 1. Section (K-1)\n\n'
        '<a id="K-1.1"></a>**K-1.1** See K-1.1 and K-9.9, not `K-1.1`.\n\n'
        "| Ball | Points |\n|---|--:|\n| The kaisa | 6 |\n| A red | 3 |\n"
    )
    page = Page(document.html)
    assert document.title == "Title" and document.sections == (("K-1", "1. Section"),)
    assert document.anchors == ("K-1", "K-1.1")
    assert page.ids["K-1"][0] == "h2" and page.ids["K-1.1"] == ("p", {"class": "rule", "id": "K-1.1"})
    assert page.links == [("#K-1.1", "rule-id"), ("#K-1.1", "rule-ref")]  # K-9.9 and the code stay text
    assert "K-9.9" in document.html and "<code>K-1.1</code>" in document.html
    (table,) = page.tables
    assert [cells[0][1] for cells in table[1:]] == [
        ["ball-swatch", "ball-swatch-kaisa"],
        ["ball-swatch", "ball-swatch-red"],
    ]
    assert table[1][1][0] == "6" and 'align="right"' in document.html and "style=" not in document.html


#: The setting names of the code (game/engine/rules/ruleset.py, game/engine/table.py): never on a page.
OPTION_NAMES = ("kaisa_carom_base", "kaisa_bank_bonus", "touch_penalty", "plain_white_at_59_passes", "ball_diameter")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "setting"), [("en", "club setting"), ("fi", "seuran asetus"), ("ru", "настройка клуба")]
)
def test_the_rules_page_and_the_lobby_speak_words_not_option_names(client, language: str, setting: str) -> None:
    """The rules page says a club may change a rule in words ("club setting: 9, or 6 to simply add"),
    never "option `touch_penalty`: 0"; the lobby's match form never speaks in rule ids ("Clock (K-11)",
    "empty: the clock's; 65 is 60 + 5")."""
    rules = client.get("/rules/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert not [name for name in OPTION_NAMES if name in rules], language
    assert not re.search(r"<code>[a-z]+(?:_[a-z0-9]+)+</code>", rules), language
    assert rules.lower().count(setting) >= 5, language
    lobby = client.get("/lobby/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    form = lobby[lobby.index('id="lobby-create-form"') : lobby.index("</form>", lobby.index('id="lobby-create-form"'))]
    quick = lobby[lobby.index('id="seek-form"') : lobby.index("</form>", lobby.index('id="seek-form"'))]
    assert not RULE_ID.search(form + quick), RULE_ID.findall(form + quick)
    assert "the clock's" not in form and "60 + 5\n" not in form and "65 is" not in form
