"""Websocket consumers: thin, they parse with `protocol`, call `services`, publish with `realtime`.

Match messages reach the sockets through the process's hub (`game.realtime.hub`, one group subscription per
process and match), already encoded. MatchConsumer keeps per socket only what the socket itself
needs: its `VersionedOutbox` (game.realtime.outbox: the last version it was sent, duplicates dropped and gaps
filled from the database, so every socket sees versions strictly in order even when two processes
publish close together), its rate-limit buckets and the aim throttle. Everything about the match
itself lives in the database.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer, AsyncWebsocketConsumer
from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext_noop

from game.common.db import CONNECT, DATABASE_FAILURES, db_async
from game.common.ratelimit import TokenBucket, socket_allows, socket_owner
from game.common.reader_language import error_message, scope_language
from game.matches import bot_runner
from game.matches import services as match_services
from game.matches.hooks import HOOKS
from game.matches.selectors import matches as match_selectors
from game.matches.services import rematch as rematch_services
from game.realtime import fanout as realtime
from game.realtime import hub, outbound, presence, protocol
from game.realtime.outbox import VersionedOutbox
from game.realtime.shared_reads import SharedReads
from game.realtime.socket_lifecycle import CLOSE_FLOOD, CLOSE_NOT_FOUND, CleanCloseMixin, NotFoundConsumer

__all__ = ["MatchConsumer", "NotFoundConsumer", "PingConsumer", "schedule_bot_turn"]

logger = logging.getLogger(__name__)

#: Frames sent to a match socket since the process's last beat from which on that beat is skipped
#: (`MatchConsumer.hub_beat`): a stream, not a presence update or two.
BEAT_SKIP_FRAMES = 4
#: Background tasks (bot turns, aim flushes) referenced here so the event loop cannot drop them.
_BACKGROUND: set[asyncio.Task[Any]] = set()
#: The snapshots of visitors without an account, shared by those who ask at once (`read_snapshot`).
ANONYMOUS_SNAPSHOTS: SharedReads[dict[str, Any] | None] = SharedReads()


def _keep(task: asyncio.Task[Any]) -> asyncio.Task[Any]:
    _BACKGROUND.add(task)
    task.add_done_callback(_finished_background)
    return task


def _finished_background(task: asyncio.Task[Any]) -> None:
    _BACKGROUND.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.error("background task failed", exc_info=task.exception())


def schedule_bot_turn(match_id: str) -> None:
    """Let the computer opponent act if it is its turn (game.matches.bot_runner)."""
    _keep(asyncio.create_task(bot_runner.bot_turn_if_due(match_id)))


class PingConsumer(CleanCloseMixin, AsyncJsonWebsocketConsumer):
    """Answers `ping` with `pong` through the channel layer, so a health probe exercises the layer
    (Redis at scale), not only the socket."""

    async def connect(self) -> None:
        await self.accept()
        self.group = f"ping.{self.channel_name.replace('!', '_')}"[:90]
        await self.channel_layer.group_add(self.group, self.channel_name)

    async def release(self) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if isinstance(content, dict) and content.get("t") == "ping":
            await self.channel_layer.group_send(self.group, {"type": "pong.relay", "d": content.get("d")})
        else:
            await self.send_json(outbound.Error("unknown_type", "send {t: ping}").to_wire())

    async def pong_relay(self, event: dict[str, Any]) -> None:
        await self.send_json(outbound.Pong(event.get("d")).to_wire())


class MatchConsumer(CleanCloseMixin, AsyncWebsocketConsumer):
    """`ws/match/<id>/`: the players' inputs in, every change and the live extras (aim, presence,
    clock, chat) out. Anyone may connect and watch; only the two seated users may play."""

    #: (burst, refill per second) of all messages but `aim`, for players and for spectators.
    player_limit: tuple[float, float] = (20.0, 10.0)
    spectator_limit: tuple[float, float] = (8.0, 2.0)
    #: `aim` has its own bucket: a drag sends many, relays are coalesced to `aim_interval` anyway.
    aim_limit: tuple[float, float] = (60.0, 60.0)
    aim_interval = 0.05
    #: `frames_out` at the last heartbeat (`hub_beat`).
    beat_mark = 0
    #: Seconds a beat announcing a version this socket has not had waits for it (VersionedOutbox).
    beat_grace = VersionedOutbox.beat_grace
    #: Rate-limited messages tolerated (burst, per second) before the socket is closed as a flood.
    flood_limit: tuple[float, float] = (50.0, 5.0)

    # --- lifecycle ----------------------------------------------------------------------------------

    def slot_match_id(self) -> str | None:
        """A match socket counts for its match in the per-user cap (CleanCloseMixin.websocket_connect)."""
        return str(self.scope["url_route"]["kwargs"]["match_id"])

    async def connect(self) -> None:
        self.match_id: str = self.scope["url_route"]["kwargs"]["match_id"]
        self.user = self.scope.get("user")
        #: The reader's language (cookie, then Accept-Language): its `error` messages are said in it.
        self.language = scope_language(self.scope)
        self.group = realtime.match_group(self.match_id)
        self.registered = False
        #: Set once the socket is closing: a player's row still being tried again stops (presence).
        self.closed = asyncio.Event()
        self.role = "spectator"
        #: The role the hub's audience-limited relays (the spectators' chat) go by: None until the
        #: snapshot told who this socket is, so a player's socket never gets them while connecting.
        self.audience_role: str | None = None
        self.name = ""
        self.pending_names: set[str] = set()
        self.tasks: set[asyncio.Task[Any]] = set()
        self.pending_aim: outbound.Aim | None = None
        self.last_aim_relay = 0.0
        self.flood = TokenBucket(*self.flood_limit)
        #: Versioned delivery (order, duplicates, gaps, catch-up): the hub's deliveries go through it.
        self.outbox = VersionedOutbox(
            self.send_text, self.read_events_since, self.read_snapshot, self.set_pending, beat_grace=self.beat_grace
        )
        self.hub: hub.MatchHub | None = None
        self.bucket = TokenBucket(*self.spectator_limit)
        self.aim_bucket = TokenBucket(*self.aim_limit)
        self.owner = socket_owner(self.scope)
        # Accept first: the handshake never waits for the database (under churn it waited seconds,
        # and daphne gave up on handshakes). Frames that come before the snapshot wait their turn.
        await self.accept()
        # A match of an event hidden from this visitor is not there for them (its players always may
        # watch; a link-only event's secret comes from the session of the page that opened the socket).
        visible = db_async(match_selectors.match_visible, priority=CONNECT)
        viewer = self.user or AnonymousUser()
        if not await visible(match_id=self.match_id, user=viewer, session=self.scope.get("session")):
            await self.send_message(outbound.Error("not_found", gettext_noop("there is no such match")))
            await self.close_and_release(CLOSE_NOT_FOUND)
            return
        async with self.outbox.lock:
            # Join the group before reading the snapshot: an event committed in between then arrives
            # through the hub and is dropped or kept by its version, never lost.
            self.hub = await hub.join(self.channel_layer, self.group, self)
            snapshot = await self.read_snapshot(CONNECT)
            if snapshot is None:
                await self.send_message(outbound.Error("not_found", gettext_noop("there is no such match")))
                await self.close_and_release(CLOSE_NOT_FOUND)
                return
            you = snapshot["d"]["you"]
            self.role, self.name = you["role"], you["name"]
            self.audience_role = self.role
            if self.role == "player":
                self.bucket = TokenBucket(*self.player_limit)
            await self.outbox.send_versioned(snapshot)
        # The row is written in the background: the socket's frames are handled meanwhile (awaited
        # here, a burst of connects held each player's first inputs for seconds). The cleanup waits
        # for it before deleting the row.
        self.registered = True
        self.registering = _keep(
            asyncio.create_task(
                presence.socket_opened(
                    scope=self.scope,
                    match_id=self.match_id,
                    channel_name=self.channel_name,
                    user=self.user,
                    player=self.role == "player",
                    closed=self.closed,
                ),
                name="register",
            )
        )
        schedule_bot_turn(self.match_id)

    async def release(self) -> None:
        """Leave the hub, delete the connection row, tell the match (presence, and the clock when a
        player's grace starts)."""
        for task in list(getattr(self, "tasks", ())):
            task.cancel()
        if getattr(self, "outbox", None) is not None:
            self.outbox.cancel()
        process_hub = getattr(self, "hub", None)
        if process_hub is not None:
            self.hub = None
            await process_hub.leave(self.group, self)
        if getattr(self, "registered", False):
            self.registered = False
            self.closed.set()
            registering = getattr(self, "registering", None)
            if registering is not None:
                await asyncio.wait([registering])  # its failure, if any, is logged by _keep
            await presence.socket_closed(
                match_id=self.match_id, channel_name=self.channel_name, user=self.user, player=self.role == "player"
            )

    # --- inbound ------------------------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Every frame is answered or acted on; nothing a client sends can raise past this point.
        Frames still queued when the socket is closing are ignored.

        A failure is answered too, with the input's ack, so its client knows: `unavailable` when the
        database failed under it (the client sends the input again, with the same ack: it is applied
        at most once, game.matches.services.inputs), `internal_error` for anything else (a bug)."""
        if self.closing:
            return
        message: protocol.ClientMessage | protocol.Invalid | None = None
        try:
            message = protocol.parse(text_data, bytes_data)
            await self.handle_frame(message)
        except DATABASE_FAILURES as exc:
            ack = getattr(message, "ack", None)
            logger.warning(
                "match %s: the database failed under a %s (ack %s): %r", self.match_id, type(message).__name__, ack, exc
            )
            await self.send_message(
                outbound.Error("unavailable", gettext_noop("the server could not store that: it is sent again"), ack)
            )
        except Exception:
            logger.exception("match %s: frame handling failed", self.match_id)
            await self.send_message(
                outbound.Error(
                    "internal_error",
                    gettext_noop("the server could not handle that message"),
                    getattr(message, "ack", None),
                )
            )

    async def handle_frame(self, message: protocol.ClientMessage | protocol.Invalid) -> None:
        aim = isinstance(message, protocol.Aim)
        bucket = self.aim_bucket if aim else self.bucket
        if not (bucket.take() and await socket_allows(self.scope, aim=aim, who=self.owner)):
            if not self.flood.take():
                await self.send_message(outbound.Error("flood", gettext_noop("too many messages: closing")))
                await self.close_and_release(CLOSE_FLOOD)
                return
            ack = getattr(message, "ack", None)
            await self.send_message(outbound.Error("rate_limited", gettext_noop("slow down"), ack))
            return
        if isinstance(message, protocol.Invalid):
            await self.send_message(message.reply())
            return
        if isinstance(message, protocol.Hello):
            await self.outbox.catch_up(message.v)
        elif isinstance(message, protocol.Ping):
            await self.send_message(outbound.Pong())
        elif isinstance(message, protocol.Aim):
            await self.handle_aim(message)
        elif isinstance(message, protocol.Chat | protocol.ChatReport):
            await self.handle_chat(message)
        else:
            await self.handle_play(message)

    async def handle_play(self, message: protocol.PlayMessage) -> None:
        if self.role != "player":
            await self.send_message(outbound.Error("spectator", gettext_noop("spectators cannot play"), message.ack))
            return
        if isinstance(message, protocol.RematchRequest):
            await self.handle_rematch(message)
            return
        try:
            applied = await db_async(match_services.match_input)(
                match_id=self.match_id, user=self.user, message=message
            )
        except match_services.MatchError as exc:
            await self.send_message(outbound.Error(exc.code, self.said(exc), message.ack))
            return
        await realtime.after_commit(self.match_id, applied.events, lobby=applied.lobby_changed)
        for stored in applied.reply:
            await self.outbox.answer_repeat(stored)

    async def handle_rematch(self, message: protocol.RematchRequest) -> None:
        """A new match with the same settings, seats swapped; everyone on this match hears the offer."""
        try:
            made = await db_async(rematch_services.match_rematch)(
                match_id=self.match_id, user=self.user, opponent_must_be_here=True
            )
        except match_services.MatchError as exc:
            await self.send_message(outbound.Error(exc.code, self.said(exc), message.ack))
            return
        await realtime.after_commit(made.match.pk, made.events)
        offer = made.offer
        await realtime.relay(self.match_id, outbound.Rematch(offer["from"], offer["match_id"], offer["url"]))

    async def handle_chat(self, message: protocol.Chat | protocol.ChatReport) -> None:
        """A chat message stored then relayed to its channel's readers, or a report of one (answered
        to the reporter alone). The rules are the chat's (game.chat.services, docs/chat.md), handed
        over as hooks (game.matches.hooks)."""
        try:
            if isinstance(message, protocol.ChatReport):
                await db_async(HOOKS.chat_report)(match_id=self.match_id, user=self.user, message_id=message.message_id)
                await self.send_message(outbound.ChatReported(message.message_id))
                return
            posted = await db_async(HOOKS.chat_post)(
                match_id=self.match_id,
                user=self.user,
                text=message.text,
                phrase=message.phrase,
                channel=message.channel,
            )
        except match_services.MatchError as exc:
            await self.send_message(outbound.Error(exc.code, self.said(exc)))
            return
        await realtime.relay(self.match_id, outbound.Chat.of(posted.entry), audience=posted.audience)

    async def handle_aim(self, message: protocol.Aim) -> None:
        if self.role != "player":
            await self.send_message(outbound.Error("spectator", gettext_noop("spectators cannot aim")))
            return
        if self.name not in self.pending_names:
            await self.send_message(outbound.Error("not_your_turn", gettext_noop("only the player to act can aim")))
            return
        self.pending_aim = outbound.Aim.of(self.name, message.strike)
        # A flush still running relays this aim; one that has returned (its task done, though its
        # done-callback has not yet taken it out of `tasks`) will not, so a new one starts.
        if any(task.get_name() == "aim-flush" and not task.done() for task in self.tasks):
            return
        wait = self.last_aim_relay + self.aim_interval - time.monotonic()
        if wait <= 0:
            await self.flush_aim()
        else:
            task = asyncio.create_task(self.flush_aim(delay=wait), name="aim-flush")
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def flush_aim(self, delay: float = 0.0) -> None:
        """Relay the latest aim: at most one per `aim_interval`, the newest one winning, and on until none
        is pending: one that comes while a relay waits is left to this flush (`handle_aim`), and stopping
        after one relay lost a sweep's last aim whenever it came during that wait."""
        if delay:
            await asyncio.sleep(delay)
        while (message := self.pending_aim) is not None:
            self.pending_aim = None
            self.last_aim_relay = time.monotonic()
            await realtime.relay(self.match_id, message, exclude=self.channel_name)
            if self.pending_aim is not None:
                await asyncio.sleep(max(0.0, self.last_aim_relay + self.aim_interval - time.monotonic()))

    # --- outbound -----------------------------------------------------------------------------------

    async def send_message(self, message: outbound.Message) -> None:
        if isinstance(message, outbound.Error) and self.language != "en":
            # The socket's own answers in its reader's language (the services' messages via gettext; a
            # rules refusal arrives said already, see `said`, and gettext leaves it as it is).
            text = error_message(message.code, message.message, None, None, self.language)
            message = dataclasses.replace(message, message=text)
        await self.send_frame(outbound.dumps(message))

    def said(self, exc: match_services.MatchError) -> str:
        """A refused input's message in the reader's language (a rules refusal from its key)."""
        return error_message(exc.code, exc.template, exc.key, exc.params, self.language)

    async def send_text(self, text: str) -> None:
        await self.send_frame(text)

    async def read_events_since(self, version: int, until: int | None, priority: int) -> list[dict[str, Any]] | None:
        return await db_async(match_selectors.match_events_since, priority=priority)(
            match_id=self.match_id, version=version, until=until
        )

    async def read_snapshot(self, priority: int) -> dict[str, Any] | None:
        if self.user is not None and self.user.is_authenticated:
            return await db_async(match_selectors.match_snapshot_message, priority=priority)(
                match_id=self.match_id, user=self.user
            )
        # A visitor without an account is a spectator whose snapshot is every such visitor's: those who
        # ask at once (a restart's reconnections, a crowd arriving) share one read and one encoding.
        match_id, loop = self.match_id, asyncio.get_running_loop()

        def read(begun: Callable[[], None]) -> Awaitable[dict[str, Any] | None]:
            def in_thread() -> dict[str, Any] | None:
                begun()
                message = match_selectors.match_snapshot_message(match_id=match_id, user=AnonymousUser())
                return None if message is None else outbound.SharedMessage(message)

            return db_async(in_thread, priority=priority)()

        return await ANONYMOUS_SNAPSHOTS.read((id(loop), match_id), read)

    def set_pending(self, names: list[str]) -> None:
        """Remember who may act (for the aim check) from the state an event carries."""
        self.pending_names = set(names)

    # --- hub deliveries (game.realtime.hub): versioned order is the outbox's ----------------------------------

    async def hub_event(self, message: dict[str, Any]) -> None:
        await self.outbox.hub_event(message)

    async def hub_relay(self, text: str) -> None:
        await self.outbox.hub_relay(text)

    def relay_now(self, text: str) -> bool:
        # Only when nothing waits in the outbox: a relay keeps its place behind queued events.
        return not self.outbox.busy and self.send_direct(text)

    async def hub_beat(self, version: int, text: str) -> None:
        """The process's heartbeat (game.realtime.presence). Skipped for a socket in a stream, sent
        `BEAT_SKIP_FRAMES` frames or more since the last beat (the aims of a player lining up a shot,
        up to 20 a second), that already has every version up to `version`: its client hears from us
        all the time and has nothing to catch up, and at 200 matches the beats were one frame in
        fourteen. Any other socket beats as before: an idle spectator's, or one sent a frame or two (a
        beat a little late would make its client ping, a frame in and a pong out for one beat saved),
        or one behind."""
        streaming = self.frames_out - self.beat_mark >= BEAT_SKIP_FRAMES
        if not (streaming and version <= self.outbox.last_v and not self.outbox.busy):
            await self.outbox.hub_beat(version, text)
        self.beat_mark = self.frames_out  # after the beat: its own frame is no stream
