"""The read-only sockets of the pages that follow several games: a table's overlay
(`ws/realtable/<id>/`, every game on that table, the next one too) and an event's live, TV and overlay
pages (`ws/realevent/<id>/`, every real game of the event). Each is a relay-only member of the
process's hub in the group the scorer's socket publishes `real_state` to (game.realtime.fanout), so a
tap's state is encoded once whoever follows. On connect a table's socket is sent the game on the table
as it is; an event's pages render their games with the page and fetch them again after a reconnect.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer

from game.common import json_text
from game.common.db import CONNECT, db_async
from game.common.ratelimit import TokenBucket
from game.models.realgames import ScoringTable
from game.models.tournaments import Tournament
from game.realgames import boards
from game.realtime import fanout, hub, outbound, protocol
from game.realtime.socket_lifecycle import CLOSE_NOT_FOUND, CleanCloseMixin, RelayOnlyMember
from game.tournaments.visibility import tournament_visible


def _table_exists(table_id: int) -> bool:
    return ScoringTable.objects.filter(pk=table_id).exists()


def _table_state(table_id: int, user: Any, session: Any) -> outbound.RealGameState | None:
    """The state of the game on the table (None: the table has had none, or its event is hidden from
    this visitor)."""
    table = ScoringTable.objects.filter(pk=table_id).first()
    if table is None:
        return None
    game = boards.table_game(table=table)
    if game is None or not boards.visible(game=game, user=user, session=session):
        return None
    return outbound.RealGameState(game.version, boards.board(game)["game"])


def _event_visible(tournament_id: int, user: Any, session: Any) -> bool:
    """The event exists and this visitor may see it (game/tournaments/visibility.py)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    return tournament is not None and tournament_visible(tournament=tournament, user=user, session=session)


def _event_id(text: str) -> int | None:
    """The event of a relayed `real_state` (None: a free game, or another message)."""
    try:
        event = json_text.decode(text)["d"]["game"]["event"]
    except (ValueError, KeyError, TypeError):
        return None
    return event["id"] if isinstance(event, dict) and isinstance(event.get("id"), int) else None


class _FollowSocket(RelayOnlyMember, CleanCloseMixin, AsyncWebsocketConsumer):
    """A follower: joins one group, answers `ping`, refuses anything else."""

    limit: tuple[float, float] = (5.0, 1.0)

    async def follow(self, group: str) -> None:
        self.bucket = TokenBucket(*self.limit)
        self.group: str | None = group
        self.hub: hub.MatchHub | None = await hub.join(self.channel_layer, group, self)

    async def release(self) -> None:
        process_hub, group = getattr(self, "hub", None), getattr(self, "group", None)
        if process_hub is not None and group is not None:
            self.hub = None
            await process_hub.leave(group, self)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.closing or getattr(self, "hub", None) is None:
            return
        if not self.bucket.take():
            await self.send(text_data=outbound.dumps(outbound.Error("rate_limited", "slow down")))
            return
        reply = protocol.follow_reply(
            text_data, bytes_data, outbound.Error("read_only", "this socket only follows: it answers ping")
        )
        await self.send(text_data=outbound.dumps(reply))


class TableFollowConsumer(_FollowSocket):
    """`ws/realtable/<id>/`: a table's overlay. A table shows every game played on it, but the game of
    an event hidden from this visitor is not relayed (each event asked once per socket)."""

    async def hub_relay(self, text: str) -> None:
        event_id = _event_id(text)
        if event_id is not None:
            if event_id not in self.events:
                visible = db_async(_event_visible)
                self.events[event_id] = await visible(event_id, self.scope.get("user"), self.scope.get("session"))
            if not self.events[event_id]:
                return
        await self.send_frame(text)

    def relay_now(self, text: str) -> bool:
        return False  # each relay is checked (hub_relay), never sent as it came

    async def connect(self) -> None:
        self.events: dict[int, bool] = {}
        table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        if not await db_async(_table_exists, priority=CONNECT)(table_id):
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.accept()
        # Joined before the game is read: a tap in between comes as its state too (the page keeps
        # the newest version), never missed.
        await self.follow(fanout.realtable_group(table_id))
        state = await db_async(_table_state)(table_id, self.scope.get("user"), self.scope.get("session"))
        if state is not None:
            await self.send(text_data=outbound.dumps(state))


class EventFollowConsumer(_FollowSocket):
    """`ws/realevent/<id>/`: an event's live, TV and overlay pages; a hidden event is not found, as
    its own pages and socket answer (game/tournaments/visibility.py)."""

    async def connect(self) -> None:
        tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        visible = db_async(_event_visible, priority=CONNECT)
        if not await visible(tournament_id, self.scope.get("user"), self.scope.get("session")):
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.accept()
        await self.follow(fanout.realgames_event_group(tournament_id))
