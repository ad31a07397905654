"""Process-level fan-out of match messages: one channel-layer subscription per process and match.

Stock Channels puts every socket in the match's group: each event or aim relay became one Redis
message per socket (7 per match with 5 spectators), each popped, decoded and dispatched through its
socket's own consumer queue, and each JSON-encoded again per socket. At 50 matches that was most of the
event loop, and the load benchmark's aim relays waited seconds behind it.

Here each process subscribes one *hub* channel to a match's group (when its first local socket for the
match joins; it leaves the group when the last one goes). The publisher encodes the message once
(`realtime`), so the hub receives one small message per process, and hands its pre-encoded text to the
local sockets in memory. Ordering stays each socket's business: `MatchConsumer.hub_event` still drops
versions it has sent and fills gaps from the database, so two processes publishing close together
cannot reorder what a socket sees.

The hub's channel is read by the hub alone (in batches with `KaizaRedisChannelLayer.receive_batch`),
so no socket's closing can cancel a read and drop a message meant for others.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from channels.layers import BaseChannelLayer

logger = logging.getLogger(__name__)

try:
    from autobahn.exception import Disconnected  # daphne's websocket library
except ImportError:  # pragma: no cover - another server

    class Disconnected(Exception):  # type: ignore[no-redef]
        pass


class HubMember(Protocol):
    """What the hub needs of a socket: its channel name (for `exclude`) and the two deliveries."""

    channel_name: str

    async def hub_event(self, message: dict[str, Any]) -> None: ...

    async def hub_relay(self, text: str) -> None: ...


class MatchHub:
    """The match subscriptions of one process (one channel layer in one event loop)."""

    def __init__(self, layer: BaseChannelLayer, loop: asyncio.AbstractEventLoop) -> None:
        self.layer = layer
        self.loop = loop
        self.channel = ""
        self.members: dict[str, set[HubMember]] = {}
        self.subscribed: set[str] = set()
        #: group_add/group_discard of the process run one at a time, so a leave's discard can never
        #: land after a join's add for the same group.
        self.lock = asyncio.Lock()
        self.reader: asyncio.Task[None] | None = None
        self.beat: asyncio.Task[None] | None = None
        self.closed = False

    async def join(self, group: str, member: HubMember) -> None:
        """Deliver `group`'s messages to `member` from now on; returns once the process is subscribed,
        so a snapshot read afterwards cannot miss an event (it may overlap: versions sort that out)."""
        self.members.setdefault(group, set()).add(member)
        try:
            await self._subscribe(group)
        except BaseException:
            # The socket's connect fails and its disconnect will not know the hub: forget it here.
            self.forget(group, member)
            raise

    def forget(self, group: str, member: HubMember) -> None:
        local = self.members.get(group)
        if local is not None:
            local.discard(member)
            if not local:
                del self.members[group]

    async def _subscribe(self, group: str) -> None:
        async with self.lock:
            if self.closed:
                return
            if not self.channel:
                # A plain channel (no `!`): the Redis layer adds a group message to it with one script
                # call for the whole batch of sends, and the hub pops it in batches.
                self.channel = f"kaizahub.{uuid.uuid4().hex}"
            if self.reader is None:
                self.reader = self.loop.create_task(self._read(), name="kaiza-match-hub")
                self.beat = self.loop.create_task(self._heartbeat(), name="kaiza-match-hub-heartbeat")
            if group not in self.subscribed and self.members.get(group):
                await self.layer.group_add(group, self.channel)
                self.subscribed.add(group)

    async def leave(self, group: str, member: HubMember) -> None:
        local = self.members.get(group)
        if local is not None:
            local.discard(member)
        async with self.lock:
            if self.members.get(group):
                return
            self.members.pop(group, None)
            if group in self.subscribed:
                self.subscribed.discard(group)
                await self.layer.group_discard(group, self.channel)
            if not self.subscribed and not self.members and not self.closed:
                # Nothing of this process left to serve: stop (the next join makes a new hub).
                self.closed = True
                _HUBS.pop(_key(self.layer, self.loop), None)
                for task in (self.reader, self.beat):
                    if task is not None:
                        task.cancel()

    async def _read(self) -> None:
        receive_batch = getattr(self.layer, "receive_batch", None)
        while True:
            if receive_batch is not None:
                try:
                    batch = await receive_batch(self.channel)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    logger.warning("match hub: receiving failed (%s); retrying", exc)
                    await asyncio.sleep(0.5)
                    continue
            else:
                batch = [await self.layer.receive(self.channel)]
            for message in batch:
                try:
                    await self.dispatch(message)
                except Exception:
                    logger.exception("match hub: dispatching %s failed", message.get("type"))

    async def _heartbeat(self) -> None:
        """Every `HEARTBEAT_INTERVAL`, one call marks all the process's sockets alive (one UPDATE for
        the process, not one per socket: 350 sockets made 17 UPDATEs a second in the database thread)."""
        while True:
            await asyncio.sleep(HEARTBEAT_INTERVAL)
            names = [member.channel_name for local in self.members.values() for member in local]
            if names and heartbeat is not None:
                try:
                    await heartbeat(names)
                except Exception:
                    logger.exception("match hub: heartbeat failed")

    async def dispatch(self, message: dict[str, Any]) -> None:
        """One group message to every local socket of its match; a socket's failure is its own."""
        group = message.get("group")
        local = self.members.get(group) if isinstance(group, str) else None
        if not local:
            return
        kind = message.get("type")
        exclude = message.get("exclude")
        for member in list(local):
            try:
                if kind == "match.event":
                    await member.hub_event(message)
                elif kind == "match.relay" and member.channel_name != exclude:
                    await member.hub_relay(message["text"])
            except Disconnected:
                # The socket closed and its disconnect handler (which leaves the hub) has not run yet.
                pass
            except Exception:
                logger.exception("match hub: delivering to %s failed", member.channel_name)


#: Seconds between two heartbeats, and the coroutine function that records them (set by the consumers:
#: the hub knows nothing of the database).
HEARTBEAT_INTERVAL = 20.0
heartbeat: Callable[[list[str]], Awaitable[None]] | None = None

_HUBS: dict[tuple[int, int], MatchHub] = {}


async def publish(layer: BaseChannelLayer, message: dict[str, Any]) -> None:
    """Send a group message (with its `group`): this process's own sockets get it at once, in memory,
    and the layer takes it to the other processes' hubs only. Saves the publishing process a Redis
    round trip and a wake-up of its reader for every event and aim relay (the common case: most
    sockets of a match share a process). Layers that cannot skip a member get a plain group_send."""
    group = message["group"]
    send_except = getattr(layer, "group_send_except", None)
    hub = _HUBS.get(_key(layer, asyncio.get_running_loop()))
    single_host = len(getattr(layer, "hosts", ())) == 1
    if send_except is None or not single_host or hub is None or hub.closed or group not in hub.subscribed:
        await layer.group_send(group, message)
        return
    await hub.dispatch(message)
    await send_except(group, message, hub.channel)


def _key(layer: BaseChannelLayer, loop: asyncio.AbstractEventLoop) -> tuple[int, int]:
    return (id(layer), id(loop))


async def join(layer: BaseChannelLayer, group: str, member: HubMember) -> MatchHub:
    """Join `group` through this process's hub; returns the hub to `leave` later."""
    loop = asyncio.get_running_loop()
    while True:
        hub = _HUBS.get(_key(layer, loop))
        if hub is None or hub.layer is not layer or hub.loop is not loop:
            hub = _HUBS[_key(layer, loop)] = MatchHub(layer, loop)
        await hub.join(group, member)
        if not hub.closed:
            return hub
        # The hub shut down while we waited for its lock: join the next one.
        hub.forget(group, member)
