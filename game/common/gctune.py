"""Garbage-collector settings for the long-running processes (daphne, the load client)."""

from __future__ import annotations

import gc

#: gen0, gen1, gen2 thresholds (Python's are 700, 10, 10). gen1 at 5, not 50: gen1 holds up to
#: gen0's threshold times gen1's of young survivors, and after a burst of connections (840 sockets' tasks
#: and coroutines) a gen1 of 50 gathered 256,000 of them into one 295 ms collection, the load benchmark's
#: one stalled second in twenty (found with bench.diagnostics.loopwatch); at 5 a gen1 collection
#: takes 25-90 ms. gen2 at 1,000 keeps full collections (all the young heap promoted meanwhile) rare.
DEFAULT_THRESHOLDS = (10000, 5, 1000)


def tune_garbage_collector(thresholds: tuple[int, int, int] | None = None) -> None:
    """Full collections of the cyclic GC stopped the load benchmark's server loop for 60–170 ms every
    few seconds (measured with gc callbacks). The objects that exist once the application is loaded
    (Django, the engine tables, the routes) live as long as the process: `gc.freeze()` takes them out
    of every collection, and rarer collections (DEFAULT_THRESHOLDS; a server's KAIZA_GC_THRESHOLD overrides)
    removed every pause over 5 ms at 30 matches.

    Rarer collections used to keep finished requests' PostgreSQL connections open until the GC freed
    them (under ASGI each request has its own thread): `game.common.db.close_request_connection` now closes
    them when the request ends, or the 100-match set-up ran out of connections."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*(thresholds or DEFAULT_THRESHOLDS))
