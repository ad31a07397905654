"""The match chat: post a message to a channel, report one. Rules in docs/chat.md.

Every refusal is a `MatchError` with its own code and nothing is stored. The checks, in order: the
writer has an account (guests do), the match exists, the writer may write in that channel (players in
the players' chat, spectators in the spectators'), the chat is still open (until `OPEN_AFTER_END`
seconds after the match ended), then the per-user rate limit (game.common.ratelimit.chat_allows), last so a
refused message does not spend the writer's budget. Length and emptiness are the protocol's
(protocol.MAX_CHAT_CHARS): a message reaching here is already clean.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext_noop

from game.chat.selectors import OPEN_AFTER_END, chat_closed, chat_entry, readable_channels
from game.common.ratelimit import chat_allows
from game.matches.selectors.match_state import AnyUser
from game.matches.selectors.matches import match_role
from game.matches.services import MatchError
from game.models import Match
from game.models.chat import ChatMessage, ChatReport

__all__ = ["OPEN_AFTER_END", "Posted", "chat_post", "chat_report"]


@dataclass(frozen=True, slots=True)
class Posted:
    """A stored message: its `chat` payload, and who hears it (None: everyone at the match; a role
    name: only the sockets of that role, game.realtime.hub)."""

    entry: dict[str, Any]
    audience: str | None


def _writer(user: AnyUser) -> Any:
    if user is None or not getattr(user, "is_authenticated", False):
        raise MatchError("login_required", gettext_noop("Sign in (or play as a guest) to chat."))
    return user


def _match(match_id: str) -> Match:
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise MatchError("not_found", gettext_noop("There is no such match."))
    return match


def chat_post(*, match_id: str, user: AnyUser, text: str, phrase: str = "", channel: str | None = None) -> Posted:
    """Store one message (free `text` or a quick `phrase` code) in `channel` (None: the writer's own)."""
    writer = _writer(user)
    match = _match(match_id)
    role, _seat, name = match_role(match=match, user=writer)
    own = ChatMessage.Channel.PLAYERS if role == "player" else ChatMessage.Channel.SPECTATORS
    channel = channel or own
    if channel != own:
        if role == "player":
            raise MatchError("wrong_channel", gettext_noop("Players write in the players' chat."))
        raise MatchError("spectator", gettext_noop("Only the players write in the players' chat."))
    if not name:
        raise MatchError("login_required", gettext_noop("Sign in (or play as a guest) to chat."))
    if chat_closed(match=match):
        raise MatchError("chat_closed", gettext_noop("The chat of this match is closed."))
    if not chat_allows(writer.pk):
        raise MatchError("rate_limited", gettext_noop("You are writing too fast: wait a moment."))
    row = ChatMessage.objects.create(
        match=match, channel=channel, author=writer, author_name=name[:32], text=text, phrase=phrase
    )
    audience = None if channel == ChatMessage.Channel.PLAYERS else "spectator"
    return Posted(entry=chat_entry(row), audience=audience)


def chat_report(*, match_id: str, user: AnyUser, message_id: int) -> int:
    """Report a message the reporter can read; returns the report's id."""
    reporter = _writer(user)
    match = _match(match_id)
    role, _seat, _name = match_role(match=match, user=reporter)
    message = ChatMessage.objects.filter(pk=message_id, match=match, channel__in=readable_channels(role)).first()
    if message is None:
        raise MatchError("no_such_message", gettext_noop("There is no such chat message here."))
    if message.author_id == reporter.pk:
        raise MatchError("own_message", gettext_noop("You cannot report your own message."))
    already = MatchError("already_reported", gettext_noop("You have already reported this message."))
    if ChatReport.objects.filter(message=message, reporter=reporter).exists():
        raise already
    try:
        with transaction.atomic():
            report = ChatReport.objects.create(message=message, reporter=reporter)
    except IntegrityError:
        raise already from None
    return int(report.pk)
