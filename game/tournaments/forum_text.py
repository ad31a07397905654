"""Forum-ready text written twice at once: in BBCode (the federation's forum) and as plain text (any
other place), so the two say the same. Every piece of text someone typed (a name, an event's name, a
venue) goes through `text`, which makes it inert in BBCode: a player named "[b]Jussi" cannot open a
tag in the post. Pure: no Django.
"""

from __future__ import annotations

from urllib.parse import quote

#: Written after each "[" of typed text: a tag's name must follow its bracket at once, so "[\u200bb]"
#: is shown as typed and opens nothing. Names never hold it (game.common.names drops invisible
#: characters), so it marks our escape alone.
_INERT = "\u200b"
RULE = "-" * 40


def bbcode_escape(text: str) -> str:
    """Typed text as BBCode shows it literally."""
    return text.replace("[", "[" + _INERT)


def url_inert(url: str) -> str:
    """A link as a BBCode tag's value: its brackets and quotes escaped as an address may have them."""
    return quote(url, safe=":/?#@!$&'()*+,;=%-._~")


class ForumText:
    """The builder: each call adds the same words to both texts."""

    def __init__(self) -> None:
        self._bbcode: list[str] = []
        self._plain: list[str] = []

    def text(self, words: str) -> ForumText:
        self._bbcode.append(bbcode_escape(words))
        self._plain.append(words)
        return self

    def bold(self, words: str) -> ForumText:
        self._bbcode.append(f"[b]{bbcode_escape(words)}[/b]")
        self._plain.append(words)
        return self

    def link(self, label: str, url: str) -> ForumText:
        """A link with its words in BBCode; the words and the address in plain text."""
        self._bbcode.append(f"[url={url_inert(url)}]{bbcode_escape(label)}[/url]")
        self._plain.append(f"{label}: {url}" if label else url)
        return self

    def line(self, words: str = "") -> ForumText:
        return self.text(words).end()

    def heading(self, words: str) -> ForumText:
        return self.bold(words).end()

    def info(self, label: str, value: str) -> ForumText:
        """A line "label: value", the label bold in BBCode."""
        if not value:
            return self
        return self.bold(label).text(": " + value).end()

    def rule(self) -> ForumText:
        return self.line(RULE)

    def end(self) -> ForumText:
        self._bbcode.append("\n")
        self._plain.append("\n")
        return self

    @property
    def bbcode(self) -> str:
        return "".join(self._bbcode).strip() + "\n"

    @property
    def plain(self) -> str:
        return "".join(self._plain).strip() + "\n"
