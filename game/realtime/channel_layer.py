"""The Redis channel layer of Kaiza: channels_redis's configuration, connections and serialisation
(public API only), with its own storage, reading and group sends.

Why not stock `RedisChannelLayer`: it reads every socket of a process through one shared `BZPOPMIN`
run inside the `receive()` of whichever socket happened to take the receive lock. When that socket
closes, Channels cancels its `receive()`, and with it the `BZPOPMIN` in flight: a message Redis had
just popped for *another* socket of the process is dropped with the cancelled reply
(https://github.com/django/channels/issues/1683, https://github.com/django/channels_redis/issues/366).
And its group send costs four serialised round trips per message. Why not `RedisPubSubChannelLayer`, the
maintainers' answer to that issue: measured with the load benchmark, one PUBLISH round trip per message
under one lock per shard, and at 100 matches its queue grew to seconds.

So here, on the connection pools, `serialize`/`deserialize`, `consistent_hash` and `new_channel` of
channels_redis:
- messages wait in sorted sets of our own keys (`<prefix>:kq:<channel>`), groups are sorted sets of
  our own keys (`<prefix>:kg:<group>`), written by our own scripts; nothing depends on how
  channels_redis stores its own;
- one reader task per event loop and process channel does all the reading, and no socket can cancel
  it; a socket's `receive()` only waits on its own in-process queue, and cancelling that wait loses
  nothing. The reader stops only between two reads, when no receive() is waiting: whatever arrives
  then stays in Redis for the next reader;
- the group sends of an event loop queue up and go in batches, one round trip per batch running a
  script that reads each group and adds the message (serialised once) to every member that is a plain
  channel, as the match hubs' are (`game.realtime.hub`); process-local members (`specific.X!Y`: the ping
  sockets) get a plain `send`. A hub reads its channel in batches too (`receive_batch`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from typing import Any

from channels.exceptions import ChannelFull
from channels_redis.core import RedisChannelLayer

logger = logging.getLogger(__name__)

#: KEYS: queue keys; ARGV: their payloads, then their capacities, then cutoff, now, expiry. Adds each
#: payload to its queue unless full; returns how many were full. Expired messages go first.
PUSH_LUA = """
local n = #KEYS
local cutoff = tonumber(ARGV[2 * n + 1])
local now = tonumber(ARGV[2 * n + 2])
local expiry = tonumber(ARGV[2 * n + 3])
local full = 0
for i = 1, n do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, cutoff)
    if redis.call('ZCARD', KEYS[i]) < tonumber(ARGV[n + i]) then
        redis.call('ZADD', KEYS[i], now + i * 0.000001, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        full = full + 1
    end
end
return full
"""

#: ARGV: n, queue key prefix, group cutoff, message cutoff, now, expiry, capacity, then n (group key,
#: message, member to skip). Adds each message to the plain-channel members of its group but the one
#: to skip (the sender's own hub, which delivered locally); returns, per message, the members it left
#: alone (process-local channels, sent with `send`). Scores rise by a microsecond per message so the
#: batch keeps its order in each channel (equal scores would sort by the random prefix).
GROUP_SEND_BATCH_LUA = """
local n = tonumber(ARGV[1])
local prefix = ARGV[2]
local group_cutoff = tonumber(ARGV[3])
local message_cutoff = tonumber(ARGV[4])
local now = tonumber(ARGV[5])
local expiry = tonumber(ARGV[6])
local capacity = tonumber(ARGV[7])
local left = {}
for i = 1, n do
    local group_key = ARGV[5 + 3 * i]
    local payload = ARGV[6 + 3 * i]
    local skip = ARGV[7 + 3 * i]
    redis.call('ZREMRANGEBYSCORE', group_key, 0, group_cutoff)
    local others = {}
    for _, member in ipairs(redis.call('ZRANGE', group_key, 0, -1)) do
        if member == skip then
            -- delivered by the sender's process itself
        elseif string.find(member, '!', 1, true) then
            table.insert(others, member)
        else
            local key = prefix .. member
            redis.call('ZREMRANGEBYSCORE', key, 0, message_cutoff)
            if redis.call('ZCARD', key) < capacity then
                redis.call('ZADD', key, now + i * 0.000001, payload)
                redis.call('EXPIRE', key, expiry)
            end
        end
    end
    left[i] = others
end
return left
"""


class KaizaRedisChannelLayer(RedisChannelLayer):
    #: Closed channels are remembered this long, so a late message for one is dropped, not buffered.
    closed_memory = 120.0
    #: Messages popped from Redis per round trip by a reader, and group sends per batch.
    batch_size = 256
    #: Capacity of a plain channel in a batched group send: a match hub's channel carries every match
    #: message of its process (thousands a second), far more than one socket's.
    hub_capacity = 20000

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: One reader per (event loop, process channel): `specific.X!` and e.g. `healthz.X!` are two keys.
        self._readers: dict[tuple[int, str], asyncio.Task[None]] = {}
        #: receive() calls waiting now, per process channel: a reader stops (between reads) at zero.
        self._waiting: dict[str, int] = {}
        #: Messages read for process-local channels, waiting for their receive().
        self._queues: dict[str, asyncio.Queue[dict[str, Any]]] = {}
        self._closed: dict[str, float] = {}
        #: Group sends (group, message, member to skip, done) waiting for the next batch, per event loop.
        self._outbox: dict[int, deque[tuple[str, dict[str, Any], str, asyncio.Future[None]]]] = {}
        self._senders: dict[int, asyncio.Task[None]] = {}
        self._scripts: dict[tuple[int, str], Any] = {}

    # --- storage -----------------------------------------------------------------------------------

    def queue_key(self, name: str) -> str:
        """The sorted set a (plain or process) channel's messages wait in."""
        return f"{self.prefix}:kq:{name}"

    def group_key(self, group: str) -> str:
        return f"{self.prefix}:kg:{group}"

    def _script(self, index: int, source: str) -> Any:
        connection = self.connection(index)
        key = (id(connection), source)
        if key not in self._scripts:
            self._scripts[key] = connection.register_script(source)
        return self._scripts[key]

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        """Put a message on a channel; ChannelFull when it holds its capacity already."""
        assert isinstance(message, dict), "message is not a dict"
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        assert "__asgi_channel__" not in message
        if "!" in channel:
            target = self.non_local_name(channel)
            message = {**message, "__asgi_channel__": channel}
        else:
            target = channel
        index = self.consistent_hash(target)
        now = time.time()
        full = await self._script(index, PUSH_LUA)(
            keys=[self.queue_key(target)],
            args=[self.serialize(message), self.get_capacity(channel), now - self.expiry, now, self.expiry],
        )
        if full:
            raise ChannelFull()

    async def group_add(self, group: str, channel: str) -> None:
        await self.group_add_many([group], channel)

    async def group_add_many(self, groups: list[str], channel: str) -> None:
        """One channel added to groups (each kept `group_expiry`), in one pipeline per Redis host, not a
        round trip per group: a match hub adds itself again to every group it serves each beat
        (game.realtime.hub `resubscribe`), 200 groups at 200 matches."""
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        by_host: dict[int, list[str]] = {}
        for group in groups:
            assert self.require_valid_group_name(group), "Group name not valid"
            by_host.setdefault(self.consistent_hash(group), []).append(group)
        now = time.time()
        for index, names in sorted(by_host.items()):
            async with self.connection(index).pipeline(transaction=False) as pipe:
                for group in names:
                    key = self.group_key(group)
                    pipe.zadd(key, {channel: now})
                    pipe.expire(key, self.group_expiry)
                await pipe.execute()

    async def group_discard(self, group: str, channel: str) -> None:
        assert self.require_valid_group_name(group), "Group name not valid"
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        await self.connection(self.consistent_hash(group)).zrem(self.group_key(group), channel)

    # --- batched group sends ----------------------------------------------------------------------

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """Queue the message for this loop's next batch and return once Redis has it (so two sends
        awaited one after the other keep their order)."""
        await self.group_send_except(group, message, "")

    async def group_send_except(self, group: str, message: dict[str, Any], skip: str) -> None:
        """`group_send` to every member but `skip` (a plain channel: the sender's hub, which has
        delivered the message to its own sockets already)."""
        assert self.require_valid_group_name(group), "Group name not valid"
        if len(self.hosts) != 1:
            await self._group_send_sharded(group, message, skip)
            return
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._outbox.setdefault(id(loop), deque()).append((group, message, skip, done))
        sender = self._senders.get(id(loop))
        if sender is None or sender.done():
            self._senders[id(loop)] = loop.create_task(self._send_batches(id(loop)), name="kaiza-layer-sender")
        await done

    async def _group_send_sharded(self, group: str, message: dict[str, Any], skip: str) -> None:
        """Several Redis hosts: the members are read, then each gets a `send` (no batching)."""
        connection = self.connection(self.consistent_hash(group))
        key = self.group_key(group)
        await connection.zremrangebyscore(key, 0, int(time.time()) - self.group_expiry)
        for member in await connection.zrange(key, 0, -1):
            name = member.decode("utf8")
            if name != skip:
                try:
                    await self.send(name, message)
                except ChannelFull:
                    logger.info("channel %s over capacity in group %s", name, group)

    async def _send_batches(self, loop_key: int) -> None:
        """Send what is queued, a batch per round trip, until nothing is; then stop."""
        outbox = self._outbox[loop_key]
        try:
            while outbox:
                batch = [outbox.popleft() for _ in range(min(len(outbox), self.batch_size))]
                try:
                    await self._send_batch([(group, message, skip) for group, message, skip, _ in batch])
                except Exception as exc:
                    for *_, done in batch:
                        if not done.done():
                            done.set_exception(exc)
                else:
                    for *_, done in batch:
                        if not done.done():
                            done.set_result(None)
        finally:
            if self._senders.get(loop_key) is asyncio.current_task():
                del self._senders[loop_key]
            if not outbox:
                self._outbox.pop(loop_key, None)

    async def _send_batch(self, batch: list[tuple[str, dict[str, Any], str]]) -> None:
        now = time.time()
        args: list[Any] = [
            len(batch),
            self.queue_key(""),
            int(now) - self.group_expiry,
            now - self.expiry,
            now,
            self.expiry,
            self.hub_capacity,
        ]
        for group, message, skip in batch:
            args += [self.group_key(group), self.serialize(message), skip]
        left = await self._script(0, GROUP_SEND_BATCH_LUA)(args=args)
        for (group, message, _), others in zip(batch, left, strict=True):
            for member in others:
                try:
                    await self.send(member.decode("utf8"), message)
                except ChannelFull:
                    logger.info("channel %s over capacity in group %s", member, group)

    # --- receiving ---------------------------------------------------------------------------------

    async def receive_batch(self, channel: str) -> list[dict[str, Any]]:
        """The waiting messages of a plain channel (a match hub's), up to `batch_size` in one round
        trip, else the next one to arrive. Only the hub reads its channel; cancelling it (the hub
        stopping, nothing of the process left in its groups) may drop a message nobody needs."""
        assert "!" not in channel and self.require_valid_channel_name(channel)
        return [self.deserialize(content) for content in await self._pop(channel, self.batch_size)]

    async def receive(self, channel: str) -> dict[str, Any]:
        assert self.require_valid_channel_name(channel)
        if "!" not in channel:
            while True:
                popped = await self._pop(channel, 1)
                if popped:
                    return self.deserialize(popped[0])
        real_channel = self.non_local_name(channel)
        assert real_channel.endswith(self.client_prefix + "!"), "Wrong client prefix"
        queue = self._queues.setdefault(channel, asyncio.Queue())
        if not queue.empty():
            message = queue.get_nowait()
        else:
            self._waiting[real_channel] = self._waiting.get(real_channel, 0) + 1
            try:
                self._ensure_reader(real_channel)
                message = await queue.get()
            except asyncio.CancelledError:
                # Channels cancels a consumer's receive() only when the socket is gone: its queue goes too.
                self._close_channel(channel)
                raise
            finally:
                self._waiting[real_channel] -= 1
        if queue.empty() and self._queues.get(channel) is queue:
            del self._queues[channel]
        return message

    def _ensure_reader(self, real_channel: str) -> None:
        loop = asyncio.get_running_loop()
        key = (id(loop), real_channel)
        task = self._readers.get(key)
        if task is None or task.done():
            self._readers[key] = loop.create_task(self._read(key, real_channel), name="kaiza-layer-reader")

    def _close_channel(self, channel: str) -> None:
        self._queues.pop(channel, None)
        now = time.monotonic()
        self._closed[channel] = now
        if len(self._closed) > 1000:
            cutoff = now - self.closed_memory
            self._closed = {name: at for name, at in self._closed.items() if at >= cutoff}

    async def _read(self, key: tuple[int, str], real_channel: str) -> None:
        """Pop the process's messages into the sockets' queues. Only this task ever waits on Redis, and
        it stops only between two reads (nobody waiting), so a popped message always reaches its queue."""
        try:
            while self._waiting.get(real_channel, 0) > 0:
                try:
                    batch = await self._pop(real_channel, self.batch_size)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    logger.warning("channel layer: receiving from Redis failed (%s); retrying", exc)
                    await asyncio.sleep(0.5)
                    continue
                for content in batch:
                    message = self.deserialize(content)
                    target = message.pop("__asgi_channel__", real_channel)
                    if target not in self._closed:
                        self._queues.setdefault(target, asyncio.Queue()).put_nowait(message)
        finally:
            if self._readers.get(key) is asyncio.current_task():
                del self._readers[key]

    async def _pop(self, name: str, count: int) -> list[bytes]:
        """Up to `count` waiting messages of a channel in one round trip, else block (up to the
        layer's `brpop_timeout`) for the next one.

        Stock channels_redis spends four serialised round trips per message (a cleanup script, BZPOPMIN,
        a backup ZADD and its ZPOPMIN) to survive its reader being cancelled; these readers are not
        cancelled by sockets, so they pop whole batches: at a few thousand messages a second per process
        that was the bottleneck of the load benchmark (aim relays waited hundreds of ms in Redis)."""
        key = self.queue_key(name)
        connection = self.connection(self.consistent_hash(name))
        popped = await connection.zpopmin(key, count)
        if popped:
            return [member for member, _score in popped]
        result = await connection.bzpopmin(key, timeout=self.brpop_timeout)
        return [] if result is None else [result[1]]

    # --- shutting down -----------------------------------------------------------------------------

    async def _stop_readers(self) -> None:
        for task in list(self._readers.values()):
            task.cancel()
        self._readers.clear()

    async def flush(self) -> None:
        await self._stop_readers()
        self._queues.clear()
        await super().flush()

    async def close_pools(self) -> None:
        await self._stop_readers()
        self._scripts.clear()
        await super().close_pools()
