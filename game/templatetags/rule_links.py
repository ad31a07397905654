"""``{{ verdict.rules|rule_links }}``: a verdict's rule ids as links to their anchors on the rules page.

Wherever the server renders a verdict in HTML (the replay's shot list), the rule ids it cites lead to the
rule itself (`/rules/#K-5.3`), so a player can read why. An id the rules document does not have is shown
as plain text, never as a link to nowhere; anything that is not a rule id is left out.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from game.site.selectors.rules_document import RULE_ID, rule_url

register = template.Library()


@register.filter
def rule_links(rules: Iterable[Any] | None) -> SafeString | str:
    """``["K-5.3", "K-6.1"]`` → ``<span class="rule-links"><a href="/rules/#K-5.3" …>K-5.3</a> …</span>``."""
    if isinstance(rules, str):
        rules = [rules]
    ids = [rule for rule in (rules or ()) if isinstance(rule, str) and RULE_ID.fullmatch(rule)]
    if not ids:
        return ""
    parts = []
    for rule_id in ids:
        url = rule_url(rule_id)
        if url is None:
            parts.append(format_html('<span class="rule-link">{}</span>', rule_id))
        else:
            parts.append(
                format_html(
                    '<a class="rule-link" href="{}" title="Rule {} on the rules page">{}</a>', url, rule_id, rule_id
                )
            )
    return format_html('<span class="rule-links">{}</span>', format_html_join(" ", "{}", ((p,) for p in parts)))
