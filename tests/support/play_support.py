"""Helpers for the online-play tests: socket clients that check version order, and real positions.

`Player` wraps any socket (a Channels WebsocketCommunicator or a `websockets` connection to a real
daphne) and asserts what every client relies on: after a snapshot, versioned events arrive with `v`
rising by exactly one. The shots are real: the lag strikes are chosen so seat 0 wins, and scoring
shots are aimed with ghost-ball geometry at a pocket's mouth centre.
"""

from __future__ import annotations

import asyncio
import copy
import itertools
import json
import math
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from game.engine.table import kaisa_table

TABLE = kaisa_table()
R = TABLE.ball_radius
#: Lag strikes (speed) that leave seat 0's ball 92 mm from the home cushion and seat 1's 579 mm away.
LAG_WINNING = {"angle": 0.0, "speed": 1.7, "side": 0.0, "height": 0.0}
LAG_LOSING = {"angle": 0.0, "speed": 1.5, "side": 0.0, "height": 0.0}
#: Opening placement of white2 beyond the centre line, clear of both corridors (K-3.3).
WHITE2_OPENING = (1.6, 1.25)
_acks = itertools.count(int(time.time() * 1000) % 10**9)


def next_ack() -> int:
    return next(_acks)


def mouth_centre(pocket: str) -> tuple[float, float]:
    (ax, ay), (bx, by) = TABLE.pockets[pocket].mouth
    return ((ax + bx) / 2, (ay + by) / 2)


def straight_line_setup(
    ball_at: tuple[float, float], pocket: str, distance: float
) -> tuple[tuple[float, float], float]:
    """A cue ball position `distance` behind `ball_at` on the line to the pocket, and the angle to
    shoot along (no cut: the straightest pot there is)."""
    mx, my = mouth_centre(pocket)
    ux, uy = mx - ball_at[0], my - ball_at[1]
    n = math.hypot(ux, uy)
    ux, uy = ux / n, uy / n
    return (ball_at[0] - distance * ux, ball_at[1] - distance * uy), math.atan2(uy, ux)


def ghost_ball_angle(cue: tuple[float, float], ball: tuple[float, float], pocket: str) -> float:
    mx, my = mouth_centre(pocket)
    ux, uy = mx - ball[0], my - ball[1]
    n = math.hypot(ux, uy)
    gx, gy = ball[0] - 2 * R * ux / n, ball[1] - 2 * R * uy / n
    return math.atan2(gy - cue[1], gx - cue[0])


KAISA_CENTRE = (TABLE.spots["center"][0], TABLE.spots["center"][1])
#: The opening break: white1 in the home, straight behind the kaisa toward the foot-left pocket.
BREAK_CUE, BREAK_ANGLE = straight_line_setup(KAISA_CENTRE, "foot_left", 0.9)
BREAK_CALL = {"ball": "kaisa", "pocket": "foot_left", "object_cushions": 0, "cue_cushions": 0, "via": None}


def near_end_snapshot(names: list[str], *, shooter_score: int = 57, other_score: int = 40) -> dict[str, Any]:
    """A hand-written position (ARCHITECTURE section 3): seat 0 (white1) at 57 to shoot, the kaisa on
    the centre spot with white1 straight behind it toward foot_left; potting it wins (K-9.1)."""
    cue, _ = straight_line_setup(KAISA_CENTRE, "foot_left", 0.5)
    return {
        "phase": "play",
        "players": [
            {"name": names[0], "cue_ball": "white1", "score": shooter_score},
            {"name": names[1], "cue_ball": "white2", "score": other_score},
        ],
        "turn": 0,
        "balls": {
            "white1": [round(cue[0], 6), round(cue[1], 6)],
            "white2": [2.5, 0.2],
            "red1": [0.4, 1.2],
            "red2": [2.13, 0.3],
            "kaisa": [KAISA_CENTRE[0], KAISA_CENTRE[1]],
        },
    }


def near_end_strike() -> dict[str, float]:
    _cue, angle = straight_line_setup(KAISA_CENTRE, "foot_left", 0.5)
    return {"angle": angle, "speed": 2.2, "side": 0.0, "height": 0.0}


class Player:
    """One socket of a test: sends protocol messages, receives with version-order checks."""

    def __init__(
        self,
        name: str,
        send_text: Callable[[str], Awaitable[None]],
        recv_text: Callable[[float], Awaitable[str]],
        close: Callable[[], Awaitable[None]],
        nothing: Callable[[float], Awaitable[bool]] | None = None,
    ) -> None:
        self.name = name
        self._nothing = nothing
        self._send_text = send_text
        self._recv_text = recv_text
        self._close = close
        self.v: int | None = None
        self.versioned: list[dict[str, Any]] = []
        self.inbox: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None

    async def send(
        self, t: str, d: dict[str, Any] | None = None, *, ack: int | None = None, v: int | None = None
    ) -> None:
        message: dict[str, Any] = {"t": t}
        if ack is not None:
            message["ack"] = ack
        if v is not None:
            message["v"] = v
        if d is not None:
            message["d"] = d
        await self._send_text(json.dumps(message))

    async def hello(self, version: int) -> None:
        """Ask for catch-up from `version` (what a reconnecting client has); order checks restart there."""
        self.v = version
        await self.send("hello", {"v": version})

    async def send_raw(self, text: str) -> None:
        await self._send_text(text)

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        message = json.loads(await self._recv_text(timeout))
        if message.get("repeat"):
            assert self.v is not None and message["v"] <= self.v, f"{self.name}: a repeat of an unseen event"
        elif "v" in message:
            if message["t"] == "snapshot":
                self.v = message["v"]
            else:
                assert self.v is not None, f"{self.name}: versioned event before a snapshot: {message}"
                assert message["v"] == self.v + 1, f"{self.name}: got v{message['v']} after v{self.v}"
                self.v = message["v"]
            self.versioned.append(message)
            state = message["d"].get("state")
            if state is not None:
                self.state = state
        return message

    async def until(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 15.0) -> dict[str, Any]:
        """Receive until a message matches; everything received is kept in `inbox`."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.name}: timed out; last messages {self.inbox[-5:]}")
            try:
                message = await self.recv(left)
            except TimeoutError:
                raise AssertionError(f"{self.name}: timed out at v{self.v}; last messages {self.inbox[-4:]}") from None
            self.inbox.append(message)
            if predicate(message):
                return message

    async def until_version(self, version: int, timeout: float = 15.0) -> dict[str, Any]:
        if self.v is not None and self.v >= version:
            return next(m for m in self.versioned if m["v"] == version)
        return await self.until(lambda m: m.get("v") == version, timeout)

    async def drain(self, quiet: float = 0.3) -> list[dict[str, Any]]:
        """Everything that arrives until the socket stays quiet for `quiet` seconds."""
        received = []
        while True:
            if self._nothing is not None:
                if await self._nothing(quiet):
                    return received
                received.append(await self.recv(5.0))
            else:
                try:
                    received.append(await self.recv(quiet))
                except TimeoutError:
                    return received

    async def error(self, timeout: float = 10.0) -> dict[str, Any]:
        return await self.until(lambda m: m["t"] == "error", timeout)

    def pending(self) -> list[list[str]]:
        return (self.state or {}).get("pending", [])

    async def close(self) -> None:
        await self._close()


def communicator_player(name: str, match_id: str, user: Any) -> tuple[Any, Player]:
    """A Channels test communicator on the match route with `user` in its scope, wrapped."""
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator
    from django.contrib.auth.models import AnonymousUser

    from game.routing import websocket_urlpatterns

    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/match/{match_id}/")
    communicator.scope["user"] = user if user is not None else AnonymousUser()

    async def recv(timeout: float) -> str:
        return await communicator.receive_from(timeout=timeout)

    async def close() -> None:
        await communicator.disconnect(timeout=10)  # the handler writes presence: give it time

    async def nothing(timeout: float) -> bool:
        # receive_nothing, unlike a timed-out receive, leaves the application running.
        return await communicator.receive_nothing(timeout=timeout, interval=0.01)

    return communicator, Player(name, communicator.send_to, recv, close, nothing)


async def connect_communicator(name: str, match_id: str, user: Any) -> Player:
    communicator, player = communicator_player(name, match_id, user)
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    await player.until(lambda m: m["t"] == "snapshot")
    return player


async def connect_websocket(name: str, url: str, cookie: str | None, origin: str) -> Player:
    """A `websockets` client on a real daphne, logged in through the session cookie."""
    import websockets

    headers = {"Cookie": cookie} if cookie else {}
    connection = await websockets.connect(
        url, additional_headers=headers, origin=origin, max_size=2**24, open_timeout=10
    )

    async def recv(timeout: float) -> str:
        data = await asyncio.wait_for(connection.recv(), timeout)
        return data if isinstance(data, str) else data.decode()

    async def close() -> None:
        await connection.close()

    player = Player(name, connection.send, recv, close)
    await player.until(lambda m: m["t"] == "snapshot")
    return player


async def play_opening(first: Player, second: Player, spectators: tuple[Player, ...] = ()) -> int:
    """Lag (seat 0 wins), break choice, opening placement, the break placement and the opening shot
    (a real straight pot of the kaisa). Returns the version after the opening shot."""
    everyone = (first, second, *spectators)
    v = first.v
    assert v is not None
    await first.send("lag", {"strike": LAG_WINNING}, ack=next_ack(), v=v)
    v += 1
    await second.until_version(v)  # a client answers the version it has seen, not one it guesses
    await second.send("lag", {"strike": LAG_LOSING}, ack=next_ack(), v=v)
    v += 1
    for p in everyone:
        lag = await p.until_version(v)
    assert lag["d"]["verdict"]["lag_winner"] == first.state["players"][0]["name"]
    await first.send("choose_break", {"take": True}, ack=next_ack(), v=v)
    v += 1
    await second.until_version(v)
    await second.send("place", {"ball": "white2", "x": WHITE2_OPENING[0], "y": WHITE2_OPENING[1]}, ack=next_ack(), v=v)
    v += 1
    await first.until_version(v)
    await first.send("place", {"ball": "white1", "x": BREAK_CUE[0], "y": BREAK_CUE[1]}, ack=next_ack(), v=v)
    v += 1
    await first.until_version(v)
    strike = {"angle": BREAK_ANGLE, "speed": 2.5, "side": 0.0, "height": 0.0}
    await first.send("shoot", {"call": BREAK_CALL, "strike": strike}, ack=next_ack(), v=v)
    v += 1
    for p in everyone:
        shot = await p.until_version(v)
    assert shot["t"] == "shot" and shot["d"]["verdict"]["scored"], shot["d"]["verdict"]
    assert shot["d"]["verdict"]["scores"][0] == 6
    return v


@pytest.fixture(autouse=True)
def fast_password_hasher(settings: Any) -> None:
    """Tests create many accounts; the production hasher's deliberate slowness is not under test."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
async def fresh_channel_layer_and_connections(settings: Any) -> AsyncIterator[None]:
    """Each test has its own event loop: a Redis layer made in an earlier test's loop cannot be used,
    so the layer is rebuilt (channels resets layers when the setting changes). Afterwards the
    database connections of the thread that served `database_sync_to_async` and of the consumers'
    pool threads are closed, so PostgreSQL can drop the test database."""
    settings.CHANNEL_LAYERS = copy.deepcopy(settings.CHANNEL_LAYERS)
    yield
    from channels.db import database_sync_to_async
    from django.db import connections

    def forget_connections() -> None:
        # close() keeps an in-memory SQLite connection open, and Channels' close_old_connections
        # would later touch it from a test without database access: drop the objects too.
        for alias in list(connections):
            connections[alias].close()
            del connections[alias]

    await database_sync_to_async(forget_connections)()
    # The websocket consumers' pool threads (game.common.db) have connections of their own.
    from asgiref.sync import sync_to_async

    from game.common.db import close_connections

    await sync_to_async(close_connections, thread_sensitive=False)()
