"""`ws/lobby/`: the lobby's socket (the open matches, and quick pairing's seeks).

Its own module, as the tournament socket (game.tournaments.consumer) has: the match socket
(game.matches.consumer) is the large one. The lobby's sockets are members of the process's hub in the group
`lobby`; `realtime.lobby_publish` encodes the list once for all of them.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils.translation import gettext_noop

from game.common.clock import game_now
from game.common.db import CONNECT, db_async
from game.common.ratelimit import TokenBucket
from game.common.reader_language import error_message, scope_language
from game.lobby import seek_clock
from game.lobby.protocol import SeekCancel, SeekRequest, parse_lobby
from game.lobby.services import seeks as seek_services
from game.matches import services as match_services
from game.matches.selectors import matches as match_selectors
from game.realtime import fanout as realtime
from game.realtime import hub, outbound, protocol
from game.realtime.socket_lifecycle import CleanCloseMixin, RelayOnlyMember


class LobbyConsumer(RelayOnlyMember, CleanCloseMixin, AsyncWebsocketConsumer):
    """`ws/lobby/`: the open matches, pushed whole on every change (the list is short). The lobby's
    sockets are members of the process's hub (group `lobby`), which resubscribes after a Redis restart."""

    limit: tuple[float, float] = (5.0, 1.0)

    async def connect(self) -> None:
        self.bucket = TokenBucket(*self.limit)
        self.user = self.scope.get("user")
        self.language = scope_language(self.scope)
        #: Whether this socket may have a Seek row (quick pairing): the row is removed when it closes.
        self.seeking = False
        await self.accept()
        self.hub: hub.MatchHub | None = await hub.join(self.channel_layer, realtime.LOBBY_GROUP, self)
        matches = await db_async(match_selectors.match_open_list, priority=CONNECT)()
        await self.send_message(outbound.Matches(matches))

    async def release(self) -> None:
        process_hub = getattr(self, "hub", None)
        if process_hub is not None:
            self.hub = None
            await process_hub.leave(realtime.LOBBY_GROUP, self)
        if self.seeking:  # a seek ends with its socket
            self.seeking = False
            await db_async(seek_services.seek_cancel)(channel_name=self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.closing:
            return
        if not self.bucket.take():
            await self.send_message(outbound.Error("rate_limited", gettext_noop("slow down")))
            return
        message = parse_lobby(text_data, bytes_data)
        if isinstance(message, protocol.Ping):
            await self.send_message(outbound.Pong())
        elif isinstance(message, protocol.Invalid):
            await self.send_message(message.reply())
        elif isinstance(message, SeekRequest):
            await self.handle_seek(message)
        elif isinstance(message, SeekCancel):
            self.seeking = False
            cancelled = await db_async(seek_services.seek_cancel)(channel_name=self.channel_name)
            await self.send_message(outbound.SeekEnded("cancelled" if cancelled else "none"))
        else:
            await self.send_message(
                outbound.Error("unknown_type", gettext_noop("the lobby answers ping, seek and seek_cancel"))
            )

    async def handle_seek(self, message: SeekRequest) -> None:
        """Queue the seek (or answer why not, storing nothing), say so, then pair at once if a partner
        waits; otherwise the server clocks' tick pairs and widens (game.lobby.seek_clock)."""
        now = game_now()
        try:
            seek = await db_async(seek_services.seek_start)(
                user=self.user,
                channel_name=self.channel_name,
                rated=message.rated,
                time_limit=message.time_limit,
                now=now,
            )
        except match_services.MatchError as exc:
            said = error_message(exc.code, exc.template, exc.key, exc.params, self.language)
            await self.send_message(outbound.Error(exc.code, said))
            return
        self.seeking = True
        await self.send_message(outbound.Seeking.of(seek_services.seek_info(seek, now)))
        await seek_clock.pair_and_widen(now)

    async def seek_notice(self, event: dict[str, Any]) -> None:
        """`paired` or `seeking` from whichever process paired or widened this socket's seek."""
        if self.closing:
            return
        if event.get("ends"):
            self.seeking = False
        await self.send_frame(event["text"])

    async def send_message(self, message: outbound.Message) -> None:
        await self.send(text_data=outbound.dumps(message))
