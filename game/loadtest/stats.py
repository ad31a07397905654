"""The raw figures of one load client process (`LoadStats`), and their merge across processes.

Kept apart from the client (game.loadtest.client), which fills them in, so the command that summarises
and judges them (game.management.commands.loadtest) and the tests read them without the client.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any


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

    def as_dict(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data["errors"] = dict(self.errors)
        data["finishes"] = dict(self.finishes)
        data["retries"] = dict(self.retries)
        data["server_cpu"] = dict(self.server_cpu)
        return data

    @classmethod
    def merge(cls, parts: list[dict[str, Any]]) -> LoadStats:
        total = cls()
        for part in parts:
            for key, value in part.items():
                if key in ("errors", "finishes", "server_cpu", "retries"):
                    getattr(total, key).update(value)
                elif key == "window_began":
                    total.window_began = min(total.window_began or value, value)
                elif key in ("window", "setup_seconds") or key.startswith("storm_"):
                    setattr(total, key, max(getattr(total, key), value))
                else:
                    setattr(total, key, getattr(total, key) + value)
        return total
