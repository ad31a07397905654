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
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from channels_redis.core import RedisChannelLayer

logger = logging.getLogger(__name__)


class KaizaRedisChannelLayer(RedisChannelLayer):
    #: Closed channels are remembered this long, so a late message for one is dropped, not buffered.
    closed_memory = 120.0
    #: Messages popped from Redis per round trip by the process's reader.
    batch_size = 256

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: One reader per (event loop, process channel): `specific.X!` and e.g. `healthz.X!` are two keys.
        self._readers: dict[tuple[int, str], asyncio.Task[None]] = {}
        #: receive() calls waiting now, per process channel: a reader stops (between reads) at zero.
        self._waiting: dict[str, int] = {}
        self._closed: dict[str, float] = {}

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
        """Up to `batch_size` waiting messages in one round trip, else block for the next one.

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
