"""Fan-out through the channel layer (Redis at scale): the only way events reach sockets.

Services return events; whoever called a service publishes them here after the transaction committed
(consumers, views, the bot runner). Every process's sockets are in the same channel-layer groups, so a
change made in one daphne process reaches the sockets of all of them.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

LOBBY_GROUP = "lobby"


def match_group(match_id: str) -> str:
    return f"match.{match_id}"


async def publish(match_id: str, events: list[dict[str, Any]]) -> None:
    """Broadcast versioned events `{t, v, d}` of one match, in version order."""
    layer = get_channel_layer()
    if layer is None:
        return
    for item in sorted(events, key=lambda e: e["v"]):
        await layer.group_send(match_group(match_id), {"type": "match.event", "event": item})


async def relay(match_id: str, message: dict[str, Any], exclude: str | None = None) -> None:
    """Broadcast an ephemeral, unversioned message (aim, presence, clock, chat); `exclude` is the
    channel name of a socket that must not get it back (the aimer)."""
    layer = get_channel_layer()
    if layer is None:
        return
    await layer.group_send(match_group(match_id), {"type": "match.relay", "message": message, "exclude": exclude})


async def lobby_publish(matches: list[dict[str, Any]] | None = None) -> None:
    """Push the current open-matches list to every lobby socket (computed once, here)."""
    from game.selectors.matches import match_open_list

    layer = get_channel_layer()
    if layer is None:
        return
    if matches is None:
        matches = await database_sync_to_async(match_open_list)()
    await layer.group_send(LOBBY_GROUP, {"type": "lobby.matches", "matches": matches})


def publish_sync(match_id: str, events: list[dict[str, Any]], *, lobby: bool = False) -> None:
    """For synchronous callers (HTTP views): publish, then refresh the lobby if it changed."""
    if events:
        async_to_sync(publish)(match_id, events)
    if lobby:
        # Read in this thread: database_sync_to_async would close this request's connection.
        from game.selectors.matches import match_open_list

        async_to_sync(lobby_publish)(match_open_list())
