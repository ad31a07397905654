"""Websocket consumers: thin, they parse with `protocol` and call `services`."""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer


class PingConsumer(AsyncJsonWebsocketConsumer):
    """Answers `ping` with `pong` through the channel layer, so a health probe exercises the layer
    (Redis at scale), not only the socket."""

    async def connect(self) -> None:
        await self.accept()
        self.group = f"ping.{self.channel_name.replace('!', '_')}"[:90]
        await self.channel_layer.group_add(self.group, self.channel_name)

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if isinstance(content, dict) and content.get("t") == "ping":
            await self.channel_layer.group_send(self.group, {"type": "pong.relay", "d": content.get("d")})
        else:
            await self.send_json({"t": "error", "d": {"code": "unknown_type", "message": "send {t: ping}"}})

    async def pong_relay(self, event: dict[str, Any]) -> None:
        await self.send_json({"t": "pong", "d": event.get("d")})
