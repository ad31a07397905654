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
    """The layer subclasses channels_redis but reaches into none of its private parts (the
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


class Member:
    """A hub member that keeps what reaches it (the hub's side of a socket)."""

    def __init__(self, name: str) -> None:
        self.channel_name = f"test.{name}"
        self.texts: list[str] = []

    async def hub_event(self, message: dict[str, Any]) -> None:
        self.texts.append(message["text"])

    async def hub_relay(self, text: str) -> None:
        self.texts.append(text)

    def relay_now(self, text: str) -> bool:
        self.texts.append(text)
        return True

    async def hub_beat(self, version: int, text: str) -> None:
        pass


async def test_a_hub_resubscribes_every_group_it_serves_in_one_pipeline(redis_url: str) -> None:
    """A restarted Redis has forgotten the groups: the hub's beat adds itself to every group that still
    has a member again, in one pipeline (`group_add_many`: a round trip per group was 200 a beat at 200
    matches), and then another process's publish reaches it; a group it left stays left."""
    from game.realtime import hub

    prefix = f"kaiza-test-layer-{uuid.uuid4().hex[:8]}"
    here = KaizaRedisChannelLayer(hosts=[redis_url], prefix=prefix)
    there = KaizaRedisChannelLayer(hosts=[redis_url], prefix=prefix)  # another process's layer
    members = {group: Member(group) for group in ("m-a", "m-b", "m-c")}
    try:
        process_hub = None
        for group, member in members.items():
            process_hub = await hub.join(here, group, member)
        assert process_hub is not None
        await process_hub.leave("m-c", members["m-c"])
        connection = here.connection(0)
        keys = [key async for key in connection.scan_iter(match=f"{prefix}:kg:*")]
        assert len(keys) == 2
        await connection.delete(*keys)  # what a Redis restart leaves: no group knows the hub

        added: list[list[str]] = []
        add_many = here.group_add_many

        async def counted(groups: list[str], channel: str) -> None:
            added.append(list(groups))
            await add_many(groups, channel)

        here.group_add_many = counted  # type: ignore[method-assign]
        await process_hub.resubscribe()
        assert added == [["m-a", "m-b"]], added  # one call for every group still served, m-c not again
        assert not process_hub.layer_failed
        for group in ("m-a", "m-b", "m-c"):
            await there.group_send(group, {"type": "match.relay", "group": group, "text": f"to {group}"})
        for group in ("m-a", "m-b"):
            for _ in range(100):
                if members[group].texts:
                    break
                await asyncio.sleep(0.02)
            assert members[group].texts == [f"to {group}"], group
        assert members["m-c"].texts == []
    finally:
        for group in ("m-a", "m-b"):
            if process_hub is not None:
                await process_hub.leave(group, members[group])
        for layer in (here, there):
            await layer.flush()
            await layer.close_pools()
