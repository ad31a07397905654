"""Jobs for the engine pool's tests, run in its worker processes: standard library only (a worker
imports no Django), importable by name from a spawned process."""

from __future__ import annotations

import os
import time
from pathlib import Path


def hold_until(path: str, limit: float = 120.0) -> int:
    """Keep a worker busy until ``path`` exists (the test creates it when it wants the worker back);
    the worker's pid. ``limit`` only stops a test that failed before releasing it from holding the
    worker for good."""
    give_up = time.monotonic() + limit
    while not Path(path).exists() and time.monotonic() < give_up:
        time.sleep(0.005)
    return os.getpid()
