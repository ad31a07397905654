"""``{{ m.phase|phase_words }}``: a match's phase (the snapshot's ``phase``, game/engine/rules/state.py
``Phase``) in the reader's words, for the live tables the server renders. Players read words, never
the engine's ids; a phase this table does not know yet is shown as "play" rather than as its id.
"""

from __future__ import annotations

from django import template
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

register = template.Library()

PHASE_WORDS: dict[str, Promise] = {
    "lag": _("lag"),  # K-3.1
    "choose_break": _("choosing the break"),  # K-3.2
    "opening_placement": _("placing for the break"),  # K-3.3
    "play": _("play"),
    "extra_visits": _("extra visits"),  # K-11.1
    "shootout": _("shoot-out"),  # K-11.2 to K-11.4
    "finished": _("finished"),  # K-9
}


@register.filter
def phase_words(phase: str | None) -> str:
    return str(PHASE_WORDS.get(phase or "play", PHASE_WORDS["play"]))
