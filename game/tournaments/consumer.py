"""`ws/tournament/<id>/`: a tournament's pages hear when it changes, without a reload.

The same pattern as the lobby socket (game.lobby.consumer.LobbyConsumer): the socket is a member of the
process's hub in the group `tournament.<id>`, and `realtime.tournament_publish` sends one short
`tournament {match, scores, event, reload}` message whenever one of its matches starts, scores or
finishes, or the tournament itself changes (a round begins, a result is fixed). The page shows the
live score from it and fetches its standings and rounds again when `reload` is true.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer

from game.common.db import CONNECT, db_async
from game.common.ratelimit import TokenBucket
from game.models.tournaments import Tournament
from game.realtime import fanout as realtime
from game.realtime import hub, outbound, protocol
from game.realtime.socket_lifecycle import CLOSE_NOT_FOUND, CleanCloseMixin, RelayOnlyMember
from game.tournaments.visibility import tournament_visible


def _visible(tournament_id: int, user: Any, session: Any) -> bool:
    """The event exists and this socket's visitor may see it (game/tournaments/visibility.py): a
    link-only event's secret comes from the session of the page that opened the socket."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    return tournament is not None and tournament_visible(tournament=tournament, user=user, session=session)


class TournamentConsumer(RelayOnlyMember, CleanCloseMixin, AsyncWebsocketConsumer):
    limit: tuple[float, float] = (5.0, 1.0)

    async def connect(self) -> None:
        self.bucket = TokenBucket(*self.limit)
        self.group: str | None = None
        self.hub: hub.MatchHub | None = None
        tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        visible = db_async(_visible, priority=CONNECT)
        if not await visible(tournament_id, self.scope.get("user"), self.scope.get("session")):
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.accept()
        self.group = realtime.tournament_group(tournament_id)
        self.hub = await hub.join(self.channel_layer, self.group, self)
        await self.send(text_data=outbound.dumps(outbound.Tournament("hello", reload=False)))

    async def release(self) -> None:
        process_hub, group = getattr(self, "hub", None), getattr(self, "group", None)
        if process_hub is not None and group is not None:
            self.hub = None
            await process_hub.leave(group, self)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.closing:
            return
        if not self.bucket.take():
            await self.send(text_data=outbound.dumps(outbound.Error("rate_limited", "slow down")))
            return
        reply = protocol.follow_reply(
            text_data, bytes_data, outbound.Error("unknown_type", "a tournament socket only answers ping")
        )
        await self.send(text_data=outbound.dumps(reply))
