"""The chat's quick phrases: their words, in one place, keyed by the codes the protocol accepts.

A quick phrase travels as its code (`protocol.CHAT_PHRASES`), not as text: each reader sees it in their
own language (the match page gets the words in its language from `phrase_words`, the replay page renders
them server-side). Free text stays as written.
"""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

from game.realtime import protocol

PHRASES = {
    "good_shot": pgettext_lazy("chat phrase", "Good shot"),
    "thanks": pgettext_lazy("chat phrase", "Thanks"),
    "rematch": pgettext_lazy("chat phrase", "Rematch?"),
    "good_game": pgettext_lazy("chat phrase", "Good game"),
}
assert tuple(PHRASES) == protocol.CHAT_PHRASES, "the protocol's phrase codes and their words go together"


def phrase_words() -> dict[str, str]:
    """Every phrase in the active language, in the protocol's order (the buttons' order)."""
    return {code: str(PHRASES[code]) for code in protocol.CHAT_PHRASES}


def phrase_text(code: str) -> str:
    """One phrase in the active language ("" for an unknown code)."""
    words = PHRASES.get(code)
    return str(words) if words is not None else ""
