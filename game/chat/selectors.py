"""Reads of a match's chat: one message as the protocol carries it, the recent messages a reader may
see (sent to a socket after its snapshot), and the whole chat for the replay page."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from game.chat.phrases import phrase_text
from game.models import Match, Shot
from game.models.chat import ChatMessage

#: How many recent messages a (re)connecting socket gets.
HISTORY_SIZE = 50
#: Seconds after a match ends that its chat stays open (a "good game" after the last ball).
OPEN_AFTER_END = 600


def chat_closed(*, match: Match, now: datetime | None = None) -> bool:
    """The chat of `match` is closed: it finished more than `OPEN_AFTER_END` seconds ago. Until then
    the players may still be at the table, so the spectators' channel stays theirs (docs/chat.md)."""
    if match.finished_at is None:
        return False
    return ((now or timezone.now()) - match.finished_at).total_seconds() > OPEN_AFTER_END


def chat_entry(row: ChatMessage) -> dict[str, Any]:
    """`{id, channel, from, text, phrase, at}`: `phrase` is a code the reader words in their language."""
    return {
        "id": row.pk,
        "channel": row.channel,
        "from": row.author_name,
        "text": row.text,
        "phrase": row.phrase,
        "at": round(row.created_at.timestamp(), 3),
    }


def readable_channels(role: str) -> tuple[str, ...]:
    """Who reads what (docs/chat.md): everyone reads the players' chat; only spectators read theirs."""
    if role == "player":
        return (ChatMessage.Channel.PLAYERS,)
    return (ChatMessage.Channel.PLAYERS, ChatMessage.Channel.SPECTATORS)


def chat_recent(*, match_id: str, role: str) -> list[dict[str, Any]]:
    """The newest `HISTORY_SIZE` messages of the channels `role` reads, oldest first."""
    rows = list(
        ChatMessage.objects.filter(match_id=match_id, channel__in=readable_channels(role)).order_by("-id")[
            :HISTORY_SIZE
        ]
    )
    return [chat_entry(row) for row in reversed(rows)]


def replay_channels(*, match: Match) -> tuple[str, ...]:
    """The channels a replay shows (docs/chat.md, "The replay"): the players' chat, and the spectators'
    only once the chat is closed, so that no player reads the rail while it is still being written."""
    if chat_closed(match=match):
        return (ChatMessage.Channel.PLAYERS, ChatMessage.Channel.SPECTATORS)
    return (ChatMessage.Channel.PLAYERS,)


def chat_for_replay(*, match: Match) -> list[dict[str, Any]]:
    """The messages of a finished match a replay shows (`replay_channels`) in time order, each phrase
    worded in the active language, and `after`: the number of the last shot played before it (0
    before the first), so the replay page sets the chat beside the shots."""
    shot_times = list(Shot.objects.filter(match=match).order_by("seq").values_list("seq", "created_at"))
    entries = []
    for row in ChatMessage.objects.filter(match=match, channel__in=replay_channels(match=match)).order_by("id"):
        after = 0
        for seq, at in shot_times:
            if at <= row.created_at:
                after = seq
        entries.append({**chat_entry(row), "words": row.text or phrase_text(row.phrase), "after": after})
    return entries
