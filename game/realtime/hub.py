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

Aims, the most frequent messages, go through the layer only while another process serves the match:
each hub announces its groups to the others when it subscribes and every beat (`hub.here`, answered
at once by a hub that had not heard of that process), and `publish` keeps an aim in its process when no
other process's hub was heard from in the group for `REMOTE_FRESH`. A load of one process (or of
several, each with its matches' sockets to itself) then sends no aim through Redis at all.

The hub's channel is read by the hub alone (in batches where the layer offers `receive_batch`), so no
socket's closing can cancel a read and drop a message meant for others.

Faults heal here, because delivery through the layer is at most once and the database is the record:
- every `BEAT_INTERVAL` the process's heartbeat (`heartbeat`, set by `game.realtime.presence`) tells each local
  match socket the match's latest stored version (but one in a stream of frames since, not behind), and a
  socket behind fills the gap from the database: an event whose publish never happened (a crash
  between commit and publish, Redis down) reaches everyone within one beat;
- every beat adds the hub to each of its groups again, since a restarted Redis has forgotten them
  (the layer's client reconnects by itself, so a restart is not always seen as a failure);
- the lobby's sockets are hub members too (group `lobby`), so they are resubscribed the same way.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

from channels.layers import BaseChannelLayer

from game.common.ratelimit import TokenBucket

logger = logging.getLogger(__name__)


class HubMember(Protocol):
    """What the hub needs of a socket: its channel name (for `exclude`) and the deliveries. A member
    drops a delivery quietly when its socket has closed (its cleanup leaves the hub)."""

    channel_name: str

    async def hub_event(self, message: dict[str, Any]) -> None: ...

    async def hub_relay(self, text: str) -> None: ...

    def relay_now(self, text: str) -> bool:
        """Send an unversioned message at once if nothing queued must go first; False: use hub_relay."""
        ...

    async def hub_beat(self, version: int, text: str) -> None: ...


class MatchHub:
    """The group subscriptions of one process (one channel layer in one event loop)."""

    def __init__(self, layer: BaseChannelLayer, loop: asyncio.AbstractEventLoop) -> None:
        self.layer = layer
        self.loop = loop
        self.channel = ""
        #: group -> its local sockets, in the order they joined (a dict used as an ordered set: a
        #: message reaches a match's sockets in the same order every time).
        self.members: dict[str, dict[HubMember, None]] = {}
        self.subscribed: set[str] = set()
        #: group_add/group_discard of the process run one at a time, so a leave's discard can never
        #: land after a join's add for the same group.
        self.lock = asyncio.Lock()
        self.reader: asyncio.Task[None] | None = None
        self.beat: asyncio.Task[None] | None = None
        self.closed = False
        #: Set when a read, a subscription or a publish failed (logged once the next beat resubscribed).
        self.layer_failed = False
        #: group -> the thinning of its aims to this process's spectators (`SPECTATOR_AIM_INTERVAL`).
        self.spectator_aims: dict[str, SpectatorAims] = {}
        #: Tasks the hub started and nobody awaits (a held aim's delivery to a socket with events queued,
        #: an announcement's answer), kept referenced until done (`_spawn`).
        self.background: set[asyncio.Task[Any]] = set()
        #: group -> loop time of the last message another process's hub sent it (its announcements
        #: included): while none is recent, no other process serves the group and aims stay local.
        self.remote_seen: dict[str, float] = {}

    async def join(self, group: str, member: HubMember) -> None:
        """Deliver `group`'s messages to `member` from now on; returns once the process is subscribed,
        so a snapshot read afterwards cannot miss an event (it may overlap: versions sort that out).
        Should the layer fail, the member still gets the process's own messages, and the next beat
        retries the subscription."""
        self.members.setdefault(group, {})[member] = None
        try:
            await self._subscribe(group)
        except BaseException:
            # Cancelled while subscribing: the socket is gone.
            self.forget(group, member)
            raise

    def forget(self, group: str, member: HubMember) -> None:
        local = self.members.get(group)
        if local is not None:
            local.pop(member, None)
            if not local:
                del self.members[group]
                self._drop_spectator_aims(group)

    async def _open_channel(self) -> str:
        """The hub's channel: a plain name on a layer that reads plain channels in batches (ours), the
        layer's own new channel otherwise (the pub/sub layer only delivers to channels it created)."""
        if getattr(self.layer, "receive_batch", None) is not None:
            return f"kaizahub.{uuid.uuid4().hex}"
        return await self.layer.new_channel("kaizahub.")

    async def _subscribe(self, group: str) -> None:
        async with self.lock:
            if self.closed:
                return
            if not self.channel:
                try:
                    self.channel = await self._open_channel()
                except Exception as exc:
                    logger.warning("match hub: opening a channel failed (%s); local delivery only for now", exc)
                    self.channel = f"kaizahub.{uuid.uuid4().hex}"
                    self.layer_failed = True
            if self.reader is None:
                self.reader = self.loop.create_task(self._read(), name="kaiza-match-hub")
                self.beat = self.loop.create_task(self._heartbeat(), name="kaiza-match-hub-heartbeat")
            if group not in self.subscribed and self.members.get(group):
                self.subscribed.add(group)
                try:
                    await self.layer.group_add(group, self.channel)
                    await self._announce(group)
                except Exception as exc:
                    logger.warning("match hub: subscribing to %s failed (%s); retrying on the next beat", group, exc)
                    self.layer_failed = True

    async def _announce(self, group: str) -> None:
        """Tell the other processes' hubs in `group` that this process serves it too (`remote_seen`):
        at subscribing, then every beat."""
        await _layer_send(self.layer, group, {"type": "hub.here", "group": group, "origin": self.channel}, self.channel)

    async def _answer(self, group: str) -> None:
        try:
            await self._announce(group)
        except Exception as exc:
            logger.warning("match hub: announcing %s failed (%s); the next beat announces it", group, exc)
            self.layer_failed = True

    def remote_recent(self, group: str) -> bool:
        """Whether another process served `group` within `REMOTE_FRESH`: only then do aims go out."""
        return self.loop.time() - self.remote_seen.get(group, float("-inf")) <= REMOTE_FRESH

    async def resubscribe(self) -> None:
        """Add the hub to every group it serves again. Runs every beat: a restarted Redis has forgotten
        the groups, and the layer cannot always tell (redis-py reconnects and retries by itself), so
        the hub does not wait to be told. Then announce the groups to the other processes' hubs."""
        failed = not await self._add_to_groups()
        if self.closed:
            return
        if not failed:
            # In one batch of the layer, not a round trip per group.
            groups = sorted(group for group in self.members if self.members.get(group))
            results = await asyncio.gather(*(self._announce(group) for group in groups), return_exceptions=True)
            failed = any(isinstance(result, Exception) for result in results)
        if self.layer_failed and not failed:
            logger.info("match hub: resubscribed to %d groups after a layer failure", len(self.members))
        self.layer_failed = failed

    async def _add_to_groups(self) -> bool:
        """The adds of `resubscribe` under the lock (a leave's discard never lands before an add): in one
        pipeline where the layer has `group_add_many` (ours: a round trip per group was 200 a beat at 200
        matches), else a group at a time. False when the layer failed."""
        add_many = getattr(self.layer, "group_add_many", None)
        batches = [sorted(self.members)] if add_many is not None else [[group] for group in sorted(self.members)]
        for batch in batches:
            async with self.lock:
                groups = [group for group in batch if self.members.get(group)]
                if self.closed or not groups:
                    continue
                try:
                    if add_many is not None:
                        await add_many(groups, self.channel)
                    else:
                        await self.layer.group_add(groups[0], self.channel)
                except Exception as exc:
                    logger.warning("match hub: resubscribing failed (%s); retrying on the next beat", exc)
                    return False
                self.subscribed.update(groups)
        return True

    async def leave(self, group: str, member: HubMember) -> None:
        local = self.members.get(group)
        if local is not None:
            local.pop(member, None)
        async with self.lock:
            if self.members.get(group):
                return
            self.members.pop(group, None)
            self._drop_spectator_aims(group)
            if group in self.subscribed:
                self.subscribed.discard(group)
                try:
                    await self.layer.group_discard(group, self.channel)
                except Exception as exc:
                    # The group's entry expires in Redis; the hub drops what still arrives for it.
                    logger.warning("match hub: leaving %s failed (%s)", group, exc)
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
            try:
                if receive_batch is not None:
                    batch = await receive_batch(self.channel)
                else:
                    batch = [await self.layer.receive(self.channel)]
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                logger.warning("match hub: receiving failed (%s); retrying", exc)
                self.layer_failed = True
                await asyncio.sleep(0.5)
                continue
            for message in batch:
                if message.get("origin") == self.channel:
                    continue  # this process's own message: its sockets had it at once (publish)
                group = message.get("group")
                if not isinstance(group, str):
                    continue
                known = self.remote_recent(group)
                self.remote_seen[group] = self.loop.time()
                if message.get("type") == "hub.here":
                    if not known and self.members.get(group):
                        # A process new to the group: answer at once, so its aims come here too
                        # without waiting for this process's next beat.
                        self._spawn(self._answer(group), "kaiza-hub-announce")
                    continue
                try:
                    await self.dispatch(message)
                except Exception:
                    logger.exception("match hub: dispatching %s failed", message.get("type"))

    async def _heartbeat(self) -> None:
        """Every `BEAT_INTERVAL`: resubscribe, then the process's heartbeat (the sockets' `beat`, their
        rows kept alive, stale rows purged: `game.realtime.presence`)."""
        while True:
            await asyncio.sleep(BEAT_INTERVAL)
            try:
                await self.resubscribe()
                if heartbeat is not None and self.members:
                    await heartbeat(self)
            except Exception:
                logger.exception("match hub: heartbeat failed")

    async def dispatch(self, message: dict[str, Any]) -> None:
        """One group message to every local socket of its group; a socket's failure is its own."""
        group = message.get("group")
        local = self.members.get(group) if isinstance(group, str) else None
        if not local:
            return
        kind = message.get("type")
        exclude = message.get("exclude")
        # A relay for one role only (the spectators' chat): members whose `audience_role` differs skip
        # it (a socket still connecting has none yet, so it gets it from its snapshot instead).
        audience = message.get("audience")
        text = message.get("text", "")
        # An aim reaches the spectators about every SPECTATOR_AIM_INTERVAL (the players every time).
        held_from_spectators = (
            kind == "match.relay" and message.get("aim") is True and not self._aim_due(str(group), text)
        )
        if kind == "match.event" and group in self.spectator_aims:
            self.spectator_aims[group].pending = None  # the match moved on: a held aim is stale
        sending = self.spectator_aims[group].sending if group in self.spectator_aims else None
        if sending is not None and not sending.done():
            # A held aim still on its way to a spectator with events queued: it goes first, or a
            # newer aim could reach that socket's queue before it (and the cue would jump back).
            await asyncio.shield(sending)
        for index, member in enumerate(crowd_order(local)):
            if index and not index % CROWD_SLICE:
                # A crowd (a final on the home page): the loop takes its turns between slices, so the
                # players' next aim or input is not held behind a thousand spectators' writes. Their
                # order holds: a later message's fan-out starts its slices after this one's.
                await asyncio.sleep(0)
            try:
                if kind == "match.event":
                    await member.hub_event(message)
                elif (
                    kind == "match.relay"
                    and member.channel_name != exclude
                    and (audience is None or getattr(member, "audience_role", None) == audience)
                    and not (held_from_spectators and getattr(member, "audience_role", None) == "spectator")
                    # The common case, an aim to a socket with nothing queued, without an await per
                    # socket (six per aim with five spectators): relay_now sends it or says it cannot.
                    and not member.relay_now(text)
                ):
                    await member.hub_relay(text)
            except Exception:
                logger.exception("match hub: delivering to %s failed", member.channel_name)

    # --- aims to spectators, thinned ------------------------------------------------------------------

    def _aim_due(self, group: str, text: str) -> bool:
        """Whether this aim goes to the group's spectators now: when their bucket holds a token
        (`SPECTATOR_AIM_INTERVAL`, `SPECTATOR_AIM_BURST`). One that comes without a token is held, not
        queued: the next one with a token goes out at once in its place, so thinning adds no delay to
        what is sent, and only when no newer aim comes for an interval (the player stopped moving) is
        the held one sent, so a sweep's last aim is never lost. A match event drops it (`dispatch`).

        A bucket, not a fixed gap: a page aiming at about the spectators' rate sends with jitter, and a
        gap of a whole interval held every aim that came a little early, then sent it an interval late
        (the spectators' aim p99 was 120 ms at 10 aims a second: docs/decisions/spectator-aims-paced.md).
        The burst lets an early one through; the rate still holds over any longer stretch."""
        state = self.spectator_aims.get(group)
        if state is None:
            state = self.spectator_aims[group] = SpectatorAims()
        if state.bucket.take():
            state.pending = None
            return True
        state.pending, state.held_at = text, self.loop.time()
        if state.timer is None:
            state.timer = self.loop.call_at(state.held_at + SPECTATOR_AIM_INTERVAL, self._send_held_aim, group)
        return False

    def _send_held_aim(self, group: str) -> None:
        state = self.spectator_aims.get(group)
        if state is None:
            return
        state.timer = None
        if state.pending is None:
            return
        now = self.loop.time()
        quiet_until = state.held_at + SPECTATOR_AIM_INTERVAL
        if now < quiet_until:  # a newer aim was held since this timer was set: wait for the quiet
            state.timer = self.loop.call_at(quiet_until, self._send_held_aim, group)
            return
        # Sent always (a sweep's last aim is never lost), and with a token when there is one. After a
        # real interval of quiet there is one; but when the loop itself was held up, this timer and the
        # aims published meanwhile run back to once, and a held aim sent without a token let three
        # aims reach the spectators within one interval (the bucket's burst is two: CI, once).
        state.bucket.take()
        text, state.pending = state.pending, None
        queued: list[HubMember] = []
        for member in list(self.members.get(group) or ()):
            if getattr(member, "audience_role", None) != "spectator":
                continue
            try:
                if not member.relay_now(text):
                    queued.append(member)
            except Exception:
                logger.exception("match hub: delivering to %s failed", member.channel_name)
        if queued:
            # One task for the sockets with events queued, which the group's next message waits for
            # (`dispatch`): each of them gets this aim before any newer one.
            state.sending = self._spawn(self._relay_held(queued, text), "kaiza-held-aim")

    async def _relay_held(self, members: list[HubMember], text: str) -> None:
        for member in members:
            try:
                await member.hub_relay(text)
            except Exception:
                logger.exception("match hub: delivering to %s failed", member.channel_name)

    def _spawn(self, coroutine: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        task = self.loop.create_task(coroutine, name=name)
        self.background.add(task)
        task.add_done_callback(self.background.discard)
        return task

    def _drop_spectator_aims(self, group: str) -> None:
        state = self.spectator_aims.pop(group, None)
        if state is not None and state.timer is not None:
            state.timer.cancel()


def crowd_order(local: dict[HubMember, None]) -> list[HubMember]:
    """A group's local sockets in the order a message reaches them: as they joined, but in a crowd
    (more than `CROWD_SLICE`) the players and sockets still connecting first, so a player who came back
    after a thousand spectators joined is not served after them (a crowd must not slow the
    match's players)."""
    members = list(local)
    if len(members) > CROWD_SLICE:
        members.sort(key=lambda member: getattr(member, "audience_role", None) == "spectator")  # stable
    return members


class SpectatorAims:
    """One group's aims to spectators: the bucket that paces them, the aim held and when it came
    (loop time), the timer that sends it after a quiet interval."""

    __slots__ = ("bucket", "held_at", "pending", "sending", "timer")

    def __init__(self) -> None:
        self.bucket = TokenBucket(SPECTATOR_AIM_BURST, 1 / SPECTATOR_AIM_INTERVAL)
        self.pending: str | None = None
        self.held_at = 0.0
        self.timer: asyncio.TimerHandle | None = None
        #: The held aim's delivery to spectators with events queued, while under way.
        self.sending: asyncio.Task[None] | None = None


#: Sockets of one match in one process that a message reaches before the hub lets the loop take its
#: turn: a match's usual 7 go out at once; a crowd of 1,000 (a club final, the home page's featured
#: match) took the loop for tens of milliseconds per aim and per shot, and its players' aims waited
#: behind it.
CROWD_SLICE = 100

#: Seconds between two aims relayed to a match's spectators by one process: 10 a second, where the
#: players get up to 20 (game.matches.consumer.MatchConsumer.aim_interval). A page in a drag sends 18 a second
#: and each relay goes to every spectator (five of them: most of the frames a match sends), while a
#: spectator's page glides the cue from one aim to the next (static/game/js/state.js,
#: `remoteAimAngle`), so a sweep looks the same at half the frames.
SPECTATOR_AIM_INTERVAL = 0.1
#: Aims a match's spectators may get at once above that rate: room for the jitter of a page aiming at
#: about the rate (a bucket of `SPECTATOR_AIM_BURST` tokens refilled one per interval).
SPECTATOR_AIM_BURST = 2.0

#: Seconds between two heartbeats of a process (the `beat` every match socket gets; a client that hears
#: nothing for three of them shows the connection as lost), and the coroutine function that does the
#: process's periodic work (set by game.realtime.presence: the hub knows nothing of the database).
BEAT_INTERVAL = 2.0
#: Seconds an announcement of another process's hub keeps a group's aims going out through the layer
#: (three beats: a process that stopped serving the group stops announcing).
REMOTE_FRESH = 3 * BEAT_INTERVAL
heartbeat: Callable[[MatchHub], Awaitable[None]] | None = None

_HUBS: dict[tuple[int, int], MatchHub] = {}


def current(layer: BaseChannelLayer) -> MatchHub | None:
    """This process's hub on `layer`, if it runs."""
    hub = _HUBS.get(_key(layer, asyncio.get_running_loop()))
    return None if hub is None or hub.closed else hub


async def publish(layer: BaseChannelLayer, message: dict[str, Any]) -> None:
    """Send a group message (with its `group`): this process's own sockets get it at once, in memory,
    and the layer takes it to the other processes' hubs (a hub skips messages of its own `origin`).
    Saves the publishing process a Redis round trip for every event and aim relay, and keeps its own
    sockets served while Redis is down. A failed send is logged, never raised: whoever published
    has already stored what matters (the next beat brings the other processes' sockets up to date)."""
    group = message["group"]
    hub = current(layer)
    local = hub is not None and group in hub.members
    if hub is not None and local:
        await hub.dispatch(message)
        if message.get("aim") is True and not hub.remote_recent(group):
            return  # no other process serves the match: an aim (ephemeral, the most frequent) stays here
        message = {**message, "origin": hub.channel}
    try:
        await _layer_send(layer, group, message, hub.channel if hub is not None and local else None)
    except Exception as exc:
        logger.warning("publish to %s failed (%s); the next beat catches the other processes up", group, exc)
        if hub is not None:
            hub.layer_failed = True


async def _layer_send(layer: BaseChannelLayer, group: str, message: dict[str, Any], skip: str | None) -> None:
    """A group send through the layer, skipping the hub channel `skip` where the layer can (ours, on
    one Redis host: the sender's own hub has delivered it already)."""
    send_except = getattr(layer, "group_send_except", None)
    if skip is not None and send_except is not None and len(getattr(layer, "hosts", ())) == 1:
        await send_except(group, message, skip)
    else:
        await layer.group_send(group, message)


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
