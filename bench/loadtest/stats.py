"""The raw figures of one load client process (`LoadStats`), and their merge across processes.

Kept apart from the client (bench.loadtest.client), which fills them in, so the command that summarises
and judges them (bench.management.commands.loadtest) and the tests read them without the client.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

#: A shot's key (player, ack) or an aim's (angle, speed): what the server echoes of what was sent.
Key = TypeVar("Key", bound=Hashable)
ShotKey = tuple[str | None, int | None]
AimKey = tuple[float, float]


#: Fields merged by `update`: counters summed, and the featured match's send times (one process has them).
COUNTED_OR_KEYED = frozenset(
    {
        "errors",
        "finishes",
        "server_cpu",
        "client_cpu",
        "retries",
        "crowd_last_versions",
        "featured_shot_sent",
        "featured_aim_sent",
    }
)
#: Fields merged by taking the largest: durations, and the featured match's figures (one process has them).
LARGEST = frozenset({"window", "setup_seconds", "featured_max_v", "featured_window_start"})


@dataclass
class LoadStats:
    """Raw figures of one client process; merged by the command, then summarised."""

    shot_shooter: list[float] = field(default_factory=list)
    shot_opponent: list[float] = field(default_factory=list)
    shot_spectator: list[float] = field(default_factory=list)
    #: Aim relay latencies apart by who received them: the opponent gets every relay, the spectators a
    #: thinned stream (game.realtime.hub.SpectatorAims), so their figures differ by design and are judged apart.
    aim_opponent: list[float] = field(default_factory=list)
    aim_spectator: list[float] = field(default_factory=list)
    #: The crowd of the featured match (`LoadConfig.featured`), apart from the evenly spread spectators.
    shot_featured: list[float] = field(default_factory=list)
    aim_featured: list[float] = field(default_factory=list)
    #: The featured match's own players (also in the shooter and opponent rows): what its crowd costs them.
    shot_featured_players: list[float] = field(default_factory=list)
    aim_featured_players: list[float] = field(default_factory=list)
    ping: list[float] = field(default_factory=list)
    loop_lag: list[float] = field(default_factory=list)
    #: The crowd processes' own loop lag (``--crowd-procs``): 1,000 sockets' frames on one loop.
    crowd_loop_lag: list[float] = field(default_factory=list)
    #: With the crowd in processes of its own (``--crowd-procs``), its latencies are joined after the
    #: run (`join_crowd`): the process of match 0 gives the send times (perf_counter) of that match's
    #: shots and aims and its last version; each crowd process, per shot and aim key, when each of its
    #: sockets received it (measuring), and how many of its sockets ended at which version.
    featured_shot_sent: dict[ShotKey, float] = field(default_factory=dict)
    featured_aim_sent: dict[AimKey, float] = field(default_factory=dict)
    featured_max_v: int = 0
    #: When the window of match 0's process began (perf_counter): the crowd's timeline counts from it.
    featured_window_start: float = 0.0
    crowd_shot_receipts: dict[ShotKey, list[float]] = field(default_factory=dict)
    crowd_aim_receipts: dict[AimKey, list[float]] = field(default_factory=dict)
    crowd_last_versions: Counter[int] = field(default_factory=Counter)
    #: (seconds into the window, latency) of every shot and aim sample, for the per-second timeline.
    shot_timeline: list[tuple[float, float]] = field(default_factory=list)
    aim_timeline: list[tuple[float, float]] = field(default_factory=list)
    messages_in: int = 0
    messages_out: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    missed: int = 0
    shots: int = 0
    aims: int = 0
    finished: int = 0
    #: How the finished matches ended (the `finished` event's `result.how`): none should end inside a
    #: window of 20 s, so each one says what cut a match short (an abandonment: presence lagging).
    finishes: Counter[str] = field(default_factory=Counter)
    sockets: int = 0
    window: float = 0.0
    #: Wall-clock time (epoch s) the measured window began: to line the timeline up with server logs.
    window_began: float = 0.0
    setup_seconds: float = 0.0
    #: The reconnect storm (LoadConfig.reconnect_storm): the restarted server's pid, the sockets it held,
    #: how many came back, and the seconds from the kill to /healthz answering again and to the last
    #: socket's snapshot (from the restart, from the kill).
    storm_pid: int = 0
    #: The killed process's RSS and peak RSS (kB), read just before the kill (its /proc is gone after).
    storm_rss: int = 0
    storm_peak: int = 0
    storm_sockets: int = 0
    storm_back: int = 0
    #: Seconds from the SIGKILL until the process was dead, and from its new start until /healthz answered.
    storm_dead: float = 0.0
    storm_restart: float = 0.0
    storm_after_restart: float = 0.0
    storm_after_kill: float = 0.0
    #: The storm's failed reconnect attempts by what failed them (refused, a handshake answered with a
    #: status, a timeout...): each one costs a socket its next, longer backoff.
    retries: Counter[str] = field(default_factory=Counter)
    #: pid -> the share of a core (%) each `LoadConfig.server_pids` process used over the window.
    server_cpu: dict[str, float] = field(default_factory=dict)
    #: pid -> the share of a core (%) each client process used over the window: the client shares the
    #: machine with the server, and what it costs is not the server's to pay.
    client_cpu: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data["errors"] = dict(self.errors)
        data["finishes"] = dict(self.finishes)
        data["retries"] = dict(self.retries)
        data["server_cpu"] = dict(self.server_cpu)
        data["client_cpu"] = dict(self.client_cpu)
        data["crowd_last_versions"] = dict(self.crowd_last_versions)
        return data

    @classmethod
    def merge(cls, parts: list[dict[str, Any]]) -> LoadStats:
        total = cls()
        for part in parts:
            for key, value in part.items():
                if key in COUNTED_OR_KEYED:
                    getattr(total, key).update(value)
                elif key in ("crowd_shot_receipts", "crowd_aim_receipts"):
                    receipts = getattr(total, key)
                    for sample, times in value.items():
                        receipts.setdefault(sample, []).extend(times)
                elif key == "window_began":
                    total.window_began = min(total.window_began or value, value)
                elif key in LARGEST or key.startswith("storm_"):
                    setattr(total, key, max(getattr(total, key), value))
                else:
                    setattr(total, key, getattr(total, key) + value)
        total.join_crowd()
        return total

    def join_crowd(self) -> None:
        """Turn the crowd processes' receipts into the featured crowd's samples (shot round trip, aim
        relay, the timeline) by the send times of match 0's process, and count the versions each crowd
        socket ended short of the match's last one; the receipts are then spent (a second join adds
        nothing). Only the processes' clocks being one makes this right (config.shared_clock_problem)."""
        start = self.featured_window_start
        for received, latency in receipt_latencies(self.featured_shot_sent, self.crowd_shot_receipts):
            self.shot_featured.append(latency)
            self.shot_timeline.append((received - start, latency))
        for received, latency in receipt_latencies(self.featured_aim_sent, self.crowd_aim_receipts):
            self.aim_featured.append(latency)
            self.aim_timeline.append((received - start, latency))
        self.crowd_shot_receipts.clear()
        self.crowd_aim_receipts.clear()
        if self.crowd_last_versions:
            last = max(self.featured_max_v, *self.crowd_last_versions)
            self.missed += versions_short(self.crowd_last_versions, last)
            self.crowd_last_versions.clear()


def receipt_latencies(sent: dict[Key, float], receipts: dict[Key, list[float]]) -> list[tuple[float, float]]:
    """(receipt time, latency) of every receipt whose key was sent: times of one clock (perf_counter),
    taken in different processes. A key never sent (a shot before the window, another match's aim)
    has no latency and is left out."""
    return [(received, received - sent[key]) for key, times in receipts.items() if key in sent for received in times]


def versions_short(last_versions: Counter[int], last: int) -> int:
    """The versions missed by sockets that ended before `last` (`last_versions`: how many sockets
    ended at each version)."""
    return sum((last - version) * count for version, count in last_versions.items() if version < last)
