"""One load client process: its matches set up, played for the window, drained and counted.

The sockets and what they measure are bench.loadtest.client's; this is the process around them (the
set-up, the barrier all processes of a run wait at, the window, the restart storm), and `run_load`, the
entry point each client process of `manage.py loadtest` runs.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
import urllib.parse
from typing import Any

from bench.loadtest.allocator import keep_read_buffers_on_heap
from bench.loadtest.client import LOOP_TICK, STORM_TIMEOUT, MatchRun, Socket
from bench.loadtest.config import START_TIMEOUT, LoadConfig, crowd_share, socket_urls
from bench.loadtest.procstat import cpu_seconds, rss_of
from bench.loadtest.seats import SeatedMatch, seat_match
from bench.loadtest.stats import LoadStats
from bench.loadtest.storm import ServerProcess, wait_healthy
from game.common.gctune import tune_garbage_collector


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
                    # process should fan out to (docs/deployment.md's hash of the path would put it on one;
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
        own_cpu_before = time.process_time()
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
        self.stats.client_cpu[str(os.getpid())] = 100 * (time.process_time() - own_cpu_before) / self.stats.window
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
    latency. Its allocator keeps socket reads on the heap (bench.loadtest.allocator)."""
    tune_garbage_collector()
    keep_read_buffers_on_heap()
    return asyncio.run(LoadRunner(config).run()).as_dict()
