"""What a load run is (`LoadConfig`), and how its sockets spread over the servers.

Kept apart from the client (game.loadtest.client) so the command and the tests read the settings
without the client's machinery.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field

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
    #: Against the bare relay (game.loadtest.bare_relay): no HTTP seats, a seat in each player's socket
    #: URL, a fixed strike for every shot; the same aims, shots and pings on the wire.
    bare: bool = False
    #: Seconds between the starts of two consecutive matches (the command's ``--stagger`` over the
    #: matches of every client process): 0 starts all at the window's start, as every figure until
    #: round 13 did; a real site's matches start spread out, their breaks in different seconds.
    stagger_step: float = 0.0
    #: Extra spectators on match 0 of the whole run (``--featured``): one crowded match, a club final
    #: or the home page's featured match, beside the even spread of the others.
    featured: int = 0
    #: After the window: kill the first of `server_pids` (serving the first of `urls`) with SIGKILL,
    #: start it again, and time its sockets' return (game.loadtest.storm; ``--reconnect-storm``).
    reconnect_storm: bool = False


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
