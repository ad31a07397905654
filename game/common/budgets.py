"""Message budgets that hold across daphne processes: token buckets in Redis, spent locally by lease.

A user's websocket messages (`game.common.ratelimit.socket_allows`) and chat messages (`chat_allows`) are
counted per user, whichever of their sockets sends. With one process an in-memory `TokenBucket` per
user does it; with N processes behind a load balancer each process had its own, so a user with
sockets on both got twice the budget (12.9 messages a second on one process, 21.0 on two).

With `settings.KAIZA_BUDGET_REDIS_URL` set (the `REDIS_URL` by default) the bucket lives in Redis: one
hash per user and kind, refilled and spent by one Lua script on Redis's own clock (`TIME`), so the
processes' clocks do not matter. A message must not wait for Redis, though: the aim relay handles up
to 60 messages a second per player and its latency is the load benchmark's bar. So each process
**leases** tokens: it takes `lease` tokens at once from Redis and spends them locally, and tops the
lease up in the background when half of it is spent. A message that finds no token in its process
(the first of a socket, or one just after a top-up fell short) is **spent now and settled after**: it
is owed to Redis and the next grant repays it, as long as the process owes less than a lease. Only a
user who has spent a whole lease before Redis answered once (one at the limit) waits; a refused
top-up also says when the next token comes, and until then the process refuses locally without
asking. The top-ups of a process go out together, one pipeline per loop iteration and one in flight
at a time: 200 players' first aims at a match's start are one round trip on one connection.

The slack, stated once: every message spends a token that left the Redis bucket or is owed to it,
and each process holds at most `lease` tokens of a user and kind (taken, not yet spent) or owes at
most `lease` (spent, not yet taken), never both, so over any interval of t seconds a user's sockets
on N processes get at most

    burst + rate * t + N * lease,      lease = max(1, round(rate * LEASE_SECONDS)), LEASE_SECONDS = 1.0

that is one second's refill per process on top of the budget (aims: 60 at 60 a second; other
messages: 10 at 10 a second). A lease of a tenth of a second (6 aims) cost a Redis call every third
aim of a player aiming 10 times a second; with a second's lease it is one call every 30 aims, off the
relay's way. Tokens a process holds when the user leaves are lost, never
given twice. Chat (a few messages a minute, already in a database thread) takes its token with a
blocking call and no lease: no slack.

When Redis fails the budget falls back to the in-memory bucket of that process for `RETRY_SECONDS`
(logged, at most once a minute): a message is never refused or delayed because Redis is away.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any

import redis
import redis.asyncio
from django.conf import settings

__all__ = ["LEASE_SECONDS", "SharedBudget", "TokenBucket"]

logger = logging.getLogger(__name__)

#: Each process may hold this many seconds of a user's refill (the slack, module docstring).
LEASE_SECONDS = 1.0
#: After a Redis error, the in-memory buckets answer for this long before Redis is tried again.
RETRY_SECONDS = 5.0
#: Entries kept before idle ones are forgotten (a full bucket, or a lease unused for `IDLE_SECONDS`).
PRUNE_AT = 5000
IDLE_SECONDS = 30.0

#: Refill, spend up to ARGV[3] tokens, return {granted, ms until one token is there (0 if granted)}.
TAKE_SCRIPT = """
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local want = tonumber(ARGV[3])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local state = redis.call('HMGET', KEYS[1], 'tokens', 'stamp')
local tokens = tonumber(state[1])
local stamp = tonumber(state[2])
if tokens == nil or stamp == nil then
  tokens = capacity
  stamp = now
end
tokens = math.min(capacity, tokens + math.max(0, now - stamp) * rate)
local granted = math.min(want, math.floor(tokens))
tokens = tokens - granted
redis.call('HSET', KEYS[1], 'tokens', string.format('%.6f', tokens), 'stamp', string.format('%.6f', now))
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity / rate + 1) * 1000))
local wait = 0
if granted < 1 then
  wait = math.ceil((1 - tokens) / rate * 1000)
end
return {granted, wait}
"""


class TokenBucket:
    """`capacity` messages at once, refilled at `rate` per second."""

    def __init__(self, capacity: float, rate: float) -> None:
        self.capacity = capacity
        self.rate = rate
        self.tokens = capacity
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def idle(self, now: float) -> bool:
        """Full again: forgetting it changes nothing."""
        return self.tokens + (now - self.stamp) * self.rate >= self.capacity


def lease_size(capacity: float, rate: float) -> int:
    """Tokens a process takes from Redis at once for a bucket of this size (the slack per process)."""
    return int(max(1, min(capacity, round(rate * LEASE_SECONDS))))


@dataclass(slots=True)
class _Lease:
    """One process's share of one Redis bucket: tokens taken and not yet spent."""

    size: int
    tokens: int = 0
    #: monotonic time before which Redis said no token is there: refused without asking.
    denied_until: float = 0.0
    #: Done when the top-up on its way is answered (one at a time per bucket and process).
    pending: asyncio.Future[None] | None = None
    #: Messages waiting for a top-up: it asks for at least as many tokens.
    waiting: int = 0
    used: float = 0.0


class SharedBudget:
    """Token buckets by key, in Redis when `settings.KAIZA_BUDGET_REDIS_URL` is set, else in memory."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.local: dict[str, TokenBucket] = {}
        self.leases: dict[str, _Lease] = {}
        self.down_until = 0.0
        self.warned_at = -1e9
        self._url = ""
        self._prefix = ""
        self._async: tuple[asyncio.AbstractEventLoop, Any, str] | None = None
        #: Leases to top up in the next pipeline, and the task that sends it (game.common.budgets._flush).
        self._batch: dict[str, tuple[_Lease, float, float]] = {}
        self._flusher: asyncio.Task[None] | None = None
        self._sync: tuple[Any, Any] | None = None

    # --- the two ways in ------------------------------------------------------------------------------

    async def take(self, key: str, capacity: float, rate: float) -> bool:
        """One message for `key`: False when its budget is spent. Never waits for Redis while this
        process holds a token of `key` or owes Redis less than a lease (module docstring)."""
        if not self._redis_url() or time.monotonic() < self.down_until:
            return self._local_take(key, capacity, rate)
        lease = self.leases.get(key)
        if lease is None:
            lease = self._new_lease(key, capacity, rate)
        if lease.tokens >= 1:
            lease.tokens -= 1
            if lease.tokens * 2 <= lease.size:
                self._ask(key, lease, capacity, rate)
            return True
        now = time.monotonic()
        lease.used = now
        if now < lease.denied_until:
            return False
        if lease.tokens > -lease.size:
            # Spend now, settle after: the token is owed to Redis and the next grant repays it. A
            # process owes at most a lease, so the slack stays what the module docstring states.
            lease.tokens -= 1
            self._ask(key, lease, capacity, rate)
            return True
        lease.waiting += 1
        try:
            # A whole lease owed and not yet repaid: a user spending faster than Redis answers, the
            # one at the limit. Wait until a token is here or Redis says none is: each answer grants
            # one or more, or sets `denied_until`, or fails over to memory (`down_until`), so the
            # loop ends.
            while lease.tokens < 1:
                now = time.monotonic()
                if now < lease.denied_until:
                    return False
                if now < self.down_until:
                    return self._local_take(key, capacity, rate)
                # Shielded: one socket's cancelled handler must not cancel the answer others wait on.
                await asyncio.shield(self._ask(key, lease, capacity, rate))
        finally:
            lease.waiting -= 1
        lease.tokens -= 1
        return True

    def take_sync(self, key: str, capacity: float, rate: float) -> bool:
        """One message for `key`, from a thread that may block (the chat's database thread): one token
        straight from Redis, no lease, no slack."""
        url = self._redis_url()
        if not url or time.monotonic() < self.down_until:
            return self._local_take(key, capacity, rate)
        try:
            if self._sync is None or self._url != url:
                client = redis.Redis.from_url(
                    url, socket_timeout=2.0, socket_connect_timeout=2.0, client_name=self.client_name()
                )
                self._sync = (client, client.register_script(TAKE_SCRIPT))
            _client, script = self._sync
            granted, _wait = script(keys=[self._key(key)], args=[capacity, rate, 1])
        except Exception as exc:  # Redis away: this process's own bucket answers meanwhile
            self._redis_failed(exc)
            return self._local_take(key, capacity, rate)
        return int(granted) >= 1

    def clear(self) -> None:
        """Forget this process's buckets and leases (tests; the Redis buckets expire by themselves)."""
        self.local.clear()
        self.leases.clear()
        self._batch.clear()
        self._flusher = None
        self.down_until = 0.0

    # --- inside -------------------------------------------------------------------------------------

    def _redis_url(self) -> str:
        url = str(getattr(settings, "KAIZA_BUDGET_REDIS_URL", "") or "")
        if url != self._url:
            self._url, self._async, self._sync = url, None, None
            self._batch.clear()
            self.leases.clear()
            self._prefix = f"{getattr(settings, 'KAIZA_BUDGET_PREFIX', 'kaiza')}:budget:{self.name}:"
        return url

    def _key(self, key: str) -> str:
        return self._prefix + key

    def client_name(self) -> str:
        """The name this budget's Redis connections give themselves (`CLIENT LIST` tells them apart
        from the channel layer's and the cache's): its key prefix."""
        return self._prefix.rstrip(":")

    def _local_take(self, key: str, capacity: float, rate: float) -> bool:
        bucket = self.local.get(key)
        if bucket is None:
            if len(self.local) >= PRUNE_AT:
                now = time.monotonic()
                for stale in [k for k, b in self.local.items() if b.idle(now)]:
                    del self.local[stale]
            bucket = self.local[key] = TokenBucket(capacity, rate)
        return bucket.take()

    def _new_lease(self, key: str, capacity: float, rate: float) -> _Lease:
        if len(self.leases) >= PRUNE_AT:
            old = time.monotonic() - IDLE_SECONDS
            for stale in [k for k, x in self.leases.items() if x.pending is None and x.used < old]:
                del self.leases[stale]
        lease = self.leases[key] = _Lease(size=lease_size(capacity, rate), used=time.monotonic())
        return lease

    def _ask(self, key: str, lease: _Lease, capacity: float, rate: float) -> asyncio.Future[None]:
        """Have `key`'s lease topped up by the next batch (one per lease at a time); the future is
        done when Redis (or, Redis failing, this process's bucket) has answered."""
        if lease.pending is None:
            loop = asyncio.get_running_loop()
            lease.pending = loop.create_future()
            self._batch[key] = (lease, capacity, rate)
            if self._flusher is None or self._flusher.done() or self._flusher.get_loop() is not loop:
                self._flusher = loop.create_task(self._flush())
        return lease.pending

    async def _flush(self) -> None:
        """Send the waiting top-ups of every key in one pipeline, one pipeline at a time: the asks of
        a loop iteration (200 players' first aims at a match's start) cost one round trip and one
        connection, not 200 of each. Never raises: on an error the tokens come from this process's
        own buckets (and the next `RETRY_SECONDS` of messages go there directly)."""
        while self._batch:
            batch, self._batch = self._batch, {}
            entries = list(batch.items())
            # Each asks for a full lease plus what it owes, and at least one token per waiting message.
            asks = [
                (self._key(key), capacity, rate, max(lease.size - lease.tokens, lease.waiting))
                for key, (lease, capacity, rate) in entries
            ]
            try:
                answers = await self._run_batch(asks)
            except Exception as exc:
                self._redis_failed(exc)
                answers = None
            now = time.monotonic()
            for index, (key, (lease, capacity, rate)) in enumerate(entries):
                if answers is None:
                    # Repay what is owed from this process's bucket; the messages after go there.
                    owed = max(0, -lease.tokens)
                    granted = sum(1 for _ in range(owed) if self._local_take(key, capacity, rate))
                else:
                    granted, wait = (int(x) for x in answers[index])
                    if granted < 1:
                        lease.denied_until = now + wait / 1000.0
                lease.tokens += granted
                pending, lease.pending = lease.pending, None
                if pending is not None and not pending.done():
                    pending.set_result(None)

    async def _run_batch(self, asks: list[tuple[str, float, float, int]]) -> list[Any]:
        """One pipeline of TAKE_SCRIPT calls, (redis key, capacity, rate, want) each: their answers.
        The script is loaded once per client (and again after Redis forgot it, e.g. a restart)."""
        loop = asyncio.get_running_loop()
        if self._async is None or self._async[0] is not loop:
            client = redis.asyncio.Redis.from_url(
                self._url, socket_timeout=2.0, socket_connect_timeout=2.0, client_name=self.client_name()
            )
            self._async = (loop, client, "")
        for attempt in (1, 2):
            _loop, client, sha = self._async
            if not sha:
                sha = str(await client.script_load(TAKE_SCRIPT))
                self._async = (loop, client, sha)
            pipe = client.pipeline(transaction=False)
            for redis_key, capacity, rate, want in asks:
                pipe.evalsha(sha, 1, redis_key, capacity, rate, want)
            try:
                return list(await pipe.execute())
            except redis.exceptions.NoScriptError:
                if attempt == 2:
                    raise
                self._async = (loop, client, "")
        raise AssertionError("unreachable")

    def _redis_failed(self, exc: BaseException) -> None:
        now = time.monotonic()
        self.down_until = now + RETRY_SECONDS
        if now - self.warned_at >= 60.0:
            self.warned_at = now
            logger.warning(
                "budget %s: Redis failed (%s); counting in this process for %.0f s", self.name, exc, RETRY_SECONDS
            )
