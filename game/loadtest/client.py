"""Load clients: M matches of two bot-driven players and S spectators, on real websockets.

How a client gets a seat is how a browser does: a guest session over HTTP (the lobby's create form,
then the match's join form, each with its CSRF cookie), then the websocket with the session cookie.
Spectators connect without a session. With several server URLs, the players and spectators of one
match are spread round-robin over them (`spread="socket"`, as a front balancing each connection), so
the fan-out crosses processes through the channel layer; `spread="match"` puts every socket of a match
on one of them, as a front that routes `/ws/match/<id>/` by the match id does (docs/deploy.md).

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
import json
import random
import threading
import time
import urllib.parse
import urllib.request
from typing import Any

import websockets
from websockets.typing import Origin

from game.common.gctune import tune_garbage_collector
from game.engine.bot import quick_move
from game.engine.bot.levels import NoMoveError
from game.loadtest.config import START_TIMEOUT, LoadConfig, crowd_share, socket_urls, stable_seed
from game.loadtest.procstat import cpu_seconds, rss_of
from game.loadtest.seats import SeatedMatch, seat_match
from game.loadtest.stats import LoadStats
from game.loadtest.storm import ServerProcess, backoff_delay, retry_reason, wait_healthy

#: A shot whose event has not come back after this long counts as an error (s).
SHOT_TIMEOUT = 10.0
PING_INTERVAL = 1.0
#: How long the storm's sockets get to come back before each one missing counts as an error (s).
STORM_TIMEOUT = 60.0
LOOP_TICK = 0.05


# --- websockets -----------------------------------------------------------------------------------


def ws_base(url: str) -> str:
    return "ws" + url[len("http") :] if url.startswith("http") else url


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
        runner: LoadRunner,
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
            message = json.loads(await asyncio.wait_for(self.connection.recv(), 30))
            if message["t"] == "snapshot":
                self.name = message["d"]["you"]["name"]
                self.take_version(message, snapshot=True)
                return int(message["v"])

    def spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def send(self, message: dict[str, Any]) -> None:
        await self.connection.send(json.dumps(message))
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
                message = json.loads(raw)
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


class LoadRunner:
    """One client process's share of the run: set up, play for the duration, drain, count."""

    def __init__(self, config: LoadConfig) -> None:
        self.config = config
        self.stats = LoadStats()
        self.measuring = False
        self.playing = False
        self.runs: list[MatchRun] = []
        self.window_start = 0.0
        self.listeners: list[asyncio.Task[None]] = []
        #: The storm's kill is under way: a socket closed by it reconnects instead of counting an error.
        self.storming = False
        #: A crowd process (`LoadConfig.crowd_index`): match 0's crowd only, its receipts kept for the merge.
        self.crowd_only = config.crowd_index is not None

    async def setup_match(self, index: int, gate: asyncio.Semaphore) -> MatchRun | None:
        urls = self.config.urls
        at = socket_urls(urls, index, self.config.spectators, self.config.spread)
        async with gate:
            try:
                seated = self.config.seated if index == 0 else None
                if seated is None:
                    # The HTTP steps go round-robin either way (a front balances pages); only the
                    # sockets follow `spread`.
                    seated = await asyncio.to_thread(seat_match, urls, index, self.config.bare)
                run = MatchRun(seated.match_id)
                sockets = [
                    Socket(self, run, at[i], seated.cookies[i], "player", False, seated.queries[i]) for i in (0, 1)
                ]
                run.index = index
                for j in range(self.config.spectators):
                    probe = j == 0 and index - self.config.first_match < self.config.ping_probes
                    sockets.append(Socket(self, run, at[2 + j], None, "spectator", probe))
                crowd = self.config.featured if index == 0 and not self.config.crowd_procs else 0
                for j in range(crowd):
                    # Round-robin over the servers whatever `spread` says: a crowd is more than one
                    # process should fan out to (docs/deploy.md's hash of the path would put it on one;
                    # a front that balances a featured match's watchers is not written there yet).
                    sockets.append(Socket(self, run, urls[j % len(urls)], None, "spectator", False, featured=True))
                for socket in sockets:
                    await socket.connect()
                    # Read from the start: a socket left unread during the set-up (beats, presence)
                    # made the server queue its frames and the client read them all at the window's
                    # start, a burst of its own making in the first seconds measured.
                    self.listeners.append(asyncio.create_task(socket.listen()))
                run.sockets = sockets
                return run
            except Exception as exc:
                self.stats.errors[f"setup:{type(exc).__name__}"] += 1
                return None

    async def setup_crowd(self, seated: SeatedMatch, gate: asyncio.Semaphore) -> MatchRun:
        """A crowd process's share of match 0's crowd, connected `setup_concurrency` at a time; a socket
        that fails to connect is a set-up error, the others watch on."""
        config, run = self.config, MatchRun(seated.match_id)
        assert config.crowd_index is not None
        urls = config.urls
        share = crowd_share(config.featured, config.crowd_procs, config.crowd_index)
        # Round-robin over the servers by the socket's number in the whole crowd, as in one process.
        crowd = [Socket(self, run, urls[j % len(urls)], None, "spectator", False, featured=True) for j in share]

        async def connect(socket: Socket) -> Socket | None:
            async with gate:
                try:
                    await socket.connect()
                except Exception as exc:
                    self.stats.errors[f"setup:{type(exc).__name__}"] += 1
                    return None
            self.listeners.append(asyncio.create_task(socket.listen()))
            return socket

        run.sockets = [s for s in await asyncio.gather(*(connect(s) for s in crowd)) if s is not None]
        return run

    async def wait_for_the_others(self) -> None:
        """Wait at the run's barrier until every process is set up (`LoadConfig.start_barrier`), in a
        thread: the sockets are read meanwhile. A process that never came fails the set-up."""
        barrier = self.config.start_barrier
        if barrier is None:
            return
        try:
            await asyncio.to_thread(barrier.wait, START_TIMEOUT)
        except threading.BrokenBarrierError:
            self.stats.errors["setup:start_barrier"] += 1

    def start_match(self, run: MatchRun) -> None:
        """Let the match's players play (at once, or at its place in the stagger)."""
        if not self.playing:
            return
        run.started = True
        for s in run.sockets:
            s.maybe_act()

    async def loop_lag(self) -> None:
        lags = self.stats.crowd_loop_lag if self.crowd_only else self.stats.loop_lag
        while self.playing:
            start = time.perf_counter()
            await asyncio.sleep(LOOP_TICK)
            if self.measuring:
                lags.append(max(0.0, time.perf_counter() - start - LOOP_TICK))

    async def run(self) -> LoadStats:
        config = self.config
        started = time.perf_counter()
        gate = asyncio.Semaphore(config.setup_concurrency)
        indexes = range(config.first_match, config.first_match + config.matches)
        made = await asyncio.gather(*(self.setup_match(i, gate) for i in indexes))
        self.runs = [run for run in made if run is not None]
        if self.crowd_only and config.seated is not None:
            self.runs.append(await self.setup_crowd(config.seated, gate))
        sockets = [s for run in self.runs for s in run.sockets]
        self.stats.sockets = len(sockets)
        await self.wait_for_the_others()
        self.stats.setup_seconds = time.perf_counter() - started
        self.playing = True
        self.measuring = True
        background = [asyncio.create_task(self.loop_lag())]
        background += [asyncio.create_task(s.pinger()) for s in sockets if s.probe]
        # One client process reads the servers' CPU (all of them measure about the same window).
        pids = config.server_pids if config.first_match == 0 and not self.crowd_only else []
        cpu_before = {pid: cpu_seconds(pid) for pid in pids}
        window_start = self.window_start = time.perf_counter()
        self.stats.window_began = time.time()
        loop = asyncio.get_running_loop()
        for run in self.runs:
            delay = config.stagger_step * run.index
            if delay > 0:
                loop.call_later(delay, self.start_match, run)
            else:
                self.start_match(run)
        await asyncio.sleep(config.duration)
        self.playing = False
        self.stats.window = time.perf_counter() - window_start
        for pid, before in cpu_before.items():
            after = cpu_seconds(pid)
            if before is not None and after is not None:
                self.stats.server_cpu[str(pid)] = 100 * (after - before) / self.stats.window
        await asyncio.sleep(config.drain)
        if config.reconnect_storm and config.first_match == 0:
            await self.storm()
        self.measuring = False
        for run in self.runs:
            if self.crowd_only:  # match 0's last version is its players' process's to say
                self.stats.crowd_last_versions.update(s.last_v for s in run.sockets)
                continue
            for s in run.sockets:
                if s.last_v < run.max_v:
                    self.stats.missed += run.max_v - s.last_v
            if run.index == 0 and config.crowd_procs:
                self.stats.featured_shot_sent = dict(run.shots)
                self.stats.featured_aim_sent = dict(run.aims)
                self.stats.featured_max_v = run.max_v
                self.stats.featured_window_start = window_start
        for task in background:
            task.cancel()
        for s in sockets:
            await s.close()
        await asyncio.gather(*self.listeners, return_exceptions=True)
        return self.stats

    async def storm(self) -> None:
        """Kill the first server with SIGKILL, start it again, and time the return of its sockets: from
        the kill, and from the moment the new process answers /healthz."""
        config, stats = self.config, self.stats
        url = config.urls[0]
        server = await asyncio.to_thread(ServerProcess.read, config.server_pids[0])
        port = urllib.parse.urlparse(url).port
        if port is None or not server.serves(port):
            stats.errors["storm:pid_not_on_first_url"] += 1
            return
        victims = [s for run in self.runs for s in run.sockets if s.url == url]
        self.storming = True
        rss, peak = rss_of(server.pid)
        stats.storm_rss, stats.storm_peak = rss or 0, peak or 0
        killed = time.perf_counter()
        await asyncio.to_thread(server.kill)
        # "The restart" is the new process's start: its boot counts against the bar, as a deploy's would.
        restarted = time.perf_counter()
        process = await asyncio.to_thread(server.start)
        healthy = await asyncio.to_thread(wait_healthy, url, STORM_TIMEOUT)
        stats.storm_pid = process.pid
        stats.storm_sockets = len(victims)
        stats.storm_dead = restarted - killed
        stats.storm_restart = time.perf_counter() - restarted
        if not healthy:
            stats.errors["storm:not_restarted"] += 1
            return
        while any(s.back_at is None for s in victims) and time.perf_counter() < restarted + STORM_TIMEOUT:
            await asyncio.sleep(0.05)
        back = [s.back_at for s in victims if s.back_at is not None]
        stats.storm_back = len(back)
        if back:
            stats.storm_after_restart = max(back) - restarted
            stats.storm_after_kill = max(back) - killed
        await asyncio.sleep(config.drain)  # the events the restart's catch-up brings
        self.storming = False


def run_load(config: LoadConfig) -> dict[str, Any]:
    """Entry point of a client process (picklable arguments and result). The client gets the server's
    GC settings (game.common.gctune): its own full collections would stop its loop for 100+ ms and show as
    latency."""
    tune_garbage_collector()
    return asyncio.run(LoadRunner(config).run()).as_dict()
