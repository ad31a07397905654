"""The sockets of a real game: `ws/tables/<token>/` for the table's scorers (the token is the table's
private link), `ws/realgame/<id>/` for anyone following one game (read-only).

Each socket is a relay-only member of the process's hub: the scorer's in the table's group (it follows
whatever game is on the table, the next one too), a follower's in the game's group. A tap is applied
by the service in the database's thread pool; the scorer who sent it gets `real_ack` or
`real_refused`, and everyone following gets the new `real_state`, built once.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer

from game.common.db import CONNECT, db_async
from game.common.ratelimit import TokenBucket
from game.models.realgames import RealGame, ScoringTable
from game.realgames import inbound, services
from game.realgames.selectors import real_game_view
from game.realtime import fanout, hub, outbound
from game.realtime.protocol import Invalid
from game.realtime.socket_lifecycle import CLOSE_NOT_FOUND, CleanCloseMixin, RelayOnlyMember
from game.tournaments.visibility import tournament_visible

#: Followers of each game in this process (the `spectators` a page shows).
_FOLLOWERS: dict[int, int] = {}


def _groups(game: RealGame) -> list[str]:
    groups = [fanout.realgame_group(game.pk)]
    if game.table_id is not None:
        groups.append(fanout.realtable_group(game.table_id))
    pairing = game.pairing
    if pairing is not None:
        groups.append(fanout.realgames_event_group(pairing.tournament_id))
    return groups


def _snapshot(game_id: int) -> tuple[outbound.RealGameState, list[str]] | None:
    game = RealGame.objects.select_related("table", "pairing__tournament", "pairing__round").filter(pk=game_id).first()
    if game is None:
        return None
    view = real_game_view(game, spectators=_FOLLOWERS.get(game.pk, 0))
    return outbound.RealGameState(game.version, view), _groups(game)


def _followable(game_id: int, user: Any, session: Any) -> bool:
    """The game exists and, if it is an event's, this visitor may see that event (a link-only
    event's secret from the session, game/tournaments/visibility.py)."""
    game = RealGame.objects.select_related("pairing__tournament").filter(pk=game_id).first()
    if game is None:
        return False
    return game.pairing is None or tournament_visible(tournament=game.pairing.tournament, user=user, session=session)


def _table_game(token: str) -> tuple[int, int | None] | None:
    table = ScoringTable.objects.filter(token=token).first()
    if table is None:
        return None
    game = services.game_for_table(table)
    return table.pk, None if game is None else game.pk


class _RealGameSocket(RelayOnlyMember, CleanCloseMixin, AsyncWebsocketConsumer):
    limit: tuple[float, float] = (20.0, 5.0)
    group: str | None = None
    hub: hub.MatchHub | None = None

    async def _join(self, group: str) -> None:
        self.group = group
        self.hub = await hub.join(self.channel_layer, group, self)

    async def release(self) -> None:
        process_hub, group = getattr(self, "hub", None), getattr(self, "group", None)
        if process_hub is not None and group is not None:
            self.hub = None
            await process_hub.leave(group, self)
        self._left()

    def _left(self) -> None:
        return

    async def send_message(self, message: outbound.Message) -> None:
        await self.send(text_data=outbound.dumps(message))

    async def send_state(self, game_id: int | None) -> None:
        if game_id is None:
            return
        found = await db_async(_snapshot)(game_id)
        if found is not None:
            await self.send_message(found[0])

    async def publish(self, game_id: int) -> None:
        found = await db_async(_snapshot)(game_id)
        if found is not None:
            await fanout.realgame_publish(found[1], found[0])


class TableScorerConsumer(_RealGameSocket):
    """A table's scorer: taps, undo, the next game."""

    async def connect(self) -> None:
        self.bucket = TokenBucket(*self.limit)
        self.group = None
        self.hub = None
        self.token = str(self.scope["url_route"]["kwargs"]["token"])
        found = await db_async(_table_game, priority=CONNECT)(self.token)
        if found is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.table_id, self.game_id = found
        await self.accept()
        await self._join(fanout.realtable_group(self.table_id))
        await self.send_state(self.game_id)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.closing:
            return
        if not self.bucket.take():
            await self.send_message(outbound.Error("rate_limited", "slow down"))
            return
        message = inbound.parse_scorer(text_data)
        if isinstance(message, Invalid):
            await self.send_message(message.reply())
        elif isinstance(message, inbound.Ping):
            await self.send_message(outbound.Pong())
        elif isinstance(message, inbound.Next):
            await self._next()
        elif self.game_id is None:
            await self.send_message(outbound.Error("no_game", "no game on this table"))
        else:
            await self._input(message)

    async def _input(self, message: inbound.Tap | inbound.Undo) -> None:
        assert self.game_id is not None
        if isinstance(message, inbound.Tap):
            outcome = await db_async(services.apply_tap)(self.game_id, message.key, message.tap)
            if not outcome.accepted and outcome.code == "game_over" and await self._moved_on():
                # Another scorer of the table opened its next game: the tap is that game's.
                outcome = await db_async(services.apply_tap)(self.game_id, message.key, message.tap)
        else:
            outcome = await db_async(services.undo_last)(self.game_id, message.key)
        if not outcome.accepted:
            await self.send_message(outbound.RealTapRefused(outcome.key, str(outcome.code), dict(outcome.words or {})))
            return
        ack = outbound.RealTapAck(outcome.key, outcome.version, outcome.verdict, outcome.duplicate)
        await self.send_message(ack)
        if not outcome.duplicate:
            await self.publish(self.game_id)

    async def _moved_on(self) -> bool:
        """Whether the table has another game now than this socket's (it follows it if so)."""
        found = await db_async(_table_game)(self.token)
        if found is None or found[1] is None or found[1] == self.game_id:
            return False
        self.game_id = found[1]
        return True

    async def _next(self) -> None:
        """The scorer asked for the table's next game (the finished one stays shown until then)."""
        found = await db_async(_table_game)(self.token)
        if found is None:
            return
        _table, game_id = found
        if game_id is not None and game_id != self.game_id:
            self.game_id = game_id
            await self.publish(game_id)
        else:
            await self.send_state(self.game_id)


class RealGameConsumer(_RealGameSocket):
    """Anyone following one game: its `real_state` on connect and after every change; read-only."""

    async def connect(self) -> None:
        self.bucket = TokenBucket(5.0, 1.0)
        self.group = None
        self.hub = None
        self.game_id: int | None = int(self.scope["url_route"]["kwargs"]["game_id"])
        followable = db_async(_followable, priority=CONNECT)
        if not await followable(self.game_id, self.scope.get("user"), self.scope.get("session")):
            self.game_id = None
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.accept()
        _FOLLOWERS[self.game_id] = _FOLLOWERS.get(self.game_id, 0) + 1
        await self._join(fanout.realgame_group(self.game_id))
        await self.send_state(self.game_id)

    def _left(self) -> None:
        game_id = getattr(self, "game_id", None)
        if game_id is not None and _FOLLOWERS.get(game_id, 0) > 0:
            _FOLLOWERS[game_id] -= 1

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.closing:
            return
        if not self.bucket.take():
            await self.send_message(outbound.Error("rate_limited", "slow down"))
            return
        message: Any = inbound.parse_scorer(text_data)
        if isinstance(message, inbound.Ping):
            await self.send_message(outbound.Pong())
        elif isinstance(message, Invalid):
            await self.send_message(message.reply())
        else:
            await self.send_message(outbound.Error("read_only", "following a game is read-only"))
