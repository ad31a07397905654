"""CPU cost per group message: `game.realtime.channel_layer.KaizaRedisChannelLayer` against channels_redis's
`RedisPubSubChannelLayer` (why Kaiza has its own: game/realtime/channel_layer.py).

One publishing and one receiving layer instance (as two processes would have), 100 groups with the
receiver's one channel in each (the hub's one subscription per process and match), 50 concurrent
publishers sending K messages of 300 bytes in all, each send awaited as `realtime.publish` does; the
receiver reads until it has them all. Prints wall time, messages/s and the process's CPU time per
message (from getrusage: other load on the machine inflates the wall time far more than the CPU time).

    REDIS_URL=redis://127.0.0.1:6379/12 .venv/bin/python bench/scripts/bench_layers.py [kaiza|pubsub ...]
"""

from __future__ import annotations

import asyncio
import os
import resource
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kaiza_site.settings")

import django

django.setup()

from channels_redis.pubsub import RedisPubSubChannelLayer  # noqa: E402

from game.realtime.channel_layer import KaizaRedisChannelLayer  # noqa: E402

MESSAGES = int(os.environ.get("K", "20000"))
GROUPS = 100
PUBLISHERS = 50
URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/12"


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def make_layer(kind: str, prefix: str) -> Any:
    if kind == "kaiza":
        return KaizaRedisChannelLayer(hosts=[URL], prefix=prefix, capacity=1500, expiry=30)
    return RedisPubSubChannelLayer(hosts=[URL], prefix=prefix)


async def trial(kind: str) -> None:
    prefix = f"kaiza-bench-{uuid.uuid4().hex[:6]}"
    publisher, subscriber = make_layer(kind, prefix), make_layer(kind, prefix)
    if kind == "kaiza":
        channel = f"kaizahub.{uuid.uuid4().hex}"
    else:
        channel = await subscriber.new_channel("kaizahub.")
    for group in range(GROUPS):
        await subscriber.group_add(f"match.g{group}", channel)
    received = 0
    done = asyncio.Event()

    async def read() -> None:
        nonlocal received
        while received < MESSAGES:
            if kind == "kaiza":
                received += len(await subscriber.receive_batch(channel))
            else:
                await subscriber.receive(channel)
                received += 1
        done.set()

    reader = asyncio.create_task(read())
    await asyncio.sleep(0.2)
    each = MESSAGES // PUBLISHERS

    async def publish(index: int) -> None:
        for i in range(each):
            group = f"match.g{(index * each + i) % GROUPS}"
            await publisher.group_send(group, {"type": "match.relay", "group": group, "text": "x" * 300})

    wall, cpu = time.perf_counter(), cpu_seconds()
    await asyncio.gather(*(publish(index) for index in range(PUBLISHERS)))
    await asyncio.wait_for(done.wait(), 300)
    wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
    await reader
    await publisher.flush()
    await subscriber.flush()
    print(
        f"{kind:7s} {MESSAGES} messages: wall {wall:.2f} s, {MESSAGES / wall:.0f} messages/s, "
        f"CPU {cpu * 1e6 / MESSAGES:.0f} us per message (publisher + receiver)",
        flush=True,
    )


async def main(kinds: list[str]) -> None:
    for kind in kinds or ["kaiza", "pubsub", "kaiza", "pubsub"]:
        await trial(kind)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
