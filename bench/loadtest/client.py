"""Load clients: M matches of two bot-driven players and S spectators, on real websockets.

How a client gets a seat is how a browser does: a guest session over HTTP (the lobby's create form,
then the match's join form, each with its CSRF cookie), then the websocket with the session cookie.
Spectators connect without a session. With several server URLs, the players and spectators of one
match are spread round-robin over them (`spread="socket"`, as a front balancing each connection), so
the fan-out crosses processes through the channel layer; `spread="match"` puts every socket of a match
on one of them, as a front that routes `/ws/match/<id>/` by the match id does (docs/deployment.md).

What is measured (the players and spectators of a match live in one process, each latency is the
difference of two `time.perf_counter()` readings of that process):

- shot round trip: ``shoot`` (or ``lag``) sent -> the ``shot`` event with that player and ack received,
  by the shooter, by the opponent and by each spectator;
- aim relay: an ``aim`` sent by the player -> the relayed ``aim`` received by the others (each aim
  carries a unique angle, which identifies it);
- ping round trip on a few probe sockets (answered by the consumer itself: the server's loop stall),
  and this client's own loop lag (if it is high, the client, not the server, is the limit);
- messages per second in and out, errors (every ``error`` frame, unexpected close, shot without an
  answer, failed setup), versions missed (a gap in a socket's versions, or a socket that did not reach
  its match's last version after the drain).

The featured crowd of match 0 (``LoadConfig.featured``) may live in processes of its own
(``LoadConfig.crowd_procs``: a crowd of 2,000 sockets is more than one client loop reads in time). Its
send and receipt times are then taken in different processes: the process of match 0 keeps its send
times, each crowd process the time each of its sockets received each shot and aim, by the same keys,
and the merge subtracts one from the other (`LoadStats.join_crowd`). That needs one clock for every
process: `perf_counter` is Linux's CLOCK_MONOTONIC, the machine's (the command refuses elsewhere:
`config.shared_clock_problem`). All processes wait at one barrier after their set-up, so their windows
are the same seconds and the players start only once the crowd is connected.

The players' moves come from :func:`game.engine.bot.quick_move`: legal, about a millisecond each.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any, Protocol

import websockets
from websockets.typing import Origin

from bench.loadtest.config import LoadConfig, stable_seed
from bench.loadtest.stats import LoadStats
from bench.loadtest.storm import backoff_delay, retry_reason
from game.common import json_text
from game.engine.bot import quick_move
from game.engine.bot.levels import NoMoveError

#: A shot whose event has not come back after this long counts as an error (s).
SHOT_TIMEOUT = 10.0
PING_INTERVAL = 1.0
#: How long the storm's sockets get to come back before each one missing counts as an error (s).
STORM_TIMEOUT = 60.0
LOOP_TICK = 0.05


# --- websockets -----------------------------------------------------------------------------------


def ws_base(url: str) -> str:
    return "ws" + url[len("http") :] if url.startswith("http") else url


class Runner(Protocol):
    """What a socket reads of the client process it belongs to (bench.loadtest.runner.LoadRunner)."""

    config: LoadConfig
    stats: LoadStats
    measuring: bool
    playing: bool
    storming: bool
    crowd_only: bool
    window_start: float
    listeners: list[asyncio.Task[None]]


class MatchRun:
    """What the clients of one match share: the send times of shots and aims, the newest version."""

    def __init__(self, match_id: str) -> None:
        self.match_id = match_id
        # Keyed by (player, ack) as the server echoes them in `shot` messages.
        self.shots: dict[tuple[str | None, int | None], float] = {}
        self.answered: set[tuple[str | None, int | None]] = set()
        self.aims: dict[tuple[float, float], float] = {}
        self.max_v = 0
        self.finished = False
        self.sockets: list[Socket] = []
        #: Whether its players play yet (`LoadConfig.stagger_step` holds a match back from the window's start).
        self.started = False
        #: The match's index over the whole run (its place in the stagger, match 0 the featured one).
        self.index = 0


class Socket:
    """One websocket of the run: a player (plays with quick_move) or a spectator (watches)."""

    def __init__(
        self,
        runner: Runner,
        run: MatchRun,
        url: str,
        cookie: str | None,
        role: str,
        probe: bool,
        query: str = "",
        featured: bool = False,
    ) -> None:
        self.runner = runner
        #: One of `LoadConfig.featured`'s crowd: its figures are kept apart from the other spectators'.
        self.featured = featured
        self.query = query
        self.run = run
        self.url = url
        self.cookie = cookie
        self.role = role
        self.probe = probe
        self.name = ""
        self.last_v = 0
        self.state: dict[str, Any] | None = None
        self.connection: Any = None
        self.acted_at_version = -1
        self.acting = False
        self.ack = 0
        self.ping_sent: float | None = None
        self.closing = False
        self.tasks: set[asyncio.Task[Any]] = set()
        #: When this socket had its snapshot again after the storm's kill (perf_counter), or None.
        self.back_at: float | None = None

    async def connect(self) -> int:
        """Open the socket and wait for its snapshot; returns the snapshot's version."""
        base = ws_base(self.url)
        headers = {"Cookie": self.cookie} if self.cookie else {}
        self.connection = await websockets.connect(
            f"{base}/ws/match/{self.run.match_id}/{self.query}",
            additional_headers=headers,
            origin=Origin(self.url),
            max_size=2**24,
            open_timeout=30,
            ping_interval=None,
        )
        while True:
            message = json_text.decode(await asyncio.wait_for(self.connection.recv(), 30))
            if message["t"] == "snapshot":
                self.name = message["d"]["you"]["name"]
                self.take_version(message, snapshot=True)
                return int(message["v"])

    def spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def send(self, message: dict[str, Any]) -> None:
        await self.connection.send(json_text.encode(message))
        if self.runner.measuring:
            self.runner.stats.messages_out += 1

    def take_version(self, message: dict[str, Any], snapshot: bool = False) -> None:
        v = int(message["v"])
        if not snapshot and v > self.last_v + 1 and self.last_v:
            self.runner.stats.missed += v - self.last_v - 1
        self.last_v = max(self.last_v, v)
        self.run.max_v = max(self.run.max_v, v)
        state = (message.get("d") or {}).get("state")
        if isinstance(state, dict):
            self.state = state
        if message["t"] == "finished":
            if not self.run.finished and not self.runner.crowd_only:  # match 0's process counts it
                self.runner.stats.finished += 1
                result = (message.get("d") or {}).get("result") or {}
                self.runner.stats.finishes[str(result.get("how") or "unknown")] += 1
            self.run.finished = True

    async def listen(self) -> None:
        stats = self.runner.stats
        try:
            async for raw in self.connection:
                now = time.perf_counter()
                message = json_text.decode(raw)
                if self.runner.measuring:
                    stats.messages_in += 1
                t = message.get("t")
                if "v" in message:
                    self.take_version(message, snapshot=t == "snapshot")
                    if t == "shot":
                        self.record_shot(message["d"], now)
                    self.maybe_act()
                elif t == "aim":
                    self.record_aim(message["d"], now)
                elif t == "pong" and self.ping_sent is not None:
                    if self.runner.measuring:
                        stats.ping.append(now - self.ping_sent)
                    self.ping_sent = None
                elif t == "error":
                    stats.errors[str(message["d"].get("code"))] += 1
        except websockets.ConnectionClosed:
            pass
        if self.closing:
            return
        if self.runner.storming:
            self.runner.listeners.append(asyncio.create_task(self.reconnect()))
        else:
            stats.errors["closed"] += 1

    async def reconnect(self) -> None:
        """Back after the storm's kill, as a browser comes back: the client's backoff, then the snapshot.
        A snapshot older than a version this socket had seen is a version the restart lost."""
        rng = random.Random(stable_seed(self.runner.config.seed, self.run.match_id, id(self)))
        seen, deadline = self.last_v, time.perf_counter() + STORM_TIMEOUT
        for attempt in range(100):
            await asyncio.sleep(backoff_delay(attempt, rng))
            if self.closing or time.perf_counter() > deadline:
                break
            try:
                version = await self.connect()
            except (OSError, TimeoutError, websockets.InvalidHandshake, websockets.ConnectionClosed) as exc:
                self.runner.stats.retries[retry_reason(exc)] += 1
                continue
            self.back_at = time.perf_counter()
            if version < seen:
                self.runner.stats.missed += seen - version
            await self.listen()
            return
        self.runner.stats.errors["storm:not_back"] += 1

    def record_aim(self, data: dict[str, Any], now: float) -> None:
        key = (data["angle"], data["speed"])
        if not self.runner.measuring:
            return
        stats = self.runner.stats
        if self.runner.crowd_only:  # its send time is in match 0's process: joined after the run
            stats.crowd_aim_receipts.setdefault(key, []).append(now)
            return
        sent = self.run.aims.get(key)
        if sent is None:
            return
        if self.featured:
            stats.aim_featured.append(now - sent)
        else:
            (stats.aim_opponent if self.role == "player" else stats.aim_spectator).append(now - sent)
        if self.role == "player" and self.in_featured_match():
            stats.aim_featured_players.append(now - sent)
        stats.aim_timeline.append((now - self.runner.window_start, now - sent))

    def record_shot(self, data: dict[str, Any], now: float) -> None:
        key = (data.get("player"), data.get("ack"))
        if self.runner.crowd_only:  # its send time is in match 0's process: joined after the run
            if self.runner.measuring:
                self.runner.stats.crowd_shot_receipts.setdefault(key, []).append(now)
            return
        sent = self.run.shots.get(key)
        if self.role == "player" and data.get("player") == self.name:
            self.run.answered.add(key)
        if sent is None or not self.runner.measuring:
            return
        stats = self.runner.stats
        stats.shot_timeline.append((now - self.runner.window_start, now - sent))
        if self.role == "player" and self.in_featured_match():
            stats.shot_featured_players.append(now - sent)
        if self.featured:
            stats.shot_featured.append(now - sent)
        elif self.role == "spectator":
            stats.shot_spectator.append(now - sent)
        elif data.get("player") == self.name:
            stats.shot_shooter.append(now - sent)
        else:
            stats.shot_opponent.append(now - sent)

    def in_featured_match(self) -> bool:
        return self.runner.config.featured > 0 and self.run.index == 0

    def maybe_act(self) -> None:
        if self.role != "player" or not self.runner.playing or self.acting or self.run.finished or not self.run.started:
            return
        state = self.state or {}
        pending = state.get("pending", [])
        mine = [action for name, action in pending if name == self.name]
        if not mine or self.acted_at_version >= self.last_v:
            return
        if mine[0] == "lag" and pending[0][0] != self.name:
            return  # both may lag: one at a time, seat order, so neither is refused as stale
        self.acting = True
        self.acted_at_version = self.last_v
        self.spawn(self.act(dict(state), mine[0], self.last_v))

    async def act(self, state: dict[str, Any], action: str, version: int) -> None:
        try:
            seed = stable_seed(self.runner.config.seed, self.run.match_id, version, self.name)
            rng = random.Random(seed)
            move: dict[str, Any]
            if self.runner.config.bare:  # the bare relay plays no rules: any strike, the same messages
                strike = {"angle": rng.uniform(0.0, 6.28), "speed": 2.0, "side": 0.0, "height": 0.0}
                move = {"call": None, "strike": strike}
            else:
                try:
                    move = quick_move(state, player=self.name, seed=seed)
                except NoMoveError:
                    return
            if action in ("shoot", "lag"):
                await self.aim(move["strike"], rng)
            else:
                await asyncio.sleep(0.2)
            if not self.runner.playing or self.last_v != version:
                return
            self.ack += 1
            message: dict[str, Any] = {"t": action, "ack": self.ack}
            if action == "shoot":
                message["d"] = {"call": move["call"], "strike": move["strike"]}
            elif action == "lag":
                message["d"] = {"strike": move["strike"]}
            elif action == "place":
                message["d"] = {"ball": move["ball"], "x": move["x"], "y": move["y"]}
            else:
                message["d"] = {"take": move["take"]}
            message["v"] = version
            if action in ("shoot", "lag"):
                self.run.shots[(self.name, self.ack)] = time.perf_counter()
                if self.runner.measuring:
                    self.runner.stats.shots += 1
                self.spawn(self.watch_shot(self.ack))
            await self.send(message)
        except websockets.ConnectionClosed:
            return
        finally:
            self.acting = False

    async def aim(self, strike: dict[str, float], rng: random.Random) -> None:
        """A drag of `think` seconds at `aim_rate`: every aim has its own angle, to be recognised."""
        config = self.runner.config
        think = rng.uniform(config.think, config.think_max) if config.think_max > config.think else config.think
        steps = max(1, int(think * config.aim_rate))
        for i in range(steps):
            left = 1.0 - (i + 1) / steps
            angle = strike["angle"] + 0.1 * left + rng.uniform(-1e-6, 1e-6)
            aim = {"angle": angle, "speed": strike["speed"], "side": strike["side"], "height": strike["height"]}
            self.run.aims[(angle, strike["speed"])] = time.perf_counter()
            await self.send({"t": "aim", "d": aim})
            if self.runner.measuring:
                self.runner.stats.aims += 1
            await asyncio.sleep(1.0 / config.aim_rate)

    async def watch_shot(self, ack: int) -> None:
        await asyncio.sleep(SHOT_TIMEOUT)
        if (self.name, ack) not in self.run.answered and self.runner.measuring:
            self.runner.stats.errors["shot_timeout"] += 1

    async def pinger(self) -> None:
        while self.runner.playing:
            self.ping_sent = time.perf_counter()
            await self.send({"t": "ping"})
            await asyncio.sleep(PING_INTERVAL)

    async def close(self) -> None:
        self.closing = True
        for task in list(self.tasks):
            task.cancel()
        if self.connection is not None:
            await self.connection.close()
