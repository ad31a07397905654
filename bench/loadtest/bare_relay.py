"""Bare daphne: the yardstick the load benchmark measures Kaiza against.

A plain ASGI application, no Django, no channel layer, no database: websockets at the same path as
Kaiza's match sockets, grouped by match id, with the least a server must do to carry the same
traffic. A player's ``aim`` is relayed to every other socket of the match; a ``shoot`` bumps the
match's version and goes back to everyone as a ``shot`` naming the player and the ack, the turn
passing to the other seat; a ``ping`` is answered with a ``pong``. What Kaiza adds on top (rules,
physics, the database, presence, budgets, the channel layer) is what the two figures' gap costs.

Run it with daphne itself, on a port of its own::

    daphne -b 127.0.0.1 -p 8102 bench.loadtest.bare_relay:application

and point ``manage.py loadtest --bare --url http://127.0.0.1:8102`` at it (the client then skips
the HTTP seats: a socket's seat is its query string, ``?seat=0`` or ``?seat=1``, none for a spectator).
It is kept beside the load client, not in the site: nothing of Kaiza serves it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from game.common import json_text

Send = Callable[[dict[str, Any]], Awaitable[None]]
Receive = Callable[[], Awaitable[dict[str, Any]]]

#: The players' names, by seat: what the load client reads from its snapshot to know its turn.
SEATS = ("A", "B")


class Room:
    """One match: its sockets, its version and whose turn it is."""

    def __init__(self) -> None:
        self.peers: dict[int, Send] = {}
        self.version = 1
        self.turn = 0

    def state(self) -> dict[str, Any]:
        return {"pending": [[SEATS[self.turn], "shoot"]]}

    async def to_all(self, text: str, but: int | None = None) -> None:
        for key, send in list(self.peers.items()):
            if key != but:
                await send({"type": "websocket.send", "text": text})


rooms: dict[str, Room] = {}


def _seat(query: bytes) -> int | None:
    for part in query.decode("latin-1").split("&"):
        name, _, value = part.partition("=")
        if name == "seat" and value in ("0", "1"):
            return int(value)
    return None


async def _socket(scope: dict[str, Any], receive: Receive, send: Send) -> None:
    parts = [p for p in scope["path"].split("/") if p]
    if len(parts) != 3 or parts[:2] != ["ws", "match"]:
        await send({"type": "websocket.close", "code": 4404})
        return
    match_id, seat, key = parts[2], _seat(scope.get("query_string", b"")), id(scope)
    room = rooms.setdefault(match_id, Room())
    while True:
        event = await receive()
        kind = event["type"]
        if kind == "websocket.connect":
            await send({"type": "websocket.accept"})
            room.peers[key] = send
            you = {"name": SEATS[seat] if seat is not None else ""}
            snapshot = {"t": "snapshot", "v": room.version, "d": {"you": you, "state": room.state()}}
            await send({"type": "websocket.send", "text": json_text.encode(snapshot)})
        elif kind == "websocket.disconnect":
            room.peers.pop(key, None)
            if not room.peers:
                rooms.pop(match_id, None)
            return
        elif kind == "websocket.receive":
            await _message(room, key, seat, event.get("text") or "", send)


async def _message(room: Room, key: int, seat: int | None, text: str, send: Send) -> None:
    try:
        message = json_text.decode(text)
        kind = message["t"]
    except (ValueError, KeyError, TypeError):
        return
    if kind == "ping":
        await send({"type": "websocket.send", "text": '{"t":"pong"}'})
    elif kind == "aim" and seat is not None:
        await room.to_all(json_text.encode({"t": "aim", "d": message.get("d")}), but=key)
    elif kind == "shoot" and seat == room.turn:
        room.version += 1
        room.turn = 1 - room.turn
        shot = {"player": SEATS[seat], "ack": message.get("ack"), "state": room.state()}
        await room.to_all(json_text.encode({"t": "shot", "v": room.version, "d": shot}))


async def application(scope: dict[str, Any], receive: Receive, send: Send) -> None:
    """The ASGI entry point: websockets relay, HTTP answers 404, lifespan is acknowledged."""
    if scope["type"] == "websocket":
        await _socket(scope, receive, send)
    elif scope["type"] == "http":
        await send({"type": "http.response.start", "status": 404, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b"bare relay: websockets only\n"})
    elif scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
