"""What reading one client frame costs a consumer's loop: Channels' own loop (`await_many_dispatch`
over the client and the socket's channel on the layer) against a plain loop, which the match socket used
until its gain proved within the load benchmark's noise (docs/decisions/channels-dispatch.md).

A benchmark, not a test: it prints microseconds a frame for each, with the host's speed. Each loop
reads `--frames` frames from an ASGI-like receive (an asyncio queue fed by another task one frame a
turn of the event loop, as daphne feeds a consumer; the feeder's own cost is in both figures) and
hands each to a handler that does nothing; Channels' loop also has the socket's channel waiting on
the in-memory layer, as every consumer with a layer has.

    .venv/bin/python bench/scripts/bench_dispatch.py [--frames 200000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

from channels.layers import InMemoryChannelLayer
from channels.utils import await_many_dispatch


async def feed(queue: asyncio.Queue[dict[str, Any]], frames: int) -> None:
    for number in range(frames):
        await queue.put({"type": "websocket.receive", "text": str(number)})
        await asyncio.sleep(0)  # one frame a turn of the loop, as frames arrive over time
    await queue.put({"type": "stop"})


class Stop(Exception):
    pass


async def timed(frames: int, loop_of: Callable[[Callable[[], Awaitable[Any]], Any], Awaitable[None]]) -> float:
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    seen = 0

    async def dispatch(message: dict[str, Any]) -> None:
        nonlocal seen
        if message["type"] == "stop":
            raise Stop
        seen += 1

    feeder = asyncio.create_task(feed(queue, frames))
    started = time.process_time()
    try:
        await loop_of(queue.get, dispatch)
    except Stop:
        pass
    spent = time.process_time() - started
    await feeder
    assert seen == frames
    return spent / frames * 1e6


async def channels_loop(receive: Callable[[], Awaitable[Any]], dispatch: Any) -> None:
    layer = InMemoryChannelLayer()
    channel = await layer.new_channel()
    await await_many_dispatch([receive, lambda: layer.receive(channel)], dispatch)


async def plain_loop(receive: Callable[[], Awaitable[Any]], dispatch: Any) -> None:
    while True:
        await dispatch(await receive())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    speed = subprocess.run(
        [sys.executable, "-m", "timeit", "sum(i*i for i in range(10**6))"], capture_output=True, text=True, check=True
    ).stdout.strip()
    print(f"host: {speed}")
    results: dict[str, list[float]] = {"channels": [], "plain": []}
    for _ in range(args.repeat):  # interleaved, so a noisy second costs both alike
        results["channels"].append(asyncio.run(timed(args.frames, channels_loop)))
        results["plain"].append(asyncio.run(timed(args.frames, plain_loop)))
    for name, values in results.items():
        print(f"{name:<9} best {min(values):6.2f} us a frame, median {sorted(values)[len(values) // 2]:6.2f}")
    print(f"plain / channels: {min(results['plain']) / min(results['channels']):.2f} (best against best)")


if __name__ == "__main__":
    main()
