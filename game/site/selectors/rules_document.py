"""The rules page (`/rules/`): `docs/rules.md`, the one source of the rules, rendered to HTML,
and its translations `docs/rules.fi.md` and `docs/rules.ru.md`, which keep every anchor of the
English text, so a verdict's link `/rules/#K-6.2` lands on the same rule in every language.

The document is Markdown with an anchor ``<a id="K-x.y"></a>`` before each rule and section, so that every
rule id the code cites has a place to link to. The rendering (Python-Markdown, at the first request and
again only when the file changes) turns those anchors into the ids of the rule's own paragraph or heading,
makes each rule's label a link to itself, links every other rule id mentioned in the text, and gives the
tables whose first column is "Ball" (or "Pallo", "Шар") a swatch of the ball's colour per row (the scoring
table). Verdicts link their ``rules`` here through :func:`rule_url` (the ``rule_links`` template filter).
Each file's last section ("In the code") names modules for developers; the page ends before it.
"""

from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as etree
from dataclasses import dataclass
from pathlib import Path

import markdown
from django.conf import settings
from django.urls import reverse
from markdown.extensions import Extension
from markdown.extensions.tables import TableExtension
from markdown.treeprocessors import Treeprocessor
from markdown.util import HTML_PLACEHOLDER_RE

RULES_PATH: Path = Path(settings.BASE_DIR) / "docs" / "rules.md"
#: The rules in each language the site speaks; English is the source and the fallback.
RULES_PATHS: dict[str, Path] = {
    "en": RULES_PATH,
    "fi": Path(settings.BASE_DIR) / "docs" / "rules.fi.md",
    "ru": Path(settings.BASE_DIR) / "docs" / "rules.ru.md",
}
#: A rule id as the rules document and the verdicts write it: a section (K-5) or a rule (K-5.3).
RULE_ID = re.compile(r"\bK-\d+(?:\.\d+)?\b")
#: Where each document's player-facing part ends: what follows ("In the code": module names) is for
#: developers reading the file, not for players (a Russian page that ended in file names).
DEVELOPERS_ONLY = "<!-- The site shows the rules up to here;"
_ANCHOR_OPEN = re.compile(r'^<a id="([^"<>]+)">$')
_HEADINGS = ("h1", "h2", "h3", "h4")
#: Where rule ids in running text are not made links: code, links, headings (a section's own id).
_NO_LINKS = ("a", "code", "pre", *_HEADINGS)
#: The first column's heading that makes a table a table of balls, in each language.
_BALL_HEADINGS = ("ball", "pallo", "шар")
#: The swatch of a ball named in a "Ball" column: the first of these word stems in the cell decides.
_SWATCHES = (
    ("kaisa", "kaisa"),
    ("кайз", "kaisa"),
    ("red", "red"),
    ("punai", "red"),
    ("красн", "red"),
    ("white", "white"),
    ("valkoi", "white"),
    ("бел", "white"),
)


@dataclass(frozen=True)
class RulesDocument:
    """The rendered page: ``html`` (safe: our own file), the ``title``, the sections for a table of
    contents as (id, heading text), and every anchor id in document order."""

    html: str
    title: str
    sections: tuple[tuple[str, str], ...]
    anchors: tuple[str, ...]


def rules_language(language: str | None) -> str:
    """The language of the rules a reader gets: the request's language if the rules are written in it
    (``fi-FI`` reads ``fi``), else English."""
    base = (language or "en").split("-")[0].lower()
    return base if base in RULES_PATHS else "en"


def rules_document(language: str | None = "en") -> RulesDocument:
    """The rules page's content in ``language`` (English when there is no such translation), rendered
    once per version of its file (the mtime)."""
    path = RULES_PATHS[rules_language(language)]
    return _render(str(path), path.stat().st_mtime_ns)


def rule_url(rule_id: str) -> str | None:
    """`/rules/#K-6.2` for a rule id the rules document has, else None (never a link to nowhere)."""
    if rule_id not in rules_document().anchors:
        return None
    return f"{reverse('rules')}#{rule_id}"


@functools.lru_cache(maxsize=6)
def _render(path: str, mtime_ns: int) -> RulesDocument:
    """Cached by the file's path and modification time: an edited document is rendered anew. The part
    after the developers' marker is not on the page."""
    return render(Path(path).read_text(encoding="utf-8").split(DEVELOPERS_ONLY, 1)[0])


def render(source: str) -> RulesDocument:
    """The rules page for the Markdown ``source`` (the file's text; tests give their own)."""
    processor = _RulesTreeprocessor()
    # Column alignment as `align` attributes: the site's Content-Security-Policy refuses inline styles.
    md = markdown.Markdown(
        extensions=[TableExtension(use_align_attribute=True), _RulesExtension(processor)], output_format="html"
    )
    html = md.convert(source)
    return RulesDocument(
        html=html,
        title=processor.title,
        sections=tuple(processor.sections),
        anchors=tuple(processor.anchors),
    )


class _RulesExtension(Extension):
    def __init__(self, processor: _RulesTreeprocessor) -> None:
        super().__init__()
        self.processor = processor

    def extendMarkdown(self, md: markdown.Markdown) -> None:  # Python-Markdown names it
        self.processor.md = md
        # After "inline" (20): the tree holds strong/code elements; before "prettify" (10).
        md.treeprocessors.register(self.processor, "kaiza_rules", 15)


class _RulesTreeprocessor(Treeprocessor):
    """Anchors onto their elements, rule labels and mentions as links, ball swatches in "Ball" tables."""

    def __init__(self) -> None:
        super().__init__()
        self.title = ""
        self.sections: list[tuple[str, str]] = []
        self.anchors: list[str] = []

    def run(self, root: etree.Element) -> None:
        # Every anchor of the document, in order (also one not moved below: it stays an <a id>, and works).
        for raw in self.md.htmlStash.rawHtmlBlocks:
            anchor = _ANCHOR_OPEN.match(str(raw).strip())
            if anchor is not None and anchor.group(1) not in self.anchors:
                self.anchors.append(anchor.group(1))
        self._move_anchors(root)
        for element in root.iter():
            if element.tag in _HEADINGS:
                text = "".join(element.itertext()).strip()
                if element.tag == "h1" and not self.title:
                    self.title = text
                elif element.tag == "h2":
                    if element.get("id") is None:
                        element.set("id", re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-"))
                    # The contents name the section; its id (K-5) is in the address the link goes to.
                    self.sections.append((element.get("id", ""), re.sub(r"\s*\(K-\d+\)$", "", text)))
            elif element.tag == "table":
                self._swatches(element)
        self._label_links(root)
        self._mention_links(root, linked=False)

    # -- anchors ---------------------------------------------------------------------------------------
    def _anchor_of(self, text: str | None) -> tuple[str, str] | None:
        """(anchor id, the text after it) if ``text`` starts with a stashed ``<a id="…"></a>`` (Python-Markdown
        stashes the opening and the closing tag as two placeholders)."""
        opening = HTML_PLACEHOLDER_RE.match(text or "")
        if opening is None:
            return None
        closing = HTML_PLACEHOLDER_RE.match(text or "", opening.end())
        if closing is None or self._raw(closing) != "</a>":
            return None
        anchor = _ANCHOR_OPEN.match(self._raw(opening))
        if anchor is None:
            return None
        return anchor.group(1), (text or "")[closing.end() :]

    def _raw(self, placeholder: re.Match[str]) -> str:
        return str(self.md.htmlStash.rawHtmlBlocks[int(placeholder.group(1))]).strip()

    def _move_anchors(self, root: etree.Element) -> None:
        """``<p><a id="K-1"></a></p><h2>…`` becomes ``<h2 id="K-1">…``; ``<p><a id="K-1.1"></a>…`` becomes
        ``<p id="K-1.1" class="rule">…``: the id is on what it names, so ``:target`` can show it."""
        children = list(root)
        for index, element in enumerate(children):
            found = self._anchor_of(element.text)
            if found is None:
                continue
            anchor, rest = found
            following = children[index + 1] if index + 1 < len(children) else None
            if not rest.strip() and len(element) == 0 and following is not None and following.tag in _HEADINGS:
                following.set("id", anchor)
                root.remove(element)
                continue
            element.text = rest
            element.set("id", anchor)
            if RULE_ID.fullmatch(anchor):
                element.set("class", "rule")

    # -- links -----------------------------------------------------------------------------------------
    def _label_links(self, root: etree.Element) -> None:
        """A rule's bold label (``**K-6.2**``) links to the rule itself: a reader can copy its address."""
        for paragraph in root.iter("p"):
            anchor = paragraph.get("id")
            label = paragraph[0] if len(paragraph) else None
            if anchor is None or label is None or label.tag != "strong" or (label.text or "").strip() != anchor:
                continue
            link = etree.SubElement(label, "a", {"href": f"#{anchor}", "class": "rule-id"})
            link.text, label.text = label.text, None

    def _mention_links(self, element: etree.Element, *, linked: bool) -> None:
        """Rule ids mentioned in running text ("see K-7.2") become links to their anchors."""
        inside = linked or element.tag in _NO_LINKS
        if not inside:
            element.text, made = self._split(element.text)
            for offset, link in enumerate(made):
                element.insert(offset, link)
        for child in list(element):
            self._mention_links(child, linked=inside)
            if not inside:
                child.tail, made = self._split(child.tail)
                position = list(element).index(child) + 1
                for offset, link in enumerate(made):
                    element.insert(position + offset, link)

    def _split(self, text: str | None) -> tuple[str | None, list[etree.Element]]:
        """``text`` up to its first rule id, and links for each id with the text after it as their tail.
        An id the document has no anchor for stays text (never a link to nowhere)."""
        if not text or RULE_ID.search(text) is None:
            return text, []
        parts = RULE_ID.split(text)
        ids = RULE_ID.findall(text)
        head = parts[0]
        links: list[etree.Element] = []
        for rule_id, tail in zip(ids, parts[1:], strict=True):
            if rule_id not in self.anchors:
                if links:
                    links[-1].tail = f"{links[-1].tail}{rule_id}{tail}"
                else:
                    head = f"{head}{rule_id}{tail}"
                continue
            link = etree.Element("a", {"href": f"#{rule_id}", "class": "rule-ref"})
            link.text, link.tail = rule_id, tail
            links.append(link)
        return head, links

    # -- the scoring table -----------------------------------------------------------------------------
    def _swatches(self, table: etree.Element) -> None:
        """A table whose first column is "Ball" gets a swatch of each row's ball (CSS draws it), and each
        of its cells its column's heading (``data-label``): on a phone, where five columns do not fit,
        CSS lays each ball's row out as a card of its points under those headings."""
        head = table.find("thead/tr/th")
        if head is None or "".join(head.itertext()).strip().lower() not in _BALL_HEADINGS:
            return
        table.set("class", "ball-table")
        headings = ["".join(th.itertext()).strip() for th in table.iterfind("thead/tr/th")]
        for row in table.iterfind("tbody/tr"):
            for cell, heading in zip(row.iterfind("td"), headings, strict=False):
                cell.set("data-label", heading)
        for cell in table.iterfind("tbody/tr/td[1]"):
            words = "".join(cell.itertext()).lower()
            kind = next((swatch for word, swatch in _SWATCHES if word in words), None)
            if kind is None:
                continue
            swatch = etree.Element("span", {"class": f"ball-swatch ball-swatch-{kind}", "aria-hidden": "true"})
            swatch.tail, cell.text = cell.text, None
            cell.insert(0, swatch)
