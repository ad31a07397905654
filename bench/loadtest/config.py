"""What a load run is (`LoadConfig`), and how its sockets spread over the servers.

Kept apart from the client (bench.loadtest.client) so the command and the tests read the settings
without the client's machinery.
"""

from __future__ import annotations

import sys
import time
import zlib
from dataclasses import dataclass, field
from typing import Protocol

from bench.loadtest.seats import SeatedMatch

#: How long a process waits at `LoadConfig.start_barrier` for the others' set-up (s): 2,000 sockets
#: take a while to connect, a process that died never comes.
START_TIMEOUT = 600.0


class StartBarrier(Protocol):
    """What a process of the run waits at before its window (a `multiprocessing.Manager().Barrier`'s
    proxy: picklable, so it travels in `LoadConfig`)."""

    def wait(self, timeout: float | None = None) -> int: ...


#: After the run, how long sockets get to receive the last events before versions are compared (s).
DRAIN = 3.0


@dataclass
class LoadConfig:
    urls: list[str]
    matches: int
    spectators: int
    duration: float
    seed: int = 1
    think: float = 2.0
    #: With `think_max` above `think`, each shot's think time is drawn uniformly from [think, think_max].
    think_max: float = 0.0
    aim_rate: float = 10.0
    setup_concurrency: int = 16
    ping_probes: int = 10
    first_match: int = 0
    drain: float = DRAIN
    #: "socket": a match's sockets round-robin over `urls`; "match": all of them on one (`socket_urls`).
    spread: str = "socket"
    #: Local server processes whose CPU over the window to read (by the client process of match 0).
    server_pids: list[int] = field(default_factory=list)
    #: Against the bare relay (bench.loadtest.bare_relay): no HTTP seats, a seat in each player's socket
    #: URL, a fixed strike for every shot; the same aims, shots and pings on the wire.
    bare: bool = False
    #: Seconds between the starts of two consecutive matches (the command's ``--stagger`` over the
    #: matches of every client process): 0 starts all at the window's start, as the first load
    #: figures did; a real site's matches start spread out, their breaks in different seconds.
    stagger_step: float = 0.0
    #: Extra spectators on match 0 of the whole run (``--featured``): one crowded match, a club final
    #: or the home page's featured match, beside the even spread of the others.
    featured: int = 0
    #: After the window: kill the first of `server_pids` (serving the first of `urls`) with SIGKILL,
    #: start it again, and time its sockets' return (bench.loadtest.storm; ``--reconnect-storm``).
    reconnect_storm: bool = False
    #: ``--crowd-procs``: the featured crowd in this many client processes of its own, apart from its
    #: match's players (0: in the process of match 0, beside them). Every process of the run has it.
    crowd_procs: int = 0
    #: In a crowd process: which one (0 to `crowd_procs` - 1), holding the crowd sockets
    #: `crowd_share(featured, crowd_procs, crowd_index)` of match 0 and nothing else; None in a process
    #: of matches.
    crowd_index: int | None = None
    #: Match 0 seated by the command before any process starts (with `crowd_procs`): the crowd
    #: processes watch it, the process of match 0 plays it.
    seated: SeatedMatch | None = None
    #: Where every process of a run of several waits between its set-up and its window, so all measure
    #: the same seconds and no match is played before the crowd is there (None: one process).
    start_barrier: StartBarrier | None = None


def stable_seed(*parts: object) -> int:
    """A 32-bit seed from `parts` that is the same in every process: `hash()` of a string is salted
    per process (PYTHONHASHSEED), so the same run seeded the players' moves differently each time."""
    return zlib.crc32(repr(parts).encode())


#: The ways `LoadConfig.spread` may spread a match's sockets over the servers.
SPREADS = ("socket", "match")


def socket_urls(urls: list[str], index: int, spectators: int, spread: str) -> list[str]:
    """The server URL of each socket of match `index`: the two players', then each spectator's."""
    if spread == "match":
        return [urls[index % len(urls)]] * (2 + spectators)
    players = [urls[index % len(urls)], urls[(index + 1) % len(urls)]]
    return players + [urls[(index + j) % len(urls)] for j in range(spectators)]


def crowd_share(featured: int, crowd_procs: int, index: int) -> range:
    """The featured crowd's sockets (numbered 0 to `featured` - 1: socket j on server j mod the
    servers) that crowd process `index` of `crowd_procs` holds: as even a share as can be."""
    share, extra = divmod(featured, crowd_procs)
    start = index * share + min(index, extra)
    return range(start, start + share + (1 if index < extra else 0))


def shared_clock_problem() -> str | None:
    """Why the crowd's latencies cannot be measured across processes here, or None when they can.

    A crowd process notes when each shot and aim reached it, the players' process when it sent them,
    both with `time.perf_counter()`, and the merge subtracts the one from the other. That holds where
    perf_counter is CLOCK_MONOTONIC: on Linux one clock for every process of the machine (since
    boot, not adjusted), and all the client processes run on one machine. Elsewhere its origin may be
    per process (the documentation promises only differences within one)."""
    clock = time.get_clock_info("perf_counter")
    if sys.platform.startswith("linux") and clock.implementation == "clock_gettime(CLOCK_MONOTONIC)":
        return None
    return (
        f"time.perf_counter() here is {clock.implementation} on {sys.platform}, not Linux's CLOCK_MONOTONIC: "
        "times taken in two processes cannot be compared"
    )
