"""A consumer's messages handled without Channels' database hop before each one.

Channels 4.2+ (`AsyncConsumer.dispatch`) runs `close_old_connections` in the one thread-sensitive sync
thread before *every* message a consumer handles, so every aim relay and event queued behind all the
database work of the process (the load benchmark's aim relay waited hundreds of ms for it). The game's
consumers touch the database only through `game.common.db.db_async` (Channels' `database_sync_to_async`
in a pool), which closes stale connections itself in the thread that uses them, so the hop is skipped:
`dispatch` below is Channels' own less that one call. The contract test
(tests/realtime/test_library_contracts.py) fails if Channels' `dispatch` changes otherwise.
"""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name


class NoConnectionHopMixin:
    """Mixed into a consumer, before Channels' consumer class (game.realtime.socket_lifecycle)."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
