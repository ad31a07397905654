"""The game clock: the one source of time for the server's deadlines.

Every deadline a match or a lobby keeps (the shot clock, the disconnect grace, K-11's warning and
limit, a tournament's start and its no-show forfeits, a seek's widening) is an epoch second read from
`game_now()`, and so is the `now` a snapshot gives the client (whose clocks follow the server's by
that skew). In production it is the wall clock. A test moves it forward with `advance`: in-process
directly, and in a server process through the test-only endpoint (`game.site.views.test_clock`, mounted
only when `settings.KAIZA_TEST_CLOCK` is on), so that no test waits for a shot clock, a grace or
the K-11 limit in real time. The poll that fires deadlines reads the same clock, so an advanced
deadline fires through the same path as ever, once.

What stays on the wall clock: the liveness of sockets and processes (a heartbeat every few seconds:
whether a process is alive is not a rule of the game), rate limits and budgets, and the timestamps a
record keeps (`finished_at`).

The offset belongs to the process; a test that advances a server's clock runs one server process.
"""

from __future__ import annotations

import time

__all__ = ["MAX_STEP", "advance", "game_now", "offset", "reset"]

#: The most one `advance` may move the clock: a day (anything a match or a tournament waits for).
MAX_STEP = 86400.0

_offset = 0.0


def game_now() -> float:
    """Epoch seconds by the game clock."""
    return time.time() + _offset


def advance(seconds: float) -> float:
    """Move the game clock forward by `seconds` (0 < seconds <= MAX_STEP); returns the new offset.
    Time never runs backwards: a deadline that fired stays fired."""
    global _offset
    if not (0 < seconds <= MAX_STEP):
        raise ValueError(f"the game clock moves forward by 0 to {MAX_STEP:.0f} s, not {seconds!r}")
    _offset += float(seconds)
    return _offset


def offset() -> float:
    """How far the game clock is ahead of the wall clock (0 in production)."""
    return _offset


def reset() -> None:
    """Back to the wall clock (between tests)."""
    global _offset
    _offset = 0.0
