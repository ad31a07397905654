"""What every match write shares: the refusal (`MatchError`), what a service did (`Applied`), the
locked Match row, and the stored event that raises its version. The package's modules (lifecycle,
inputs, presence) all stand on these; this module imports none of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_noop

from game.common import json_text
from game.matches.selectors.history import worded_event_data
from game.matches.services.rows import JsonText, insert_row
from game.models import Match, MatchEvent
from game.realtime import outbound


class MatchError(Exception):
    """A refused input, answered as `error {code, message}`; nothing was changed.

    `message` stays English (the socket's clients word the code themselves); a message an HTML page may
    flash is marked with `gettext_noop`, so the page shows it translated (game/matches/forms.py). A message
    with a name or a number in it is marked with its placeholders (`template`) and `params` fill them:
    `message` is the English filled in, a page translates `template` and fills that."""

    def __init__(
        self, code: str, message: str, params: Mapping[str, object] | None = None, *, key: str | None = None
    ) -> None:
        self.code = code
        #: The English words as marked (gettext_noop), placeholders and all; `params` fill them.
        self.template = message
        self.params: dict[str, Any] = dict(params or {})
        #: A rules refusal's key (game.engine.rules.words.refusal): then `params` are the rules
        #: catalogue's and `message` is already the English sentence, so the socket answers in its
        #: reader's language (game.common.reader_language.error_message); None for the services' own.
        self.key = key
        self.message = message % self.params if self.params and key is None else message
        super().__init__(f"{code}: {self.message}")


@dataclass
class Applied:
    """What a service did: `events` go to the whole match group (after commit); `reply` only to the
    caller (the stored answer to a repeated ack)."""

    events: list[dict[str, Any]] = field(default_factory=list)
    reply: list[dict[str, Any]] = field(default_factory=list)
    lobby_changed: bool = False


def lock(match_id: str) -> Match:
    """The Match row, locked until the transaction ends (select_for_update): every write to a match
    holds it, so two processes never apply inputs to the same version."""
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None:
        raise MatchError("not_found", gettext_noop("there is no such match"))
    return match


def store_event(match: Match, t: outbound.EventType, d: dict[str, Any]) -> dict[str, Any]:
    """Raise the version and keep the broadcast for catch-up; returns the `{t, v, d}` event."""
    match.version += 1
    d = worded_event_data(t, match.version, d)
    entry = d.get("entry")
    # Encoded once, for the row and for the broadcast (outbound.encoded_event): an input's data is 5-8 KB
    # of JSON, and the broadcast's copy was encoded again on the event loop that relays every aim.
    d_text = json_text.encode(d)
    insert_row(
        MatchEvent,
        {
            "match": match.pk,
            "version": match.version,
            "type": t,
            "data": JsonText(d_text),
            "entry": entry,
            "created_at": timezone.now(),
        },
    )
    return outbound.encoded_event(t, d, match.version, d_text)
