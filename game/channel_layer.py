"""The Redis channel layer, with the one change that keeps its messages from being lost.

channels_redis reads every socket of a process through one shared `BZPOPMIN` on the process's
channel, run inside the `receive()` of whichever socket happened to take the receive lock. When that
socket closes, Channels cancels its `receive()`, and with it the `BZPOPMIN` in flight: a message Redis
had just popped for *another* socket of the process is dropped with the cancelled reply (redis-py
disconnects on cancellation). In a match that is the `clock` or presence a closing player's own
disconnect handler just broadcast, or a versioned event published at the same moment
(django/channels#1683, django/channels_redis#366).

Here one reader task per event loop (and process channel) does all the reading, and no socket can
cancel it; a socket's `receive()` only waits on its own in-process queue, and cancelling that wait
loses nothing. The reader stops only between two reads, when no receive() is waiting: whatever arrives
then stays in Redis for the next reader.

It also makes group sends cheap enough for the match hubs (`game.hub`): stock `group_send` spends four
round trips per message (expire the group, read it, expire the channels, a Lua script sent in full),
serialised in the sender. Here the group sends of an event loop queue up and go in batches, one
round trip per batch running a stored script that reads each group and adds the message (serialised
once) to every member that is a plain channel, as the hubs' are. Members that are process-local
channels (`specific.X!Y`: the lobby and ping sockets) get the stock treatment. A hub reads its channel
in batches too (`receive_batch`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from typing import Any

from channels_redis.core import RedisChannelLayer

logger = logging.getLogger(__name__)

#: ARGV: n, prefix, group cutoff, message cutoff, now, expiry, capacity, then n (group key, message,
#: member to skip). Adds each message to the plain-channel members of its group but the one to skip
#: (the sender's own hub, which delivered locally); returns, per message, the members it left alone
#: (process-local channels, sent the stock way). Scores rise by a microsecond per message so
#: the batch keeps its order in each channel (equal scores would sort by the random prefix).
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


#: Stock channels_redis's group-send script (for process-local members).
LOCAL_SEND_LUA = """
local over_capacity = 0
local current_time = ARGV[#ARGV - 1]
local expiry = ARGV[#ARGV]
for i=1,#KEYS do
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[i + #KEYS]) then
        redis.call('ZADD', KEYS[i], current_time, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        over_capacity = over_capacity + 1
    end
end
return over_capacity
"""


class KaizaRedisChannelLayer(RedisChannelLayer):
    #: Closed channels are remembered this long, so a late message for one is dropped, not buffered.
    closed_memory = 120.0
    #: Messages popped from Redis per round trip by the process's reader, and group sends per batch.
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
        self._closed: dict[str, float] = {}
        #: Group sends (group, message, member to skip, done) waiting for the next batch, per event loop.
        self._outbox: dict[int, deque[tuple[str, dict[str, Any], str, asyncio.Future[None]]]] = {}
        self._senders: dict[int, asyncio.Task[None]] = {}
        self._group_send_script: Any = None

    # --- batched group sends ----------------------------------------------------------------------

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """Queue the message for this loop's next batch and return once Redis has it (so two sends
        awaited one after the other keep their order)."""
        if len(self.hosts) != 1:
            await super().group_send(group, message)
            return
        await self.group_send_except(group, message, "")

    async def group_send_except(self, group: str, message: dict[str, Any], skip: str) -> None:
        """`group_send` to every member but `skip` (a plain channel: the sender's hub, which has
        delivered the message to its own sockets already)."""
        if len(self.hosts) != 1:
            raise NotImplementedError("group_send_except needs a single Redis host")
        assert self.require_valid_group_name(group), "Group name not valid"
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._outbox.setdefault(id(loop), deque()).append((group, message, skip, done))
        sender = self._senders.get(id(loop))
        if sender is None or sender.done():
            self._senders[id(loop)] = loop.create_task(self._send_batches(id(loop)), name="kaiza-layer-sender")
        await done

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
        connection = self.connection(0)
        if self._group_send_script is None:
            self._group_send_script = connection.register_script(GROUP_SEND_BATCH_LUA)
        now = time.time()
        args: list[Any] = [
            len(batch), self.prefix, int(now) - self.group_expiry, int(now) - int(self.expiry), now,
            self.expiry, self.hub_capacity,
        ]
        for group, message, skip in batch:
            args += [self._group_key(group), self.serialize(message), skip]
        left = await self._group_send_script(args=args, client=connection)
        for (group, message, _), others in zip(batch, left, strict=True):
            if others:
                await self._send_to_local([name.decode("utf8") for name in others], message, group)

    async def _send_to_local(self, channel_names: list[str], message: dict[str, Any], group: str) -> None:
        """The stock group send, for the process-local members of a group."""
        connection_to_keys, key_to_message, key_to_capacity = self._map_channel_keys_to_connection(
            channel_names, message
        )
        for index, keys in connection_to_keys.items():
            connection = self.connection(index)
            args = [key_to_message[key] for key in keys] + [key_to_capacity[key] for key in keys]
            over = await connection.eval(LOCAL_SEND_LUA, len(keys), *keys, *args, time.time(), self.expiry)
            if over:
                logger.info("%s of %s channels over capacity in group %s", over, len(channel_names), group)

    async def receive_batch(self, channel: str) -> list[dict[str, Any]]:
        """The waiting messages of a plain channel (a match hub's), up to `batch_size` in one round
        trip, else the next one to arrive. Only the hub reads its channel; cancelling it (the hub
        stopping, nothing of the process left in its groups) may drop a message nobody needs."""
        assert "!" not in channel and self.require_valid_channel_name(channel)
        return [self.deserialize(content) for content in await self._pop_batch(channel)]

    async def receive(self, channel: str) -> dict[str, Any]:
        if "!" not in channel:
            return await super().receive(channel)
        assert self.require_valid_channel_name(channel)
        real_channel = self.non_local_name(channel)
        assert real_channel.endswith(self.client_prefix + "!"), "Wrong client prefix"
        queue = self.receive_buffer[channel]
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
        if queue.empty() and self.receive_buffer.get(channel) is queue:
            del self.receive_buffer[channel]
        return message

    def _ensure_reader(self, real_channel: str) -> None:
        loop = asyncio.get_running_loop()
        key = (id(loop), real_channel)
        task = self._readers.get(key)
        if task is None or task.done():
            self._readers[key] = loop.create_task(self._read(key, real_channel), name="kaiza-layer-reader")

    def _close_channel(self, channel: str) -> None:
        self.receive_buffer.pop(channel, None)
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
                    batch = await self._pop_batch(real_channel)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    logger.warning("channel layer: receiving from Redis failed (%s); retrying", exc)
                    await asyncio.sleep(0.5)
                    continue
                for content in batch:
                    message = self.deserialize(content)
                    target = message.pop("__asgi_channel__", real_channel)
                    for name in target if isinstance(target, list) else [target]:
                        if name not in self._closed:
                            self.receive_buffer[name].put_nowait(message)
        finally:
            if self._readers.get(key) is asyncio.current_task():
                del self._readers[key]

    async def _pop_batch(self, real_channel: str) -> list[bytes]:
        """Up to `batch_size` waiting messages of a channel in one round trip, else block for the next
        one (the process channel's reader here, a match hub's through `receive_batch`).

        Stock channels_redis spends four serialised round trips per message (a cleanup script, BZPOPMIN,
        a backup ZADD and its ZPOPMIN) to survive its reader being cancelled; this reader is not
        cancelled by sockets, so it pops whole batches: at a few thousand messages a second per process
        that was the bottleneck of the load benchmark (aim relays waited hundreds of ms in Redis)."""
        key = self.prefix + real_channel
        connection = self.connection(self.consistent_hash(real_channel))
        popped = await connection.zpopmin(key, self.batch_size)
        if popped:
            return [member for member, _score in popped]
        result = await connection.bzpopmin(key, timeout=self.brpop_timeout)
        return [] if result is None else [result[1]]

    async def _stop_readers(self) -> None:
        for task in list(self._readers.values()):
            task.cancel()
        self._readers.clear()

    async def flush(self) -> None:
        await self._stop_readers()
        await super().flush()

    async def close_pools(self) -> None:
        await self._stop_readers()
        await super().close_pools()
