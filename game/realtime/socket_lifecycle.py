"""What every websocket consumer of the game shares: how a socket starts and ends, and its rate limit
bucket.

A socket can end in many ways (the client leaves, we close it for flooding or an unknown match, a
handler fails, the server shuts down, daphne gives up on a slow close) and every one of them must give
back what the socket holds (its hub membership, its connection row, its places in the socket caps):
otherwise a player stays "connected" for good and can never be claimed against. `CleanCloseMixin`
routes them all through one `release`, run once.

Before any consumer's `connect`, the socket takes its places in the process's socket caps
(game.common.ratelimit.socket_slots, settings.KAIZA_SOCKET_LIMITS); past a cap it is refused with 4429 and a
reason said in the reader's language (`CleanCloseMixin.refuse`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from autobahn.exception import Disconnected  # daphne's websocket library (a dependency: pyproject.toml)
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation
from django.utils.translation import gettext_noop

from game.common.ratelimit import socket_give, socket_slots, socket_take
from game.common.reader_language import scope_language
from kaiza_site.server.channels_dispatch import NoConnectionHopMixin

logger = logging.getLogger(__name__)

CLOSE_NOT_FOUND = 4404
CLOSE_FLOOD = 4029
#: Refused at the handshake: too many sockets of this user on this match, or of this address in this
#: server process (settings.KAIZA_SOCKET_LIMITS). The client may try again later (a tab closed).
CLOSE_TOO_MANY = 4429
#: The close reason of a socket refused by a cap, per cap, said in the reader's language. A close
#: reason is at most 123 bytes of UTF-8 (RFC 6455 5.5.1): tests/realtime/test_socket_caps.py checks every
#: translation fits.
REFUSED_REASONS = {
    "match": gettext_noop("This match is open in too many tabs: close one and try again."),
    "process": gettext_noop("Too many connections from your address: close some tabs."),
}
#: A handler failed (a bug; it is logged): the client reconnects and catches up. Not RFC 6455's 1011:
#: autobahn (under daphne) lets a server close only with 1000 or a code of 3000-4999 and raised
#: instead of closing, a second traceback and a socket left open (seen under the load benchmark).
CLOSE_SERVER_ERROR = 4011


#: Cleanups running on after their socket's task was cancelled, referenced so the loop keeps them.
_RELEASING: set[asyncio.Task[Any]] = set()


def _released(task: asyncio.Task[Any]) -> None:
    _RELEASING.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.error("socket cleanup failed", exc_info=task.exception())


class CleanCloseMixin(NoConnectionHopMixin):
    """Every way a socket ends runs the same cleanup (`release`), once: the client leaving, our own
    close (flood, unknown match), a handler failing (closed with 4011, the failure logged), and the
    server shutting down or giving up on a slow close (daphne cancels the consumer: the cleanup then
    runs on, shielded). Once the socket is closing, sends are dropped quietly and frames still queued
    are ignored: a send on a closed socket raised `Disconnected` out of the error handler before, and
    the cleanup never ran (a flooding player stayed "connected" for good)."""

    #: The socket's ASGI scope, set by Channels' `AsyncConsumer.__call__`.
    scope: dict[str, Any]
    closing = False
    released = False
    #: The server's direct frame path for this socket (`kaiza.frames`: kaiza_site.server.daphne_server), or None.
    frames: Any = None
    #: This socket's places in the process's socket caps (game.common.ratelimit.socket_slots), given back by
    #: `release_once`.
    slots: tuple[tuple[str, str, int], ...] = ()
    #: Frames sent to this socket so far: a match socket sent a stream of frames since the process's last
    #: heartbeat skips that beat (game.matches.consumer `hub_beat`).
    frames_out = 0

    def slot_match_id(self) -> str | None:
        """The match this socket counts for in the per-match cap (the match socket's); None: only the
        per-address cap applies."""
        return None

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        """Take the socket's places in the caps, then connect as the consumer does; past a cap, refuse.
        The check and the taking are one synchronous step (no await between them)."""
        slots = socket_slots(self.scope, match_id=self.slot_match_id())
        refused = socket_take(slots)
        if refused is not None:
            await self.refuse(refused)
            return
        self.slots = tuple(slots)
        await super().websocket_connect(message)  # type: ignore[misc]

    async def refuse(self, cap: str) -> None:
        """Refuse a socket past a cap: accepted, then closed at once with `CLOSE_TOO_MANY` and a reason
        in words. Not a denied upgrade: that is an HTTP 403, and a browser's close event then says only
        1006, no code of ours and no reason, so the page could not say why. Accepting costs only the
        handshake: no snapshot read, no connection row, no hub membership, and `connect` never runs
        (so there is nothing to release)."""
        self.released = True
        scope: dict[str, Any] = self.scope
        with translation.override(scope_language(scope)):
            reason = translation.gettext(REFUSED_REASONS[cap])
        client = scope.get("client") or ("?", 0)
        logger.info("%s refused for %s: the %s cap is full", scope.get("path"), client[0], cap)
        await self.accept()  # type: ignore[attr-defined]
        await self.close(code=CLOSE_TOO_MANY, reason=reason)  # type: ignore[attr-defined]

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.frames = (scope.get("extensions") or {}).get("kaiza.frames")

        async def guarded_send(message: dict[str, Any]) -> None:
            if self.closing:
                return
            if message.get("type") == "websocket.close":
                self.closing = True
            try:
                await send(message)
            except Disconnected:
                self.closing = True

        try:
            await super().__call__(scope, receive, guarded_send)  # type: ignore[misc]
        finally:
            await self.release_once()

    async def dispatch(self, message: dict[str, Any]) -> None:
        try:
            await super().dispatch(message)
        except StopConsumer:
            raise
        except Exception:
            logger.exception("%s: handling %s failed", type(self).__name__, message.get("type"))
            await self.close(code=CLOSE_SERVER_ERROR)  # type: ignore[attr-defined]
            raise StopConsumer() from None

    async def send_frame(self, text: str) -> None:
        """One encoded text frame to this socket. Under `python -m kaiza_site.serve` it goes straight to
        the socket, framed once for all the sockets it goes to (the hub's fan-out:
        kaiza_site.server.daphne_server says why); anywhere else, and whenever the socket is not plainly
        open, through ASGI like every other send (dropped quietly once closing)."""
        if not self.send_direct(text):
            self.frames_out += 1
            await self.send(text_data=text)  # type: ignore[attr-defined]

    def send_direct(self, text: str) -> bool:
        """True when `text` was sent straight to the socket (or dropped: the socket is closing), False
        when it must go through ASGI (no direct frame path here, or the socket not plainly open)."""
        if self.closing:
            return True
        frames = self.frames
        if frames is not None and frames.send_text(text):
            self.frames_out += 1
            return True
        return False

    def relay_now(self, text: str) -> bool:
        """The hub's synchronous fast path (game.realtime.hub.MatchHub.dispatch); subclasses with a queue of
        their own say False while it holds anything."""
        return self.send_direct(text)

    async def close_and_release(self, code: int) -> None:
        """Close the socket ourselves and clean up now (not when the client's close arrives)."""
        await self.close(code=code)  # type: ignore[attr-defined]
        await self.release_once()

    async def disconnect(self, code: int) -> None:
        self.closing = True
        await self.release_once()

    async def release_once(self) -> None:
        self.closing = True
        slots, self.slots = self.slots, ()
        socket_give(slots)
        if self.released:
            return
        self.released = True
        task = asyncio.ensure_future(self.release())
        _RELEASING.add(task)
        task.add_done_callback(_released)
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            raise  # this socket's task was cancelled again: the cleanup runs on by itself
        except Exception:
            pass  # logged by _released

    async def release(self) -> None:
        """What the socket holds, given back (subclasses)."""


class RelayOnlyMember:
    """A hub member that only shows what its group publishes whole (the lobby's list, a tournament's
    scores): each relay is its frame as it is; it has no versioned events and no beats to follow."""

    async def hub_relay(self, text: str) -> None:
        await self.send_frame(text)  # type: ignore[attr-defined]

    async def hub_event(self, message: dict[str, Any]) -> None:
        return

    async def hub_beat(self, version: int, text: str) -> None:
        return


class NotFoundConsumer(CleanCloseMixin, AsyncWebsocketConsumer):
    """Any socket path without a route: accepted only to close it with 4404 (a close code needs an
    open socket; refusing the handshake would be an HTTP 403), and no traceback in the log."""

    async def connect(self) -> None:
        await self.accept()
        await self.close_and_release(CLOSE_NOT_FOUND)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return
