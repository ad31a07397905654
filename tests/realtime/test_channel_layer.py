"""The Redis channel layer loses nothing when a socket closes while another one's message is in flight.

Stock channels_redis reads a whole process's sockets through one BZPOPMIN run inside the receive() of
one of them; a socket closing at the wrong moment (its receive() cancelled) dropped a message Redis had
just popped for another socket: presence and the shot clock its own disconnect handler broadcast, or a
versioned event. `game.realtime.channel_layer.KaizaRedisChannelLayer` reads in one task that no socket cancels.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
from django.conf import settings

from game.realtime.channel_layer import KaizaRedisChannelLayer

pytestmark = [pytest.mark.services, pytest.mark.redis]


async def closing_reader_trial(layer: Any, spin: int) -> bool:
    """`closing` is the process's reader when a message for `open` is sent and `closing` closes at once."""
    open_channel, closing_channel = await layer.new_channel(), await layer.new_channel()
    group = f"g{uuid.uuid4().hex[:8]}"
    await layer.group_add(group, open_channel)
    closing = asyncio.ensure_future(layer.receive(closing_channel))
    await asyncio.sleep(0.02)
    waiting = asyncio.ensure_future(layer.receive(open_channel))
    await asyncio.sleep(0.02)
    sending = asyncio.ensure_future(layer.group_send(group, {"type": "x", "n": spin}))
    for _ in range(spin % 20):
        await asyncio.sleep(0)
    if spin % 2:
        await asyncio.sleep(0.0003)
    closing.cancel()
    await sending
    try:
        message = await asyncio.wait_for(waiting, 2.0)
    except TimeoutError:
        return False
    finally:
        await asyncio.gather(closing, return_exceptions=True)
    return message["n"] == spin


async def test_a_closing_socket_never_takes_another_sockets_message_with_it(redis_url: str) -> None:
    lost = []
    for spin in range(40):
        layer = KaizaRedisChannelLayer(hosts=[redis_url], prefix=f"kaiza-test-layer-{uuid.uuid4().hex[:8]}")
        try:
            if not await closing_reader_trial(layer, spin):
                lost.append(spin)
        finally:
            await layer.flush()
            await layer.close_pools()
    assert lost == [], f"messages lost in trials {lost}"


def test_the_redis_setting_uses_the_layer_that_loses_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    import kaiza_site.settings as site_settings

    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:6379/3")
    try:
        reloaded = importlib.reload(site_settings)
        assert reloaded.CHANNEL_LAYERS["default"]["BACKEND"] == "game.realtime.channel_layer.KaizaRedisChannelLayer"
        assert reloaded.CHANNEL_LAYERS["default"]["CONFIG"]["capacity"] >= 1000
    finally:
        monkeypatch.undo()
        importlib.reload(site_settings)
    assert settings.configured


def test_the_layer_uses_only_public_names_of_channels_redis() -> None:
    """Issue 13: the layer subclasses channels_redis but reaches into none of its private parts (the
    `_`-names it uses are its own), and copies none of its scripts."""
    import ast
    import inspect

    import channels_redis.core

    from game.realtime import channel_layer

    tree = ast.parse(inspect.getsource(channel_layer))
    own = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}
    own |= {
        target.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Attribute)
    }
    used = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    private = sorted(name for name in used if name.startswith("_") and not name.startswith("__") and name not in own)
    assert private == []
    stock_source = inspect.getsource(channels_redis.core)
    for script in (channel_layer.PUSH_LUA, channel_layer.GROUP_SEND_BATCH_LUA):
        assert not any(
            line.strip() and line.strip() in stock_source for line in script.splitlines() if len(line.strip()) > 40
        )
