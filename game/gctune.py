"""Garbage-collector settings for the long-running processes (daphne, the load client)."""

from __future__ import annotations

import gc
import os


def tune_garbage_collector(thresholds: str | None = None) -> None:
    """Full collections of the cyclic GC stopped the load benchmark's server loop for 60–170 ms every
    few seconds (measured with gc callbacks). The objects that exist once the application is loaded
    (Django, the engine tables, the routes) live as long as the process: `gc.freeze()` takes them out
    of every collection.

    Thresholds ("gen0,gen1,gen2", from `thresholds` or KAIZA_GC_THRESHOLD) stay Python's unless set.
    Raising them (10000,50,100) removed every pause over 5 ms at 30 matches, but in daphne it also
    kept closed requests' PostgreSQL connections alive (Django's connection objects are in reference
    cycles, and under ASGI each request has a thread of its own): at 100 matches set-up ran out of
    connections. The load client, which has no database, raises them."""
    gc.collect()
    gc.freeze()
    value = thresholds or os.environ.get("KAIZA_GC_THRESHOLD")
    if value:
        gc.set_threshold(*(int(part) for part in value.split(",")))
